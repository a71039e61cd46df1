"""Robo Battle Pigs: the rule text's example game step by step, and every rule sentence."""

from __future__ import annotations

import ast
import inspect
import json
import random
import re
from itertools import islice
from typing import Any, cast

import pytest
import robo_pigs_reference as ref
from hypothesis import given, settings
from hypothesis import strategies as st

import tussle.games.robo_pigs.rule_agent as agent_module
from tussle import PUBLIC, ActionError, AgentError, OptionError, PositionError, load_game
from tussle.agents import make_agent
from tussle.agents.base import PlayerView
from tussle.game import State
from tussle.games.robo_pigs import RoboPigs, RoboPigsState
from tussle.games.robo_pigs.actions import (
    DAMAGE,
    REPAIR_PROGRAM,
    SYMBOLS,
    Commands,
    Program,
    format_program,
    parse_program,
)
from tussle.games.robo_pigs.observation import StepJSON
from tussle.games.robo_pigs.rules import (
    FIST,
    LASER,
    Programs,
    parse_square,
    program_problem,
    square_name,
)
from tussle.registry import simulation_options
from tussle.runner import run_match

# --- helpers ------------------------------------------------------------------


def play(position: str, program_a: str, program_b: str, **options: Any) -> RoboPigsState:
    """The state after one round from ``position`` with the two programs."""
    state = RoboPigs(**options).state_from_position(position)
    state.apply_str(0, program_a)
    state.apply_str(1, program_b)
    return state


def step_view(state: RoboPigsState, index: int) -> StepJSON:
    """Step ``index`` (0-based) of the round just played, as observation data."""
    return state.last_steps[index].to_json()


def first_step(position: str, a: str, b: str) -> StepJSON:
    """Step 1 of a round whose other four steps do nothing that moves or attacks."""
    rest = " TL TL TL TL"
    return step_view(play(position, a + rest, b + rest), 0)


def where(state: RoboPigsState) -> str:
    """Both pigs as square and facing, e.g. 'd8S e1N'."""
    obs = state.observation(0)
    return " ".join(f"{p['square']}{p['facing']}" for p in obs["pigs"])


def snapshot(state: RoboPigsState) -> tuple[Any, ...]:
    """Everything readable off a state, to tell whether it changed."""
    return (
        state.to_act(),
        state.observation(0),
        state.observation(1),
        state.render(),
        state.result(),
        state.round,
    )


# --- the rule text's example game ----------------------------------------------
#
# How the text's diagrams are read: each diagram shows the board AFTER a step
# and is printed just BEFORE that step's caption ("Round 1, Move 1 - A: F B: \"),
# and a round's first diagram (before its "Round N" caption) is the position
# the round starts from. A line beside a pig shows its facing: "|" above it is
# north, "|" below it south, "--" on its left west. The files are read left to
# right as a..h and the top row is rank 8, where A starts.
#
# Each of the 15 step diagrams was checked against the captions and the
# commentary (which damage, who misses, who collides, who turns), and they all
# agree, so no entry below overrides a diagram. Two places need care in
# reading: after round 2 moves 1 and 2 the row "|-A" holds B's facing line
# (the "|" above B on e6, so B faces north) squeezed against A's single "-"
# (A on f7 faces west); and after round 3 move 1 A's facing line "|" stands
# above the board, since A is on rank 8 facing north. Had a diagram disagreed
# with the words, the words would have been followed here and the entry noted.
#
# Encoding: "<A square><A facing> <B square><B facing> <A damage> <B damage>".

EXAMPLE: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    (
        "F ^ TR v H",
        "\\ \\ F ^ /",
        (
            "d8S d2N 0 1",  # B walks into the laser's file and is hit
            "d7S c3N 0 1",
            "d7W c3N 0 1",  # A turns right: from south to west
            "e7W c4N 0 1",  # A backs up: east, as it faces west
            "e7W d5N 0 1",  # A's fist reaches d6, d7, d8: B on d5 is missed
        ),
    ),
    (
        "v \\ \\ TR F",
        "/ / TL X F",
        (
            "f7W e6N 0 1",
            "f7W e6N 0 1",  # corner to corner, through each other: neither moves
            "f7W e6W 0 1",  # A walks into the turning B and stays
            "f7N e6W 0 1",
            "f7N e6W 0 1",  # both fire, both miss
        ),
    ),
    (
        "/ TL v \\ F",
        "v v v X H",
        (
            "g8N f6W 0 1",
            "g8W g6W 0 1",
            "h8W h6W 0 1",
            "g7W h6W 0 1",
            "g7W h6W 1 1",  # B's fist reaches g7, its forward right, behind A
        ),
    ),
)
ROUND_STARTS = ("d8S0 e1N0 1", "e7W0 d5N1 2", "f7N0 e6W1 3", "g7W1 h6W1 4")


def test_example_game_matches_every_diagram() -> None:
    state = RoboPigs().new_initial_state()
    for number, (prog_a, prog_b, diagrams) in enumerate(EXAMPLE, 1):
        assert state.position() == ROUND_STARTS[number - 1]
        state.apply_str(0, prog_a)
        state.apply_str(1, prog_b)
        assert len(state.last_steps) == len(diagrams)
        for move, diagram in enumerate(diagrams, 1):
            pig_a, pig_b, dmg_a, dmg_b = diagram.split()
            step = state.last_steps[move - 1].to_json()
            seen = (
                step["squares"][0] + step["facings"][0],
                step["squares"][1] + step["facings"][1],
                step["damage"][0],
                step["damage"][1],
            )
            assert seen == (pig_a, pig_b, int(dmg_a), int(dmg_b)), f"round {number}, move {move}"
    # "Round 4 would begin with both pigs having one damage point each."
    assert state.position() == ROUND_STARTS[3]
    assert state.damage == (1, 1)
    assert state.result() is None


