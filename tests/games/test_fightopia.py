"""Fightopia: every rule sentence on hand-made positions, the notations, perft, the reference generator."""

from __future__ import annotations

import ast
import inspect
import json
import random
import re
from pathlib import Path
from typing import Any

import fightopia_reference as ref
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tussle.games.fightopia.rule_agent as agent_module
from tussle import CHANCE, PUBLIC, ActionError, OptionError, PositionError, Record, load_game
from tussle.agents import make_agent
from tussle.agents.base import PlayerView
from tussle.games.fightopia import START, Fightopia, FightopiaState
from tussle.games.fightopia.rule_agent import FightopiaRuleAgent, evaluate
from tussle.games.fightopia.rules import DEFAULT_PLY_LIMIT, perft
from tussle.registry import simulation_options
from tussle.runner import play_game, run_match

PERFT = Path(__file__).resolve().parent.parent / "data" / "fightopia_perft.json"


def setup(white: str, black: str, side: str = "w", ply: int = 0, **options: Any) -> FightopiaState:
    """A position from piece lists: ``Gd1`` a Giant by its corner, ``Ta1a2`` a Tank, ``c3`` a Pawn."""
    pieces = []
    for color, text in (("w", white), ("b", black)):
        for token in text.split():
            if token[0] == "G":
                f, r = ref.square(token[1:])
                squares = [(f, r), (f + 1, r), (f, r + 1), (f + 1, r + 1)]
                pieces.append(ref.Piece(color, "giant", squares))
            elif token[0] == "T":
                pieces.append(ref.Piece(color, "tank", [ref.square(token[1:3]), ref.square(token[3:5])]))
            else:
                pieces.append(ref.Piece(color, "pawn", [ref.square(token)]))
    taken = [s for p in pieces for s in p.squares]
    assert len(taken) == len(set(taken)), "test setup: two pieces overlap"
    return Fightopia(**options).state_from_position(ref.write(ref.Board(pieces, side, ply)))


def actions(state: FightopiaState) -> set[str]:
    player = state.to_act()[0]
    return {state.action_to_str(player, a) for a in state.legal_actions(player)}


def of(state: FightopiaState, prefix: str) -> set[str]:
    """The legal actions of the piece named ``prefix`` (e.g. ``e4``, ``G``, ``Ta1a2``)."""
    return {a for a in actions(state) if a.startswith(prefix) and a[len(prefix)] in "-x"}


def play(state: FightopiaState, *texts: str) -> FightopiaState:
    for text in texts:
        state.apply_str(state.to_act()[0], text)
    return state


# --- setup and turns -------------------------------------------------------------


def test_start_matches_the_setup_table() -> None:
    state = Fightopia().new_initial_state()
    pieces = {(p["color"], p["kind"], tuple(p["squares"])) for p in state.observation(0)["pieces"]}
    expected = {
        ("white", "giant", ("d1", "e1", "d2", "e2")),
        ("white", "tank", ("a1", "a2")),
        ("white", "tank", ("h1", "h2")),
        ("black", "giant", ("d7", "e7", "d8", "e8")),
        ("black", "tank", ("a7", "a8")),
        ("black", "tank", ("h7", "h8")),
    }
    expected |= {
        ("white", "pawn", (s,)) for s in ["b1", "c1", "c2", "c3", "d3", "e3", "f3", "f2", "f1", "g1"]
    }
    expected |= {
        ("black", "pawn", (s,)) for s in ["b8", "c8", "c7", "c6", "d6", "e6", "f6", "f7", "f8", "g8"]
    }
    assert pieces == expected
    assert state.position() == START


def test_first_player_is_a_fair_chance_event() -> None:
    state = Fightopia().new_initial_state()
    assert state.to_act() == (CHANCE,)
    assert state.chance_outcomes() == [(0, 0.5), (1, 0.5)]
    assert [state.action_to_str(CHANCE, o) for o, _ in state.chance_outcomes()] == [
        "first white",
        "first black",
    ]
    assert len(state.legal_actions(0)) == 0 and len(state.legal_actions(1)) == 0
    black_first = state.clone()
    black_first.apply_str(CHANCE, "first black")
    assert black_first.to_act() == (1,)
    assert black_first.position().endswith(" b 0")
    state.apply_str(CHANCE, "First White")
    assert state.to_act() == (0,)
    assert state.chance_outcomes() == []


def test_players_alternate_one_action_each() -> None:
    state = play(Fightopia().new_initial_state(), "first black", "c6-b5", "c3-b4", "Th7h8-h5h6")
    assert state.to_act() == (0,)
    assert state.ply == 3
    assert state.last == (1, "Th7h8-h5h6")


# --- Pawns ---------------------------------------------------------------------


def test_pawn_steps_one_square_any_direction_into_empty_squares() -> None:
    state = setup("Ga1 Th1h2 e4 d3", "Ga7 Th7h8 e5 Tf5f6")
    # d3 (own Pawn), e5 (enemy Pawn) and f5 (enemy Tank) are occupied.
    assert of(state, "e4") == {"e4-e3", "e4-f3", "e4-d4", "e4-f4", "e4-d5"}


def test_pawn_on_an_edge_does_not_wrap_around() -> None:
    state = setup("Gc1 Tc7c8 a4 h5", "Gd5 Th1h2")
    assert of(state, "a4") == {"a4-a3", "a4-b3", "a4-b4", "a4-a5", "a4-b5"}
    assert of(state, "h5") == {"h5-h4", "h5-g4", "h5-g5", "h5-h6", "h5-g6"}


def test_pawns_kill_nothing() -> None:
    state = setup("Ga1 Th1h2 e4", "Ga7 Th7h8 e5 Td4d5")
    assert all("x" not in a for a in of(state, "e4"))
    with pytest.raises(ActionError, match="Pawns kill nothing"):
        state.parse_action(0, "e4xe5")


# --- Giants --------------------------------------------------------------------


def test_giant_steps_one_square_when_all_new_squares_are_clear() -> None:
    state = setup("Gd4 Ta1a2 c3", "Ga7 Th7h8 f6")
    # NE (e5-f6) is blocked by the enemy Pawn on f6, SW (c3-d4) by the own Pawn on c3; the
    # straight steps overlap squares the Giant leaves, which count as clear.
    assert of(state, "Gd4") == {"Gd4-d5", "Gd4-e4", "Gd4-e3", "Gd4-d3", "Gd4-c4", "Gd4-c5"}


def test_giant_blocked_by_any_single_square() -> None:
    state = setup("Gd4 Ta1a2", "Ga7 Th7h8 e6")
    assert "Gd4-d5" not in of(state, "Gd4")
    assert "Gd4-c5" in of(state, "Gd4")
    with pytest.raises(ActionError, match="e6 is occupied"):
        state.parse_action(0, "Gd4-d5")


