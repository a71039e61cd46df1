"""Tank Chess: every rule sentence, setups, notation, perft, the reference implementation, the agent."""

from __future__ import annotations

import io
import json
import random
import re
import sys
import threading
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import tank_chess_reference as ref
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console

from tussle import ActionError, AgentError, OptionError, PositionError, load_game, simulation_options
from tussle.adapters.encoding import encoding_for
from tussle.agents import make_agent
from tussle.agents.base import PlayerView
from tussle.agents.human import HumanAgent
from tussle.game import PUBLIC
from tussle.games.tank_chess import TankChess, TankChessState
from tussle.games.tank_chess.board import (
    BLACK,
    ESCAPE,
    GEOMETRY,
    KIND_LETTERS,
    NE,
    NW,
    WHITE,
    E,
    N,
    parse_square,
    square_name,
)
from tussle.games.tank_chess.encoding import TankChessSteps
from tussle.games.tank_chess.notation import MOVE_FORMAT, Setup, basic_setup, format_position, parse_position
from tussle.games.tank_chess.rules import (
    ARMOUR,
    GUN,
    SPEED,
    TURRET,
    TankActions,
    cached_reach,
    explain,
    occupancy,
    reach,
)
from tussle.runner import run_match

PERFT = json.loads((Path(__file__).parent.parent / "data" / "tank_chess_perft.json").read_text())
GAMES = {16: TankChess(ply_limit=0), 20: TankChess(size="20", ply_limit=0)}


def state_of(text: str) -> TankChessState:
    size = 20 if "size=20" in text else 16
    return GAMES[size].state_from_position(text)


def moves(state: TankChessState) -> set[str]:
    return {state.action_to_str(state.turn, a) for a in state.legal_actions(state.turn)}


def of_tank(state: TankChessState, square: str) -> set[str]:
    """The turns of the tank on ``square``, without its type letter."""
    return {m[1:] for m in moves(state) if m[1:].startswith(square + "-")}


# --- setups ----------------------------------------------------------------------------

# The published start position: '#' obstacle, upper case White, lower case Black.
DIAGRAM16 = """
...h..m.c.m..h..
.#..##..........
.#.l##l.m.l##l..
.#..#...........
.......##.......
......#####..##.
..##..........#.
..###...........
...........###..
.#..........##..
.##..#####......
.......##.......
...........#..#.
..L##L.M.L##L.#.
..........##..#.
..H..M.C.M..H...
"""


def compact(state: TankChessState) -> str:
    obs = state.observation(0)
    size = obs["size"]
    cells = {s: "#" for s in obs["obstacles"]}
    for tank in obs["tanks"]:
        cells[tank["square"]] = tank["type"] if tank["side"] == "white" else tank["type"].lower()
    files = "abcdefghijklmnopqrst"[:size]
    return "\n".join("".join(cells.get(f"{f}{r}", ".") for f in files) for r in range(size, 0, -1))


def test_basic_16x16_setup_is_the_published_one() -> None:
    state = GAMES[16].new_initial_state()
    assert compact(state) == DIAGRAM16.strip()
    assert all(t["facing"] == ("N" if t["side"] == "white" else "S") for t in state.observation(0)["tanks"])
    assert state.turn == WHITE and state.ply == 0


@pytest.mark.parametrize("size", [16, 20])
def test_setups_are_the_same_for_both_sides_turned_180_degrees(size: int) -> None:
    setup = basic_setup(size)
    n = size * size - 1
    assert {n - s for s in setup.obstacles} == setup.obstacles
    white = {(kind, sq, facing) for side, kind, sq, facing in setup.tanks if side == WHITE}
    black = {(kind, n - sq, facing ^ 4) for side, kind, sq, facing in setup.tanks if side == BLACK}
    assert white == black


def test_20x20_setup_has_14_tanks_a_side_with_destroyers_and_mortars() -> None:
    setup = basic_setup(20)
    for side in (WHITE, BLACK):
        kinds = Counter(KIND_LETTERS[kind] for s, kind, _, _ in setup.tanks if s == side)
        assert kinds == {"H": 2, "M": 3, "L": 4, "C": 1, "D": 2, "R": 2}
    assert len(setup.obstacles) == 76


@pytest.mark.parametrize("size", [16, 20])
def test_every_tank_can_leave_its_square_at_the_start(size: int) -> None:
    state = GAMES[size].new_initial_state()
    movers = {a & 511 for a in state.legal_actions(WHITE) if a >> 12 & 511 != a & 511}
    assert movers == set(state.tanks[WHITE])


def test_tank_table() -> None:
    # Light, Medium, Heavy, Command, Tank Destroyer, Heavy Mortar.
    assert SPEED == (5, 4, 3, 5, 4, 3)
    assert GUN == (1, 2, 3, 1, 4, 5)
    assert ARMOUR == ((1, 0, 0), (2, 1, 0), (3, 2, 1), (1, 0, 0), (2, 1, 0), (1, 0, 0))
    assert TURRET == (True, True, True, True, False, False)


# --- movement ------------------------------------------------------------------------------


def test_a_lone_heavy_tank_has_28_turns() -> None:
    # By hand, speed 3 in the open: 6 turns in place; one step forward (after 0,
    # 1 or 2 turns) with the steps left for turning: 5 + 3 + 3 + 1 + 1 = 13; two
    # steps forward with one turn anywhere or none: 7; three steps forward: 1;
    # one step backward: 1. The same for a diagonal facing.
    for facing in ("N", "NE"):
        state = state_of(f"white=Hh8{facing},Ca1N black=Cp16S")
        assert len({t for t in of_tank(state, "h8") if " x" not in t}) == 28


def test_a_boxed_in_tank_can_only_turn() -> None:
    ring = "g7,h7,i7,g8,i8,g9,h9,i9"
    heavy = of_tank(state_of(f"obstacles={ring} white=Hh8N,Ca1N black=Cp16S"), "h8")
    assert heavy == {f"h8-h8{f}" for f in ("NE", "E", "SE", "SW", "W", "NW")}  # 3 turns either way
    light = of_tank(state_of(f"obstacles={ring} white=Lh8N,Ca1N black=Cp16S"), "h8")
    assert light == {f"h8-h8{f}" for f in ("NE", "E", "SE", "S", "SW", "W", "NW")}


def test_backward_is_one_square_and_nothing_else() -> None:
    state = state_of("white=Mh8N,Ca1N black=Cp16S")
    turns = of_tank(state, "h8")
    assert "h8-h7N" in turns  # backward, keeping the facing
    assert "h8-h6N" not in turns and "h8-h7E" not in turns
    blocked = of_tank(state_of("obstacles=h7 white=Mh8N,Ca1N black=Cp16S"), "h8")
    assert not any(t.startswith("h8-h7") for t in blocked)


def test_a_turn_must_change_square_or_facing() -> None:
    state = state_of("white=Mh8N,Ca1N black=Cp16S")
    assert "h8-h8N" not in of_tank(state, "h8")
    with pytest.raises(ActionError, match="must change the tank's square or facing"):
        state.parse_action(WHITE, "Mh8-h8N")


CORRIDOR = "obstacles=g8,i8,g9,i9,g10,i10{} wrecks={} white=Lh8N,Ca1N{} black=Cp16S{}"


