"""Game knowledge for the search agents: evaluation, playout moves, move order.

A :class:`GamePolicy` is what a search agent knows about one game beyond its
rules. The base class knows nothing: every state is worth a draw until played
out, playouts move at random, and moves come in the order the game lists them.
Each game's policy (``search.py`` in the game's folder, named by its
``GameInfo.hooks.search``) overrides what it can do better. A policy may read
its own game's state directly, but decides only from what the searching player
may see: the search hands it states resampled for that player.

>>> from tussle import load_game
>>> policy = policy_for(load_game("robo-pigs"))
>>> type(policy).__name__
'RoboPigsPolicy'
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Sequence
from typing import Any

from tussle.game import Actions, Game, State


class GamePolicy:
    """Search knowledge of one game; the defaults suit any game."""

    #: Playout length (player decisions) before the evaluation takes over, when
    #: the agent's ``depth`` is not given. A large number plays to the end.
    default_depth = 10_000
    #: The playout policy used when the agent's ``rollout`` is not given.
    default_rollout = "random"
    #: Progressive widening when the agent's ``widen`` is not given (0: off).
    default_widen = 0.0
    #: The UCB exploration constant when the agent's ``c`` is not given.
    default_c = 0.7
    #: How much worse than a draw alpha-beta scores a repeated position, when its
    #: ``contempt`` is not given (see :meth:`repetition_key`).
    default_contempt = 0.0

    def __init__(self, game: Game) -> None:
        self.game = game
        self.players = game.num_players

    def evaluate(self, state: State[Any]) -> list[float]:
        """Each player's value of the unfinished ``state``, from -1 (lost) to 1 (won)."""
        return [0.0] * self.players

    def evaluate_keyed(self, state: State[Any], key: Hashable | None) -> list[float]:
        """:meth:`evaluate`, given ``state``'s :meth:`repetition_key` already made (a policy may reuse it)."""
        return self.evaluate(state)

    def values(self, state: State[Any]) -> list[float]:
        """Each player's value of ``state``: its returns once over, else :meth:`evaluate`."""
        result = state.result()
        if result is not None:
            return list(result.returns)
        return self.evaluate(state)

    def repetition_key(self, state: State[Any]) -> Hashable | None:
        """What makes ``state`` the same position as another, for games whose positions recur.

        Alpha-beta scores a position met before in the game, or earlier on the
        line it is searching, as a draw less its ``contempt``, so that it plays on
        instead of shuffling back and forth. None (the default) turns that off.
        """
        return None

    def rollout_action(self, state: State[Any], player: int, rng: random.Random) -> Any:
        """The move of ``player`` in a playout with the ``rule`` playout policy."""
        return state.legal_actions(player).sample(rng)

    def rollout_actions(self, state: State[Any], acting: tuple[int, ...], rng: random.Random) -> list[Any]:
        """The moves of every acting player in a playout (one each; a simultaneous step has several)."""
        return [self.rollout_action(state, p, rng) for p in acting]

    def tree_actions(
        self, state: State[Any], acting: tuple[int, ...], rng: random.Random
    ) -> list[Any] | None:
        """Moves the search takes here without searching (steps better played by rule), or None.

        One entry per acting player; None in an entry leaves that player's choice to the search.
        """
        return None

    def seen(self, player: int, action: Any, observer: int) -> Any:
        """What ``observer`` sees of ``player``'s ``action``: the tree search's key for the move.

        The default is the whole action. A game whose moves are partly secret
        returns the visible part, so that the searching player's tree does not
        branch on what that player could not know.
        """
        return action

    def order(self, state: State[Any], player: int, actions: Actions[Any], root: bool = True) -> list[Any]:
        """``actions`` with the most promising first (alpha-beta and progressive widening use it).

        ``root`` is False deep in an alpha-beta search, where a policy may order more cheaply.
        """
        return list(actions)

    def tokens(self, state: State[Any], player: int, prefix: tuple[str, ...]) -> Sequence[str] | None:
        """For games whose actions are built piece by piece: the pieces that may follow ``prefix``.

        None means ``prefix`` is a whole action (or that this game's actions are not built so).
        """
        return None

    def piece_source(
        self, state: State[Any], player: int
    ) -> Callable[[tuple[str, ...]], Sequence[str] | None]:
        """:meth:`tokens` for one state and player, as a function of the prefix (a policy may cache)."""
        return lambda prefix: self.tokens(state, player, prefix)

    def factored(self, state: State[Any], player: int) -> bool:
        """Whether ``player``'s actions here are built piece by piece (:meth:`tokens`, :meth:`assemble`)."""
        return False

    def assemble(self, state: State[Any], player: int, prefix: tuple[str, ...]) -> Any:
        """The action that the pieces ``prefix`` make."""
        raise NotImplementedError


def policy_for(game: Game) -> GamePolicy:
    """The search policy that ``game`` declares in ``GameInfo.hooks.search`` (else the base policy)."""
    target = game.info.hooks.search
    if not target:
        return GamePolicy(game)
    cls: type[GamePolicy] = game.hook(target)
    return cls(game)