def test_giant_stays_on_the_board() -> None:
    state = setup("Ga1 Th1h2", "Ga7 Th7h8")
    assert of(state, "Ga1") == {"Ga1-a2", "Ga1-b2", "Ga1-b1"}
    edge = setup("Gg4 Ta1a2", "Ga7 Th7h8")
    with pytest.raises(ActionError, match="would leave the board"):
        edge.parse_action(0, "Gg4-h4")


def test_giant_kills_an_enemy_tank_sharing_an_edge() -> None:
    # f4-f5 touches e4 along an edge; f6-g6 touches e5 only at a corner; c4-c5 is White's own.
    state = setup("Gd4 Tc4c5", "Ga7 Tf4f5 Tf6g6 d6")
    kills = {a for a in of(state, "Gd4") if "x" in a}
    assert kills == {"Gd4xTf4f5"}
    after = play(state.clone(), "Gd4xTf4f5")
    assert [
        p["squares"] for p in after.observation(0)["pieces"] if p["kind"] == "tank" and p["color"] == "black"
    ] == [["f6", "g6"]]
    assert after.result() is None  # one Tank is left


def test_giant_kills_a_tank_touching_with_its_end() -> None:
    state = setup("Gd4 Ta1a2", "Ga7 Td6d7 Th7h8")
    assert "Gd4xTd6d7" in of(state, "Gd4")


def test_giants_cannot_kill_pawns() -> None:
    state = setup("Gd4 Ta1a2", "Ga7 Th7h8 d6 f4")
    assert {a for a in of(state, "Gd4") if "x" in a} == set()
    with pytest.raises(ActionError, match="Giants cannot kill Pawns"):
        state.parse_action(0, "Gd4xPd6")


def test_giant_is_named_by_its_corner_only() -> None:
    # Another of its squares is refused: a text must mean the same action wherever the Giant is.
    state = setup("Gd4 Ta1a2", "Ga7 Tf4f5 Th7h8")
    assert state.action_to_str(0, state.parse_action(0, "gd4xf5f4")) == "Gd4xTf4f5"
    for text in ("Ge5xTf4f5", "Ge5-e6", "Gd5-d6"):
        with pytest.raises(ActionError, match="name it by its corner d4"):
            state.parse_action(0, text)


# --- Tanks ---------------------------------------------------------------------


def test_tank_moves_one_or_two_squares_along_its_length() -> None:
    state = setup("Ga1 Td3d4", "Ga7 Th7h8")
    assert {a for a in of(state, "Td3d4") if "x" not in a} == {
        "Td3d4-d4d5",
        "Td3d4-d5d6",
        "Td3d4-d2d3",
        "Td3d4-d1d2",
        "Td3d4-c3d3",
        "Td3d4-d3e3",
        "Td3d4-c4d4",
        "Td3d4-d4e4",
    }


def test_tank_move_needs_every_square_clear() -> None:
    # d6 blocks the two-square move north only; d2 blocks both moves south.
    state = setup("Ga1 Td3d4 d2", "Ga7 Th7h8 d6")
    moves = of(state, "Td3d4")
    assert "Td3d4-d4d5" in moves and "Td3d4-d5d6" not in moves
    assert "Td3d4-d2d3" not in moves and "Td3d4-d1d2" not in moves
    with pytest.raises(ActionError, match="d6 is in the way"):
        state.parse_action(0, "Td3d4-d5d6")


def test_lying_tank_moves_along_its_rank_without_wrapping() -> None:
    state = setup("Ga3 Tg1h1", "Ga7 Th7h8")
    assert of(state, "Tg1h1") == {"Tg1h1-f1g1", "Tg1h1-e1f1", "Tg1h1-g1g2", "Tg1h1-h1h2"}


def test_tank_pivots_about_either_end_onto_a_clear_square() -> None:
    state = setup("Ga1 Td3d4 c3", "Ga7 Th7h8 e4")
    pivots = {a for a in of(state, "Td3d4") if a.endswith(("c3d3", "d3e3", "c4d4", "d4e4"))}
    # about d3: c3 (own Pawn) is taken, e3 is clear; about d4: c4 is clear, e4 (enemy Pawn) is taken
    assert pivots == {"Td3d4-d3e3", "Td3d4-c4d4"}
    with pytest.raises(ActionError, match="c3 is occupied"):
        state.parse_action(0, "Td3d4-c3d3")


def test_pivot_sweep_option_needs_the_swept_square_clear() -> None:
    # Turning about d3 towards e3, the d4 end sweeps through e4.
    plain = setup("Ga1 Td3d4", "Ga7 Th7h8 e4")
    swept = setup("Ga1 Td3d4", "Ga7 Th7h8 e4", pivot_sweep=True)
    assert "Td3d4-d3e3" in of(plain, "Td3d4")
    assert "Td3d4-d3e3" not in of(swept, "Td3d4")
    assert "Td3d4-c3d3" in of(swept, "Td3d4")
    with pytest.raises(ActionError, match="sweeps through"):
        swept.parse_action(0, "Td3d4-d3e3")


def test_tank_shoots_the_nearest_enemy_pawn_out_of_either_end() -> None:
    state = setup("Ga1 Td3d4", "Ga7 Th7h8 d6 d7 d1")
    shots = {a for a in of(state, "Td3d4") if "x" in a}
    assert shots == {"Td3d4xd6", "Td3d4xd1"}  # d7 hides behind d6
    after = play(state.clone(), "Td3d4xd1")
    pawns = {p["squares"][0] for p in after.observation(0)["pieces"] if p["kind"] == "pawn"}
    assert pawns == {"d6", "d7"}  # one shot, one Pawn


def test_tank_shots_are_blocked_by_any_piece() -> None:
    # north: an own Pawn on d5 shields d6; south: the enemy Tank on c2-d2 shields d1.
    state = setup("Ga6 Td3d4 d5", "Gf6 Tc2d2 Th7h8 d6 d1")
    assert {a for a in of(state, "Td3d4") if "x" in a} == set()
    with pytest.raises(ActionError, match="d5 is in the way"):
        state.parse_action(0, "Td3d4xd6")


def test_tanks_shoot_only_pawns() -> None:
    # A lying Tank: west the enemy Tank on a5-a6 is first in line, east the enemy Giant.
    state = setup("Ga1 Tc5d5", "Gf4 Ta5a6 Th7h8 e2")
    assert {a for a in of(state, "Tc5d5") if "x" in a} == set()
    with pytest.raises(ActionError, match="shoots only Pawns"):
        state.parse_action(0, "Tc5d5xTa5a6")


def test_lying_tank_shoots_along_the_rank() -> None:
    state = setup("Ga1 Tc5d5", "Ga7 Th7h8 a5 h5 e4")
    assert {a for a in of(state, "Tc5d5") if "x" in a} == {"Tc5d5xa5", "Tc5d5xh5"}


# --- winning, no action, ply limit --------------------------------------------------


