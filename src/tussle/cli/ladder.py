"""``tussle ladder``: a round robin between computer agents, and their ratings."""

from __future__ import annotations

import json

import click
from rich.table import Table
from rich.text import Text

from tussle.cli.common import (
    MAX_OPENINGS,
    SEED,
    Count,
    Place,
    chunk_option,
    cluster_of,
    cluster_option,
    diagnostics_on_stderr,
    game_options_option,
    games_option,
    jobs_option,
    progress,
    read_documents,
    stderr_console,
    stdout_console,
    text_cells,
    value_text,
)


@click.command()
@click.argument("game")
@click.argument("agents", nargs=-1, required=True, metavar="AGENT AGENT [AGENT...]")
@games_option(20, "Games per pair of agents (even, so that each pair plays both ways round).")
@click.option("--seed", type=SEED, default=0, show_default=True, help="Seed of the whole ladder.")
@click.option(
    "--openings",
    type=Count(0, MAX_OPENINGS),
    metavar="K",
    default=0,
    show_default=True,
    help="Each player's first K moves are random, each opening played from both seats.",
)
@jobs_option
@cluster_option
@chunk_option
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object with everything instead.")
@click.option(
    "--reuse",
    metavar="FILE",
    type=Place(dir_okay=False),
    default=None,
    help="Count the games of an earlier ladder's --json output that this one would play again.",
)
@click.option(
    "--record",
    "record_dir",
    metavar="DIR",
    type=Place(file_okay=False),
    default=None,
    help="Save the record of every game played into DIR (made if missing). A ladder stopped in the "
    "middle and started again with the same settings and DIR takes the games saved there.",
)
@game_options_option
def ladder(
    *,
    game: str,
    agents: tuple[str, ...],
    n: int,
    seed: int,
    openings: int,
    jobs: int,
    cluster: str | None,
    chunk: int,
    as_json: bool,
    reuse: str | None,
    record_dir: str | None,
    options: dict[str, str],
) -> None:
    """Rate computer AGENTs at GAME: a round robin of N games per pair, then a rating fit.

    An AGENT is an agent spec, or NAME=SPEC to show it under a name of its
    own. Every pair plays N games at two players, seats swapping each game. The
    ratings are on the Elo scale (200 more is about 76% expected), random
    rated 0 when it plays (else the first agent), with 95% intervals. The
    table says by how much each agent is above the next, with the interval
    of that difference. The same --seed gives the same ladder whatever --jobs,
    --chunk or --cluster (Ray: docs/cluster.md).
    Agents that never vary replay the same games; --openings K starts every
    game with K random moves a player to vary them. With --reuse FILE (a
    ladder's --json output, same seed, options and openings) the games a pair
    already played there are counted, not played again: more games a pair, or
    a new agent, cost only the new games. --record DIR saves every game played
    there, to replay or study with `tussle replay`. See docs/ladder.md.

    \b
    Examples:
      tussle ladder robo-pigs random rule -n 20
      tussle ladder fite random rule easy medium -n 40 --jobs 2 --seed 1
      tussle ladder fightopia random rule quick=alphabeta:iterations=500 -n 10
      tussle ladder tank-chess random rule -n 10 --json
      tussle ladder fite random rule -n 40 --reuse fite20.json --json
      tussle ladder fightopia rule medium -n 4 --openings 3 --record games/
      tussle ladder fite random rule easy -n 1000 --cluster ray:auto
    """
    from tussle.ladder import check_ladder, interval_text, read_ladder, reusable_games, run_ladder

    on = cluster_of(cluster, jobs)
    options = read_documents(game, options)
    check_ladder(game, agents, n, dict(options))
    kept: dict[tuple[str, str], tuple[str, float]] = {}
    if reuse is not None:
        previous = read_ladder(reuse)
        kept = reusable_games(previous, game, agents, options=dict(options), seed=seed, openings=openings)
    pairs = len(agents) * (len(agents) - 1) // 2
    played = sum(min(len(points), n) for points, _ in kept.values())
    with diagnostics_on_stderr(), progress(pairs * n - played, f"{game} ladder") as advance:
        result = run_ladder(
            game,
            agents,
            n,
            seed=seed,
            jobs=jobs,
            options=dict(options),
            openings=openings,
            on_game=lambda done, total: advance(),
            reuse=kept,
            record_dir=record_dir,
            cluster=on,
            chunk=chunk,
        )
    if result.resumed:
        stderr_console().print(
            f"{result.resumed} games were already in {record_dir} and were not played again", markup=False
        )
    if as_json:
        click.echo(json.dumps(result.to_json()))
        return
    console = stdout_console()
    opts = ", ".join(f"{k}={value_text(v)}" for k, v in result.options.items())
    title = f"{result.game} ladder: {n} games per pair, seed {seed}"
    title += f", {openings} random opening moves" if openings else ""
    title += f" ({opts})" if opts else ""
    table = Table(title=Text(title), title_justify="left")
    for column in ("#", "agent", "rating", "95% CI", "games", "score", "lead", "lead 95% CI", "sure"):
        table.add_column(column, justify="left" if column == "agent" else "right", no_wrap=True)
    margins = result.margins()
    for i, row in enumerate(result.table()):
        lead = ("", "", "")
        if i < len(margins):
            m = margins[i]
            lead = (f"{m.difference:+.0f}", f"{m.low:.0f}..{m.high:.0f}", "yes" if m.separated else "no")
        table.add_row(
            *text_cells(
                str(i + 1),
                row.agent,
                f"{row.rating:.0f}",
                interval_text(row),
                str(row.games),
                f"{row.score:.1%}",
                *lead,
            )
        )
    console.print(table)
    matrix = Table(title=Text("score of the row against the column"), title_justify="left")
    matrix.add_column("agent")
    for i in range(len(result.agents)):
        matrix.add_column(str(i + 1), justify="right")
    for i, (row, cells) in enumerate(zip(result.table(), result.matrix(), strict=True)):
        matrix.add_row(
            *text_cells(f"{i + 1} {row.agent}", *("-" if v is None else f"{v:.0%}" for v in cells))
        )
    console.print(matrix)
    for name, spec in zip(result.agents, result.specs, strict=True):
        if name != spec:
            console.print(f"{name} = {spec}", markup=False)
    repeated = result.repeated()
    if repeated:
        listed = ", ".join(
            f"{result.agents[p.a]}-{result.agents[p.b]} {p.distinct} of {p.games}" for p in repeated
        )
        console.print(
            f"Repeated games (the intervals overstate what is known): distinct games {listed}; "
            "--openings K varies them.",
            markup=False,
        )
    anchor = result.agents[result.fit.anchor]
    console.print(
        f"Elo scale, {anchor} = 0; a draw counts half a win. lead: how far the agent is above "
        "the next one down; sure: whether that lead's 95% interval is all above 0.",
        markup=False,
    )
