"""Games at one screen and private invitations, over a real server's HTTP and WebSocket frames.

A table (a hot-seat game's one connection) is sent a seat's view only while that
seat is to act and a player has sat down for it; every other frame is a cover
that holds nobody's view. An invite seat is never in the lobby and only its
secret takes it, once. Checked on what actually leaves the server: the frames.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import ClientConnection, connect

from test_server import Server, receive


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder = tmp_path_factory.mktemp("private")
    s = Server(
        f"sqlite:///{folder / 'p.db'}", "--limit", "requests_per_second=200", log=folder / "server.log"
    )
    yield s
    s.stop()


def table(server: Server, game_id: str, handle: str) -> ClientConnection:
    ws = connect(f"ws://127.0.0.1:{server.port}/ws/games/{game_id}", open_timeout=10, legacy=True)
    ws.send(json.dumps({"type": "hello", "table": handle}))
    return ws


def until(ws: ClientConnection, kind: str, frames: list[dict[str, Any]]) -> dict[str, Any]:
    """The next frame of ``kind``, keeping every frame received on the way in ``frames``."""
    while True:
        message = receive(ws)
        frames.append(message)
        if message["type"] == kind:
            return message


def test_a_table_shows_each_seat_only_while_it_is_to_act(server: Server) -> None:
    made = server.post(
        "/api/games",
        {
            "game": "robo-pigs",
            "options": {"round_limit": 3},
            "table": True,
            "seats": [{"kind": "person"}] * 2,
        },
    )[1]
    assert "token" not in json.dumps(made["seats"]) and made["table"]
    game_id = made["id"]
    frames: list[dict[str, Any]] = []
    ws = table(server, game_id, made["table"])
    cover = until(ws, "cover", frames)
    assert cover["to_act"] == [0, 1] and set(cover) == {
        "type",
        "game",
        "game_id",
        "events",
        "status",
        "perfect",
        "seats",
        "to_act",
        "result",
    }
    ws.send(json.dumps({"type": "action", "action": "F F F F F"}))
    assert until(ws, "error", frames)["error"].startswith("the screen is covered")
    ws.send(json.dumps({"type": "sit", "seat": 0}))
    view = until(ws, "view", frames)
    assert view["seat"] == 0 and view["your_turn"]
    program = "TR H TL F F"
    ws.send(json.dumps({"type": "action", "action": program}))
    after = until(ws, "cover", frames)  # seat 0 is done: covered at once, before seat 1 sits
    assert after["to_act"] == [1]
    ws.send(json.dumps({"type": "sit", "seat": 0}))
    assert until(ws, "error", frames)["error"].endswith("'s turn: the screen stays covered")
    ws.send(json.dumps({"type": "sit", "seat": 1}))
    second = until(ws, "view", frames)
    assert second["seat"] == 1
    # Nothing seat 1 was sent holds seat 0's program, nor the words that showed it before.
    shown_to_1 = json.dumps(frames[frames.index(after) :])
    assert "TR H TL" not in shown_to_1 and "is sent" not in shown_to_1
    ws.send(json.dumps({"type": "cover"}))
    assert until(ws, "cover", frames)["to_act"] == [1]
    ws.close()


def test_a_table_game_of_perfect_information_says_so_and_the_handle_opens_nothing_else(
    server: Server,
) -> None:
    made = server.post("/api/games", {"game": "fightopia", "table": True, "seats": [{"kind": "person"}] * 2})[
        1
    ]
    ws = table(server, made["id"], made["table"])
    frames: list[dict[str, Any]] = []
    assert until(ws, "cover", frames)["perfect"] is True
    ws.close()
    # A table handle is no seat token, and another game's handle opens nothing here.
    stranger = server.seat(made["id"], made["table"])
    assert receive(stranger)["error"] == "that token opens no seat of this game"
    other = server.post("/api/games", {"game": "fite", "table": True, "seats": [{"kind": "person"}] * 2})[1]
    wrong = table(server, made["id"], other["table"])
    assert receive(wrong)["error"] == "that table handle opens no game here"
    listed = server.post("/api/my-games", {"tokens": [made["table"]]})[1]["games"]
    assert listed[0]["table"] is True and listed[0]["your_turn"] is True


def test_a_table_game_takes_no_open_seat_and_its_rematch_is_a_table_too(server: Server) -> None:
    status, answer = server.post(
        "/api/games", {"game": "fite", "table": True, "seats": [{"kind": "person"}, {"kind": "open"}]}
    )
    assert status == 400 and "one screen" in answer["error"]
    made = server.post(
        "/api/games",
        {"game": "fite", "options": {"turn_limit": 1}, "table": True, "seats": [{"kind": "person"}] * 2},
    )[1]
    ws = table(server, made["id"], made["table"])
    frames: list[dict[str, Any]] = []
    shown = until(ws, "cover", frames)
    while shown["result"] is None:
        if shown["type"] == "cover":
            ws.send(json.dumps({"type": "sit", "seat": shown["to_act"][0]}))
            shown = until(ws, "view", frames)
        seat = shown["seat"]
        ws.send(json.dumps({"type": "action", "action": shown["legal"]["actions"][0]}))
        # The seat sits on while it is still to act (a turn of several steps); else the table is covered.
        shown = receive(ws)
        assert shown["type"] == "cover" or (shown["type"] == "view" and shown["seat"] == seat), shown
    status, rematch = server.post(f"/api/games/{made['id']}/rematch", {"token": made["table"]})
    assert status == 200 and rematch["table"] and rematch["id"] != made["id"]
    listed = server.post("/api/my-games", {"tokens": [rematch["table"]]})[1]["games"]
    assert [g["id"] for g in listed] == [rematch["id"]]
    ws.close()


def test_an_invitation_is_private_and_taken_once(server: Server) -> None:
    made = server.post("/api/games", {"game": "fite", "seats": [{"kind": "person"}, {"kind": "invite"}]})[1]
    game_id = made["id"]
    invite = made["seats"][1]
    assert invite["invite_link"] == f"/play/{game_id}#invite={invite['invite']}"
    assert "token" not in invite
    lobby = server.get("/api/lobby")[1]["games"]
    assert game_id not in [g["id"] for g in lobby]
    # The watch link's id alone takes nothing: not the first open seat, not the invite seat.
    assert server.post(f"/api/games/{game_id}/join", {})[0] == 400
    assert server.post(f"/api/games/{game_id}/join", {"seat": 1})[0] == 400
    assert server.post(f"/api/games/{game_id}/join", {"invite": "guess"})[0] == 400
    # A seat's token is no invitation, and an invitation is no seat token.
    assert server.post(f"/api/games/{game_id}/join", {"invite": made["seats"][0]["token"]})[0] == 400
    spy = server.seat(game_id, invite["invite"])
    assert receive(spy)["error"] == "that token opens no seat of this game"
    status, joined = server.post(f"/api/games/{game_id}/join", {"invite": invite["invite"], "name": "Bo"})
    assert status == 200 and joined["seat"] == 1
    assert server.post(f"/api/games/{game_id}/join", {"invite": invite["invite"]})[0] == 400  # taken
    with server.seat(game_id, joined["token"]) as ws:
        view = receive(ws)
        assert view["seat"] == 1 and view["status"] == "playing"
    # A seed is for games nobody else joins.
    seeded = {"game": "fite", "seed": "s", "seats": [{"kind": "person"}, {"kind": "invite"}]}
    assert server.post("/api/games", seeded)[0] == 400


def test_nothing_in_the_log_is_a_traceback(server: Server) -> None:
    text = Path(str(server.log)).read_text()
    assert "Traceback" not in text, text[-2000:]
