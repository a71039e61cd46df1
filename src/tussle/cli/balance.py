"""``tussle balance``: how fair a game is and how strong each of its parts, over many games."""

from __future__ import annotations

import json
import os
from pathlib import Path

import click

from tussle.balance import feel
from tussle.balance.play import BalanceError, make_plan, measures_of, open_data, run, total_games
from tussle.balance.report import build
from tussle.cli.common import (
    cluster_of,
    cluster_option,
    diagnostics_on_stderr,
    game_options_option,
    games_option,
    progress,
    read_documents,
    split_players,
    stdout_console,
)
from tussle.registry import game_info


@click.command()
@click.argument("game")
@click.argument("agents", nargs=-1, metavar="[AGENT ...]")
@games_option(1000, "Games per variant and pairing.")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the whole run.")
@click.option(
    "--jobs",
    "-j",
    type=click.IntRange(min=1),
    default=max(1, os.cpu_count() or 1),
    show_default="all cores",
    help="Processes to use; the figures are the same for any number.",
)
@cluster_option
@click.option(
    "--vary",
    multiple=True,
    metavar="KEY=V1,V2,...",
    help="Play each value of an option and compare them side by side; given twice, every "
    "combination, with a matrix of the first seat's score.",
)
@click.option(
    "--also",
    "also",
    multiple=True,
    metavar="AGENT,AGENT",
    help="Another pairing of agents (one per seat), compared side by side; repeatable.",
)
@click.option(
    "--skill",
    default=None,
    metavar="AGENT,AGENT,...",
    help="A ladder of agents, weakest first: each plays itself and the next one down (and the strongest "
    "the weakest), for the skill-depth figure; replaces the AGENTs.",
)
@click.option(
    "--out",
    type=click.Path(file_okay=False),
    default=None,
    help="Folder of the report and the data [default: balance-GAME]. A run stopped in the middle "
    "goes on from where it stopped when started again with the same settings.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the figures as JSON too.")
@game_options_option
def balance(
    *,
    game: str,
    agents: tuple[str, ...],
    n: int,
    seed: int,
    jobs: int,
    cluster: str | None,
    vary: tuple[str, ...],
    also: tuple[str, ...],
    skill: str | None,
    out: str | None,
    as_json: bool,
    options: dict[str, str],
) -> None:
    """Play N games of GAME between computer AGENTs and report how fair it is and how strong its parts.

    One AGENT per seat (default: the rule-of-thumb agent in every seat); seats rotate
    from game to game. The report (report.html, its plots as PNG and SVG in plots/,
    figures.json) and the data (games.parquet, events.parquet: query them with
    DuckDB) go into --out, in chunks of 100 games (one Ray task each with --cluster).
    docs/balance.md explains every figure.

    \b
    Examples:
      tussle balance fite -n 2000 --out report/
      tussle balance robo-pigs -n 1000 --vary repair_at=start,end
      tussle balance fight rule rule --also hard,hard -n 500
      tussle balance fite --skill random,rule,medium -n 500
      tussle balance fite fite:solved fite:solved --vary power_a=none,swift --vary power_b=none,swift
      tussle balance fight -n 100000 --cluster ray:auto
    """
    on = cluster_of(cluster, jobs)
    info = game_info(game)
    first = list(agents) or ["rule"] * info.min_players
    pairings = [first] + [split_players(text) for text in also]
    if skill is not None:
        levels = split_players(skill)
        if len(levels) < 2 or agents:
            raise BalanceError("--skill takes two agents or more, weakest first, and no AGENTs beside it")
        pairings = feel.skill_pairings(levels, info.min_players) + pairings[1:]
    varied = []
    for text in vary:
        key, sep, values = text.partition("=")
        choices = [v.strip() for v in values.split(",") if v.strip()]
        if not sep or not key.strip() or len(choices) < 2:
            raise BalanceError(f"--vary {text!r}: write KEY=V1,V2 (an option and two or more values)")
        info.option(key.strip())  # an unknown option is a one-line error
        varied.append((key.strip(), choices))
    plan = make_plan(game, pairings, n, seed=seed, options=read_documents(game, options), vary=varied)
    folder = Path(out or f"balance-{game}")
    label = f"{game}: {len(plan.slices)} x {n:,} games"
    with diagnostics_on_stderr(), progress(total_games(plan), label) as advance:
        data = run(plan, folder, jobs, advance, cluster=on)
    connection = open_data(data)
    try:
        report = build(plan, connection, measures_of(game), folder)
    finally:
        connection.close()
    if as_json:
        click.echo(json.dumps(report))
        return
    console = stdout_console()
    for part in report["slices"]:
        seats = next(f for f in part["figures"] if f["key"].endswith("seats"))
        rates = ", ".join(f"seat {r[0]} {r[5]:.1%}" for r in seats["rows"])
        head = f"{part['variant']} / {part['pairing']}"
        console.print(f"{head}: win rates {rates}; {seats['note']}", markup=False)
    console.print(f"report: {folder / 'report.html'}   data: {folder / 'games.parquet'}", markup=False)
