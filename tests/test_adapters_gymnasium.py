"""Gymnasium's own checker on the single-agent environment, and what it promises beyond."""

from __future__ import annotations

import random
import warnings
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import tussle
import tussle.adapters
from tussle import ActionError, AgentError, OptionError, load_game
from tussle.adapters.encoding import StepCodec, encoding_for
from tussle.adapters.gymnasium_env import TussleGymEnv, env_id
from tussle.games.robo_pigs.encoding import RoboPigsSteps
from tussle.games.robo_pigs.rules import format_program, programs_for

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
    obs, info = env.reset(seed=seed)
    actions = []
    while True:
        assert env.observation_space.contains(obs)
        assert np.array_equal(env.action_masks(), info["action_mask"].astype(bool))
        action = rng.choice(np.flatnonzero(info["action_mask"]).tolist())
        actions.append(action)
        obs, reward, terminated, truncated, info = env.step(action)
        assert not (terminated and truncated)
        # Truncated exactly when a simulation limit, not the rules, ended the game.
        assert truncated == (env.state.is_terminal() and env.state.cut_by_limit())
        if terminated or truncated:
            assert not info["action_mask"].any()
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
    assert obs.shape == env.encoding.observation_shape
    _, reward, _ = play(env, 2, random.Random(3))
    assert -0.5 <= reward <= 1.0


def test_an_illegal_action_forfeits_or_raises() -> None:
    env = TussleGymEnv("fightopia", "random")
    _, info = env.reset(seed=1)
    assert info["action_mask"][0] == 0
    _, reward, terminated, _, info = env.step(0)
    assert (reward, terminated, info["illegal_action"]) == (-1.0, True, 0)
    assert not info["action_mask"].any()
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


def test_a_simulation_limit_truncates_and_the_rules_terminate() -> None:
    env = TussleGymEnv("fightopia", "random", options={"ply_limit": 4})
    _, info = env.reset(seed=1)
    ended = None
    while ended is None:
        _, reward, terminated, truncated, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
        if terminated or truncated:
            ended = (terminated, truncated, reward)
    assert ended == (False, True, 0.0)  # a draw at the ply limit, cut rather than finished
    robo = TussleGymEnv("robo-pigs", "rule", options={"round_limit": 60})
    _, info = robo.reset(seed=2)
    done = False
    while not done:
        _, reward, terminated, truncated, info = robo.step(int(np.flatnonzero(info["action_mask"])[0]))
        done = terminated or truncated
    assert terminated and not truncated and reward != 0  # destroyed: the rules ended it


def test_the_legal_actions_come_dense_and_sparse_or_sparse_alone() -> None:
    env = TussleGymEnv("tank-chess", options={"ply_limit": 10})
    _, info = env.reset(seed=1)
    assert np.array_equal(np.flatnonzero(info["action_mask"]), info["legal_actions"])
    sparse = TussleGymEnv("tank-chess", options={"ply_limit": 10}, mask="sparse")
    _, info = sparse.reset(seed=1)
    assert "action_mask" not in info and len(info["legal_actions"]) > 100
    assert np.array_equal(np.flatnonzero(sparse.action_masks()), info["legal_actions"])
    _, _, _, _, info = sparse.step(int(info["legal_actions"][0]))
    assert len(info["legal_actions"]) > 0
    with pytest.raises(OptionError, match="mask 'none' is not one of dense, sparse"):
        TussleGymEnv("fite", mask="none")
    with pytest.raises(OptionError, match="cannot be in the observation"):
        TussleGymEnv("fite", mask="sparse", mask_in_observation=True)


def test_the_mask_stays_out_of_the_observation_unless_asked() -> None:
    env = TussleGymEnv("fite")
    flat = gymnasium.wrappers.FlattenObservation(env)
    obs, _ = flat.reset(seed=1)
    assert obs.shape == (int(np.prod(env.encoding.observation_shape)),)  # the mask is not fed in
    old = TussleGymEnv("fite", mask_in_observation=True)
    obs, info = old.reset(seed=1)
    assert set(obs) == {"observation", "action_mask"}
    assert np.array_equal(obs["action_mask"], info["action_mask"])
    check_env(gymnasium.make(env_id("fite"), mask_in_observation=True).unwrapped)


@pytest.mark.parametrize("game_id", tussle.game_ids())
def test_every_game_is_registered_with_gymnasium(game_id: str) -> None:
    gymnasium.register_envs(tussle.adapters)
    env = gymnasium.make(env_id(game_id), opponents="random")
    obs, info = env.reset(seed=0)
    assert env.observation_space.contains(obs) and info["action_mask"].any()
    env.close()


def test_rgb_array_pictures_are_of_one_size_in_an_episode() -> None:
    env = TussleGymEnv("fightopia", "random", options={"ply_limit": 30}, render_mode="rgb_array")
    _, info = env.reset(seed=3)
    frames: list[Any] = [env.render()]
    done = False
    while not done:
        _, _, terminated, truncated, info = env.step(int(np.flatnonzero(info["action_mask"])[-1]))
        frames.append(env.render())
        done = terminated or truncated
    shapes = {frame.shape for frame in frames if isinstance(frame, np.ndarray)}
    assert len(shapes) == 1 and len(frames) > 10
    height, width, colours = shapes.pop()
    assert colours == 3 and height > 100 and width > 100
    first = frames[0]
    assert isinstance(first, np.ndarray) and first.dtype == np.uint8
    assert len(np.unique(first.reshape(-1, 3), axis=0)) > 2  # text on a background, not blank
    assert not np.array_equal(frames[0], frames[-1])  # the pieces moved


