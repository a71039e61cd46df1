"""The report a designer reads at a glance: its summary, its contents, seat names, sample sizes, folding."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from scipy import stats

from test_balance import balance, coin_registered
from tussle.balance import report as report_module
from tussle.balance.report import seat_label, seat_names
from tussle.balance.stats import format_p
from tussle.cli import cli


def run(out: Path, *args: str) -> dict[str, Any]:
    result = CliRunner().invoke(cli, ["balance", "fite", *args, "-j", "1", "--out", str(out)])
    assert result.exit_code == 0, result.output
    report: dict[str, Any] = json.loads((out / "figures.json").read_text(encoding="utf-8"))
    return report


def test_the_summary_says_the_seat_advantage_and_the_strongest_component_in_words(tmp_path: Path) -> None:
    with coin_registered():
        report = balance(tmp_path / "coin", 200, heads=70)
    seats = next(f for f in report["slices"][0]["figures"] if f["key"].endswith("seats"))
    (first, second) = seats["rows"]
    # The coin names its seats by number only: "seat 0", as the tables call it.
    assert report["seat_names"] == ["seat 0", "seat 1"] and first[8] == "seat 0"
    p = stats.binomtest(first[2], first[2] + second[2], 0.5).pvalue
    points = 100 * (first[5] - second[5])
    line = report["summary"][0]
    assert line.startswith(f"seat 0 wins {points:.1f} points more often than seat 1 ({first[5]:.1%} against")
    assert f"p = {format_p(p)} (exact sign test of the decided games)" in line
    # Heads wins every game for seat 0: significant after Holm, the strongest of its family.
    lucky = next(f for f in report["slices"][0]["figures"] if f["key"].endswith("lucky"))["rows"][0]
    assert any(
        s.startswith(f"Heads: heads is the strongest, {100 * lucky[6]:+.1f} points") and "Holm p = " in s
        for s in report["summary"]
    )
    # The coin's 200 games repeat (three outcomes): counted every time here, and the summary warns.
    assert any(s.startswith("Warning (default, random,random): 200 games, ") for s in report["summary"])
    page = (tmp_path / "coin" / "report.html").read_text(encoding="utf-8")
    assert page.index("At a glance") < page.index('<nav id="contents">') < page.index("Seat advantage")


def test_a_fite_report_names_its_fighters_has_contents_sizes_and_folds_many_slices(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert seat_names("fite", 2) == ["fighter A", "fighter B"]
    assert seat_label(1, ["White", "Black"]) == "Black (seat 1)"
    out = tmp_path / "fite"
    report = run(out, "random", "random", "--also", "rule,random", "-n", "6")
    lines = report["summary"]
    # Two slices: each line names its slice; fighters by their names; who won the mixed pairing.
    assert lines[0].startswith("default, random,random: ") and "fighter A" in lines[0]
    mixed = next(
        s for s in lines if s.startswith("default, rule,random: ") and " than " in s and "games" in s
    )
    assert re.search(r"(rule|random) won (more|as often) than (random|rule): \d of \d games", mixed), mixed
    assert lines[-1].startswith("Side by side")
    page = (out / "report.html").read_text(encoding="utf-8")
    contents = page[page.index('<nav id="contents">') : page.index("</nav>")]
    # The contents list every section, those added after the report was built too.
    for key in ("run", "sample_sizes", "about", "side-by-side", "00-default-random-random"):
        assert f'href="#{key}"' in contents and f'<h2 id="{key}"' in page, key
    assert "fighter A (seat 0)" in page and '<details class="slice"' not in page
    seats = next(f for f in report["slices"][0]["figures"] if f["key"].endswith("seats"))
    svg = (out / "plots" / f"{seats['key']}.svg").read_text(encoding="utf-8")
    assert "6 games; default, random,random" in svg and "fighter B (seat 1)" in svg  # title, labels
    # Four slices: each slice's section folds to its headline line.
    many = tmp_path / "many"
    report = run(
        many, "random", "random", "--also", "rule,random", "-n", "4", "--vary", "power_a=none,brutal"
    )
    page = (many / "report.html").read_text(encoding="utf-8")
    assert page.count('<details class="slice">') == 4 and "fighter A " in page
    assert sum(s.startswith("power_a=brutal, rule,random: ") for s in report["summary"]) >= 2
    # Beyond SUMMARISED_SLICES slices, one line gives the range instead of lines per slice.
    monkeypatch.setattr(report_module, "SUMMARISED_SLICES", 3)
    again = run(many, "random", "random", "--also", "rule,random", "-n", "4", "--vary", "power_a=none,brutal")
    assert again["summary"][0].startswith("4 slices (variants times pairings): fighter A wins from ")
    assert not any(s.startswith("power_a=") for s in again["summary"])


def test_an_ab_run_says_its_result_first_and_names_the_seats_the_games_way(tmp_path: Path) -> None:
    out = tmp_path / "ab"
    args = ["balance", "fite", "random", "random", "-n", "12", "-j", "1", "--out", str(out)]
    result = CliRunner().invoke(cli, [*args, "--compare-options", "power_a=none", "power_a=brutal"])
    assert result.exit_code == 0, result.output
    report = json.loads((out / "figures.json").read_text(encoding="utf-8"))
    # The command's last lines and the side-by-side table name the fighters, not "seat 0".
    assert "win rates fighter A (seat 0) " in result.stdout
    assert "fighter A minus fighter B score" in result.stdout
    assert "A/B random,random: fighter A (seat 0) score " in result.stdout
    assert "seat 0 score" not in result.stdout and "win rates seat" not in result.stdout
    measures = {r[0] for r in report["comparison"]["rows"]}
    assert "fighter A (seat 0) win rate" in measures and "seat 0 win rate" not in measures
    # The A/B result opens the summary: the paired difference, its interval and the exact McNemar p.
    row = next(r for r in report["ab"][0]["rows"] if r[0] == "seat 0 score")
    first = report["summary"][0]
    moved = "raises" if row[5] > 0 else "lowers" if row[5] < 0 else "leaves"
    assert first.startswith(f"B (power_a=brutal) {moved} fighter A's score"), first
    assert "against A (power_a=none)" in first or "under A (power_a=none)" in first
    found = re.search(r"paired by seed, 12 pairs, 95% \[([-+][\d.]+), ([-+][\d.]+)\] points", first)
    assert found, first  # figures.json rounds to 4 decimals: the points agree to its rounding
    assert [float(x) for x in found.groups()] == pytest.approx([row[6] * 100, row[7] * 100], abs=0.06)
    assert f"{row[11]} went B's way and {row[10]} A's: exact McNemar p = {format_p(row[12])}" in first
    # Brutal's figures are B's alone (no fighter of A brought a power): found, and said so; then
    # the components that moved most.
    rows = report["ab"][1]["rows"]
    assert any(r[2] == "brutal" and r[3] and r[4] is None and r[5] is not None for r in rows)
    second = report["summary"][1]
    assert re.search(r"under B only: [^.]*\bbrutal\b", second), second
    most = max((r for r in rows if r[6] is not None), key=lambda r: abs(r[6]))
    assert "components that moved most, A to B: " in second and f"{most[2]} ({most[0]})" in second
    page = (out / "report.html").read_text(encoding="utf-8")
    glance = page[page.index("At a glance") : page.index('<nav id="contents">')]
    assert glance.split("<li>")[1].startswith("B (power_a=brutal) ")


def test_fite_compares_super_powers_only_where_fighters_brought_different_ones(tmp_path: Path) -> None:
    # The default fighters bring no power: no 1x1 matrix, no lone "none" row, no use shares.
    report = run(tmp_path / "none", "random", "random", "-n", "4")
    keys = [f["key"] for f in report["slices"][0]["figures"]]
    assert not any("power" in key for key in keys), keys
    # The report made again leaves no plot it does not draw (an older tussle's, say).
    (tmp_path / "none" / "plots" / "00-default-random-random-power_matrix.png").write_bytes(b"stale")
    run(tmp_path / "none", "random", "random", "-n", "4")
    assert not any("power" in p.name for p in (tmp_path / "none" / "plots").iterdir())
    # Brutal against nothing: compared, and its use shown.
    report = run(tmp_path / "brutal", "random", "random", "-n", "4", "-o", "power_a=brutal")
    keys = [f["key"].rpartition("-")[2] for f in report["slices"][0]["figures"]]
    assert {"power_matrix", "power_wins", "power_used", "power_turn"} <= set(keys), keys
    # Both Brutal: nothing to compare, but its use is shown.
    report = run(
        tmp_path / "both", "random", "random", "-n", "4", "-o", "power_a=brutal", "-o", "power_b=brutal"
    )
    keys = [f["key"].rpartition("-")[2] for f in report["slices"][0]["figures"]]
    assert "power_used" in keys and "power_matrix" not in keys and "power_wins" not in keys, keys


def test_an_ab_run_too_small_for_an_interval_ends_with_its_line_not_a_traceback(tmp_path: Path) -> None:
    # Two pairs alike in every game leave the McNemar p-value empty: the last line says n/a.
    args = ["balance", "fite", "--compare-options", "power_a=none", "power_a=brutal", "-n", "2", "-j", "1"]
    result = CliRunner().invoke(cli, [*args, "--out", str(tmp_path / "ab")])
    assert result.exit_code == 0, result.output
    assert re.search(
        r"A/B rule,rule: fighter A \(seat 0\) score [\d.]+ -> [\d.]+, B - A .* p = ", result.output
    )


def test_the_option_matrix_and_sample_sizes_name_the_first_seat_the_games_way(tmp_path: Path) -> None:
    args = ["random", "random", "-n", "2", "--vary", "power_a=none,brutal", "--vary", "power_b=none,brutal"]
    report = run(tmp_path / "matrix", *args)
    (matrix,) = report["option_matrices"]
    assert (
        matrix["title"].startswith("fighter A (seat 0)'s score")
        and "fighter A (seat 0)'s score" in matrix["columns"]
    )
    (sizes,) = report["sample_sizes"]
    assert sizes["columns"][1] == "fighter A (seat 0) win rate"