@pytest.mark.parametrize(
    "text",
    [
        CORRIDOR.format(",h11", "-", "", ""),  # an obstacle
        CORRIDOR.format("", "h11", "", ""),  # a wreck
        CORRIDOR.format("", "-", ",Lh11S", ""),  # an own tank
        CORRIDOR.format("", "-", "", ",Lh11S"),  # an enemy tank
    ],
)
def test_tanks_pass_and_end_only_on_empty_squares(text: str) -> None:
    # A Light tank in a corridor (walls on files g and i) with something on h11.
    turns = of_tank(state_of(text), "h8")
    assert "h8-h10N" in turns and "h8-h9NE" in turns
    assert not any(t.startswith(("h8-h11", "h8-h12")) for t in turns)


def test_a_diagonal_step_passes_between_two_occupied_squares() -> None:
    state = state_of("obstacles=b1,a2 white=Ca1NE black=Cp16S")
    assert "a1-b2NE" in of_tank(state, "a1")


def test_two_ways_to_the_same_end_are_one_turn() -> None:
    state = GAMES[16].new_initial_state()
    legal = list(state.legal_actions(WHITE))
    texts = [state.action_to_str(WHITE, a) for a in legal]
    assert len(set(legal)) == len(legal) == len(set(texts))


# --- shooting -----------------------------------------------------------------------------


def test_a_turret_shoots_ahead_and_45_degrees_to_either_side() -> None:
    # A Medium on h8 facing E; black Lights (side armour 0) N, NE, NW and E of it, 3 squares away.
    state = state_of("white=Mh8E,Ca1N black=Lh11E,Lk11E,Le11E,Lk8N,Cp16S")
    turns = of_tank(state, "h8")
    assert {"h8-h8N xh11", "h8-h8N xk11", "h8-h8N xe11"} <= turns  # ahead, 45 degrees right and left
    assert "h8-h8N xk8" not in turns  # 90 degrees to the side
    assert {"h8-h8NE xk8", "h8-h8NE xh11"} <= turns and "h8-h8NE xe11" not in turns


def test_fixed_guns_shoot_straight_ahead_only() -> None:
    position = "white={}h8N,Ca1N black=Lh11E,Lk11E,Cp16S"
    destroyer = of_tank(state_of(position.format("D")), "h8")
    assert {"h8-h8NE xk11", "h8-h9N xh11", "h8-h7N xh11"} <= destroyer
    assert "h8-h8NE xh11" not in destroyer
    assert "h8-h8NE xh11" in of_tank(state_of(position.format("M")), "h8")  # a turret can


def test_no_shot_at_an_adjacent_tank() -> None:
    state = state_of("white=Hh8N,Ca1N black=Lh10S,Cp16S")
    turns = of_tank(state, "h8")
    assert "h8-h9N" in turns
    assert "h8-h9N xh10" not in turns  # adjacent after the step
    assert "h8-h7N xh10" in turns  # after the step backward there are two squares between
    assert "h8-h8NE xh10" in turns  # N is 45 degrees from NE, and h9 is between


def test_the_line_of_fire_must_be_clear() -> None:
    state = state_of("obstacles=h10 wrecks=j10 white=Hh8NE,Mi9N,Ca1N black=Lh12S,Lk11S,Lf10S,Cp16S")
    turns = of_tank(state, "h8")
    assert not any(t.endswith("xh12") for t in turns if t.split("-")[1].startswith("h8"))  # obstacle h10
    assert not any(t.startswith("h8-h8") and t.endswith("xk11") for t in turns)  # own tank on i9
    assert "h8-h8N xf10" in turns  # NW diagonal g9 is empty


def test_a_diagonal_line_passes_two_occupied_squares_beside_it() -> None:
    state = state_of("obstacles=e4,d5 white=Hd4NE,Ca1N black=Mg7SW,Cp16S")
    assert "d4-d4N xg7" in of_tank(state, "d4")


def test_armour_is_hit_on_the_side_facing_the_shot_and_must_be_exceeded() -> None:
    # A Medium (gun II) against a black Medium on h12: front II holds, side I and rear 0 do not.
    front = state_of("white=Mh8N,Ca1N black=Mh12S,Cp16S")
    assert "h8-h9N xh12" not in of_tank(front, "h8")
    with pytest.raises(ActionError, match="does not pierce the front armour II"):
        front.parse_action(WHITE, "Mh8-h9N xh12")
    side = state_of("white=Mh8N,Ca1N black=Mh12E,Cp16S")
    assert "h8-h9N xh12" in of_tank(side, "h8")
    # A Heavy (III) against a Heavy: front III holds, side II does not; a Light (I) only beats armour 0.
    assert "h8-h9N xh12" not in of_tank(state_of("white=Hh8N,Ca1N black=Hh12S,Cp16S"), "h8")
    assert "h8-h9N xh12" in of_tank(state_of("white=Hh8N,Ca1N black=Hh12W,Cp16S"), "h8")
    assert "h8-h9N xh12" not in of_tank(state_of("white=Lh8N,Ca1N black=Hh12N,Cp16S"), "h8")
    assert "h8-h9N xh12" in of_tank(state_of("white=Lh8N,Ca1N black=Mh12N,Cp16S"), "h8")  # rear 0
    assert "h8-h9N xh12" in of_tank(state_of("white=Dh8N,Ca1N black=Hh12S,Cp16S"), "h8")  # IV > III


def test_armour_of_a_tank_facing_diagonally() -> None:
    # Black Heavy on h8 facing NE. Only a shot along its facing line hits front or rear.
    position = "white=Ch1N,Hd4NE,Mh4N,Dl12SW black=Hh8NE,Cp16S"
    state = state_of(position)
    legal = moves(state)
    assert "Hd4-d4N xh8" in legal  # from straight behind: rear I < gun III
    assert "Mh4-h5N xh8" not in legal  # from the south: side II, not less than gun II
    assert "Mh4-f6N xh8" in legal  # the Medium gets behind it: rear I < II
    assert "Dl12-k11SW xh8" in legal  # from straight ahead: front III < gun IV
    assert not any(m.startswith("Ch1-") and m.endswith("xh8") for m in legal)
    with pytest.raises(ActionError, match="side armour II"):
        state.parse_action(WHITE, "Mh4-h5N xh8")


def test_the_heavy_mortar_hits_3_to_5_ahead_over_anything() -> None:
    state = state_of("obstacles=g4,h4,i4,h5 white=Ca1N,Rh3N black=Lh6S,Hh7S,Mh8E,Mh9S,Cp16S")
    turns = of_tank(state, "h3")
    assert {"h3-h3NE", "h3-h2N xh6", "h3-h2N xh7"} <= turns
    # The wall h4 h5 stops it moving north; after its step backward h6, h7 and h8 are 4, 5 and 6 ahead.
    assert "h3-h2N xh8" not in turns  # 6 squares ahead
    assert "h3-h2N xh9" not in turns
    with pytest.raises(ActionError, match="3 to 5 squares ahead, not 6"):
        state.parse_action(WHITE, "Rh3-h2N xh8")
    with pytest.raises(ActionError, match="straight ahead only"):
        state.parse_action(WHITE, "Rh3-h3NE xh6")


def test_only_the_moved_tank_shoots_and_only_after_moving() -> None:
    # Only the Heavy's gun pierces the black Medium, so only the Heavy's turns may destroy it.
    state = state_of("white=Hh8N,Lc3N,Cc1N black=Mh12S,Cp16S")
    shots = [m for m in moves(state) if m.endswith("xh12")]
    assert shots and all(m.startswith("Hh8-") for m in shots)
    with pytest.raises(ActionError, match="must change"):
        state.parse_action(WHITE, "Hh8-h8N xh12")


