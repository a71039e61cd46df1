"""``tussle balance``'s statistics, each recomputed with SciPy or NumPy from the stored games or the JSON.

Distinct games (a repeated game counts once), the seats' paired difference, the "no
advantage" line with draws, component differences that count each game once, Holm and
Benjamini-Hochberg adjustments, side-by-side differences paired by game number, and
p-values that are never printed as 0.000.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import duckdb
import numpy as np
import pytest
from scipy import stats

from balance_rows import GAME_FIELDS
from test_balance import coin_registered, figure, measure
from tussle.balance.measures import Data, Figure
from tussle.balance.play import create_tables, make_plan, measures_of, open_data, run
from tussle.balance.report import _cell, build
from tussle.balance.stats import benjamini_hochberg, clustered_difference, format_p, holm


def coin_run(
    out: Path, n: int, *, distinct: bool, vary: list[tuple[str, list[str]]] | None = None, **options: Any
) -> tuple[dict[str, Any], Path]:
    plan = make_plan("coin", [["random", "random"]], n, seed=11, options=options, vary=vary or [])
    data = run(plan, out, jobs=1)
    connection = open_data(data)
    try:
        return build(plan, connection, measures_of("coin"), out, distinct=distinct), data
    finally:
        connection.close()


def test_seat_figures_recomputed_with_scipy_and_repeated_games_counted_once(tmp_path: Path) -> None:
    with coin_registered():
        every, _ = coin_run(tmp_path / "all", 300, distinct=False, heads=60, edge=25)
        once, _ = coin_run(tmp_path / "once", 300, distinct=True, heads=60, edge=25)
    games = (
        duckdb.connect()
        .execute(
            f"""SELECT game, sum(CASE WHEN won THEN (CASE WHEN seat = 0 THEN 1 ELSE -1 END)
                               ELSE 0 END),
                   bool_or(draw), count(DISTINCT signature)
            FROM '{tmp_path / "all" / "games.parquet"}' GROUP BY game ORDER BY game"""
        )
        .fetchall()
    )
    differences = [float(d) for _, d, _, _ in games]  # a draw scores 1/2 each: a difference of 0
    draws = sum(1 for _, _, draw, _ in games if draw)
    assert all(k == 1 for *_, k in games)  # one signature per game, on every seat's row
    # The paired difference of the seats' scores: a one-sample t interval of the per-game differences.
    row = measure(every, "seat 0 minus seat 1 score")
    interval = stats.ttest_1samp(differences, 0.0).confidence_interval(0.95)
    assert row[1:] == pytest.approx([np.mean(differences), interval.low, interval.high], abs=1e-4)
    # No seat advantage: the exact sign test of the decided games.
    wins0 = sum(1 for d in differences if d > 0)
    wins1 = sum(1 for d in differences if d < 0)
    assert measure(every, "no seat advantage")[1] == pytest.approx(
        stats.binomtest(wins0, wins0 + wins1).pvalue, rel=1e-3
    )
    assert "sign test" in measure(every, "no seat advantage")[0]
    # With a quarter of the games drawn, "no advantage" is (1 - draws) / 2 a seat, not 1/2.
    assert measure(every, "no advantage")[1] == pytest.approx((1 - draws / 300) / 2, abs=1e-4)
    assert measure(every, "no advantage")[1] < 0.45
    # The coin's games are three (heads, tails, the edge): counted once, the statistics are over three.
    assert every["slices"][0]["games"]["played"] == 300
    assert every["slices"][0]["games"]["distinct"] == 3
    assert every["slices"][0]["games"]["counted"] == 300 and not every["slices"][0]["games"]["distinct_only"]
    counting = once["slices"][0]["games"]
    assert counting["counted"] == 3 and counting["distinct_only"]
    assert "300 games, 3 distinct" in counting["warning"]
    assert measure(once, "games")[1] == 3 and figure(once, "seats")["rows"][0][1] == 3
    assert "over 3 distinct games" in figure(once, "seats")["note"].lower()
    assert "Warning: 300 games, 3 distinct" in figure(once, "seats")["note"]
    page = (tmp_path / "once" / "report.html").read_text()
    assert "Warning: 300 games, 3 distinct" in page and "Methods" in page
    assert any("Holm" in m for m in once["methods"])


def games_table(rows: list[tuple[int, int, bool]], events: list[tuple[int, int, str, str]]) -> Data:
    """Two-seat games of variant ``v``, pairing ``p``: (game, winner or -1, signature given or not)."""
    db = duckdb.connect()
    create_tables(db)
    for game, winner, _ in rows:
        for seat in (0, 1):
            db.execute(
                f"INSERT INTO games ({GAME_FIELDS}) "
                "VALUES ('v', 'p', ?, ?, 'rule', 1, 0, ?, ?, 9, false, 0, 1)",
                [game, seat, seat == winner, winner < 0],
            )
    db.executemany("INSERT INTO events VALUES ('v', 'p', ?, ?, ?, ?, 1.0)", [list(e) for e in events])
    return Data(db, "v", "p", distinct=False)


def test_component_differences_count_each_game_once_and_are_adjusted_for_many_comparisons() -> None:
    rng = np.random.default_rng(5)
    rows: list[tuple[int, int, bool]] = []
    events: list[tuple[int, int, str, str]] = []
    for game in range(60):
        first = int(rng.integers(2))
        # The first mover wins 65% of its games: one seat with the component, one without, in every game.
        winner = first if rng.random() < 0.65 else 1 - first
        rows.append((game, winner, False))
        events.append((game, first, "first", "moved first"))
        # Cards: either seat may hold any of five, both seats the same one sometimes.
        for seat in (0, 1):
            for card in ("A", "B", "C", "D", "E"):
                bias = 0.3 if card == "A" and seat == winner else 0.0
                if rng.random() < 0.35 + bias:
                    events.append((game, seat, "card", card))
    data = games_table(rows, events)
    won = {(g, s): s == w for g, w, _ in rows for s in (0, 1)}

    # The paired case: SciPy's paired t test of the per-game scores of the seat with and without.
    (mover,) = data.component_wins("first", "first", "First mover").rows
    holder = {g: s for g, s, kind, _ in events if kind == "first"}
    with_it = [float(won[g, holder[g]]) for g, _, _ in rows]
    without = [float(won[g, 1 - holder[g]]) for g, _, _ in rows]
    test = stats.ttest_rel(with_it, without)
    interval = test.confidence_interval(0.95)
    assert mover[6:10] == pytest.approx(
        [np.mean(with_it) - np.mean(without), interval.low, interval.high, test.pvalue]
    )
    # Two independent Wilson/Newcombe intervals would be narrower: the seats' results are tied.
    from tussle.balance.stats import difference

    independent = difference(int(sum(with_it)), 60, int(sum(without)), 60)
    assert interval.high - interval.low > 1.1 * (independent[2] - independent[1])

    # The general case (a card on both seats, one or neither): the delta method's variance in
    # matrix form, from NumPy's covariance of the per-game totals.
    cards = data.component_wins("card", "cards", "Cards")
    for row in cards.rows:
        had = {(g, s) for g, s, kind, c in events if kind == "card" and c == row[0]}
        per_game = np.array(
            [
                [
                    sum(won[g, s] for s in (0, 1) if (g, s) in had),
                    sum(1 for s in (0, 1) if (g, s) in had),
                    sum(won[g, s] for s in (0, 1) if (g, s) not in had),
                    sum(1 for s in (0, 1) if (g, s) not in had),
                ]
                for g, _, _ in rows
            ],
            dtype=float,
        )
        a, m, b, k = per_game.mean(axis=0)
        gradient = np.array([1 / m, -a / m**2, -1 / k, b / k**2])
        se = math.sqrt(gradient @ np.cov(per_game.T) @ gradient / len(rows))
        d = a / m - b / k
        t = stats.t.ppf(0.975, len(rows) - 1)
        assert row[6:10] == pytest.approx(
            [d, d - t * se, d + t * se, 2 * stats.t.sf(abs(d) / se, len(rows) - 1)], abs=1e-4
        )
    # Holm and Benjamini-Hochberg across the five cards: recomputed, Holm as its definition says
    # (the largest (m - rank + 1) p of every p-value up to this one) and BH by SciPy.
    raw = [r[9] for r in cards.rows]
    m = len(raw)
    order = sorted(range(m), key=lambda i: raw[i])
    for i in range(m):
        upto = [j for j in order[: order.index(i) + 1]]
        expected = max(min(1.0, (m - order.index(j)) * raw[j]) for j in upto)
        assert cards.rows[i][10] == pytest.approx(expected, abs=1e-4)
    assert [r[11] for r in cards.rows] == pytest.approx(list(stats.false_discovery_control(raw)), abs=1e-4)
    assert [r[12] for r in cards.rows] == [r[10] < 0.05 for r in cards.rows]
    assert cards.rows[0][0] == "A" and cards.rows[0][12]  # the card the winners hold more survives
    assert "Significant after Holm (p < 0.05): A." in cards.note
    assert cards.columns[9:13] == ["p", "p Holm", "p BH", "significant (Holm)"]

    # Winners against losers are the same games too: a paired t test of the winner's count minus the loser's.
    outcome = {r[0]: r for r in data.by_outcome("card", "cards-outcome", "Cards held").rows}
    for card in "ABCDE":
        held = {(g, s) for g, s, kind, c in events if kind == "card" and c == card}
        winners = [float((g, w) in held) for g, w, _ in rows]
        losers = [float((g, 1 - w) in held) for g, w, _ in rows]
        test = stats.ttest_rel(winners, losers)
        interval = test.confidence_interval(0.95)
        assert outcome[card][7:11] == pytest.approx(
            [np.mean(winners) - np.mean(losers), interval.low, interval.high, test.pvalue], abs=1e-4
        )
    assert outcome["A"][11] < 0.05 and outcome["A"][11] == pytest.approx(
        holm([r[10] for r in outcome.values()])[0]
    )


def test_holm_and_benjamini_hochberg_match_a_hand_table() -> None:
    p = [0.001, 0.008, 0.039, 0.041, 0.042, 0.060, 0.074, 0.205]
    assert holm(p) == pytest.approx([0.008, 0.056, 0.234, 0.234, 0.234, 0.234, 0.234, 0.234])
    assert benjamini_hochberg(p) == pytest.approx(
        [0.008, 0.032, 0.0672, 0.0672, 0.0672, 0.08, 0.0846, 0.205], abs=1e-4
    )
    with_nan = holm([0.02, math.nan, 0.01])
    assert (
        with_nan[0] == pytest.approx(0.02) and math.isnan(with_nan[1]) and with_nan[2] == pytest.approx(0.02)
    )
    assert all(math.isnan(v) for v in clustered_difference([1.0], [1.0], [0.0], [1.0]))


def test_side_by_side_differences_are_paired_by_game_number(tmp_path: Path) -> None:
    with coin_registered():
        report, _ = coin_run(tmp_path / "vary", 200, distinct=False, vary=[("heads", ["50", "70"])])
    won = (
        duckdb.connect()
        .execute(
            f"""SELECT variant, game, bool_or(seat = 0 AND won)::INT
                FROM '{tmp_path / "vary" / "games.parquet"}' GROUP BY ALL ORDER BY variant, game"""
        )
        .fetchall()
    )
    base = [float(w) for v, _, w in won if v == "heads=50"]
    other = [float(w) for v, _, w in won if v == "heads=70"]
    test = stats.ttest_rel(other, base)
    interval = test.confidence_interval(0.95)
    first, second = [r for r in report["comparison"]["rows"] if r[0] == "seat 0 win rate"]
    assert first[5:9] == [None, None, None, None] and first[10] is None  # 0 by construction: no interval
    assert second[5:10] == pytest.approx(
        [np.mean(other) - np.mean(base), interval.low, interval.high, test.pvalue, 200], abs=1e-4
    )
    assert "paired by game number" in report["comparison"]["note"]


def test_a_deterministic_agent_repeating_one_game_is_one_game_not_a_certainty(tmp_path: Path) -> None:
    # A shallow alpha-beta search is deterministic: it plays Tank Chess's one same short game
    # (Black's win) every time. Counted once, one game proves nothing; counted 8 times it
    # would claim "Black 100%, p = 0.008".
    agent = "alphabeta:iterations=50"
    plan = make_plan("tank-chess", [[agent, agent]], 8, seed=0, options={})
    connection = open_data(run(plan, tmp_path / "tanks", jobs=1))
    try:
        report = build(plan, connection, measures_of("tank-chess"), tmp_path / "tanks")
        every = build(plan, connection, measures_of("tank-chess"), tmp_path / "every", distinct=False)
    finally:
        connection.close()
    counting = report["slices"][0]["games"]
    assert (counting["played"], counting["distinct"], counting["counted"]) == (8, 1, 1)
    assert counting["warning"].startswith("8 games, 1 distinct")
    seats = figure(report, "seats")["rows"]
    assert [r[1] for r in seats] == [1, 1]
    assert measure(report, "no seat advantage")[1] == pytest.approx(1.0)  # one decided game
    assert math.isnan(measure(report, "seat 0 minus seat 1")[2] or math.nan)  # no interval from one game
    wins = [r[2] for r in figure(every, "seats")["rows"]]
    assert sorted(wins) == [0, 8]
    assert measure(every, "no seat advantage")[1] == pytest.approx(stats.binomtest(0, 8).pvalue, rel=1e-3)


def test_old_data_without_signatures_counts_every_game_and_says_so() -> None:
    db = duckdb.connect()
    db.execute(
        "CREATE TABLE games AS SELECT 'v' AS variant, 'p' AS pairing, g AS game, s AS seat, 'rule' AS agent, "
        "1 AS rank, 0.0 AS ret, s = 0 AS won, false AS draw, 5 AS length, false AS limited, "
        "0 AS lead_changes, 1.0 AS decisive_at FROM range(4) t(g), range(2) u(s)"
    )
    create_events = "CREATE TABLE events (variant VARCHAR, pairing VARCHAR, game BIGINT, seat INTEGER, "
    db.execute(create_events + "kind VARCHAR, component VARCHAR, value DOUBLE)")
    data = Data(db, "v", "p")
    assert not data.has_signatures()
    counting = data.counting()
    assert (counting["played"], counting["distinct"], counting["counted"]) == (4, 4, 4)
    assert "no game signatures" in counting["method"] and not counting["warning"]
    assert data.games() == 4


def test_p_values_are_never_printed_as_zero_and_keep_their_digits_in_the_json() -> None:
    assert _cell(1.9e-06) == "1.9e-06" and _cell(0.0004) == "0.0004" and _cell(0.25) == "0.250"
    assert _cell(True) == "yes" and _cell(False) == ""  # significant (Holm) or not
    assert format_p(3.2e-12) == "3.2e-12" and format_p(0.0) == "< 1e-300"
    row = Figure("k", "t", ["p"], [[1.9e-06], [0.123456], [0.0]]).to_json()["rows"]
    assert row == [[1.9e-06], [0.1235], [0.0]]


def test_a_component_against_itself_gets_no_interval() -> None:
    # Both seats hold "x" in games 0-3 (its win rate there is 1/2 by construction); "x" against "y" in 4-9.
    rows = [(g, g % 2, False) for g in range(10)]
    events = [(g, s, "power", "x" if g < 4 or s == 0 else "y") for g in range(10) for s in (0, 1)]
    cells = {(r[0], r[1]): r for r in games_table(rows, events).matrix("power", "m", "Powers").rows}
    assert (
        cells["x", "x"][2:4] == [8, 0.5] and math.isnan(cells["x", "x"][4]) and math.isnan(cells["x", "x"][5])
    )
    interval = stats.binomtest(3, 6).proportion_ci(method="wilson")
    assert cells["x", "y"][3:6] == pytest.approx([0.5, interval.low, interval.high])


def test_copies_of_one_game_give_no_interval_of_width_zero() -> None:
    from tussle.balance.stats import paired

    d, low, high, p = paired([-1.0] * 20)
    assert d == -1.0 and math.isnan(low) and math.isnan(high) and math.isnan(p)
    assert paired([0.0] * 5)[3] == 1.0


def test_a_component_that_always_wins_gets_newcombes_interval_and_the_exact_sign_test() -> None:
    # Seat 0 holds "x" and wins every one of 12 games: every game's difference is 1, no spread.
    data = games_table([(g, 0, False) for g in range(12)], [(g, 0, "first", "x") for g in range(12)])
    (row,) = data.component_wins("first", "first", "First").rows
    from tussle.balance.stats import difference

    assert row[6:9] == pytest.approx(list(difference(12, 12, 0, 12)))
    assert row[7] > 0.5 and row[9] == pytest.approx(stats.binomtest(12, 12).pvalue)


def test_the_command_counts_distinct_games_unless_told_to_count_repeats(tmp_path: Path) -> None:
    import json

    from click.testing import CliRunner

    from tussle.cli import cli

    agent = "alphabeta:iterations=50"
    args = ["balance", "tank-chess", agent, agent, "-n", "6", "-j", "1", "--openings", "0", "--json"]
    once = CliRunner().invoke(cli, [*args, "--out", str(tmp_path / "t")])
    again = CliRunner().invoke(cli, [*args, "--out", str(tmp_path / "t"), "--count-repeats"])
    assert once.exit_code == 0 and again.exit_code == 0, once.output + again.output
    first, every = (
        json.loads(r.stdout.strip().splitlines()[-1])["slices"][0]["games"] for r in (once, again)
    )
    assert (first["played"], first["distinct"], first["counted"]) == (6, 1, 1)
    assert (every["played"], every["distinct"], every["counted"]) == (6, 1, 6)
