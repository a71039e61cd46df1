"""Whole runs on a batched engine: ``tussle balance --engine batch`` and ``tussle match --engine batch``.

The batched engine is checked move for move against the scalar one in
test_batch.py; here, the games a run plays on it: each game the same however
the run is cut, and the figures of random agents the same as the scalar
engine's for the same agents. The random streams differ, so the figures are
compared statistically (two-sample tests on seeded runs: deterministic, and
far from their bounds).
"""

from __future__ import annotations

import json
import math
import random
from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("jax")

import duckdb
import numpy as np
from click.testing import CliRunner
from scipy import stats

from tussle.balance import play as balance_play
from tussle.batch import shared
from tussle.batch.playout import Playouts, play_games
from tussle.cli import cli
from tussle.game import CHANCE
from tussle.registry import load_game, simulation_options

OPTIONS = simulation_options("fite")


def scalar_games(n: int, seed: int, game_id: str = "fite") -> dict[str, np.ndarray]:
    """``n`` random games on the scalar engine, with what play_games reports of each."""
    game = load_game(game_id, **simulation_options(game_id))
    rng = random.Random(seed)
    rows = []
    for _ in range(n):
        state = game.new_initial_state()
        events = decisions = choices = choosing = 0
        while acting := state.to_act():
            if acting[0] == CHANCE:
                state.apply(CHANCE, state.sample_chance(rng))
                events += 1
                continue
            chosen = []
            for player in acting:  # a simultaneous step: each chooses before anything is applied
                legal = state.legal_actions(player)
                decisions += 1
                choices += len(legal)
                choosing += len(legal) > 1
                chosen.append((player, legal.sample(rng)))
            for player, action in chosen:
                state.apply(player, action)
                events += 1
        result = state.result()
        assert result is not None
        winner = -1 if result.winner is None else result.winner
        rows.append(
            (winner, events, decisions, choices / decisions, choosing / decisions, state.cut_by_limit())
        )
    columns = np.array(rows, dtype=float).T
    return dict(zip(("winner", "events", "decisions", "branching", "choosing", "cut"), columns, strict=True))


def batch_games(n: int, seed: int, game_id: str = "fite") -> dict[str, np.ndarray]:
    # In calls of 1,024 games: the compiled call every test of this module shares.
    engine = shared(game_id, simulation_options(game_id))
    parts = [play_games(engine, seed, first, 1024) for first in range(0, n, 1024)]
    games = Playouts(*(np.concatenate([getattr(p, f.name) for p in parts])[:n] for f in fields(Playouts)))
    return {
        "winner": games.winners().astype(float),
        "events": games.events.astype(float),
        "decisions": games.decisions.astype(float),
        "branching": games.choices / games.decisions,
        "choosing": games.choosing / games.decisions,
        "cut": games.truncated.astype(float),
    }


def test_a_game_is_the_same_however_the_run_is_cut_and_however_many_play_at_once() -> None:
    engine = shared("fite", OPTIONS)
    whole = play_games(engine, 11, 0, 600)
    # Two compiled calls in all: the parts share one (16 at once, room for 1,024 games).
    parts = [play_games(engine, 11, a, b - a, width=16) for a, b in ((0, 260), (260, 600))]
    for name in ("returns", "truncated", "events", "decisions", "choices", "choosing", "digest"):
        assert np.array_equal(getattr(whole, name), np.concatenate([getattr(p, name) for p in parts])), name
    other = play_games(engine, 12, 0, 600)
    assert not np.array_equal(whole.digest, other.digest)  # another seed, other games
    # The digest tells games apart: random games of FITE do not repeat in 600.
    assert len({tuple(d) for d in whole.digest}) == 600
    assert (whole.events > whole.decisions).all()  # every game rolls dice
    rankings, winners = whole.rankings(), whole.winners()
    for g in range(600):
        a, b = whole.returns[g]
        assert tuple(rankings[g]) == ((1, 2) if a > b else (2, 1) if b > a else (1, 1))
        assert winners[g] == (0 if a > b else 1 if b > a else -1)


