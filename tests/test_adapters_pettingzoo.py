"""PettingZoo's own checks on tussle's AEC and Parallel environments, and their tussle-specific promises."""

from __future__ import annotations

import random
import warnings
from functools import partial
from types import SimpleNamespace
from typing import Any

import gymnasium
import numpy as np
import pytest
from pettingzoo.test import (  # type: ignore[import-untyped]
    api_test,
    max_cycles_test,
    parallel_api_test,
    parallel_seed_test,
    seed_test,
)

import tussle
from tussle import ActionError, OptionError, UnknownGameError
from tussle.adapters.pettingzoo_env import TussleAECEnv, env, forfeit_returns, parallel_env
from tussle.games.fight.rules import FightState

#: (game id, players, options, cycles): the games PettingZoo's tests play, kept short.
Case = tuple[str, int | None, dict[str, Any], int]
GAMES: list[Case] = [
    ("robo-pigs", None, {"round_limit": 15}, 100),
    ("fite", None, {}, 200),
    ("fightopia", None, {"ply_limit": 150}, 100),
    ("tank-chess", None, {"ply_limit": 20}, 8),
    ("fight", None, {}, 100),
    ("fight", 4, {}, 100),
]
SIMULTANEOUS = [case for case in GAMES if case[0] in ("robo-pigs", "fite")]

#: The two warnings PettingZoo's api_test gives every environment with an action mask in a
#: dict observation (its own classic games are exempted by name).
EXPECTED_WARNINGS = (
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be",
)


def ids(case: tuple[Any, ...]) -> str:
    return f"{case[0]}-{case[1] or 'default'}p"


@pytest.mark.parametrize("case", GAMES, ids=ids)
def test_api_test(case: Case) -> None:
    game_id, players, options, cycles = case
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env(game_id, players=players, options=options), num_cycles=cycles)
    unexpected = [str(w.message) for w in caught if not str(w.message).startswith(EXPECTED_WARNINGS)]
    assert unexpected == []


@pytest.mark.parametrize("case", GAMES, ids=ids)
def test_seed_test(case: Case) -> None:
    game_id, players, options, cycles = case
    seed_test(lambda: env(game_id, players=players, options=options), num_cycles=min(cycles, 60))


@pytest.mark.parametrize("case", SIMULTANEOUS, ids=ids)
def test_parallel_api_and_seed_tests(case: Case) -> None:
    game_id, players, options, cycles = case
    parallel_api_test(parallel_env(game_id, players=players, options=options), num_cycles=cycles)
    parallel_seed_test(lambda: parallel_env(game_id, players=players, options=options), num_cycles=cycles)


def masked_random(obs: dict[str, np.ndarray], rng: random.Random) -> int:
    return rng.choice(np.flatnonzero(obs["action_mask"]).tolist())


@pytest.mark.parametrize("game_id", ["robo-pigs", "fite"])
def test_parallel_games_played_with_masks_end_with_zero_sum_rewards(game_id: str) -> None:
    e = parallel_env(game_id, options={"round_limit": 30} if game_id == "robo-pigs" else {})
    rng = random.Random(2)
    observations, _ = e.reset(seed=5)
    rewards: dict[str, float] = {}
    steps = 0
    while e.agents:
        actions = {
            agent: masked_random(obs, rng) if obs["action_mask"].any() else 0
            for agent, obs in observations.items()
        }
        observations, rewards, terminations, truncations, _ = e.step(actions)
        steps += 1
    # Ended by the rules (terminated) or by the round limit (truncated), never both.
    cut = e.tussle_state.cut_by_limit()
    assert all(truncations.values()) == cut and all(terminations.values()) == (not cut)
    assert abs(sum(rewards.values())) < 1e-9
    assert e.tussle_state.is_terminal() and steps > 1


def test_aec_simultaneous_step_hides_the_first_submission() -> None:
    e = env("robo-pigs")
    e.reset(seed=1)
    assert e.agent_selection == "player_0"
    before = e.observe("player_1")["observation"]
    obs = e.observe("player_0")
    e.step(masked_random(obs, random.Random(1)))
    assert e.agent_selection == "player_1"
    assert np.array_equal(e.observe("player_1")["observation"], before)
    assert not e.observe("player_0")["action_mask"].any()  # it has submitted: nothing left to choose


