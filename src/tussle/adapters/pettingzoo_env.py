"""PettingZoo environments for every tussle game: AEC (one agent at a time) and Parallel.

Agents are ``player_0``, ``player_1``, ...: the game's seats. Each observation
is a dict with ``observation`` (the player's observation as a float32 array,
see :mod:`tussle.adapters.encoding`) and ``action_mask`` (int8, 1 for each
legal action of the game's fixed integer action space; all 0 when the agent is
not to act). Chance events are drawn inside the environment from its own
random generator, seeded by ``reset(seed=...)``. Rewards are 0 until the game
ends, then each player's return (from -1 to 1; they sum to 0).

The AEC environment steps one agent at a time. At a simultaneous step (Robo
Battle Pigs programs, FITE's secret choices) every acting agent steps in turn,
and each submission is applied at once: tussle guarantees that a submitted
choice changes nothing the other players observe, so the next agent chooses
in the same ignorance as in a real simultaneous step. The Parallel environment
takes the choices of all acting agents together; the actions of agents not
acting in a step are ignored.

``actions="steps"`` (Robo Battle Pigs and Tank Chess) has each agent choose
its action a few tokens at a time, as in the Gymnasium environment. In the AEC
environment the agent to act stays selected until its last token completes
the action; in the Parallel one every acting agent gives a token a step, an
agent whose action is complete waits (an all-zero mask, its choice ignored)
and the actions are applied together when the last one completes.

Beside the dense mask, ``infos[agent]["legal_actions"]`` lists the legal
numbers (in the AEC environment, for the agent to act); ``mask="sparse"``
leaves the dense mask out of the observations (Tank Chess's is 1.7 million
long), so an observation is ``{"observation": array}``.

A game the rules end sets ``terminations``; one stopped by a simulation limit
(``State.cut_by_limit``) or by ``max_cycles`` sets ``truncations`` instead.
``max_cycles`` counts steps, a token of an action chosen step by step too: the
Parallel environment is cut after ``max_cycles`` steps, the AEC one after
``max_cycles`` times the number of agents agent steps; a game cut by it ends
with rewards of 0. ``state()`` (and ``state_space``) is the whole state for
centralised critics: seat 0's observation array, then every seat's secrets
and what nobody sees (see
:meth:`~tussle.adapters.encoding.GameEncoding.state_array`).

An illegal action forfeits the game (``illegal_action="forfeit"``, as
PettingZoo's classic environments do): the players who chose legally share
the win and the offenders the loss. ``illegal_action="raise"`` raises
:class:`~tussle.errors.ActionError` instead; ``illegal_action="random"``
plays a legal choice drawn from the environment's generator in its place and
the game goes on (``infos[agent]["illegal_action"]`` holds the number given),
for code that samples the action space without the mask, as PettingZoo's
``max_cycles_test`` does. Games use their simulation
defaults (ply and round limits), so every game ends.

>>> from tussle.adapters.pettingzoo_env import env
>>> e = env("fightopia")
>>> e.reset(seed=1)
>>> e.agent_selection, int(e.action_space("player_0").n)
('player_0', 11648)
>>> obs, reward, terminated, truncated, info = e.last()
>>> int(obs["action_mask"].sum()), obs["observation"].shape
(30, (515,))
"""

from __future__ import annotations

from tussle.adapters import require

require(__name__, "pettingzoo", "numpy", "gymnasium", "pettingzoo")

import random
from collections.abc import Mapping
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from pettingzoo import AECEnv, ParallelEnv  # type: ignore[import-untyped]

from tussle.adapters.encoding import GameEncoding, LegalMap, StepCodec, encoding_for
from tussle.errors import ActionError, OptionError
from tussle.game import CHANCE, Game, Result, State
from tussle.registry import load_game, simulation_options

__all__ = ["TussleAECEnv", "TussleParallelEnv", "env", "parallel_env"]

