"""The one agent interface: an agent sees its own player's view, never the hidden truth."""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from typing import Any

from tussle.game import JSON, Actions, Game, GameInfo, State


class PlayerView:
    """What one player may know and do at one moment.

    Agents get a view, not the state: it offers the player's observation, its
    legal actions and notation, and random full states consistent with what the
    player has seen (for search under hidden information). Nothing here reads
    another player's secrets.
    """

    __slots__ = ("_state", "player")

    def __init__(self, state: State, player: int) -> None:
        self._state = state
        self.player = player

    @property
    def game(self) -> Game:
        return self._state.game

    @property
    def info(self) -> GameInfo:
        return self._state.game.info

    def observation(self) -> dict[str, JSON]:
        return self._state.observation(self.player)

    def observation_text(self) -> str:
        return self._state.observation_text(self.player)

    def legal_actions(self) -> Actions[Any]:
        return self._state.legal_actions(self.player)

    def action_to_str(self, action: Any) -> str:
        return self._state.action_to_str(self.player, action)

    def parse_action(self, text: str) -> Any:
        """Parse and check ``text``; raises :class:`~tussle.errors.ActionError`."""
        return self._state.parse_action(self.player, text)

    def sample_state(self, rng: random.Random) -> State:
        """A random full state consistent with this player's observations (a fresh copy)."""
        return self._state.resample(self.player, rng)

    def to_act(self) -> tuple[int, ...]:
        return self._state.to_act()


class Agent(ABC):
    """Chooses actions for one seat of one game.

    ``spec`` is the string that made it (``random``, ``rule``, ...). Agents
    that need randomness use ``self.rng``, seeded by whoever built them, so that
    matches repeat exactly for a seed.
    """

    #: Whether this agent needs a person at the terminal.
    interactive = False

    def __init__(self, game: Game, player: int, seed: int | None = None, spec: str = "") -> None:
        self.game = game
        self.player = player
        self.rng = random.Random(seed)
        self.spec = spec or type(self).__name__

    @abstractmethod
    def act(self, view: PlayerView) -> Any:
        """The action to take in ``view`` (one of ``view.legal_actions()``)."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.spec!r} seat {self.player}>"
