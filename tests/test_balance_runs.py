"""``tussle balance`` runs: A/B paired by seed, provenance, growing runs, --until, chunks, progress."""

from __future__ import annotations

import hashlib
import json
import math
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from scipy import stats

from test_balance import coin_registered
from tussle import load_game
from tussle.balance.compare import ab_figures, games_needed, paired
from tussle.balance.play import (
    AUTO_OPENINGS,
    Plan,
    chunk_size,
    make_plan,
    measures_of,
    open_data,
    run,
    run_until,
    seat_intervals,
    stored,
)
from tussle.balance.report import build
from tussle.cli import cli
from tussle.cli import common as cli_common


def rows_of(data: Path, table: str = "games") -> list[tuple[Any, ...]]:
    connection = open_data(data)
    try:
        return connection.execute(f"SELECT * FROM {table} ORDER BY ALL").fetchall()
    finally:
        connection.close()


def test_jobs_and_chunks_change_no_game_and_the_progress_moves_a_game_at_a_time(tmp_path: Path) -> None:
    with coin_registered():
        plan = make_plan("coin", [["random", "random"]], 90, seed=5, options={"heads": 60})
        one = run(plan, tmp_path / "one", jobs=1)
        ticks = 0

        def advance() -> None:
            nonlocal ticks
            ticks += 1

        two = run(plan, tmp_path / "two", jobs=2, advance=advance)
    assert rows_of(one) == rows_of(two) and rows_of(one, "events") == rows_of(two, "events")
    assert len(rows_of(one)) == 2 * 90 and ticks == 90  # every game once, ticks from the workers too
    # The first game was played alone (timed); the rest in chunks that keep both processes busy.
    ranges = stored(two)[0]
    assert ranges[0] == (0, 1) and len(ranges) >= 2 * 4 and max(b - a for a, b in ranges) == 12
    assert chunk_size(89, 2, 0.001) == 12 and chunk_size(89, 2, 5.0) == 4  # slow games: smaller chunks


def test_progress_lines_are_printed_without_a_terminal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(cli_common, "PROGRESS_EVERY", 0.0)
    with coin_registered():
        result = CliRunner().invoke(
            cli, ["balance", "coin", "random", "random", "-n", "30", "-j", "1", "--out", str(tmp_path / "p")]
        )
    assert result.exit_code == 0, result.output
    lines = [line for line in result.stderr.splitlines() if line.startswith("coin: ")]
    assert lines[0].startswith("coin: 1 x 30 games: 1 of 30 (3%) in ")
    assert lines[-1].startswith("coin: 1 x 30 games: 30 of 30 (100%)")
    assert "openings" not in result.stdout  # random agents: no opening needed, none played


def test_a_changed_layout_file_is_refused_and_fresh_plays_it_again(tmp_path: Path) -> None:
    layout = tmp_path / "layout.txt"
    layout.write_text(load_game("tank-chess").new_initial_state().position(), encoding="utf-8")
    out = tmp_path / "run"
    args = ["balance", "tank-chess", "random", "random", "-n", "2", "-j", "1", "-o", f"setup={layout}"]
    first = CliRunner().invoke(cli, [*args, "--out", str(out)])
    assert first.exit_code == 0, first.output
    about = json.loads((out / "provenance.json").read_text())
    (entry,) = about["content"]
    text = layout.read_text(encoding="utf-8")
    assert entry["sha256"] == hashlib.sha256(text.encode()).hexdigest() and entry["file"] == str(layout)
    assert about["tussle"] and about["agents"]["random"]["class"].endswith("RandomAgent")
    again = CliRunner().invoke(cli, [*args, "--out", str(out)])
    assert again.exit_code == 0, again.output  # the same file: the stored games are the run's
    layout.write_text(text.replace("Ch1N", "Ci1N").replace("Mh3N", "Mh3N"), encoding="utf-8")
    refused = CliRunner().invoke(cli, [*args, "--out", str(out)])
    assert refused.exit_code == 2 and "Traceback" not in refused.output
    (line,) = refused.output.strip().splitlines()
    assert "setup" in line and "layout.txt" in line and "changed since" in line and "--fresh" in line
    fresh = CliRunner().invoke(cli, [*args, "--out", str(out), "--fresh"])
    assert fresh.exit_code == 0, fresh.output
    plan = json.loads((out / "plan.json").read_text())
    assert "Ci1N" in plan["slices"][0]["options"]["setup"]


