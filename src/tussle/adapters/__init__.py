"""Adapters to the reinforcement-learning ecosystem: PettingZoo, Gymnasium and OpenSpiel.

Each needs its library, an optional extra: ``tussle[gymnasium]``,
``tussle[pettingzoo]``, ``tussle[openspiel]``, or ``tussle[rl]`` for all three;
importing an adapter without its extra raises an ImportError that names the
extra to install. The core never imports them. Importing this package registers
every game with Gymnasium (when it is installed) as ``tussle/<game>-v0``::

    import gymnasium
    import tussle.adapters

    gymnasium.register_envs(tussle.adapters)
    env = gymnasium.make("tussle/fite-v0", opponents="rule") Everything
here stands on the core API alone (notation, legal actions, observations,
``resample``), never on a game's internals:

- :mod:`tussle.adapters.encoding`: each game's fixed integer action space, read
  from its notation, and its observation arrays, built from each player's
  observation;
- :mod:`tussle.adapters.pettingzoo_env`: an AEC environment for every game and
  a Parallel one for the games with simultaneous steps;
- :mod:`tussle.adapters.gymnasium_env`: one seat against fixed tussle agents;
- :mod:`tussle.adapters.openspiel_game`: every game registered as a pyspiel
  Python game, with helpers to play tussle agents against OpenSpiel bots;
- :mod:`tussle.adapters.openspiel_bench`: tussle's MCTS against OpenSpiel's
  MCTSBot at the same time per move.

See docs/ecosystem.md for examples and the action numbering of each game.
"""

from __future__ import annotations

import importlib


class MissingExtraError(ImportError):
    """An adapter imported without the optional extra that brings its library."""


def require(user: str, extra: str, *modules: str) -> None:
    """Import ``modules`` or raise :class:`MissingExtraError` saying which extra of tussle brings them.

    >>> require("tussle.adapters.example", "gymnasium", "no_such_module_here")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    tussle.adapters.MissingExtraError: tussle.adapters.example needs no_such_module_here, ...[gymnasium]'
    """
    for name in modules:
        try:
            importlib.import_module(name)
        except ImportError:
            raise MissingExtraError(
                f"{user} needs {name}, which is not installed: pip install 'tussle[{extra}]'"
            ) from None


def _register_gymnasium() -> None:
    """Register every game with Gymnasium as ``tussle/<game>-v0``, if Gymnasium is installed.

    The entry point is named as text, so registering imports nothing more.
    """
    try:
        import gymnasium
    except ImportError:
        return
    from tussle.registry import game_ids

    for game_id in game_ids():
        name = f"tussle/{game_id}-v0"
        if name not in gymnasium.registry:
            gymnasium.register(
                id=name,
                entry_point="tussle.adapters.gymnasium_env:TussleGymEnv",
                kwargs={"game_id": game_id},
            )


_register_gymnasium()