def test_example_game_matches_the_words() -> None:
    state = RoboPigs().new_initial_state()
    rounds = []
    for prog_a, prog_b, _ in EXAMPLE:
        state.apply_str(0, prog_a)
        state.apply_str(1, prog_b)
        rounds.append([s.to_json() for s in state.last_steps])
    r1, r2, r3 = rounds
    # "B takes one point of damage from A's laser!"
    assert r1[0]["hit"] == [False, True]
    # "B misses." (B fires up the c file; A is on d7)
    assert r1[2]["commands"][1] == "F" and r1[2]["hit"] == [False, False]
    # "A narrowly misses hitting B!"
    assert r1[4]["commands"][0] == "H" and r1[4]["hit"] == [False, False]
    # "The pigs collide ... and neither goes anywhere."
    assert r2[1]["moved"] == [False, False] and r2[1]["blocked"] == ["pig", "pig"]
    # "A collides with B and doesn't move. B turns."
    assert r2[2]["blocked"] == ["pig", None] and r2[2]["facings"][1] == "W"
    # "A turns north."
    assert r2[3]["facings"][0] == "N"
    # "Both pigs fire. Both pigs miss."
    assert r2[4]["commands"] == ["F", "F"] and r2[4]["hit"] == [False, False]
    # "A fires its laser at nothing as it gets hit in the back!"
    assert r3[4]["commands"] == ["F", "H"] and r3[4]["hit"] == [True, False]


def test_example_one_step_further_north_would_have_been_hit() -> None:
    # Round 1, move 5: "If B was one step further north, it would have been hit."
    state = play("e7W0 d6N1 1", "H TL TL TL TL", "X TL TL TL TL")
    assert step_view(state, 0)["hit"] == [False, True]


def test_attack_reach_diagram() -> None:
    # The rules' example: A on b6 facing south fires down the b file to the
    # edge; B on f2 facing north hits e3, f3 and g3. Neither reaches the other.
    assert LASER[parse_square("b6")][2] == {parse_square(s) for s in ("b5", "b4", "b3", "b2", "b1")}
    assert FIST[parse_square("f2")][0] == {parse_square(s) for s in ("e3", "f3", "g3")}
    state = play("b6S0 f2N0 1", "F TL TL TL TL", "H TL TL TL TL")
    assert step_view(state, 0)["hit"] == [False, False]


def test_start_position() -> None:
    # Opposite sides, each just to its own right of the centre line, facing the centre.
    state = RoboPigs().new_initial_state()
    assert where(state) == "d8S e1N"
    assert state.to_act() == (0, 1)


def test_observation_text_shows_steps_clearly() -> None:
    state = RoboPigs().new_initial_state()
    state.apply_str(0, EXAMPLE[0][0])
    state.apply_str(1, EXAMPLE[0][1])
    text = state.observation_text(0)
    assert "Round 1 revealed    A: F ^ TR v H    B: \\ \\ F ^ /" in text
    assert "step 1   A: F     B: \\     A d8 S   B d2 N   B hit by laser, damage 1" in text
    assert "B's laser misses" in text
    step_lines = [line.strip() for line in text.splitlines() if line.strip().startswith("step ")]
    # Each step line names both commands apart: "step 2   A: ^     B: \\ ..."
    shown = [re.match(r"step (\d)   A: (\S+) +B: (\S+) ", line) for line in step_lines]
    assert [m.groups() if m else None for m in shown] == [
        (str(i), a, b)
        for i, (a, b) in enumerate(zip(EXAMPLE[0][0].split(), EXAMPLE[0][1].split(), strict=True), 1)
    ]
    assert "  7  .  .  .  .  A< .  .  .   7" in text
    assert "with exactly 0 X" not in text and "with no X" in text


# --- movement and collisions ----------------------------------------------------


@pytest.mark.parametrize(
    ("position", "command", "after"),
    [
        ("d4N0 a8S0 1", "^", "d5N"),
        ("d4N0 a8S0 1", "v", "d3N"),
        ("d4N0 a8S0 1", "\\", "c5N"),  # diagonals keep the facing
        ("d4N0 a8S0 1", "/", "e5N"),
        ("d4E0 a8S0 1", "v", "c4E"),  # "a pig facing east that moves backwards is moving west"
        ("d4E0 a8S0 1", "\\", "e5E"),
        ("d4S0 a8S0 1", "/", "c3S"),
        ("d4W0 a8S0 1", "/", "c5W"),
        ("d4N0 a8S0 1", "TL", "d4W"),  # counter-clockwise
        ("d4N0 a8S0 1", "TR", "d4E"),  # clockwise
    ],
)
def test_moves_and_turns_are_relative_to_the_facing(position: str, command: str, after: str) -> None:
    step = first_step(position, command, "TL")
    assert step["squares"][0] + step["facings"][0] == after


def test_collision_same_square_neither_moves() -> None:
    step = first_step("d4E0 f4W0 1", "^", "^")  # both onto e4
    assert step["squares"] == ["d4", "f4"] and step["blocked"] == ["pig", "pig"]
    step = first_step("d4N0 f4N0 1", "/", "\\")  # both diagonally onto e5
    assert step["squares"] == ["d4", "f4"]


@pytest.mark.parametrize("other", ["TL", "TR", "F", "H"])
def test_collision_onto_a_pig_that_stays(other: str) -> None:
    step = first_step("d4E0 e4N0 1", "^", other)
    assert step["squares"] == ["d4", "e4"] and step["blocked"] == ["pig", None]
    # ... and the other carries out its action
    assert step["facings"][1] == {"TL": "W", "TR": "E"}.get(other, "N")


def test_collision_onto_a_pig_that_repairs_or_takes_a_damage_move() -> None:
    state = play("d4E0 e4N1 1", "^ TL TL TL TL", "R R R R R")
    assert step_view(state, 0)["squares"] == ["d4", "e4"]
    assert state.damage == (0, 0)
    state = play("d4E0 e4N1 1", "^ TL TL TL TL", "X TL TL TL TL")
    assert step_view(state, 0)["squares"] == ["d4", "e4"]


@pytest.mark.parametrize(
    ("position", "a", "b"),
    [
        ("d4E0 e4W0 1", "^", "^"),  # face to face
        ("d4W0 e4E0 1", "v", "v"),  # back to back
        ("d4N0 e5S0 1", "/", "/"),  # corner to corner
        ("d4E0 e4E0 1", "^", "v"),  # one behind the other, swapping
    ],
)
def test_collision_through_each_other_neither_moves(position: str, a: str, b: str) -> None:
    step = first_step(position, a, b)
    assert step["squares"] == [position[:2], position[5:7]]
    assert step["moved"] == [False, False]


