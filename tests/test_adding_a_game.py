"""The contract of a game folder: the toy game (tests/toy_game/) plus one registry line gets everything.

Its folder declares its parts in ``GameInfo.hooks`` exactly as the five games do;
nothing generic is told about it except its registry entry (``registered``).
These tests use it through the same doors as a user: the command line, matches
and records, the search agents and levels, and the RL adapters.
"""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest
from click.testing import CliRunner

from toy_game import BareDiceRace, registered
from tussle import AgentError, Record, load_game
from tussle.agents import agent_names, make_agent
from tussle.cli import cli
from tussle.runner import play_game, run_match
from tussle.search.policy import policy_for

#: Every agent a user may name for the toy game: general ones, its rule agent, its levels, its own.
AGENTS = ("random", "rule", "dice-race:greedy", "easy", "medium", "hard", "mcts", "ismcts", "alphabeta")


def test_the_command_line_lists_and_plays_it(tmp_path: Path) -> None:
    runner = CliRunner()
    with registered():
        listing = runner.invoke(cli, ["games"])
        assert listing.exit_code == 0 and "dice-race" in listing.output
        info = runner.invoke(cli, ["info", "dice-race"])
        assert info.exit_code == 0, info.output
        assert "dice-race:greedy" in info.output and "rule" in info.output
        record = tmp_path / "game.json"
        played = runner.invoke(
            cli, ["play", "dice-race", "-p", "rule,dice-race:greedy", "--seed", "3", "--record", str(record)]
        )
        assert played.exit_code == 0, played.output
        replayed = runner.invoke(cli, ["replay", str(record)])
        assert replayed.exit_code == 0, replayed.output
        match = runner.invoke(cli, ["match", "dice-race", "rule", "random", "-n", "6", "--json"])
        assert match.exit_code == 0, match.output


@pytest.mark.parametrize("spec", AGENTS)
def test_every_agent_plays_it_and_the_records_replay(spec: str, tmp_path: Path) -> None:
    with registered() as game_id:
        games = list(run_match(game_id, [spec, "rule"], 2, seed=5, record_dir=str(tmp_path)))
        assert len(games) == 2
        for summary in games:
            assert summary.record_path is not None
            state = Record.load(summary.record_path).replay()[-1]
            assert state.is_terminal()


def test_its_parts_come_from_its_own_folder() -> None:
    with registered() as game_id:
        game = load_game(game_id)
        assert type(policy_for(game)).__module__ == "toy_game.search"
        assert type(make_agent("rule", game, 0)).__module__ == "toy_game.rule_agent"
        assert type(make_agent("dice-race:greedy", game, 1)).__name__ == "GreedyAgent"
        assert make_agent("medium", game, 0).inner.spec == "mcts:iterations=200"  # type: ignore[attr-defined]
        assert "dice-race:greedy" in agent_names(game_id)


def test_a_game_with_rules_only_still_gets_the_generic_agents() -> None:
    with registered(BareDiceRace) as game_id:
        game = load_game(game_id)
        assert "rule" not in agent_names(game_id) and "dice-race:greedy" not in agent_names(game_id)
        with pytest.raises(AgentError, match="no rule-of-thumb agent for dice-race"):
            make_agent("rule", game, 0)
        with pytest.raises(AgentError, match=r"'dice-race:greedy' \(dice-race's own agents: none\)"):
            make_agent("dice-race:greedy", game, 0)
        # The search agents fall back on the base policy, the levels on the default table.
        agents = [make_agent(spec, game, s, seed=s) for s, spec in enumerate(("easy", "mcts:iterations=30"))]
        state, _ = play_game(game, agents, seed=1)
        assert state.is_terminal()


def test_the_rl_adapters_take_it() -> None:
    pytest.importorskip("numpy")
    from gymnasium.utils.env_checker import check_env
    from pettingzoo.test import api_test  # type: ignore[import-untyped]

    from tussle.adapters.encoding import encoding_for
    from tussle.adapters.gymnasium_env import TussleGymEnv
    from tussle.adapters.pettingzoo_env import env

    with registered() as game_id:
        encoding = encoding_for(load_game(game_id))
        assert encoding.num_actions == 2 and encoding.observation_shape == (6,)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            check_env(TussleGymEnv(game_id, "rule", render_mode="ansi"))
            api_test(env(game_id, players=3), num_cycles=50)


def test_openspiel_takes_it() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    from tussle.adapters import openspiel_game

    with registered() as game_id:
        assert openspiel_game.spiel_name(game_id) in openspiel_game.register_all()
        game = openspiel_game.load(game_id, turn_limit=30)
        pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
