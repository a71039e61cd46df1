"""The ``tussle`` command line: list games, play one, run matches, replay records.

Every command works for every registered game through the core API only;
nothing here knows a game's rules. Bad input of any kind (an unknown game,
agent or option, a garbled record, a usage mistake) ends with one line on
standard error, ``tussle: error: <message>``, and exit code 2; never a
traceback.

This module holds the command group; each command lives in a module of its
own (``games`` for games and info, ``play``, ``match``, ``replay`` for replay
and step, ``tournament``, ``ladder``, ``bench``), and what they share (the
error handling, the option builders, the consoles) in ``common``.

>>> from click.testing import CliRunner
>>> result = CliRunner().invoke(cli, ["games"])
>>> result.exit_code, "robo-pigs" in result.output
(0, True)
>>> result = CliRunner().invoke(cli, ["info", "no-such-game"])
>>> result.exit_code
2
"""

from __future__ import annotations

import click

from tussle import __version__
from tussle.cli import balance, bench, games, ladder, match, play, replay, serve, tournament
from tussle.cli.common import TussleGroup, computer_agent

__all__ = ["cli", "computer_agent", "main"]


@click.group(
    cls=TussleGroup,
    name="tussle",
    invoke_without_command=True,
    context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
)
@click.version_option(__version__, "--version", "-V", prog_name="tussle", message="%(prog)s %(version)s")
@click.pass_context
def cli(ctx: click.Context) -> None:
    """Play, study and build AI for fighting tabletop games.

    \b
    Examples:
      tussle games                          list the games
      tussle info robo-pigs                 options and agents of one game
      tussle rules robo-pigs                its rules in brief and its notation
      tussle play robo-pigs                 play against the computer
      tussle match robo-pigs rule random -n 200 --json
      tussle replay game.json               check a record and show it step by step
    """
    if ctx.invoked_subcommand is None:
        click.echo(ctx.get_help())


for _command in (
    games.games,
    games.info,
    games.rules,
    play.play,
    match.match,
    replay.replay,
    replay.step,
    tournament.tournament,
    ladder.ladder,
    bench.bench,
    balance.balance,
    serve.serve,
):
    cli.add_command(_command)


def _game_commands() -> None:
    """Add the commands games declare of their own (``Hooks.commands``, such as FITE's dice odds)."""
    from tussle.registry import game_class, game_ids, game_info

    for game_id in game_ids():
        for target in game_info(game_id).hooks.commands:
            cli.add_command(game_class(game_id).hook(target))


_game_commands()


def main() -> None:
    """The ``tussle`` console script."""
    cli.main(prog_name="tussle")
