"""A Gymnasium environment: one seat of a tussle game against fixed tussle agents.

The learner plays seat ``seat``; every other seat is played by a tussle agent
built from an agent spec (``random``, ``rule``, ``mcts:iterations=50``, ...),
and chance events are drawn inside the environment. Observations are dicts
with ``observation`` (float32 array) and ``action_mask`` (int8 over the
game's fixed action space, see :mod:`tussle.adapters.encoding`);
:meth:`TussleGymEnv.action_masks` gives the mask as booleans for libraries that
ask for it. The reward is 0 until the game ends, then the learner's return
(from -1 to 1). An illegal action forfeits the game (the learner loses and
the episode ends, ``info["illegal_action"]`` names the action) unless
``illegal_action="raise"``. Games use their simulation defaults, so every
episode ends.

Seeding: ``reset(seed=...)`` seeds the environment's generator, which draws
the chance events and fresh seeds for the opponents, so an episode repeats
exactly for a seed and the learner's actions.

>>> from tussle.adapters.gymnasium_env import TussleGymEnv
>>> env = TussleGymEnv("fite", opponents="rule")
>>> obs, info = env.reset(seed=7)
>>> int(env.action_space.n), obs["observation"].shape, int(obs["action_mask"].sum())
(5143, (130,), 6)
>>> obs, reward, terminated, truncated, info = env.step(int(obs["action_mask"].argmax()))
>>> terminated, reward
(False, 0.0)
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

from tussle.adapters.encoding import GameEncoding, LegalMap, encoding_for
from tussle.agents import make_agent
from tussle.agents.base import Agent, PlayerView
from tussle.errors import ActionError, OptionError
from tussle.game import CHANCE, Game, State
from tussle.registry import load_game, simulation_options

__all__ = ["TussleGymEnv"]

Observation = dict[str, Any]  # "observation" and "action_mask", both numpy arrays


class TussleGymEnv(gymnasium.Env[Observation, np.int64]):
    """One seat of a tussle game as a single-agent Gymnasium environment (see the module docs)."""

    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"], "render_fps": 1}  # noqa: RUF012

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
    ) -> None:
        if illegal_action not in ("forfeit", "raise"):
            raise OptionError(f"illegal_action {illegal_action!r} is not one of forfeit, raise")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise OptionError(f"render_mode {render_mode!r} is not one of ansi, human")
        self.game: Game = load_game(game_id, players=players, **simulation_options(game_id, options))
        n = self.game.num_players
        if not 0 <= seat < n:
            raise OptionError(f"seat {seat} is not one of the {n} seats of {game_id} (0 to {n - 1})")
        specs = [opponents] * (n - 1) if isinstance(opponents, str) else list(opponents)
        if len(specs) != n - 1:
            raise OptionError(f"{game_id} with {n} players needs {n - 1} opponent specs, got {len(specs)}")
        self.seat = seat
        self.specs = specs
        for s, spec in zip(self._others(), specs, strict=True):
            make_agent(spec, self.game, s, seed=0)  # a bad spec fails here, with its message
        self.encoding: GameEncoding = encoding_for(self.game)
        self.render_mode = render_mode
        self.illegal_action = illegal_action
        self.observation_space = gymnasium.spaces.Dict(
            {
                "observation": gymnasium.spaces.Box(0.0, 1.0, self.encoding.observation_shape, np.float32),
                "action_mask": gymnasium.spaces.Box(0, 1, (self.encoding.num_actions,), np.int8),
            }
        )
        self.action_space = gymnasium.spaces.Discrete(self.encoding.num_actions)
        self.state: State = self.game.new_initial_state()
        self._agents: dict[int, Agent] = {}
        self._chance = random.Random()
        self._legal: LegalMap | None = None
        self._over = False

    def _others(self) -> list[int]:
        return [p for p in range(self.game.num_players) if p != self.seat]

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        super().reset(seed=seed)
        seeds = [int(s) for s in self.np_random.integers(0, 2**62, size=self.game.num_players + 1)]
        self._chance = random.Random(seeds[0])
        self._agents = {
            p: make_agent(spec, self.game, p, seed=seeds[1 + p])
            for p, spec in zip(self._others(), self.specs, strict=True)
        }
        self.state = self.game.new_initial_state()
        self._over = False
        self._advance()
        return self._observation(), {}

    def _advance(self) -> None:
        """Play chance and the opponents until the learner must act or the game is over."""
        self._legal = None
        state = self.state
        while True:
            acting = state.to_act()
            if not acting:
                self._over = True
                return
            if acting == (CHANCE,):
                state.apply(CHANCE, state.sample_chance(self._chance))
                continue
            # At a simultaneous step the opponents choose first; their submissions
            # change nothing the learner observes, so it still chooses unaware of them.
            others = [p for p in acting if p != self.seat]
            chosen = [(p, self._agents[p].act(PlayerView(state, p))) for p in others]
            for p, action in chosen:
                state.apply(p, action)
            if self.seat in acting:
                return

    def _legal_map(self) -> LegalMap:
        if self._legal is None:
            self._legal = self.encoding.legal(self.state, self.seat)
        return self._legal

    def _observation(self) -> Observation:
        live = not self._over and self.seat in self.state.to_act()
        mask = (
            self.encoding.mask(self._legal_map())
            if live
            else np.zeros(self.encoding.num_actions, dtype=np.int8)
        )
        return {"observation": self.encoding.observation(self.state, self.seat), "action_mask": mask}

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions now, as booleans over the action space."""
        mask: npt.NDArray[np.int8] = self._observation()["action_mask"]
        return mask.astype(bool)

    def step(self, action: Any) -> tuple[Observation, SupportsFloat, bool, bool, dict[str, Any]]:
        if self._over:
            raise ActionError("the episode is over: call reset() to start another")
        try:
            chosen = self._legal_map().action(self.state, int(action))
        except (ActionError, TypeError, ValueError) as exc:
            if self.illegal_action == "raise":
                raise ActionError(f"{action!r}: {exc}") from None
            self._over = True
            info = {"illegal_action": int(action) if isinstance(action, int | np.integer) else -1}
            # The loss of a player in last place: -1 against one opponent, -1/(n-1) against several.
            return self._observation(), -1.0 / (self.game.num_players - 1), True, False, info
        self.state.apply(self.seat, chosen)
        self._advance()
        result = self.state.result()
        reward = float(result.returns[self.seat]) if result is not None else 0.0
        return self._observation(), reward, result is not None, False, {}

    def render(self) -> str | None:
        """The whole game as text (every secret shown)."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode (use 'ansi' or 'human')")
            return None
        text = self.state.render()
        if self.render_mode == "human":
            print(text)
            return None
        return text