def test_a_destroyed_tank_stays_as_a_wreck() -> None:
    state = state_of("white=Hh8N,Ca1N black=Lh12S,Mh14S,Cp16S")
    state.apply_str(WHITE, "Hh8-h9N xh12")
    obs = state.observation(BLACK)
    assert obs["wrecks"] == ["h12"]
    assert all(t["square"] != "h12" for t in obs["tanks"])
    assert not any(t.startswith("h14-h12") or t.startswith("h14-h11") for t in of_tank(state, "h14"))
    assert "h14-h13S" in of_tank(state, "h14")
    assert "wrecks=h12" in state.position()


# --- the end of the game --------------------------------------------------------------------


def test_destroying_the_command_tank_wins() -> None:
    state = state_of("white=Hh8N,Ca1N black=Ch12S,Lp15S")
    state.apply_str(WHITE, "Hh8-h9N xh12")
    result = state.result()
    assert result is not None and result.winner == WHITE
    assert "destroyed Black's Command tank" in result.reason
    assert state.to_act() == () and len(state.legal_actions(BLACK)) == 0
    with pytest.raises(PositionError, match="game is won"):
        state.position()


def test_the_command_tank_escapes_over_the_far_edge() -> None:
    state = state_of("turn=black white=Ch1N,Lp14S black=Cc1S,Lp16S")
    assert "Cc1-off" in moves(state)
    state.apply_str(BLACK, "Cc1-off")
    result = state.result()
    assert result is not None and result.winner == BLACK and "escaped" in result.reason
    # White's own edge is not an escape, nor is a side edge.
    assert not any(m.endswith("-off") for m in moves(state_of("white=Ca1S black=Cp16S,Lp1S")))


def test_no_escape_diagonally_through_a_corner() -> None:
    geo = GEOMETRY[16]
    p16, o16 = parse_square(geo, "p16"), parse_square(geo, "o16")
    assert geo.exits[WHITE][p16 * 8 + NE] == 0
    assert geo.exits[WHITE][p16 * 8 + N] == 1 and geo.exits[WHITE][p16 * 8 + NW] == 1
    assert geo.exits[WHITE][o16 * 8 + NE] == 1 and geo.exits[WHITE][p16 * 8 + E] == 0
    # l12 facing NE: four diagonal steps reach p16 with one step left, and that
    # step could only leave through the corner. From k12 the same path leaves at p17.
    assert "Cl12-off" not in moves(state_of("white=Cl12NE black=Ca1S"))
    assert "Ck12-off" in moves(state_of("white=Ck12NE black=Ca1S"))


def test_check_and_escape_are_announced_after_every_turn() -> None:
    state = state_of("white=Hh2N,Cc11N black=Ch14S,Lp16E")
    assert state.announcements() == (False, False)  # nobody has moved yet
    assert state.observation(WHITE)["announced"] is None
    state.apply_str(WHITE, "Cc11-c12N")
    # Hh2 could drive to h3 and shoot h14, and Cc12 could too (to h14's side); c12 is 4 steps from
    # the far edge and one more off it.
    assert state.announcements() == (True, True)
    announced = state.observation(BLACK)["announced"]
    assert announced is not None
    assert (announced["by"], announced["check"], announced["escape"]) == ("white", True, True)
    assert [t["square"] for t in announced["threats"]] == ["h2", "c12"]
    assert announced["target"] == {"square": "h14", "side": "black", "type": "C", "facing": "S"}
    assert announced["escaping"] == {"square": "c12", "side": "white", "type": "C", "facing": "N"}
    check = "Check! White's Heavy tank on h2 and Command tank on c12 can destroy Black's Command tank on h14"
    assert check in state.render()
    assert "Escape! White's Command tank on c12 can drive off Black's edge" in state.render()
    state.apply_str(BLACK, "Ch14-h15S")  # Black could now destroy c12 in turn, but is far from rank 1
    announced = state.observation(WHITE)["announced"]
    assert announced is not None and announced["target"] is not None
    assert (announced["by"], announced["check"], announced["escape"]) == ("black", True, False)
    assert announced["target"]["square"] == "c12" and announced["escaping"] is None
    assert "Escape!" not in state.observation_text(WHITE)
    quiet = state_of("turn=white ply=3 obstacles=a2,b2,b1 white=Ca1N black=Cp16S")
    assert quiet.announcements() == (False, False)  # every line to a1 is blocked next to it
    assert quiet.observation(WHITE)["announced"] == {
        "by": "black",
        "check": False,
        "escape": False,
        "threats": [],
        "target": None,
        "escaping": None,
    }
    assert "Check!" not in quiet.observation_text(WHITE) and "Escape!" not in quiet.observation_text(WHITE)
    loud = state_of("turn=black ply=3 white=Cc16N black=Cp1S")
    assert "Escape! White's Command tank on c16 can drive off Black's edge" in loud.render()


def test_check_names_every_tank_that_threatens_the_command_tank() -> None:
    # White's Heavy on a1 and Command tank on h2 can each destroy Black's Command tank on h8;
    # the Light on p1, walled in, cannot.
    state = state_of("ply=1 turn=black obstacles=o1,o2,p2 white=Ha1N,Lp1N,Ch2N black=Ch8S")
    line = "Check! White's Heavy tank on a1 and Command tank on h2 can destroy Black's Command tank on h8"
    for player in (WHITE, BLACK):  # public: both players read the same announcement
        assert line in state.observation_text(player).splitlines()
        announced = state.observation(player)["announced"]
        assert announced is not None and [t["square"] for t in announced["threats"]] == ["a1", "h2"]
    assert state.observation(WHITE) == {**state.observation(BLACK), "player": WHITE}
    three = state_of("ply=1 turn=black white=Ha1N,Lp1N,Ch2N black=Ch8S")
    assert "Heavy tank on a1, Light tank on p1 and Command tank on h2 can destroy" in three.render()
    # A Heavy Mortar hits over the wall in between (after a step forward); the walled-in Command
    # tank on t1 threatens nothing.
    big = state_of("size=20 ply=1 turn=black obstacles=b4,c4,d4,s1,s2,t2 white=Rc1N,Ct1N black=Cc7S")
    assert [square_name(big.geo, s) for s in big.threats()] == ["c1"]
    assert "Check! White's Heavy Mortar on c1 can destroy Black's Command tank on c7" in big.render()


def test_the_ply_limit_ends_in_a_draw() -> None:
    game = TankChess(ply_limit=2)
    state = game.state_from_position("white=Ch1N black=Ci16S")
    state.apply_str(WHITE, "Ch1-h2N")
    assert state.result() is None
    state.apply_str(BLACK, "Ci16-i15S")
    result = state.result()
    assert result is not None and result.is_draw and "ply limit of 2" in result.reason
    assert game.state_from_position("ply=5 white=Ch1N black=Ci16S").is_terminal()
    assert TankChess().options["ply_limit"] == 0  # people playing: no limit
    assert simulation_options("tank-chess") == {"ply_limit": 1000}


# --- notation ---------------------------------------------------------------------------------


