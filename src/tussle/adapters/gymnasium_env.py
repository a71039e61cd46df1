"""A Gymnasium environment: one seat of a tussle game against fixed tussle agents.

The learner plays seat ``seat``; every other seat is played by a tussle agent
built from an agent spec (``random``, ``rule``, ``mcts:iterations=50``, ...),
and chance events are drawn inside the environment. The observation is the
player's float32 array; the legal actions are kept out of it, where maskable
learners look for them: :meth:`TussleGymEnv.action_masks` (booleans, as
sb3-contrib's MaskablePPO asks), ``info["action_mask"]`` (int8 over the
game's fixed action space, see :mod:`tussle.adapters.encoding`, as Gymnasium's
own games give it) and ``info["legal_actions"]`` (the legal numbers, sparse: a
list of ints, so that Gymnasium's vector environments, which stack array infos,
keep one list per environment).
``mask="sparse"`` leaves the dense mask out of ``info``, which saves building
a 1.7-million-long array every step in Tank Chess; ``actions="steps"``
chooses an action a few small choices at a time where a game has a step codec
(Robo Battle Pigs, Tank Chess). ``mask_in_observation=True`` gives the older dict
observation (``observation`` and ``action_mask``) instead. The reward is 0
until the game ends, then the learner's return (from -1 to 1). A game stopped
by a simulation limit (a ply, turn or round limit) ends as truncated, one the
rules end as terminated. An illegal action forfeits the game (the learner loses
and the episode ends, ``info["illegal_action"]`` names the action) unless
``illegal_action="raise"``. Games use their simulation defaults, so every
episode ends. Render modes: ``ansi`` (the game as text), ``human`` (printed)
and ``rgb_array`` (the board drawn as the browser draws it, from the view
``render_view`` names: the learner's seat by default, another seat, or
``"public"``; see :mod:`tussle.adapters.pictures`).

Every game is registered with Gymnasium as ``tussle/<game>-v0`` when
:mod:`tussle.adapters` is imported (``gymnasium.make("tussle/fite-v0",
opponents="rule")``).

Seeding: ``reset(seed=...)`` seeds the environment's generator, which draws
the chance events and fresh seeds for the opponents, so an episode repeats
exactly for a seed and the learner's actions.

>>> from tussle.adapters.gymnasium_env import TussleGymEnv
>>> env = TussleGymEnv("fite", opponents="rule")
>>> obs, info = env.reset(seed=7)
>>> int(env.action_space.n), obs.shape, int(info["action_mask"].sum()), int(env.action_masks().sum())
(5143, (130,), 6, 6)
>>> obs, reward, terminated, truncated, info = env.step(int(info["action_mask"].argmax()))
>>> terminated, truncated, reward
(False, False, 0.0)
"""

from __future__ import annotations

from tussle.adapters import require

require(__name__, "gymnasium", "numpy", "gymnasium")

import random
from collections.abc import Mapping, Sequence
from typing import Any, SupportsFloat

import gymnasium
import numpy as np
import numpy.typing as npt

from tussle.adapters.encoding import GameEncoding, LegalMap, StepCodec, encoding_for
from tussle.agents import make_agent, parse_spec
from tussle.agents.base import Agent, PlayerView
from tussle.errors import ActionError, OptionError
from tussle.game import CHANCE, Game, Result, State, Termination
from tussle.registry import load_game, simulation_options

__all__ = ["TussleGymEnv"]

#: The float32 array, or with ``mask_in_observation`` a dict of it and the mask.
Observation = Any


