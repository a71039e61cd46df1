#!/usr/bin/env python3
"""Solve FITE's model and write the strategy that the ``fite:solved`` agent plays.

    .venv/bin/python scripts/solve_fite.py            # solve, write the data file, report
    .venv/bin/python scripts/solve_fite.py --check    # solve and fail if the shipped file differs
    .venv/bin/python scripts/solve_fite.py --measure 1000 --jobs 2   # only play the measuring matches

The solution is deterministic (no randomness, exact odds, a fixed order of
states), so running it again writes the same file. It takes a few minutes:
one pass solves the equilibrium, a second computes how much a best reply
gains against the strategy as written to the file (rounded). The report
(game values per pair of super powers, exploitability) is printed as Markdown,
the tables of docs/fite-solver.md. ``--measure N`` plays the matches behind
that page's measured figures instead (seeded, so they repeat).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path
from typing import Any

from tussle.games.fite.solver import (
    POWERS,
    START_DICE,
    StateKey,
    exploitability,
    mirror,
    solve_all,
    state_keys,
    strategy_from_json,
    strategy_to_json,
)
from tussle.runner import run_match

DATA = Path(__file__).resolve().parents[1] / "src" / "tussle" / "games" / "fite" / "strategy.json"


def file_text(data: dict[str, Any]) -> str:
    """The JSON with one state per line, so that a change shows as a readable diff."""
    head = {k: v for k, v in data.items() if k != "states"}
    lines = [json.dumps(head, separators=(",", ":"))[:-1] + ',"states":{']
    states = list(data["states"].items())
    for i, (name, entry) in enumerate(states):
        comma = "," if i < len(states) - 1 else ""
        lines.append(f"{json.dumps(name)}:{json.dumps(entry, separators=(',', ':'))}{comma}")
    lines.append("}}")
    return "\n".join(lines) + "\n"


def report(values: dict[StateKey, float], gains: dict[StateKey, float]) -> str:
    start = START_DICE
    out = ["Game value for fighter A (A's chance to win minus B's) under optimal play, by super power:", ""]
    out.append("| A \\ B | " + " | ".join(POWERS) + " |")
    out.append("|---" * (len(POWERS) + 1) + "|")
    for pa in POWERS:
        cells = [f"{values[(start, start, pa, pb)]:+.3f}" for pb in POWERS]
        out.append(f"| {pa} | " + " | ".join(cells) + " |")
    out.append("")
    worth = {pa: sum(values[(start, start, pa, pb)] for pb in POWERS) / len(POWERS) for pa in POWERS}
    out.append("Mean value of each power against all seven (none included):")
    out.append("")
    for pa in sorted(POWERS, key=lambda p: -worth[p]):
        out.append(f"- {pa}: {worth[pa]:+.3f}")
    out.append("")
    starts = [(start, start, pa, pb) for pa in POWERS for pb in POWERS]
    worst_start = max(starts, key=gains.__getitem__)
    worst = max(state_keys(), key=gains.__getitem__)
    out.append(
        f"Exploitability of the shipped strategy (best reply's gain), at the start: "
        f"max {gains[worst_start]:.2e} ({worst_start[2]} vs {worst_start[3]}), "
        f"mean {sum(gains[k] for k in starts) / len(starts):.2e}; over all {len(gains)} states: "
        f"max {gains[worst]:.2e} at {worst}, min {min(gains.values()):.2e}"
    )
    asym = max(abs(values[k] + values[mirror(k)]) for k in state_keys())
    out.append(f"Symmetry check, max |V(state) + V(mirrored state)|: {asym:.1e}")
    return "\n".join(out)


def _score(
    specs: list[str], games: int, jobs: int, seed: int, options: dict[str, Any]
) -> tuple[int, int, int]:
    """Wins, losses and draws of the first agent (the seats alternate)."""
    won = lost = drawn = 0
    for g in run_match("fite", specs, games, seed=seed, jobs=jobs, options=options):
        if g.returns[0] > g.returns[1]:
            won += 1
        elif g.returns[0] < g.returns[1]:
            lost += 1
        else:
            drawn += 1
    return won, lost, drawn


def _row(label: str, won: int, lost: int, drawn: int) -> str:
    n = won + lost + drawn
    mean = (won - lost) / n
    spread = 1.96 * math.sqrt(max(0.0, (won + lost) / n - mean * mean) / n)
    return f"| {label} | {n} | {won} / {lost} / {drawn} | {mean:+.3f} ± {spread:.3f} |"


def measure(games: int, jobs: int) -> str:
    """The measured figures: fite:solved against random and rule, and the model against the engine."""
    out = [
        "| match | games | wins / losses / draws of the first | mean score (95% interval) |",
        "|---|---|---|---|",
    ]
    for opponent in ("random", "rule"):
        out.append(
            _row(
                f"fite:solved vs {opponent}, no powers",
                *_score(["fite:solved", opponent], games, jobs, 1, {}),
            )
        )
    per_pair = max(2, games // 50) // 2 * 2  # even, so that each agent has each power as often
    for opponent in ("random", "rule"):
        totals = [0, 0, 0]
        for i, pa in enumerate(POWERS):
            for j, pb in enumerate(POWERS):
                options = {"power_a": pa, "power_b": pb}
                result = _score(["fite:solved", opponent], per_pair, jobs, 100 + 7 * i + j, options)
                totals = [t + r for t, r in zip(totals, result, strict=True)]
        out.append(_row(f"fite:solved vs {opponent}, every pair of powers", *totals))
    out += [
        "",
        "| powers A / B | model value for A | engine, both playing the model (tactics=plan) |",
        "|---|---|---|",
    ]
    start = START_DICE
    from tussle.games.fite.solved import shipped_strategy

    strategy = shipped_strategy()
    for pa in POWERS:
        for pb in ("none",) if pa != "none" else ("none", "brutal"):
            # Both seats play the same agent; g.seats tells which index sat as fighter A.
            won = lost = 0
            n = 0
            specs = ["fite:solved:tactics=plan", "fite:solved:tactics=plan"]
            for g in run_match(
                "fite", specs, games, seed=200, jobs=jobs, options={"power_a": pa, "power_b": pb}
            ):
                seat_a = g.seats[0]
                n += 1
                won += g.returns[seat_a] > 0
                lost += g.returns[seat_a] < 0
            mean = (won - lost) / n
            spread = 1.96 * math.sqrt(max(0.0, (won + lost) / n - mean * mean) / n)
            model = strategy[(start, start, pa, pb)].value
            counts = f"({won} / {lost} / {n - won - lost})"
            out.append(f"| {pa} / {pb} | {model:+.3f} | {mean:+.3f} ± {spread:.3f} {counts} |")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DATA, help="the strategy file (default: the package's)")
    parser.add_argument("--check", action="store_true", help="compare with the file instead of writing it")
    parser.add_argument(
        "--no-report", action="store_true", help="skip the exploitability pass and the report"
    )
    parser.add_argument(
        "--measure", type=int, metavar="N", help="only play the measuring matches, N games each"
    )
    parser.add_argument("--jobs", type=int, default=1, help="processes for --measure")
    args = parser.parse_args(argv)
    if args.measure:
        print(measure(args.measure, args.jobs))
        return 0
    started = time.monotonic()
    solver = solve_all()
    text = file_text(strategy_to_json(solver.strategies))
    print(f"solved {len(solver.values)} states in {time.monotonic() - started:.0f} s", file=sys.stderr)
    if args.check:
        if not args.out.exists() or args.out.read_text() != text:
            print(
                f"{args.out.name} differs from a fresh solution: run scripts/solve_fite.py", file=sys.stderr
            )
            return 1
        print(f"{args.out.name} is up to date", file=sys.stderr)
    else:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(text)
        print(f"wrote {args.out.name} ({len(text)} bytes)", file=sys.stderr)
    if not args.no_report:
        shipped = strategy_from_json(json.loads(text))
        gains = exploitability(shipped, solver.values)
        print(report(solver.values, gains))
    return 0


if __name__ == "__main__":
    sys.exit(main())
