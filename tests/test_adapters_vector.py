"""Every game in Gymnasium's and Stable-Baselines3's vector environments, through their autoresets."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import gymnasium
import numpy as np
import pytest

import tussle.adapters
from tussle.adapters.gymnasium_env import TussleGymEnv, env_id

#: Each game with limits short enough that episodes end, and restart, within a few vector steps.
GAMES: list[tuple[str, dict[str, Any]]] = [
    ("robo-pigs", {"round_limit": 3}),
    ("fite", {"turn_limit": 2}),
    ("fightopia", {"ply_limit": 6}),
    ("tank-chess", {"ply_limit": 4}),
    ("fight", {}),
]
STEPS = 14


def masked(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A random legal action per environment; 0 where none is legal (an episode just ended)."""
    return np.array([int(rng.choice(np.flatnonzero(m))) if m.any() else 0 for m in masks], dtype=np.int64)


def drive(vec: gymnasium.vector.VectorEnv, seed: int) -> int:
    """Steps ``vec`` with random legal actions from the masks; the number of episodes that ended."""
    rng = np.random.default_rng(seed)
    observations, infos = vec.reset(seed=seed)
    ended = 0
    for _ in range(STEPS):
        assert vec.observation_space.contains(observations)
        masks = infos["action_mask"]
        assert masks.shape == (vec.num_envs, vec.single_action_space.n)  # type: ignore[attr-defined]
        # The sparse list rides along as one object per environment, the same numbers as the mask.
        for mask, legal in zip(masks, infos["legal_actions"], strict=True):
            assert list(np.flatnonzero(mask)) == list(legal)
        observations, _, terminated, truncated, infos = vec.step(masked(masks, rng))
        ended += int(np.sum(terminated | truncated))
    vec.close()
    return ended


def makers(game_id: str, options: dict[str, Any], count: int) -> list[Callable[[], gymnasium.Env[Any, Any]]]:
    return [lambda: TussleGymEnv(game_id, "random", options=options) for _ in range(count)]


@pytest.mark.parametrize(("game_id", "options"), GAMES, ids=[g[0] for g in GAMES])
def test_sync_vector_env_through_autoreset(game_id: str, options: dict[str, Any]) -> None:
    gymnasium.register_envs(tussle.adapters)
    vec = gymnasium.make_vec(
        env_id(game_id), num_envs=3, vectorization_mode="sync", opponents="random", options=options
    )
    assert drive(vec, 1) >= 1  # at least one episode ended and its environment started again


def test_async_vector_env_runs_every_game() -> None:
    # One test for all games: each environment is a process of its own.
    for game_id, options in GAMES:
        vec = gymnasium.vector.AsyncVectorEnv(makers(game_id, options, 2))
        assert drive(vec, 2) >= 1, game_id


def test_sparse_infos_and_mask_observations_stack_too() -> None:
    sparse = gymnasium.vector.SyncVectorEnv(
        [lambda: TussleGymEnv("fite", mask="sparse", options={"turn_limit": 2}) for _ in range(2)]
    )
    _, infos = sparse.reset(seed=3)
    assert "action_mask" not in infos and infos["legal_actions"].dtype == object
    _, _, _, _, infos = sparse.step(np.array([int(legal[0]) for legal in infos["legal_actions"]]))
    assert all(len(legal) > 0 for legal in infos["legal_actions"])
    sparse.close()
    boxed = gymnasium.vector.SyncVectorEnv(
        [lambda: TussleGymEnv("robo-pigs", mask_in_observation=True, actions="steps") for _ in range(2)]
    )
    observations, _ = boxed.reset(seed=1)
    assert observations["action_mask"].shape == (2, 10)
    boxed.close()


def test_stable_baselines3_vector_envs() -> None:
    pytest.importorskip("stable_baselines3")
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

    # SB3 keeps infos as a list of dicts; its subprocesses are slow to start, so one game goes there.
    runs: list[tuple[Any, dict[str, Any], tuple[str, dict[str, Any]]]] = [
        (DummyVecEnv, {}, game) for game in GAMES
    ] + [(SubprocVecEnv, {"start_method": "fork"}, GAMES[1])]
    for vec_class, start, (game_id, options) in runs:
        vec = vec_class(makers(game_id, options, 2), **start)
        vec.seed(4)
        vec.reset()
        rng = np.random.default_rng(4)
        ended = 0
        for _ in range(STEPS):
            # MaskablePPO's way to the masks: the environments' action_masks().
            masks = np.stack(vec.env_method("action_masks"))
            _, _, dones, _ = vec.step(masked(masks, rng))
            ended += int(dones.sum())
        vec.close()
        assert ended >= 1, (vec_class.__name__, game_id)
