"""The registry of games: ids to Game classes.

>>> "robo-pigs" in game_ids()
True
>>> load_game("robo-pigs").info.name
'Robo Battle Pigs'
"""

from __future__ import annotations

import difflib
import importlib
from collections.abc import Mapping
from typing import Any

from tussle.errors import UnknownGameError
from tussle.game import Game, GameInfo

# id -> "module:Class". Games are imported on first use so that `tussle games`
# and a single game stay quick to start.
_GAMES: dict[str, str] = {
    "robo-pigs": "tussle.games.robo_pigs:RoboPigs",
    "fight": "tussle.games.fight:Fight",
    "fightopia": "tussle.games.fightopia:Fightopia",
    "fite": "tussle.games.fite:Fite",
    "tank-chess": "tussle.games.tank_chess:TankChess",
}


def game_ids() -> list[str]:
    """The ids of every registered game, sorted."""
    return sorted(_GAMES)


def game_class(game_id: str) -> type[Game]:
    """The Game class registered under ``game_id``."""
    try:
        target = _GAMES[game_id]
    except KeyError:
        close = difflib.get_close_matches(game_id, list(_GAMES), n=1)
        hint = f" (did you mean {close[0]}?)" if close else ""
        raise UnknownGameError(
            f"unknown game {game_id!r}{hint}; known games: {', '.join(game_ids())}"
        ) from None
    module_name, _, class_name = target.partition(":")
    cls: type[Game] = getattr(importlib.import_module(module_name), class_name)
    return cls


def game_info(game_id: str) -> GameInfo:
    """The :class:`GameInfo` of a registered game."""
    return game_class(game_id).info


def load_game(game_id: str, /, players: int | None = None, **options: Any) -> Game:
    """A game with its options validated.

    Raises :class:`~tussle.errors.UnknownGameError` or
    :class:`~tussle.errors.OptionError` with a one-line message.

    >>> load_game("robo-pigs", extra_x="yes").options["extra_x"]
    True
    >>> load_game("robo-pigs", speed=3)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    tussle.errors.OptionError: robo-pigs has no option 'speed' (options: repair_at, extra_x, ...)
    """
    return game_class(game_id)(players=players, **options)


def simulation_options(game_id: str, options: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """``options`` completed with the game's simulation defaults (those not given).

    Simulations use these so that every game between programs ends, while
    people playing keep the plain defaults.

    >>> simulation_options("robo-pigs")
    {'round_limit': 100}
    >>> simulation_options("robo-pigs", {"round_limit": 0})
    {'round_limit': 0}
    """
    out = dict(options or {})
    for name, value in game_info(game_id).simulation_defaults:
        out.setdefault(name, value)
    return out