Observation = dict[str, npt.NDArray[Any]]
ILLEGAL_ACTION = ("forfeit", "raise", "random")
#: What :meth:`_Table.choose` gives for a token that does not complete an action yet.
PENDING = object()
RENDER_MODES = ("ansi", "human", "rgb_array")


def forfeit_returns(players: int, offenders: set[int]) -> list[float]:
    """Returns when ``offenders`` chose illegally: the others share first place, as in tussle results.

    >>> forfeit_returns(2, {1}), forfeit_returns(3, {0}), forfeit_returns(2, {0, 1})
    ([1.0, -1.0], [-0.5, 0.25, 0.25], [0.0, 0.0])
    """
    winners = [p for p in range(players) if p not in offenders] or range(players)  # all offend: a draw
    return list(Result.shared(winners, players, "forfeit by an illegal action").returns)


#: No legal numbers (shared: nobody changes it).
_NONE = np.zeros(0, dtype=np.int64)
_NONE.flags.writeable = False


class _Table:
    """The game, its encoding, the true state and the chance generator, shared by both environments."""

    def __init__(
        self,
        game_id: str,
        players: int | None,
        options: Mapping[str, Any] | None,
        illegal_action: str,
        render_mode: str | None,
        *,
        actions: str = "flat",
        mask: str = "dense",
    ) -> None:
        if actions not in ("flat", "steps"):
            raise OptionError(f"actions {actions!r} is not one of flat, steps")
        if mask not in ("dense", "sparse"):
            raise OptionError(f"mask {mask!r} is not one of dense, sparse")
        #: Whether observations leave the dense mask out (the legal list is in the infos).
        self.sparse = mask == "sparse"
        if illegal_action not in ILLEGAL_ACTION:
            raise OptionError(f"illegal_action {illegal_action!r} is not one of {', '.join(ILLEGAL_ACTION)}")
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise OptionError(f"render_mode {render_mode!r} is not one of {', '.join(RENDER_MODES)}")
        self.game: Game = load_game(game_id, players=players, **simulation_options(game_id, options))
        self.encoding: GameEncoding = encoding_for(self.game)
        self.illegal_action = illegal_action
        self.agents = [f"player_{p}" for p in range(self.game.num_players)]
        self.rng = random.Random()
        self.state: State[Any] = self.game.new_initial_state()
        self._legal: dict[int, LegalMap] = {}
        self.steps: StepCodec | None = None
        shape = self.encoding.observation_shape
        choices = self.encoding.num_actions
        if actions == "steps":
            if self.encoding.steps is None:
                raise OptionError(f"{game_id} has no step-by-step actions; use actions='flat'")
            self.steps = self.encoding.steps
            # The tokens chosen so far, one one-hot row per step, after the observation.
            shape = (int(np.prod(shape)) + self.steps.chosen_size,)
            choices = self.steps.num_tokens
        #: Each player's tokens of the action it is choosing step by step.
        self.prefix: dict[int, list[int]] = {}
        #: Parallel, step by step: the actions completed, waiting for the others' to complete.
        self.ready: dict[int, Any] = {}
        #: The illegal number the last :meth:`choose` replaced (``illegal_action="random"``), or None.
        self.replaced: int | None = None
        self._contexts: dict[int, Any] = {}
        # Each player's observation array of the current state (step by step, with room for the
        # tokens) and its legal numbers: the state changes only in apply, the tokens in a take.
        self._arrays: dict[int, npt.NDArray[np.float32]] = {}
        self._lists: dict[int, npt.NDArray[np.int64]] = {}
        spaces: dict[str, gymnasium.spaces.Space[Any]] = {
            "observation": gymnasium.spaces.Box(0.0, 1.0, shape, np.float32)
        }
        if not self.sparse:
            spaces["action_mask"] = gymnasium.spaces.Box(0, 1, (choices,), np.int8)
        self.observation_space = gymnasium.spaces.Dict(spaces)
        self.action_space = gymnasium.spaces.Discrete(choices)
        self.state_space = gymnasium.spaces.Box(0.0, 1.0, (self.encoding.state_size,), np.float32)

    def global_state(self) -> npt.NDArray[np.float32]:
        """The whole state as an array (:meth:`GameEncoding.state_array`)."""
        return self.encoding.state_array(self.state)

    def restart(self, seed: int | None) -> None:
        if seed is not None:
            self.rng = random.Random(seed)
        self.state = self.game.new_initial_state()
        self._forget()
        self.prefix = {}
        self.ready = {}
        self.settle()

    def _forget(self) -> None:
        """Drop what was worked out from the state, which has just changed."""
        self._legal = {}
        self._contexts = {}
        self._arrays = {}
        self._lists = {}

    def settle(self) -> None:
        """Draw chance events until a player must act or the game is over."""
        while self.state.is_chance():
            self.state.apply(CHANCE, self.state.sample_chance(self.rng))
            self._forget()

    def _context(self, player: int) -> Any:
        assert self.steps is not None
        if player not in self._contexts:
            self._contexts[player] = self.steps.start(self.state, player)
        return self._contexts[player]

    def _tokens(self, player: int) -> list[int]:
        assert self.steps is not None
        return self.steps.tokens(self._context(player), self.prefix.get(player, []))

    def legal(self, player: int) -> LegalMap:
        legal = self._legal.get(player)
        if legal is None:
            legal = self._legal[player] = self.encoding.legal(self.state, player)
        return legal

    def choose(self, player: int, action: Any) -> Any | None:
        """The legal action numbered ``action``, or None when it is illegal and forfeits the game.

        Step by step, :data:`PENDING` while the token taken does not complete the action yet.
        With ``illegal_action="random"`` an illegal number is replaced by a legal one drawn
        from the environment's generator, and :attr:`replaced` keeps the number given.
        """
        self.replaced = None
        try:
            index = int(action)
        except (TypeError, ValueError):
            if self.illegal_action == "raise":
                raise ActionError(f"{action!r} is not an action number") from None
            return self._replace(player, -1)
        if self.steps is not None:
            return self._take_token(player, index)
        try:
            return self.legal(player).action(self.state, index)
        except ActionError:
            if self.illegal_action == "raise":
                raise
            return self._replace(player, index)

    def _replace(self, player: int, given: int) -> Any | None:
        """A random legal choice instead of ``given`` (``illegal_action="random"``), else None."""
        if self.illegal_action != "random":
            return None
        self.replaced = given
        numbers = self.legal_list(player, True)
        pick = int(numbers[self.rng.randrange(len(numbers))])
        if self.steps is not None:
            return self._take_token(player, pick)
        return self.legal(player).action(self.state, pick)

    def _take_token(self, player: int, token: int) -> Any | None:
        assert self.steps is not None
        try:
            text = self.steps.take(self._context(player), self.prefix.setdefault(player, []), token)
        except ActionError:
            if self.illegal_action == "raise":
                raise
            return self._replace(player, token)
        self._lists.pop(player, None)  # its tokens are others now
        if text is None:
            return PENDING
        tokens, self.prefix[player] = self.prefix[player], []
        return self.steps.action(self.state, player, tokens, text)

    def apply(self, player: int, action: Any) -> None:
        self.state.apply(player, action)
        self._forget()

    def legal_list(self, player: int, live: bool) -> npt.NDArray[np.int64]:
        """The numbers ``player`` may choose now (actions, or tokens step by step); empty if none.

        The same array object until the state or the player's tokens change: do not change it.
        """
        if not live or player in self.ready or player not in self.state.to_act():
            return _NONE
        numbers = self._lists.get(player)
        if numbers is None:
            if self.steps is None:
                numbers = self._lists[player] = self.legal(player).array()
            else:
                numbers = self._lists[player] = np.array(self._tokens(player), dtype=np.int64)
                numbers.flags.writeable = False  # shared with the infos: a change would show there
        return numbers

    def observe(self, player: int, live: bool) -> Observation:
        steps = self.steps
        array = self._arrays.get(player)
        if array is None:
            array = self.encoding.observation(self.state, player)
            self._arrays[player] = array = steps.with_room(array) if steps is not None else array
        array = array.copy()  # the caller's to change: the cache stays as it was
        if steps is not None:
            steps.mark_chosen(array, self.prefix.get(player, ()))
        if self.sparse:
            return {"observation": array}
        mask = np.zeros(self.action_space.n, dtype=np.int8)
        mask[self.legal_list(player, live)] = 1
        return {"observation": array, "action_mask": mask}

    def returns(self) -> list[float]:
        result = self.state.result()
        return [float(r) for r in result.returns] if result is not None else [0.0] * len(self.agents)

    def render(
        self, render_mode: str | None, view: int | str = "public"
    ) -> str | npt.NDArray[np.uint8] | None:
        if render_mode is None:
            gymnasium.logger.warn(
                "render() was called without a render_mode (use 'ansi', 'human' or 'rgb_array')"
            )
            return None
        if render_mode == "rgb_array":
            from tussle.adapters.pictures import picture

            return picture(self.state, view)
        text = self.state.render()
        if render_mode == "human":
            print(text)
            return None
        return text