def test_an_illegal_action_forfeits_the_aec_game() -> None:
    e = env("fightopia")
    e.reset(seed=3)
    agent = e.agent_selection
    loser = int(agent.split("_")[1])
    e.step(0)  # a1's Pawn step north: there is no Pawn on a1
    assert all(e.terminations.values())
    assert e.rewards == {f"player_{p}": (-1.0 if p == loser else 1.0) for p in range(2)}
    assert e.infos[agent]["illegal_action"] == 0 and not e.infos[agent]["legal_actions"].size
    for _ in e.agent_iter():
        assert e.last()[2]
        e.step(None)
    assert e.agents == []


def test_raise_mode_refuses_an_illegal_action_and_changes_nothing() -> None:
    e = env("fightopia", illegal_action="raise")
    e.reset(seed=3)
    position = e.tussle_state.position()
    with pytest.raises(ActionError, match="action 0 is not one of the 30 legal actions"):
        e.step(0)
    assert e.tussle_state.position() == position and not any(e.terminations.values())


def test_an_illegal_parallel_choice_forfeits_and_a_missing_one_is_an_error() -> None:
    e = parallel_env("fite")
    e.reset(seed=1)
    with pytest.raises(ActionError, match="player_1 must act now"):
        e.step({"player_0": 0})
    _, rewards, terminations, _, infos = e.step({"player_0": 0, "player_1": 5000})
    assert rewards == {"player_0": 1.0, "player_1": -1.0} and all(terminations.values())
    assert infos["player_1"]["illegal_action"] == -1 and e.agents == []
    assert "illegal_action" not in infos["player_0"] and not infos["player_0"]["legal_actions"].size
    with pytest.raises(ActionError, match="the game is over"):
        e.step({"player_0": 0, "player_1": 0})


def test_forfeits_share_the_result_like_tussle_results() -> None:
    assert forfeit_returns(4, {2}) == [1 / 9, 1 / 9, -1 / 3, 1 / 9]
    assert forfeit_returns(3, {0, 1}) == [-0.5, -0.5, 1.0]


def test_seeds_repeat_the_chance_events() -> None:
    def deal(seed: int) -> list[str]:
        e = TussleAECEnv("fight", players=3)
        e.reset(seed=seed)
        return [card["name"] for card in e.tussle_state.observation(0)["seats"][0]["hand"]]

    assert deal(11) == deal(11) != deal(12)


def test_render_modes_and_bad_arguments() -> None:
    e = env("tank-chess", render_mode="ansi")
    e.reset(seed=0)
    assert "Tank Chess" in str(e.render())
    with pytest.raises(OptionError, match="render_mode 'rgb' is not one of ansi, human"):
        env("fite", render_mode="rgb")
    with pytest.raises(OptionError, match="illegal_action 'ignore' is not one of forfeit, raise"):
        parallel_env("fite", illegal_action="ignore")
    with pytest.raises(UnknownGameError, match="unknown game 'chess'"):
        env("chess")
    with pytest.raises(OptionError, match="robo-pigs has no option 'speed'"):
        env("robo-pigs", options={"speed": 3})


def test_simulation_defaults_bound_every_game() -> None:
    e = env("fightopia")
    assert e.game.options["ply_limit"] == tussle.simulation_options("fightopia")["ply_limit"]
    assert e.metadata["name"] == "tussle_fightopia_v0"


