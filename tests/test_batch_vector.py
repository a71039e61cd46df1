"""tussle.batch.vector: a Gymnasium vector environment on the batched engine, against the scalar one.

The engine under it is checked move for move in test_batch.py; here, what the
environment adds: the opponents' turns, the rewards, the ends and the same-step
resets, a forfeit for an illegal action, seeding, and Gymnasium's own vector
wrappers on it. A random learner's episodes are compared with those of the
scalar environment (TussleGymEnv) by two-sample tests, on seeded runs.
"""

from __future__ import annotations

import math

import pytest

pytest.importorskip("jax")
pytest.importorskip("gymnasium")

import gymnasium
import numpy as np
from scipy import stats

from tussle.adapters.gymnasium_env import TussleGymEnv
from tussle.batch.vector import BatchVectorEnv
from tussle.errors import OptionError


def random_legal(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One legal action per row, uniformly (a random key per action, the largest among the legal)."""
    picked: np.ndarray = (rng.random(mask.shape) * mask).argmax(axis=1)
    return picked


def batch_episodes(seat: int, episodes: int, seed: int) -> tuple[list[float], list[int]]:
    env = BatchVectorEnv("fite", num_envs=16, seat=seat)
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    returns: list[float] = []
    lengths: list[int] = []
    steps = np.zeros(16, int)
    while len(returns) < episodes:
        assert env.observation_space.contains(obs)
        assert info["action_mask"].any(axis=1).all()  # the learner is to act in every game
        obs, rewards, terminated, truncated, info = env.step(random_legal(info["action_mask"], rng))
        steps += 1
        done = terminated | truncated
        assert not (rewards[~done]).any()  # nothing is paid before the end
        if done.any():
            assert (info["_final_obs"] == done).all()
            assert not np.array_equal(info["final_obs"][done], obs[done])  # a new game's start
        returns += rewards[done].tolist()
        lengths += steps[done].tolist()
        steps[done] = 0
    return returns[:episodes], lengths[:episodes]


def scalar_episodes(seat: int, episodes: int, seed: int) -> tuple[list[float], list[int]]:
    env = TussleGymEnv("fite", seat=seat)
    rng = np.random.default_rng(seed)
    returns: list[float] = []
    lengths: list[int] = []
    for episode in range(episodes):
        _, info = env.reset(seed=seed * 100_000 + episode)
        done, steps = False, 0
        while not done:
            _, reward, terminated, truncated, info = env.step(
                int(random_legal(info["action_mask"][None], rng)[0])
            )
            done, steps = terminated or truncated, steps + 1
        returns.append(float(reward))
        lengths.append(steps)
    return returns, lengths


@pytest.mark.parametrize("seat", [0, 1])
def test_a_random_learner_has_the_scalar_environments_episodes(seat: int) -> None:
    batch_returns, batch_lengths = batch_episodes(seat, 2000, seed=3)
    scalar_returns, scalar_lengths = scalar_episodes(seat, 800, seed=3)
    for value in (1.0, -1.0, 0.0):  # wins, losses, draws: two-proportion z tests
        p1, p2 = np.mean(np.array(batch_returns) == value), np.mean(np.array(scalar_returns) == value)
        pooled = (p1 * 2000 + p2 * 800) / 2800
        z = (p1 - p2) / math.sqrt(max(pooled * (1 - pooled), 1e-9) * (1 / 2000 + 1 / 800))
        assert abs(z) < 4, (value, p1, p2)
    assert set(batch_returns) <= {1.0, -1.0, 0.0}
    # The learner's decisions per episode: the opponents' turns are played inside, as the scalar env does.
    assert stats.ttest_ind(batch_lengths, scalar_lengths, equal_var=False).pvalue > 1e-4
    assert stats.ks_2samp(batch_lengths, scalar_lengths).pvalue > 1e-4


def test_a_seed_repeats_the_episodes_and_an_illegal_action_forfeits() -> None:
    runs = []
    for _ in range(2):
        env = BatchVectorEnv("fite", num_envs=16)
        obs, info = env.reset(seed=9)
        rng = np.random.default_rng(0)
        seen = [obs]
        for _ in range(30):
            obs, *_, info = env.step(random_legal(info["action_mask"], rng))
            seen.append(obs)
        runs.append(np.stack(seen))
    assert np.array_equal(runs[0], runs[1])
    env = BatchVectorEnv("fite", num_envs=16)
    _, info = env.reset(seed=1)
    actions = random_legal(info["action_mask"], np.random.default_rng(1))
    wrong = int(np.flatnonzero(~info["action_mask"][2])[0])
    actions[2] = wrong
    _, rewards, terminated, truncated, info = env.step(actions)
    assert rewards[2] == -1.0 and terminated[2] and not truncated[2]
    assert info["illegal_action"].tolist() == [-1, -1, wrong] + [-1] * 13 and info["_illegal_action"][2]
    assert info["_final_obs"][2] and env.action_masks()[2].any()  # a new game in its place
    assert not terminated[[0, 1, 3]].any()  # the first decisions of FITE end no game


def test_gymnasiums_vector_wrappers_take_it() -> None:
    env = gymnasium.wrappers.vector.RecordEpisodeStatistics(BatchVectorEnv("fite", num_envs=16))
    assert env.metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode.SAME_STEP
    _, info = env.reset(seed=2)
    rng = np.random.default_rng(0)
    episodes = 0
    for _ in range(40):
        _, _, _, _, info = env.step(random_legal(info["action_mask"], rng))
        episodes += int(info.get("_episode", np.zeros(16, bool)).sum())
    assert episodes >= 16  # about 12 learner decisions a game


@pytest.mark.parametrize(
    ("kwargs", "says"),
    [
        ({"opponents": "rule"}, "opponents 'rule': 'rule' has no batched form for fite"),
        ({"num_envs": 0}, "give 1 to 65536 games"),
        ({"seat": 2}, "seat 2 is not one of the 2 seats of fite"),
        # Every game's opponent decides at once: 65,536 of them at 2,880 rounds a decision would not fit.
        (
            {"game_id": "robo-pigs", "num_envs": 65536, "opponents": "rule"},
            "num_envs 65536 against 'rule': 189,792,256 simulated rounds at once, more than 16,777,216: "
            "give at most 5,793 games",
        ),
    ],
)
def test_it_refuses_what_it_cannot_play_in_one_line(kwargs: dict[str, object], says: str) -> None:
    settings: dict[str, object] = {"game_id": "fite", "num_envs": 4, **kwargs}
    with pytest.raises(OptionError, match=says):
        BatchVectorEnv(**settings)  # type: ignore[arg-type]
    env = BatchVectorEnv("fite", num_envs=16)
    with pytest.raises(OptionError, match="call reset"):
        env.step(np.zeros(16, int))
    env.reset(seed=0)
    with pytest.raises(OptionError, match="give 16 action numbers"):
        env.step(np.zeros(3, int))


def test_robo_pigs_episodes_have_the_scalar_games_outcomes() -> None:
    # Robo Battle Pigs' opponents draw without masks (draws_without_mask): a random learner's
    # wins, losses and draws (a draw is mostly the round limit) against those of random
    # scalar games, two-proportion z tests.
    from tussle.runner import run_match

    env = BatchVectorEnv("robo-pigs", num_envs=64, seat=1)
    _, info = env.reset(seed=4)
    rng = np.random.default_rng(4)
    outcomes: list[float] = []
    while len(outcomes) < 400:
        mask = info["action_mask"]
        actions = np.array([rng.choice(np.flatnonzero(row)) for row in mask])
        _, rewards, terminated, truncated, info = env.step(actions)
        outcomes += rewards[terminated | truncated].tolist()
    assert "illegal_action" not in info
    # Seat 1's return in each scalar game (agents rotate through the seats; returns are by agent).
    scalar = [g.returns[g.seats[1]] for g in run_match("robo-pigs", ["random", "random"], 2000, seed=4)]
    for value in (1.0, -1.0, 0.0):
        p1, p2 = np.mean(np.array(outcomes) == value), np.mean(np.array(scalar) == value)
        n1, n2 = len(outcomes), len(scalar)
        pooled = (p1 * n1 + p2 * n2) / (n1 + n2)
        z = (p1 - p2) / math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
        assert abs(z) < 4, (value, p1, p2)


def test_robo_pigs_rule_opponents_beat_a_random_learner_as_the_scalar_rule_agent_does() -> None:
    # The scalar rule agent beat random play in 200 of 200 games. The learner in seat 1: the
    # rule agent programs first (one seat only: each seat compiles its own calls).
    env = BatchVectorEnv("robo-pigs", num_envs=16, seat=1, opponents="rule")
    _, info = env.reset(seed=1)
    rng = np.random.default_rng(1)
    outcomes: list[float] = []
    while len(outcomes) < 32:
        actions = np.array([rng.choice(np.flatnonzero(row)) for row in info["action_mask"]])
        _, rewards, terminated, truncated, info = env.step(actions)
        outcomes += rewards[terminated | truncated].tolist()
    assert np.mean(np.array(outcomes) == -1.0) >= 0.9, outcomes
