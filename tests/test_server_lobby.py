"""The live lobby over real connections (docs/server.md, "The live lobby"): the lists pushed over
``/ws/lobby`` without a request, their bounds, "play anyone now" (``POST /api/seek``) pairing two
who seek at once (two server processes on one database, SQLite and PostgreSQL), spectator counts,
and a spectator following a rematch; and the feed behind it, which drops a listener that fails."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect
from websockets.typing import Origin

from server_support import postgres_database
from test_server import Server, receive
from tussle.server.lobby import LobbyFeed
from tussle.server.outbox import ConnectionGoneError


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    s = Server(f"sqlite:///{tmp_path_factory.mktemp('lobby') / 'lobby.db'}", "--limit", "lobby_connections=3")
    yield s
    s.stop()


def listen(server: Server) -> ClientConnection:
    return connect(f"ws://127.0.0.1:{server.port}/ws/lobby", open_timeout=10, legacy=True)


def until(
    ws: ClientConnection, check: Callable[[dict[str, Any]], bool], seconds: float = 20
) -> dict[str, Any]:
    """The first lobby message that passes ``check`` (the ones before it are read and dropped)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        message: dict[str, Any] = json.loads(ws.recv(timeout=max(0.1, deadline - time.monotonic())))
        assert message["type"] == "lobby", message
        if check(message):
            return message
    raise AssertionError("no such lobby message")


def ids(message: dict[str, Any], key: str) -> list[str]:
    return [g["id"] for g in message[key]]


def test_a_made_game_appears_and_a_joined_one_goes_without_a_request(server: Server) -> None:
    frames: list[str] = []
    with listen(server) as ws:
        first = json.loads(ws.recv(timeout=10))
        assert first["type"] == "lobby" and isinstance(first["now"], float)
        made = server.post(
            "/api/games",
            {
                "game": "fite",
                "options": {"turn_limit": 12},
                "seats": [{"kind": "person", "name": "Ann"}, {"kind": "open"}],
                "clock": {"minutes": 5, "increment": 3},
            },
        )[1]
        shown = until(ws, lambda m: made["id"] in ids(m, "open"))
        entry = next(g for g in shown["open"] if g["id"] == made["id"])
        assert entry["game"] == "fite" and entry["options"] == {"turn_limit": 12}
        assert entry["clock"] == {"base": 300.0, "increment": 3.0, "per_move": False}
        assert entry["seats"] == [
            {"seat": 0, "kind": "person", "name": "Ann"},
            {"seat": 1, "kind": "open", "name": ""},
        ]
        assert shown["now"] - 30 < entry["created"] <= shown["now"]
        # A game with a seat for anyone is listed to watch once it is played (not before).
        assert made["id"] not in ids(shown, "playing")
        joined = server.post(f"/api/games/{made['id']}/join", {"name": "Bo"})[1]
        gone = until(ws, lambda m: made["id"] not in ids(m, "open"))
        assert made["id"] not in ids(gone, "playing")  # joined, not yet come: not started
        seats = [server.seat(made["id"], s["token"]) for s in (made["seats"][0], joined)]
        playing = until(ws, lambda m: made["id"] in ids(m, "playing"))
        entry = next(g for g in playing["playing"] if g["id"] == made["id"])
        assert [s["name"] for s in entry["seats"]] == ["Ann", "Bo"] and entry["spectators"] == 0
        for seat in seats:
            seat.close()
        frames.extend(json.dumps(m) for m in (first, shown, gone, playing))
    # Nothing secret: no seat's token, no seed.
    text = "".join(frames)
    assert made["seats"][0]["token"] not in text and joined["token"] not in text and "seed" not in text


def test_a_computer_seat_shows_its_level(server: Server) -> None:
    with listen(server) as ws:
        made = server.post(
            "/api/games",
            {
                "game": "fight",
                "seats": [{"kind": "person"}, {"kind": "computer", "agent": "easy"}, {"kind": "open"}],
            },
        )[1]
        shown = until(ws, lambda m: made["id"] in ids(m, "open"))
        entry = next(g for g in shown["open"] if g["id"] == made["id"])
        assert entry["seats"][1] == {"seat": 1, "kind": "computer", "name": "easy", "agent": "easy"}


