"""Small tussle games solved with OpenSpiel's CFR and CFR+: a native copy of the game tree.

OpenSpiel's tabular solvers (``CFRSolver``, ``CFRPlusSolver``, best response,
exploitability) walk the whole game tree at every iteration. Walked through
a Python game, a tree of 100,000 nodes takes seconds an iteration; copied
once into OpenSpiel's own extensive-form game (``pyspiel.load_efg_game``, the
Gambit ``.efg`` format) it takes a few milliseconds. :func:`native_copy` makes
that copy: it walks the tussle pyspiel game once and writes every node as it
is (chance outcomes with their probabilities, each decision with the
player's information state, the returns at the end), so that the copy is the
same game: the same players, information sets, chance and payoffs.

:func:`solve` then runs CFR (Zinkevich et al., 2007) or CFR+ (Tammelin, 2014)
on it and records the exploitability of the average policy as it goes.

>>> from tussle.adapters import openspiel_game as og
>>> game = og.load("fightopia", ply_limit=2, limit_result="material")
>>> copy = native_copy(game)
>>> copy.num_players(), copy.get_type().dynamics.name
(2, 'SEQUENTIAL')
"""

from __future__ import annotations

from tussle.adapters import require

require(__name__, "openspiel", "numpy", "pyspiel")

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import pyspiel  # type: ignore[import-not-found]

from tussle.adapters.openspiel_resample import _copy, replayed
from tussle.errors import OptionError
from tussle.game import CHANCE

#: The most nodes :func:`native_copy` copies: past it the game is no small game.
MAX_NODES = 2_000_000


def native_copy(game: Any, max_nodes: int = MAX_NODES) -> Any:
    """``game`` (a sequential pyspiel game) copied into OpenSpiel's own extensive-form game.

    A simultaneous game must be loaded in turns first (``og.load(..., turns=True)``).
    The information sets are those of ``information_state_string``, numbered
    in the order first met; the action labels are the game's action numbers.
    """
    if game.get_type().dynamics != pyspiel.GameType.Dynamics.SEQUENTIAL:
        raise OptionError("a native copy needs turns: load a simultaneous game with turns=True")
    n = game.num_players()
    infosets: list[dict[str, int]] = [{} for _ in range(n)]
    # The title is the game's name, parameters and all: a document parameter (a board) brings
    # quotes and line breaks that the format's quoted string cannot hold.
    title = " ".join(str(game).replace('"', "'").split())
    lines = [f'EFG 2 R "{title}" {{ {" ".join(f"{chr(34)}p{p}{chr(34)}" for p in range(n))} }}', '""']
    counts = {"chance": 0, "terminal": 0, "nodes": 0}

    def walk(core: Any) -> None:
        # The tussle state behind the pyspiel one, copied and played on directly: chance and
        # the end read as the pyspiel state reads them; decisions asked of a pyspiel state.
        counts["nodes"] += 1
        if counts["nodes"] > max_nodes:
            raise OptionError(f"{game}: more than {max_nodes} nodes, too large to copy")
        state = core.state
        if state.is_terminal():
            counts["terminal"] += 1
            result = state.result()
            returns = " ".join(repr(float(r)) for r in result.returns)
            lines.append(f't "" {counts["terminal"]} "" {{ {returns} }}')
            return
        if state.is_chance():
            counts["chance"] += 1
            encoding = core.encoding
            if encoding.keeps_pairs:
                outcomes = list(encoding.chance_pairs(state))
            else:
                outcomes = [(index, prob) for index, prob, _ in core.chance()]
            body = " ".join(f'"{a}" {p!r}' for a, p in outcomes)
            lines.append(f'c "" {counts["chance"]} "" {{ {body} }} 0')
            actor = CHANCE
            actions = [a for a, _ in outcomes]
        else:
            spiel = replayed(game, core.history())
            actor = spiel.current_player()
            table = infosets[actor]
            number = table.setdefault(spiel.information_state_string(actor), len(table) + 1)
            actions = spiel.legal_actions(actor)
            body = " ".join(f'"{a}"' for a in actions)
            lines.append(f'p "" {actor + 1} {number} "" {{ {body} }} 0')
        for action in actions:
            child = _copy(core)
            child.apply(actor, action)
            walk(child)

    walk(game.new_initial_state()._core)
    return pyspiel.load_efg_game("\n".join(lines) + "\n")


@dataclass
class Convergence:
    """How a solver's average policy converged: exploitability after each recorded iteration."""

    solver: str
    iterations: list[int] = field(default_factory=list)
    exploitability: list[float] = field(default_factory=list)
    seconds: float = 0.0
    #: The first player's expected return under the final average policy (the game's value if solved).
    value: float = 0.0


def solve(copy: Any, iterations: int, solver: str = "cfr", every: Sequence[int] | None = None) -> Convergence:
    """Run OpenSpiel's ``cfr`` or ``cfr+`` on a native copy; record the exploitability at ``every``.

    ``every`` lists the iterations after which the exploitability is computed
    (by default only after the last). The seconds count the iterations and
    those computations.
    """
    makers = {"cfr": pyspiel.CFRSolver, "cfr+": pyspiel.CFRPlusSolver}
    if solver not in makers:
        raise OptionError(f"solver must be one of {', '.join(makers)}, not {solver!r}")
    marks = set(every or ()) | {iterations}
    out = Convergence(solver)
    started = time.perf_counter()
    cfr = makers[solver](copy)
    for i in range(1, iterations + 1):
        cfr.evaluate_and_update_policy()
        if i in marks:
            out.iterations.append(i)
            out.exploitability.append(float(pyspiel.exploitability(copy, cfr.average_policy())))
    out.seconds = time.perf_counter() - started
    out.value = float(pyspiel.expected_returns(copy.new_initial_state(), cfr.average_policy(), -1, True)[0])
    return out
