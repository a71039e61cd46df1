"""``tussle serve`` over real connections: a uvicorn server started on 127.0.0.1, on SQLite and PostgreSQL.

Every game is played to its end through seats' WebSockets, and every view a
seat receives is compared with what the rules let that seat see; the server is
killed with SIGKILL mid-game and started again; bad messages are refused in one
line and change nothing. PostgreSQL is the server on this machine
(``TUSSLE_TEST_POSTGRES``, default ``postgresql://postgres@127.0.0.1:5432/postgres``):
each test run makes a database of its own there and drops it afterwards. These
tests never skip: without PostgreSQL they fail.
"""

from __future__ import annotations

import json
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect
from websockets.typing import Origin

from tussle import CHANCE, Information, Record, game_info, load_game
from tussle.server.store import Store, schema_version

POSTGRES = os.environ.get("TUSSLE_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/postgres")

#: Options that keep each game short.
SHORT: dict[str, dict[str, Any]] = {
    "robo-pigs": {"round_limit": 12},
    "fite": {"turn_limit": 12},
    "fightopia": {"ply_limit": 40},
    "tank-chess": {"ply_limit": 30},
    "fight": {},
}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Server:
    """``tussle serve`` in a process of its own."""

    def __init__(self, db: str, *extra: str, log: Path | None = None) -> None:
        self.db = db
        self.extra = extra
        #: Where the server's output goes (appended across restarts), to be read by the test. Never a
        #: pipe: one nobody reads fills up, and the server then stops in the middle of a write.
        self.log = log if log is not None else Path(tempfile.mkdtemp(prefix="tussle-server-")) / "server.log"
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None
        self.start()

    def output(self) -> str:
        """What the server has written to its log so far."""
        return self.log.read_text(errors="replace")

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        command = [
            sys.executable,
            "-m",
            "tussle",
            "serve",
            "--port",
            str(self.port),
            "--db",
            self.db,
            *self.extra,
        ]
        with self.log.open("ab") as out:  # the server has its own copy
            self.process = subprocess.Popen(
                [*command, "--workers", "1"], stdout=out, stderr=subprocess.STDOUT
            )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"{self.url}/api/lobby", timeout=1):
                    return
            except OSError:  # not listening yet, or too busy to answer within the second (a timeout)
                if self.process.poll() is not None:
                    raise AssertionError(self.output()) from None
                time.sleep(0.1)
        # Not left running: an orphan server would take CPU from every test after this one.
        self.process.kill()
        self.process.wait()
        raise AssertionError("the server did not start")

    def kill(self) -> None:
        """SIGKILL: no shutdown, nothing flushed."""
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()

    def post(self, path: str, body: Any) -> tuple[int, Any]:
        request = urllib.request.Request(
            self.url + path, data=json.dumps(body).encode(), headers={"content-type": "application/json"}
        )
        try:
            with urllib.request.urlopen(request, timeout=10) as answer:
                return answer.status, json.loads(answer.read())
        except urllib.error.HTTPError as exc:
            return exc.code, json.loads(exc.read())

    def get(self, path: str) -> tuple[int, Any]:
        try:
            with urllib.request.urlopen(self.url + path, timeout=10) as answer:
                return answer.status, json.loads(answer.read())
        except urllib.error.HTTPError as exc:
            return exc.code, json.loads(exc.read())

    def seat(self, game: str, token: str | None) -> ClientConnection:
        ws = connect(f"ws://127.0.0.1:{self.port}/ws/games/{game}", open_timeout=10, legacy=True)
        ws.send(json.dumps({"type": "hello", **({"token": token} if token else {})}))
        return ws


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def db(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A fresh database URL of each kind for the module's tests."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path_factory.mktemp('server') / 'tussle.db'}"
        return
    import psycopg

    name = f"tussle_test_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(POSTGRES, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    base = POSTGRES.rsplit("/", 1)[0]
    try:
        yield f"{base}/{name}"
    finally:
        with psycopg.connect(POSTGRES, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(scope="module")
def server(db: str) -> Iterator[Server]:
    s = Server(db)
    yield s
    s.stop()


def receive(ws: ClientConnection) -> dict[str, Any]:
    message: dict[str, Any] = json.loads(ws.recv(timeout=30))
    return message


def pick(view: dict[str, Any], rng: random.Random) -> str:
    """A random legal action from a view (a Robo Pigs program is composed: its list is not sent)."""
    actions = view["legal"]["actions"]
    if actions is not None:
        return str(rng.choice(actions))
    damage = view["observation"]["pigs"][view["seat"]]["damage"]
    commands = rng.choices(["^", "v", "\\", "/", "TL", "TR", "F", "H"], k=5 - damage)
    for _ in range(damage):
        commands.insert(rng.randrange(len(commands) + 1), "X")
    return " ".join(commands)


def play_out(
    server: Server | dict[int, Server],
    game_id: str,
    tokens: dict[int, str],
    seed: int,
    stop_after: int | None = None,
) -> dict[int, list[dict[str, Any]]]:
    """Play every person seat at random until the game ends (or ``stop_after`` actions); the views each got.

    Each choice depends on the seed and the moment alone, so the same game is played the same way
    whether or not the server was restarted in the middle.
    """
    servers = server if isinstance(server, dict) else dict.fromkeys(tokens, server)
    sockets = {seat: servers[seat].seat(game_id, token) for seat, token in tokens.items()}
    seen: dict[int, list[dict[str, Any]]] = {seat: [] for seat in tokens}
    latest: dict[int, dict[str, Any]] = {}
    acted = 0
    target = 0  # every seat waits for a view of at least this many events before anyone acts

    def take(seat: int, timeout: float) -> bool:
        try:
            message = json.loads(sockets[seat].recv(timeout=timeout))
        except TimeoutError:
            return False
        assert message["type"] == "view", message
        seen[seat].append(message)
        latest[seat] = message
        return True

    try:
        while True:
            for seat in sockets:
                while seat not in latest or latest[seat]["events"] < target:
                    assert take(seat, 30), f"seat {seat} heard nothing"
                while take(seat, 0.02):
                    pass
            views = list(latest.values())
            if any(v["result"] for v in views) or (stop_after is not None and acted >= stop_after):
                return seen
            newest = max(v["events"] for v in views)
            if any(v["events"] < newest for v in views):
                target = newest
                continue
            # One at a time, the lowest seat to act first: the same game every time for a seed.
            acting = sorted(seat for seat, view in latest.items() if view.get("your_turn"))
            if acting:
                seat = acting[0]
                rng = random.Random(f"{seed}/{newest}/{seat}")
                sockets[seat].send(json.dumps({"type": "action", "action": pick(latest[seat], rng)}))
                acted += 1
            target = newest + 1  # wait for what follows (a computer seat's move, say)
    finally:
        for ws in sockets.values():
            ws.close()


def check_views(game_id: str, record: Record, seen: dict[int, list[dict[str, Any]]]) -> None:
    """Each view a seat got shows exactly what the rules let that seat see at that moment."""
    perfect = game_info(record.game).information == Information.PERFECT
    states = record.replay()
    for seat, views in seen.items():
        for view in views:
            truth = states[view["events"]]
            assert view["observation"] == json.loads(json.dumps(truth.observation(seat))), (
                seat,
                view["events"],
            )
            assert view["text"] == truth.observation_text(seat)
            for event in view["last"]:
                assert perfect or event["player"] == seat, event  # nobody else's moves, no chance
            if seat in truth.to_act():
                legal = {truth.action_to_str(seat, a) for a in truth.legal_actions(seat)}
                assert view["legal"]["count"] == len(legal)
                assert view["legal"]["actions"] is None or set(view["legal"]["actions"]) == legal


@pytest.mark.parametrize("game", sorted(SHORT))
def test_every_game_to_its_end_between_two_seats_seeing_only_their_own(server: Server, game: str) -> None:
    status, created = server.post(
        "/api/games",
        {"game": game, "options": SHORT[game], "seats": [{"kind": "person"}, {"kind": "person"}]},
    )
    assert status == 201, created
    tokens = {s["seat"]: s["token"] for s in created["seats"]}
    seen = play_out(server, created["id"], tokens, seed=len(game))
    status, data = server.get(f"/api/games/{created['id']}/record")
    assert status == 200, data
    record = Record.from_json(data)
    assert record.final_state().is_terminal()
    check_views(created["id"], record, seen)


@pytest.mark.parametrize("game", sorted(SHORT))
def test_every_game_to_its_end_against_a_computer_seat(server: Server, game: str) -> None:
    seats = [{"kind": "computer", "agent": "rule"}, {"kind": "person"}]
    status, created = server.post("/api/games", {"game": game, "options": SHORT[game], "seats": seats})
    assert status == 201, created
    seen = play_out(server, created["id"], {1: created["seats"][1]["token"]}, seed=3)
    assert seen[1][-1]["result"] is not None and seen[1][-1]["seats"][0]["kind"] == "computer"
    record = Record.from_json(server.get(f"/api/games/{created['id']}/record")[1])
    check_views(created["id"], record, seen)


def test_lobby_join_and_a_spectators_public_view(server: Server) -> None:
    status, created = server.post(
        "/api/games", {"game": "fightopia", "seats": [{"kind": "person"}, {"kind": "open"}]}
    )
    assert status == 201
    game_id = created["id"]
    assert game_id in [g["id"] for g in server.get("/api/lobby")[1]["games"]]
    status, joined = server.post(f"/api/games/{game_id}/join", {"name": "Bo"})
    assert status == 200 and joined["seat"] == 1
    assert game_id not in [g["id"] for g in server.get("/api/lobby")[1]["games"]]
    assert server.post(f"/api/games/{game_id}/join", {})[0] == 400  # no seat is open now
    # The game starts when the joiner comes: the first use of the seat's token confirms the join.
    assert server.get(f"/api/games/{game_id}")[1]["status"] == "waiting"
    joiner = server.seat(game_id, joined["token"])
    receive(joiner)
    assert server.get(f"/api/games/{game_id}")[1]["status"] == "playing"
    watcher = server.seat(game_id, None)
    view = receive(watcher)
    assert view["seat"] is None and "legal" not in view
    truth = load_game("fightopia", ply_limit=400).new_initial_state()  # online, a game ends at 400
    truth.apply_str(CHANCE, view["last"][0]["action"])
    assert view["observation"] == json.loads(json.dumps(truth.public_observation()))
    watcher.send(json.dumps({"type": "action", "action": "c3-c4"}))
    assert receive(watcher) == {"type": "error", "error": "a spectator cannot act"}
    watcher.close()
    joiner.close()


def test_bad_messages_get_one_line_and_change_nothing(server: Server) -> None:
    status, created = server.post(
        "/api/games", {"game": "fite", "seats": [{"kind": "person"}, {"kind": "person"}]}
    )
    game_id, tokens = created["id"], {s["seat"]: s["token"] for s in created["seats"]}
    a = server.seat(game_id, tokens[0])
    first = receive(a)
    for bad, why in [
        ("not json", "not JSON"),
        ("[1]", "a message is a JSON object"),
        (json.dumps({"type": "action", "action": "tac 5", "extra": 1}), "send {"),
        (json.dumps({"type": "move"}), "send {"),
        (json.dumps({"type": "action", "action": "tac 9"}), "9 is not a die face"),
        (json.dumps({"type": "action", "action": "x" * 300}), "too long for any action"),
    ]:
        a.send(bad)
        error = receive(a)
        assert error["type"] == "error" and why in error["error"], (bad[:40], error)
        assert "\n" not in error["error"] and len(error["error"]) < 400
    assert server.get(f"/api/games/{game_id}")[1]["events"] == first["events"]  # nothing changed
    a.send("x" * 20000)  # over the size limit: the connection is closed, as the protocol says
    with pytest.raises(ConnectionClosed) as closed:
        a.recv(timeout=10)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
    a.close()
    stranger = server.seat(game_id, "no-such-token")
    assert receive(stranger)["error"] == "that token opens no seat of this game"
    other = server.post("/api/games", {"game": "fite", "seats": [{"kind": "person"}, {"kind": "person"}]})[1]
    wrong_game = server.seat(other["id"], tokens[0])
    assert receive(wrong_game)["error"] == "that token opens no seat of this game"
    for body, why in [
        ({"game": "chess", "seats": [{"kind": "person"}]}, "unknown game 'chess'"),
        ({"game": "fite", "seats": [{"kind": "person"}], "oops": 1}, "oops: Extra inputs are not permitted"),
        ({"game": "fite", "seats": []}, "seats: List should have at least 1 item"),
        ({"game": "fite", "seats": [{"kind": "robot"}, {"kind": "person"}]}, "seats.0.kind"),
        ({"game": "fite", "seats": [{"kind": "person"}]}, "fite is for 2 players, not 1"),
        (
            {"game": "fite", "options": {"turn_limit": "9" * 50}, "seats": [{"kind": "person"}] * 2},
            "at most 18",
        ),
        (
            {"game": "fite", "seats": [{"kind": "computer", "agent": "human"}, {"kind": "person"}]},
            "a computer seat plays one of easy, medium, hard, random, rule, not 'human'",
        ),
    ]:
        status, answer = server.post("/api/games", body)
        assert status in (400, 422) and why in answer["error"], (body, answer)
        assert status == 400 or answer["error"].startswith(why), answer  # a sentence, not a quoted string
    assert server.get(f"/api/games/{game_id}/record")[0] == 400  # unfinished: its record holds secrets


def test_a_page_from_another_origin_cannot_connect(server: Server) -> None:
    created = server.post("/api/games", {"game": "fite", "seats": [{"kind": "person"}, {"kind": "person"}]})[
        1
    ]
    with pytest.raises(Exception, match=r"403|1008|rejected|refused|closed"):
        ws = connect(
            f"ws://127.0.0.1:{server.port}/ws/games/{created['id']}",
            origin=Origin("https://evil.example"),
            open_timeout=10,
            legacy=True,
        )
        ws.send(json.dumps({"type": "hello"}))
        ws.recv(timeout=5)


def test_killed_with_a_computer_seat_thinking_it_starts_again_on_the_same_port(db: str) -> None:
    server = Server(db)
    try:
        seats = [{"kind": "person"}, {"kind": "computer", "agent": "rule"}]
        created = server.post("/api/games", {"game": "fite", "seats": seats})[1]
        play_out(server, created["id"], {0: created["seats"][0]["token"]}, seed=1, stop_after=3)
        server.kill()
        server.start()  # the computer seat's worker holds no socket of the killed server
        seen = play_out(server, created["id"], {0: created["seats"][0]["token"]}, seed=1)
        assert seen[0][-1]["result"] is not None
    finally:
        server.stop()


def test_killed_and_started_again_the_game_goes_on_as_if_uninterrupted(db: str) -> None:
    # Two games with the same seed and the same choices: one played straight through,
    # one with the server killed (SIGKILL) in the middle and started again.
    records = []
    for interrupted in (False, True):
        server = Server(db)
        try:
            body = {"game": "fite", "seed": "same", "seats": [{"kind": "person"}, {"kind": "person"}]}
            created = server.post("/api/games", body)[1]
            tokens = {s["seat"]: s["token"] for s in created["seats"]}
            if interrupted:
                play_out(server, created["id"], tokens, seed=11, stop_after=9)
                server.kill()
                server.start()
            seen = play_out(server, created["id"], tokens, seed=11)
            assert any(v["result"] for views in seen.values() for v in views)
            records.append(server.get(f"/api/games/{created['id']}/record")[1])
        finally:
            server.stop()
    assert records[0] == records[1]
    assert len(records[1]["events"]) > 20


def test_the_schema_is_versioned_and_an_older_database_is_upgraded_with_its_games(tmp_path: Path) -> None:
    import sqlalchemy as sa
    from alembic import command
    from alembic.config import Config

    from tussle.server.store import MIGRATIONS

    url = f"sqlite:///{tmp_path / 'old.db'}"
    engine = sa.create_engine(url)
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:  # a database of the first version, with a game in it
        config.attributes["connection"] = connection
        command.upgrade(config, "0001")
        connection.execute(
            sa.text(
                "INSERT INTO games (id, game, options, players, status, result, created, rematch_of, seed) "
                "VALUES ('old', 'fite', '{}', 2, 'playing', NULL, 0, NULL, 's')"
            )
        )
    assert schema_version(engine) == "0001"
    engine.dispose()
    store = Store.open(url)
    from alembic.script import ScriptDirectory

    assert schema_version(store.engine) == ScriptDirectory.from_config(config).get_current_head()
    old = store.game("old")
    assert old is not None and old.game == "fite" and old.clock is None
    store.close()


def test_the_bot_in_the_docs_plays_a_game_to_its_end(server: Server) -> None:
    doc = (Path(__file__).resolve().parent.parent / "docs" / "server.md").read_text(encoding="utf-8")
    code = doc.split("### A bot in a few lines", 1)[1].split("```python\n", 1)[1].split("```", 1)[0]
    code = code.replace('"127.0.0.1:8000"', f'"127.0.0.1:{server.port}"')
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip()  # the reason the game ended


def test_serve_refuses_a_used_port_or_a_bad_database_in_one_line(server: Server, tmp_path: Path) -> None:
    from click.testing import CliRunner

    from tussle.cli import cli

    db = f"sqlite:///{tmp_path / 'x.db'}"
    for args, why in [
        (["--port", str(server.port), "--db", db], "Address already in use"),
        (["--port", "1", "--db", "postgresql://nobody@127.0.0.1:1/x"], "cannot open the database"),
    ]:
        result = CliRunner().invoke(cli, ["serve", *args])
        assert result.exit_code == 2, result.output
        assert result.stderr.count("\n") == 1 and why in result.stderr


def test_rematch_turns_the_seats_and_my_games_lists_a_players_games(server: Server) -> None:
    body = {"game": "fite", "seats": [{"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Bo"}]}
    created = server.post("/api/games", body)[1]
    old = created["id"]
    tokens = {s["seat"]: s["token"] for s in created["seats"]}
    assert created["seats"][0]["link"] == f"/play/{old}#{tokens[0]}"
    assert server.post(f"/api/games/{old}/rematch", {"token": tokens[0]})[0] == 400  # not over yet
    play_out(server, old, tokens, seed=5)
    status, first = server.post(f"/api/games/{old}/rematch", {"token": tokens[0]})
    assert status == 200 and first["seat"] == 1  # Ann moves from seat 0 to seat 1
    assert server.get(f"/api/games/{first['id']}")[1]["status"] == "waiting"  # until Bo takes his seat
    assert first["id"] not in [g["id"] for g in server.get("/api/lobby")[1]["games"]]
    status, second = server.post(f"/api/games/{old}/rematch", {"token": tokens[1]})
    assert status == 200 and second == {**second, "id": first["id"], "seat": 0}
    assert server.post(f"/api/games/{old}/rematch", {"token": tokens[1]})[0] == 400  # taken already
    assert server.post(f"/api/games/{old}/rematch", {"token": "nobody"})[0] == 400
    view = server.get(f"/api/games/{first['id']}")[1]
    assert [s["name"] for s in view["seats"]] == ["Bo", "Ann"] and view["status"] == "waiting"
    for token in (first["token"], second["token"]):  # each comes to the new game: it starts
        with server.seat(first["id"], token) as ws:
            receive(ws)
    assert server.get(f"/api/games/{first['id']}")[1]["status"] == "playing"
    mine = server.post("/api/my-games", {"tokens": [tokens[0], first["token"], "unknown"]})[1]["games"]
    assert [(g["id"], g["seat"]) for g in mine] == [(first["id"], 1), (old, 0)]
    assert mine[1]["status"] == "finished" and mine[1]["result"] is not None


def test_two_server_processes_on_one_postgresql_serve_the_same_game() -> None:
    # A seat connected to one process sees the moves made through the other (LISTEN/NOTIFY).
    import psycopg

    name = f"tussle_test_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(POSTGRES, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    db = f"{POSTGRES.rsplit('/', 1)[0]}/{name}"
    first, second = Server(db), Server(db)
    try:
        for game in ("fightopia", "robo-pigs"):
            body = {"game": game, "options": SHORT[game], "seats": [{"kind": "person"}, {"kind": "person"}]}
            created = first.post("/api/games", body)[1]
            tokens = {s["seat"]: s["token"] for s in created["seats"]}
            seen = play_out({0: first, 1: second}, created["id"], tokens, seed=2)
            record = Record.from_json(second.get(f"/api/games/{created['id']}/record")[1])
            assert record.final_state().is_terminal()
            check_views(created["id"], record, seen)
        # Both seats submit at once, each through its own process: one write clashes, catches up, goes on.
        body = {"game": "robo-pigs", "options": SHORT["robo-pigs"], "seats": [{"kind": "person"}] * 2}
        created = first.post("/api/games", body)[1]
        a = first.seat(created["id"], created["seats"][0]["token"])
        b = second.seat(created["id"], created["seats"][1]["token"])
        receive(a), receive(b)
        a.send(json.dumps({"type": "action", "action": "F F F F F"}))
        b.send(json.dumps({"type": "action", "action": "H H H H H"}))
        for ws in (a, b):
            view = receive(ws)
            while view["events"] < 2:
                view = receive(ws)
            assert view["type"] == "view" and view["observation"]["round"] == 2
            ws.close()
    finally:
        first.stop()
        second.stop()
        with psycopg.connect(POSTGRES, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def test_each_client_is_bounded_in_games_connections_and_rates(tmp_path: Path) -> None:
    limits = ["open_games=2", "connections=2", "messages_per_second=3", "requests_per_second=5"]
    server = Server(f"sqlite:///{tmp_path / 'limits.db'}", *(f"--limit={pair}" for pair in limits))
    try:
        body = {"game": "fite", "seats": [{"kind": "person"}, {"kind": "person"}]}
        made = [server.post("/api/games", body) for _ in range(3)]
        assert [status for status, _ in made] == [201, 201, 429]
        assert made[2][1]["error"] == "too many games in play: at most 2 at once; finish some first"
        time.sleep(1.0)
        game = made[0][1]
        # One after the other: a second hello handled before the first would leave nothing to hear.
        first = server.seat(game["id"], game["seats"][0]["token"])
        assert not receive(first)["seats"][1]["connected"]
        second = server.seat(game["id"], game["seats"][1]["token"])
        receive(second)
        assert receive(first)["seats"][1]["connected"]  # the first hears that the second has come
        third = connect(f"ws://127.0.0.1:{server.port}/ws/games/{game['id']}", open_timeout=10, legacy=True)
        assert receive(third)["error"] == "too many connections: at most 2 open at once"
        errors = []
        for _ in range(12):  # a flood: beyond the burst, messages are not read
            first.send(json.dumps({"type": "action", "action": "tac 9"}))
        for _ in range(12):
            errors.append(receive(first)["error"])
        assert any(e.startswith("too many messages: at most 3 a second") for e in errors)
        first.close()
        second.close()
        time.sleep(1.0)
        statuses = [server.get("/api/lobby")[0] for _ in range(30)]
        assert 429 in statuses and statuses[0] == 200
        time.sleep(2.5)  # a fresh budget: a body over its bound is read (and thrown away), then refused
        big = {"game": "fite", "seats": [{"kind": "person", "name": "x" * 300_000}]}
        status, answer = server.post("/api/games", big)
        assert status == 413 and answer["error"] == "a request body may have at most 262,144 bytes"
    finally:
        server.stop()


def test_the_load_benchmark_plays_games_at_once_and_loses_nothing() -> None:
    from tussle.server.load import run_load

    report = run_load(4, seed=2)
    assert report.actions > 0 and len(report.latencies) == report.actions
    assert report.errors == 0 and report.lost == 0
    assert report.server_mb > 50 and report.p50 <= report.p95 <= report.p99
    # A share of the games against a computer seat: only the people's actions are timed.
    mixed = run_load(4, seed=2, computers=0.5)
    assert mixed.computer_games == 2 and mixed.errors == 0 and mixed.lost == 0 and mixed.workers_mb > 0


def test_a_clock_runs_out_and_that_player_loses(server: Server) -> None:
    body = {"game": "fite", "clock": {"minutes": 0.03, "increment": 0}, "seats": [{"kind": "person"}] * 2}
    created = server.post("/api/games", body)[1]
    a = server.seat(created["id"], created["seats"][0]["token"])
    view = receive(a)
    assert view["clock"] == {"base": 1.8, "increment": 0.0, "per_move": False}
    assert all(c["running"] and 0 < c["remaining"] <= 1.8 for c in view["clocks"])
    a.send(json.dumps({"type": "action", "action": "tac 5"}))  # A places; B does not, and runs out
    view = receive(a)
    while view["result"] is None:
        view = receive(a)
    assert view["result"]["winner"] == 0 and view["result"]["reason"] == "fighter B ran out of time"
    assert view["status"] == "finished" and view["legal"]["count"] == 0
    a.send(json.dumps({"type": "action", "action": "tac 5"}))
    assert receive(a)["error"] == "the game is over"
    a.close()
    record = server.get(f"/api/games/{created['id']}/record")[1]
    assert record["result"] is None and len(record["events"]) == 1  # the rules did not end it
    mine = server.post("/api/my-games", {"tokens": [created["seats"][1]["token"]]})[1]["games"]
    assert mine[0]["status"] == "finished" and mine[0]["result"]["winner"] == 0


def test_clocks_are_kept_across_a_restart_and_the_increment_is_added(db: str) -> None:
    server = Server(db)
    try:
        body = {
            "game": "fightopia",
            "clock": {"minutes": 10, "increment": 30},
            "seats": [{"kind": "person"}] * 2,
        }
        created = server.post("/api/games", body)[1]
        tokens = {s["seat"]: s["token"] for s in created["seats"]}
        play_out(server, created["id"], tokens, seed=4, stop_after=4)
        before = server.get(f"/api/games/{created['id']}")[1]["clocks"]
        assert all(600 < c["remaining"] < 660 for c in before)  # two moves each: +60 s, a little used
        time.sleep(1.0)
        server.kill()
        server.start()
        after = server.get(f"/api/games/{created['id']}")[1]["clocks"]
        running = next(c for c in after if c["running"])
        was = next(c for c in before if c["seat"] == running["seat"])
        assert was["remaining"] - 30 < running["remaining"] < was["remaining"] - 0.9  # ran on, not reset
        idle = next(c for c in after if not c["running"])
        assert idle["remaining"] == next(c for c in before if c["seat"] == idle["seat"])["remaining"]
    finally:
        server.stop()


def test_an_action_out_of_turn_is_refused_and_changes_nothing(server: Server) -> None:
    created = server.post("/api/games", {"game": "fite", "seats": [{"kind": "person"}] * 2})[1]
    a = server.seat(created["id"], created["seats"][0]["token"])
    receive(a)
    a.send(json.dumps({"type": "action", "action": "tac 5"}))
    after = receive(a)
    assert after["events"] == 1 and not after["your_turn"]  # A placed; B has not yet
    a.send(json.dumps({"type": "action", "action": "tac 6"}))
    assert receive(a) == {"type": "error", "error": "it is not fighter A's turn"}
    assert server.get(f"/api/games/{created['id']}")[1]["events"] == 1
    a.close()


def test_a_player_waiting_for_an_opponent_hears_when_the_game_starts(server: Server) -> None:
    created = server.post("/api/games", {"game": "fite", "seats": [{"kind": "person"}, {"kind": "open"}]})[1]
    a = server.seat(created["id"], created["seats"][0]["token"])
    assert receive(a)["status"] == "waiting"
    a.send(json.dumps({"type": "action", "action": "tac 5"}))
    assert receive(a)["error"] == "the game has not started: a seat is still to be taken"
    status, joined = server.post(f"/api/games/{created['id']}/join", {"name": "Bo"})
    assert status == 200
    view = receive(a)  # Bo has taken the seat, and is on his way
    assert view["status"] == "waiting" and view["seats"][1] == {
        **view["seats"][1],
        "kind": "joining",
        "name": "Bo",
    }
    b = server.seat(created["id"], joined["token"])
    view = receive(a)
    while view["status"] != "playing":
        view = receive(a)
    assert view["seats"][1]["name"] == "Bo" and view["your_turn"]
    a.close()
    b.close()


def latest_view(ws: ClientConnection) -> dict[str, Any]:
    """The next view, and any that follow it within a moment: the latest of them."""
    view = receive(ws)
    while True:
        try:
            view = json.loads(ws.recv(timeout=0.3))
        except TimeoutError:
            assert view["type"] == "view", view
            return view


def until_over(ws: ClientConnection) -> dict[str, Any]:
    view = receive(ws)
    while view.get("type") != "view" or view["result"] is None:
        view = receive(ws)
    return view


@pytest.mark.parametrize("game_id", ["fightopia", "fite", "robo-pigs", "tank-chess", "fight"])
def test_a_game_is_aborted_before_every_player_has_moved_then_only_resigned(
    server: Server, game_id: str
) -> None:
    rng = random.Random(game_id)
    # Aborted before anybody moves: nobody wins, and the record says how it ended.
    made = server.post("/api/games", {"game": game_id, "seats": [{"kind": "person"}] * 2})[1]
    a = server.seat(made["id"], made["seats"][0]["token"])
    b = server.seat(made["id"], made["seats"][1]["token"])
    assert receive(a)["abortable"] is True
    receive(b)
    spectator = server.seat(made["id"], None)
    receive(spectator)
    spectator.send(json.dumps({"type": "abort"}))
    assert "spectator cannot abort" in receive(spectator)["error"]
    b.send(json.dumps({"type": "abort"}))
    view = until_over(a)
    assert view["result"]["termination"] == "aborted" and view["result"]["draw"]
    assert view["result"]["reason"].startswith("aborted by")
    assert until_over(spectator)["result"]["termination"] == "aborted"
    record = Record.from_json(server.get(f"/api/games/{made['id']}/record")[1])
    assert record.result is None and record.ended is not None and record.ended["termination"] == "aborted"
    until_over(b)
    b.send(json.dumps({"type": "resign"}))
    assert receive(b)["error"] == "the game is over"
    for ws in (a, b, spectator):
        ws.close()

    # Once every player has moved, abort is refused; resigning loses, and the other wins.
    made = server.post("/api/games", {"game": game_id, "seats": [{"kind": "person"}] * 2})[1]
    sockets = {s: server.seat(made["id"], made["seats"][s]["token"]) for s in (0, 1)}
    views = {s: receive(ws) for s, ws in sockets.items()}
    moved: set[int] = set()
    while moved != {0, 1}:
        acting = [s for s in (0, 1) if views[s]["your_turn"] and s not in moved]
        assert acting, views
        for s in acting:
            sockets[s].send(json.dumps({"type": "action", "action": pick(views[s], rng)}))
            moved.add(s)
        views = {s: latest_view(ws) for s, ws in sockets.items()}
    # Every seat's later views say it can no longer abort.
    sockets[0].send(json.dumps({"type": "abort"}))
    message = receive(sockets[0])
    while message["type"] == "view":
        assert message["abortable"] is False
        message = receive(sockets[0])
    assert message["error"] == "every player has moved: the game can only be resigned now"
    sockets[0].send(json.dumps({"type": "resign"}))
    view = until_over(sockets[1])
    assert view["result"]["winner"] == 1 and view["result"]["termination"] == "resignation"
    assert view["result"]["reason"].endswith("resigned")
    record = Record.from_json(server.get(f"/api/games/{made['id']}/record")[1])
    assert record.ended is not None and record.ended["winner"] == 1
    for ws in sockets.values():
        ws.close()


def test_a_game_waiting_for_a_seat_can_be_aborted_not_resigned(server: Server) -> None:
    made = server.post("/api/games", {"game": "fite", "seats": [{"kind": "person"}, {"kind": "open"}]})[1]
    a = server.seat(made["id"], made["seats"][0]["token"])
    receive(a)
    a.send(json.dumps({"type": "resign"}))
    assert receive(a)["error"] == "the game has not started: abort it instead"
    a.send(json.dumps({"type": "abort"}))
    assert until_over(a)["result"]["termination"] == "aborted"
    assert made["id"] not in {g["id"] for g in server.get("/api/lobby")[1]["games"]}
    a.close()