def reachable(steps: StepCodec, context: Any) -> set[str]:
    """Every action the step codec can complete from ``context``, walking every prefix it offers."""
    reached: set[str] = set()

    def walk(prefix: list[int]) -> None:
        text = steps.complete(context, prefix)
        if text is not None:
            reached.add(text)
            return
        tokens = steps.legal_tokens(context, prefix)
        assert tokens, f"a dead end after {prefix}"  # every prefix offered leads to an action
        for token in tokens:
            walk([*prefix, token])

    walk([])
    return reached


@pytest.mark.parametrize("extra_x", [False, True])
@pytest.mark.parametrize("damage", [0, 1, 2, 4])
def test_step_by_step_programs_are_exactly_the_legal_ones(damage: int, extra_x: bool) -> None:
    steps = RoboPigsSteps(extra_x)  # its context is the pig's damage
    legal = {format_program(p) for p in programs_for(damage, extra_x)}
    assert reachable(steps, damage) == legal


def test_robo_pigs_step_by_step_a_command_at_a_time() -> None:
    env = TussleGymEnv("robo-pigs", "rule", actions="steps", options={"round_limit": 30})
    assert env.action_space == gymnasium.spaces.Discrete(10)
    check_env(env, skip_render_check=True)
    obs, info = env.reset(seed=4)
    assert obs.shape == (env.encoding.observation_shape[0] + 50,)
    rng = np.random.default_rng(2)
    tokens = 0
    done = False
    while not done:
        assert np.array_equal(env.action_masks(), info["action_mask"].astype(bool))
        obs, _, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        tokens += 1
        chosen = obs[env.encoding.observation_shape[0] :].reshape(5, 10)
        assert chosen.sum() == len(env.prefix)  # the observation shows the commands chosen so far
        done = terminated or truncated
    assert tokens % 5 == 0 and env.decisions > 0
    with pytest.raises(OptionError, match="fite has no step-by-step actions"):
        TussleGymEnv("fite", actions="steps")
    strict = TussleGymEnv("robo-pigs", actions="steps", illegal_action="raise")
    strict.reset(seed=1)
    with pytest.raises(ActionError, match=r"token 8 \(X\) cannot follow \[\]"):
        strict.step(8)  # an undamaged pig plays no X


def test_robo_pigs_tokens_make_the_program_the_text_names() -> None:
    # The environments take a program built from its tokens (StepCodec.action), not its text
    # read back: it must be the very program parsing gives, and what the state refuses is
    # refused as parsing refuses it.
    steps = RoboPigsSteps(extra_x=False)
    state = load_game("robo-pigs").new_initial_state()
    tokens = [6, 0, 5, 1, 7]
    text = steps.complete(0, tokens)
    assert text == "F ^ TR v H"
    program = steps.action(state, 0, tokens, text)
    assert program == state.parse_action(0, text) and isinstance(program, tuple)
    state.apply(0, program)
    with pytest.raises(ActionError, match="F \\^ TR v H"):
        steps.action(state, 0, tokens, text)  # the pig has submitted its program already


@pytest.mark.parametrize("size", [16, 20])
def test_tank_chess_step_by_step_turns_are_exactly_the_legal_ones(size: int) -> None:
    game = load_game("tank-chess", size=size)
    steps = encoding_for(game).steps
    assert steps is not None and steps.max_steps == 3
    rng = random.Random(size)
    state = game.new_initial_state()
    for _ in range(12):  # a few positions along a random game
        player = state.to_act()[0]
        legal = {state.action_to_str(player, a) for a in state.legal_actions(player)}
        assert reachable(steps, steps.start(state, player)) == legal
        state.apply(player, state.legal_actions(player).sample(rng))
        if state.is_terminal():
            break


def test_tank_chess_step_by_step_in_gymnasium() -> None:
    env = TussleGymEnv("tank-chess", "random", actions="steps", options={"ply_limit": 30})
    assert env.action_space == gymnasium.spaces.Discrete(969)
    check_env(env, skip_render_check=True)
    _, reward, _ = play(env, 5, random.Random(2))
    assert reward in (-1.0, 0.0, 1.0)
    strict = TussleGymEnv("tank-chess", actions="steps", illegal_action="raise")
    strict.reset(seed=1)
    with pytest.raises(ActionError, match=r"token 255 \(p16\) cannot follow \[\]"):
        strict.step(255)  # Black's corner: not a White tank


def test_reset_seeds_are_those_integers_would_draw() -> None:
    """reset draws its seeds from raw bits; they must be np_random.integers(0, 2**62)'s, as before."""
    from gymnasium.utils.seeding import np_random

    env = TussleGymEnv("fight", opponents="random", players=3)
    for seed in (0, 1, 7, 12345, 2**40 + 3):
        env.reset(seed=seed)
        generator = np_random(seed)[0]
        expected = [int(s) for s in generator.integers(0, 2**62, size=4)]
        assert [env._agents[p].seed for p in (1, 2)] == expected[2:]
        # As many draws taken: the generator goes on where integers would have left it.
        assert env.np_random.bit_generator.state == generator.bit_generator.state
