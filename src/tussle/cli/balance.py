"""``tussle balance``: how fair a game is and how strong each of its parts, over many games."""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from pathlib import Path

import click

from tussle.cli.common import (
    MAX_JOBS,
    MAX_OPENINGS,
    SEED,
    Count,
    Place,
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
from tussle.cli.extras import needs
from tussle.errors import shorten
from tussle.registry import game_info


@click.command()
@click.argument("game")
@click.argument("agents", nargs=-1, metavar="[AGENT ...]")
@games_option(1000, "Games per variant and pairing.")
@click.option("--seed", type=SEED, default=0, show_default=True, help="Seed of the whole run.")
@click.option(
    "--jobs",
    "-j",
    type=Count(1, MAX_JOBS),
    default=min(MAX_JOBS, max(1, os.cpu_count() or 1)),
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
    "--openings",
    default="auto",
    show_default=True,
    metavar="K|auto",
    help="Each player's first K decisions are random, each game's its own; auto: 2 when an agent "
    "other than random plays (agents that choose alike replay the same few games), else 0.",
)
@click.option(
    "--compare",
    nargs=2,
    type=Place(dir_okay=False),
    metavar="A.toml B.toml",
    default=None,
    help="An A/B run: the options of two TOML files, game i of each from the same seeds, compared "
    "game by game (paired) with the changed components first.",
)
@click.option(
    "--compare-options",
    nargs=2,
    metavar="'K=V,..' 'K=V,..'",
    default=None,
    help="An A/B run of two sets of options given here instead of in files.",
)
@click.option(
    "--until",
    type=float,
    default=None,
    metavar="HALF_WIDTH",
    help="Play until the first seat's win rate is known to +-HALF_WIDTH (0.03: 3 points) in every "
    "slice, -n games at most.",
)
@click.option(
    "--fresh",
    is_flag=True,
    help="Play the run afresh in --out, dropping the games stored there (of other settings, say).",
)
@click.option(
    "--out",
    type=Place(file_okay=False),
    default=None,
    help="Folder of the report and the data [default: balance-GAME]. A run stopped in the middle "
    "goes on from where it stopped when started again with the same settings.",
)
@click.option(
    "--engine",
    type=click.Choice(["scalar", "batch"]),
    default="scalar",
    show_default=True,
    help="batch: the game's batched engine (the jax extra), thousands of games a second: random "
    "agents, and rule where the game has its batched form; the figures that need each game's record "
    "(drama, lead changes, components) are left out.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the figures as JSON too.")
@click.option(
    "--count-repeats",
    is_flag=True,
    help="Count a game played again move for move each time it was played (each a fresh draw, as "
    "in a game of chance with few outcomes) [default: each distinct game once].",
)
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
    count_repeats: bool,
    openings: str,
    compare: tuple[str, str] | None,
    compare_options: tuple[str, str] | None,
    until: float | None,
    fresh: bool,
    engine: str,
    options: dict[str, str],
) -> None:
    """Play N games of GAME between computer AGENTs and report how fair it is and how strong its parts.

    One AGENT per seat (default: the rule-of-thumb agent in every seat); seats rotate
    from game to game. The report (report.html, its plots as PNG and SVG in plots/,
    figures.json) and the data (games.parquet, events.parquet: query them with
    DuckDB) go into --out, in chunks sized to the agents' speed (one Ray task each
    with --cluster). The folder records the tussle version, agents, options and a
    digest of every content file: a run into it with any changed is refused (--fresh
    plays it again), a larger -n plays only the new games. docs/balance.md explains
    every figure.

    \b
    Examples:
      tussle balance fite -n 2000 --out report/
      tussle balance robo-pigs -n 1000 --vary repair_at=start,end
      tussle balance fight rule rule --also hard,hard -n 500
      tussle balance fite --skill random,rule,medium -n 500
      tussle balance fite fite:solved fite:solved --vary power_a=none,swift --vary power_b=none,swift
      tussle balance fight -n 100000 --cluster ray:auto
      tussle balance tank-chess --compare before.toml after.toml -n 400
      tussle balance fite --compare-options power_a=none power_a=brutal -n 500
      tussle balance robo-pigs --until 0.03 -n 5000
      tussle balance fite random random --engine batch -n 1000000
    """
    # DuckDB, SciPy and Matplotlib are the balance extra's: imported here, not with the CLI.
    with needs("tussle balance", "balance"):
        # The report's plots are drawn after the games: a missing Matplotlib is said before them.
        import matplotlib  # noqa: F401

        from tussle.balance import feel
        from tussle.balance.compare import (
            ab_figures,
            ab_summary,
            add_to_report,
            parse_option_text,
            read_option_file,
            run_figure,
            sample_sizes,
        )
        from tussle.balance.play import (
            BATCH_HERE,
            BalanceError,
            make_plan,
            measures_of,
            open_data,
            run,
            run_until,
            total_games,
        )
        from tussle.balance.report import build, seat_label
    if engine == "batch":
        if cluster is not None:
            raise BalanceError(BATCH_HERE)
        with needs("tussle balance --engine batch", "jax"):
            import tussle.batch.playout  # noqa: F401
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
    sources: dict[str, str] = {}
    # A varied value naming a file (a deck, a layout) is read as -o reads it; the variant keeps the name.
    documents = {
        (key, value): read
        for key, choices in varied
        for value in choices
        if (read := _documents(game, {**options, key: value}, sources)[key]) != value  # checked with -o's
    }
    sides: list[tuple[str, dict[str, str]]] = []
    if compare and compare_options:
        raise BalanceError("give --compare (two option files) or --compare-options, not both")
    for side, given in zip("AB", compare or (), strict=False):
        sides.append((f"{side}: {Path(given).name}", read_option_file(given)))
    for side, text in zip("AB", compare_options or (), strict=False):
        sides.append((f"{side}: {text if len(text) <= 40 else text[:37] + '...'}", parse_option_text(text)))
    sides = [(label, _documents(game, opts, sources)) for label, opts in sides]
    plan = make_plan(
        game,
        pairings,
        n,
        seed=seed,
        options=_documents(game, options, sources),
        vary=varied,
        openings=None if openings == "auto" else _openings(openings),
        compare=sides,
        documents=documents,
        engine=engine,
    )
    if until is not None and not 0 < until < 0.5:
        raise BalanceError(
            f"--until {until}: give the interval's half-width, between 0 and 0.5 (0.03: +-3 points)"
        )
    folder = Path(out or f"balance-{game}")
    label = f"{game}: {len(plan.slices)} x {'up to ' if until else ''}{n:,} games"
    with contextlib.ExitStack() as stack:
        stack.enter_context(diagnostics_on_stderr())
        if on is not None:
            # One connection for every round and side of the run: Ray is started (or joined) once.
            from tussle.parallel import connected

            stack.enter_context(connected(on))
        advance = stack.enter_context(progress(total_games(plan), label))
        if until is not None:
            plan = run_until(
                plan, folder, jobs, until, advance=advance, cluster=on, fresh=fresh, sources=sources
            )
        else:
            run(plan, folder, jobs, advance, cluster=on, fresh=fresh, sources=sources)
    connection = open_data(folder / "data", plan.n)
    try:
        report = build(plan, connection, measures_of(game), folder, distinct=not count_repeats)
        about = json.loads((folder / "provenance.json").read_text(encoding="utf-8"))
        add_to_report(report, [sample_sizes(report)], folder, "sample_sizes")
        add_to_report(report, [run_figure(plan, about)], folder, "run")
        if sides:
            compared = ab_figures(plan, connection, report)
            headline = ab_summary(plan, compared, report["seat_names"])
            add_to_report(report, compared, folder, "ab", headline)
    finally:
        connection.close()
    if as_json:
        click.echo(json.dumps(report))
        return
    console = stdout_console()
    names = report["seat_names"]
    for part in report["slices"]:
        seats = next(f for f in part["figures"] if f["key"].endswith("seats"))
        rates = ", ".join(f"{seat_label(r[0], names)} {r[5]:.1%}" for r in seats["rows"])
        head = f"{part['variant']} / {part['pairing']}"
        console.print(f"{head}: win rates {rates}; {seats['note']}", markup=False)
    if plan.openings:
        console.print(f"openings: each player's first {plan.openings} decisions random", markup=False)
    if until is not None:
        console.print(f"{plan.n:,} games per slice (--until {until})", markup=False)
    for row in (report.get("ab") or [{}])[0].get("rows", []):
        if row[0] == "seat 0 score":
            # Too few pairs (or all alike) leave an interval or p-value empty: "n/a", not a crash.
            a, b, diff, low, high, p = (
                _number(row[i], spec) for i, spec in zip(AB_AT, AB_SPECS, strict=True)
            )
            console.print(
                f"A/B {row[1]}: {seat_label(0, names)} score {a} -> {b}, "
                f"B - A {diff} [{low}, {high}] paired by seed, p = {p}",
                markup=False,
            )
    console.print(f"report: {folder / 'report.html'}   data: {folder / 'games.parquet'}", markup=False)


#: The A/B row's columns the last line shows (A, B, B - A, its interval, p) and their formats.
AB_AT = (3, 4, 5, 6, 7, 12)
AB_SPECS = (".3f", ".3f", "+.3f", "+.3f", "+.3f", ".3g")


def _number(value: float | None, spec: str) -> str:
    return "n/a" if value is None else format(value, spec)


def _openings(text: str) -> int:
    from tussle.balance.play import BalanceError

    if not text.strip().isdigit() or len(text.strip()) > 4 or int(text) > MAX_OPENINGS:
        raise BalanceError(
            f"--openings {shorten(text)}: give a number of moves from 0 (none) to {MAX_OPENINGS}, or auto"
        )
    return int(text)


def _documents(game: str, options: dict[str, str], sources: dict[str, str]) -> dict[str, str]:
    """``options`` with each document file read (:func:`read_documents`), noting which file each text is."""
    read = read_documents(game, options)
    for key, value in read.items():
        if value != options.get(key):
            sources[hashlib.sha256(value.encode("utf-8")).hexdigest()] = options[key]
    return read