def test_side_to_side_pigs_cross_diagonally() -> None:
    step = first_step("d4N0 e4N0 1", "/", "\\")
    assert step["squares"] == ["e5", "d5"] and step["moved"] == [True, True]


@pytest.mark.parametrize(
    ("position", "a", "b", "after"),
    [
        ("d4N0 d5N0 1", "^", "^", ["d5", "d6"]),  # following
        ("d5S0 d4S0 1", "^", "^", ["d4", "d3"]),  # the same with the seats swapped
        ("d4N0 d5N0 1", "^", "/", ["d5", "e6"]),
        ("d4E0 e4N0 1", "^", "v", ["e4", "e3"]),
    ],
)
def test_move_onto_the_square_the_other_leaves(position: str, a: str, b: str, after: list[str]) -> None:
    assert first_step(position, a, b)["squares"] == after


@pytest.mark.parametrize(
    ("position", "command"),
    [
        ("a1S0 h8N0 1", "^"),
        ("a1W0 h8N0 1", "\\"),
        ("a1N0 h8N0 1", "v"),
        ("a4W0 h8N0 1", "/"),
        ("a1E0 h8N0 1", "/"),
    ],
)
def test_move_off_the_board_stays_put(position: str, command: str) -> None:
    step = first_step(position, command, "TL")
    assert step["squares"][0] == position[:2] and step["blocked"][0] == "edge"


def test_pig_blocked_by_the_edge_counts_as_not_moving() -> None:
    # A tries to walk off the board from a1, B tries to follow onto a1: A did
    # not leave, so B walks onto a pig that stays and stays too.
    step = first_step("a1S0 a2S0 1", "^", "^")
    assert step["squares"] == ["a1", "a2"] and step["blocked"] == ["edge", "pig"]
    step = first_step("a2S0 a1S0 1", "^", "^")
    assert step["squares"] == ["a2", "a1"] and step["blocked"] == ["pig", "edge"]


# --- attacks --------------------------------------------------------------------

_FORWARD = {0: (0, 1), 1: (1, 0), 2: (0, -1), 3: (-1, 0)}


def _relative(attacker: int, facing: int, target: int) -> tuple[int, int]:
    """(squares ahead, squares to the right) of ``target`` as seen by the attacker."""
    fx, fy = _FORWARD[facing]
    rx, ry = _FORWARD[(facing + 1) % 4]
    dx, dy = target % 8 - attacker % 8, target // 8 - attacker // 8
    return dx * fx + dy * fy, dx * rx + dy * ry


def test_laser_reaches_straight_ahead_at_any_range_only() -> None:
    for square in range(64):
        for facing in range(4):
            for target in range(64):
                ahead, side = _relative(square, facing, target)
                assert (target in LASER[square][facing]) == (ahead > 0 and side == 0)


def test_fist_reaches_the_three_forward_squares_only() -> None:
    for square in range(64):
        for facing in range(4):
            for target in range(64):
                ahead, side = _relative(square, facing, target)
                assert (target in FIST[square][facing]) == (ahead == 1 and abs(side) <= 1)


@pytest.mark.parametrize(
    ("position", "hit"),
    [
        ("a1N0 a8S0 1", True),  # the whole board away
        ("d4N0 d5S0 1", True),  # next to it
        ("d4N0 d2S0 1", False),  # behind
        ("d4N0 g4S0 1", False),  # beside
        ("d4N0 e5S0 1", False),  # diagonal
    ],
)
def test_fire_in_play(position: str, hit: bool) -> None:
    assert first_step(position, "F", "TL")["hit"] == [False, hit]


@pytest.mark.parametrize(
    ("position", "hit"),
    [
        ("d4N0 d5S0 1", True),
        ("d4N0 c5S0 1", True),
        ("d4N0 e5S0 1", True),
        ("d4N0 d6S0 1", False),  # two away
        ("d4N0 e4S0 1", False),  # beside
        ("d4N0 d3S0 1", False),  # behind
    ],
)
def test_hit_in_play(position: str, hit: bool) -> None:
    assert first_step(position, "H", "TL")["hit"] == [False, hit]


def test_attacks_come_after_movement() -> None:
    # B walks out of the laser's file in the same step: A misses. B walks into it: A hits.
    assert first_step("d8S0 d1N0 1", "F", "/")["hit"] == [False, False]
    assert first_step("d8S0 e1N0 1", "F", "\\")["hit"] == [False, True]
    # A turns to face B in one step and fires in the next.
    state = play("d4N0 g4W0 1", "TR F TL TL TL", "TL TL TL TL TL")
    assert [s.hits for s in state.last_steps] == [(False, False), (False, True)] + [(False, False)] * 3


def test_both_damaged_in_one_step() -> None:
    assert first_step("d4E0 e4W0 1", "H", "H")["hit"] == [True, True]
    state = play("a4E0 h4W0 1", "F TL TL TL TL", "F TL TL TL TL")
    assert step_view(state, 0)["damage"] == [1, 1]


# --- damage moves (X) -------------------------------------------------------------


@pytest.mark.parametrize(
    ("damage", "program", "extra_x", "legal"),
    [
        (0, "F F F F F", False, True),
        (0, "X F F F F", False, False),
        (0, "X F F F F", True, True),
        (1, "F F F F F", False, False),
        (1, "F F X F F", False, True),
        (2, "X F F F X", False, True),
        (2, "X F F F F", False, False),
        (2, "X F X F X", False, False),
        (2, "X F X F X", True, True),
        (2, "X F F F F", True, False),
        (4, "X X H X X", False, True),
        (4, "X X X X X", True, True),
    ],
)
def test_x_count(damage: int, program: str, extra_x: bool, legal: bool) -> None:
    state = RoboPigs(extra_x=extra_x).state_from_position(f"d4N{damage} a8S0 1")
    if legal:
        assert state.parse_action(0, program) == parse_program(program)
    else:
        before = snapshot(state)
        with pytest.raises(ActionError, match="X"):
            state.parse_action(0, program)
        with pytest.raises(ActionError, match="not legal"):
            state.apply(0, parse_program(program))
        assert snapshot(state) == before


def test_damage_move_does_nothing() -> None:
    state = play("d4N1 a8S0 1", "X X X X X", "TL TL TL TL TL", extra_x=True)
    assert where(state).split()[0] == "d4N"
    assert all(s.commands[0] == DAMAGE and not s.moved[0] for s in state.last_steps)