def test_max_cycles_truncates_both_kinds_of_environment() -> None:
    parallel = parallel_env("robo-pigs", max_cycles=3)
    observations, _ = parallel.reset(seed=1)
    rng = random.Random(4)
    steps = 0
    while parallel.agents:
        actions = {agent: masked_random(obs, rng) for agent, obs in observations.items()}
        observations, rewards, terminations, truncations, _ = parallel.step(actions)
        steps += 1
    assert steps == 3 and all(truncations.values()) and not any(terminations.values())
    assert set(rewards.values()) == {0.0} and not parallel.tussle_state.is_terminal()
    aec = env("fightopia", max_cycles=2)
    aec.reset(seed=1)
    moves = 0
    for _agent in aec.agent_iter():
        obs, _, terminated, truncated, _ = aec.last()
        if terminated or truncated:
            assert truncated and not terminated
            aec.step(None)
            continue
        aec.step(masked_random(obs, rng))
        moves += 1
    assert moves == 4  # two cycles of both players
    with pytest.raises(OptionError, match="max_cycles must be 1 or more"):
        env("fite", max_cycles=0)


def test_a_simulation_limit_truncates_the_aec_game() -> None:
    aec = env("fightopia", options={"ply_limit": 3})
    aec.reset(seed=2)
    rng = random.Random(1)
    for _agent in aec.agent_iter():
        obs, _, terminated, truncated, _ = aec.last()
        if terminated or truncated:
            assert truncated and not terminated  # a draw at the ply limit: cut, not decided
            aec.step(None)
            continue
        aec.step(masked_random(obs, rng))
    assert aec.tussle_state.cut_by_limit()


@pytest.mark.parametrize("case", GAMES, ids=ids)
def test_state_is_seat_0s_array_then_the_hidden_block(case: Case) -> None:
    game_id, players, options, _ = case
    for make in (env, parallel_env):
        e = make(game_id, players=players, options=options)
        e.reset(seed=3)
        state = e.state()
        assert e.state_space.contains(state) and state.shape == (e.encoding.state_size,)
        size = e.encoding.features.size
        assert np.array_equal(state[:size], e.encoding.observation(e.tussle_state, 0))


def test_state_holds_a_secret_that_no_observation_array_shows() -> None:
    # Fighter A places secretly; its own array says only that it has chosen, B's nothing at all.
    def placed(choice: int) -> Any:
        e = env("fite")
        e.reset(seed=4)
        obs = e.observe("player_0")
        e.step(int(np.flatnonzero(obs["action_mask"])[choice]))
        return e

    first, second = placed(0), placed(-1)
    assert first.tussle_state.observation(0) != second.tussle_state.observation(0)  # A knows which
    for agent in first.possible_agents:
        assert np.array_equal(first.observe(agent)["observation"], second.observe(agent)["observation"])
    assert not np.array_equal(first.state(), second.state())


def test_state_names_what_no_player_sees_in_fight() -> None:
    e = env("fight", players=3)
    e.reset(seed=5)
    rng = random.Random(2)
    for _ in range(4):
        e.step(masked_random(e.observe(e.agent_selection), rng))
    truth = e.tussle_state
    assert isinstance(truth, FightState)
    n = len(truth.deck.warriors)  # the built-in deck's names are the features' in deck order
    state = e.state()
    hidden = state[e.encoding.features.size :]
    # The Reserves, which no player looks at: every Warrior in them and no other.
    assert set(np.flatnonzero(hidden[:n])) == set(truth.reserves)
    named = {
        card["name"]
        for p in range(3)
        for seat in truth.observation(p)["seats"]
        for card in seat["hand"]
        if "name" in card
    }
    assert not named & {truth.deck.warriors[c].name for c in truth.reserves}
    for p in range(3):
        assert set(np.flatnonzero(hidden[n + 3 * n * p : 2 * n + 3 * n * p])) == set(truth.hands[p])
    # Another deal that seat 0 cannot tell from this one is another state.
    other = truth.resample(0, random.Random(1))
    assert np.array_equal(e.encoding.observation(other, 0), e.encoding.observation(truth, 0))
    assert not np.array_equal(e.encoding.state_array(other), state)


