"""Gymnasium's own checker on the single-agent environment, and what it promises beyond."""

from __future__ import annotations

import random
import warnings
from typing import Any

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from tussle import ActionError, AgentError, OptionError
from tussle.adapters.gymnasium_env import TussleGymEnv

#: (game id, opponents, options): rule agents where they are quick.
GAMES = [
    ("robo-pigs", "rule", {"round_limit": 20}),
    ("fite", "rule", {}),
    ("fightopia", "rule", {"ply_limit": 100}),
    ("tank-chess", "random", {"ply_limit": 30}),
    ("fight", "random", {}),
]


@pytest.mark.parametrize(("game_id", "opponents", "options"), GAMES, ids=[g[0] for g in GAMES])
def test_check_env(game_id: str, opponents: str, options: dict[str, Any]) -> None:
    with warnings.catch_warnings():
        # Its warning that alternative render modes need a registered spec is not about us.
        warnings.filterwarnings("ignore", message=".*Not able to test alternative render modes.*")
        check_env(TussleGymEnv(game_id, opponents, options=options, render_mode="ansi"))


def play(env: TussleGymEnv, seed: int, rng: random.Random) -> tuple[list[int], float, int]:
    obs, _ = env.reset(seed=seed)
    actions = []
    while True:
        assert env.observation_space.contains(obs)
        assert np.array_equal(env.action_masks(), obs["action_mask"].astype(bool))
        action = rng.choice(np.flatnonzero(obs["action_mask"]).tolist())
        actions.append(action)
        obs, reward, terminated, truncated, _ = env.step(action)
        assert not truncated
        if terminated:
            return actions, float(reward), len(actions)
        assert reward == 0.0


@pytest.mark.parametrize(("game_id", "opponents", "options"), GAMES, ids=[g[0] for g in GAMES])
def test_a_masked_episode_ends_with_the_learners_return(
    game_id: str, opponents: str, options: dict[str, Any]
) -> None:
    env = TussleGymEnv(game_id, opponents, options=options, seat=1)
    actions, reward, _ = play(env, 3, random.Random(1))
    result = env.state.result()
    assert result is not None and reward == result.returns[1] and actions


def test_an_episode_repeats_for_a_seed_and_the_same_actions() -> None:
    env = TussleGymEnv("fite", "rule")
    first = play(env, 8, random.Random(5))
    again = play(env, 8, random.Random(5))
    assert first == again


def test_several_opponents_in_a_bigger_game() -> None:
    env = TussleGymEnv("fight", ["random", "rule"], players=3, seat=2)
    obs, _ = env.reset(seed=2)
    assert obs["observation"].shape == env.encoding.observation_shape
    _, reward, _ = play(env, 2, random.Random(3))
    assert -0.5 <= reward <= 1.0


def test_an_illegal_action_forfeits_or_raises() -> None:
    env = TussleGymEnv("fightopia", "random")
    obs, _ = env.reset(seed=1)
    assert obs["action_mask"][0] == 0
    obs, reward, terminated, _, info = env.step(0)
    assert (reward, terminated, info) == (-1.0, True, {"illegal_action": 0})
    assert not obs["action_mask"].any()
    with pytest.raises(ActionError, match="the episode is over"):
        env.step(0)
    strict = TussleGymEnv("fightopia", "random", illegal_action="raise")
    strict.reset(seed=1)
    with pytest.raises(ActionError, match="0: action 0 is not one of the"):
        strict.step(0)


def test_bad_arguments_are_refused_with_a_message() -> None:
    with pytest.raises(OptionError, match="needs 2 opponent specs, got 1"):
        TussleGymEnv("fight", ["random"], players=3)
    with pytest.raises(OptionError, match="seat 2 is not one of the 2 seats"):
        TussleGymEnv("fite", seat=2)
    with pytest.raises(AgentError, match="unknown agent 'wizard'"):
        TussleGymEnv("fite", "wizard")
    with pytest.raises(OptionError, match="illegal_action 'skip'"):
        TussleGymEnv("fite", illegal_action="skip")