# --- repair -------------------------------------------------------------------------


def test_repair_only_when_damaged() -> None:
    state = RoboPigs().new_initial_state()
    with pytest.raises(ActionError, match="only a damaged pig may repair"):
        state.parse_action(0, "R R R R R")
    damaged = RoboPigs().state_from_position("d4N1 a8S0 1")
    assert damaged.parse_action(0, "R R R R R") == REPAIR_PROGRAM
    with pytest.raises(ActionError, match="whole program"):
        damaged.parse_action(0, "R F F F F")
    with pytest.raises(ActionError, match="whole program"):
        damaged.parse_action(0, "R R R R X")


@pytest.mark.parametrize("repair_at", ["end", "start"])
def test_repair_takes_one_point_and_the_pig_stays(repair_at: str) -> None:
    state = play("d4N2 a8E0 1", "R R R R R", "TL TL TL TL TL", repair_at=repair_at)
    assert state.damage == (1, 0)
    assert where(state).split()[0] == "d4N"
    assert state.last_repaired == (True, False)


@pytest.mark.parametrize(
    ("repair_at", "damage_by_step"),
    [("end", [3, 4, 4, 4, 4]), ("start", [2, 3, 3, 3, 3])],
)
def test_repair_hit_twice(repair_at: str, damage_by_step: list[int]) -> None:
    # "if it gets hit twice while it is repairing, then subtract one damage
    # point for the repair, and add two for the damage"
    state = play("d4N2 d6S0 1", "R R R R R", "F F TL TL TL", repair_at=repair_at)
    assert [s.damage[0] for s in state.last_steps] == damage_by_step
    assert state.damage == (3, 0)


def test_repair_at_four_damage_depends_on_the_option() -> None:
    # Repair counted at the end: the first hit is the fifth point, and the game ends.
    state = play("d4N4 d6S0 1", "R R R R R", "F TL TL TL TL", repair_at="end")
    assert state.result() is not None and state.result().winner == 1  # type: ignore[union-attr]
    assert len(state.last_steps) == 1 and state.damage == (5, 0)
    assert state.last_repaired == (False, False)
    # Repair counted at the start: 4 - 1 + 1, the pig survives.
    state = play("d4N4 d6S0 1", "R R R R R", "F TL TL TL TL", repair_at="start")
    assert state.result() is None and state.damage == (4, 0)
    # ... but not a second hit.
    state = play("d4N4 d6S0 1", "R R R R R", "F F TL TL TL", repair_at="start")
    assert state.result() is not None and state.result().winner == 1  # type: ignore[union-attr]
    assert len(state.last_steps) == 2


# --- the end of the game ------------------------------------------------------------


def test_game_ends_at_once_at_five_damage() -> None:
    # B turns, walks and fires at step 3: A's fifth point. B's steps 4 and 5
    # (two more walks) and A's only real command (step 5) are never played.
    state = play("d1N4 d8E0 1", "X X X X ^", "TR ^ F ^ ^")
    assert len(state.last_steps) == 3
    assert where(state) == "d1N d7S"
    assert state.damage == (5, 0)
    result = state.result()
    assert result is not None and result.winner == 1 and "5 damage" in result.reason
    assert state.to_act() == ()
    assert len(state.legal_actions(0)) == 0
    with pytest.raises(ActionError, match="over"):
        state.apply_str(0, "X X X X ^")


def test_both_at_five_in_one_step_is_a_draw() -> None:
    state = play("d4E4 e4W4 1", "H X X X X", "H X X X X")
    result = state.result()
    assert result is not None and result.is_draw and "both" in result.reason
    assert state.damage == (5, 5)
    assert result.returns == (0.0, 0.0)


def test_round_limit_draw() -> None:
    game = RoboPigs(round_limit="2")
    state = game.new_initial_state()
    for _ in range(2):
        assert state.result() is None
        state.apply_str(0, "TL TL TL TL TL")
        state.apply_str(1, "TL TL TL TL TL")
    result = state.result()
    assert result is not None and result.is_draw and "round limit" in result.reason
    assert RoboPigs().options["round_limit"] == 0  # people playing: no limit
    assert simulation_options("robo-pigs") == {"round_limit": 100}


def test_no_round_limit() -> None:
    state = RoboPigs(round_limit=0).new_initial_state()
    for _ in range(150):
        state.apply_str(0, "TL TL TL TL TL")
        state.apply_str(1, "TR TR TR TR TR")
    assert state.result() is None and state.round == 151


def test_bad_options() -> None:
    with pytest.raises(OptionError, match="minimum"):
        RoboPigs(round_limit=-1)
    with pytest.raises(OptionError, match="repair_at"):
        RoboPigs(repair_at="middle")
    with pytest.raises(OptionError, match="no option"):
        RoboPigs(lasers=2)


# --- programs as actions ------------------------------------------------------------


