"""Game records: written while playing, read back strictly, replayed exactly without a seed."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

import tussle
from toy_game import registered
from tussle import CHANCE, Record, RecordError, State


def play(game_id: str, seed: int, **options: Any) -> tuple[State[Any], Record]:
    """A random game and its record, written the way the runner writes them."""
    game = tussle.load_game(game_id, **options)
    state = game.new_initial_state()
    record = Record.start(game, ["random"] * game.num_players)
    rng = random.Random(seed)
    while not state.is_terminal():
        player = rng.choice(state.to_act())
        action = state.sample_chance(rng) if player == CHANCE else state.legal_actions(player).sample(rng)
        record.add(player, state.action_to_str(player, action))
        state.apply(player, action)
    result = state.result()
    assert result is not None
    record.finish(result)
    return state, record


@pytest.fixture
def race() -> tuple[State[Any], Record]:
    with registered() as game_id:
        return play(game_id, seed=3, target=15)


@pytest.fixture
def race_doc(race: tuple[State[Any], Record]) -> dict[str, Any]:
    doc: dict[str, Any] = race[1].to_json()
    return doc


def replay(doc: Any) -> list[State[Any]]:
    with registered():
        return Record.loads(json.dumps(doc)).replay()


def rejected(doc: Any) -> str:
    """The one-line message that refuses ``doc``."""
    with registered(), pytest.raises(RecordError) as caught:
        Record.loads(json.dumps(doc)).replay()
    message = str(caught.value)
    assert "\n" not in message
    return message


# --- writing and replaying ------------------------------------------------------


def test_a_record_is_plain_json_with_every_event(race: tuple[State[Any], Record]) -> None:
    _, record = race
    doc = record.to_json()
    assert doc["format"] == "tussle-record" and doc["version"] == 1
    assert doc["game"] == "dice-race" and doc["options"] == {"target": 15}
    assert doc["num_players"] == 2 and doc["players"] == ["random", "random"]
    assert doc["position"] is None
    players = {ev["player"] for ev in doc["events"]}
    assert players == {0, 1, "chance"}, "chance outcomes are events of player 'chance'"
    assert all(isinstance(ev["action"], str) for ev in doc["events"])
    assert json.loads(record.dumps()) == doc


def test_a_replay_reproduces_the_game_without_a_seed(race: tuple[State[Any], Record]) -> None:
    state, record = race
    with registered():
        states = record.replay()
        again = Record.loads(record.dumps()).replay()
    assert len(states) == len(record.events) + 1
    assert [s.render() for s in states] == [s.render() for s in again]
    assert states[-1].render() == state.render()
    assert states[-1].result() == state.result()
    with registered():
        assert record.final_state().observation(1) == state.observation(1)


def test_replayed_states_are_independent(race: tuple[State[Any], Record]) -> None:
    with registered():
        states = race[1].replay()
    renders = [s.render() for s in states]
    assert len(set(renders)) > 1
    assert states[0].to_act() == (0,) and states[0].observation(0)["scores"] == [0, 0]


def test_a_record_saves_and_loads(race: tuple[State[Any], Record], tmp_path: Path) -> None:
    _, record = race
    path = tmp_path / "game.json"
    record.save(path)
    assert path.read_text(encoding="utf-8").endswith("}\n")
    assert Record.load(path) == record
    assert Record.load(str(path)).to_json() == record.to_json()


def test_a_simultaneous_game_replays() -> None:
    state, record = play("robo-pigs", seed=1)
    final = Record.loads(record.dumps()).final_state()
    assert final.render() == state.render()
    assert [final.observation(p) for p in (0, 1)] == [state.observation(p) for p in (0, 1)]


def test_a_record_may_start_from_a_position() -> None:
    game = tussle.load_game("robo-pigs")
    start = "a1N0 h8S2 5"
    state = game.state_from_position(start)
    record = Record.start(game, ["a", "b"], position=start)
    for player, text in ((0, "F ^ TR v H"), (1, "X X ^ ^ F")):
        record.add(player, text)
        state.apply_str(player, text)
    replayed = Record.loads(record.dumps()).final_state()
    assert replayed.position() == state.position()
    assert replayed.render() == state.render()


def test_an_unfinished_game_is_a_valid_record(race_doc: dict[str, Any]) -> None:
    race_doc["events"] = race_doc["events"][:5]
    race_doc["result"] = None
    states = replay(race_doc)
    assert len(states) == 6 and states[-1].result() is None


# --- refusing bad files ---------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "not valid JSON: Expecting value at line 1 column 1"),
        ('{"game": "robo-pigs", "events": [}', "not valid JSON: Expecting value at line 1 column 34"),
        ("[" * 100_000, "not valid JSON: nested too deeply"),
        (
            '{"game": "fite", "events": [], "options": {"turn_limit": ' + "9" * 5000 + "}}",
            "not valid JSON: a number of 5,000 digits (at most 18)",
        ),
        ("[]", "a record must be a JSON object"),
        ("42", "a record must be a JSON object"),
    ],
)
def test_text_that_is_no_record(text: str, message: str) -> None:
    with pytest.raises(RecordError) as caught:
        Record.loads(text)
    assert str(caught.value) == message


def test_files_that_cannot_be_read(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match=r"^cannot read .*missing\.json: No such file or directory$"):
        Record.load(tmp_path / "missing.json")
    latin = tmp_path / "latin.json"
    latin.write_bytes(b'{"game": "caf\xe9"}')
    with pytest.raises(RecordError, match="not UTF-8 text"):
        Record.load(latin)
    with pytest.raises(RecordError, match="cannot read"):
        Record.load(tmp_path)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"format": "pgn"}, "not a tussle record (format 'pgn')"),
        ({"version": 2}, "record version 2 is not 1, the one this tussle reads"),
        ({"game": None}, "the record has no game id (key 'game')"),
        ({"options": []}, "'options' must be an object"),
        ({"num_players": "2"}, "'num_players' must be an integer"),
        ({"num_players": True}, "'num_players' must be an integer"),
        ({"players": ["a", 2]}, "'players' must be a list of strings"),
        ({"players": ["a", "b", "c"]}, "'players' names 3 players, but 'num_players' is 2"),
        ({"position": 7}, "'position' must be a string or null"),
        ({"events": {}}, "the record has no list of events (key 'events')"),
        ({"result": "a win"}, "'result' must be an object or null"),
    ],
)
def test_a_malformed_header_is_refused(
    race_doc: dict[str, Any], change: dict[str, Any], message: str
) -> None:
    assert rejected(race_doc | change) == message


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"game": "dice-rase"}, "record header: unknown game 'dice-rase' (did you mean dice-race?)"),
        ({"options": {"target": "far"}}, "record header: option target: 'far' is not an integer"),
        ({"options": {"speed": 2}}, "record header: dice-race has no option 'speed'"),
        ({"options": {"players": 3}}, "record header: dice-race has no option 'players'"),
        ({"num_players": 9, "players": []}, "record header: dice-race is for 2 to 4 players, not 9"),
        ({"position": "x"}, "record header: dice-race has no position notation"),
    ],
)
def test_a_header_the_game_refuses_is_refused(
    race_doc: dict[str, Any], change: dict[str, Any], message: str
) -> None:
    assert rejected(race_doc | change).startswith(message)


def test_a_bad_position_is_refused() -> None:
    _, record = play("robo-pigs", seed=2)
    doc = record.to_json() | {"position": "z9N0 e1N0 1"}
    with pytest.raises(RecordError, match=r"^record header: 'z9N0 e1N0 1': .*"):
        Record.loads(json.dumps(doc)).replay()


@pytest.mark.parametrize(
    ("event", "message"),
    [
        ("roll", "event 3: must be an object with 'player' and 'action'"),
        ({"player": 0}, "event 3: must be an object with 'player' and 'action'"),
        ({"player": 0, "action": "roll", "time": 3}, "event 3: must be an object with 'player' and 'action'"),
        ({"player": 2, "action": "roll"}, "event 3: bad player 2"),
        ({"player": -1, "action": "roll"}, "event 3: bad player -1"),
        ({"player": True, "action": "roll"}, "event 3: bad player True"),
        ({"player": "nature", "action": "4"}, "event 3: bad player 'nature'"),
        ({"player": 0, "action": 4}, "event 3: the action must be a string"),
    ],
)
def test_a_malformed_event_is_refused_by_index(race_doc: dict[str, Any], event: Any, message: str) -> None:
    race_doc["events"][3] = event
    assert rejected(race_doc) == message


def first_event(doc: dict[str, Any], player: Any) -> int:
    return next(i for i, ev in enumerate(doc["events"]) if ev["player"] == player and i > 0)


def test_a_garbled_event_is_refused_by_index(race_doc: dict[str, Any]) -> None:
    i = first_event(race_doc, 1)
    race_doc["events"][i]["action"] = "jump"
    assert rejected(race_doc) == f"event {i} (player 1 'jump'): 'jump': say roll or hold"


def test_an_illegal_event_is_refused_by_index(race_doc: dict[str, Any]) -> None:
    # Right after rolling a 1 the next player has nothing to hold: well-formed but illegal.
    events = race_doc["events"]
    i = next(i for i in range(1, len(events)) if events[i - 1] == {"player": "chance", "action": "1"})
    player = events[i]["player"]
    events[i]["action"] = "hold"
    assert (
        rejected(race_doc)
        == f"event {i} (player {player} 'hold'): 'hold' is not legal now: nothing to hold yet"
    )


def test_an_impossible_chance_event_is_refused_by_index(race_doc: dict[str, Any]) -> None:
    i = first_event(race_doc, "chance")
    race_doc["events"][i]["action"] = "7"
    assert rejected(race_doc) == f"event {i} (chance '7'): '7': a roll is a number from 1 to 6"


def test_an_out_of_turn_event_is_refused_by_index(race_doc: dict[str, Any]) -> None:
    race_doc["events"][0]["player"] = 1
    assert rejected(race_doc) == (
        "event 0 (player 1 'roll'): 'roll': it is not player 1's turn (to act: player 0)"
    )


def test_a_chance_event_in_a_players_turn_is_refused(race_doc: dict[str, Any]) -> None:
    race_doc["events"].insert(0, {"player": "chance", "action": "3"})
    assert rejected(race_doc).startswith("event 0 (chance '3'): '3': it is not chance's turn")


def test_events_after_the_end_are_refused(race_doc: dict[str, Any]) -> None:
    race_doc["events"].append({"player": 0, "action": "roll"})
    n = len(race_doc["events"]) - 1
    assert rejected(race_doc) == f"event {n} (player 0 'roll'): 'roll': the game is over"


# --- the stored result ------------------------------------------------------------


def test_a_wrong_winner_is_refused(race_doc: dict[str, Any]) -> None:
    winner = race_doc["result"]["winner"]
    race_doc["result"]["winner"] = 1 - winner
    assert rejected(race_doc) == (
        f"the record's result has winner {1 - winner!r}, but its events give {winner!r}"
    )


def test_wrong_returns_are_refused(race_doc: dict[str, Any]) -> None:
    race_doc["result"]["returns"] = [0.0, 0.0]
    assert rejected(race_doc).startswith("the record's result has returns [0.0, 0.0], but its events give")


def test_a_result_for_an_unfinished_game_is_refused(race_doc: dict[str, Any]) -> None:
    race_doc["events"] = race_doc["events"][:-1]
    assert rejected(race_doc) == "the record gives a result but its events do not finish the game"


def test_an_incomplete_or_padded_result_is_refused(race_doc: dict[str, Any]) -> None:
    result = race_doc["result"]
    assert rejected(race_doc | {"result": {}}) == "the record's result has no 'winner'"
    assert (
        rejected(race_doc | {"result": result | {"score": 3}})
        == "the record's result has unknown keys: 'score'"
    )
    # The reason is a note for people: it may be left out, but not changed.
    del result["reason"]
    assert replay(race_doc)[-1].result() is not None
    assert rejected(race_doc | {"result": result | {"reason": "luck"}}).startswith(
        "the record's result has reason"
    )


def test_a_replay_walks_one_state_not_a_copy_per_event() -> None:
    # A long record replays in constant memory: the walk moves one state along.
    _, record = play("robo-pigs", 3, round_limit=30)
    walked = {id(state) for state in record.walk()}
    assert len(walked) == 1
    assert record.final_state().position() == record.replay()[-1].position()
