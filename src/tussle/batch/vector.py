"""A Gymnasium vector environment on a batched engine: one seat of many games, stepped at once.

:class:`BatchVectorEnv` is what :class:`~tussle.adapters.gymnasium_env.TussleGymEnv`
is to one game, for ``num_envs`` games on the game's batched engine (the ``jax``
and ``gymnasium`` extras): the learner plays ``seat``, ``opponents`` every other
seat (``random``, or another agent with a batched form: ``rule`` in Robo Battle
Pigs), and chance is drawn inside.
The observation is the learner's float32 array; ``info["action_mask"]`` holds
each game's legal actions (booleans, numbered as the adapters number them). The
reward is 0 until a game ends, then the learner's return. A game the rules end
is terminated, one a limit of the simulation options cuts is truncated, and an
illegal action forfeits the game (the learner's return for a loss;
``info["illegal_action"]`` names it).

Games that end are started again in the same step (Gymnasium's
``AutoresetMode.SAME_STEP``, as pgx's ``auto_reset``): the observation returned
is the new game's, and ``info["final_obs"]`` holds the ended game's last
observation, with ``info["_final_obs"]`` saying which games ended.

>>> from tussle.batch.vector import BatchVectorEnv
>>> env = BatchVectorEnv("fite", num_envs=8)
>>> obs, info = env.reset(seed=3)
>>> obs.shape, info["action_mask"].shape, env.single_action_space.n
((8, 130), (8, 5143), np.int64(5143))
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from tussle.adapters import require

require(__name__, "gymnasium", "numpy", "gymnasium")

import gymnasium  # noqa: E402
import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
from gymnasium.vector import AutoresetMode  # noqa: E402

from tussle.batch import MAX_SIMULATIONS_AT_ONCE, BatchGame, BatchState, shared  # noqa: E402
from tussle.errors import AgentError, OptionError  # noqa: E402
from tussle.game import Result  # noqa: E402
from tussle.registry import simulation_options  # noqa: E402

__all__ = ["BatchVectorEnv"]


class BatchVectorEnv(gymnasium.vector.VectorEnv[Any, Any, Any]):
    """One seat of ``num_envs`` games on a batched engine, against ``opponents`` (see the module docs)."""

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.SAME_STEP}  # noqa: RUF012

    def __init__(
        self,
        game_id: str,
        num_envs: int,
        *,
        seat: int = 0,
        opponents: str = "random",
        options: Mapping[str, Any] | None = None,
    ) -> None:
        if not 1 <= num_envs <= 1 << 16:
            raise OptionError(f"num_envs {num_envs}: give 1 to 65536 games")
        self.engine: BatchGame = shared(game_id, simulation_options(game_id, options))
        try:
            agent = self.engine.agent_one(opponents)
        except AgentError as refused:
            raise OptionError(f"opponents {opponents!r}: {refused}") from None
        simulations = getattr(agent, "simulations", 1)  # an agent that plays no rounds: one decision
        at_once = num_envs * simulations
        if at_once > MAX_SIMULATIONS_AT_ONCE:
            most = MAX_SIMULATIONS_AT_ONCE // simulations
            raise OptionError(
                f"num_envs {num_envs} against {opponents!r}: {at_once:,} simulated rounds at once, more than "
                f"{MAX_SIMULATIONS_AT_ONCE:,}: give at most {most:,} games, or cheaper opponents"
            )
        players = self.engine.num_players
        if not 0 <= seat < players:
            raise OptionError(
                f"seat {seat} is not one of the {players} seats of {game_id} (0 to {players - 1})"
            )
        self.seat = seat
        self.num_envs = num_envs
        self.single_observation_space = gymnasium.spaces.Box(
            0.0, 1.0, (self.engine.observation_size,), np.float32
        )
        self.single_action_space = gymnasium.spaces.Discrete(self.engine.num_actions)
        self.observation_space = gymnasium.vector.utils.batch_space(self.single_observation_space, num_envs)
        self.action_space = gymnasium.vector.utils.batch_space(self.single_action_space, num_envs)
        self._states: BatchState | None = None
        self._key = jax.random.PRNGKey(0)
        # Compiled once a process for each engine and seat: every environment of them shares the calls.
        compiled = self.engine.__dict__.setdefault("_vector_calls", {})
        if (seat, opponents) not in compiled:
            compiled[seat, opponents] = _compile(self.engine, seat, opponents)
        self._reset, self._step = compiled[seat, opponents]

    # --- Gymnasium's VectorEnv ----------------------------------------------------------------

    def reset(
        self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """New games; ``seed`` (an int) makes every episode after it repeat for the same actions."""
        if isinstance(seed, list):
            raise OptionError("seed: give one int for all the games (they draw from one key)")
        if seed is not None:
            self._key = jax.random.PRNGKey(seed)
        self._key, sub = jax.random.split(self._key)
        self._states = self._reset(jax.random.split(sub, self.num_envs))
        return np.asarray(self._states.observation), self._info(self._states)

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        if self._states is None:
            raise OptionError("call reset() before step()")
        chosen = np.asarray(actions)
        if chosen.shape != (self.num_envs,) or not np.issubdtype(chosen.dtype, np.integer):
            raise OptionError(f"actions: give {self.num_envs} action numbers, got shape {chosen.shape}")
        self._key, sub = jax.random.split(self._key)
        states, obs, rewards, terminated, truncated, final, illegal = self._step(
            self._states, jnp.asarray(chosen, jnp.int32), jax.random.split(sub, self.num_envs)
        )
        self._states = states
        info = self._info(states)
        done = np.asarray(terminated | truncated)
        if done.any():
            info["final_obs"] = np.asarray(final)
            info["_final_obs"] = done
        if bool(illegal.any()):
            wrong = np.asarray(illegal)
            info["illegal_action"] = np.where(wrong, chosen, -1)
            info["_illegal_action"] = wrong
        return (
            np.asarray(obs),
            np.asarray(rewards, np.float64),
            np.asarray(terminated),
            np.asarray(truncated),
            info,
        )

    def _info(self, states: BatchState) -> dict[str, Any]:
        return {
            "action_mask": np.asarray(states.legal_action_mask),
            "_action_mask": np.ones(self.num_envs, bool),
        }

    def action_masks(self) -> np.ndarray:
        """Each game's legal actions, as maskable learners ask (bool[num_envs, actions])."""
        if self._states is None:
            raise OptionError("call reset() first")
        return np.asarray(self._states.legal_action_mask)