@pytest.mark.parametrize("game_id", ["fite", "robo-pigs"])
def test_random_games_on_the_batched_engine_have_the_scalar_engines_figures(game_id: str) -> None:
    scalar, batch = scalar_games(3000, 5, game_id), batch_games(20000, 5, game_id)
    # A player's wins, draws, and games cut by the round limit: two-proportion z tests.
    for name, value in (("winner", 0), ("winner", 1), ("winner", -1), ("cut", 1)):
        p1, p2 = (np.mean(s[name] == value) for s in (scalar, batch))
        pooled = (p1 * 3000 + p2 * 20000) / 23000
        if pooled in (0, 1):  # random fighters of FITE never reach turn 100
            assert p1 == p2, (name, value)
            continue
        z = (p1 - p2) / math.sqrt(pooled * (1 - pooled) * (1 / 3000 + 1 / 20000))
        assert abs(z) < 4, (name, value, p1, p2)
    for name in ("events", "decisions", "branching", "choosing"):  # Welch's t
        if scalar[name].std() == batch[name].std() == 0:  # a pig's choices depend on its damage alone
            assert scalar[name][0] == batch[name][0], name
            continue
        test = stats.ttest_ind(scalar[name], batch[name], equal_var=False)
        assert test.pvalue > 1e-4, (name, scalar[name].mean(), batch[name].mean())
    # And the whole distribution of lengths (two-sample Kolmogorov-Smirnov).
    assert stats.ks_2samp(scalar["events"], batch["events"]).pvalue > 1e-4


def _balance(out: Path, *args: str) -> Any:
    # One process: a pool's fork after JAX has started its threads is what JAX warns against.
    command = ["balance", "fite", "random", "random", "-j", "1", "--out", str(out), *args]
    return CliRunner().invoke(cli, command)


def _games(out: Path) -> list[tuple[Any, ...]]:
    connection = duckdb.connect()
    try:
        files = str(out / "data" / "games-*.parquet")
        return connection.execute(f"SELECT * FROM read_parquet('{files}') ORDER BY game, seat").fetchall()
    finally:
        connection.close()


def test_balance_on_the_batched_engine_stores_what_the_scalar_engine_stores_and_grows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Chunks of 1,024 games: the compiled call every test of this module shares.
    monkeypatch.setattr(balance_play, "BATCH_CHUNK", 1024)
    result = _balance(tmp_path / "b", "--engine", "batch", "-n", "3000", "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    rows = _games(tmp_path / "b")
    assert len(rows) == 6000
    names = list(balance_play.GAME_COLUMNS)
    first = dict(zip(names, rows[0], strict=True))
    assert first["agent"] == "random" and first["signature"] and len(first["signature"]) == 16
    assert first["lead_changes"] is None and first["drama"] is None and first["branching"] > 1
    # Figures the scalar engine's run has too: the first seat's win rate, within the scalar run's.
    scalar = _balance(tmp_path / "s", "-n", "400", "--json")
    assert scalar.exit_code == 0, scalar.output
    seats = [
        next(f for f in json.loads(r.stdout)["slices"][0]["figures"] if f["key"].endswith("seats"))
        for r in (result, scalar)
    ]
    b_rate, s_rate = (figure["rows"][0][5] for figure in seats)
    assert abs(b_rate - s_rate) < 4 * math.sqrt(0.25 / 400 + 0.25 / 3000)
    keys = [figure["key"].split("-")[-1] for figure in report["slices"][0]["figures"]]
    assert keys == ["seats", "summary", "length", "feel"]  # no empty tables of components
    scalar_keys = [f["key"].split("-")[-1] for f in json.loads(scalar.stdout)["slices"][0]["figures"]]
    assert "tactic_choices" in scalar_keys
    run_rows = {row[0]: row[1] for row in report["run"][0]["rows"]}
    assert "batched forms" in run_rows["engine"] and "not measured" in run_rows["engine"]
    assert json.loads((tmp_path / "b" / "plan.json").read_text())["engine"] == "batch"
    assert "engine" not in json.loads((tmp_path / "s" / "plan.json").read_text())  # as before engines
    # A run grown from a smaller one, so cut in other chunks, stores the same games.
    grown = tmp_path / "g"
    assert _balance(grown, "--engine", "batch", "-n", "1000").exit_code == 0
    assert _balance(grown, "--engine", "batch", "-n", "3000").exit_code == 0
    assert len(list((grown / "data").glob("games-*.parquet"))) == 3  # 0-1000, 1000-2024, 2024-3000
    assert _games(grown) == rows


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--engine", "batch", "--also", "rule,random"], "'rule' has no batched form for fite"),
        (["--engine", "batch", "--cluster", "ray:auto"], "give no --cluster"),
        (["--engine", "fast"], "invalid value for '--engine'"),
    ],
)
def test_balance_on_the_batched_engine_refuses_in_one_line(
    tmp_path: Path, args: list[str], says: str
) -> None:
    result = _balance(tmp_path / "r", "-n", "10", *args)
    assert result.exit_code != 0 and "Traceback" not in result.output
    assert says in result.output and len(result.output.strip().splitlines()) == 1