class _TableEnv:
    """What both environments share: the table of the game, its spaces, rendering and closing."""

    _table: _Table
    metadata: dict[str, Any]

    def _seat(
        self,
        game_id: str,
        players: int | None,
        options: Mapping[str, Any] | None,
        render_mode: str | None,
        illegal_action: str,
        *,
        actions: str = "flat",
        mask: str = "dense",
    ) -> None:
        self._table = _Table(
            game_id, players, options, illegal_action, render_mode, actions=actions, mask=mask
        )
        self.metadata = {**type(self).metadata, "name": f"tussle_{game_id.replace('-', '_')}_v0"}
        self.render_mode = render_mode
        self.possible_agents: list[str] = list(self._table.agents)
        self._seat_of = {agent: p for p, agent in enumerate(self.possible_agents)}
        self.agents: list[str] = []

    @property
    def game(self) -> Game:
        return self._table.game

    @property
    def encoding(self) -> GameEncoding:
        return self._table.encoding

    @property
    def tussle_state(self) -> State[Any]:
        """The true state of the game being played (read it, do not change it)."""
        return self._table.state

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        # The same object every time (and for every agent), as PettingZoo requires for seeding.
        return self._table.observation_space

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self._table.action_space

    @property
    def state_space(self) -> gymnasium.spaces.Space[Any]:
        """The space of :meth:`state`."""
        return self._table.state_space

    def state(self) -> npt.NDArray[np.float32]:
        """The whole state for centralised critics, every secret in it (never give it to a player).

        Seat 0's observation array, then every seat's secrets and what nobody
        sees (:meth:`~tussle.adapters.encoding.GameEncoding.state_array`).
        """
        return self._table.global_state()

    def _view(self, render_view: int | str) -> None:
        from tussle.adapters.pictures import view_of

        view_of(self._table.game, render_view)  # a bad view fails here, with its message
        self.render_view = render_view

    def _check_cycles(self, max_cycles: int | None) -> None:
        if max_cycles is not None and max_cycles < 1:
            raise OptionError(f"max_cycles must be 1 or more (or None), not {max_cycles}")
        self.max_cycles = max_cycles

    #: Whose view ``rgb_array`` pictures show: ``"public"`` (what everyone sees) or a seat.
    render_view: int | str = "public"

    def render(self) -> str | npt.NDArray[np.uint8] | None:
        """The whole game as text (every secret shown: for spectators), or drawn from ``render_view``."""
        return self._table.render(self.render_mode, self.render_view)

    def close(self) -> None:
        """Nothing to release."""


