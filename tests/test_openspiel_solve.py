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


#: The small Robo Battle Pigs of docs/ecosystem.md (scripts/cfr_convergence.py): a 4x4 board, B
#: one square ahead of A with its back turned, programs of one command, the first hit wins, two
#: rounds; in turns.
SMALL_PIGS: dict[str, Any] = {
    "turns": True,
    "board": 'size = [4, 4]\nwalls = []\na = "c4S"\nb = "c2S"',
    "program_length": 1,
    "damage_limit": 1,
    "round_limit": 2,
}


def _round_by_round_value(state: Any, known: dict[str, float] | None = None) -> float:
    """Pig A's value by backward induction: each round a zero-sum matrix game solved by LP.

    Both programs are revealed when a round is played, so the game is a sequence of
    one-shot matrix games; this solves it without OpenSpiel (once per position).
    """
    import numpy as np
    from scipy.optimize import linprog

    if state.result() is not None:
        return float(state.result().returns[0])
    known = {} if known is None else known
    if state.position() in known:
        return known[state.position()]
    mine, theirs = list(state.legal_actions(0)), list(state.legal_actions(1))
    payoff = np.zeros((len(mine), len(theirs)))
    for i, a in enumerate(mine):
        for j, b in enumerate(theirs):
            child = state.clone()
            child.apply(0, a)
            child.apply(1, b)
            payoff[i, j] = _round_by_round_value(child, known)
    # max v subject to: for every reply j, sum_i x_i payoff[i, j] >= v; x a distribution.
    m, n = payoff.shape
    cost = np.zeros(m + 1)
    cost[-1] = -1.0
    upper = np.hstack([-payoff.T, np.ones((n, 1))])
    total = np.hstack([np.ones((1, m)), np.zeros((1, 1))])
    bounds = [(0.0, None)] * m + [(None, None)]
    solved = linprog(cost, A_ub=upper, b_ub=np.zeros(n), A_eq=total, b_eq=[1.0], bounds=bounds)
    value = known[state.position()] = float(-solved.fun)
    return value


def test_cfr_converges_on_the_small_robo_pigs_to_its_value() -> None:
    tussle_options = {k: v for k, v in SMALL_PIGS.items() if k != "turns"}
    game = load_game("robo-pigs", **tussle_options)
    exact = _round_by_round_value(game.new_initial_state())
    assert exact == pytest.approx(1 / 3, abs=1e-9)  # A's laser against B's dodge, then a round more
    copy = native_copy(og.load("robo-pigs", **SMALL_PIGS))
    plain = solve(copy, 50, "cfr")
    assert plain.exploitability[-1] < 0.01
    plus = solve(copy, 100, "cfr+")
    assert plus.exploitability[-1] < 0.002
    assert abs(plus.value - exact) < 0.002
    assert abs(plain.value - exact) < 0.01
