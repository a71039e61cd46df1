"""FITE's balance measures: the rows of a played game against its record, and the figures on known data."""

from __future__ import annotations

import re
from typing import Any

import pytest

from balance_rows import Event, rows
from tussle import CHANCE, Record, load_game
from tussle.agents import make_agent
from tussle.balance.measures import Data, Row
from tussle.games.fite.balance import measures, tactic_kind
from tussle.runner import play_game

PLACE = re.compile(r"(off|def|tac) [1-6]")
SPLIT = re.compile(r"(\d)/(\d)( \+\w+)?")


def turns_from_events(record: Record) -> list[list[dict[str, Any]]]:
    """Each fighter's turns as the record's own texts tell them: location, split, power, tactic."""
    turns: list[list[dict[str, Any]]] = [[], []]
    placed = [0, 0]
    setup = record.options.get("setup_placement", True)
    for player, text in record.events:
        if player == CHANCE:
            continue
        mine = turns[player]
        if PLACE.fullmatch(text):
            placed[player] += 1
            if setup and placed[player] == 1:
                continue  # the SETUP placement: no fight of its own
            mine.append({"placed": text[:3], "location": text[:3], "power": None, "tactic": None})
        elif text == "stay":
            pass
        elif text.startswith("swift "):
            mine[-1]["location"] = text.split()[1]
            mine[-1]["power"] = "swift"
        elif match := SPLIT.fullmatch(text):
            mine[-1]["split"] = (int(match[1]), int(match[2]))
            if match[3]:
                mine[-1]["power"] = match[3].strip(" +")
        else:
            mine[-1]["tactic"] = text
    return turns


@pytest.fixture(scope="module")
def played() -> tuple[Any, Record, list[Row]]:
    game = load_game("fite", power_a="cunning", power_b="swift", turn_limit=100)
    agents = [make_agent("rule", game, 0, seed=11), make_agent("random", game, 1, seed=12)]
    state, record = play_game(game, agents, seed=13)
    return state, record, list(measures.events(game, record))


def of(rows: list[Row], seat: int, kind: str) -> list[Row]:
    return [r for r in rows if r.seat == seat and r.kind == kind]


def test_one_power_row_per_seat(played: tuple[Any, Record, list[Row]]) -> None:
    _, _, rows = played
    assert [(r.seat, r.component) for r in rows if r.kind == "power"] == [(0, "cunning"), (1, "swift")]
    none_game = load_game("fite", turn_limit=3)
    _, record = play_game(none_game, [make_agent("random", none_game, p, seed=p) for p in (0, 1)], seed=1)
    assert [r.component for r in measures.events(none_game, record) if r.kind == "power"] == ["none", "none"]


def test_the_turns_match_the_record(played: tuple[Any, Record, list[Row]]) -> None:
    state, record, rows = played
    turns = turns_from_events(record)
    fights = sum(1 for player, _ in record.events if player == CHANCE) // 4
    assert len(turns[0]) == len(turns[1]) == fights == state.turn
    for p in (0, 1):
        assert [r.component for r in of(rows, p, "location")] == [t["location"] for t in turns[p]]
        assert [r.component for r in of(rows, p, "location_result")] == [t["location"] for t in turns[p]]
        pairs = [f"{a['location']} v {b['location']}" for a, b in zip(turns[p], turns[1 - p], strict=True)]
        assert [r.component for r in of(rows, p, "location_pair")] == pairs
        shares = [t["split"][0] / sum(t["split"]) for t in turns[p]]
        assert [r.value for r in of(rows, p, "split")] == pytest.approx(shares)
        tactics = [tactic_kind(t["tactic"], p) for t in turns[p] if t["tactic"] is not None]
        assert [r.component for r in of(rows, p, "tactic")] == tactics
        used = [(t["power"], float(i + 1)) for i, t in enumerate(turns[p]) if t["power"]]
        assert [(r.component, r.value) for r in of(rows, p, "power_turn")] == used
        assert [r.value for r in of(rows, p, "power_used")] == [float(bool(used))]
        moves = [f"{t['placed']}>{t['location']}" for t in turns[p] if t["power"] == "swift"]
        assert [r.component for r in of(rows, p, "swift")] == moves
    # This game has each kind of row, Swift's move and Cunning's both options among them.
    assert of(rows, 1, "swift") and any(r.component == "move and turn" for r in of(rows, 0, "tactic"))


def test_the_location_results_add_up_to_the_dice_lost(played: tuple[Any, Record, list[Row]]) -> None:
    state, _, rows = played
    assert min(state.dice) > 0  # no hit went beyond the dice left, so the hits are the dice lost
    for p in (0, 1):
        lost = [9 - state.dice[p], 9 - state.dice[1 - p]]
        results = of(rows, p, "location_result")
        assert sum(r.value for r in results) == lost[1] - lost[0]
        assert [r.value for r in of(rows, p, "location_pair")] == [r.value for r in results]
    assert sum(r.value for r in rows if r.kind == "location_result") == 0


def test_cut_by_limit() -> None:
    game = load_game("fite", setup_placement=False, turn_limit=1)
    state = game.new_initial_state()
    for player, text in [
        (0, "tac 5"), (1, "tac 5"), (0, "1/8"), (1, "1/8"),
        (CHANCE, "A off 1"), (CHANCE, "A def 6,6,6,6,6,6,6,6"),
        (CHANCE, "B off 1"), (CHANCE, "B def 6,6,6,6,6,6,6,6"),
        (0, "pass"), (1, "pass"),
    ]:  # fmt: skip
        state.apply_str(player, text)
    result = state.result()
    assert result is not None and result.ranking == (1, 1)
    assert state.cut_by_limit()
    assert not game.new_initial_state().cut_by_limit()


