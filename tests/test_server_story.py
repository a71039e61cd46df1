"""The game's story over real WebSockets: every event told in plain words as each seat (and a spectator)
may know it, numbered past 99, and looking back at an earlier event during play.

What a receiver may know is read from the rules, not from the story's code: a line told to a
viewer must stay the same whatever the actor had done instead, and whatever the viewer cannot
see of the position before, wherever the viewer's observation after the event is the same
(:func:`assert_tells_no_more_than_seen`). The same check run on a story that tells every
notation to everybody fails (:func:`test_the_check_catches_a_story_that_tells_a_secret`).
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import ClientConnection

from test_server import SHORT, Server, play_out, receive
from test_server_play import Client
from tussle import CHANCE, PUBLIC, Information, Record, game_info, load_game
from tussle.game import State
from tussle.server.story import SNAPSHOT_EVERY, StoryBook, Teller, ending

SECRET_GAMES = sorted(g for g in SHORT if game_info(g).information != Information.PERFECT)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    s = Server(f"sqlite:///{tmp_path_factory.mktemp('story') / 'tussle.db'}")
    yield s
    s.stop()


def drain(ws: ClientConnection, seconds: float = 0.5) -> list[dict[str, Any]]:
    """Every message that arrives until none comes for ``seconds``."""
    got = []
    while True:
        try:
            got.append(json.loads(ws.recv(timeout=seconds)))
        except TimeoutError:
            return got


def story_of(views: list[dict[str, Any]]) -> dict[int, list[str]]:
    """The story a receiver pieced together from its views, event number to lines; each view's lines
    are checked on the way to be of events that view counts, never of a later one."""
    told: dict[int, list[str]] = {}
    for view in views:
        if view.get("type") != "view":
            continue
        for entry in view["story"]:
            assert entry["number"] < view["events"], (entry, view["events"])
            assert told.setdefault(entry["number"], entry["lines"]) == entry["lines"], "a line changed"
    return told


def ended_record(server: Server, game: str, token: str) -> Record:
    """The record of a game cut short (seat ``token`` resigns): a record is given once a game is over."""
    ws = server.seat(game, token)
    receive(ws)
    ws.send(json.dumps({"type": "resign"}))
    while receive(ws).get("result") is None:
        pass
    ws.close()
    return Record.from_json(server.get(f"/api/games/{game}/record")[1])


def teller_of(game_id: str) -> Teller | None:
    target = game_info(game_id).hooks.story
    return load_game(game_id).hook(target) if target else None


def assert_tells_no_more_than_seen(  # noqa: PLR0917 (the event's parts, as the hook takes them)
    teller: Teller, before: State[Any], player: int, action: Any, viewer: int, lines: list[str]
) -> int:
    """``lines`` (what ``viewer`` was told of this event) would be the same for every other action of the
    actor, and every position the viewer cannot tell from this one, that leaves the viewer seeing the same
    after the event. Returns how many alternatives were compared."""
    after = before.clone()
    after.apply(player, action)
    seen = after.observation(viewer)
    rng = random.Random(f"{player}/{viewer}/{len(lines)}")
    compared = 0
    for position in [before, *(before.resample(viewer, random.Random(k)) for k in range(3))]:
        if player == CHANCE:
            others = [outcome for outcome, _ in position.chance_outcomes()][:12]
        else:
            legal = position.legal_actions(player)
            others = [legal.sample(rng) for _ in range(12)] if len(legal) else []
        for other in [action, *others]:
            if not position.is_legal(player, other):
                continue
            then = position.clone()
            then.apply(player, other)
            if then.observation(viewer) == seen:
                told = [*teller(position.clone(), player, other, then, viewer), *ending(then)]
                assert told == lines, (player, viewer, lines, told)
                compared += 1
    return compared


def check_story(game_id: str, record: Record, received: dict[int, dict[int, list[str]]]) -> None:
    """Each receiver's story is whole (every event once, in order) and tells no more than it saw."""
    teller = teller_of(game_id)
    states = record.replay()
    compared = 0
    for viewer, told in received.items():
        assert sorted(told) == list(range(len(record.events))), viewer
        for number, (player, text) in enumerate(record.events):
            before = states[number]
            lines = told[number]
            assert lines and all(isinstance(line, str) and line for line in lines)
            if teller is None:  # perfect information: the notation, with who played it
                who = "chance" if player == CHANCE else before.player_name(player)
                said = f"{who}: {text}" if player == CHANCE else f"{who} played {text}"
                assert lines == [said, *ending(states[number + 1])]
                continue
            action = before.clone().parse_action(player, text)
            if player != viewer:
                compared += assert_tells_no_more_than_seen(teller, before, player, action, viewer, lines)
    assert teller is None or compared > len(record.events), "the check compared next to nothing"


