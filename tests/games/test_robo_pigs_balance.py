"""Robo Battle Pigs' balance measures: the rows of a played game against its record, and the figures."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from balance_rows import Event, rows
from tussle import Record, load_game
from tussle.agents import make_agent
from tussle.balance.measures import Data, Row
from tussle.games.robo_pigs.actions import COMMAND_NAMES, REPAIR_PROGRAM, parse_program
from tussle.games.robo_pigs.balance import measures
from tussle.runner import play_game


def totals(rows: list[Row], seat: int, kind: str) -> dict[str, float]:
    return {r.component: r.value for r in rows if r.seat == seat and r.kind == kind}


@pytest.fixture(scope="module")
def played() -> tuple[Any, Record, list[Row]]:
    game = load_game("robo-pigs", round_limit=100)
    agents = [make_agent("rule", game, 0, seed=21), make_agent("random", game, 1, seed=22)]
    state, record = play_game(game, agents, seed=23)
    return state, record, list(measures.events(game, record))


def test_the_commands_are_those_of_the_programs(played: tuple[Any, Record, list[Row]]) -> None:
    _, record, rows = played
    for p in (0, 1):
        programs = [parse_program(text) for player, text in record.events if player == p]
        written = Counter(COMMAND_NAMES[c] for program in programs for c in program)
        assert totals(rows, p, "command") == {name: float(n) for name, n in written.items()}
        repairs = sum(program == REPAIR_PROGRAM for program in programs)
        assert totals(rows, p, "repair").get("rounds", 0) == repairs


def test_the_damage_adds_up(played: tuple[Any, Record, list[Row]]) -> None:
    state, _, rows = played
    assert state.result() is not None and max(state.damage) == 5
    for p in (0, 1):
        hits = totals(rows, p, "hit")
        theirs = totals(rows, 1 - p, "hit")
        # Damage taken, less the points repaired, is the damage the pig ends with.
        assert hits.get("taken", 0) - totals(rows, p, "repair").get("points", 0) == state.damage[p]
        assert hits.get("taken", 0) == theirs.get("laser", 0) + theirs.get("fist", 0)
        attacks = totals(rows, p, "attack")
        for weapon, accuracy in totals(rows, p, "accuracy").items():
            assert accuracy == pytest.approx(hits.get(weapon, 0) / attacks[weapon])
    assert not state.cut_by_limit()


def game_of(position: str, *programs: str, **options: Any) -> tuple[Any, list[Row]]:
    """Play the programs (A's and B's, round by round) from a position; the state and the rows."""
    record = Record(
        "robo-pigs", options, position=position, events=[(i % 2, p) for i, p in enumerate(programs)]
    )
    return record.final_state(), list(measures.events(load_game("robo-pigs", **options), record))


def test_blocks_by_the_edge_and_by_the_other_pig() -> None:
    # A on d8 facing south backs off the board five times; B turns.
    _, rows = game_of("d8S0 e1N0 1", "v v v v v", "TL TL TL TL TL")
    assert totals(rows, 0, "blocked") == {"edge": 5.0}
    assert totals(rows, 1, "blocked") == {} and totals(rows, 1, "command") == {"turn left": 5.0}
    # Face to face, both walk forward: they would swap squares, so neither moves.
    _, rows = game_of("d5S0 d4N0 1", "^ ^ ^ ^ ^", "^ ^ ^ ^ ^")
    assert totals(rows, 0, "blocked") == totals(rows, 1, "blocked") == {"pig": 5.0}


def test_hits_repairs_and_the_end() -> None:
    # A fires down the d file five times at B, who repairs (1 damage, so R R R R R is legal).
    state, rows = game_of("d8S0 d1N1 1", "F F F F F", "R R R R R")
    assert state.damage == (0, 5)
    assert totals(rows, 0, "attack") == {"laser": 4.0} and totals(rows, 0, "hit") == {"laser": 4.0}
    assert totals(rows, 0, "accuracy") == {"laser": 1.0}
    assert totals(rows, 1, "hit") == {"taken": 4.0}
    # The repair round was written, but the game ended before its point came off.
    assert totals(rows, 1, "repair") == {"rounds": 1.0}
    assert totals(rows, 1, "command") == {"repair": 5.0}
    assert not state.cut_by_limit()
    # A repair that counts: B, out of the line of fire, repairs while A turns.
    _, rows = game_of("d8S0 e1N1 1", "TL TL TL TL TL", "R R R R R")
    assert totals(rows, 1, "repair") == {"rounds": 1.0, "points": 1.0}


def test_cut_by_limit() -> None:
    state, _ = game_of("d8S0 e1N0 1", "TL TL TL TL TL", "TR TR TR TR TR", round_limit=1)
    assert state.result() is not None and state.cut_by_limit()
    state, _ = game_of("d8S0 e1N0 1", "TL TL TL TL TL", "TR TR TR TR TR", round_limit=2)
    assert state.result() is None and not state.cut_by_limit()


# --- the figures, on rows made by hand ----------------------------------------------


def tiny(winners: list[int], events: list[Event]) -> Data:
    # Another pairing's row, which the figures must leave out.
    return rows(winners, events, ("v", "other", 0, 0, "command", "fire", 99))


def test_the_figures_on_known_rows() -> None:
    events = [
        # Winners fired 3 and 5 times, losers once each; the draw's 10 shots count for nobody.
        (0, 0, "command", "fire", 3.0), (0, 1, "command", "fire", 1.0),
        (1, 1, "command", "fire", 5.0), (1, 0, "command", "fire", 1.0),
        (2, 0, "command", "fire", 10.0),
        # Only the losers repaired: 2 rounds in game 0, none in game 1.
        (0, 1, "repair", "rounds", 2.0), (0, 1, "repair", "points", 1.0),
        (0, 0, "blocked", "edge", 4.0), (1, 0, "blocked", "pig", 2.0),
        (0, 0, "attack", "laser", 3.0), (0, 0, "hit", "laser", 1.0), (0, 1, "hit", "taken", 1.0),
        (0, 0, "accuracy", "laser", 1 / 3), (1, 1, "accuracy", "laser", 1.0),
    ]  # fmt: skip
    figures = measures.figures(tiny([0, 1, -1], events))
    keys = [f.key for f in figures]
    assert len(keys) == len(set(keys))
    by = {f.key: {r[0]: r for r in f.rows} for f in figures}
    fire = by["commands"]["fire"]
    assert (fire[1], fire[4], fire[7]) == (4.0, 1.0, 3.0)
    assert by["repairs"]["rounds"][1] == 0 and by["repairs"]["rounds"][4] == 1.0
    assert by["repairs"]["points"][4] == 0.5
    assert by["collisions"]["edge"][1] == 2.0 and by["collisions"]["edge"][4] == 0
    assert by["collisions"]["pig"][1] == 0 and by["collisions"]["pig"][4] == 1.0
    assert by["attacks"]["laser"][1] == 1.5
    assert by["hits"]["laser"][1] == 0.5 and by["hits"]["taken"][4] == 0.5
    assert by["accuracy"]["laser"][1:3] == [2, pytest.approx(2 / 3)]