def test_junk_is_not_a_turn() -> None:
    state = state_of("white=Hc1N,Ca1N black=Lg5S,Cp16S")
    for junk in (None, "Hc1-c2N", True, -1, 1 << 30, 511, 300 | 2 << 9 << 3):
        assert junk not in state.legal_actions(WHITE)
        with pytest.raises(ActionError):
            state.apply(WHITE, junk)  # type: ignore[arg-type]  # junk on purpose
        with pytest.raises(ActionError):
            state.action_to_str(WHITE, junk)


def test_move_notation_reads_leniently_and_writes_canonically() -> None:
    state = state_of("white=Hc1N,Ca1N black=Lg5S,Cp16S")
    canonical = "Hc1-d2NE xg5"
    action = state.parse_action(WHITE, canonical)
    assert state.action_to_str(WHITE, action) == canonical
    for text in ("hc1-d2ne xg5", "c1-d2NExg5", " H c1 - d2 NE x g5 "):
        assert state.parse_action(WHITE, text) == action
    assert state.action_to_str(WHITE, state.parse_action(WHITE, "c1ne")) == "Hc1-c1NE"
    assert state.action_to_str(WHITE, state.parse_action(WHITE, "c1-c2")) == "Hc1-c2N"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "is not a move"),
        ("Hc1", "give a destination, a facing or both"),
        ("Hc1-d2NE x", "is not a move"),
        ("Hc1-q2N", "off the 16x16 board"),
        ("Hb1-b2N", "no tank on b1"),
        ("Mc1-c2N", "is a Heavy tank"),
        ("Cp16-p15S", "Black's"),
        ("Ca1-offN", "takes no facing and no shot"),
        ("Hc1-off", "only a Command tank may drive off the board"),
        ("Hc1-c5N", "cannot reach c5"),
        ("Hc1-d2NE xg6", "no enemy tank on g6"),
        ("Hc1-c2N xg5", "not on a straight or diagonal line"),
    ],
)
def test_bad_moves_get_one_line_errors(text: str, message: str) -> None:
    state = state_of("white=Hc1N,Ca1N black=Lg5S,Cp16S")
    with pytest.raises(ActionError, match=message) as info:
        state.parse_action(WHITE, text)
    assert "\n" not in str(info.value)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**6), size=st.sampled_from([16, 20]), plies=st.integers(0, 40))
def test_every_legal_turn_round_trips_through_notation(seed: int, size: int, plies: int) -> None:
    rng = random.Random(seed)
    state = GAMES[size].new_initial_state()
    for _ in range(plies):
        if state.is_terminal():
            return
        state.apply(state.turn, state.legal_actions(state.turn).sample(rng))
    if state.is_terminal():
        return
    for action in state.legal_actions(state.turn):
        text = state.action_to_str(state.turn, action)
        assert state.parse_action(state.turn, text) == action


# --- structured turns ---------------------------------------------------------------------------


def played_states(seed: int, games: int) -> list[TankChessState]:
    """States met in seeded random games on both boards (with a short ply limit), ends included."""
    rng = random.Random(seed)
    states = []
    for index in range(games):
        state = TankChess(size=("16", "20")[index % 2], ply_limit=80).new_initial_state()
        states.append(state.clone())
        while not state.is_terminal():
            state.apply(state.turn, state.legal_actions(state.turn).sample(rng))
            states.append(state.clone())
    return states


def test_every_legal_turn_round_trips_through_its_structured_form() -> None:
    # The game has no chance events: every action is a player's turn.
    seen: Counter[str] = Counter()
    rng = random.Random(4)
    setups = [state_of(format_position(random_setup(rng))) for _ in range(200)]  # escapes are rare in play
    for state in played_states(3, 4)[::10] + setups:
        if state.is_terminal():
            continue
        player = state.turn
        for action in state.legal_actions(player):
            form = state.action_to_json(player, action)
            assert json.loads(json.dumps(form)) == form
            assert state.action_from_json(player, form) == action
            # The structured form and the notation name the same turn.
            assert state.parse_action(player, state.action_to_str(player, action)) == action
            seen[form["kind"]] += 1
            seen["shots"] += form["kind"] == "move" and form["target"] is not None
    assert seen["escape"] >= 3 and seen["shots"] >= 100 and seen["move"] >= 5000, seen


def test_the_structured_form_names_squares_facings_and_the_tank() -> None:
    state = state_of("white=Hc1N,Ch15N black=Lg5S,Cp16S")
    assert state.action_to_json(WHITE, state.parse_action(WHITE, "Hc1-d2NE xg5")) == {
        "kind": "move",
        "tank": "H",
        "from": "c1",
        "to": "d2",
        "facing": "NE",
        "target": "g5",
    }
    escape = {"kind": "escape", "tank": "C", "from": "h15"}
    assert state.action_from_json(WHITE, escape) == state.parse_action(WHITE, "Ch15-off")
    turn = {"kind": "move", "tank": "H", "from": "c1", "to": "c1", "facing": "NW", "target": None}
    assert state.action_to_str(WHITE, state.action_from_json(WHITE, turn)) == "Hc1-c1NW"
    for junk in (None, "Hc1-c2N", True, -1, 1 << 30, 511):
        with pytest.raises(ActionError, match="is not a Tank Chess turn here"):
            state.action_to_json(WHITE, junk)


MOVE = {"kind": "move", "tank": "H", "from": "c1", "to": "c2", "facing": "N", "target": None}


@pytest.mark.parametrize(
    ("form", "message"),
    [
        ("Hc1-c2N", "is not a structured action"),
        (None, "is not a structured action"),
        (["c1", "c2"], "is not a structured action"),
        ({}, "kind None is neither 'move' nor 'escape'"),
        ({**MOVE, "kind": "drive"}, "kind 'drive' is neither"),
        ({**MOVE, "kind": ["move"]}, "kind \\['move'\\] is neither"),
        ({**MOVE, "shot": "g5"}, "unknown key 'shot'"),
        ({"kind": "escape", "tank": "C", "from": "h15", "to": None}, "unknown key 'to'"),
        ({k: v for k, v in MOVE.items() if k != "target"}, "missing key 'target'"),
        ({k: v for k, v in MOVE.items() if k != "facing"}, "missing key 'facing'"),
        ({**MOVE, "tank": "h"}, "tank 'h' is not a type letter"),
        ({**MOVE, "tank": "Q"}, "tank 'Q' is not a type letter"),
        ({**MOVE, "tank": 3}, "tank 3 is not a type letter"),
        ({**MOVE, "tank": ""}, "tank '' is not a type letter"),
        ({**MOVE, "from": 2}, "from 2 is not a square name"),
        ({**MOVE, "from": "c01"}, "from: 'c01' is not a square"),
        ({**MOVE, "to": "z2"}, "to: 'z2' is not a square"),
        ({**MOVE, "to": "c21"}, "to: c21 is off the 20x20 board"),
        ({**MOVE, "to": "c17"}, "c17 is off the 16x16 board"),
        ({**MOVE, "target": "q5"}, "q5 is off the 16x16 board"),
        ({**MOVE, "target": False}, "target False is not a square name"),
        ({**MOVE, "facing": "ne"}, "facing 'ne' is not one of N NE"),
        ({**MOVE, "facing": None}, "facing None is not one of"),
        ({**MOVE, "from": "b1"}, "there is no tank on b1"),
        ({**MOVE, "tank": "M"}, "the tank on c1 is a Heavy tank"),
        ({**MOVE, "from": "p16", "tank": "C"}, "the tank on p16 is Black's"),
        ({**MOVE, "to": "c5"}, "is not legal now: the Heavy tank on c1 cannot reach c5"),
        ({**MOVE, "to": "d2", "facing": "NE", "target": "g6"}, "is not legal now: there is no enemy tank"),
        ({"kind": "escape", "tank": "H", "from": "c1"}, "only a Command tank may drive off"),
    ],
)
def test_bad_structured_turns_get_one_line_errors(form: object, message: str) -> None:
    state = state_of("white=Hc1N,Ca1N black=Lg5S,Cp16S")
    with pytest.raises(ActionError, match=message) as info:
        state.action_from_json(WHITE, form)
    assert "\n" not in str(info.value)