def test_varied_layout_files_are_read_as_documents_and_digested(tmp_path: Path) -> None:
    basic = load_game("tank-chess").new_initial_state().position()
    (tmp_path / "basic.txt").write_text(basic, encoding="utf-8")
    (tmp_path / "swapped.txt").write_text(basic.replace("Ch1N", "Ci1N"), encoding="utf-8")
    out = tmp_path / "run"
    files = [str(tmp_path / name) for name in ("basic.txt", "swapped.txt")]
    args = ["balance", "tank-chess", "random", "random", "-n", "2", "-j", "1", "--out", str(out)]
    result = CliRunner().invoke(cli, [*args, "--vary", f"setup={','.join(files)}"])
    assert result.exit_code == 0, result.output
    plan = json.loads((out / "plan.json").read_text())
    # Each variant is named by its file and plays the file's text, as -o setup=FILE would.
    assert [s["variant"] for s in plan["slices"]] == [f"setup={f}" for f in files]
    assert [s["varied"]["setup"] for s in plan["slices"]] == files
    assert "Ci1N" in plan["slices"][1]["options"]["setup"] and "Ci1N" not in plan["slices"][0]["options"].get(
        "setup", basic
    )
    about = json.loads((out / "provenance.json").read_text())
    swapped = next(c for c in about["content"] if c["variant"] == f"setup={files[1]}")
    text = (tmp_path / "swapped.txt").read_text(encoding="utf-8")
    assert swapped["sha256"] == hashlib.sha256(text.encode()).hexdigest() and swapped["file"] == files[1]
    # The file changed: the run is refused, naming it.
    (tmp_path / "swapped.txt").write_text(basic.replace("Mh3N", "Mi3N"), encoding="utf-8")
    refused = CliRunner().invoke(cli, [*args, "--vary", f"setup={','.join(files)}"])
    assert refused.exit_code == 2 and "swapped.txt" in refused.output and "changed since" in refused.output


def test_a_grown_run_plays_only_the_new_games_and_ends_as_one_played_at_once(tmp_path: Path) -> None:
    with coin_registered():
        small = make_plan("coin", [["random", "random"]], 40, seed=9, options={})
        data = run(small, tmp_path / "grown", jobs=1)
        before = {p.name: p.stat().st_mtime_ns for p in data.glob("*.parquet")}
        big = make_plan("coin", [["random", "random"]], 100, seed=9, options={})
        run(big, tmp_path / "grown", jobs=1)
        whole = run(big, tmp_path / "whole", jobs=1)
    after = {p.name: p.stat().st_mtime_ns for p in data.glob("*.parquet")}
    assert all(after[name] == stamp for name, stamp in before.items())  # the old games kept as they were
    assert sum(b - a for a, b in stored(data)[0]) == 100
    assert rows_of(data) == rows_of(whole)
    # A smaller -n reads the first games of a bigger run.
    connection = open_data(data, 40)
    assert connection.execute("SELECT count(DISTINCT game), max(game) FROM games").fetchall() == [(40, 39)]
    connection.close()


def test_until_plays_until_the_first_seats_interval_is_narrow_enough(tmp_path: Path) -> None:
    with coin_registered():
        plan = make_plan("coin", [["random", "random"]], 3000, seed=2, options={})
        done = run_until(plan, tmp_path / "until", 1, 0.04)
        ((_, _, _, low, high),) = seat_intervals(tmp_path / "until" / "data", done.n)
        capped = run_until(
            make_plan("coin", [["random", "random"]], 250, seed=2, options={}), tmp_path / "cap", 1, 0.001
        )
    assert (high - low) / 2 <= 0.04 and 200 < done.n < 1200  # about 600 games give +-0.04 at 50%
    assert capped.n == 250  # never past -n


def test_games_needed_gives_80_percent_power_by_the_normal_approximation() -> None:
    def power(n: int, p1: float, p2: float) -> float:
        mean = (p1 + p2) / 2
        z = stats.norm.ppf(0.975)
        spread = math.sqrt(p1 * (1 - p1) + p2 * (1 - p2))
        return float(
            stats.norm.cdf((abs(p2 - p1) * math.sqrt(n) - z * math.sqrt(2 * mean * (1 - mean))) / spread)
        )

    for rate in (0.5, 0.3, 0.62, 0.98):
        for d in (0.01, 0.03, 0.05):
            n = games_needed(rate, d)
            p2 = rate + d if rate + d <= 1 else rate - d
            assert power(n, rate, p2) >= 0.8 > power(n - 1, rate, p2)
    assert games_needed(0.5, 0.03) > 4 * games_needed(0.5, 0.06) * 0.95  # a quarter of the games for twice d


