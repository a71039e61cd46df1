"""``tussle serve`` tried as an attacker would: each reproduction of issue 32, against a real server process.

Every test starts its own ``tussle serve`` (SQLite, PostgreSQL, or two processes on
one PostgreSQL with Redis), sends what a hostile client would, and asserts that it
fails: no file's contents in an answer, no seed a joiner's game depends on, no memory
or connection held without bound, no client that slows the others, no 500 and no
traceback in the server's log. Traffic goes to 127.0.0.1 only, bounded in count.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import threading
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
from websockets.sync.client import ClientConnection, connect

from server_support import alive, children, postgres_database
from test_server import Server, receive
from tussle import Record, load_game

REDIS = os.environ.get("TUSSLE_TEST_REDIS", "redis://127.0.0.1:6379/0")
PERSONS = [{"kind": "person"}, {"kind": "person"}]

pytestmark = pytest.mark.xdist_group("server_security")


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'tussle.db'}"
        return
    with postgres_database() as url:
        yield url


def start(db: str, tmp_path: Path, *extra: str, name: str = "server") -> Server:
    return Server(db, *extra, log=tmp_path / f"{name}.log")


def assert_clean(server: Server) -> None:
    """The server's log holds no traceback and no answer of 500."""
    text = server.output()
    assert "Traceback" not in text, text[-3000:]
    assert " 500 " not in text, text[-3000:]


def request(
    server: Server,
    method: str,
    path: str,
    body: Any = None,
    headers: dict[str, str] | None = None,
) -> tuple[int, Any, dict[str, str]]:
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(
        server.url + path,
        data=data,
        method=method,
        headers={"content-type": "application/json", **(headers or {})},
    )
    try:
        with urllib.request.urlopen(req, timeout=30) as answer:
            return answer.status, json.loads(answer.read()), dict(answer.headers)
    except urllib.error.HTTPError as exc:
        raw = exc.read()
        return exc.code, json.loads(raw) if raw else None, dict(exc.headers)