@pytest.mark.parametrize(
    ("game_id", "options"), [("robo-pigs", {"round_limit": 6}), ("tank-chess", {"ply_limit": 8})]
)
def test_step_by_step_actions_in_the_aec_environment(game_id: str, options: dict[str, Any]) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the dict observation's warnings, as for every game above
        api_test(env(game_id, options=options, actions="steps"), num_cycles=60)
    e = env(game_id, options=options, actions="steps")
    tokens = 10 if game_id == "robo-pigs" else 969
    assert e.action_space("player_0") == gymnasium.spaces.Discrete(tokens)
    steps = e._table.steps
    assert steps is not None
    e.reset(seed=3)
    rng = random.Random(5)
    picks = 0
    for agent in e.agent_iter():
        obs, _, terminated, truncated, _ = e.last()
        if terminated or truncated:
            e.step(None)
            continue
        player = e.possible_agents.index(agent)
        prefix = e._table.prefix.get(player, [])
        extra = obs["observation"][-steps.max_steps * tokens :].reshape(-1, tokens)
        assert extra.sum() == len(prefix)  # the tokens chosen so far, in the observation
        e.step(masked_random(obs, rng))
        picks += 1
    assert e.tussle_state.is_terminal() and picks > len(e.possible_agents)
    with pytest.raises(OptionError, match="fite has no step-by-step actions"):
        env("fite", actions="steps")


def test_parallel_step_by_step_applies_the_programs_together() -> None:
    e = parallel_env("robo-pigs", actions="steps", options={"round_limit": 4})
    parallel_api_test(e, num_cycles=60)
    rng = random.Random(2)
    observations, infos = e.reset(seed=2)
    tokens = 0
    while e.agents:
        before = e.tussle_state.position()
        actions = {
            a: int(rng.choice(infos[a]["legal_actions"])) if infos[a]["legal_actions"].size else 0
            for a in e.agents
        }
        observations, _, _, _, infos = e.step(actions)
        tokens += 1
        done = [a for a in e.possible_agents if not infos[a]["legal_actions"].size]
        if e.agents and e.tussle_state.position() == before:
            # Nothing applied yet: an agent with a complete program waits, all zeros.
            for agent in done:
                assert not observations[agent]["action_mask"].any()
    assert e.tussle_state.is_terminal() and tokens > 4 * 3


def test_legal_lists_in_the_infos_and_sparse_observations() -> None:
    # AEC: the agent to act finds its legal numbers in its infos, the same as its mask says.
    e = env("tank-chess")
    e.reset(seed=2)
    obs, _, _, _, info = e.last()
    assert np.array_equal(info["legal_actions"], np.flatnonzero(obs["action_mask"]))
    assert info["legal_actions"].size > 10
    # mask="sparse": no 1.7-million-long mask in the observation; the list alone.
    sparse = env("tank-chess", mask="sparse")
    sparse.reset(seed=2)
    obs, _, _, _, sparse_info = sparse.last()
    space = sparse.observation_space(sparse.agent_selection)
    assert isinstance(space, gymnasium.spaces.Dict) and set(space.spaces) == set(obs) == {"observation"}
    assert np.array_equal(sparse_info["legal_actions"], info["legal_actions"])
    sparse.step(int(sparse_info["legal_actions"][0]))
    assert sparse.last()[4]["legal_actions"].size > 10
    # Step by step, the list is the tokens legal now.
    steps = env("robo-pigs", actions="steps", mask="sparse")
    steps.reset(seed=1)
    tokens = steps.last()[4]["legal_actions"]
    tokens_space = steps.action_space("player_0")
    assert isinstance(tokens_space, gymnasium.spaces.Discrete) and 0 < tokens.size <= tokens_space.n
    # Parallel: every agent's list, empty for one with nothing to choose.
    p = parallel_env("fite")
    observations, infos = p.reset(seed=1)
    for agent in p.possible_agents:
        assert np.array_equal(
            infos[agent]["legal_actions"], np.flatnonzero(observations[agent]["action_mask"])
        )
    with pytest.raises(OptionError, match="mask 'none' is not one of dense, sparse"):
        env("fite", mask="none")


@pytest.mark.parametrize("game_id", ["tank-chess", "fite"])
def test_sparse_environments_pass_pettingzoos_api_test(game_id: str) -> None:
    api_test(
        env(game_id, mask="sparse", options={"ply_limit": 30} if game_id == "tank-chess" else None),
        num_cycles=40,
    )