def test_giant_reaching_the_far_side_wins() -> None:
    state = setup("Gd6 Ta1a2", "Ga3 Th1h2 c8")
    assert {"Gd6-d7", "Gd6-e7"} <= of(state, "Gd6")
    assert "Gd6-c7" not in of(state, "Gd6")  # c8 is taken
    won = play(state, "Gd6-e7")
    result = won.result()
    assert result is not None and result.winner == 0
    assert "White's Giant reached rank 8" in result.reason
    assert won.to_act() == () and len(won.legal_actions(1)) == 0


def test_black_giant_reaching_rank_one_wins() -> None:
    state = setup("Gf6 Ta7a8", "Gd2 Th7h8", side="b")
    result = play(state, "Gd2-c1").result()
    assert result is not None and result.winner == 1 and "rank 1" in result.reason


def test_killing_both_enemy_tanks_wins() -> None:
    state = setup("Gd4 Ta1a2", "Ga7 Tf4f5 Tc6c7")
    play(state, "Gd4xTf4f5", "Tc6c7-c7c8")
    assert state.result() is None
    play(state, "Gd4-c5", "Ga7-a6")
    assert "Gc5xTc7c8" in actions(state)
    result = play(state, "Gc5xTc7c8").result()
    assert result is not None and result.winner == 0 and result.reason == "Black has no Tanks left"


def test_no_legal_action_is_a_draw() -> None:
    state = Fightopia().state_from_position("7v/4gg1v/4gg2/8/2v5/ppvp4/GGVp4/GGVp4 w 30")
    result = state.result()
    assert result is not None and result.is_draw and result.reason == "White has no legal action"
    assert state.to_act() == ()


def test_ply_limit_draws() -> None:
    state = play(Fightopia(ply_limit=3).new_initial_state(), "first white", "c3-c4", "c6-c5")
    assert state.result() is None
    result = play(state, "c4-b5").result()
    assert result is not None and result.is_draw and result.reason == "ply limit of 3 reached"


@pytest.mark.parametrize(
    ("white", "black", "winner", "why"),
    [
        # More Tanks wins, whatever the Pawns.
        (
            "Gd4 Ta1a2 Th1h2",
            "Ga6 Tc7c8 e7 f7 g7",
            0,
            "White is ahead on material: 2 Tanks and 0 Pawns to 1 Tank and 3 Pawns",
        ),
        # As many Tanks: more Pawns wins.
        (
            "Gd4 Ta1a2 c3",
            "Ga6 Th7h8 e7 f7",
            1,
            "Black is ahead on material: 1 Tank and 2 Pawns to 1 Tank and 1 Pawn",
        ),
        # As many of both: a draw.
        ("Gd4 Ta1a2 c3", "Ga6 Th7h8 e7", None, "material is even"),
    ],
)
def test_limit_result_material_scores_the_ply_limit_by_tanks_then_pawns(
    white: str, black: str, winner: int | None, why: str
) -> None:
    state = setup(white, black, ply=40, ply_limit=40, limit_result="material")
    result = state.result()
    assert result is not None and result.winner == winner
    assert state.observation(0)["limit_result"] == "material"  # the players know how the limit scores
    assert result.reason == f"ply limit of 40 reached; {why}"
    # The same position scored by default: a draw, whatever the material.
    default = setup(white, black, ply=40, ply_limit=40).result()
    assert default is not None and default.is_draw and default.reason == "ply limit of 40 reached"
    # Before the limit the game goes on either way.
    assert setup(white, black, ply=39, ply_limit=40, limit_result="material").result() is None


def test_limit_result_refuses_other_values() -> None:
    with pytest.raises(OptionError, match="limit_result"):
        Fightopia(limit_result="points")


def test_a_win_on_the_last_ply_is_still_a_win() -> None:
    state = setup("Gd6 Ta1a2", "Ga3 Th1h2", ply=9, ply_limit=10)
    result = play(state, "Gd6-d7").result()
    assert result is not None and result.winner == 0


def test_ply_limit_zero_means_none_and_the_default_is_documented() -> None:
    assert Fightopia().options["ply_limit"] == 0  # people playing: no limit
    assert simulation_options("fightopia") == {"ply_limit": DEFAULT_PLY_LIMIT} == {"ply_limit": 2000}
    far = setup("Gd4 Ta1a2", "Ga6 Th7h8", ply=100_000, ply_limit=0)
    assert far.result() is None
    assert setup("Gd4 Ta1a2", "Ga6 Th7h8", ply=2000, ply_limit=2000).result() is not None
    with pytest.raises(OptionError, match="below the minimum"):
        Fightopia(ply_limit=-1)


# --- notation ----------------------------------------------------------------------


DOC_EXAMPLES = [
    ("c3-c4", "Gd1 Ta1a2 c3", "Ga6 Th7h8"),
    ("Gd1-d2", "Gd1 Ta1a2", "Ga6 Th7h8"),
    ("Gd4xTc4c5", "Gd4 Ta1a2", "Gf2 Th7h8 Tc4c5"),
    ("Ta1a2-a3a4", "Gd1 Ta1a2", "Ga6 Th7h8"),
    ("Ta1a2-a2b2", "Gd1 Ta1a2", "Ga6 Th7h8"),
    ("Ta1a2-a2a3", "Gd1 Ta1a2", "Ga6 Th7h8"),
    ("Ta1a2-a1b1", "Gd1 Ta1a2", "Ga6 Th7h8"),
    ("Ta1a2xa6", "Gd1 Ta1a2", "Gf6 Th7h8 a6"),
]


@pytest.mark.parametrize(("text", "white", "black"), DOC_EXAMPLES)
def test_documented_examples_are_legal_and_round_trip(text: str, white: str, black: str) -> None:
    state = setup(white, black)
    action = state.parse_action(0, text)
    assert state.action_to_str(0, action) == text
    assert text in actions(state)
    assert f"`{text}`" in Fightopia.rules_text()  # type: ignore[operator]


@pytest.mark.parametrize(
    ("loose", "canonical"),
    [
        ("P c3 - c4", "c3-c4"),
        ("C3-C4", "c3-c4"),
        ("ta2a1-a4a3", "Ta1a2-a3a4"),
        ("Ta1a2 - T b2a2", "Ta1a2-a2b2"),
        ("Ta2a1xPa6", "Ta1a2xa6"),
        ("g D1 - d2", "Gd1-d2"),
    ],
)
def test_parsing_is_lenient(loose: str, canonical: str) -> None:
    state = setup("Gd1 Ta1a2 c3", "Ga7 Th7h8 a6")
    assert state.action_to_str(0, state.parse_action(0, loose)) == canonical


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("", "not a Fightopia action"),
        ("hello", "not a Fightopia action"),
        ("c3c4c5", "not a Fightopia action"),
        ("i3-i4", "not a Fightopia action"),
        ("c3-c4-c5", "not a Fightopia action"),
        ("Tc3-c4", "two squares"),
        ("Ta1a3-a4a5", "not two neighbouring squares"),
        ("Tg1a2-a3a4", "not two neighbouring squares"),
        ("Gd1d2-d3", "one square"),
        ("Gc5-c6", "your Giant stands on d1-e2"),
        ("Gd1-b1", "a Giant steps one square"),
        ("Gd1xc3", "two squares"),
        ("Ta1a2xTa7a8", "shoots only Pawns"),
        ("c3-c5", "a Pawn steps one square"),
        ("c4-c5", "no Pawn on c4"),
        ("Gd1-d3", "a Giant steps one square"),
        ("Gd1-d2", "d3 is occupied"),
        ("Th1h2-h2h3", "no Tank on h1h2"),
        ("Ta1a2-b1b2", "a Tank moves 1 or 2 squares"),
        ("Ta1a2xb5", "not in line"),
        ("Gd1xTh7h8", "shares no edge"),
        ("Gd1xTa1a2", "no enemy Tank on a1a2"),
    ],
)
def test_bad_actions_give_one_line_errors_and_change_nothing(text: str, why: str) -> None:
    state = setup("Gd1 Ta1a2 c3 d3", "Ga7 Th7h8 a6")
    before = state.position()
    with pytest.raises(ActionError, match=why) as err:
        state.apply_str(0, text)
    assert "\n" not in str(err.value)
    assert state.position() == before