def test_an_ab_run_is_paired_by_seed_with_narrower_intervals_and_the_changed_component_first(
    tmp_path: Path,
) -> None:
    with coin_registered():
        plan = make_plan(
            "coin",
            [["random", "random"]],
            300,
            seed=4,
            options={},
            compare=[("A", {"heads": 50}), ("B", {"heads": 65})],
        )
        assert plan.openings == 0 and [s.variant for s in plan.slices] == ["A", "B"]
        assert plan.slices[0].varied == {"heads": "50"}
        data = run(plan, tmp_path / "ab", jobs=1)
        connection = open_data(data)
        report = build(plan, connection, measures_of("coin"), tmp_path / "ab", distinct=False)
        figures = ab_figures(plan, connection, report)
        scores = {
            v: [
                s
                for (s,) in connection.execute(
                    "SELECT CASE WHEN won THEN 1.0 WHEN draw THEN 0.5 ELSE 0.0 END::DOUBLE FROM games "
                    "WHERE seat = 0 AND variant = ? ORDER BY game",
                    [v],
                ).fetchall()
            ]
            for v in ("A", "B")
        }
        connection.close()
    rows = {r[0]: r for r in figures[0].rows}
    a, b = scores["A"], scores["B"]
    row = rows["seat 0 score"]
    ci = stats.ttest_rel(b, a).confidence_interval(0.95)
    welch = stats.ttest_ind(b, a, equal_var=False).confidence_interval(0.95)
    assert row[5] == pytest.approx(sum(b) / 300 - sum(a) / 300)
    assert row[6:10] == pytest.approx([ci.low, ci.high, welch.low, welch.high])
    # The same seeds throw the same coin in game i of A and of B: paired, far narrower.
    assert row[7] - row[6] < 0.6 * (row[9] - row[8])
    only_a = sum(1 for x, y in zip(a, b, strict=True) if x > y)
    only_b = sum(1 for x, y in zip(a, b, strict=True) if y > x)
    assert row[10:12] == [only_a, only_b]
    assert row[12] == pytest.approx(stats.binomtest(only_b, only_a + only_b, 0.5).pvalue)
    assert paired([0.0, 1.0], [1.0, 1.0])["b_only"] == 1
    # "heads" is what changed: its component rows come first.
    components = figures[1].rows
    assert components and components[0][2] == "heads" and components[0][3] is True


def test_the_command_line_compares_two_option_files_and_chooses_openings(tmp_path: Path) -> None:
    (tmp_path / "a.toml").write_text("heads = 50\n", encoding="utf-8")
    (tmp_path / "b.toml").write_text("heads = 70\n", encoding="utf-8")
    out = tmp_path / "cmp"
    with coin_registered():
        result = CliRunner().invoke(
            cli,
            [
                "balance",
                "coin",
                "random",
                "random",
                "-n",
                "40",
                "-j",
                "1",
                "--out",
                str(out),
                "--compare",
                str(tmp_path / "a.toml"),
                str(tmp_path / "b.toml"),
            ],
        )
        bad = CliRunner().invoke(
            cli, ["balance", "coin", "random", "random", "-n", "4", "--compare-options", "heads", "heads=2"]
        )
    # Agents other than random replay alike games without an opening: auto gives them one.
    rule = make_plan("robo-pigs", [["rule", "random"]], 2, seed=0, options={}, openings=None)
    assert result.exit_code == 0, result.output
    assert "A/B random,random: seat 0 score" in result.stdout and "paired by seed" in result.stdout
    page = (out / "report.html").read_text()
    assert page.index("A/B comparison") < page.index("<h2", page.index("A/B comparison") + 1)
    report = json.loads((out / "figures.json").read_text())
    assert report["ab"][0]["rows"][0][0] == "seat 0 score" and report["sample_sizes"][0]["rows"]
    assert bad.exit_code == 2 and "KEY=VALUE" in bad.output
    assert rule.openings == AUTO_OPENINGS


def test_openings_vary_the_games_of_agents_that_choose_alike(tmp_path: Path) -> None:
    def distinct(openings: int) -> int:
        plan: Plan = make_plan("tank-chess", [["rule", "rule"]], 16, seed=1, options={}, openings=openings)
        connection = open_data(run(plan, tmp_path / f"o{openings}", jobs=1))
        try:
            return int(connection.execute("SELECT count(DISTINCT signature) FROM games").fetchall()[0][0])
        finally:
            connection.close()

    # Tank Chess's rule agents replay some games from the same start; from random openings, none.
    assert distinct(0) < distinct(AUTO_OPENINGS) == 16