class TussleAECEnv(_TableEnv, AECEnv):  # type: ignore[misc]
    """A tussle game as a PettingZoo AEC environment (see the module docs)."""

    metadata: dict[str, Any] = {  # noqa: RUF012 (PettingZoo reads it from the class)
        "render_modes": list(RENDER_MODES),
        "name": "tussle_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        game_id: str,
        players: int | None = None,
        options: Mapping[str, Any] | None = None,
        *,
        render_mode: str | None = None,
        illegal_action: str = "forfeit",
        max_cycles: int | None = None,
        actions: str = "flat",
        mask: str = "dense",
        render_view: int | str = "public",
    ) -> None:
        super().__init__()
        self._seat(game_id, players, options, render_mode, illegal_action, actions=actions, mask=mask)
        self._view(render_view)
        self._check_cycles(max_cycles)
        self._over = False
        self._steps = 0

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self._table.restart(seed)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._over = False
        self._steps = 0
        self._select()
        self._tell()

    def _tell(self) -> None:
        """Put the legal numbers of the agent to act in its infos (``legal_actions``)."""
        agent = self.agent_selection
        player = self._seat_of[agent]
        self.infos[agent] = {
            **self.infos[agent],
            "legal_actions": self._table.legal_list(player, not self._over),
        }

    def _select(self) -> None:
        """Point ``agent_selection`` at the next player to act, or end the game."""
        acting = self._table.state.to_act()
        if acting:
            self.agent_selection = self.possible_agents[acting[0]]
            return
        self._finish(self._table.returns(), cut=self._table.state.cut_by_limit())

    def _finish(self, returns: list[float], cut: bool = False) -> None:
        """End the game: terminated, or truncated when a limit (not the rules) stopped it."""
        self._over = True
        ended = self.truncations if cut else self.terminations
        for p, agent in enumerate(self.possible_agents):
            self.rewards[agent] = returns[p]
            ended[agent] = True

    def observe(self, agent: str) -> Observation:
        return self._table.observe(self._seat_of[agent], not self._over)

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        player = self._seat_of[agent]
        # Only the end of a game pays: every reward and running total is 0 until then, so
        # PettingZoo's clearing and adding up (a loop over the agents each) wait for the end.
        chosen = self._table.choose(player, action)
        replaced = self._table.replaced
        if chosen is None:
            self.infos[agent] = {
                "illegal_action": int(action) if isinstance(action, int | np.integer) else -1
            }
            self._finish(forfeit_returns(len(self.possible_agents), {player}))
        elif chosen is PENDING:
            pass  # a token of an action still being chosen: the same agent goes on
        else:
            self.infos[agent] = {}
            self._table.apply(player, chosen)
            self._table.settle()
            self._select()
        if replaced is not None:
            self.infos[agent] = {**self.infos[agent], "illegal_action": replaced}
        # Every step of a live agent counts, a token of an action chosen step by step too.
        self._steps += 1
        cycles = self.max_cycles
        if not self._over and cycles is not None and self._steps >= cycles * len(self.possible_agents):
            self._finish([0.0] * len(self.possible_agents), cut=True)  # undecided: nobody gains
        self._tell()
        if self._over:
            self._accumulate_rewards()


