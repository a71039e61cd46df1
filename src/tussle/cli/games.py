"""``tussle games`` and ``tussle info``: the list of games, and one game in detail."""

from __future__ import annotations

import json
import sys
from typing import Any

import click
from rich import box
from rich.console import Console
from rich.markdown import Markdown
from rich.table import Table

from tussle.agents import playable_agents
from tussle.cli.common import stdout_console, text_cells, value_text
from tussle.errors import TussleError
from tussle.game import GameInfo, Option
from tussle.registry import game_class, game_ids, game_info, load_game


def _players_text(info: GameInfo) -> str:
    if info.min_players == info.max_players:
        return str(info.min_players)
    return f"{info.min_players}-{info.max_players}"


def _allowed(opt: Option) -> str:
    if opt.kind == "bool":
        return "true, false"
    if opt.kind == "choice":
        return ", ".join(opt.choices)
    if opt.kind == "int":
        low = "" if opt.minimum is None else str(opt.minimum)
        high = "" if opt.maximum is None else str(opt.maximum)
        return f"integer {low}..{high}" if low or high else "any integer"
    if opt.kind == "document":
        names = "".join(f", {name}" for name in opt.documents)
        return f"the text, or a file (read here){names}"
    if opt.choices:  # text with suggested values (FITE's powers: a powers document may name others)
        return ", ".join(opt.choices) + ", or another name"
    return "any text"


def _info_json(info: GameInfo) -> dict[str, Any]:
    return {
        "id": info.id,
        "name": info.name,
        "description": info.description,
        "min_players": info.min_players,
        "max_players": info.max_players,
        "dynamics": str(info.dynamics),
        "chance": str(info.chance),
        "information": str(info.information),
        "has_position": info.has_position,
        "options": [
            {
                "name": o.name,
                "type": o.kind,
                "default": o.default,
                "choices": list(o.choices),
                "minimum": o.minimum,
                "maximum": o.maximum,
                "documents": list(o.documents),
                "help": o.help,
            }
            for o in info.options
        ],
        "agents": playable_agents(load_game(info.id)),
    }


@click.command()
@click.argument("game", required=False)
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
def games(game: str | None, as_json: bool) -> None:
    """List the games, or show one GAME in detail (same as `tussle info GAME`).

    \b
    Examples:
      tussle games
      tussle games robo-pigs
      tussle games --json
    """
    if game is not None:
        _show_info(game, as_json)
        return
    infos = [game_info(g) for g in game_ids()]
    if as_json:
        click.echo(json.dumps([_info_json(i) for i in infos]))
        return
    table = Table(box=box.SIMPLE_HEAD)
    table.add_column("id", no_wrap=True, style="bold")
    table.add_column("name")
    table.add_column("players", justify="center")
    table.add_column("kind", no_wrap=True)
    table.add_column("description", ratio=1)
    for info in infos:
        table.add_row(
            *text_cells(
                info.id,
                info.name,
                _players_text(info),
                f"{info.dynamics}\n{info.chance}\n{info.information}",
                info.description,
            ),
            end_section=True,
        )
    console = stdout_console()
    console.print(table)
    console.print("More about one game: tussle info GAME", markup=False)


@click.command()
@click.argument("game")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
def info(game: str, as_json: bool) -> None:
    """Show one GAME: players, turn structure, options (for --option) and agents.

    \b
    Examples:
      tussle info robo-pigs
      tussle info robo-pigs --json
    """
    _show_info(game, as_json)


def _show_info(game_id: str, as_json: bool) -> None:
    info = game_info(game_id)
    if as_json:
        click.echo(json.dumps(_info_json(info)))
        return
    console = stdout_console()

    def say(text: str) -> None:
        console.print(text, markup=False)

    say(f"{info.name} ({info.id})")
    say(info.description)
    say("")
    say(f"players:     {_players_text(info)}")
    say(f"turns:       {info.dynamics}")
    say(f"chance:      {info.chance}")
    say(f"information: {info.information}")
    say(f"position:    {'yes, tussle play ' + info.id + ' --position TEXT' if info.has_position else 'no'}")
    notation = getattr(info, "notation", "")
    if isinstance(notation, str) and notation:
        say(f"notation:    {notation}")
    say("")
    if info.options:
        table = Table(title="options (--option NAME=VALUE)", title_justify="left")
        for column in ("name", "type", "default", "allowed", "help"):
            table.add_column(column, no_wrap=column == "name")
        for opt in info.options:
            table.add_row(*text_cells(opt.name, opt.kind, value_text(opt.default), _allowed(opt), opt.help))
        console.print(table)
    else:
        say("options: none")
    table = Table(title="agents that can play it (for --players and match)", title_justify="left")
    table.add_column("agent", no_wrap=True)
    table.add_column("description")
    for name, text in playable_agents(load_game(info.id)).items():
        table.add_row(*text_cells(name, text))
    console.print(table)
    rules = f"tussle rules {info.id}; " if game_class(info.id).rules_text() is not None else ""
    say(f"Rules in brief and notation: {rules}rulings: docs/games/{info.id}.md")


@click.command()
@click.argument("game")
def rules(game: str) -> None:
    """Print GAME's rules in brief and its notation, with examples.

    The text ships with tussle, in the game's folder; the rulings taken where
    the rule text is unclear are in docs/games/GAME.md.

    \b
    Examples:
      tussle rules robo-pigs
      tussle rules fite | less
    """
    text = game_class(game).rules_text()
    if text is None:
        raise TussleError(f"{game} ships no rules text yet; see docs/games/{game}.md")
    # Wrapped to the terminal (at most 100 columns, 100 when it is no terminal), never cut.
    console = Console(highlight=False)
    console.width = min(console.width, 100) if console.is_terminal else 100
    if not (console.is_terminal and sys.stdin.isatty()):
        console.print(Markdown(text))  # a pipe or a file gets the plain text, for | less or grep
        return
    # Pages of a person's terminal: the rules are longer than a screen ($PAGER, else less).
    with console.capture() as captured:
        console.print(Markdown(text))
    click.echo_via_pager(captured.get())