def test_a_finished_fight_is_not_cut_by_the_limit(played: tuple[Any, Record, list[Row]]) -> None:
    state, _, _ = played
    assert state.result() is not None and not state.cut_by_limit()


# --- the figures, on rows made by hand ----------------------------------------------


def tiny(winners: list[int], events: list[Event]) -> Data:
    # Another variant's row, which the figures must leave out.
    return rows(winners, events, ("w", "p", 0, 0, "power", "tough", 1))


def by_key(data: Data) -> dict[str, Any]:
    figures = measures.figures(data)
    keys = [f.key for f in figures]
    assert len(keys) == len(set(keys))
    return {f.key: f for f in figures}


def test_the_figures_on_known_rows() -> None:
    # Game 0: brutal (seat 0) beats none; game 1: none (seat 0) loses to brutal;
    # game 2: brutal (seat 0) loses to none; game 3: none against none, a draw.
    powers = [("brutal", "none"), ("none", "brutal"), ("brutal", "none"), ("none", "none")]
    events: list[tuple[int, int, str, str, float]] = []
    for game, pair in enumerate(powers):
        events += [(game, seat, "power", power, 1.0) for seat, power in enumerate(pair)]
    # Brutal used in games 0 and 1 (turns 2 and 4), kept in game 2.
    events += [(0, 0, "power_used", "brutal", 1.0), (1, 1, "power_used", "brutal", 1.0)]
    events += [(2, 0, "power_used", "brutal", 0.0)]
    events += [(0, 0, "power_turn", "brutal", 2.0), (1, 1, "power_turn", "brutal", 4.0)]
    # Winners stood at tac twice a game, losers at off once and at tac once.
    for game, winner in enumerate([0, 1, 1]):
        events += [(game, winner, "location", "tac", 1.0)] * 2
        events += [(game, 1 - winner, "location", "off", 1.0), (game, 1 - winner, "location", "tac", 1.0)]
    events += [(0, 0, "location_result", "tac", 2.0), (0, 1, "location_result", "off", -2.0)]
    events += [(1, 1, "location_result", "tac", 1.0), (1, 0, "location_result", "off", -1.0)]
    events += [(0, 0, "location_pair", "tac v off", 2.0), (0, 1, "location_pair", "off v tac", -2.0)]
    events += [(0, 0, "swift", "off>tac", 1.0), (0, 0, "split", "tac", 8 / 9)]
    events += [(0, 0, "tactic", "move", 1.0), (0, 0, "tactic", "move", 1.0), (0, 1, "tactic", "pass", 1.0)]
    figures = by_key(tiny([0, 1, 1, -1], events))

    matrix = figures["power_matrix"]
    cells = {(r[0], r[1]): r for r in matrix.rows}
    assert cells["brutal", "none"][2:4] == [3, pytest.approx(2 / 3)]
    assert cells["none", "brutal"][2:4] == [3, pytest.approx(1 / 3)]
    assert cells["none", "none"][2] == 2 and cells["none", "none"][3] == 0 and cells["none", "none"][6] == 2
    assert matrix.plot is not None and matrix.plot.data["rows"] == ["brutal", "none"]
    assert "tough" not in matrix.plot.data["rows"]

    wins = {r[0]: r for r in figures["power_wins"].rows}
    # Brutal: 2 wins in 3 seats; the 5 seats without it won 1 game.
    assert wins["brutal"][1:3] == [3, pytest.approx(2 / 3)]
    assert wins["brutal"][5] == pytest.approx(1 / 5)
    assert wins["brutal"][6] == pytest.approx(2 / 3 - 1 / 5)

    used = {r[0]: r for r in figures["power_used"].rows}
    assert used["brutal"][1:4] == [3, 2, pytest.approx(2 / 3)]
    assert {r[0]: r[2] for r in figures["power_turn"].rows} == {"brutal": 3.0}

    turns = {r[0]: r for r in figures["location_turns"].rows}
    assert turns["tac"][1] == 2 and turns["tac"][4] == 1 and turns["tac"][7] == 1
    assert turns["off"][1] == 0 and turns["off"][4] == 1
    assert {r[0]: r[2] for r in figures["location_result"].rows} == {"off": -1.5, "tac": 1.5}
    assert {r[0]: r[2] for r in figures["location_pair"].rows} == {"off v tac": -2.0, "tac v off": 2.0}
    assert {r[0]: r[2] for r in figures["swift_moves"].rows} == {"off>tac": 1.0}
    assert figures["split"].rows[0][2] == pytest.approx(8 / 9)
    tactics = {r[0]: r for r in figures["tactic_choices"].rows}
    # Per decided game: the winner moved twice in game 0 and never in games 1 and 2.
    assert tactics["move"][1] == pytest.approx(2 / 3) and tactics["move"][4] == 0
    assert tactics["pass"][4] == pytest.approx(1 / 3)


def test_the_figures_of_no_rows() -> None:
    figures = by_key(tiny([0], []))
    # No fighter brought a power: no power figures at all; the others are empty.
    assert "power_matrix" not in figures and figures["location_turns"].rows == []
