"""Correspondence time controls (days a move) over a real server: made, shown, timed out, rematched,
never taken for abandoned while a player still has time, and refused in one line when malformed."""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import ClientConnection

from test_server import SHORT, Server, db, pick, play_out, receive
from tussle.server.hub import Hub, token_hash
from tussle.server.store import Seat, Store

__all__ = ["db"]  # the fixture, from test_server: the server's tests run on SQLite and PostgreSQL

DAY = 86400.0
PERSONS = [{"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Bo"}]


@pytest.fixture(scope="module")
def server(db: str) -> Iterator[Server]:
    s = Server(db)
    yield s
    s.stop()


def view_after(ws: ClientConnection, events: int) -> dict[str, Any]:
    """The first view that shows at least ``events`` events."""
    view = receive(ws)
    while view.get("type") != "view" or view["events"] < events:
        view = receive(ws)
    return view


def test_a_correspondence_game_shows_its_control_everywhere_and_its_rematch_keeps_it(server: Server) -> None:
    body = {"game": "fite", "options": SHORT["fite"], "clock": {"days": 3}, "seats": PERSONS}
    status, made = server.post("/api/games", body)
    assert status == 201, made
    tokens = {s["seat"]: s["token"] for s in made["seats"]}
    with server.seat(made["id"], tokens[0]) as ws:
        view = receive(ws)
    assert view["clock"] == {"base": 3 * DAY, "increment": 0.0, "per_move": True}
    # Both are to act at fite's first step: each has its three days, running.
    assert all(c["running"] and 3 * DAY - 60 < c["remaining"] <= 3 * DAY for c in view["clocks"])
    mine = server.post("/api/my-games", {"tokens": [tokens[0]]})[1]["games"]
    assert mine[0]["clock"] == view["clock"]
    play_out(server, made["id"], tokens, seed=2)
    status, rematch = server.post(f"/api/games/{made['id']}/rematch", {"token": tokens[0]})
    assert status == 200, rematch
    again = server.get(f"/api/games/{rematch['id']}")[1]
    assert again["clock"] == {"base": 3 * DAY, "increment": 0.0, "per_move": True}
    # The lobby lists an open correspondence game with its control; a live one with its own.
    waiting = {"game": "fite", "clock": {"days": 14}, "seats": [PERSONS[0], {"kind": "open"}]}
    listed = server.post("/api/games", waiting)[1]["id"]
    live = {"game": "fite", "clock": {"minutes": 5, "increment": 3}, "seats": [PERSONS[0], {"kind": "open"}]}
    fast = server.post("/api/games", live)[1]["id"]
    lobby = {g["id"]: g for g in server.get("/api/lobby")[1]["games"]}
    assert lobby[listed]["clock"] == {"base": 14 * DAY, "increment": 0.0, "per_move": True}
    assert lobby[fast]["clock"] == {"base": 300.0, "increment": 3.0, "per_move": False}


@pytest.mark.parametrize(
    ("clock", "says"),
    [
        ({"days": 0}, "clock.days: Input should be greater than or equal to 1"),
        ({"days": 15}, "clock.days: Input should be less than or equal to 14"),
        ({"days": 1.5}, "clock.days: Input should be a valid integer"),
        ({"days": "x"}, "clock.days: Input should be a valid integer"),
        ({"days": 2, "minutes": 5}, "clock: Value error, give either minutes"),
        ({}, "clock: Value error, give either minutes"),
        ({"days": 2, "increment": 5}, "clock: Value error, a clock of days a move has no increment"),
        ({"weeks": 1}, "clock.weeks: Extra inputs are not permitted"),
    ],
)
def test_a_malformed_time_control_is_refused_in_one_line(server: Server, clock: Any, says: str) -> None:
    before = len(server.get("/api/lobby")[1]["games"])
    status, answer = server.post(
        "/api/games", {"game": "fite", "clock": clock, "seats": [PERSONS[0], {"kind": "open"}]}
    )
    assert status == 422 and says in answer["error"], answer
    assert "\n" not in answer["error"]
    assert len(server.get("/api/lobby")[1]["games"]) == before


def test_each_move_has_the_whole_time_again_and_running_out_loses(server: Server) -> None:
    # Days are too long for a test: the same control with six seconds a move, made in the store.
    store = Store.open(server.db)
    seats = [
        Seat(0, "person", None, "Ann", token_hash("ann")),
        Seat(1, "person", None, "Bo", token_hash("bo")),
    ]
    game_id = store.create_game(
        "tank-chess", SHORT["tank-chess"], 2, seats, seed="s", clock=(6.0, 0.0), clock_per_move=True
    )
    store.close()
    made = time.time()
    rng = random.Random(1)
    with server.seat(game_id, "ann") as ann, server.seat(game_id, "bo") as bo:
        first = view_after(ann, 0)
        assert first["clock"] == {"base": 6.0, "increment": 0.0, "per_move": True}
        assert first["your_turn"] and [c["running"] for c in first["clocks"]] == [True, False]
        receive(bo)
        time.sleep(max(0.0, made + 2.5 - time.time()))  # Ann takes 2.5 s of her 6 over her move
        ann.send(json.dumps({"type": "action", "action": pick(first, rng)}))
        second = view_after(bo, 1)
        assert second["your_turn"]
        time.sleep(2.5)
        bo.send(json.dumps({"type": "action", "action": pick(second, rng)}))
        third = view_after(ann, 2)
        assert third["your_turn"] and third["result"] is None, third
        clocks = {c["seat"]: c for c in third["clocks"]}
        # Her 2.5 s are not carried over: she has six seconds again (a clock for the whole game would
        # show 3.5 at most), Bo six for his next move.
        assert clocks[0]["running"] and clocks[0]["remaining"] > 3.6
        assert clocks[1] == {"seat": 1, "remaining": 6.0, "running": False}
        over = third
        while over["result"] is None:  # she does not move again
            over = view_after(ann, 2)
    assert over["result"]["winner"] == 1 and over["result"]["termination"] == "time"
    assert over["result"]["reason"].endswith("ran out of time")


def test_the_abandon_sweep_leaves_a_correspondence_game_in_play_alone(tmp_path: Path) -> None:
    store = Store.open(f"sqlite:///{tmp_path / 'idle.db'}")

    def persons() -> list[Seat]:
        return [Seat(0, "person", None, "A", None), Seat(1, "person", None, "B", None)]

    mail = store.create_game(
        "tank-chess", {}, 2, persons(), seed="s", clock=(14 * DAY, 0.0), clock_per_move=True
    )
    live = store.create_game("tank-chess", {}, 2, persons(), seed="s", clock=(3600.0, 0.0))
    plain = store.create_game("tank-chess", {}, 2, persons(), seed="s")
    # One nobody joined: nothing runs on its clock yet, so it may be abandoned as any other.
    unjoined = store.create_game(
        "tank-chess",
        {},
        2,
        [persons()[0], Seat(1, "open", None, "", None)],
        seed="s",
        clock=(DAY, 0.0),
        clock_per_move=True,
    )

    async def sweep() -> dict[str, str]:
        hub = Hub(store, abandon_after=0.3)
        for game_id in (mail, live, plain):
            await hub.start(game_id)
        await asyncio.sleep(0.5)
        await hub._abandon_idle()
        await hub.close()
        return {g: row.status for g in (mail, live, plain, unjoined) if (row := store.game(g)) is not None}

    status = asyncio.run(sweep())
    assert status == {mail: "playing", live: "finished", plain: "finished", unjoined: "finished"}
    row = store.game(live)
    assert row is not None and row.result is not None and row.result["termination"] == "abandonment"
    store.close()