def test_a_structured_turn_out_of_turn_or_after_the_end_is_refused() -> None:
    state = state_of("white=Hc1N,Ca1N black=Lg5S,Cp16S")
    with pytest.raises(ActionError, match="not Black's turn"):
        state.action_from_json(
            BLACK, {"kind": "move", "tank": "L", "from": "g5", "to": "g4", "facing": "S", "target": None}
        )
    state = state_of("white=Hc1N,Ca1N black=Lg5S,Cc9S")
    state.apply_str(WHITE, "Hc1-c2N xc9")
    with pytest.raises(ActionError, match="the game is over"):
        state.action_from_json(BLACK, {"kind": "escape", "tank": "L", "from": "g5"})


# --- one legality predicate -----------------------------------------------------------------------


def candidate_turns(state: TankChessState, elsewhere: list[int], rng: random.Random) -> list[object]:
    """Turns to ask about: the legal ones, some legal elsewhere, the other side's, and junk."""
    mover = state.turn
    listed = list(state.legal_actions(mover)) if not state.is_terminal() else []
    theirs = list(TankActions(state.geo, state.board, state.occ, state.tanks[1 - mover], state.tanks[mover]))
    junk: list[object] = [None, True, False, -1, 1 << 30, 511, 2.0, "Hc1-c2N", (2, 18), [2]]
    junk += [rng.getrandbits(30) for _ in range(10)]
    # Escapes with a shot, and shots by tanks that stay where they are: plausible ints, never legal.
    junk += [a | 7 << 21 for a in listed if a >> 9 & 4095 == ESCAPE]
    junk += [a & ~(4095 << 9) | (a & 511) << 12 | 7 << 9 for a in listed[:5]]
    return listed + rng.sample(elsewhere, min(60, len(elsewhere))) + theirs[:60] + junk


def test_is_legal_agrees_with_the_legal_list_and_explain_with_both() -> None:
    rng = random.Random(8)
    elsewhere: list[int] = []
    seen: Counter[str] = Counter()
    for state in played_states(9, 4)[::4]:
        acting = state.to_act()
        candidates = candidate_turns(state, elsewhere, rng)
        listed = set(state.legal_actions(state.turn)) if acting else set()
        for player in (WHITE, BLACK):
            for action in candidates:
                oracle = player in acting and type(action) is int and action in listed
                assert state.is_legal(player, action) == oracle, (state.position(), player, action)  # type: ignore[arg-type]
                # The core's version reads the legal list (here TankActions.__contains__).
                assert super(TankChessState, state).is_legal(player, action) == oracle  # type: ignore[arg-type]
                seen["legal" if oracle else "illegal"] += 1
                if player in acting and type(action) is int:
                    try:
                        state.action_to_str(player, action)
                    except ActionError:
                        continue  # no turn of this board: nothing to explain
                    # The explanation says a rule is broken exactly when the rules refuse the turn.
                    problem = explain(state.geo, state.board, player, action)
                    assert (problem == "") == oracle, (state.position(), state.action_to_str(player, action))
                    seen["explained"] += problem != ""
        if acting:
            elsewhere += rng.sample(sorted(listed), min(20, len(listed)))
            # The turn sample() just drew is taken on trust: for its player only.
            picked = state.legal_actions(state.turn).sample(rng)
            assert state.is_legal(state.turn, picked) and not state.is_legal(1 - state.turn, picked)
    assert seen["legal"] >= 5000 and seen["illegal"] >= 5000 and seen["explained"] >= 1000, seen


# --- positions and setups ---------------------------------------------------------------------


def test_position_notation_round_trips() -> None:
    for size in (16, 20):
        state = GAMES[size].new_initial_state()
        text = state.position()
        again = GAMES[size].state_from_position(text)
        assert again.position() == text and again.board == state.board
    text = "size=16 turn=black ply=9 obstacles=basic wrecks=a4 white=Lb4NW,Ch1N black=Ci16S"
    state = state_of(text)
    assert state.turn == BLACK and state.ply == 9 and len(state.setup().obstacles) == 50
    assert state_of(state.position()).position() == state.position()


def test_a_setup_file_may_wrap_lines_and_hold_comments() -> None:
    text = """
    # my setup
    size = 16    turn=white
    obstacles=d8, e8,
              f8   # a short wall
    white=Ch1N, Lc3NE
    black=Ci16S
    """
    setup = parse_position(text)
    assert len(setup.obstacles) == 3 and len(setup.tanks) == 3


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty"),
        ("white=Ch1N", "no black tanks"),
        ("white=Ch1N black=Lg14S", "black has no Command tank"),
        ("white=Ch1N,Cc1N black=Ci16S", "white has 2 Command tanks"),
        ("white=Ch1N,Lh1N black=Ci16S", "h1 holds both a white Command tank and a white Light tank"),
        ("obstacles=h1 white=Ch1N black=Ci16S", "h1 holds both an obstacle and a white Command tank"),
        ("white=Ch1N,Lq3N black=Ci16S", "q3 is off the 16x16 board"),
        ("white=Ch1N,Lc17N black=Ci16S", "c17 is off the 16x16 board"),
        ("white=Ch1N,Xc3N black=Ci16S", "unknown type 'X'"),
        ("white=Ch1N,Lc3 black=Ci16S", "is not type, square and facing"),
        ("white=Ch1N,Lc3Q black=Ci16S", "is not type, square and facing"),
        ("size=18 white=Ch1N black=Ci16S", "16 or 20"),
        ("turn=red white=Ch1N black=Ci16S", "white or black"),
        ("ply=-1 white=Ch1N black=Ci16S", "whole number"),
        ("colour=white white=Ch1N black=Ci16S", "unknown field 'colour'"),
        ("white=Ch1N white=Ch2N black=Ci16S", "given twice"),
        ("hello white=Ch1N black=Ci16S", "not a field=value word"),
        ("wrecks=z9 white=Ch1N black=Ci16S", "not a square"),
        ("size=20 white=Ch1N black=Ci16S", "20x20 but the game is 16x16"),
    ],
)
def test_a_bad_setup_gets_a_one_line_error(text: str, message: str) -> None:
    with pytest.raises(PositionError, match=message) as info:
        GAMES[16].state_from_position(text)
    assert "\n" not in str(info.value)


DUEL = "# a duel\nsize=20 turn=black white=Cj1N,Dh3N black=Ck20S,Rm18S\n"