class TussleGymEnv(gymnasium.Env[Observation, np.int64]):
    """One seat of a tussle game as a single-agent Gymnasium environment (see the module docs)."""

    metadata: dict[str, Any] = {"render_modes": ["ansi", "human", "rgb_array"], "render_fps": 1}  # noqa: RUF012

    def __init__(
        self,
        game_id: str,
        opponents: str | Sequence[str] = "random",
        *,
        seat: int = 0,
        players: int | None = None,
        options: Mapping[str, Any] | None = None,
        render_mode: str | None = None,
        illegal_action: str = "forfeit",
        mask_in_observation: bool = False,
        actions: str = "flat",
        mask: str = "dense",
        render_view: int | str | None = None,
    ) -> None:
        if illegal_action not in ("forfeit", "raise"):
            raise OptionError(f"illegal_action {illegal_action!r} is not one of forfeit, raise")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise OptionError(f"render_mode {render_mode!r} is not one of ansi, human, rgb_array")
        self.game: Game = load_game(game_id, players=players, **simulation_options(game_id, options))
        n = self.game.num_players
        if not 0 <= seat < n:
            raise OptionError(f"seat {seat} is not one of the {n} seats of {game_id} (0 to {n - 1})")
        specs = [opponents] * (n - 1) if isinstance(opponents, str) else list(opponents)
        if len(specs) != n - 1:
            raise OptionError(f"{game_id} with {n} players needs {n - 1} opponent specs, got {len(specs)}")
        self.seat = seat
        self.specs = specs
        #: Whose view ``rgb_array`` pictures show: a seat, or ``"public"`` (what everyone sees).
        self.render_view: int | str = seat if render_view is None else render_view
        if render_mode == "rgb_array":
            from tussle.adapters.pictures import view_of

            view_of(self.game, self.render_view)  # a bad view fails here, with its message
        # Each opponent's class and parameters, read once: every reset builds the agents afresh
        # from them, as make_agent would, without parsing the spec and finding the class again.
        self._makers: dict[int, tuple[type[Agent], str, dict[str, str]]] = {}
        for s, spec in zip(self._others(), specs, strict=True):
            agent = make_agent(spec, self.game, s, seed=0)  # a bad spec fails here, with its message
            self._makers[s] = (type(agent), spec, parse_spec(spec)[1])
        self.encoding: GameEncoding = encoding_for(self.game)
        if actions not in ("flat", "steps"):
            raise OptionError(f"actions {actions!r} is not one of flat, steps")
        if mask not in ("dense", "sparse"):
            raise OptionError(f"mask {mask!r} is not one of dense, sparse")
        if mask == "sparse" and mask_in_observation:
            raise OptionError("mask='sparse' leaves the dense mask out: it cannot be in the observation")
        #: Whether infos carry only the sparse list of legal actions, not the dense mask.
        self.sparse = mask == "sparse"
        self.steps: StepCodec | None = None
        if actions == "steps":
            if self.encoding.steps is None:
                raise OptionError(f"{game_id} has no step-by-step actions; use actions='flat'")
            self.steps = self.encoding.steps
        #: The tokens of the action being chosen step by step (actions="steps").
        self.prefix: list[int] = []
        # The learner's observation array and step context, made once per decision:
        # the state does not change while the tokens of one action are chosen.
        self._base: npt.NDArray[np.float32] | None = None
        self._context: Any = None
        self.render_mode = render_mode
        self.illegal_action = illegal_action
        self.mask_in_observation = mask_in_observation
        shape = self.encoding.observation_shape
        choices = self.encoding.num_actions
        if self.steps is not None:
            # The observation says which tokens are chosen so far: one row per step.
            shape = (int(np.prod(shape)) + self.steps.chosen_size,)
            choices = self.steps.num_tokens
        array = gymnasium.spaces.Box(0.0, 1.0, shape, np.float32)
        self.observation_space: gymnasium.spaces.Space[Any] = array
        if mask_in_observation:
            self.observation_space = gymnasium.spaces.Dict(
                {
                    "observation": array,
                    "action_mask": gymnasium.spaces.Box(0, 1, (choices,), np.int8),
                }
            )
        self.decisions = 0
        self.action_space = gymnasium.spaces.Discrete(choices)
        self._choices = choices
        self.state: State[Any] = self.game.new_initial_state()
        self._agents: dict[int, Agent] = {}
        self._chance = random.Random()
        self._legal: LegalMap | None = None
        self._over = False
        #: Whether the learner is to act now (worked out where the opponents' play stops).
        self._acting = False

    def _others(self) -> list[int]:
        return [p for p in range(self.game.num_players) if p != self.seat]

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        super().reset(seed=seed)
        # The numbers np_random.integers(0, 2**62, size=players + 1) gives, drawn directly: below
        # a power of two it keeps the top bits of one raw draw each (no draw is ever refused), and
        # its own call cost about 12 microseconds a reset (tests check the two agree).
        raw = self.np_random.bit_generator.random_raw(self.game.num_players + 1)
        seeds = [int(s) >> 2 for s in raw]
        self._chance = random.Random(seeds[0])
        self._agents = {
            p: cls(self.game, p, seeds[1 + p], spec=spec, params=dict(params))
            for p, (cls, spec, params) in self._makers.items()
        }
        self.state = self.game.new_initial_state()
        self._over = False
        self.prefix = []
        #: Player decisions this episode, the opponents' included (chance events are not).
        self.decisions = 0
        self._advance()
        return self._observation(), self._info()

    def _advance(self) -> None:
        """Play chance and the opponents until the learner must act or the game is over."""
        self._legal = None
        self._base = None
        self._context = None
        self._acting = False
        state = self.state
        seat = self.seat
        while True:
            acting = state.to_act()
            if not acting:
                self._over = True
                return
            if acting == (CHANCE,):
                state.apply(CHANCE, state.sample_chance(self._chance))
                continue
            if acting == (seat,):  # the learner alone: most decisions of turn-based games
                self._acting = True
                return
            if len(acting) == 1:  # one opponent alone: the rest of a turn-based game's decisions
                p = acting[0]
                state.apply(p, self._agents[p].act(PlayerView(state, p)))
                self.decisions += 1
                continue
            # At a simultaneous step the opponents choose first; their submissions
            # change nothing the learner observes, so it still chooses unaware of them.
            others = [p for p in acting if p != self.seat]
            chosen = [(p, self._agents[p].act(PlayerView(state, p))) for p in others]
            for p, action in chosen:
                state.apply(p, action)
            self.decisions += len(chosen)
            if seat in acting:
                self._acting = True
                return

    def _legal_map(self) -> LegalMap:
        if self._legal is None:
            self._legal = self.encoding.legal(self.state, self.seat)
        return self._legal

    def _legal_list(self) -> npt.NDArray[np.int64]:
        """The legal action (or token) numbers now, ascending; empty when the learner does not act."""
        if self._over or not self._acting:
            return np.zeros(0, dtype=np.int64)
        if self.steps is not None:
            return np.asarray(self.steps.tokens(self._step_context(), self.prefix), dtype=np.int64)
        return self._legal_map().array().copy()  # the caller's to change; the map's is shared

    def _mask(self, legal: npt.NDArray[np.int64] | list[int] | None = None) -> npt.NDArray[np.int8]:
        mask = np.zeros(self._choices, dtype=np.int8)
        mask[self._legal_list() if legal is None else legal] = 1
        return mask

    def _step_context(self) -> Any:
        assert self.steps is not None
        if self._context is None:
            self._context = self.steps.start(self.state, self.seat)
        return self._context

    def _observation(self) -> Observation:
        steps = self.steps
        if steps is None:
            # Flat, the state changes before the next observation (or the episode is over): a
            # fresh array each time, the learner's own, with no cached copy to keep.
            array = self.encoding.observation(self.state, self.seat)
        else:
            if self._base is None:
                self._base = steps.with_room(self.encoding.observation(self.state, self.seat))
            array = self._base.copy()  # the learner's to change: the cache stays as it was
            steps.mark_chosen(array, self.prefix)
        if self.mask_in_observation:
            return {"observation": array, "action_mask": self._mask()}
        return array

    def _legal_numbers(self) -> list[int]:
        """The legal action (or token) numbers now, ascending, as the caller's own list."""
        if self._over or not self._acting:
            return []
        if self.steps is not None:
            return list(self.steps.tokens(self._step_context(), self.prefix))
        # A copy of the map's list: quick, where the array's tolist() makes every int anew
        # (2 ms for Robo Battle Pigs' 21,000 programs).
        return self._legal_map().indices[:]

    def _info(self, **more: Any) -> dict[str, Any]:
        # A list, not an array: Gymnasium's vector environments stack an array info into one
        # array of the first environment's shape, which a list of another length cannot fill;
        # a list they keep as it is, one object per environment.
        numbers = self._legal_numbers()
        if self.sparse:
            return {"legal_actions": numbers, **more}
        # Step by step, the mask from the same few tokens, not worked out again; flat, from the
        # legal map's array, which a long list would have to be converted back into.
        legal = numbers if self.steps is not None else None
        return {"action_mask": self._mask(legal), "legal_actions": numbers, **more}

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions now, as booleans over the action space."""
        return self._mask().astype(bool)

    def _chosen(self, action: Any) -> Any:
        """The tussle action that ``action`` completes; None while a step-by-step choice goes on."""
        if self.steps is None:
            return self._legal_map().action(self.state, int(action))
        text = self.steps.take(self._step_context(), self.prefix, int(action))
        if text is None:
            return None
        tokens, self.prefix = self.prefix, []
        return self.steps.action(self.state, self.seat, tokens, text)

    def step(self, action: Any) -> tuple[Observation, SupportsFloat, bool, bool, dict[str, Any]]:
        if self._over:
            raise ActionError("the episode is over: call reset() to start another")
        try:
            chosen = self._chosen(action)
        except (ActionError, TypeError, ValueError) as exc:
            if self.illegal_action == "raise":
                raise ActionError(f"{action!r}: {exc}") from None
            self._over = True
            info = self._info(illegal_action=int(action) if isinstance(action, int | np.integer) else -1)
            forfeit = Result.loss(self.seat, self.game.num_players, "forfeit by an illegal action")
            return self._observation(), forfeit.returns[self.seat], True, False, info
        if chosen is None:  # a token of an action still being chosen: nothing happens yet
            return self._observation(), 0.0, False, False, self._info()
        self.state.apply(self.seat, chosen)
        self.decisions += 1
        self._advance()
        result = self.state.result()
        reward = float(result.returns[self.seat]) if result is not None else 0.0
        # A limit of the simulation options is no ending of the rules: truncated, not terminated.
        cut = result is not None and result.termination == Termination.LIMIT
        return self._observation(), reward, result is not None and not cut, cut, self._info()

    def render(self) -> str | npt.NDArray[np.uint8] | None:
        """The game: as text (every secret shown), printed, or drawn from ``render_view``'s side."""
        if self.render_mode is None:
            gymnasium.logger.warn(
                "render() was called without a render_mode (use 'ansi', 'human' or 'rgb_array')"
            )
            return None
        if self.render_mode == "rgb_array":
            from tussle.adapters.pictures import picture

            return picture(self.state, self.render_view)  # one size per game: frames make a video
        text = self.state.render()
        if self.render_mode == "human":
            print(text)
            return None
        return text


def env_id(game_id: str) -> str:
    """The Gymnasium id of a game: ``tussle/<game>-v0``.

    >>> env_id("robo-pigs")
    'tussle/robo-pigs-v0'
    """
    return f"tussle/{game_id}-v0"