def test_out_of_turn_and_junk_are_refused() -> None:
    state = play(Fightopia().new_initial_state(), "first white")
    with pytest.raises(ActionError, match="not Black's turn"):
        state.parse_action(1, "c6-c5")
    for junk in (None, [1, 2], ("x", 3.5), -98765, "c3-c4", 1.5, True):
        with pytest.raises(ActionError):
            state.apply(0, junk)  # type: ignore[arg-type]  # junk on purpose
    for junk in (200, -1, 5 << 16, (3 << 16) | (127 << 8) | 1):
        with pytest.raises(ActionError, match="not a Fightopia action"):
            state.action_to_str(0, junk)
    chance = Fightopia().new_initial_state()
    for junk in ([1, 2], None, 2, "first white"):
        with pytest.raises(ActionError):
            chance.apply(CHANCE, junk)  # type: ignore[arg-type]  # junk on purpose
    with pytest.raises(ActionError, match="not a chance outcome"):
        chance.parse_action(CHANCE, "first red")
    assert chance.position() == START


def test_every_legal_action_round_trips_on_played_positions() -> None:
    rng = random.Random(7)
    for sweep in (False, True):
        state = Fightopia(pivot_sweep=sweep).new_initial_state()
        state.apply(CHANCE, state.sample_chance(rng))
        while not state.is_terminal() and state.ply < 400:
            player = state.to_act()[0]
            legal = state.legal_actions(player)
            texts = [state.action_to_str(player, a) for a in legal]
            assert len(set(texts)) == len(texts)
            for action, text in zip(legal, texts, strict=True):
                assert state.parse_action(player, text) == action
            state.apply(player, legal.sample(rng))


def test_legal_actions_come_in_increasing_order_on_played_positions() -> None:
    # Seeded games depend on the order (sample draws an index), and the generator makes it
    # without sorting; the board it keeps up to date must match a fresh reading too.
    rng = random.Random(5)
    for sweep in (False, True):
        for _ in range(3):
            state = Fightopia(pivot_sweep=sweep, ply_limit=600).new_initial_state()
            state.apply(CHANCE, state.sample_chance(rng))
            while not state.is_terminal():
                player = state.to_act()[0]
                legal = list(state.legal_actions(player))
                assert legal == sorted(legal) and len(set(legal)) == len(legal)
                other = list(state.generate(1 - player))
                assert other == sorted(other)
                fresh = Fightopia(pivot_sweep=sweep).state_from_position(state.position())
                assert fresh.occupied() == state.occupied()
                state.apply(player, rng.choice(legal))


def test_a_tank_shooting_out_of_both_ends_lists_the_lower_square_first() -> None:
    state = setup("Gd1 Ta3a4", "Gd7 Th7h8 a1 a6")
    shots = [state.action_to_str(0, a) for a in state.legal_actions(0) if "x" in state.action_to_str(0, a)]
    assert shots == ["Ta3a4xa1", "Ta3a4xa6"]


# --- structured actions ---------------------------------------------------------------


def test_every_action_and_chance_outcome_round_trips_through_its_structured_form() -> None:
    rng = random.Random(13)
    kinds: set[str] = set()
    for sweep in (False, True):
        for _ in range(3):
            state = Fightopia(pivot_sweep=sweep, ply_limit=300).new_initial_state()
            while not state.is_terminal():
                player = state.to_act()[0]
                if player == CHANCE:
                    choices = [o for o, _ in state.chance_outcomes()]
                else:
                    choices = list(state.legal_actions(player))
                for action in choices:
                    form = state.action_to_json(player, action)
                    assert json.loads(json.dumps(form)) == form
                    assert state.action_from_json(player, form) == action
                    # The notation and the structured form name the same action.
                    assert state.parse_action(player, state.action_to_str(player, action)) == action
                    kinds.add(str(form["kind"]))
                state.apply(player, rng.choice(choices))
    assert kinds == {"first", "pawn step", "giant step", "giant kill", "tank move", "tank shot"}


def test_structured_forms_name_squares_as_the_notation_does() -> None:
    state = setup("Gd4 Ta1a2 c3", "Ga7 Tc6c5 a6 f6 Th7h8")
    forms = {state.action_to_str(0, a): state.action_to_json(0, a) for a in state.legal_actions(0)}
    assert forms["c3-c4"] == {"kind": "pawn step", "from": "c3", "to": "c4"}
    assert forms["Gd4-d5"] == {"kind": "giant step", "from": "d4", "to": "d5"}
    assert forms["Gd4xTc5c6"] == {"kind": "giant kill", "from": "d4", "kill": ["c5", "c6"]}
    assert forms["Ta1a2-a3a4"] == {"kind": "tank move", "from": ["a1", "a2"], "to": ["a3", "a4"]}
    assert forms["Ta1a2-a2b2"] == {"kind": "tank move", "from": ["a1", "a2"], "to": ["a2", "b2"]}
    assert forms["Ta1a2xa6"] == {"kind": "tank shot", "from": ["a1", "a2"], "kill": "a6"}
    # A Tank's squares may come in either order, as in the notation.
    swapped = {"kind": "tank shot", "from": ["a2", "a1"], "kill": "a6"}
    assert state.action_to_str(0, state.action_from_json(0, swapped)) == "Ta1a2xa6"
    chance = Fightopia().new_initial_state()
    assert [chance.action_to_json(CHANCE, o) for o, _ in chance.chance_outcomes()] == [
        {"kind": "first", "color": "white"},
        {"kind": "first", "color": "black"},
    ]