@pytest.mark.parametrize("game_id", sorted(SHORT))
def test_each_seat_and_a_spectator_get_the_whole_story_and_nothing_early(
    server: Server, game_id: str
) -> None:
    status, made = server.post(
        "/api/games", {"game": game_id, "options": SHORT[game_id], "seats": [{"kind": "person"}] * 2}
    )
    assert status == 201, made
    spectator = server.seat(made["id"], None)
    tokens = {s["seat"]: s["token"] for s in made["seats"]}
    seen = play_out(server, made["id"], tokens, seed=7)
    public = [receive(spectator)]
    while public[-1].get("result") is None:
        public.append(receive(spectator))
    spectator.close()
    record = Record.from_json(server.get(f"/api/games/{made['id']}/record")[1])
    received = {seat: story_of(views) for seat, views in seen.items()}
    received[PUBLIC] = story_of(public)
    check_story(game_id, record, received)
    # A connection opened after the end is told the whole story at once, as the others pieced it.
    late = server.seat(made["id"], tokens[0])
    first = receive(late)
    while first["type"] != "view" or len(first["story"]) < len(received[0]):
        first = receive(late)  # (a view of the others' presence may come first)
    late.close()
    assert {e["number"]: e["lines"] for e in first["story"]} == received[0]


@pytest.mark.parametrize("game_id", SECRET_GAMES)
def test_an_opponents_secret_shows_only_once_the_rules_reveal_it(server: Server, game_id: str) -> None:
    """The frames themselves: an opponent's secret choice (or card drawn) is named in no line of the
    event that made it, and a choice is named by the event that reveals it."""
    _, made = server.post(
        "/api/games", {"game": game_id, "options": SHORT[game_id], "seats": [{"kind": "person"}] * 2}
    )
    tokens = {s["seat"]: s["token"] for s in made["seats"]}
    seen = play_out(server, made["id"], tokens, seed=11, stop_after=16)
    record = ended_record(server, made["id"], tokens[0])
    states = record.replay()
    kept = revealed = 0
    for seat, views in seen.items():
        told = story_of(views)
        for number, (player, text) in enumerate(record.events):
            if number not in told:
                continue
            before = states[number]
            if game_id == "fight":
                # A draw into the opponent's hand is told by the card's back; the seat's own, by name.
                step = getattr(before, "queue", [None])[0] if player == CHANCE else None
                name = text[len("draw ") :]
                if step == 1 - seat:
                    assert name not in " ".join(told[number]), (seat, number, told[number])
                    kept += 1
                elif step == seat:
                    assert name in " ".join(told[number])
                    revealed += 1
                continue
            if player not in (0, 1) or player == seat:
                continue
            if before.to_act() != (player,):
                assert text not in " ".join(told[number]), (seat, number, told[number])
                kept += 1
                # The event that completes the step (the seat's own choice) reveals it.
                later = next(j for j in range(number + 1, len(record.events)) if record.events[j][0] == seat)
                if later in told:
                    assert text in " ".join(told[later]), told[later]
                    revealed += 1
    assert kept and revealed, (kept, revealed)


def test_the_check_catches_a_story_that_tells_a_secret() -> None:
    def leaky(before: State[Any], player: int, action: Any, after: State[Any], viewer: int) -> list[str]:
        return [before.action_to_str(player, action)]

    for game_id in SECRET_GAMES:
        state = load_game(game_id, **SHORT[game_id]).new_initial_state()
        rng = random.Random(1)
        caught = False
        for _ in range(60):
            if state.is_terminal():
                break
            player = rng.choice(state.to_act())
            action = state.sample_chance(rng) if player == CHANCE else state.legal_actions(player).sample(rng)
            viewer = 1 - player if player >= 0 else 0
            lines = leaky(state, player, action, state, viewer)
            try:
                assert_tells_no_more_than_seen(leaky, state, player, action, viewer, lines)
            except AssertionError:
                caught = True
                break
            state.apply(player, action)
        assert caught, game_id


def test_the_story_is_numbered_past_99_in_a_long_game(server: Server) -> None:
    status, made = server.post(
        "/api/games", {"game": "fightopia", "options": {"ply_limit": 130}, "seats": [{"kind": "person"}] * 2}
    )
    assert status == 201, made
    tokens = {s["seat"]: s["token"] for s in made["seats"]}
    seen = play_out(server, made["id"], tokens, seed=5, stop_after=110)
    events = seen[0][-1]["events"]
    assert events > 105
    # After each event a seat is sent the lines of the latest events: the numbers past 99 arrive one by one.
    pieced = story_of(seen[0])
    assert sorted(pieced) == list(range(events))
    later = [v for v in seen[0] if v["events"] > 100]
    assert later and all(v["story"][-1]["number"] == v["events"] - 1 for v in later)
    assert all(len(v["story"]) <= 20 for v in later)
    # A connection opened now is told every event, numbered 0 to the last.
    ws = server.seat(made["id"], tokens[1])
    whole = receive(ws)
    while whole["type"] != "view" or not whole["story"] or whole["story"][0]["number"] != 0:
        whole = receive(ws)  # (a view of the others' presence may come first)
    ws.close()
    assert [e["number"] for e in whole["story"]] == list(range(events))