def test_a_page_from_another_origin_cannot_listen(server: Server) -> None:
    with pytest.raises(Exception, match=r"403|1008|rejected|refused|closed"):
        ws = connect(
            f"ws://127.0.0.1:{server.port}/ws/lobby",
            origin=Origin("https://evil.example"),
            open_timeout=10,
            legacy=True,
        )
        ws.recv(timeout=5)


def test_lobby_connections_are_bounded_per_client_and_read_nothing(server: Server) -> None:
    first = [listen(server) for _ in range(3)]
    try:
        for ws in first:
            assert json.loads(ws.recv(timeout=10))["type"] == "lobby"
        with listen(server) as extra:
            assert json.loads(extra.recv(timeout=10)) == {
                "type": "error",
                "error": "too many lobby connections: at most 3 open at once",
            }
            with pytest.raises(ConnectionClosed):
                extra.recv(timeout=10)
        first[0].send("hello")
        assert json.loads(first[0].recv(timeout=10))["type"] == "error"
        first.pop().close()
        # Closed: its place is free again.
        deadline = time.monotonic() + 10
        while True:
            with listen(server) as again:
                if json.loads(again.recv(timeout=10))["type"] == "lobby":
                    break
            assert time.monotonic() < deadline, "the closed connection was still counted"
            time.sleep(0.1)
    finally:
        for ws in first:
            ws.close()


def seek(server: Server, body: dict[str, Any]) -> dict[str, Any]:
    status, answer = server.post("/api/seek", body)
    assert status == 200, answer
    made: dict[str, Any] = answer
    return made


def test_seek_refuses_a_seed_and_pairs_only_the_same(server: Server) -> None:
    status, answer = server.post("/api/seek", {"game": "fite", "seed": "mine"})
    assert status == 422 and "seed" in answer["error"]
    assert server.post("/api/seek", {"game": "chess"})[0] == 400
    a = seek(server, {"game": "tank-chess", "clock": {"minutes": 3, "increment": 2}})
    b = seek(server, {"game": "tank-chess", "clock": {"minutes": 1}})
    c = seek(
        server, {"game": "tank-chess", "options": {"ply_limit": 40}, "clock": {"minutes": 3, "increment": 2}}
    )
    assert not a["paired"] and not b["paired"] and not c["paired"]
    assert len({a["id"], b["id"], c["id"]}) == 3
    d = seek(server, {"game": "tank-chess", "clock": {"minutes": 3, "increment": 2}, "name": "Di"})
    assert d["paired"] and d["id"] == a["id"] and d["seat"] != a["seat"]
    # The seat is the seeker's once its token is used, and the game starts.
    seats = [server.seat(a["id"], x["token"]) for x in (a, d)]
    view = receive(seats[1])
    assert view["seat"] == d["seat"] and view["seats"][d["seat"]]["name"] == "Di"
    deadline = time.monotonic() + 10
    while server.get(f"/api/games/{a['id']}")[1]["status"] != "playing":
        assert time.monotonic() < deadline
        time.sleep(0.1)
    for ws in seats:
        ws.close()


def race(servers: list[Server], body: dict[str, Any]) -> list[dict[str, Any]]:
    """Two seeks at the same moment, one through each server process."""
    start = threading.Barrier(len(servers))
    answers: list[dict[str, Any]] = []

    def one(s: Server) -> None:
        start.wait()
        answers.append(seek(s, body))

    threads = [threading.Thread(target=one, args=(s,)) for s in servers]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return answers


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_two_who_seek_at_once_are_paired_with_each_other(kind: str, tmp_path: Path) -> None:
    with postgres_database() if kind == "postgresql" else _sqlite(tmp_path) as url:
        servers = [Server(url), Server(url)]
        try:
            for minutes in range(1, 7):  # several rounds: each a fresh pairing, at the same instant
                a, b = race(servers, {"game": "fite", "clock": {"minutes": minutes}})
                assert a["id"] == b["id"], (a, b)
                assert {a["paired"], b["paired"]} == {True, False} and a["seat"] != b["seat"]
            lobby = servers[0].get("/api/lobby")[1]["games"]
            assert not [g for g in lobby if g["game"] == "fite"], lobby
        finally:
            for s in servers:
                s.stop()


