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