@pytest.mark.parametrize("extra_x", [False, True])
@pytest.mark.parametrize("damage", [0, 1, 2, 3, 4])
def test_programs_are_lazy_and_consistent(damage: int, extra_x: bool) -> None:
    programs = Programs(damage, extra_x)
    size = len(programs)
    assert size == ref.count_programs(damage, extra_x)
    listed = list(programs)
    assert len(listed) == size == len(set(listed))
    assert listed[:: max(1, size // 997)] == [programs[i] for i in range(0, size, max(1, size // 997))]
    assert programs[-1] == listed[-1] and programs[-size] == listed[0]
    assert all(p in programs for p in islice(listed, 0, None, 7))
    assert all(program_problem(p, damage, extra_x) is None for p in islice(listed, 0, None, 7))
    x_counts = [p.count(DAMAGE) for p in listed if p != REPAIR_PROGRAM]
    assert x_counts == sorted(x_counts)
    assert (listed[-1] == REPAIR_PROGRAM) == (damage > 0)
    with pytest.raises(IndexError):
        programs[size]
    with pytest.raises(IndexError):
        programs[-size - 1]
    rng = random.Random(damage)
    assert all(programs.sample(rng) in programs for _ in range(100))


def test_programs_membership_rejects_junk() -> None:
    programs = Programs(0, False)
    assert (6, 6, 6, 6, 6) in programs
    for junk in [
        [6, 6, 6, 6, 6],
        (6, 6, 6, 6),
        (6, 6, 6, 6, 6, 6),
        (6, 6, 6, 6, 10),
        (6, 6, 6, 6, -1),
        (True, 6, 6, 6, 6),
        ("F", "F", "F", "F", "F"),
        "F F F F F",
        None,
        REPAIR_PROGRAM,
    ]:
        assert junk not in programs


def test_programs_index_must_be_an_integer() -> None:
    with pytest.raises(TypeError):
        Programs(0, False)["0"]  # type: ignore[index]


def test_legal_actions_follow_damage_and_turn() -> None:
    state = RoboPigs().state_from_position("d4N3 a8S0 1")
    assert len(state.legal_actions(0)) == 641 and len(state.legal_actions(1)) == 32768
    state.apply_str(0, "X X X F F")
    assert len(state.legal_actions(0)) == 0 and state.to_act() == (1,)


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 4), st.booleans(), st.data())
def test_program_notation_round_trip(damage: int, extra_x: bool, data: st.DataObject) -> None:
    programs = Programs(damage, extra_x)
    program = programs[data.draw(st.integers(0, len(programs) - 1))]
    text = format_program(program)
    assert parse_program(text) == program
    assert parse_program(text.lower()) == program
    assert parse_program(text.replace(" ", "")) == program
    assert parse_program(text.replace(" ", ", ")) == program
    state = RoboPigs(extra_x=extra_x).state_from_position(f"d4N{damage} a8S0 1")
    assert state.action_to_str(0, state.parse_action(0, text)) == text


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("", "5 commands, not 0"),
        ("F F F F", "not 4"),
        ("F F F F F F", "not 6"),
        ("F F F F FOO", "unknown command 'FOO'"),
        ("F F F F Q", "unknown command 'Q'"),
        ("F F F F T", "unknown command 'T'"),
        ("ＦＦＦＦＦ", "not a command"),
        ("F F F F F\nF", "not 6"),
    ],
)
def test_garbled_program_is_rejected(text: str, why: str) -> None:
    state = RoboPigs().new_initial_state()
    before = snapshot(state)
    with pytest.raises(ActionError, match=why) as error:
        state.apply_str(0, text)
    assert "\n" not in str(error.value)
    assert snapshot(state) == before


def test_program_that_is_not_text_is_rejected() -> None:
    state = RoboPigs().new_initial_state()
    with pytest.raises(ActionError, match=r"not text|not a program"):
        state.parse_action(0, None)  # type: ignore[arg-type]
    with pytest.raises(ActionError, match="not legal"):
        state.apply(0, "F F F F F")  # type: ignore[arg-type]  # junk on purpose
    with pytest.raises(ActionError, match="not legal"):
        state.apply(0, [6, 6, 6, 6, 6])  # type: ignore[arg-type]  # junk on purpose


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=30) | st.text(alphabet="^v\\/TLRFHX ,tlrfhx", max_size=20))
def test_any_text_is_a_legal_program_or_an_action_error(text: str) -> None:
    state = RoboPigs().state_from_position("d4N1 a8S0 1")
    before = snapshot(state)
    try:
        program = state.apply_str(0, text)
    except ActionError as error:
        assert "\n" not in str(error)
        assert snapshot(state) == before
    else:
        assert program in Programs(1, False)
        assert state.to_act() == (1,)


def test_a_sampled_program_is_trusted_only_where_it_is_legal() -> None:
    # apply() takes the program its pig's programs just sampled without reading it; one
    # sampled for another damage, or look-alikes of other types, still get every check.
    rng = random.Random(3)
    state = RoboPigs().state_from_position("d4N1 a8S0 1")
    undamaged = state.legal_actions(1).sample(rng)
    before = snapshot(state)
    with pytest.raises(ActionError, match="not legal"):
        state.apply(0, undamaged)
    for fake in (
        (True, DAMAGE, 0, 0, 0),
        (1.0, DAMAGE, 0, 0, 0),
        [DAMAGE, 0, 0, 0, 0],
        (DAMAGE, 0, 0, 0, 10),
    ):
        with pytest.raises(ActionError, match="not legal"):
            state.apply(0, fake)  # type: ignore[arg-type]  # junk on purpose
    assert snapshot(state) == before
    state.apply(0, state.legal_actions(0).sample(rng))
    state.apply(1, undamaged)
    assert state.round == 2


def test_legal_programs_are_exactly_those_program_problem_allows() -> None:
    rng = random.Random(4)
    commands = list(range(-1, 11))
    for damage in range(5):
        for extra_x in (False, True):
            programs = Programs(damage, extra_x)
            for _ in range(3000):
                program = tuple(rng.choice(commands) for _ in range(5))
                ok = all(0 <= c <= DAMAGE for c in program)
                want = ok and program_problem(program, damage, extra_x) is None
                assert (program in programs) is want
            assert (REPAIR_PROGRAM in programs) is (damage > 0)


def test_out_of_turn_program_is_rejected() -> None:
    state = RoboPigs().new_initial_state()
    state.apply_str(0, "F F F F F")
    before = snapshot(state)
    with pytest.raises(ActionError, match="not pig A's turn"):
        state.apply_str(0, "H H H H H")
    assert snapshot(state) == before


# --- structured actions ----------------------------------------------------------------


def random_play_states(seed: int, games: int, **options: Any) -> list[RoboPigsState]:
    """Every state of ``games`` seeded random games, half-programmed rounds included."""
    rng = random.Random(seed)
    states: list[RoboPigsState] = []
    for _ in range(games):
        state = RoboPigs(**simulation_options("robo-pigs", options)).new_initial_state()
        while not state.is_terminal():
            states.append(state.clone())
            player = rng.choice(state.to_act())
            state.apply(player, state.legal_actions(player).sample(rng))
        states.append(state)
    return states


def check_structured_form(state: RoboPigsState, player: int, program: tuple[int, ...]) -> None:
    data = state.action_to_json(player, program)
    assert json.loads(json.dumps(data)) == data
    assert state.action_from_json(player, json.loads(json.dumps(data))) == program
    text = state.action_to_str(player, program)
    assert state.parse_action(player, text) == state.action_from_json(player, data)