def test_balance_refuses_a_folder_of_the_other_engine_and_a_game_without_one(tmp_path: Path) -> None:
    assert _balance(tmp_path / "b", "--engine", "batch", "-n", "20").exit_code == 0
    refused = _balance(tmp_path / "b", "-n", "20")
    assert refused.exit_code == 2
    assert "played on the batch engine, this run plays on the scalar engine" in refused.output
    tank = CliRunner().invoke(
        cli, ["balance", "tank-chess", "random", "random", "--engine", "batch", "--out", str(tmp_path / "t")]
    )
    assert tank.exit_code == 2 and tank.output.strip() == (
        "tussle: error: tank-chess has no batched engine yet (docs/ecosystem.md, 'Batched simulation')"
    )


def test_match_on_the_batched_engine_sums_up_as_the_scalar_match_does() -> None:
    batch = CliRunner().invoke(
        cli, ["match", "fite", "random", "random", "-n", "1024", "--engine", "batch", "--json"]
    )
    scalar = CliRunner().invoke(cli, ["match", "fite", "random", "random", "-n", "600", "--json"])
    assert batch.exit_code == 0 and scalar.exit_code == 0, batch.output + scalar.output
    b, s = json.loads(batch.stdout), json.loads(scalar.stdout)
    assert b["games"] == 1024 and b["options"] == s["options"] and b["agents"] == s["agents"]
    assert b["wins_by_agent"][0] + b["wins_by_agent"][1] + b["draws"] == 1024
    assert abs(b["mean_length"] - s["mean_length"]) < 3  # about 43 events; sd about 18
    assert abs(b["mean_returns"][0] - s["mean_returns"][0]) < 0.2
    again = CliRunner().invoke(
        cli, ["match", "fite", "random", "random", "-n", "1024", "--engine", "batch", "--json"]
    )
    assert again.stdout == batch.stdout  # the same seed, the same games
    for args, says in (
        (["rule", "random", "--engine", "batch"], "'rule' has no batched form for fite (it has random)"),
        (["random:x=1", "random", "--engine", "batch"], "random takes no parameters"),
        (["random", "random", "--engine", "batch", "--record", "x"], "give no --record or --cluster"),
    ):
        refused = CliRunner().invoke(cli, ["match", "fite", *args])
        assert refused.exit_code != 0 and says in refused.output and "Traceback" not in refused.output


def test_match_and_balance_play_the_rule_agent_where_it_has_a_batched_form(tmp_path: Path) -> None:
    # Robo Battle Pigs' rule agent beats random play every time on the scalar engine (200 of 200
    # games in one run); each agent keeps its name and its wins in whichever seat it sat.
    played = CliRunner().invoke(
        cli, ["match", "robo-pigs", "random", "rule", "-n", "64", "--engine", "batch", "--json"]
    )
    assert played.exit_code == 0, played.output
    summary = json.loads(played.stdout)
    assert summary["agents"] == ["random", "rule"] and summary["wins_by_agent"][1] >= 60
    balance = CliRunner().invoke(
        cli,
        [
            "balance",
            "robo-pigs",
            "rule",
            "random",
            "-n",
            "40",
            "--engine",
            "batch",
            "--out",
            str(tmp_path / "b"),
        ],
    )
    assert balance.exit_code == 0, balance.output
    files = tmp_path / "b" / "data" / "games-*.parquet"
    query = f"SELECT agent, avg(won::int) FROM read_parquet('{files}') GROUP BY agent"
    rows = dict(duckdb.execute(query).fetchall())
    assert rows["rule"] >= 0.9 and rows["random"] <= 0.1
    # The report names what played each agent's games.
    about = json.loads((tmp_path / "b" / "provenance.json").read_text())["agents"]
    assert about["rule"]["batched"] == "tussle.games.robo_pigs.batch.RuleAgentBatch"
    assert about["random"]["batched"] == "tussle.games.robo_pigs.batch.RoboPigsBatch.random_action_one"
    page = (tmp_path / "b" / "report.html").read_text(encoding="utf-8")
    assert "batched as tussle.games.robo_pigs.batch.RuleAgentBatch" in page