@pytest.mark.parametrize(
    ("form", "why"),
    [
        ("c3-c4", "not a structured action"),
        (["pawn step", "c3", "c4"], "not a structured action"),
        (None, "not a structured action"),
        ({}, "'kind' must be one of"),
        ({"kind": "pawn"}, "'kind' must be one of"),
        ({"kind": 0, "from": "c3", "to": "c4"}, "'kind' must be one of"),
        ({"kind": "pawn step", "from": "c3"}, "missing 'to'"),
        ({"kind": "pawn step", "from": "c3", "to": "c4", "by": "me"}, "unknown 'by'"),
        ({"kind": "pawn step", "from": "c3", "kill": "c4"}, "missing 'to'"),
        ({"kind": "pawn step", "from": "c3", "to": "c9"}, "'to' must be a square a1 to h8"),
        ({"kind": "pawn step", "from": "C3", "to": "c4"}, "'from' must be a square a1 to h8"),
        ({"kind": "pawn step", "from": 18, "to": "c4"}, "'from' must be a square name"),
        ({"kind": "pawn step", "from": ["c3"], "to": "c4"}, "'from' must be a square name"),
        ({"kind": "giant step", "from": "d1", "to": "d22"}, "'to' must be a square name"),
        ({"kind": "tank move", "from": "a1", "to": ["a3", "a4"]}, "'from' must be a Tank's two squares"),
        ({"kind": "tank move", "from": ["a1", "a2", "a3"], "to": ["a3", "a4"]}, "two squares"),
        ({"kind": "tank move", "from": ("a1", "a2"), "to": ["a3", "a4"]}, "two squares"),
        ({"kind": "tank move", "from": ["a1", "a3"], "to": ["a3", "a4"]}, "not two neighbouring squares"),
        ({"kind": "tank move", "from": ["h1", "a2"], "to": ["a3", "a4"]}, "not two neighbouring squares"),
        ({"kind": "tank shot", "from": ["a1", "a2"], "kill": ["a6", "a7"]}, "'kill' must be a square name"),
        ({"kind": "giant kill", "from": "d1", "kill": "a7"}, "'kill' must be a Tank's two squares"),
        ({"kind": "first", "color": "white"}, "'kind' must be one of"),
        # Well formed, and not legal here: the legality check says why.
        (
            {"kind": "pawn step", "from": "c3", "to": "c5"},
            "'c3-c5' is not legal now: a Pawn steps one square",
        ),
        ({"kind": "pawn step", "from": "c4", "to": "c5"}, "no Pawn on c4"),
        ({"kind": "giant step", "from": "d1", "to": "d2"}, "d3 is occupied"),
        ({"kind": "giant step", "from": "c1", "to": "c2"}, "your Giant stands on d1-e2"),
        ({"kind": "giant kill", "from": "d1", "kill": ["h7", "h8"]}, "shares no edge"),
        ({"kind": "tank move", "from": ["a1", "a2"], "to": ["b1", "b2"]}, "a Tank moves 1 or 2 squares"),
        ({"kind": "tank shot", "from": ["a1", "a2"], "kill": "b5"}, "not in line"),
    ],
)
def test_bad_structured_forms_give_one_line_errors_and_change_nothing(form: object, why: str) -> None:
    state = setup("Gd1 Ta1a2 c3 d3", "Ga7 Th7h8 a6")
    before = state.position()
    with pytest.raises(ActionError, match=re.escape(why)) as err:
        state.apply(0, state.action_from_json(0, form))
    assert "\n" not in str(err.value)
    assert state.position() == before


def test_structured_chance_outcomes_and_turns_are_checked() -> None:
    chance = Fightopia().new_initial_state()
    assert chance.action_from_json(CHANCE, {"kind": "first", "color": "black"}) == 1
    for form, why in (
        ({"kind": "first", "color": "red"}, "'color' is 'white' or 'black'"),
        ({"kind": "first", "color": 0}, "'color' is 'white' or 'black'"),
        ({"kind": "first", "color": "white", "seed": 1}, "not a chance outcome"),
        ({"kind": "pawn step", "from": "c3", "to": "c4"}, "not a chance outcome"),
    ):
        with pytest.raises(ActionError, match=re.escape(why)):
            chance.action_from_json(CHANCE, form)
    with pytest.raises(ActionError, match="not White's turn"):
        chance.action_from_json(0, {"kind": "pawn step", "from": "c3", "to": "c4"})
    state = play(chance, "first black")
    with pytest.raises(ActionError, match="not White's turn"):
        state.action_from_json(0, {"kind": "pawn step", "from": "c3", "to": "c4"})
    with pytest.raises(ActionError, match="not a Fightopia action"):
        state.action_to_json(1, 5 << 16)


# --- one legality predicate -------------------------------------------------------------


def test_is_legal_agrees_with_the_legal_lists_and_explain_names_a_reason_for_every_refusal() -> None:
    # The fast is_legal against the core's list-reading one (the oracle), on the legal actions,
    # actions legal elsewhere (earlier positions, the other side's), the other player's, and junk.
    from tussle.game import State

    rng = random.Random(21)
    junk: list[Any] = [None, "c3-c4", 1.5, -1, 1 << 24, (0, 18, 26), [18, 26], 0, 2, 200]
    seen: list[int] = []
    checked = refused = 0
    for sweep in (False, True):
        for _ in range(3):
            state = Fightopia(pivot_sweep=sweep, ply_limit=200).new_initial_state()
            while True:
                acting = state.to_act()
                others = list(state.generate(1 - state.side)) if state.side >= 0 else []
                legal = list(state.legal_actions(state.side)) if state.side >= 0 else []
                candidates = legal + others + rng.sample(seen, min(len(seen), 40)) + junk
                for player in (0, 1, CHANCE):
                    for action in candidates:
                        if player == CHANCE and type(action) is not int:
                            continue  # the oracle compares with ==, and True == 1 is no outcome
                        fast = state.is_legal(player, action)
                        assert fast == State.is_legal(state, player, action), (
                            state.position(),
                            player,
                            action,
                        )
                        checked += 1
                        if player not in acting or player == CHANCE or type(action) is not int:
                            continue
                        why = state.explain(player, action)
                        try:
                            state.action_to_str(player, action)
                        except ActionError:
                            continue  # no action of this game: nothing to explain
                        assert (why == "") == fast, (
                            state.position(),
                            state.action_to_str(player, action),
                            why,
                        )
                        refused += not fast
                        assert "\n" not in why
                if not acting:
                    break
                player = acting[0]
                choice = state.sample_chance(rng) if player == CHANCE else rng.choice(legal)
                seen += legal[:5]
                state.apply(player, choice)
    assert checked > 50_000 and refused > 5_000


# --- positions -----------------------------------------------------------------------