@pytest.mark.parametrize("extra_x", [False, True])
def test_every_legal_program_has_a_structured_form_that_reads_back(extra_x: bool) -> None:
    # Every legal program of one state per damage level (the legal lists differ only by
    # damage), and a sample of the programs of every other state.
    states = random_play_states(7, 6, extra_x=extra_x)
    seen_damage: set[int] = set()
    rng = random.Random(8)
    for state in states:
        assert state.chance_outcomes() == []  # no chance events: a program is every action
        for player in state.to_act():
            programs = state.legal_actions(player)
            damage = state.damage[player]
            whole = damage not in seen_damage
            seen_damage.add(damage)
            chosen = programs if whole else [programs.sample(rng) for _ in range(5)]
            for program in chosen:
                check_structured_form(state, player, program)
    assert len(seen_damage) >= 3


def test_structured_form_names_the_commands_by_symbol() -> None:
    state = RoboPigs().state_from_position("d4N2 a8S0 1")
    assert state.action_to_json(0, parse_program("F X \\ X TL")) == {"commands": ["F", "X", "\\", "X", "TL"]}
    assert Program.from_json({"commands": ["R"] * 5}) == Program(REPAIR_PROGRAM)
    assert state.action_from_json(0, {"commands": ["R"] * 5}) == REPAIR_PROGRAM


_MALFORMED: list[tuple[object, str]] = [
    ("F ^ TR v H", "not a structured action"),
    (["F", "^", "TR", "v", "H"], "not a structured action"),
    (None, "not a structured action"),
    ({}, "missing 'commands'"),
    ({"commands": ["F"] * 5, "kind": "program"}, "unknown 'kind'"),
    ({"program": ["F"] * 5}, "unknown 'program'"),
    ({"commands": "F ^ TR v H"}, "must be a list of 5 commands"),
    ({"commands": ("F",) * 5}, "must be a list of 5 commands"),
    ({"commands": ["F"] * 4}, "must be a list of 5 commands"),
    ({"commands": ["F"] * 6}, "must be a list of 5 commands"),
    ({"commands": ["F", "^", "TR", "v", "fire"]}, "command 5 is 'fire'"),
    ({"commands": ["f", "^", "TR", "v", "H"]}, "command 1 is 'f'"),
    ({"commands": ["F", 6, "TR", "v", "H"]}, "command 2 is 6"),
    ({"commands": ["F", True, "TR", "v", "H"]}, "command 2 is True"),
    ({"commands": ["F", None, "TR", "v", "H"]}, "command 2 is None"),
    ({"commands": ["F", "^", ["TR"], "v", "H"]}, r"command 3 is \['TR'\]"),
]


@pytest.mark.parametrize(("data", "why"), _MALFORMED)
def test_malformed_structured_program_is_refused_in_one_line(data: object, why: str) -> None:
    state = RoboPigs().state_from_position("d4N1 a8S0 1")
    before = snapshot(state)
    with pytest.raises(ActionError, match=why) as error:
        state.action_from_json(0, data)
    assert "\n" not in str(error.value)
    assert snapshot(state) == before
    # The form's own reader refuses it too (the state checks only that it is an object first).
    with pytest.raises(ActionError, match="is not a Robo Battle Pigs program") as error:
        Program.from_json(data)
    assert "\n" not in str(error.value)


@pytest.mark.parametrize(
    ("commands", "why"),
    [
        (["F", "^", "TR", "v", "H"], "a pig with 1 damage must play exactly 1 X"),
        (["X", "X", "F", "F", "F"], "a pig with 1 damage must play exactly 1 X"),
        (["R", "R", "R", "R", "F"], "repair is R R R R R, the whole program"),
    ],
)
def test_illegal_structured_program_is_refused_with_the_reason(commands: list[str], why: str) -> None:
    state = RoboPigs().state_from_position("d4N1 a8S0 1")
    before = snapshot(state)
    assert Program.from_json({"commands": commands}).to_json() == {"commands": commands}  # well formed
    with pytest.raises(ActionError, match=f"is not legal now: {why}") as error:
        state.action_from_json(0, {"commands": commands})
    assert "\n" not in str(error.value)
    assert snapshot(state) == before


def test_structured_program_out_of_turn_or_undamaged_repair_is_refused() -> None:
    state = RoboPigs().new_initial_state()
    with pytest.raises(ActionError, match="not legal now: only a damaged pig may repair"):
        state.action_from_json(1, {"commands": ["R"] * 5})
    state.apply(0, state.action_from_json(0, {"commands": ["F"] * 5}))
    with pytest.raises(ActionError, match="not pig A's turn"):
        state.action_from_json(0, {"commands": ["H"] * 5})


# --- positions ----------------------------------------------------------------------


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.integers(0, 63), min_size=2, max_size=2, unique=True),
    st.lists(st.sampled_from("NESW"), min_size=2, max_size=2),
    st.lists(st.integers(0, 5), min_size=2, max_size=2),
    st.integers(1, 101),
)
def test_position_round_trip(
    squares: list[int], facings: list[str], damage: list[int], round_number: int
) -> None:
    text = " ".join(f"{square_name(squares[p])}{facings[p]}{damage[p]}" for p in (0, 1)) + f" {round_number}"
    state = RoboPigs(round_limit=100).state_from_position(text)
    assert state.position() == text
    dead = [d == 5 for d in damage]
    result = state.result()
    if any(dead):
        assert result is not None and result.is_draw == all(dead)
    elif round_number == 101:
        assert result is not None and "round limit" in result.reason
    else:
        assert result is None and state.to_act() == (0, 1)


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("", "a position is"),
        ("d8S0 e1N0", "a position is"),
        ("d8S0 e1N0 1 2", "a position is"),
        ("i8S0 e1N0 1", "not a square"),
        ("d9S0 e1N0 1", "not a square"),
        ("d8Q0 e1N0 1", "facing"),
        ("d8s0 e1N0 1", "facing"),
        ("d8S e1N0 1", "facing"),
        ("d8S-1 e1N0 1", "facing"),
        ("d8S6 e1N0 1", "6 damage"),
        ("d8S0 d8N0 1", "both pigs are on d8"),
        ("d8S0 e1N0 0", "not a number from 1"),
        ("d8S0 e1N0 x", "not a number from 1"),
        ("d8S0 e1N0 102", "past the round limit"),
        ("d8S0 e1N٣ 1", "facing"),
    ],
)
def test_bad_position_is_rejected(text: str, why: str) -> None:
    with pytest.raises(PositionError, match=why) as error:
        RoboPigs(round_limit=100).state_from_position(text)
    assert "\n" not in str(error.value)
    assert repr(text) in str(error.value)


