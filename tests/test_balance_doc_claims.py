"""docs/balance.md's numbers against the figures they come from.

Each number the doc states about a run is followed by a machine-readable claim, an HTML
comment that a reader of the rendered page does not see:

    <!-- claim: fight | seats | 1 | win rate | 54.3% -->

naming the run's folder under docs/balance/ (whose ``figures.json`` is committed with
the doc), a figure (the end of its key: ``seats``, ``warriors-boost``; or a top-level
list of the report: ``ab``, ``sample_sizes``), a row (the start of its first cell; ``A @ B``:
of its first two), a column (``difference low``: the first ``low`` after ``difference``), and the value as the
sentence writes it (``54.3%`` and ``+11.6 points`` are
shares, ``1.1e-05`` a p-value, ``2,400`` a count). The value must equal the figure's to
the digits written, and must be written in the sentence or bullet the claim follows.
A row ``rows where COLUMN < X`` with the column ``count`` counts the figure's rows.
"""

from __future__ import annotations

import json
import re
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

DOCS = Path(__file__).resolve().parent.parent / "docs"
CLAIM = re.compile(r"<!-- claim: (.*?) -->")


def claims() -> list[tuple[str, list[str]]]:
    """Every claim of docs/balance.md, with the text of the paragraph or bullet it closes."""
    text = (DOCS / "balance.md").read_text(encoding="utf-8")
    found = []
    for match in CLAIM.finditer(text):
        before = text[: match.start()]
        # The paragraph or list item the claim closes: back to a blank line or a bullet's start.
        start = max(before.rfind("\n\n"), before.rfind("\n- "), before.rfind("\n|"))
        found.append((CLAIM.sub("", before[start:]), [part.strip() for part in match.group(1).split("|")]))
    return found


def figure(report: dict[str, Any], key: str) -> dict[str, Any]:
    """The figure whose key ends with ``key`` (``2:seats``: of the third slice), or a report's list."""
    if key in report and isinstance(report[key], list) and all(isinstance(f, dict) for f in report[key]):
        (only,) = report[key][:1]
        return dict(only)
    slice_index, _, name = key.rpartition(":")
    parts = report["slices"][int(slice_index)] if slice_index else None
    pools = [parts["figures"]] if parts else [s["figures"] for s in report["slices"]]
    pools.append(report.get("across") or [])
    if report.get("comparison"):
        pools.append([report["comparison"]])
    for pool in pools:
        for candidate in pool:
            if candidate["key"] == name or candidate["key"].endswith(f"-{name}"):
                return dict(candidate)
    raise AssertionError(f"no figure {key!r}")


def value_of(written: str) -> tuple[float, float]:
    """A value as the doc writes it, as the figure holds it, and how far the writing rounds it."""
    text = written.replace("\u2212", "-").replace(",", "").strip()
    scale = Decimal(1)
    for unit in ("%", " points"):
        if text.endswith(unit):
            text, scale = text[: -len(unit)], Decimal("0.01")
    number = Decimal(text)
    exponent = number.as_tuple().exponent
    assert isinstance(exponent, int)
    half_unit = Decimal(5) * Decimal(10) ** (exponent - 1) * scale
    # figures.json keeps four decimals (four significant digits when small): allow its rounding too.
    return float(number * scale), float(half_unit) + 5e-5 * (1 if abs(number * scale) >= 0.01 else 0.01)


def actual(report: dict[str, Any], key: str, row: str, column: str) -> float:
    found = figure(report, key)
    columns = found["columns"]
    where = re.fullmatch(r"rows where (.+) < (\S+)", row)
    if where:
        assert column == "count"
        index = columns.index(where.group(1))
        return float(
            sum(1 for r in found["rows"] if r[index] is not None and r[index] < float(where.group(2)))
        )
    # "FIRST @ SECOND": the row whose first two cells start so (a side-by-side row of one slice).
    first, _, second = row.partition(" @ ")
    rows = [r for r in found["rows"] if str(r[0]).startswith(first) and str(r[1]).startswith(second)]
    assert rows, f"{key}: no row {row!r} (rows: {[r[0] for r in found['rows']][:12]})"
    value = rows[0][column_index(columns, column)]
    assert value is not None, f"{key} {row} {column}: no value"
    return float(value)


def column_index(columns: list[str], column: str) -> int:
    """A column by its name; ``difference low`` is the first ``low`` after ``difference``."""
    if column in columns:
        return columns.index(column)
    after, _, name = column.rpartition(" ")
    assert after in columns, f"no column {column!r} in {columns}"
    return columns.index(name, columns.index(after))


ALL = claims()


def test_the_doc_marks_its_numbers_and_each_run_it_names_is_committed() -> None:
    assert len(ALL) >= 40
    for _, (folder, *_rest) in ALL:
        assert (DOCS / "balance" / folder / "figures.json").is_file(), folder


@pytest.mark.parametrize(("sentence", "claim"), ALL, ids=[" ".join(c[:4])[:60] for _, c in ALL])
def test_each_number_in_the_doc_is_its_figures(sentence: str, claim: list[str]) -> None:
    folder, key, row, column, written = claim
    report = json.loads((DOCS / "balance" / folder / "figures.json").read_text(encoding="utf-8"))
    expected, tolerance = value_of(written)
    assert actual(report, key, row, column) == pytest.approx(expected, abs=tolerance), claim
    # The number is the sentence's own (its digits, whatever sign the sentence's words give it).
    digits = written.replace("\u2212", "").lstrip("+-").removesuffix(" points").removesuffix("%")
    plain = sentence.replace("\u2212", "-")
    assert digits in plain, f"{written!r} is not written in: {sentence.strip()[:200]!r}"


def test_a_wrong_claim_fails() -> None:
    # The checks can fail: a changed digit, a value of another row, a number the text lacks.
    report = json.loads((DOCS / "balance" / "fight" / "figures.json").read_text(encoding="utf-8"))
    expected, tolerance = value_of("54.4%")
    assert actual(report, "seats", "1", "win rate") != pytest.approx(expected, abs=tolerance)
    assert value_of("1.1e-05") == pytest.approx((1.1e-05, 5e-07 + 5e-07))
    assert value_of("\u22124.2 points")[0] == pytest.approx(-0.042)
    with pytest.raises(AssertionError, match="no row"):
        actual(report, "seats", "7", "win rate")