def look(ws: ClientConnection, message: dict[str, Any]) -> dict[str, Any]:
    """The answer to one message, past any views that arrive meanwhile."""
    ws.send(json.dumps(message))
    while True:
        answer = receive(ws)
        if answer["type"] != "view":
            return answer


@pytest.mark.parametrize("game_id", ["fite", "fightopia"])
def test_looking_back_shows_what_the_seat_saw_then_and_nothing_more(server: Server, game_id: str) -> None:
    _, made = server.post(
        "/api/games", {"game": game_id, "options": SHORT[game_id], "seats": [{"kind": "person"}] * 2}
    )
    tokens = {s["seat"]: s["token"] for s in made["seats"]}
    play_out(server, made["id"], tokens, seed=3, stop_after=9)
    record = ended_record(server, made["id"], tokens[1])
    states = record.replay()
    # Seat 1 looks: the page-less players of play_out choose lowest seat first, so seat 0's choices
    # are the ones made while seat 1 still had to choose.
    seat = server.seat(made["id"], tokens[1])
    spectator = server.seat(made["id"], None)
    view = receive(seat)
    receive(spectator)
    for at in range(len(record.events)):
        for viewer, ws in ((1, seat), (PUBLIC, spectator)):
            answer = look(ws, {"type": "look", "at": at})
            assert answer["type"] == "look", answer
            shown = answer["at"]
            assert shown >= at and answer["events"] == view["events"]
            # Only a position a seat was sent is shown: chance acts on at once, nobody sees it to act.
            assert all(player == CHANCE for player, _ in record.events[at + 1 : shown + 1])
            assert states[shown + 1].to_act() != (CHANCE,) or shown == len(record.events) - 1
            truth = states[shown + 1]
            assert answer["observation"] == json.loads(json.dumps(truth.observation(viewer)))
            assert answer["text"] == truth.observation_text(viewer)
            assert answer["story"]["number"] == shown
    if game_id == "fite":
        # The opponent's secret choice, made at an event where seat 1 had still to choose, is in no look.
        secret = [
            text
            for number, (player, text) in enumerate(record.events)
            if player == 0 and states[number].to_act() == (0, 1)
        ]
        assert secret
        for number, (player, text) in enumerate(record.events):
            if player == 0 and states[number].to_act() == (0, 1):
                answer = look(seat, {"type": "look", "at": number})
                assert text not in json.dumps(answer["story"])
    seat.close()
    spectator.close()


def test_looking_back_is_bounded_and_a_bad_look_gets_one_line(server: Server) -> None:
    # Before anything is played (FITE opens with a choice, no chance) there is nothing to look at.
    _, made = server.post("/api/games", {"game": "fite", "seats": [{"kind": "person"}] * 2})
    ws = server.seat(made["id"], made["seats"][0]["token"])
    assert receive(ws)["events"] == 0
    assert "nothing has been played" in look(ws, {"type": "look", "at": 0})["error"]
    ws.close()
    # Then bad shapes and numbers are refused.
    _, made = server.post(
        "/api/games", {"game": "fightopia", "options": SHORT["fightopia"], "seats": [{"kind": "person"}] * 2}
    )
    ws = server.seat(made["id"], made["seats"][0]["token"])
    receive(ws)
    tokens = {s["seat"]: s["token"] for s in made["seats"]}
    play_out(server, made["id"], tokens, seed=2, stop_after=3)
    drain(ws, 0.3)
    bad_looks: list[tuple[dict[str, Any], str]] = [
        ({"type": "look"}, "look back with"),
        ({"type": "look", "at": "3"}, "look back with"),
        ({"type": "look", "at": True}, "look back with"),
        ({"type": "look", "at": 1.0}, "look back with"),
        ({"type": "look", "at": 1, "seat": 1}, "look back with"),
        ({"type": "look", "at": -1}, "look at an event from 0"),
        ({"type": "look", "at": 10**9}, "look at an event from 0"),
    ]
    for bad, why in bad_looks:
        answer = look(ws, bad)
        assert answer["type"] == "error" and why in answer["error"], (bad, answer)
        assert "\n" not in answer["error"] and "Traceback" not in answer["error"]
    # Looks count against the connection's message rate: a flood is cut off, in one line each.
    for _ in range(80):
        ws.send(json.dumps({"type": "look", "at": 0}))
    answers = drain(ws, 1.0)
    looks = [a for a in answers if a["type"] == "look"]
    refused = [a for a in answers if a["type"] == "error"]
    assert looks and refused and all("too many messages" in a["error"] for a in refused)
    ws.close()