def test_position_while_a_program_is_pending() -> None:
    state = RoboPigs().new_initial_state()
    state.apply_str(0, "F F F F F")
    with pytest.raises(PositionError, match="between rounds"):
        state.position()
    RoboPigs(round_limit=0).state_from_position("d8S0 e1N0 5000")


# --- hidden programs ------------------------------------------------------------------


def test_observation_hides_the_pending_program() -> None:
    state = RoboPigs().new_initial_state()
    before = state.observation(1)
    text_before = state.observation_text(1)
    state.apply_str(0, "F ^ TR v H")
    assert state.observation(1) == before
    assert state.observation_text(1) == text_before
    assert state.observation(0)["my_program"] == "F ^ TR v H"
    assert "F ^ TR v H" in state.observation_text(0)
    assert "F ^ TR v H" in state.render()


def test_observation_shows_each_program_in_both_forms_to_whom_it_may() -> None:
    state = RoboPigs().new_initial_state()
    fresh = state.clone()  # both pigs to act: either program reads back here
    program = state.apply_str(0, "F ^ TR v H")
    assert state.observation(0)["my_move"] == state.action_to_json(0, program)
    assert state.observation(1)["my_move"] is None and state.observation(PUBLIC)["my_move"] is None
    state.apply_str(1, "\\ \\ F ^ /")
    assert state.observation(0)["my_move"] is None
    for seat in (0, 1, PUBLIC):
        last = state.observation(seat)["last_round"]
        assert last is not None and last["programs"] == ["F ^ TR v H", "\\ \\ F ^ /"]
        read = [
            fresh.action_to_str(p, fresh.action_from_json(p, move)) for p, move in enumerate(last["moves"])
        ]
        assert read == last["programs"]


def test_resample_redraws_the_hidden_program() -> None:
    state = RoboPigs().state_from_position("d4N2 a8S0 3")
    state.apply_str(0, "X F X ^ ^")
    revealed = set()
    for seed in range(20):
        other = state.resample(1, random.Random(seed))
        assert other.observation(1) == state.observation(1)
        other.apply_str(1, "TL TL TL TL TL")
        assert other.last_programs is not None
        revealed.add(other.last_programs[0])
        assert other.last_programs[0] in Programs(2, False)
        own = state.resample(0, random.Random(seed))
        own.apply_str(1, "TL TL TL TL TL")
        assert own.last_programs is not None and format_program(own.last_programs[0]) == "X F X ^ ^"
    assert len(revealed) > 10
    assert state.to_act() == (1,)  # the real state is untouched


def test_spectator_resample_redraws_both_programs() -> None:
    state = RoboPigs().new_initial_state()
    state.apply_str(0, "F F F F F")
    drawn = set()
    for seed in range(10):
        other = state.resample(PUBLIC, random.Random(seed))
        other.apply_str(1, "H H H H H")
        assert other.last_programs is not None
        drawn.add(other.last_programs[0])
    assert len(drawn) > 5


def test_clone_is_independent() -> None:
    state = RoboPigs().new_initial_state()
    copy = state.clone()
    copy.apply_str(0, "F F F F F")
    copy.apply_str(1, "F F F F F")
    assert state.position() == "d8S0 e1N0 1" and copy.position() != state.position()


# --- the rule-of-thumb agent -------------------------------------------------------------

FAST_RULE = "rule:candidates=24,samples=6,finalists=3,variations=4"


def test_rule_agent_beats_random() -> None:
    wins = [0, 0]
    draws = 0
    for game in run_match("robo-pigs", [FAST_RULE, "random"], 20, seed=11):
        firsts = [a for a, place in enumerate(game.ranking) if place == 1]
        if len(firsts) == 1:
            wins[firsts[0]] += 1
        else:
            draws += 1
    assert wins[0] >= 16 and wins[1] <= 2, (wins, draws)


def test_rule_agent_acts_legally_when_damaged_and_after_the_opponent() -> None:
    game = load_game("robo-pigs")
    state = game.state_from_position("d4N4 d6S3 9")
    state.apply_str(1, "X F X X ^")  # the agent must not see this, only a guess of it
    agent = make_agent(FAST_RULE, game, 0, seed=3)
    action = agent.act(PlayerView(state, 0))
    assert action in state.legal_actions(0)


def test_rule_agent_parameters() -> None:
    game = load_game("robo-pigs")
    with pytest.raises(AgentError, match="unknown parameter 'depth'"):
        make_agent("rule:depth=3", game, 0)
    with pytest.raises(AgentError, match="not a whole number"):
        make_agent("rule:samples=many", game, 0)
    with pytest.raises(AgentError, match="samples=0 is below the minimum 1"):
        make_agent("rule:samples=0", game, 0)
    with pytest.raises(AgentError, match="candidates=20000 is above the maximum 10000"):
        make_agent("rule:candidates=20000", game, 0)


def test_rule_agent_uses_only_the_player_view() -> None:
    tree = ast.parse(inspect.getsource(agent_module))
    imported = [
        node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module
    ] + [alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names]
    assert not [name for name in imported if name.startswith("tussle.games")]


@pytest.mark.parametrize("options", [{}, {"extra_x": True}, {"repair_at": "start"}], ids=str)
def test_the_observation_array_from_the_state_is_the_observations(options: dict[str, Any]) -> None:
    np = pytest.importorskip("numpy")
    from tussle.adapters.encoding import encoding_for

    game = load_game("robo-pigs", round_limit=15, **options)
    features = encoding_for(game).features
    rng = random.Random(11)
    checked = 0
    for _ in range(12):
        state = game.new_initial_state()
        while True:
            # Every seat and the public view; halfway through a round (one program in) too.
            for player in (0, 1, PUBLIC):
                fast = np.zeros(features.size, dtype=np.float32)
                features.write_state(state, player, fast)
                slow = features.array(state.observation(player), player)
                assert np.array_equal(fast, slow), (player, state.observation(player))
                checked += 1
            if state.is_terminal():
                break
            player = rng.choice(state.to_act())
            state.apply(player, state.legal_actions(player).sample(rng))
    assert checked > 500


