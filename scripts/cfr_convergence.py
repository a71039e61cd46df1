#!/usr/bin/env python3
"""OpenSpiel's CFR and CFR+ on the small games of docs/ecosystem.md: the convergence plot and figures.

    .venv/bin/python scripts/cfr_convergence.py                 # all, plot to docs/images/
    .venv/bin/python scripts/cfr_convergence.py --iterations 20 --out /tmp/plots
    .venv/bin/python scripts/cfr_convergence.py --game robo-pigs-small --iterations 1000

For each small configuration it copies the game into OpenSpiel's own
extensive-form game once (``tussle.adapters.openspiel_solve.native_copy``),
runs CFR and CFR+ from scratch, computes the exploitability of the average
policy after chosen iterations, and prints the figures as JSON lines (the
copy's time and size, each solver's exploitability by iteration, its value
and seconds, and tussle's own solver's value for FITE). The plot is
exploitability against iterations, both axes logarithmic, one line per solver.
Everything is deterministic but the times.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tussle.adapters import openspiel_game as og
from tussle.adapters.openspiel_solve import native_copy, solve
from tussle.games.fite.solver import cut_values


def _fite_value() -> float:
    """tussle's FITE solver's value of the small FITE: 2 dice each, B's Brutal unused, one turn."""
    keys = [(2, 2, "none", "none"), (2, 2, "none", "brutal")]
    return cut_values(keys, 1, tactical=False)[keys[1]]


#: name -> (game id, og.load's options, tussle's own solver's value for the first player, if any).
SMALL_CONFIGS: dict[str, tuple[str, dict[str, Any], Callable[[], float] | None]] = {
    "fite-small": (
        "fite",
        {
            "turns": True,
            "dice": 2,
            "turn_limit": 1,
            "setup_placement": False,
            "tactical": False,
            "power_b": "brutal",
        },
        _fite_value,
    ),
    # A 4x4 board, B one square ahead of A with its back turned; programs of one command,
    # the first hit wins, two rounds (its value, 1/3, is checked in tests/test_openspiel_solve.py).
    "robo-pigs-small": (
        "robo-pigs",
        {
            "turns": True,
            "board": 'size = [4, 4]\nwalls = []\na = "c4S"\nb = "c2S"',
            "program_length": 1,
            "damage_limit": 1,
            "round_limit": 2,
        },
        None,
    ),
}

IMAGES = Path(__file__).resolve().parents[1] / "docs" / "images"


def marks(iterations: int) -> list[int]:
    """Iterations at which to measure: about four a decade, and the last."""
    out = {1, iterations}
    value = 1.0
    while value < iterations:
        out.add(round(value))
        value *= 10**0.25
    return sorted(i for i in out if i <= iterations)


def nodes(copy: Any) -> int:
    """The nodes of a native copy's tree: chance, decisions and ends."""
    count, stack = 0, [copy.new_initial_state()]
    while stack:
        state = stack.pop()
        count += 1
        if not state.is_terminal():
            stack.extend(state.child(a) for a in state.legal_actions())
    return count


def run(name: str, iterations: int) -> dict[str, Any]:
    game_id, options, exact = SMALL_CONFIGS[name]
    started = time.perf_counter()
    copy = native_copy(og.load(game_id, **options))
    figures: dict[str, Any] = {
        "game": name,
        "options": options,
        "copy_seconds": round(time.perf_counter() - started, 2),
        "nodes": nodes(copy),
        "solver_value": exact() if exact is not None else None,
    }
    for solver in ("cfr", "cfr+"):
        result = solve(copy, iterations, solver, every=marks(iterations))
        figures[solver] = {
            "iterations": result.iterations,
            "exploitability": result.exploitability,
            "value": result.value,
            "seconds": round(result.seconds, 2),
        }
        # From scratch to below 0.01: the copy, then the iterations that got there and one measure.
        pairs = zip(result.iterations, result.exploitability, strict=True)
        below = next((i for i, e in pairs if e < 0.01), None)
        if below is not None:
            again = solve(copy, below, solver)
            figures[solver]["below_0.01"] = {
                "iterations": below,
                "seconds_with_copy": round(figures["copy_seconds"] + again.seconds, 2),
            }
    return figures


def plot(figures: dict[str, Any], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 4), dpi=100)
    for solver, style in (("cfr", "o-"), ("cfr+", "s-")):
        data = figures[solver]
        ax.loglog(data["iterations"], data["exploitability"], style, label=solver.upper(), markersize=4)
    ax.axhline(0.01, color="grey", linestyle=":", linewidth=1)
    ax.set_xlabel("iterations")
    ax.set_ylabel("exploitability of the average policy")
    ax.set_title(f"OpenSpiel's CFR and CFR+ on {figures['game']}")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, metadata={"Software": None})
    plt.close(fig)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=100, help="iterations of each solver (100)")
    parser.add_argument("--out", type=Path, default=IMAGES, help="where the plots go (docs/images)")
    parser.add_argument("--game", choices=sorted(SMALL_CONFIGS), action="append", help="only these")
    args = parser.parse_args(argv)
    if args.iterations < 1:
        parser.error("--iterations must be at least 1")
    args.out.mkdir(parents=True, exist_ok=True)
    for name in args.game or sorted(SMALL_CONFIGS):
        figures = run(name, args.iterations)
        plot(figures, args.out / f"cfr-{name}.png")
        print(json.dumps(figures), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