class TussleParallelEnv(_TableEnv, ParallelEnv):  # type: ignore[misc]
    """A tussle game as a PettingZoo Parallel environment: the acting agents choose together."""

    metadata: dict[str, Any] = {"render_modes": list(RENDER_MODES), "name": "tussle_v0"}  # noqa: RUF012

    def __init__(
        self,
        game_id: str,
        players: int | None = None,
        options: Mapping[str, Any] | None = None,
        *,
        render_mode: str | None = None,
        illegal_action: str = "forfeit",
        max_cycles: int | None = None,
        actions: str = "flat",
        mask: str = "dense",
        render_view: int | str = "public",
    ) -> None:
        self._seat(game_id, players, options, render_mode, illegal_action, actions=actions, mask=mask)
        self._view(render_view)
        self._check_cycles(max_cycles)
        self._steps = 0

    def _observations(self, live: bool) -> dict[str, Observation]:
        return {agent: self._table.observe(p, live) for p, agent in enumerate(self.possible_agents)}

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Observation], dict[str, dict[str, Any]]]:
        self._table.restart(seed)
        self.agents = list(self.possible_agents)
        self._steps = 0
        return self._observations(True), self._infos(True)

    def _infos(self, live: bool) -> dict[str, dict[str, Any]]:
        """Each agent's legal numbers now (``legal_actions``: empty for an agent that does not act)."""
        table = self._table
        return {
            agent: {"legal_actions": table.legal_list(p, live)}
            for p, agent in enumerate(self.possible_agents)
        }

    def step(
        self, actions: dict[str, int]
    ) -> tuple[
        dict[str, Observation],
        dict[str, float],
        dict[str, bool],
        dict[str, bool],
        dict[str, dict[str, Any]],
    ]:
        table = self._table
        if not self.agents:
            raise ActionError("the game is over: call reset() to start another")
        # Step by step, an agent whose action is complete waits (its choice is ignored) for the others'.
        acting = [p for p in table.state.to_act() if p not in table.ready]
        missing = [self.possible_agents[p] for p in acting if self.possible_agents[p] not in actions]
        if missing:
            raise ActionError(f"{', '.join(missing)} must act now and chose nothing")
        # Every acting agent's choice is read before any is applied: a real simultaneous step.
        offenders: set[int] = set()
        replaced: dict[int, int] = {}
        for p in acting:
            action = table.choose(p, actions[self.possible_agents[p]])
            if table.replaced is not None:
                replaced[p] = table.replaced
            if action is None:
                offenders.add(p)
            elif action is not PENDING:
                table.ready[p] = action
        cut = False
        if offenders:
            returns = forfeit_returns(len(self.possible_agents), offenders)
            over = True
        elif any(p not in table.ready for p in table.state.to_act()):
            over = False  # tokens taken, actions still incomplete: nothing happens yet
            returns = [0.0] * len(self.possible_agents)
        else:
            chosen = [(p, table.ready[p]) for p in table.state.to_act()]
            table.ready = {}
            for p, action in chosen:
                table.apply(p, action)
            table.settle()
            over = table.state.is_terminal()
            returns = table.returns() if over else [0.0] * len(self.possible_agents)
            cut = over and table.state.cut_by_limit()
        # Every step counts, one in which only tokens were taken (step by step) too.
        self._steps += 1
        if not over and self.max_cycles is not None and self._steps >= self.max_cycles:
            cut = True
        observations = self._observations(not (over or cut))
        infos = self._infos(not (over or cut))
        for p in offenders:
            infos[self.possible_agents[p]]["illegal_action"] = -1
        for p, given in replaced.items():
            infos[self.possible_agents[p]]["illegal_action"] = given
        rewards = {agent: returns[p] for p, agent in enumerate(self.possible_agents)}
        terminations = dict.fromkeys(self.possible_agents, over and not cut)
        truncations = dict.fromkeys(self.possible_agents, cut)
        if over or cut:
            self.agents = []
        return observations, rewards, terminations, truncations, infos


def env(game_id: str, **kwargs: Any) -> TussleAECEnv:
    """The AEC environment of ``game_id`` (keyword arguments as for :class:`TussleAECEnv`)."""
    return TussleAECEnv(game_id, **kwargs)


def parallel_env(game_id: str, **kwargs: Any) -> TussleParallelEnv:
    """The Parallel environment of ``game_id`` (keyword arguments as for :class:`TussleParallelEnv`).

    >>> e = parallel_env("robo-pigs")
    >>> observations, infos = e.reset(seed=3)
    >>> sorted(observations), int(observations["player_1"]["action_mask"].sum())
    (['player_0', 'player_1'], 32768)
    """
    return TussleParallelEnv(game_id, **kwargs)
