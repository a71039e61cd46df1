"""Colour in the terminal: a view's text with the styles its game's ``style`` hook marks.

A game declares where its text is coloured (:attr:`tussle.game.Hooks.style`) as
character spans with style *names*; this module holds what each name looks like
(:data:`THEME`), so that every game's sides and last move look alike. The text
itself is never changed: the plain view, a record or a transcript without a
terminal, stays byte for byte what it was.

>>> from tussle import load_game
>>> state = load_game("tank-chess").new_initial_state()
>>> view = styled(state.game, state.observation_text(0), state.observation(0), 0)
>>> view.plain == state.observation_text(0)
True
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from typing import Any

from rich.console import Console
from rich.text import Text

from tussle.game import Game

#: What each style name looks like. ``side0``, ``side1``, ... are the seats' pieces and names (seat
#: order); ``last`` marks the last move (its squares, its lines); ``hidden`` a card seen from its
#: back; ``title`` a view's first line. Only the 16 standard colours, which every colour terminal has.
THEME: dict[str, str] = {
    "side0": "bold cyan",
    "side1": "bold red",
    "side2": "bold green",
    "side3": "bold yellow",
    "side4": "bold magenta",
    "side5": "bold blue",
    "last": "reverse",
    "hidden": "dim",
    "title": "bold",
}

Span = tuple[int, int, str]


def spans(game: Game, text: str, observation: Mapping[str, Any], player: int) -> list[Span]:
    """The game's style spans of ``text`` (none without a ``style`` hook), checked to lie inside it."""
    target = game.info.hooks.style
    if not target:
        return []
    found: Iterable[Span] = game.hook(target)(text, observation, player)
    return [(a, b, name) for a, b, name in found if 0 <= a < b <= len(text) and name in THEME]


def styled(game: Game, text: str, observation: Mapping[str, Any], player: int) -> Text:
    """``text`` (``player``'s view, written from ``observation``) as rich Text in the game's colours."""
    result = Text(text)
    for start, end, name in spans(game, text, observation, player):
        result.stylize(THEME[name], start, end)
    return result


def wanted(console: Console, choice: bool | None) -> bool:
    """Whether to colour: ``choice`` when given (``--color``/``--no-color``), else only on a terminal
    that can show colour and with ``NO_COLOR`` unset (https://no-color.org: any value turns it off).
    """
    if choice is not None:
        return choice
    return console.is_terminal and console.color_system is not None and not os.environ.get("NO_COLOR")


def colour_console(console: Console) -> Console:
    """A console writing to the same file in colour even when it is no terminal (``--color``)."""
    if console.color_system is not None and not console.no_color:
        return console
    return Console(
        file=console.file, highlight=False, soft_wrap=True, color_system="standard", no_color=False
    )