def test_starting_from_a_setup() -> None:
    # The option takes the position's text itself, comments and all, or the name of the basic setup.
    game = load_game("tank-chess", size="20", setup=DUEL)
    state = game.new_initial_state()
    assert isinstance(state, TankChessState)
    assert state.turn == BLACK and len(state.tanks[WHITE]) == 2
    assert load_game("tank-chess", setup=" Basic ").new_initial_state().position() == (
        load_game("tank-chess").new_initial_state().position()
    )
    with pytest.raises(OptionError, match="set the option size=20"):
        load_game("tank-chess", setup=DUEL)
    with pytest.raises(OptionError, match="black has no Command tank") as info:
        load_game("tank-chess", setup="white=Ch1N black=Lg14S")
    assert "\n" not in str(info.value) and "no game reads" not in str(info.value)


def test_a_setup_option_never_opens_a_file(tmp_path: Path) -> None:
    # A file's name is no position: the game reads no file, and says where one is read.
    layout = tmp_path / "layout.txt"
    layout.write_text("hush=1 white=Ch1N black=Ci16S\n", encoding="utf-8")
    for name in (str(layout), "/etc/passwd", str(tmp_path / "missing.txt")):
        with pytest.raises(OptionError) as info:
            load_game("tank-chess", setup=name)
        text = str(info.value)
        assert text.startswith("option setup: ") and "\n" not in text, text
        assert "a game reads no file" in text and "tussle play tank-chess -o setup=FILE" in text, text
        assert "hush" not in text and ":0:0:" not in text, text


def test_local_commands_read_a_setup_file(tmp_path: Path) -> None:
    from test_bad_input import invoke, one_line_error

    path = tmp_path / "duel.txt"
    path.write_text(DUEL, encoding="utf-8")
    shown = invoke("step", "tank-chess", "-o", "size=20", "-o", f"setup={path}", "--json")
    assert shown.exit_code == 0, shown.output
    assert json.loads(shown.stdout)["position"].startswith("size=20 turn=black ply=0 obstacles=- wrecks=-")
    message = one_line_error(invoke("step", "tank-chess", "-o", f"setup={path}"))
    assert "set the option size=20" in message and "option setup (" in message and "duel.txt" in message
    missing = one_line_error(invoke("step", "tank-chess", "-o", f"setup={tmp_path / 'missing.txt'}"))
    assert "option setup: cannot read" in missing and "No such file or directory" in missing
    bad = tmp_path / "bad.txt"
    bad.write_text("white=Ch1N black=Lg14S", encoding="utf-8")
    assert "black has no Command tank" in one_line_error(invoke("step", "tank-chess", "-o", f"setup={bad}"))
    assert "not a regular file" in one_line_error(invoke("step", "tank-chess", "-o", f"setup={tmp_path}"))


def test_a_game_on_a_custom_setup_replays_without_the_file(tmp_path: Path) -> None:
    from test_bad_input import invoke

    path = tmp_path / "duel.txt"
    path.write_text(DUEL, encoding="utf-8")
    record = tmp_path / "game.json"
    played = invoke(
        "play", "tank-chess", "-p", "random,random", "-o", "size=20", "-o", f"setup={path}",
        "-o", "ply_limit=6", "--seed", "3", "--record", str(record),
    )  # fmt: skip
    assert played.exit_code == 0, played.output
    assert json.loads(record.read_text(encoding="utf-8"))["options"]["setup"] == DUEL
    path.unlink()
    replayed = invoke("replay", str(record), "--json")
    assert replayed.exit_code == 0, replayed.output
    assert json.loads(replayed.stdout)["finished"]


# --- perft and the reference implementation ---------------------------------------------------


def perft(state: TankChessState, depth: int) -> int:
    legal = state.legal_actions(state.turn)
    if depth == 1:
        return len(legal)
    total = 0
    for action in legal:
        child = state.clone()
        child.apply(child.turn, action)
        total += 1 if child.is_terminal() else perft(child, depth - 1)
    return total


@pytest.mark.parametrize("entry", PERFT["positions"], ids=[p["name"] for p in PERFT["positions"]])
def test_perft(entry: dict[str, Any]) -> None:
    state = state_of(entry["position"])
    counts = entry["perft"]
    assert [perft(state, d) for d in range(1, len(counts) + 1)] == counts
    # The reference agrees: to depth 2 where that is quick, else depth 1.
    depth = 2 if counts[0] < 200 else 1
    assert ref.perft(ref.read(entry["position"]), depth) == counts[depth - 1]
    assert ref.legal_moves(ref.read(entry["position"])) == moves(state)