def test_position_round_trips_on_played_positions_including_finished_ones() -> None:
    rng = random.Random(11)
    ends = 0
    for _ in range(6):
        state = Fightopia().new_initial_state()
        while True:
            text = state.position()
            again = Fightopia().state_from_position(text)
            assert again.position() == text
            assert again.to_act() == state.to_act()
            assert again.result() == state.result()
            assert set(again.legal_actions(state.side)) == set(state.legal_actions(state.side))
            if state.is_terminal():
                ends += 1
                break
            player = state.to_act()[0]
            if player == CHANCE:
                state.apply(CHANCE, state.sample_chance(rng))
            else:
                state.apply(player, state.legal_actions(player).sample(rng))
    assert ends == 6


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("", "a position is"),
        ("8/8/8 w 0", "needs 8 ranks"),
        ("vppggppv/v1pggp1v/2pppp2/8/8/2PPPP2/V1PGGP1V/VPPGGPPV w", "a position is"),
        ("vppggppv/v1pggp1v/2pppp2/8/9/2PPPP2/V1PGGP1V/VPPGGPPV w 0", "rank 4 covers 9 squares"),
        ("vppggppv/v1pggp1v/2pppp2/8/7/2PPPP2/V1PGGP1V/VPPGGPPV w 0", "rank 4 covers 7 squares"),
        ("vppggppv/v1pggp1v/2pppp2/8/K7/2PPPP2/V1PGGP1V/VPPGGPPV w 0", "rank 4 has 'K'"),
        ("vppggppv/v1pggp1v/2pppp2/8/8/2PPPP2/V1P2P1V/VPP2PPV w 0", "White needs exactly one Giant"),
        ("vppggppv/v1pggp1v/2pppp2/8/8/2PPPP2/V1P2P1V/VPGGGGPV w 0", "White needs exactly one Giant"),
        ("vppggppv/v1pggp1v/2pppp2/gg6/gg6/2PPPP2/V1PGGP1V/VPPGGPPV w 0", "Black needs exactly one Giant"),
        ("vppggppv/v1pggp1v/2pppp2/8/8/2PPPP2/2PGGP1V/VPPGGPPV w 0", "half a Tank on a1"),
        ("vppggppv/v1pggp1v/2pppp2/8/H7/2PPPP1H/V1PGGP1V/VPPGGPPV w 0", "half a Tank on h3"),
        ("vppggppv/v1pggp1v/2pppp2/8/7V/2PPPP1V/V1PGGP1V/VPPGGPPV w 0", "White has 3 Tanks"),
        ("vppggppv/v1pggp1v/2pppp2/8/P7/2PPPP2/V1PGGP1V/VPPGGPPV w 0", "White has 11 Pawns"),
        ("vppggppv/v1pggp1v/2pppp2/8/8/2PPPP2/V1PGGP1V/VPPGGPPV x 0", "side to move"),
        ("vppggppv/v1pggp1v/2pppp2/8/8/2PPPP2/V1PGGP1V/VPPGGPPV w -1", "ply count"),
        ("vppggppv/v1pggp1v/2pppp2/8/8/2PPPP2/V1PGGP1V/VPPGGPPV - 4", "needs 0 plies"),
        ("3GG3/3GG3/8/8/8/3gg3/V2gg2v/V6v w 9", "White's Giant reached rank 8, so White has won"),
        ("4gg2/4gg2/8/8/8/8/V2GG3/V2GG3 w 0", "Black has no Tanks left, so White has won"),
        ("3GG3/3GG3/8/8/8/3gg3/V2gg2v/V6v - 0", "before anybody has moved"),
    ],
)
def test_bad_positions_give_one_line_errors(text: str, why: str) -> None:
    with pytest.raises(PositionError, match=why) as err:
        Fightopia().state_from_position(text)
    assert "\n" not in str(err.value)


def test_finished_positions_are_read_with_their_result() -> None:
    won = Fightopia().state_from_position("3GG3/3GG3/8/8/8/3gg3/V2gg2v/V6v b 9")
    result = won.result()
    assert result is not None and result.winner == 0
    assert won.position() == "3GG3/3GG3/8/8/8/3gg3/V2gg2v/V6v b 9"
    lost = Fightopia().state_from_position("4gg1v/4gg1v/8/8/8/8/3GG3/3GG3 w 5")
    result = lost.result()
    assert result is not None and result.winner == 1 and result.reason == "White has no Tanks left"


def test_tank_runs_split_one_way() -> None:
    # Four standing halves on one file are two Tanks, bottom pair first.
    state = Fightopia().state_from_position("4gg2/4gg2/8/V7/V7/V7/V2GG2v/3GG2v w 0")
    tanks = [
        p["squares"] for p in state.observation(0)["pieces"] if p["kind"] == "tank" and p["color"] == "white"
    ]
    assert tanks == [["a2", "a3"], ["a4", "a5"]]


# --- proof of correctness: perft and the reference generator ------------------------------


def perft_cases() -> list[dict[str, Any]]:
    cases: list[dict[str, Any]] = json.loads(PERFT.read_text())["positions"]
    return cases


@pytest.mark.parametrize("case", perft_cases(), ids=lambda c: c["name"])
def test_perft_table(case: dict[str, Any]) -> None:
    state = Fightopia(ply_limit=0, **case["options"]).state_from_position(case["position"])
    assert [perft(state, d) for d in range(1, len(case["perft"]) + 1)] == case["perft"]


@pytest.mark.parametrize("case", perft_cases(), ids=lambda c: c["name"])
def test_reference_generator_agrees_with_the_perft_table(case: dict[str, Any]) -> None:
    board = ref.read(case["position"])
    sweep = case["options"]["pivot_sweep"]
    assert [ref.perft(board, d, sweep) for d in range(1, min(2, len(case["perft"])) + 1)] == case["perft"][:2]


def test_perft_table_covers_every_kind_of_action() -> None:
    seen = set()
    for case in perft_cases():
        state = Fightopia(ply_limit=0, **case["options"]).state_from_position(case["position"])
        for text in actions(state) if not state.is_terminal() else ():
            if text[0] == "G":
                seen.add("giant kill" if "x" in text else "giant step")
            elif text[0] == "T":
                src, _, dst = text[1:].partition("-")
                if "x" in text:
                    seen.add("tank shot")
                elif (src[0] == src[2]) == (dst[0] == dst[2]):
                    seen.add("tank move")
                else:
                    seen.add("tank pivot")
            else:
                seen.add("pawn step")
    assert seen == {"pawn step", "giant step", "giant kill", "tank move", "tank pivot", "tank shot"}


def compare_with_reference(state: FightopiaState, sweep: bool) -> None:
    """Both generators give the same actions; every action leads to the same position."""
    text = state.position()
    board = ref.read(text)
    assert ref.write(board) == text
    fast = actions(state) if not state.is_terminal() else set()
    assert fast == ref.moves(board, sweep), text
    if fast:
        player = state.to_act()[0]
        for action in state.legal_actions(player):
            child = state.clone()
            child.apply(player, action)
            expected = ref.write(ref.play(board, state.action_to_str(player, action)))
            assert child.position() == expected, (text, state.action_to_str(player, action))
            result = child.result()
            won = result is not None and result.winner is not None
            assert won == (ref.winner(ref.read(expected)) is not None)


def test_reference_generator_agrees_on_thousands_of_played_positions() -> None:
    checked = 0
    for sweep in (False, True):
        game = Fightopia(pivot_sweep=sweep)
        for seed in range(2):
            rng = random.Random(seed)
            state = game.new_initial_state()
            state.apply(CHANCE, state.sample_chance(rng))
            while True:
                if state.ply % 10 == 0 or state.is_terminal():
                    compare_with_reference(state, sweep)
                else:  # cheaper: the action lists only
                    assert actions(state) == ref.moves(ref.read(state.position()), sweep)
                checked += 1
                if state.is_terminal():
                    break
                state.apply(state.side, state.legal_actions(state.side).sample(rng))
    assert checked >= 2500, checked