def test_a_look_back_replays_a_bounded_stretch_and_finds_every_position() -> None:
    """Kept positions make a look back cost at most SNAPSHOT_EVERY events however long the game, and every
    position it gives is the rules' own after that event."""
    game = load_game("fightopia", ply_limit=200)
    state = game.new_initial_state()
    rng = random.Random(4)
    events: list[tuple[int, str]] = []
    while not state.is_terminal():
        player = state.to_act()[0]
        action = state.sample_chance(rng) if player == CHANCE else state.legal_actions(player).sample(rng)
        events.append((player, state.action_to_str(player, action)))
        state.apply(player, action)
    book = StoryBook(game)
    record = Record.start(game, ["a", "b"])
    for player, text in events:
        record.add(player, text)
    states = record.replay()
    applied = 0
    original = State.apply_str

    def counting(self: State[Any], player: int, text: str) -> Any:
        nonlocal applied
        applied += 1
        return original(self, player, text)

    book.follow(events)
    State.apply_str = counting  # type: ignore[method-assign]
    try:
        for at in range(len(events)):
            applied = 0
            shown, position = book.position(events, at)
            assert position.observation(0) == states[shown + 1].observation(0)
            assert applied <= SNAPSHOT_EVERY + 10
    finally:
        State.apply_str = original  # type: ignore[method-assign]
    assert len(events) > 3 * SNAPSHOT_EVERY


def test_a_burst_of_events_reaches_a_connected_seat_whole(server: Server) -> None:
    """Fight!'s deal to five players is more than the 20 latest events a view carries: a seat that
    watched the game wait for its last player still pieces the whole story together."""
    seats = [{"kind": "person"}, {"kind": "open"}, *[{"kind": "computer", "agent": "random"}] * 3]
    status, made = server.post("/api/games", {"game": "fight", "seats": seats})
    assert status == 201, made
    host = server.seat(made["id"], made["seats"][0]["token"])
    views = [receive(host)]
    assert views[0]["events"] == 0 and views[0]["status"] == "waiting"
    status, joined = server.post(f"/api/games/{made['id']}/join", {})
    assert status == 200, joined
    guest = server.seat(made["id"], joined["token"])
    while views[-1]["events"] < 25:
        views.append(receive(host))
    views.extend(m for m in drain(host, 0.5) if m["type"] == "view")
    guest.close()
    host.close()
    first_burst = next(v for v in views if v["events"] > 0)
    assert first_burst["events"] > 20
    told = story_of(views)
    assert sorted(told) == list(range(views[-1]["events"]))
    # The host's own cards by name, the others' by their backs.
    assert any(
        line.startswith("p0 draws ") and " Warrior" not in line for lines in told.values() for line in lines
    )
    assert any(line.startswith("p1 draws a ") for lines in told.values() for line in lines)


def test_a_game_with_secrets_and_no_story_hook_tells_only_a_viewers_own_actions() -> None:
    """The fallback for a game that declares no hook: its own actions by notation, the others' as acted."""
    game = load_game("fite")
    book = StoryBook(game)
    book.teller = None  # as if FITE declared no story
    state = game.new_initial_state()
    events = []
    for player, text in [(0, "off 1"), (1, "tac 5")]:
        state.apply_str(player, text)
        events.append((player, text))
    book.follow(events)
    assert book.entries(0)[0]["lines"] == ["fighter A played off 1"]
    assert book.entries(1)[0]["lines"] == ["fighter A acted"]
    assert book.entries(PUBLIC)[1]["lines"] == ["fighter B acted"]


def test_the_terminal_client_tells_the_story_as_its_seat_may_know_it(server: Server, tmp_path: Path) -> None:
    """``tussle play --seat LINK`` prints the story's new lines: a spectator reads each secret choice as
    made, then its reveal."""
    body = {"game": "fite", "options": SHORT["fite"], "seats": [{"kind": "person"}, {"kind": "person"}]}
    created = server.post("/api/games", body)[1]
    game_id, tokens = created["id"], {s["seat"]: s["token"] for s in created["seats"]}
    client = Client(tmp_path, "--seat", f"{server.url}/play/{game_id}")
    try:
        client.wait_for("You are watching")
        play_out(server, game_id, tokens, seed=4, stop_after=6)
        client.wait_for("both choices revealed: fighter A: ", 3)
    finally:
        client.stop()
    out = client.output()
    assert "  fighter A chose where to place a die for the setup\n" in out
    assert "  fighter B chose where to place a die for the setup\n  both choices revealed: " in out
