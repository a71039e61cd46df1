"""``tussle fite-odds``: FITE's exact dice odds, the chances of each number of hits for every split.

A command of this game's own (``Hooks.commands``): the ``tussle`` group adds it, naming no game."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import click


def _count(name: str, low: int, high: int, about: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """An option taking a whole number from ``low`` to ``high``, 0 by default."""
    return click.option(name, type=click.IntRange(low, high), default=0, show_default=True, help=about)


@click.command("fite-odds")
@_count("--edge", -4, 4, "The defence's modifiers minus the attack's (a location's or a power's +1 each).")
@_count(
    "--attack-turns",
    0,
    2,
    "Dice the attack's plan turns over (its lowest showing 1 to 3), as the tactical step may.",
)
@_count("--defence-turns", 0, 2, "Dice the defence's plan turns over.")
@click.option("--json", "as_json", is_flag=True, help="Print the table as JSON.")
def fite_odds(*, edge: int, attack_turns: int, defence_turns: int, as_json: bool) -> None:
    """Print FITE's exact dice odds: for every split, the chance of each number of hits on the defender.

    Exact, from the solver's counting of every roll of both pools
    (docs/fite-solver.md); the same table is in every FITE balance report.

    \b
    Examples:
      tussle fite-odds
      tussle fite-odds --edge -1 --attack-turns 1
    """
    from tussle.cli.extras import needs

    # The table is one of the balance lab's figures, which stand on DuckDB and SciPy.
    with needs("tussle fite-odds", "balance"):
        from .balance import odds_figure

    figure = odds_figure(edge, attack_turns, defence_turns)
    if as_json:
        click.echo(json.dumps(figure.to_json()))
        return
    # Plain fixed-width lines: the whole table fits 80 columns and pastes anywhere.
    hits = len(figure.columns) - 3
    click.echo(figure.title)
    click.echo(f"{'atk':>3} {'def':>3} {'mean':>6} " + " ".join(f"{k:>5}" for k in range(hits)))
    for row in figure.rows:
        click.echo(f"{row[0]:>3} {row[1]:>3} {row[2]:>6.3f} " + " ".join(f"{v:>5.3f}" for v in row[3:]))
    click.echo(
        "atk, def: the attack's and the defence's dice; mean: the expected hits; 0 to 8: the chance of "
        "that many hits. " + figure.note
    )
