"""OpenSpiel's CFR and CFR+ on a FITE small enough to solve, against tussle's own FITE solver."""

from __future__ import annotations

from typing import Any

import pyspiel  # type: ignore[import-not-found]
import pytest
from open_spiel.python.algorithms import cfr, exploitability  # type: ignore[import-untyped]

from tussle import load_game
from tussle.adapters import openspiel_game as og
from tussle.adapters.openspiel_solve import native_copy, solve
from tussle.errors import OptionError
from tussle.games.fite.solver import cut_values

#: The small FITE of docs/ecosystem.md (scripts/cfr_convergence.py): one turn, 1 die against 1 in
#: each pool, no tactical step, B with Brutal; in turns, for OpenSpiel's sequential solvers.
SMALL_FITE: dict[str, Any] = {
    "turns": True,
    "dice": 2,
    "turn_limit": 1,
    "setup_placement": False,
    "tactical": False,
    "power_b": "brutal",
}
#: The small FITE's state in the solver's terms: 2 dice each, B with Brutal unused.
KEY = (2, 2, "none", "brutal")


@pytest.fixture(scope="module")
def small_fite() -> Any:
    return native_copy(og.load("fite", **SMALL_FITE))


def test_the_small_fite_is_small_and_the_standard_game_unchanged(small_fite: Any) -> None:
    state = og.load("fite", **SMALL_FITE).new_initial_state().tussle_state
    assert [f["dice"] for f in state.observation(0)["fighters"]] == [2, 2]
    standard = og.load("fite").new_initial_state().tussle_state
    assert [f["dice"] for f in standard.observation(0)["fighters"]] == [9, 9]
    assert load_game("fite").non_default_options() == {}  # a record of it names no new option
    assert small_fite.num_players() == 2


def test_cfr_converges_on_the_small_fite_to_the_solvers_value(small_fite: Any) -> None:
    exact = cut_values([(2, 2, "none", "none"), KEY], SMALL_FITE["turn_limit"], tactical=False)[KEY]
    assert exact == pytest.approx(-11 / 72)
    plain = solve(small_fite, 10, "cfr")
    assert plain.exploitability[-1] < 0.01
    plus = solve(small_fite, 20, "cfr+")
    assert plus.exploitability[-1] < 0.001
    # The average policy's value is the game's to within what a best reply can gain.
    assert abs(plus.value - exact) < 0.001
    assert abs(plain.value - exact) < 0.02


def test_the_copy_is_the_same_game_as_the_python_one() -> None:
    # A game small enough for OpenSpiel's Python CFR on the Python game itself: the same
    # policies, iteration by iteration, give the same exploitability on the copy.
    game = og.load("fightopia", ply_limit=2, limit_result="material")
    copy = native_copy(game)
    solver = cfr.CFRSolver(game)
    native = pyspiel.CFRSolver(copy)
    for _ in range(2):
        solver.evaluate_and_update_policy()
        native.evaluate_and_update_policy()
        assert exploitability.exploitability(game, solver.average_policy()) == pytest.approx(
            pyspiel.exploitability(copy, native.average_policy()), abs=1e-9
        )


def test_a_copy_needs_turns_and_a_small_game() -> None:
    with pytest.raises(OptionError, match="load a simultaneous game with turns=True"):
        native_copy(og.load("fite", dice=2, turn_limit=1))
    with pytest.raises(OptionError, match="too large to copy"):
        native_copy(og.load("fite", turns=True, dice=2, turn_limit=1), max_nodes=1000)
    with pytest.raises(OptionError, match="solver must be one of"):
        solve(native_copy(og.load("fightopia", ply_limit=1)), 1, "cfr++")