def test_the_codec_numbers_a_program_from_its_commands_as_from_its_notation() -> None:
    pytest.importorskip("numpy")
    from tussle.adapters.encoding import encoding_for

    game = load_game("robo-pigs", extra_x=True)
    encoding = encoding_for(game)
    codec, steps = encoding.codec, encoding.steps
    assert steps is not None
    rng = random.Random(12)
    for damage in range(5):
        state = game.state_from_position(f"d4N{damage} a8S0 1")
        programs = state.legal_actions(0)
        for program in [programs[-1], *(programs.sample(rng) for _ in range(300))]:
            text = state.action_to_str(0, program)
            index = codec.action_index(state, 0, program)
            assert index == codec.encode(text) and codec.label(index) == text
            assert state.parse_action(0, codec.decode(index) or "") == program
            tokens = steps.tokens_of(text)
            assert tokens is not None and steps.complete(damage, tokens) == text


# --- the reference: every rule written out again, slowly ---------------------------------


def ref_pigs(state: RoboPigsState) -> tuple[list[ref.Square], list[str], list[int]]:
    return (
        [ref.square(square_name(s)) for s in state.squares],
        [ref.FACINGS[f] for f in state.facings],
        list(state.damage),
    )


def random_program(rng: random.Random, damage: int) -> str:
    """A program a pig with ``damage`` may send, most often full of moves (collisions) and attacks."""
    if damage and rng.random() < 0.1:
        return "R R R R R"
    commands = [rng.choice(ref.FREE) for _ in range(5 - damage)]
    for _ in range(damage):
        commands.insert(rng.randrange(len(commands) + 1), "X")
    return " ".join(commands)


@pytest.mark.parametrize("seed", range(4))
def test_every_step_agrees_with_the_reference(seed: int) -> None:
    # Pigs put near each other (collisions and fists), and whole games of random play.
    rng = random.Random(seed)
    game = RoboPigs()
    checked = 0
    for _ in range(300):
        a = (rng.randrange(8), rng.randrange(8))
        b = a
        while b == a or not ref.on_board(b):
            b = (a[0] + rng.randint(-2, 2), a[1] + rng.randint(-2, 2))
        damage = (rng.randrange(5), rng.randrange(5))
        facings = (rng.choice(ref.FACINGS), rng.choice(ref.FACINGS))
        position = " ".join(f"{ref.name(sq)}{f}{d}" for sq, f, d in zip((a, b), facings, damage, strict=True))
        state = game.state_from_position(f"{position} 1")
        programs = [random_program(rng, d) for d in damage]
        want = ref.play_round([a, b], list(facings), list(damage), [p.split() for p in programs])
        state.apply_str(0, programs[0])
        state.apply_str(1, programs[1])
        assert reference_steps(state) == want, (position, programs)
        checked += len(want)
    assert checked > 1000


def reference_steps(state: RoboPigsState) -> list[tuple[list[ref.Square], list[str], list[int]]]:
    """The steps of the round just played, in the reference's terms."""
    return [
        ([ref.square(sq) for sq in step["squares"]], step["facings"], step["damage"])
        for step in (s.to_json() for s in state.last_steps)
    ]


def test_games_of_random_play_agree_with_the_reference_round_by_round() -> None:
    rng = random.Random(5)
    rounds = 0
    for _ in range(6):
        state = RoboPigs(round_limit=40).new_initial_state()
        while not state.is_terminal():
            squares, facings, damage = ref_pigs(state)
            programs = [state.legal_actions(p).sample(rng) for p in (0, 1)]
            written = [state.action_to_str(p, program).split() for p, program in enumerate(programs)]
            for p, program in enumerate(programs):
                state.apply(p, program)
            assert reference_steps(state) == ref.play_round(squares, facings, damage, written)
            rounds += 1
    assert rounds > 100


@pytest.mark.parametrize(("damage", "extra_x"), [(3, False), (4, False), (4, True)])
def test_the_legal_programs_are_every_program_the_reference_allows(damage: int, extra_x: bool) -> None:
    listed = [format_program(p) for p in Programs(damage, extra_x)]
    assert sorted(listed) == sorted(" ".join(p) for p in ref.every_program(damage, extra_x))


def test_is_legal_agrees_with_the_lists_and_the_reference() -> None:
    # The game's fast is_legal against the core's list-reading one and the rule text's, on the
    # states of seeded random play: legal programs, programs legal at other damage or for the
    # other pig, the pig's own program once sent, and junk.
    rng = random.Random(9)
    junk: list[object] = [
        None,
        0,
        "F F F F F",
        [6, 6, 6, 6, 6],
        (6, 6, 6, 6),
        (6, 6, 6, 6, 6, 6),
        (6, 6, 6, 6, 10),
        (6, 6, 6, 6, -1),
        (True, 6, 6, 6, 6),
        (6.0, 6, 6, 6, 6),
        ("F", "F", "F", "F", "F"),
        Program((6, 6, 6, 6, 6)),
        ([6], 6, 6, 6, 6),
    ]
    checked = 0
    for extra_x in (False, True):
        for state in random_play_states(10 + extra_x, 3, extra_x=extra_x):
            candidates: list[object] = list(junk)
            for damage in range(5):
                candidates += [Programs(damage, extra_x).sample(rng) for _ in range(3)]
            sent = [state.observation(p)["my_program"] for p in (0, 1)]
            candidates += [REPAIR_PROGRAM, *(parse_program(text) for text in sent if text)]
            for player in (0, 1, PUBLIC):
                for action in candidates:
                    fast = state.is_legal(player, cast(Commands, action))
                    assert fast is State.is_legal(state, player, cast(Commands, action)), (player, action)
                    symbols = (
                        [SYMBOLS[c] for c in action]
                        if isinstance(action, tuple) and all(type(c) is int and 0 <= c < 10 for c in action)
                        else None
                    )
                    oracle = (
                        player in state.to_act()
                        and symbols is not None
                        and ref.program_allowed(symbols, state.damage[player], extra_x)
                    )
                    assert fast is oracle, (player, action)
                    checked += 1
    assert checked > 5000
