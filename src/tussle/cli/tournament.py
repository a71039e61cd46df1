"""``tussle tournament``: a single-elimination tournament between computer agents."""

from __future__ import annotations

import json
from typing import Any

import click

from tussle.cli.common import SEED, Place, game_options_option, read_documents, stdout_console
from tussle.registry import game_info


@click.command()
@click.argument("game")
@click.option(
    "--entrant",
    "-e",
    "entrant_texts",
    metavar="NAME=AGENT[:POWER]",
    multiple=True,
    help="One fighter (repeat, 2 or more): its name, agent spec and, for FITE, its super power.",
)
@click.option("--seed", type=SEED, default=0, show_default=True, help="Seed of the draw and of every game.")
@click.option(
    "--record",
    "record_dir",
    type=Place(file_okay=False),
    help="Save every game's record into this directory (default: keep no records).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the whole bracket as JSON at the end.")
@game_options_option
def tournament(
    *,
    game: str,
    entrant_texts: tuple[str, ...],
    seed: int,
    record_dir: str | None,
    as_json: bool,
    options: dict[str, str],
) -> None:
    """Run a single-elimination tournament of GAME between computer agents.

    Pairings are drawn at random (seeded); a fighter left unpaired gets a bye;
    winners are drawn anew each round until one champion is left. A drawn
    game is replayed, seats swapped, until it has a winner. Every game's
    record is saved.

    \b
    Examples:
      tussle tournament fite -e ann=rule:brutal -e bob=random -e cid=rule:cunning
      tussle tournament fite -e a=rule -e b=rule:tough -e c=random -e d=rule:fast -e e=rule --seed 3
      tussle tournament fite -e ann=rule -e bob=random --json --record games/
    """
    from tussle.tournament import (
        Match,
        Round,
        check_entrants,
        known_powers,
        match_line,
        parse_entrant,
        run_tournament,
    )

    powers = known_powers(game)
    entrants = [parse_entrant(text, powers) for text in entrant_texts]
    if len(entrants) < 2:
        raise click.UsageError(f"a tournament needs at least 2 --entrant NAME=AGENT, not {len(entrants)}")
    options = read_documents(game, options)
    check_entrants(game, entrants, dict(options))
    console = stdout_console()

    def say(text: str) -> None:
        console.print(text, markup=False, highlight=False, soft_wrap=True)

    def report(kind: str, data: Any) -> None:
        if as_json:
            return
        if kind == "round" and isinstance(data, Round):
            bye = f", {data.bye} has a bye" if data.bye else ""
            count = len(data.matches)
            say(f"Round {data.number}: {count} match{'es' if count != 1 else ''}{bye}")
        elif kind == "match" and isinstance(data, Match):
            say("  " + match_line(data))

    if not as_json:
        say(f"{game_info(game).name} tournament, seed {seed}: " + ", ".join(map(str, entrants)))
    result = run_tournament(
        game, entrants, seed=seed, options=dict(options), record_dir=record_dir, on_event=report
    )
    if as_json:
        click.echo(json.dumps(result.to_json()))
        return
    say(f"Champion: {result.champion}")
    if result.record_dir is not None:
        say(f"Records in {result.record_dir}")