def random_position(rng: random.Random) -> str | None:
    """Pieces dropped at random (not reached by play): Tanks in odd places, edges, crowds."""
    taken: set[tuple[int, int]] = set()
    pieces = []

    def drop(color: str, kind: str, shape: list[tuple[int, int]]) -> None:
        for _ in range(50):
            f, r = rng.randrange(8), rng.randrange(8)
            squares = [(f + df, r + dr) for df, dr in shape]
            if all(ref.on_board(s) and s not in taken for s in squares):
                taken.update(squares)
                pieces.append(ref.Piece(color, kind, squares))
                return

    for color in ("w", "b"):
        drop(color, "giant", [(0, 0), (1, 0), (0, 1), (1, 1)])
    for color in ("w", "b"):
        for _ in range(rng.choice((1, 2, 2, 2))):
            drop(color, "tank", rng.choice([[(0, 0), (0, 1)], [(0, 0), (1, 0)]]))
        for _ in range(rng.randrange(11)):
            drop(color, "pawn", [(0, 0)])
    if len([p for p in pieces if p.kind == "giant"]) < 2:
        return None
    text = ref.write(ref.Board(pieces, rng.choice("wb"), rng.randrange(100)))
    return text if ref.winner(ref.read(text)) is None else None


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32), st.booleans())
def test_reference_generator_agrees_on_random_placements(seed: int, sweep: bool) -> None:
    text = random_position(random.Random(seed))
    if text is None:
        return
    state = Fightopia(pivot_sweep=sweep, ply_limit=0).state_from_position(text)
    assert state.position() == text
    compare_with_reference(state, sweep)


# --- the RL encoding's shortcuts ----------------------------------------------------------

#: Options that change the positions reached (pivot_sweep), the ply feature's scale and the
#: endings (ply_limit, limit_result); 0 has no limit, so its games are cut short by the test.
ENCODING_OPTIONS: list[dict[str, Any]] = [
    {"ply_limit": 120},
    {"ply_limit": 90, "limit_result": "material"},
    {"ply_limit": 150, "pivot_sweep": True},
    {"ply_limit": 0, "pivot_sweep": True},
]

FINISHED = (
    "3GG3/3GG3/8/8/8/3gg3/V2gg2v/V6v b 9",
    "8/8/2gg4/2gg4/8/8/V2GG3/V2GG3 b 12",
    "7v/4gg1v/4gg2/8/2v5/ppvp4/GGVp4/GGVp4 w 30",
)


def encoding_states(options: dict[str, Any], games: int, seed: int) -> list[FightopiaState]:
    """Every state of seeded random games (the undrawn start and the ends too), then random placements."""
    game = Fightopia(**options)
    rng = random.Random(seed)
    # Finished whatever the limit: a Giant home, no Tanks left, no legal action.
    states = [game.state_from_position(text) for text in FINISHED]
    for _ in range(games):
        state = game.new_initial_state()
        states.append(state.clone())
        while not state.is_terminal() and state.ply < 400:
            player = state.to_act()[0]
            choice = state.sample_chance(rng) if player == CHANCE else state.legal_actions(player).sample(rng)
            state.apply(player, choice)
            states.append(state.clone())
    placed = 0
    while placed < 100:  # plies 0 to 99: past a low limit too, where the game is over
        text = random_position(rng)
        if text is not None:
            states.append(game.state_from_position(text))
            placed += 1
    return states


