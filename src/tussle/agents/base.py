"""The one agent interface: an agent sees its own player's view, never the hidden truth."""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import Any, ClassVar

from tussle.agents.params import Param, parse_params, unknown_parameter
from tussle.errors import AgentError
from tussle.game import JSON, Actions, Game, GameInfo, State


class PlayerView:
    """What one player may know and do at one moment.

    Agents get a view, not the state: it offers the player's observation, its
    legal actions and notation, and random full states consistent with what the
    player has seen (for search under hidden information). Nothing here reads
    another player's secrets.
    """

    __slots__ = ("_state", "player")

    def __init__(self, state: State[Any], player: int) -> None:
        self._state = state
        self.player = player

    @property
    def game(self) -> Game:
        return self._state.game

    @property
    def info(self) -> GameInfo:
        return self._state.game.info

    def observation(self) -> Mapping[str, JSON]:
        return self._state.observation(self.player)

    def observation_text(self) -> str:
        return self._state.observation_text(self.player)

    def legal_actions(self) -> Actions[Any]:
        return self._state.legal_actions(self.player)

    def action_to_str(self, action: Any) -> str:
        return self._state.action_to_str(self.player, action)

    def action_to_json(self, action: Any) -> Mapping[str, JSON]:
        """The structured form of ``action`` (what to read an action's parts from, not its notation)."""
        return self._state.action_to_json(self.player, action)

    def action_from_json(self, data: object) -> Any:
        """The action whose structured form is ``data``, checked (:class:`~tussle.errors.ActionError`)."""
        return self._state.action_from_json(self.player, data)

    def parse_action(self, text: str) -> Any:
        """Parse and check ``text``; raises :class:`~tussle.errors.ActionError`."""
        return self._state.parse_action(self.player, text)

    def sample_state(self, rng: random.Random) -> State[Any]:
        """A random full state consistent with this player's observations (a fresh copy)."""
        return self._state.resample(self.player, rng)

    def to_act(self) -> tuple[int, ...]:
        return self._state.to_act()


class Agent(ABC):
    """Chooses actions for one seat of one game.

    ``spec`` is the string that made it (``random``, ``rule``, ...). Agents
    that need randomness use ``self.rng``, seeded by whoever built them, so that
    matches repeat exactly for a seed.

    An agent declares the parameters it takes once, in :attr:`PARAMS`; this
    class reads and checks the ones given (``params``, from a spec such as
    ``rule:samples=8``) and keeps every declared one in ``self.params``, with
    its default where none was given. A parameter the agent does not declare is
    refused in one line. What an agent must prepare once its parameters are
    known goes in :meth:`setup`, so that no agent repeats the constructor.
    """

    #: Whether this agent needs a person at the terminal.
    interactive = False
    #: The parameters this agent takes, by name, in the order its messages list them.
    PARAMS: ClassVar[dict[str, Param]] = {}
    #: The spec an agent built without one reports (the class name when empty).
    default_spec: ClassVar[str] = ""

    def __init__(
        self,
        game: Game,
        player: int,
        seed: int | None = None,
        spec: str = "",
        params: dict[str, str] | None = None,
    ) -> None:
        self.game = game
        self.player = player
        self.seed = seed
        self.rng = random.Random(seed)
        self.spec = spec or self.default_spec or type(self).__name__
        given = params or {}
        for key in given:
            if key not in self.PARAMS:
                raise self.undeclared(key)
        self.params: dict[str, Any] = parse_params(self.spec, self.PARAMS, given)
        self.setup()

    def setup(self) -> None:  # noqa: B027 (a hook that most agents leave empty)
        """Prepare the agent once ``self.params`` is read (nothing by default).

        Raise :class:`~tussle.errors.AgentError` here for a game the agent cannot play.
        """

    def undeclared(self, key: str) -> AgentError:
        """The one-line error for a parameter ``key`` that this agent does not declare."""
        return AgentError(unknown_parameter(self.spec, self.PARAMS, key, self.spec_name))

    @property
    def spec_name(self) -> str:
        """The agent's name in its spec: ``rule`` for ``rule:samples=8``."""
        # Imported here: tussle.agents imports this module.
        from tussle.agents import parse_spec

        try:
            return parse_spec(self.spec)[0]
        except AgentError:  # a spec written by hand, not one make_agent read
            return self.spec

    @abstractmethod
    def act(self, view: PlayerView) -> Any:
        """The action to take in ``view`` (one of ``view.legal_actions()``)."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.spec!r} seat {self.player}>"