class _sqlite:  # noqa: N801 (a context manager, used like a function)
    def __init__(self, folder: Path) -> None:
        self.url = f"sqlite:///{folder / 'race.db'}"

    def __enter__(self) -> str:
        return self.url

    def __exit__(self, *_: object) -> None:
        pass


def test_spectators_are_counted(server: Server) -> None:
    made = server.post("/api/games", {"game": "fightopia", "seats": [{"kind": "person"}, {"kind": "open"}]})[
        1
    ]
    joined = server.post(f"/api/games/{made['id']}/join", {})[1]
    seats = [server.seat(made["id"], t) for t in (made["seats"][0]["token"], joined["token"])]
    watchers: list[ClientConnection] = []
    try:

        def spectators(m: dict[str, Any], count: int) -> bool:
            entry = next((g for g in m["playing"] if g["id"] == made["id"]), None)
            return entry is not None and entry["spectators"] == count

        with listen(server) as ws:
            until(ws, lambda m: spectators(m, 0))
            watchers = [server.seat(made["id"], None) for _ in range(2)]
            until(ws, lambda m: spectators(m, 2))
            watchers.pop().close()
            until(ws, lambda m: spectators(m, 1))
    finally:
        for w in [*seats, *watchers]:
            w.close()


def test_a_spectator_follows_the_rematch(server: Server) -> None:
    made = server.post("/api/games", {"game": "fite", "seats": [{"kind": "person"}, {"kind": "person"}]})[1]
    game = made["id"]
    tokens = [s["token"] for s in made["seats"]]
    player = server.seat(game, tokens[0])
    watcher = server.seat(game, None)
    try:
        receive(player)
        assert receive(watcher)["rematch"] is None
        player.send(json.dumps({"type": "resign"}))
        while receive(watcher).get("result") is None:
            pass
        rematch = server.post(f"/api/games/{game}/rematch", {"token": tokens[1]})[1]
        while (message := receive(watcher))["type"] != "rematch":
            pass
        assert message == {"type": "rematch", "game": rematch["id"]}
        # A spectator who comes later reads it in the view.
        with server.seat(game, None) as late:
            assert receive(late)["rematch"] == rematch["id"]
    finally:
        player.close()
        watcher.close()
    # ... also from a process that loads the finished game afresh (after a restart).
    server.stop()
    server.start()
    with server.seat(game, None) as late:
        assert receive(late)["rematch"] == rematch["id"]


def test_the_feed_sends_only_news_drops_a_listener_that_fails_and_reads_nothing_for_nobody() -> None:
    """The feed itself, in one process: what a slow listener's outbox does (it raises once closed as
    too slow) drops that listener alone; unchanged lists are not sent again."""

    async def scenario() -> None:
        lists: dict[str, list[dict[str, Any]]] = {"open": [], "playing": []}
        reads = 0

        async def snapshot() -> dict[str, Any]:
            nonlocal reads
            reads += 1
            return {k: list(v) for k, v in lists.items()}

        feed = LobbyFeed(snapshot, every=0.01)
        got: list[dict[str, Any]] = []

        async def reader(message: dict[str, Any]) -> None:
            got.append(message)

        async def too_slow(message: dict[str, Any]) -> None:
            raise ConnectionGoneError("closed: it read too little of what it was sent")

        async def until_got(count: int) -> None:
            async with asyncio.timeout(10):
                while len(got) < count:
                    await asyncio.sleep(0.01)

        await feed.listen(reader)
        await feed.listen(too_slow)
        await until_got(1)
        start = reads
        while reads < start + 5:  # several readings, nothing new
            await asyncio.sleep(0.01)
        assert len(got) == 1 and feed.listeners == 1
        lists["open"].append({"id": "a game"})
        feed.poke()
        await until_got(2)
        assert got[1]["open"] == [{"id": "a game"}] and got[1]["type"] == "lobby"
        feed.leave(reader)
        await asyncio.sleep(0.05)
        stopped = reads
        await asyncio.sleep(0.1)
        assert reads == stopped
        feed.close()

    asyncio.run(scenario())