def random_setup(rng: random.Random) -> Setup:
    """A random legal position; in half of them the tanks crowd into a small area, to meet."""
    size = rng.choice((16, 20))
    squares = rng.sample(range(size * size), size * size)
    if rng.random() < 0.5:
        x0, y0, span = rng.randrange(size - 6), rng.randrange(size - 6), rng.randrange(6, 10)
        near = [s for s in squares if x0 <= s % size < x0 + span and y0 <= s // size < y0 + span]
        near_set = set(near)
        squares = near + [s for s in squares if s not in near_set]
    tanks = []
    for side in (WHITE, BLACK):
        for kind in [3] + [rng.choice((0, 1, 2, 4, 5)) for _ in range(rng.randrange(4))]:
            tanks.append((side, kind, squares.pop(0), rng.randrange(8)))
    if rng.random() < 0.3:  # a Command tank near its far edge, to escape
        side = rng.randrange(2)
        row = rng.choice((0, 1, 2))
        square = (size - 1 - row if side == WHITE else row) * size + rng.randrange(size)
        if all(t[2] != square for t in tanks):
            tanks = [(s, k, square if (s == side and k == 3) else sq, f) for s, k, sq, f in tanks]
            squares.remove(square)
    count = int(len(squares) * rng.random() * 0.3)
    blocked = rng.sample(squares, count + 4)
    obstacles, wrecks = blocked[:count], blocked[count : count + rng.randrange(5)]
    tanks.sort(key=lambda t: t[2])
    return Setup(
        size, rng.randrange(2), rng.randrange(9), frozenset(obstacles), frozenset(wrecks), tuple(tanks)
    )


def test_the_fast_rules_agree_with_the_reference_on_random_positions() -> None:
    rng = random.Random(2024)
    seen: Counter[str] = Counter()
    positions = [format_position(random_setup(rng)) for _ in range(2000)]
    for size in (16, 20):  # and crowded positions from random games
        for _ in range(6):
            state = GAMES[size].new_initial_state()
            for _ in range(rng.randrange(10, 120)):
                if state.is_terminal():
                    break
                if rng.random() < 0.25:
                    positions.append(state.position())
                state.apply(state.turn, state.legal_actions(state.turn).sample(rng))
    for index, text in enumerate(positions):
        state = state_of(text)
        position = ref.read(text)
        fast = moves(state)
        assert fast == ref.legal_moves(position), text
        seen["shots"] += any(" x" in m for m in fast)
        seen["escapes"] += any(m.endswith("-off") for m in fast)
        move = rng.choice(sorted(fast))
        mover = position.turn
        state.apply_str(state.turn, move)
        after, winner = ref.play(position, move)
        if winner is not None:
            result = state.result()
            assert result is not None and result.winner == ("white", "black").index(winner), (text, move)
            seen["wins"] += 1
        else:
            assert state.position() == ref.write(after), (text, move)
            if index % 5 == 0:
                assert state.announcements() == ref.announcements(after, mover), (text, move)
                seen["checks"] += state.announcements()[0]
                # The tanks named by Check: those with a turn that destroys the enemy Command tank.
                enemy = next(ref.name(q) for q, t in after.tanks.items() if t.side != mover and t.kind == "C")
                shooters = {
                    m[1:].split("-")[0] for m in ref.legal_moves(after, mover) if m.endswith(" x" + enemy)
                }
                assert {square_name(state.geo, q) for q in state.threats()} == shooters, (text, move)
    # The sample is worth something only if it met every rule often.
    assert min(seen.values()) >= 20 and len(seen) == 4, seen


def plain_reach(size: int, board: list[int], square: int, code: int) -> tuple[list[int], bool]:
    """The movement of the tank ``code`` on ``square`` the plain way: one queue of states.

    Breadth first over (square, facing) states, trying a turn right, a turn
    left and a step forward from each, in that order; then one step backward.
    """
    geo = GEOMETRY[size]
    command, side = code >> 3 & 7 == 3, code >> 6 & 1
    start = square * 8 + code % 8
    steps = {start: 0}
    queue = [start]
    escape = False
    for here in queue:
        if steps[here] == SPEED[code >> 3 & 7]:
            break
        ahead = geo.fwd[here]
        if ahead < 0 and command and geo.exits[side][here]:
            escape = True
        for nxt in (here - here % 8 + (here + 1) % 8, here - here % 8 + (here - 1) % 8, ahead):
            if nxt >= 0 and nxt not in steps and (nxt // 8 == square or not board[nxt // 8]):
                steps[nxt] = steps[here] + 1
                queue.append(nxt)
    found = queue[1:]
    back = geo.fwd[start ^ 4]
    if back >= 0 and not board[back // 8] and back ^ 4 not in steps:
        found.append(back ^ 4)
    elif back < 0 and command and geo.exits[side][start ^ 4]:
        escape = True
    return found, escape


def random_tank_boards(seed: int, count: int) -> list[tuple[int, list[int], int, int]]:
    """Boards of random density with one tank of any kind, often by its far edge."""
    rng = random.Random(seed)
    boards = []
    for index in range(count):
        size = (16, 20)[index % 2]
        density = rng.random() * 0.5
        board = [int(rng.random() < density) for _ in range(size * size)]
        side, kind, facing = rng.randrange(2), rng.randrange(6), rng.randrange(8)
        rank = (
            rng.randrange(size)
            if rng.random() < 0.5
            else (size - 1 - rng.randrange(4), rng.randrange(4))[side]
        )
        square = rank * size + rng.randrange(size)
        board[square] = 128 | side << 6 | kind << 3 | facing
        boards.append((size, board, square, board[square]))
    return boards


def test_the_movement_search_finds_the_states_in_plain_breadth_first_order() -> None:
    # The order of the states is the order of the listed turns and of what a seed samples.
    boards = random_tank_boards(7, 3000)
    escapes = 0
    for size, board, square, code in boards:
        expected = plain_reach(size, board, square, code)
        assert reach(GEOMETRY[size], board, square, code) == expected
        states, escape = cached_reach(GEOMETRY[size], board, occupancy(board), square, code)
        assert (list(states), escape) == expected
        escapes += escape
    assert escapes >= 100


def test_the_movement_search_is_right_in_threads_running_at_once() -> None:
    boards = random_tank_boards(8, 300)
    expected = [plain_reach(*board) for board in boards]
    wrong: list[int] = []

    def check() -> None:
        for index, (size, board, square, code) in enumerate(boards):
            try:
                if reach(GEOMETRY[size], board, square, code) != expected[index]:
                    wrong.append(index)
            except Exception:  # an exception in a thread would go unseen by the test
                wrong.append(index)

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as possible, in the middle of searches
    try:
        threads = [threading.Thread(target=check) for _ in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(interval)
    assert not wrong


# --- rendering and observations -------------------------------------------------------------


def test_rank_labels_stand_apart_from_the_last_file() -> None:
    # Tanks on the last file next to two-digit ranks: each row reads as its rank, one cell per
    # file and the rank again, never a tank run into a number.
    for text in (
        "size=20 white=Ca1N,Lt10N,Mt15E,Ht20N,Dt1N black=Cb20S,Lt12S,Rt19SW",
        "white=Ca1N,Lp10N,Mp16E black=Cb16S,Lp12S",
    ):
        state = state_of(text)
        size = state.geo.size
        lines = state.render().splitlines()
        rows = [line for line in lines if line[:2].strip().isdigit()]
        assert len(rows) == size
        for rank, line in zip(range(size, 0, -1), rows, strict=True):
            cells = line.split()
            assert len(cells) == size + 2, line
            assert cells[0] == cells[-1] == str(rank), line
        assert max(len(line) for line in lines) <= 80
    assert "H↑ 20" in state_of("size=20 white=Ca1N,Ht20N black=Cb20S").render()


#: A turn with concrete squares, as a person would copy it from a hint: ``Mh3-h6N``, ``c3-d5ne xg8``.
_TURN_TEXT = re.compile(
    r"\b[LMHCDR]?[a-t][0-9]{1,2}-(?:[a-t][0-9]{1,2}(?:NE|NW|SE|SW|N|E|S|W)?|off)(?: x[a-t][0-9]{1,2})?"
)


def test_the_notation_hint_is_a_format_without_squares_that_may_be_illegal() -> None:
    hint = TankChess.info.notation
    assert "<tank><from>-<to><facing> [x<target>]" in hint
    assert _TURN_TEXT.findall(hint) == [] and _TURN_TEXT.findall(MOVE_FORMAT) == []
    state = state_of("white=Ch1N black=Ci16S")
    with pytest.raises(ActionError, match="write <tank><from>-<to><facing>") as info:
        state.parse_action(WHITE, "tank, go!")
    assert _TURN_TEXT.findall(str(info.value)) == []


@pytest.mark.parametrize("size", [16, 20])
def test_every_example_the_help_shows_is_legal_where_it_is_shown(size: int) -> None:
    game = TankChess(size=size)
    state = game.new_initial_state()
    rng = random.Random(size)
    for ply in range(12):
        player = state.turn
        out = io.StringIO()
        human = HumanAgent(game, player, seed=ply, console=Console(file=out, width=300), stdin=io.StringIO())
        human.show_help(PlayerView(state, player))
        shown = out.getvalue()
        examples = shown.split("for example: ", 1)[1].splitlines()[0].split(", ")
        assert examples and all(examples)
        found = _TURN_TEXT.findall(shown)
        assert set(found) == set(examples), shown  # no other turn anywhere in the help
        for text in found:
            assert state.parse_action(player, text) in state.legal_actions(player), (text, state.position())
        state.apply(player, state.legal_actions(player).sample(rng))


def test_rendering_shows_coordinates_obstacles_wrecks_and_facings() -> None:
    state = state_of("obstacles=c3 wrecks=d4 white=Ch1NE,Rb2N black=Ci16S,Mj9SW")
    text = state.render()
    lines = text.splitlines()
    assert lines[1].split() == list("abcdefghijklmnop")
    row3 = next(line for line in lines if line.startswith(" 3 "))
    assert row3.split()[3] == "##"
    assert next(line for line in lines if line.startswith(" 4 ")).split()[4] == "xx"
    assert "C↗" in text and "R↑" in text and "c↓" in text and "m↙" in text
    wide = GAMES[20].new_initial_state().render().splitlines()
    assert wide[1].split()[-1] == "t" and max(len(line) for line in wide) < 80


def test_observation_is_plain_data() -> None:
    state = GAMES[20].new_initial_state()
    state.apply_str(WHITE, "Lc3-c4N")
    obs = state.observation(BLACK)
    assert json.loads(json.dumps(obs)) == obs
    assert obs["last_move"] == {
        "by": "white",
        "move": "Lc3-c4N",
        "type": "L",
        "from": "c3",
        "to": "c4",
        "facing": "N",
        "destroyed": None,
    }
    assert obs["to_move"] == "black" and obs["size"] == 20 and len(obs["tanks"]) == 28


# --- the rule-of-thumb agent ----------------------------------------------------------------


def test_the_rule_agent_beats_random() -> None:
    for size, games in (("16", 6), ("20", 2)):
        summaries = list(run_match("tank-chess", ["rule", "random"], games, seed=11, options={"size": size}))
        wins = sum(1 for g in summaries if g.ranking == (1, 2))
        assert wins == games, (size, [g.ranking for g in summaries])


def test_the_rule_agent_takes_a_win_and_checks_its_parameters() -> None:
    game = GAMES[16]
    state = game.state_from_position("white=Hh8N,Ca1N black=Ch12S,Lp15S,Mb16S")
    agent = make_agent("rule", game, WHITE, seed=3)
    assert state.action_to_str(WHITE, agent.act(PlayerView(state, WHITE))).endswith("xh12")
    with pytest.raises(AgentError, match="unknown parameter"):
        make_agent("rule:depth=2", game, WHITE)
    with pytest.raises(AgentError, match="lookahead=0 is below the minimum 1"):
        make_agent("rule:lookahead=0", game, WHITE)
    with pytest.raises(AgentError, match="lookahead='two' is not a whole number"):
        make_agent("rule:lookahead=two", game, WHITE)


def test_the_last_move_is_told_in_words_with_what_it_destroyed() -> None:
    rng = random.Random(6)
    state = TankChess(ply_limit=400).new_initial_state()
    told = 0
    while told < 5:
        if state.is_terminal():
            state = TankChess(ply_limit=400).new_initial_state()
        player = state.to_act()[0]
        action = state.legal_actions(player).sample(rng)
        before = state.observation(player)
        text = state.action_to_str(player, action)
        state_form = state.action_to_json(player, action)
        state.apply(player, action)
        last = state.observation(1 - player)["last_move"]
        assert last is not None and last["move"] == text and last["by"] == ("white", "black")[player]
        # The parts of the last move are those of the turn's structured form.
        turn = state_form
        assert (last["type"], last["from"]) == (turn["tank"], turn["from"])
        assert (last["to"], last["facing"]) == (
            (turn["to"], turn["facing"]) if turn["kind"] == "move" else (None, None)
        )
        target = turn["target"] if turn["kind"] == "move" else None
        if target:
            victim = next(t for t in before["tanks"] if t["square"] == target)
            assert last["destroyed"] == {"square": target, "side": victim["side"], "type": victim["type"]}
            assert "destroyed" in state.observation_text(0)
            told += 1
        else:
            assert last["destroyed"] is None
    assert told == 5


# --- the RL encoding ---------------------------------------------------------------------


def encoded_positions(seed: int, count: int) -> list[TankChessState]:
    """Random setups, positions along random games (with a short ply limit) and the games' ends."""
    rng = random.Random(seed)
    states = [state_of(format_position(random_setup(rng))) for _ in range(count)]
    for size in (16, 20):
        game = TankChess(size=str(size), ply_limit=rng.choice((0, 40)))
        for _ in range(3):
            state = game.new_initial_state()
            while not state.is_terminal():
                if rng.random() < 0.1:
                    states.append(state.clone())
                state.apply(state.turn, state.legal_actions(state.turn).sample(rng))
            states.append(state)
    return states


def listed_steps(
    state: TankChessState, player: int
) -> tuple[dict[tuple[int, ...], set[int]], dict[tuple[int, ...], str]]:
    """Every legal turn listed and split into tokens: the tokens after each prefix, and the whole turns."""
    enc = encoding_for(state.game)
    steps = enc.steps
    assert isinstance(steps, TankChessSteps)
    after: dict[tuple[int, ...], set[int]] = {}
    whole: dict[tuple[int, ...], str] = {}
    for action in state.legal_actions(player):
        text = state.action_to_str(player, action)
        tokens = steps.split(enc.codec.encode(text))
        for k in range(len(tokens)):
            after.setdefault(tokens[:k], set()).add(tokens[k])
        whole[tokens] = text
    return after, whole


def test_step_by_step_turns_are_exactly_the_listed_ones() -> None:
    kinds: Counter[str] = Counter()
    for index, state in enumerate(encoded_positions(11, 300)):
        kinds["ended"] += state.is_terminal()
        steps = encoding_for(state.game).steps
        assert isinstance(steps, TankChessSteps)
        for player in (WHITE, BLACK):
            after, whole = listed_steps(state, player)
            context = steps.start(state, player)
            # Walk every prefix the steps offer: the tokens offered are exactly those leading to a
            # listed turn, a prefix completes exactly when it is a whole listed turn.
            prefixes: list[tuple[int, ...]] = [()]
            completed = {}
            for prefix in prefixes:
                offered = steps.legal_tokens(context, list(prefix))
                assert offered == sorted(after.get(prefix, set())), (index, player, prefix)
                assert steps.complete(context, list(prefix)) == whole.get(prefix)
                if prefix in whole:
                    completed[prefix] = whole[prefix]
                prefixes.extend((*prefix, token) for token in offered)
            assert completed == whole
            kinds["shots"] += any(len(t) == 3 and t[2] for t in whole)
            kinds["escapes"] += any(len(t) == 2 for t in whole)
            kinds["none"] += not whole
            if whole:  # a token not offered is refused, and changes nothing
                chosen: list[int] = []
                stray = next(t for t in range(steps.num_tokens) if t not in after[()])
                with pytest.raises(ActionError, match="cannot follow"):
                    steps.take(context, chosen, stray)
                assert chosen == []
                assert steps.legal_tokens(context, [stray]) == [] and steps.complete(context, [stray]) is None
    assert kinds["ended"] == 6 and min(kinds.values()) >= 6, kinds


def test_legal_turns_are_numbered_from_their_ints_as_from_their_notation() -> None:
    shots = escapes = 0
    for state in encoded_positions(12, 300):
        enc = encoding_for(state.game)
        codec = enc.codec
        for player in (WHITE, BLACK):
            by_text = {}
            for action in state.legal_actions(player):
                text = state.action_to_str(player, action)
                by_text[codec.encode(text)] = action
                assert codec.action_index(state, player, action) == codec.encode(text), text
                shots += " x" in text
                escapes += text.endswith("-off")
            # The whole list numbered at once, as the environments ask for it, numbers them the same.
            legal = enc.legal(state, player)
            assert legal.indices == sorted(by_text)
            assert all(legal.action(state, index) == action for index, action in by_text.items())
    assert shots >= 100 and escapes >= 10


def test_the_observation_array_written_from_the_state_is_the_observations() -> None:
    announced = 0
    for state in encoded_positions(13, 300):
        enc = encoding_for(state.game)
        for player in (WHITE, BLACK, PUBLIC):
            array = enc.observation(state, player)
            assert np.array_equal(array, enc.features.array(state.observation(player), player))
            announced += bool(array[-4:].any())
    assert announced >= 20