def seeded(make: Any, seed: int, **kwargs: Any) -> Any:
    """``make(**kwargs)`` with its chance generator and its (shared) action space seeded."""
    made = make(**kwargs)
    made._table.rng.seed(seed)
    made._table.action_space.seed(seed)
    return made


@pytest.mark.parametrize("case", GAMES, ids=ids)
def test_pettingzoos_max_cycles_test(case: Case) -> None:
    # It samples actions from the action space, not the mask: illegal ones are replaced by a random
    # legal one (illegal_action="random"), so the game goes on for max_cycles steps. It resets without
    # a seed and samples from unseeded spaces: the generators are seeded here, so that it plays the
    # same games every run. Its AEC count assumes each agent steps once a cycle; at FITE's tactical
    # location a fighter may choose alone, which in some games would step one agent twice running
    # within the test's four cycles (test_max_cycles_counts_agent_steps counts every game's steps).
    game_id, players, options, _ = case
    kwargs = {"players": players, "options": options, "illegal_action": "random"}
    module = SimpleNamespace(
        env=partial(seeded, partial(env, game_id), 1, **kwargs),
        parallel_env=partial(seeded, partial(parallel_env, game_id), 1, **kwargs),
    )
    max_cycles_test(module)


@pytest.mark.parametrize("case", GAMES, ids=ids)
def test_max_cycles_counts_agent_steps(case: Case) -> None:
    game_id, players, options, _ = case
    for cycles in (1, 4):
        aec = env(game_id, players=players, options=options, max_cycles=cycles)
        aec.reset(seed=cycles)
        rng = random.Random(cycles)
        live = 0
        for _agent in aec.agent_iter():
            obs, reward, terminated, truncated, _ = aec.last()
            if terminated or truncated:
                assert truncated and not terminated and reward == 0.0  # cut undecided
                aec.step(None)
                continue
            aec.step(masked_random(obs, rng))
            live += 1
        assert live == cycles * len(aec.possible_agents)


def test_an_illegal_action_is_replaced_by_a_random_legal_one_when_asked() -> None:
    e = env("fightopia", illegal_action="random")
    e.reset(seed=3)
    agent = e.agent_selection
    e.step(0)  # no Pawn on a1: a random legal move instead, and the game goes on
    assert not any(e.terminations.values()) and e.agent_selection != agent
    assert e.infos[agent]["illegal_action"] == 0 and e.tussle_state.is_terminal() is False
    p = parallel_env("fite", illegal_action="random")
    p.reset(seed=1)
    _, _, terminations, _, infos = p.step({"player_0": 0, "player_1": 5000})
    assert not any(terminations.values()) and p.agents
    assert infos["player_1"]["illegal_action"] == 5000 and "illegal_action" not in infos["player_0"]


@pytest.mark.parametrize("cycles", [1, 3])
def test_max_cycles_counts_steps_also_step_by_step(cycles: int) -> None:
    # Step by step every token is a step: the AEC game is cut after cycles x agents agent steps,
    # the Parallel one after cycles steps, whether or not an action was completed.
    aec = env("robo-pigs", actions="steps", max_cycles=cycles)
    aec.reset(seed=1)
    rng = random.Random(3)
    live = 0
    for _agent in aec.agent_iter():
        obs, _, terminated, truncated, _ = aec.last()
        if terminated or truncated:
            assert truncated and not terminated
            aec.step(None)
            continue
        aec.step(masked_random(obs, rng))
        live += 1
    assert live == cycles * 2
    par = parallel_env("robo-pigs", actions="steps", max_cycles=cycles)
    observations, _ = par.reset(seed=1)
    steps = 0
    while par.agents:
        actions = {a: masked_random(obs, rng) for a, obs in observations.items() if obs["action_mask"].any()}
        observations, _, terminations, truncations, _ = par.step(actions)
        steps += 1
    assert steps == cycles and all(truncations.values()) and not any(terminations.values())
