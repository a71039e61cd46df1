"""`tussle bench` and the fast paths it measures.

The command runs here with tiny budgets: these tests check that it runs and
reports every figure, never how fast anything is. The fast sampling of Tank
Chess turns and Robo Battle Pigs programs is checked against the plain
definitions (the full listing) too, since the speed must not change a rule.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest
from click.testing import CliRunner, Result

from tussle import agents, load_game
from tussle.agents.base import Agent, PlayerView
from tussle.bench import bench_game, measure_search, run_bench, sample_positions, targets
from tussle.cli import cli
from tussle.errors import AgentError
from tussle.games.tank_chess import TankChessState
from tussle.registry import game_ids

TINY = "0.002"


def run(*args: str) -> Result:
    return CliRunner().invoke(cli, ["bench", *args])


def bench_json(*args: str) -> dict[str, Any]:
    result = run(*args, "--json")
    assert result.exit_code == 0, result.output
    assert result.stderr == ""  # no progress display off a terminal
    lines = result.stdout.strip().splitlines()
    assert len(lines) == 1
    report: dict[str, Any] = json.loads(lines[0])
    return report


class CountingAgent(Agent):
    """A stand-in search agent: 'searches' a fixed number of iterations and says so."""

    def act(self, view: PlayerView) -> Any:
        self.last_stats = {"iterations": 50.0, "seconds": 0.01}
        return view.legal_actions().sample(self.rng)


@pytest.fixture
def counting_agent(monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setitem(agents._GENERAL, "counting", f"{__name__}:CountingAgent")
    return "counting"


# --- the command --------------------------------------------------------------------


def test_every_game_reports_every_figure_and_its_target() -> None:
    report = bench_json("--seconds", TINY, "--compare", "--search", "none")
    assert [g["game"] for g in report["games"]] == game_ids()
    chess = report["chess"]
    assert chess["steps_per_s"] > 0 and chess["games"] >= 1 and chess["version"]
    for g in report["games"]:
        assert g["players"] >= 2
        assert g["playout"]["steps_per_s"] > 0 and g["playout"]["games_per_s"] > 0
        assert g["playout"]["games"] >= 1 and g["playout"]["events"] >= g["playout"]["games"]
        assert g["legal"]["calls_per_s"] > 0 and g["legal"]["mean_actions"] >= 1
        assert g["search"] is None and g["search_note"] == "not measured"
        assert g["ratio_to_chess"] > 0
        assert g["target"] == targets()[g["game"]]
        assert g["target_met"] == (g["ratio_to_chess"] >= g["target"])
    assert report["targets_met"] == all(g["target_met"] for g in report["games"])
    assert report["machine"]["python"] and report["seed"] == 1


def test_simulation_options_are_used_and_named() -> None:
    report = bench_json("robo-pigs", "tank-chess", "-s", TINY, "--search", "none")
    options = {g["game"]: g["options"] for g in report["games"]}
    assert options == {"robo-pigs": {"round_limit": 100}, "tank-chess": {"ply_limit": 1000}}
    # Without --compare there is no yardstick and no verdict.
    assert report["chess"] is None and report["targets_met"] is None
    assert all(g["ratio_to_chess"] is None and g["target_met"] is None for g in report["games"])


def test_search_iterations_come_from_the_agents_own_figures(counting_agent: str) -> None:
    report = bench_json("fight", "-s", TINY, "--search", counting_agent)
    search = report["games"][0]["search"]
    assert search["agent"] == counting_agent and search["moves"] >= 1
    assert search["iterations"] == 50 * search["moves"]
    assert search["iterations_per_s"] == pytest.approx(5000.0)


def test_an_agent_without_search_figures_is_noted_not_fatal() -> None:
    report = bench_json("fight", "-s", TINY, "--search", "random")
    game = report["games"][0]
    assert game["search"] is None and "last_stats" in game["search_note"]
    report = bench_json("fight", "-s", TINY, "--search", "nonesuch")
    assert "unknown agent 'nonesuch'" in report["games"][0]["search_note"]
    report = bench_json("fight", "-s", TINY, "--search", "human")
    assert "needs a person" in report["games"][0]["search_note"]


def test_the_table_marks_each_target(counting_agent: str) -> None:
    result = run("robo-pigs", "fight", "-s", TINY, "--compare", "--search", counting_agent)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    for game in ("robo-pigs", "fight"):
        row = next(line for line in lines if line.startswith(f" {game}"))
        assert row.rstrip().endswith(("5x ok", "5x NO")), row
    assert "chess (python-chess" in result.stdout
    assert "target met" in result.stdout or "NOT met" in result.stdout


def test_the_same_games_are_played_for_the_same_seed() -> None:
    first = run_bench(["robo-pigs"], seconds=0.0, search=None, seed=7).games[0]
    again = run_bench(["robo-pigs"], seconds=0.0, search=None, seed=7).games[0]
    figures = [(g.playout.events, g.playout.games, g.legal.mean_actions) for g in (first, again)]
    assert figures[0] == figures[1]


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["no-such-game"], ["unknown game 'no-such-game'"]),
        (["fight", "nope", "-s", TINY], ["unknown game 'nope'"]),
        (["--seconds", "0"], ["--seconds", "0.0"]),
        (["--seconds", "soon"], ["--seconds", "soon"]),
        (["--vs-openspiel", "fite"], ["plays fightopia, tank-chess, not fite"]),
        (["--vs-openspiel", "nope"], ["unknown game 'nope'"]),
        (["--vs-openspiel", "--games", "0"], ["--games"]),
    ],
)
def test_bad_input_is_one_line(args: list[str], words: list[str]) -> None:
    result = run(*args)
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("tussle: error: "), result.stderr
    for word in words:
        assert word in lines[0]


def test_a_missing_search_agent_is_an_agent_error() -> None:
    with pytest.raises(AgentError, match="unknown agent"):
        measure_search(bench_game("fight"), "nonesuch", 0.0)


def test_positions_come_from_several_games_and_every_acting_seat() -> None:
    pairs = sample_positions(bench_game("robo-pigs"), 60)
    assert len(pairs) == 60
    assert {p for _, p in pairs} == {0, 1}
    assert len({state.round for state, _ in pairs}) > 5  # type: ignore[attr-defined]


# --- the fast paths keep the rules ------------------------------------------------


def tank_positions(count: int, seed: int) -> list[TankChessState]:
    rng = random.Random(seed)
    out: list[TankChessState] = []
    for size in ("16", "20"):
        game = load_game("tank-chess", size=size, ply_limit=0)
        while len(out) < count * (1 if size == "16" else 2):
            state = game.new_initial_state()
            assert isinstance(state, TankChessState)
            for _ in range(rng.randrange(0, 150)):
                if state.is_terminal():
                    break
                state.apply(state.turn, state.legal_actions(state.turn).sample(rng))
            if not state.is_terminal():
                out.append(state)
    return out


def test_tank_chess_samples_and_checks_exactly_the_listed_turns() -> None:
    rng = random.Random(5)
    for state in tank_positions(15, 3):
        player = state.turn
        listed = list(state.clone().legal_actions(player))
        assert len(set(listed)) == len(listed)
        fresh = state.clone().legal_actions(player)
        for _ in range(40):
            assert fresh.sample(rng) in listed
        checker = state.clone().legal_actions(player)  # `in` before anything is listed
        assert all(action in checker for action in listed)
        starts = {a & 511 for a in listed}
        junk = [rng.randrange(1 << 30) for _ in range(300)]
        junk += [a ^ (1 << rng.randrange(30)) for a in listed[:100]]
        junk += [(a & ~(511 << 21)) | rng.randrange(512) << 21 for a in listed[:100]]
        legal = set(listed)
        for item in junk:
            assert (item in state.clone().legal_actions(player)) == (item in legal), (state.position(), item)
        assert starts <= set(state.tanks[player])


def test_tank_chess_sampling_is_uniform() -> None:
    # A crowded corner: a few dozen turns, shots among them.
    game = load_game("tank-chess")
    state = game.state_from_position("white=Ca1N,Lc1N,Hb3NE black=Ch16S,Ld4S,Mf3W,Le1W obstacles=a2,b1")
    legal = list(state.legal_actions(0))
    assert any(a >> 21 != 511 for a in legal)  # some turns shoot
    rng = random.Random(11)
    draws = 400 * len(legal)
    counts = Counter(state.clone().legal_actions(0).sample(rng) for _ in range(draws))
    assert set(counts) == set(legal)
    # Each count is binomial(draws, 1/len) with mean 400 and deviation 20: allow 6 deviations.
    assert all(280 <= counts[a] <= 520 for a in legal), sorted(counts.values())[:5]


def test_robo_pigs_programs_index_as_they_list() -> None:
    from tussle.games.robo_pigs.rules import Programs, programs_for

    for damage in range(5):
        for extra_x in (False, True):
            programs = programs_for(damage, extra_x)
            assert programs is programs_for(damage, extra_x)
            listed = list(Programs(damage, extra_x))
            assert len(listed) == len(programs)
            step = max(1, len(listed) // 3000)
            for i in range(0, len(listed), step):
                assert programs[i] == listed[i] and listed[i] in programs
            assert programs[-1] == listed[-1]


def test_vs_openspiel_plays_mcts_against_mctsbot() -> None:
    result = run("--vs-openspiel", "fightopia", "--games", "1", "--move-seconds", "0.02", "--json")
    assert result.exit_code == 0, result.output
    (row,) = json.loads(result.stdout)["vs_openspiel"]
    assert row["game"] == "fightopia" and row["games"] == 1
    assert row["tussle_wins"] + row["openspiel_wins"] + row["draws"] == 1
    assert row["tussle_iterations_per_second"] > 0 and row["openspiel_iterations_per_second"] > 0


def test_bench_adapters_sets_each_library_beside_the_engine() -> None:
    result = CliRunner().invoke(cli, ["bench", "--adapters", "fite", "-s", "0.05", "--json"])
    assert result.exit_code == 0, result.output
    (row,) = json.loads(result.output)["adapters"]
    assert row["game"] == "fite" and row["engine_us"] > 0
    assert (
        set(row["library_us"])
        == set(row["ratios"])
        == {
            "gymnasium",
            "gymnasium-sparse",
            "pettingzoo",
            "pettingzoo-sparse",
            "openspiel",
        }
    )
    # Only a game with a step-by-step encoding has the steps column.
    steps = json.loads(
        CliRunner().invoke(cli, ["bench", "--adapters", "robo-pigs", "-s", "0.05", "--json"]).output
    )["adapters"][0]
    assert {"gymnasium-steps", "pettingzoo-steps"} <= set(steps["library_us"])
    for name, us in row["library_us"].items():
        assert row["ratios"][name] == pytest.approx(us / row["engine_us"], rel=0.01)
