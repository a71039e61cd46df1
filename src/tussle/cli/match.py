"""``tussle match``: N games between computer agents, summed up."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import click
from rich.table import Table
from rich.text import Text

from tussle.agents import make_agent
from tussle.cli.common import (
    SEED,
    Place,
    chunk_option,
    cluster_of,
    cluster_option,
    diagnostics_on_stderr,
    game_options_option,
    games_option,
    jobs_option,
    load_with_options,
    progress,
    read_documents,
    stdout_console,
    text_cells,
    value_text,
)
from tussle.cli.extras import needs
from tussle.errors import AgentError, OptionError
from tussle.registry import simulation_options
from tussle.runner import GameSummary, MatchSummary, run_match


@click.command()
@click.argument("game")
@click.argument("agents", nargs=-1, required=True, metavar="AGENT AGENT [AGENT...]")
@games_option(100, "Games to play.")
@click.option("--seed", type=SEED, default=0, show_default=True, help="Seed of the whole match.")
@jobs_option
@cluster_option
@chunk_option
@click.option(
    "--record",
    "record_dir",
    type=Place(file_okay=False),
    help="Save every game's record into this directory. A match stopped in the middle and started "
    "again with the same settings and directory takes the games already saved there.",
)
@click.option(
    "--engine",
    type=click.Choice(["scalar", "batch"]),
    default="scalar",
    show_default=True,
    help="batch: the game's batched engine (the jax extra), thousands of games a second: random agents, "
    "and rule where the game has its batched form.",
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON summary object instead of a table.")
@game_options_option
def match(
    *,
    game: str,
    agents: tuple[str, ...],
    n: int,
    seed: int,
    jobs: int,
    cluster: str | None,
    chunk: int,
    record_dir: str | None,
    as_json: bool,
    engine: str,
    options: dict[str, str],
) -> None:
    """Play N games of GAME between computer AGENTs and sum up the results.

    One AGENT per seat; seats rotate from game to game so that every agent
    plays every seat (use an N that is a multiple of the number of agents).
    An agent spec is a name with optional parameters: random, rule,
    name:key=value,key=value. The same --seed gives the same results
    whatever --jobs, --chunk or --cluster.

    \b
    Examples:
      tussle match robo-pigs rule random -n 200
      tussle match robo-pigs random random -n 200 --seed 1 --json
      tussle match robo-pigs rule random -n 1000 --jobs 4 --record games/
      tussle match fite random random -n 20000 --cluster ray --json
      tussle match fite random random -n 1000000 --engine batch
    """
    on = cluster_of(cluster, jobs)
    options = read_documents(game, options)
    # The summary names the options the games really use, simulation defaults included.
    the_game = load_with_options(game, len(agents), simulation_options(game, options))
    for seat, spec in enumerate(agents):
        if make_agent(spec, the_game, seat, seed=0).interactive:
            raise AgentError(f"{spec!r} needs a person at the terminal; use tussle play for that, not match")
    summary = MatchSummary(game, list(agents), dict(the_game.non_default_options()))
    shared_first = [0] * len(agents)
    stored = 0
    if engine == "batch":
        games = _batch_match(game, agents, n, seed, simulation_options(game, options), record_dir, on)
    else:
        games = run_match(
            game,
            agents,
            n,
            seed=seed,
            jobs=jobs,
            options=options,
            record_dir=record_dir,
            cluster=on,
            chunk=chunk,
        )
    with diagnostics_on_stderr(), progress(n, f"{game}: {' vs '.join(agents)}") as advance:
        for played in games:
            summary.add(played)
            _count_shared_firsts(played, shared_first)
            stored += played.stored_before
            advance()
    if stored:
        said = (
            f"all {n} games were already in {record_dir}: the match is complete, nothing was played"
            if stored == n
            else f"{stored} of the {n} games were already in {record_dir} and were not played again"
        )
        click.echo(said, err=True)  # one line, never wrapped at a terminal's width
    if as_json:
        click.echo(json.dumps(summary.to_json()))
        return
    _show_match(summary, shared_first, record_dir)


def _batch_match(  # noqa: PLR0917 (the match's settings, as match() has them)
    game: str,
    agents: tuple[str, ...],
    n: int,
    seed: int,
    options: dict[str, Any],
    record_dir: str | None,
    cluster: Any,
) -> Iterator[GameSummary]:
    """The match's games on the game's batched engine (agents with a batched form, on this machine, no
    records)."""
    if record_dir is not None or cluster is not None:
        raise OptionError(
            "--engine batch plays on this machine and keeps no records: give no --record or --cluster"
        )
    with needs("tussle match --engine batch", "jax"):
        from tussle.batch import shared
        from tussle.batch.playout import check_agents, match_games

    engine = shared(game, options)
    check_agents(engine, agents)
    return match_games(engine, n, seed, agents)


def signed(value: float) -> str:
    """A mean return with its sign, to three places: a tiny negative mean reads +0.000, not -0.000.

    >>> signed(-0.0001), signed(-0.4996), signed(0.25)
    ('+0.000', '-0.500', '+0.250')
    """
    return f"{round(value, 3) + 0.0:+.3f}"


def _count_shared_firsts(played: GameSummary, counts: list[int]) -> None:
    firsts = [a for a, place in enumerate(played.ranking) if place == 1]
    if len(firsts) > 1:
        for a in firsts:
            counts[a] += 1


def _show_match(summary: MatchSummary, shared_first: list[int], record_dir: str | None) -> None:
    console = stdout_console()
    options = ", ".join(f"{k}={value_text(v)}" for k, v in summary.options.items())
    title = f"{summary.game}: {summary.games} games" + (f" ({options})" if options else "")
    table = Table(title=Text(title), title_justify="left")
    table.add_column("#", justify="right")
    table.add_column("agent")
    table.add_column("wins", justify="right")
    table.add_column("win rate", justify="right")
    table.add_column("draws", justify="right")
    table.add_column("mean return", justify="right")
    games_played = max(summary.games, 1)
    for a, spec in enumerate(summary.agents):
        table.add_row(
            *text_cells(
                str(a + 1),
                spec,
                str(summary.wins[a]),
                f"{summary.wins[a] / games_played:.1%}",
                str(shared_first[a]),
                signed(summary.returns[a] / games_played),
            )
        )
    console.print(table)
    cut = f"   cut by a limit: {summary.cut_by_limit}" if summary.cut_by_limit else ""
    console.print(
        f"draws: {summary.draws}{cut}   mean length: {summary.mean_length:.1f} events", markup=False
    )
    if record_dir is not None:
        console.print(f"records in {record_dir}", markup=False)