def _compile(engine: BatchGame, seat: int, spec: str) -> tuple[Callable[..., Any], Callable[..., Any]]:
    """The batched, compiled reset and step of ``seat`` against the agent ``spec`` on ``engine``."""
    loss = float(Result.loss(seat, engine.num_players).returns[seat])
    agent = engine.agent_one(spec)

    def opponents(state: BatchState, key: jax.Array) -> BatchState:
        """The opponents' decisions (and chance) until the learner is to act or the game is over."""

        def theirs(carry: tuple[jax.Array, BatchState]) -> jax.Array:
            _, s = carry
            return (s.current_player >= 0) & (s.current_player != seat)

        def play(carry: tuple[jax.Array, BatchState]) -> tuple[jax.Array, BatchState]:
            i, s = carry
            choose, chance = jax.random.split(jax.random.fold_in(key, i))
            if not engine.draws_without_mask:  # the opponent's own mask, to choose from
                s = s._replace(legal_action_mask=engine.legal_one(s, s.current_player))
            action = agent(s, choose)
            return i + 1, engine.roll_one(engine.decide_one(s, action), chance)

        played: BatchState = jax.lax.while_loop(theirs, play, (jnp.int32(0), state))[1]
        return engine.views_one(played)

    def new_game(key: jax.Array) -> BatchState:
        first, rest, theirs = jax.random.split(key, 3)
        return opponents(engine.roll_one(engine.init_one(first), rest), theirs)

    def step(
        state: BatchState, action: jax.Array, key: jax.Array
    ) -> tuple[BatchState, jax.Array, jax.Array, jax.Array, jax.Array, jax.Array, jax.Array]:
        play, theirs, new = jax.random.split(key, 3)
        legal = (action >= 0) & (action < engine.num_actions)
        legal = legal & state.legal_action_mask[jnp.clip(action, 0, engine.num_actions - 1)]
        after = opponents(engine.roll_one(engine.decide_one(state, action), play), theirs)
        ended = after.terminated | after.truncated
        reward = jnp.where(legal, jnp.where(ended, after.rewards[seat], 0.0), loss)
        terminated = jnp.where(legal, after.terminated, True)
        truncated = legal & after.truncated
        final = jnp.where(legal, engine.observe_one(after, jnp.int32(seat)), state.observation)
        done = terminated | truncated
        following = jax.tree.map(lambda a, b: jnp.where(done, a, b), new_game(new), after)
        return following, following.observation, reward, terminated, truncated, final, ~legal

    return jax.jit(jax.vmap(new_game)), jax.jit(jax.vmap(step))