@pytest.mark.parametrize("options", ENCODING_OPTIONS, ids=str)
def test_the_observation_array_written_from_the_state_is_the_one_written_from_the_observation(
    options: dict[str, Any],
) -> None:
    # FightopiaFeatures.write_state reads the bitboards for speed; it must give exactly the
    # array written from the observation, for both players, chance and the public view.
    np = pytest.importorskip("numpy")
    from tussle.adapters.encoding import Features, encoding_for

    features = encoding_for(load_game("fightopia", **options)).features
    assert type(features).write_state is not Features.write_state  # the shortcut is what is tested
    states = encoding_states(options, games=4, seed=7)
    for state in states:
        for player in (0, 1, CHANCE, PUBLIC):
            slow = np.zeros(features.size, dtype=np.float32)
            fast = np.zeros(features.size, dtype=np.float32)
            features.write(state.observation(player), player, slow)
            features.write_state(state, player, fast)
            assert np.array_equal(fast, slow), (state.position(), player)
    over = [s for s in states if s.is_terminal()]
    assert len(states) >= 300 and len(over) >= (7 if options["ply_limit"] else 3)
    assert {s.side for s in states} == {-1, 0, 1}
    # Any float array, a strided view included, is written as the observation's.
    state = states[len(states) // 2]
    for out in (np.zeros(2 * features.size, dtype=np.float32)[::2], np.zeros(features.size)):
        expected = np.zeros(features.size, dtype=out.dtype)
        features.write(state.observation(1), 1, expected)
        features.write_state(state, 1, out)
        assert np.array_equal(out, expected) and out.any()


@pytest.mark.parametrize("options", ENCODING_OPTIONS[:3], ids=str)
def test_the_encoding_numbers_legal_actions_as_the_general_way_does(options: dict[str, Any]) -> None:
    # GameEncoding.legal numbers the moves in one pass over the numbers the codec keeps:
    # the same as numbering them one by one.
    pytest.importorskip("numpy")
    from tussle.adapters.encoding import LegalMap, encoding_for

    encoding = encoding_for(load_game("fightopia", **options))
    checked = 0
    for state in encoding_states(options, games=2, seed=3):
        for player in (0, 1):
            by_one = {encoding.codec.action_index(state, player, a): a for a in state.legal_actions(player)}
            fast, slow = encoding.legal(state, player), LegalMap(sorted(by_one), player, actions=by_one)
            assert fast.indices == slow.indices
            assert [fast.action(state, i) for i in fast.indices] == [
                slow.action(state, i) for i in slow.indices
            ]
            numbers = [encoding.codec.action_index(state, player, a) for a in state.legal_actions(player)]
            assert numbers == [
                encoding.codec.encode(state.action_to_str(player, a)) for a in state.legal_actions(player)
            ]
            checked += len(fast)
    assert checked > 5000


def test_two_moves_on_one_number_are_caught_by_the_quick_numbering_too() -> None:
    pytest.importorskip("numpy")
    from tussle.adapters.encoding import EncodingError, GameEncoding
    from tussle.games.fightopia.encoding import FightopiaCodec, FightopiaFeatures

    class Collapsing(FightopiaCodec):
        def _encode(self, text: str) -> int:
            return 0

    game = Fightopia()
    encoding = GameEncoding(game, Collapsing(), FightopiaFeatures(0))
    state = play(game.new_initial_state(), "first black")
    for _ in range(2):  # numbering the moves, then with the numbers kept
        with pytest.raises(EncodingError, match="share action index 0"):
            encoding.legal(state, 1)


# --- views, rendering, records ---------------------------------------------------------


def test_observation_is_plain_data_and_complete() -> None:
    state = play(Fightopia().new_initial_state(), "first black", "c6-c5")
    obs = state.observation(0)
    assert json.loads(json.dumps(obs)) == obs
    assert obs["to_move"] == "white" and obs["ply"] == 1
    assert obs["last"] == {
        "player": "black",
        "action": "c6-c5",
        "move": {"kind": "pawn step", "from": "c6", "to": "c5"},
    }
    assert play(Fightopia().new_initial_state(), "first white").observation(1)["last"] == {
        "player": "chance",
        "action": "first white",
        "move": {"kind": "first", "color": "white"},
    }
    assert obs["position"] == state.position()
    assert len(obs["pieces"]) == 26
    assert state.observation(1)["pieces"] == obs["pieces"]  # nothing is hidden


def test_render_shows_coordinates_pieces_and_turn() -> None:
    state = play(Fightopia().new_initial_state(), "first white")
    text = state.render()
    lines = text.splitlines()
    assert lines[0].startswith("Fightopia") and "White to move" in lines[0]
    assert lines[1].split() == list("abcdefgh")
    assert lines[2].split() == ["8", "t", "p", "p", "g---g", "p", "p", "t", "8"]
    assert lines[3].split() == ["|", "|", "|", "|"]  # the Tanks and the Giant stand two squares tall
    assert lines[-4].split() == ["1", "T", "P", "P", "G---G", "P", "P", "T", "1"]
    flipped = state.observation_text(1).splitlines()
    assert flipped[1].split() == list("hgfedcba")
    assert flipped[2].split()[0] == "1"
    over = Fightopia().state_from_position("3GG3/3GG3/8/8/8/3gg3/V2gg2v/V6v b 9")
    assert over.render().splitlines()[-1] == "White wins: White's Giant reached rank 8"


def test_lying_tank_is_drawn_joined() -> None:
    text = setup("Ga1 Tc5d5", "Ga7 Th7h8").render()
    assert " T---T " in text


def test_records_replay() -> None:
    game = load_game("fightopia", ply_limit=300)
    agents = [make_agent("rule", game, 0, seed=1), make_agent("random", game, 1, seed=2)]
    state, record = play_game(game, agents, seed=3)
    again = Record.loads(record.dumps())
    assert again.events[0] == (CHANCE, record.events[0][1])
    assert again.final_state().position() == state.position()


def test_game_from_a_position_is_recorded_with_it() -> None:
    game = load_game("fightopia", ply_limit=200)
    start = game.state_from_position("4gg2/4gg2/8/8/8/3GG3/V2GG2v/V6v w 0")
    agents = [make_agent("rule", game, p, seed=p) for p in (0, 1)]
    state, record = play_game(game, agents, state=start)
    assert record.position == "4gg2/4gg2/8/8/8/3GG3/V2GG2v/V6v w 0"
    assert Record.loads(record.dumps()).final_state().position() == state.position()


# --- the rule-of-thumb agent ---------------------------------------------------------------


def test_agent_uses_only_the_player_view() -> None:
    tree = ast.parse(inspect.getsource(agent_module))
    imported = [node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module]
    imported += [
        alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names
    ]
    # The game's pure parts (the evaluation, the board's geometry) and nothing of its rules or states.
    allowed = {"tussle.games.fightopia.evaluation", "tussle.games.fightopia.board"}
    assert not [name for name in imported if name.startswith("tussle.games") and name not in allowed]
    assert "tussle.games.fightopia.evaluation" in imported  # the one evaluation, the search's too


def test_agent_takes_a_win_in_one() -> None:
    state = Fightopia().state_from_position("2p2v2/2PGGv2/3GG3/3pp3/gg6/gg6/1P6/HH5p w 40")
    for seed in range(3):
        agent = FightopiaRuleAgent(state.game, 0, seed=seed)
        child = state.clone()
        child.apply(0, agent.act(PlayerView(state, 0)))
        result = child.result()
        assert result is not None and result.winner == 0


def test_agent_does_not_open_the_road_to_its_back_rank() -> None:
    # Black's Giant stands on d2-e3, its own Pawns block c1 and f1: only White's Pawn on d1
    # keeps it off rank 1, and stepping to c2 would let it through.
    state = setup("Gf5 Ta7a8 d1", "Gd2 Th3h4 Tg1h1 c1 f1", side="w")
    unsafe = set()
    for action in state.legal_actions(0):
        child = state.clone()
        child.apply(0, action)
        for reply in child.legal_actions(1):
            after = child.clone()
            after.apply(1, reply)
            result = after.result()
            if result is not None and result.winner == 1:
                unsafe.add(state.action_to_str(0, action))
    assert unsafe == {"d1-c2"}
    for seed in range(6):
        agent = FightopiaRuleAgent(state.game, 0, seed=seed)
        choice = state.action_to_str(0, agent.act(PlayerView(state, 0)))
        assert choice not in unsafe


def test_evaluation_prefers_material_and_progress() -> None:
    base = setup("Gd3 Ta1a2 Th1h2", "Gd6 Ta7a8 Th7h8", side="b")
    down_a_tank = setup("Gd3 Ta1a2", "Gd6 Ta7a8 Th7h8", side="b")
    ahead = setup("Gd4 Ta1a2 Th1h2", "Gd6 Ta7a8 Th7h8", side="b")
    assert evaluate(down_a_tank.observation(0), 0) < evaluate(base.observation(0), 0)
    assert evaluate(ahead.observation(0), 0) > evaluate(base.observation(0), 0)
    assert evaluate(base.observation(1), 1) == pytest.approx(-evaluate(base.observation(0), 0))


def test_rule_agent_beats_random() -> None:
    games = list(run_match("fightopia", ["rule", "random"], 8, seed=5, options={"ply_limit": 300}))
    wins = sum(1 for g in games if g.ranking == (1, 2))
    losses = sum(1 for g in games if g.ranking == (2, 1))
    assert wins >= 7 and losses == 0, (wins, losses)


def test_every_action_is_told_in_words() -> None:
    from tussle.games.fightopia.render import describe_action

    rng = random.Random(4)
    for _ in range(3):
        state = Fightopia(ply_limit=300).new_initial_state()
        while not state.is_terminal():
            player = state.to_act()[0]
            if player == CHANCE:
                state.apply(CHANCE, state.sample_chance(rng))
                continue
            for action in state.legal_actions(player):
                text = state.action_to_str(player, action)
                words = describe_action(("white", "black")[player], text)
                assert text not in words or "Pawn stepped" in words, words
            state.apply(player, state.legal_actions(player).sample(rng))
        assert "Last: " in state.observation_text(0) and "'s " in state.observation_text(0)