def rss(server: Server) -> int:
    """The server process's resident memory, in bytes."""
    assert server.process is not None
    for line in Path(f"/proc/{server.process.pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise AssertionError("no VmRSS")


# --- 1. No client input names a file or code ---------------------------------------------


def test_no_option_or_record_reads_a_file_of_the_server(db: str, tmp_path: Path) -> None:
    # A real setup file and a real deck file, each with a marker line, that the server could read.
    setup = tmp_path / "layout.txt"
    setup.write_text("# MARKER-SETUP-7f3a\nsize=16 white=Ch1N black=Ci16S\n")
    deck = tmp_path / "deck.toml"
    deck.write_text('# MARKER-DECK-7f3a\n[[warriors]]\nname = "x"\n')
    server = start(db, tmp_path)
    try:
        for options in (
            {"setup": "/etc/shadow"},
            {"setup": "/proc/self/cmdline"},
            {"setup": str(setup)},
            {"setup": "../../../../etc/passwd"},
        ):
            status, answer, _ = request(
                server, "POST", "/api/games", {"game": "tank-chess", "options": options, "seats": PERSONS}
            )
            assert status == 400, answer
            error = answer["error"]
            assert "MARKER" not in error and "root:" not in error and "serve" not in error, error
            assert "\n" not in error
        status, answer, _ = request(
            server, "POST", "/api/games", {"game": "fight", "options": {"deck": str(deck)}, "seats": PERSONS}
        )
        assert status == 400 and "MARKER" not in answer["error"], answer
        # A record names its options too: the replay reads no file either.
        record = Record.start(load_game("tank-chess"), ["a", "b"]).to_json()
        record["options"] = {"setup": str(setup)}
        status, answer, _ = request(server, "POST", "/api/replay", {"record": record})
        assert status == 400 and "MARKER" not in answer["error"], answer
        # The layout itself, sent as data, makes the game.
        layout = setup.read_text()
        status, made, _ = request(
            server,
            "POST",
            "/api/games",
            {"game": "tank-chess", "options": {"setup": layout}, "seats": PERSONS},
        )
        assert status == 201, made
        view = request(server, "GET", f"/api/games/{made['id']}")[1]
        assert "Ch1" in json.dumps(view) or view["observation"]
        assert_clean(server)
    finally:
        server.stop()


def test_a_request_for_another_host_is_refused(tmp_path: Path) -> None:
    # DNS rebinding: a page at evil.example, its name pointed at 127.0.0.1, sends its own name as Host.
    server = start(f"sqlite:///{tmp_path / 'h.db'}", tmp_path)
    try:
        status, answer, _ = request(server, "GET", "/api/lobby", headers={"host": "evil.example:8000"})
        assert status == 421 and "evil.example" in answer["error"]
        assert request(server, "GET", "/api/lobby", headers={"host": f"localhost:{server.port}"})[0] == 200
        for host in ("evil.example", f"127.0.0.1:{server.port}\r\nHost: evil.example"):
            with socket.create_connection(("127.0.0.1", server.port), timeout=10) as raw:
                raw.sendall(
                    f"GET /ws/games/{uuid.uuid4()} HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\n"
                    "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                    "Sec-WebSocket-Version: 13\r\n\r\n".encode()
                )
                assert raw.recv(4096).startswith(b"HTTP/1.1 403")
        assert_clean(server)
    finally:
        server.stop()
    named = start(
        f"sqlite:///{tmp_path / 'h2.db'}", tmp_path, "--allowed-host", "games.example.org", name="named"
    )
    try:
        assert request(named, "GET", "/api/lobby", headers={"host": "games.example.org"})[0] == 200
        assert request(named, "GET", "/api/lobby", headers={"host": "other.example.org"})[0] == 421
    finally:
        named.stop()


# --- 2. Chance and budgets are the server's ------------------------------------------------


def test_a_game_others_can_join_draws_from_the_servers_secret(tmp_path: Path) -> None:
    server = start(f"sqlite:///{tmp_path / 's.db'}", tmp_path)
    try:
        body = {"game": "fight", "seed": "mine", "seats": [{"kind": "person"}, {"kind": "open"}]}
        status, answer, _ = request(server, "POST", "/api/games", body)
        assert status == 400 and "server's secret" in answer["error"]
        # Two games with open seats, made alike and joined alike, deal different hands.
        hands = []
        for _ in range(2):
            made = request(server, "POST", "/api/games", {**body, "seed": None})[1]
            joined = request(server, "POST", f"/api/games/{made['id']}/join", {})[1]
            with server.seat(made["id"], joined["token"]) as ws:
                hands.append(receive(ws)["observation"])
        assert hands[0] != hands[1]
        # A game whose every seat is the maker's may repeat by its seed.
        mine = {"game": "fight", "seed": "mine", "seats": PERSONS}
        assert request(server, "POST", "/api/games", mine)[0] == 201
        assert_clean(server)
    finally:
        server.stop()


def test_computer_seats_take_the_catalogs_players_and_every_move_is_capped(tmp_path: Path) -> None:
    server = start(f"sqlite:///{tmp_path / 'c.db'}", tmp_path, "--move-time", "0.3")
    try:
        for spec in ("alphabeta:iterations=1000000000", "mcts:time=3600", "random:seed=1", "../x"):
            seats = [{"kind": "computer", "agent": spec}, {"kind": "computer", "agent": "random"}]
            status, answer, _ = request(server, "POST", "/api/games", {"game": "tank-chess", "seats": seats})
            assert status in (400, 422), answer
        catalog = request(server, "GET", "/api/catalog")[1]
        assert {g["id"]: g["agents"] for g in catalog["games"]}["fite"] == [
            "easy",
            "medium",
            "hard",
            "random",
            "rule",
        ]
        # Robo Battle Pigs' hard level thinks about two seconds a move: capped at 0.3 s, the seat
        # plays a random move, and a game of quick seats beside it is never held up.
        slow = {
            "game": "robo-pigs",
            "options": {"round_limit": 3},
            "seats": [{"kind": "computer", "agent": "hard"}] * 2,
        }
        quick = {
            "game": "fite",
            "options": {"turn_limit": 3},
            "seats": [{"kind": "computer", "agent": "random"}] * 2,
        }
        slow_id = request(server, "POST", "/api/games", slow)[1]["id"]
        quick_id = request(server, "POST", "/api/games", quick)[1]["id"]
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            views = [request(server, "GET", f"/api/games/{g}")[1] for g in (slow_id, quick_id)]
            if all(v["result"] is not None for v in views):
                break
            time.sleep(0.5)
        assert all(v["result"] is not None for v in views), views
        assert "plays a random move: it thought longer than 0.3 s" in server.output()
        assert f"game {slow_id}" in server.output()
        assert_clean(server)
    finally:
        server.stop()


def test_sigterm_ends_the_server_and_its_workers_while_a_computer_thinks(tmp_path: Path) -> None:
    server = start(f"sqlite:///{tmp_path / 't.db'}", tmp_path)
    assert server.process is not None
    seats = [{"kind": "computer", "agent": "hard"}] * 2
    request(server, "POST", "/api/games", {"game": "robo-pigs", "seats": seats})
    time.sleep(1.5)  # a hard move is under way
    workers = children(server.process.pid)
    assert workers, "a worker process plays the computer seats"
    started = time.monotonic()
    server.process.send_signal(signal.SIGTERM)
    server.process.wait(15)
    assert time.monotonic() - started < 5
    time.sleep(0.5)
    assert not [pid for pid in workers if alive(pid)]


def test_killed_with_sigkill_its_workers_die_with_it(tmp_path: Path) -> None:
    server = start(f"sqlite:///{tmp_path / 'k.db'}", tmp_path)
    assert server.process is not None
    request(
        server,
        "POST",
        "/api/games",
        {"game": "robo-pigs", "seats": [{"kind": "computer", "agent": "hard"}] * 2},
    )
    time.sleep(1.0)
    workers = children(server.process.pid)
    assert workers
    server.kill()
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and [pid for pid in workers if alive(pid)]:
        time.sleep(0.1)
    assert not [pid for pid in workers if alive(pid)]


# --- 3. Every byte and second is bounded ----------------------------------------------------


def test_a_chunked_body_is_bounded_by_the_bytes_read(tmp_path: Path) -> None:
    server = start(f"sqlite:///{tmp_path / 'b.db'}", tmp_path)
    try:
        before = rss(server)
        chunk = b"x" * 65536
        with socket.create_connection(("127.0.0.1", server.port), timeout=10) as raw:
            raw.sendall(
                b"POST /api/my-games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                b"Transfer-Encoding: chunked\r\n\r\n"
            )
            sent = 0
            try:
                for _ in range(3200):  # up to 200 MB, as the attack sent; the server stops it long before
                    raw.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                    sent += len(chunk)
            except OSError:
                pass  # the server answered and closed
            answer = raw.recv(4096).decode(errors="replace")
        assert answer.startswith("HTTP/1.1 413"), answer
        assert sent < 32 * 1024 * 1024
        assert rss(server) - before < 20 * 1024 * 1024
        assert_clean(server)
    finally:
        server.stop()


def test_lookups_of_made_up_game_ids_answer_404_and_keep_nothing(tmp_path: Path) -> None:
    server = start(f"sqlite:///{tmp_path / 'i.db'}", tmp_path, "--limit", "requests_per_second=1000")
    try:
        long_id = "a" * 60000

        def lookups(count: int) -> None:
            for i in range(count):
                path = f"/api/games/{long_id}{i}" if i % 2 else f"/api/games/{uuid.uuid4()}"
                status, answer, _ = request(server, "GET", path)
                assert status == 404 and len(answer["error"]) < 200

        lookups(200)  # the allocator's first growth for large requests is no leak
        before = rss(server)
        lookups(600)
        # 300 ids of 60,000 characters kept would be 18 MB (and before, each cost more than that).
        assert rss(server) - before < 4 * 1024 * 1024
        assert_clean(server)
    finally:
        server.stop()


def test_a_spectator_that_never_reads_is_closed_and_holds_nobody_up(db: str, tmp_path: Path) -> None:
    limits = ("requests_per_second=1000", "messages_per_second=1000", "outbox=10")
    server = start(db, tmp_path, *(f"--limit={pair}" for pair in limits))
    try:
        # A 20x20 Tank Chess board: every view is about 11 KB, so the socket's buffers fill soon.
        made = request(
            server, "POST", "/api/games", {"game": "tank-chess", "options": {"size": "20"}, "seats": PERSONS}
        )[1]
        game_id, tokens = made["id"], [s["token"] for s in made["seats"]]
        lazy = _silent_spectator(server.port, game_id)
        player = server.seat(game_id, tokens[0])
        receive(player)
        slowest = 0.0
        for _ in range(1000):
            # The other player comes and goes: each time, every connection is sent a view.
            started = time.monotonic()
            other = server.seat(game_id, tokens[1])
            receive(other)
            other.close()
            assert receive(player)["seats"][1]["connected"]
            assert not receive(player)["seats"][1]["connected"]
            slowest = max(slowest, time.monotonic() - started)
            if "read too little" in server.output():
                break
        assert "read too little" in server.output(), "the spectator that never reads was never closed"
        assert f"game {game_id}" in server.output()
        assert slowest < 5.0  # the player never waited for it (before, the game froze for good)
        assert _close_code(lazy) == 4008
        view = receive(server.seat(game_id, tokens[0]))
        player.send(json.dumps({"type": "action", "action": view["legal"]["actions"][0]}))
        assert _next_view(player, 1)["events"] == 1
        player.close()
        assert_clean(server)
    finally:
        server.stop()


def _silent_spectator(port: int, game_id: str) -> socket.socket:
    """A spectator that says hello and never reads: a raw socket with a small receive buffer."""
    raw = socket.socket()
    raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    raw.connect(("127.0.0.1", port))
    raw.sendall(
        (
            f"GET /ws/games/{game_id} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
            "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    answer = b""
    while b"\r\n\r\n" not in answer:
        answer += raw.recv(1)  # byte by byte: nothing after the handshake is taken off the socket
    assert answer.startswith(b"HTTP/1.1 101"), answer
    hello = json.dumps({"type": "hello"}).encode()
    mask = b"\x01\x02\x03\x04"
    masked = bytes(b ^ mask[i % 4] for i, b in enumerate(hello))
    raw.sendall(bytes([0x81, 0x80 | len(hello)]) + mask + masked)
    return raw


def _close_code(raw: socket.socket) -> int | None:
    """Read everything the server sent the silent spectator; the code of its close frame."""
    raw.settimeout(10)
    data = b""
    try:
        while True:
            part = raw.recv(65536)
            if not part:
                break
            data += part
    except OSError:
        pass
    raw.close()
    while data:
        opcode, length = data[0] & 0x0F, data[1] & 0x7F
        start = 2
        if length == 126:
            length, start = int.from_bytes(data[2:4], "big"), 4
        elif length == 127:
            length, start = int.from_bytes(data[2:10], "big"), 10
        payload, data = data[start : start + length], data[start + length :]
        if opcode == 8:
            return int.from_bytes(payload[:2], "big")
    return None


def _next_view(ws: ClientConnection, events: int) -> dict[str, Any]:
    """The first view of ``ws`` that shows at least ``events`` events (earlier ones told of arrivals)."""
    while True:
        message = receive(ws)
        if message["type"] == "view" and message["events"] >= events:
            return message


def test_replays_are_bounded_in_time_and_size_and_hold_nobody_up(tmp_path: Path) -> None:
    server = start(f"sqlite:///{tmp_path / 'r.db'}", tmp_path, "--limit", "requests_per_second=1000")
    try:
        # A long record: a game of Fight! for six, played out by random choices.
        from tussle.agents import make_agent
        from tussle.runner import play_game

        game = load_game("fight", players=6)
        agents = [make_agent("random", game, seat, seed=seat) for seat in range(6)]
        record = play_game(game, agents, seed=3)[1].to_json()
        assert 10_000 < len(json.dumps(record)) < 1024 * 1024
        answers: list[tuple[int, float]] = []

        def upload() -> None:
            started = time.monotonic()
            status, _, headers = request(server, "POST", "/api/replay", {"record": record, "seat": "public"})
            answers.append((status, time.monotonic() - started))
            if status == 429:
                assert int(headers["retry-after"]) >= 1

        threads = [threading.Thread(target=upload) for _ in range(6)]
        for thread in threads:
            thread.start()
        lobby = []
        for _ in range(10):
            started = time.monotonic()
            assert request(server, "GET", "/api/lobby")[0] == 200
            lobby.append(time.monotonic() - started)
            time.sleep(0.1)
        for thread in threads:
            thread.join(60)
        assert len(answers) == 6
        assert all(status in (200, 400, 429) for status, _ in answers), answers
        assert all(seconds < 15 for _, seconds in answers), answers
        assert max(lobby) < 2.0, lobby
        assert_clean(server)
    finally:
        server.stop()


# --- 4. Bounds that bind --------------------------------------------------------------------


def test_a_forwarded_address_is_believed_only_from_a_trusted_proxy(tmp_path: Path) -> None:
    limits = ("--limit", "requests_per_second=2")
    server = start(f"sqlite:///{tmp_path / 'p.db'}", tmp_path, *limits)
    try:
        statuses = [
            request(server, "GET", "/api/lobby", headers={"x-forwarded-for": f"10.9.{i}.{i}"})[0]
            for i in range(12)
        ]
        assert 429 in statuses  # a fresh made-up address each time buys no fresh budget
        status, answer, headers = next(
            request(server, "GET", "/api/lobby")
            for _ in range(20)
            if request(server, "GET", "/api/lobby")[0] == 429
        )
        assert status == 429 and int(headers["retry-after"]) >= 1 and "too many requests" in answer["error"]
    finally:
        server.stop()
    proxied = start(
        f"sqlite:///{tmp_path / 'p2.db'}", tmp_path, *limits, "--trust-proxy", "127.0.0.1", name="proxied"
    )
    try:
        # Behind a proxy, each client forwarded has a budget of its own.
        statuses = [
            request(proxied, "GET", "/api/lobby", headers={"x-forwarded-for": f"192.0.2.{i}"})[0]
            for i in range(12)
        ]
        assert statuses == [200] * 12
        assert_clean(proxied)
    finally:
        proxied.stop()


def test_two_processes_share_each_clients_limits_through_redis_and_the_database(tmp_path: Path) -> None:
    namespace = redis.Redis.from_url(REDIS)
    namespace.flushdb()  # this test's Redis database: nothing of an earlier run counts
    limits = (
        "--limit",
        "requests_per_second=3",
        "--limit",
        "connections=2",
        "--limit",
        "open_games=2",
        "--redis",
        REDIS,
    )
    with postgres_database() as url:
        first = start(url, tmp_path, *limits, name="first")
        second = start(url, tmp_path, *limits, name="second")
        try:
            time.sleep(2.5)  # the start-up checks spent some of the budget
            # Requests: 6 in any 2 seconds between the two processes, not 6 each.
            statuses = [request(s, "GET", "/api/lobby")[0] for _ in range(5) for s in (first, second)]
            assert statuses.count(429) >= 3, statuses
            time.sleep(2.5)
            # Games in play: two in all, wherever they were made.
            made = [
                request(s, "POST", "/api/games", {"game": "fite", "seats": PERSONS}) for s in (first, second)
            ]
            assert [status for status, _, _ in made] == [201, 201]
            time.sleep(2.5)
            status, answer, headers = request(first, "POST", "/api/games", {"game": "fite", "seats": PERSONS})
            assert status == 429 and "too many games" in answer["error"] and "retry-after" in headers
            time.sleep(2.5)
            # Connections: two in all.
            game = made[0][1]
            a = first.seat(game["id"], game["seats"][0]["token"])
            b = second.seat(game["id"], game["seats"][1]["token"])
            receive(a), receive(b)
            third = connect(
                f"ws://127.0.0.1:{second.port}/ws/games/{game['id']}", open_timeout=10, legacy=True
            )
            assert json.loads(third.recv(10))["error"] == "too many connections: at most 2 open at once"
            a.close()
            time.sleep(0.5)
            again = first.seat(game["id"], game["seats"][0]["token"])
            assert receive(again)["type"] == "view"  # a closed connection frees its place
            again.close()
            b.close()
            assert_clean(first)
            assert_clean(second)
        finally:
            first.stop()
            second.stop()
            namespace.flushdb()
            namespace.close()


# --- 5. Every client mistake is a 4xx or one line ------------------------------------------


def test_client_mistakes_are_4xx_and_never_a_traceback(db: str, tmp_path: Path) -> None:
    server = start(db, tmp_path)
    try:
        for body in (
            {"game": "fite", "options": {"players": 3}, "seats": PERSONS},
            {"game": "fite", "options": {"self": 3}, "seats": PERSONS},
            {"game": "fite", "seats": [{"kind": "person", "name": "a\x00b"}, {"kind": "person"}]},
            {"game": "fite", "seed": "s\x00", "seats": PERSONS},
            {"game": "fite", "options": {"turn_limit": 10**40}, "seats": PERSONS},
        ):
            status, answer, _ = request(server, "POST", "/api/games", body)
            assert 400 <= status < 500 and "\n" not in answer["error"], (body, answer)
        made = request(
            server, "POST", "/api/games", {"game": "fite", "seats": [{"kind": "person"}, {"kind": "open"}]}
        )[1]
        status, answer, _ = request(server, "POST", f"/api/games/{made['id']}/join", {"name": "\x00"})
        assert status == 422
        with server.seat(made["id"], made["seats"][0]["token"]) as ws:
            receive(ws)
            ws.send(b"\x00\x01binary")
            assert receive(ws)["error"] == "send text frames holding JSON, not binary ones"
            ws.send(json.dumps({"type": "action", "action": {"nested": [1]}}))
            assert receive(ws)["type"] == "error"
            ws.send(json.dumps({"type": "action", "action": "tac\x00 5"}))
            assert receive(ws)["type"] == "error"
        assert_clean(server)
    finally:
        server.stop()


# --- 6. What docs/server.md says of the bounds is what the server does ---------------------


def test_the_bounds_in_the_docs_are_the_servers() -> None:
    from tussle.server import MOVE_TIME, models, service
    from tussle.server.guard import BODY_SECONDS
    from tussle.server.limits import CONNECTION_LEASE, RENEW_SECONDS, Limits
    from tussle.server.routes import play

    text = " ".join((Path(__file__).parents[1] / "docs" / "server.md").read_text().split())
    limits = Limits()
    rate = limits.requests_per_second
    for line in (
        f"| `requests_per_second` | {rate:g}, with bursts of {2 * rate:g} ",
        f"| `messages_per_second` | {limits.messages_per_second:g} on each WebSocket, bursts of "
        f"{2 * limits.messages_per_second:g} |",
        f"| `connections` | {limits.connections} WebSockets open at once |",
        f"| `open_games` | {limits.open_games} games made and not finished |",
        f"| `outbox` | {limits.outbox} messages waiting",
        f"| a WebSocket message | {models.MAX_MESSAGE // 1024} KiB ",
        f"| a request body | {models.MAX_MESSAGE // 1024} KiB; "
        f"{models.MAX_CREATE // 1024} KiB to make a game",
        f"{models.MAX_RECORD // 2**20} MiB for `POST /api/replay`",
        f"| the time a body may take to arrive | {BODY_SECONDS:g} s ",
        f"| a new WebSocket's hello | {play.HELLO_SECONDS:g} s |",
        f"within {service.REPLAY_SECONDS:g} s of work and {service.MAX_REPLAY_ANSWER // 2**20} MiB of answer",
        f"waits its turn up to {service.REPLAY_WAIT:g} s",
        f"| a computer move | `--move-time` seconds (default {MOVE_TIME:g}) |",
        f"at most {models.MAX_OPTION_CHARS:,} characters",
        f"renewed every {RENEW_SECONDS:g} s while it is open",
    ):
        assert " ".join(line.split()) in text, line
    assert CONNECTION_LEASE <= 60  # "stop counting within a minute"
