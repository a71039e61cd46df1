"""What a game declares to be measured (its ``balance`` hook), and the queries that turn it into figures.

A game's folder holds ``balance.py`` with a :class:`Measures` subclass: for one
played game (its record) it lists what happened to each component as
:class:`Row` s (a Warrior played as Main, a super power taken, a tank type's
kill), says whether the game was cut by a limit, and turns the stored rows of
many games into :class:`Figure` s with the helpers of :class:`Data`. The data
lives in two tables (``docs/balance.md`` has their columns):

- ``games``: one row per game and seat: who sat there, its rank and return,
  whether it won alone, the game's length, whether a limit cut it, lead changes
  and the point where the game was decided;
- ``events``: one row per :class:`Row` a game's measures gave.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import duckdb

from tussle.balance.stats import (
    benjamini_hochberg,
    clustered_difference,
    difference,
    holm,
    mean_interval,
    paired,
    sign_test,
    wilson,
)
from tussle.game import Game
from tussle.record import Record


@dataclass(frozen=True)
class Row:
    """Something that happened in one game to one component: ``seat`` -1 is the game as a whole.

    >>> Row(0, "main", "Pack Rat")
    Row(seat=0, kind='main', component='Pack Rat', value=1.0)
    """

    seat: int
    kind: str
    component: str
    value: float = 1.0


@dataclass
class Plot:
    """How a figure is drawn: ``bars`` (one value per label, with its interval), ``grouped`` (several
    series per label), ``heatmap`` (a matrix of values) or ``hist`` (a distribution)."""

    kind: str
    data: dict[str, Any]
    xlabel: str = ""


@dataclass
class Figure:
    """One table of the report, with its plot: ``key`` names its files (``<key>.png``, ``<key>.svg``)."""

    key: str
    title: str
    columns: list[str]
    rows: list[list[Any]]
    plot: Plot | None = None
    note: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "title": self.title,
            "note": self.note,
            "columns": self.columns,
            "rows": [[_clean(v) for v in row] for row in self.rows],
        }


def _clean(value: Any) -> Any:
    if isinstance(value, float):
        if math.isnan(value):
            return None
        if value != 0 and abs(value) < 0.01:
            return float(f"{value:.4g}")  # a small p-value keeps its digits: 1.9e-06, not 0.0
        return round(value, 4)
    return value


class Measures:
    """A game's balance measures; the defaults measure nothing game-specific."""

    def events(self, game: Game, record: Record) -> Iterable[Row]:
        """What happened to each component in the game of ``record``."""
        return ()

    def figures(self, data: Data) -> list[Figure]:
        """The game's own figures, from the stored rows of one variant and pairing."""
        return []


@dataclass
class Data:
    """The stored games of one variant (options) and one pairing (agents), queried with DuckDB.

    In its queries, ``g`` is that slice of the ``games`` table and ``e`` of ``events``.
    With ``distinct`` (the default) a game played again move for move (the same
    ``signature``) is counted once: ``g`` and ``e`` hold the first game of each
    signature only. Data stored before signatures were (no such column, or NULL) counts
    every game as distinct.
    """

    connection: duckdb.DuckDBPyConnection
    variant: str
    pairing: str
    prefix: str = ""
    players: int = 2
    distinct: bool = True

    def sql(self, query: str, *params: Any) -> list[tuple[Any, ...]]:
        """Rows of a query over ``g`` and ``e``."""
        self._make_views()
        return self.connection.execute(query, list(params)).fetchall()

    def _make_views(self) -> None:
        # Made again before every query: several slices share one connection.
        v, p = _quote(self.variant), _quote(self.pairing)
        where = f"variant = {v} AND pairing = {p}"
        self.connection.execute(f"CREATE OR REPLACE TEMP VIEW all_g AS SELECT * FROM games WHERE {where}")
        if self.distinct and self.has_signatures():
            where += f" AND game IN (SELECT min(game) FROM all_g GROUP BY {_SIGNATURE})"
        self.connection.execute(f"CREATE OR REPLACE TEMP VIEW g AS SELECT * FROM games WHERE {where}")
        self.connection.execute(f"CREATE OR REPLACE TEMP VIEW e AS SELECT * FROM events WHERE {where}")

    def has_signatures(self) -> bool:
        """Whether the stored games carry their signatures (data of an older tussle does not)."""
        columns = self.connection.execute("SELECT * FROM games LIMIT 0").description or []
        return any(c[0] == "signature" for c in columns)

    def played(self) -> int:
        """How many games this slice played, repeated ones included."""
        return int(self.sql("SELECT count(DISTINCT game) FROM all_g")[0][0])

    def distinct_games(self) -> int:
        """How many different games this slice played (every game, without signatures)."""
        if not self.has_signatures():
            return self.played()
        return int(self.sql(f"SELECT count(DISTINCT {_SIGNATURE}) FROM all_g")[0][0])

    def counting(self) -> dict[str, Any]:
        """How this slice's games are counted: played, distinct, which ones count, and a warning."""
        played, distinct = self.played(), self.distinct_games()
        signed = self.has_signatures() and bool(
            self.sql("SELECT count(*) FROM all_g WHERE signature IS NOT NULL")[0][0]
        )
        counted = distinct if self.distinct else played
        if not signed:
            method = (
                "every game counted: the data has no game signatures (an older run), so repeats are unknown"
            )
        elif self.distinct:
            games = f"{distinct:,} distinct game{'s' if distinct != 1 else ''}"
            method = f"over {games}, each counted once (a repeated game is its first copy)"
        else:
            method = f"over all {played:,} games, a repeated game counted each time it was played"
        warning = ""
        if distinct < played:
            warning = (
                f"{played:,} games, {distinct:,} distinct: the agents played the same games again "
                "(deterministic agents, or few choices)"
            )
        return {
            "played": played,
            "distinct": distinct,
            "counted": counted,
            "distinct_only": self.distinct and signed,
            "method": method,
            "warning": warning,
        }

    # --- the helpers a game's figures are made of -------------------------------------

    def component_wins(self, kind: str, key: str, title: str, note: str = "") -> Figure:
        """Per component of ``kind``: the win rate of a seat that had it in a game, against one without.

        A draw is not a win. The difference's interval and p-value count each game once
        (:func:`~tussle.balance.stats.clustered_difference`: the seats of one game are
        paired, not independent), and the p-values are adjusted across the figure's
        components by Holm's method and by Benjamini-Hochberg's; a difference is called
        significant when its Holm-adjusted p-value is below 0.05.
        """
        rows = self.sql(
            """
            WITH had AS (SELECT DISTINCT game, seat, component FROM e WHERE kind = ?),
                 comps AS (SELECT DISTINCT component FROM had)
            SELECT c.component, g.game,
                   count(h.game), count(h.game) FILTER (WHERE g.won),
                   count(*) FILTER (WHERE h.game IS NULL), count(*) FILTER (WHERE h.game IS NULL AND g.won)
            FROM comps c CROSS JOIN g
            LEFT JOIN had h ON h.game = g.game AND h.seat = g.seat AND h.component = c.component
            GROUP BY c.component, g.game ORDER BY c.component, g.game
            """,
            kind,
        )
        per_game: dict[str, list[list[float]]] = {}
        for component, _game, *counts in rows:
            columns = per_game.setdefault(component, [[], [], [], []])
            for column, count in zip(columns, counts, strict=True):
                column.append(float(count))
        table: list[list[Any]] = []
        for component, (n_with, w_with, n_without, w_without) in per_game.items():
            seats_with, wins_with = int(sum(n_with)), int(sum(w_with))
            p_with, lo_with, hi_with = wilson(wins_with, seats_with)
            p_without = sum(w_without) / sum(n_without) if sum(n_without) else math.nan
            d, lo, hi, p = clustered_difference(w_with, n_with, w_without, n_without)
            if math.isnan(lo) and not math.isnan(d):
                # Every game gave the same difference (a t interval of width 0): Newcombe's interval
                # and the exact sign test of the games that had seats with it and without.
                _, lo, hi = difference(wins_with, seats_with, int(sum(w_without)), int(sum(n_without)))
                signs = [
                    a / n - b / k
                    for a, n, b, k in zip(w_with, n_with, w_without, n_without, strict=True)
                    if n and k
                ]
                p = sign_test(sum(1 for x in signs if x > 0), sum(1 for x in signs if x < 0))
            table.append([component, seats_with, p_with, lo_with, hi_with, p_without, d, lo, hi, p])
        for row, by_holm, by_bh in zip(
            table, holm([r[9] for r in table]), benjamini_hochberg([r[9] for r in table]), strict=True
        ):
            row.extend([by_holm, by_bh, bool(by_holm < 0.05)])
        table.sort(key=lambda r: -r[6] if not math.isnan(r[6]) else math.inf)
        significant = [str(r[0]) for r in table if r[12]]
        method = (
            f"A draw is not a win. Difference: 95% interval and p-value counting each game once "
            f"(cluster-robust by game, Student's t); p adjusted across the {len(table)} components by Holm "
            f"and by Benjamini-Hochberg. Significant after Holm (p < 0.05): "
            f"{', '.join(significant) if significant else 'none'}."
        )
        return Figure(
            f"{self.prefix}{key}",
            title,
            [
                "component",
                "seats with it",
                "win rate with",
                "low",
                "high",
                "win rate without",
                "difference",
                "low",
                "high",
                "p",
                "p Holm",
                "p BH",
                "significant (Holm)",
            ],
            table,
            bars(table, 6, "win rate with it minus without (95% interval)"),
            f"{note} {method}".strip(),
        )

    def outcome_shares(self, kind: str, key: str, title: str, note: str = "") -> Figure:
        """Per component of ``kind``: the share of games in which it happened, with its interval."""
        total = self.games()
        rows = self.sql(
            "SELECT component, count(DISTINCT game) FROM e WHERE kind = ? GROUP BY component ORDER BY 2 DESC",
            kind,
        )
        table = [[c, k, *wilson(k, total)] for c, k in rows]
        return Figure(
            f"{self.prefix}{key}",
            title,
            ["component", "games", "share", "low", "high"],
            table,
            bars(table, 2, f"share of the {total:,} games (95% interval)"),
            note,
        )

    def by_outcome(self, kind: str, key: str, title: str, note: str = "") -> Figure:
        """Per component of ``kind``: its total per game for the seats that won and for those that lost.

        Winners and losers of one game are compared within it: the difference's interval and
        p-value are those of the per-game differences (the winner's total minus the losers'
        mean: a paired t test), the p-values adjusted across the components by Holm.
        """
        # Every seat of every decided game, for every component: a seat without it counts 0.
        rows = self.sql(
            """
            WITH comps AS (SELECT DISTINCT component FROM e WHERE kind = ?),
                 totals AS (SELECT game, seat, component, sum(value) AS total FROM e WHERE kind = ?
                            GROUP BY game, seat, component)
            SELECT c.component, g.won, coalesce(t.total, 0), g.game FROM comps c CROSS JOIN g
            LEFT JOIN totals t ON t.game = g.game AND t.seat = g.seat AND t.component = c.component
            WHERE NOT g.draw ORDER BY c.component, g.game, g.seat
            """,
            kind,
            kind,
        )
        names = self.sql("SELECT DISTINCT component FROM e WHERE kind = ? ORDER BY 1", kind)
        values: dict[str, tuple[list[float], list[float]]] = {c: ([], []) for (c,) in names}
        games: dict[str, dict[int, tuple[list[float], list[float]]]] = {c: {} for (c,) in names}
        for component, won, total, game in rows:
            values[component][0 if won else 1].append(float(total))
            games[component].setdefault(game, ([], []))[0 if won else 1].append(float(total))
        comps = list(values)
        table: list[list[Any]] = []
        series: dict[str, list[list[float]]] = {"winners": [[], [], []], "losers": [[], [], []]}
        for component, (winners, losers) in values.items():
            won, lost = mean_interval(winners), mean_interval(losers)
            differences = [sum(w) / len(w) - sum(v) / len(v) for w, v in games[component].values() if w and v]
            _, low, high, p = paired(differences)
            table.append([component, *won, *lost, won[0] - lost[0], low, high, p])
            for name, m in (("winners", won), ("losers", lost)):
                for i in range(3):
                    series[name][i].append(m[i])
        return Figure(
            f"{self.prefix}{key}",
            title,
            [
                "component",
                "winners",
                "low",
                "high",
                "losers",
                "low",
                "high",
                "difference",
                "low",
                "high",
                "p",
                "p Holm",
            ],
            [[*row, by_holm] for row, by_holm in zip(table, holm([r[10] for r in table]), strict=True)],
            Plot("grouped", {"labels": comps, "series": series}, "mean per player and game (95% interval)"),
            f"{note} Difference: paired by game (the winner's total minus the losers' mean), Student's t; "
            "p adjusted across the components by Holm.".strip(),
        )

    def means(self, kind: str, key: str, title: str, note: str = "") -> Figure:
        """Per component of ``kind``: the mean of its values over the rows, with the interval."""
        values: dict[str, list[float]] = {}
        for component, value in self.sql(
            "SELECT component, value FROM e WHERE kind = ? ORDER BY component", kind
        ):
            values.setdefault(component, []).append(float(value))
        table = [[component, len(v), *mean_interval(v)] for component, v in values.items()]
        return Figure(
            f"{self.prefix}{key}",
            title,
            ["component", "rows", "mean", "low", "high"],
            table,
            bars(table, 2, "mean (95% interval)"),
            note,
        )

    def shares(self, kind: str, key: str, title: str, note: str = "") -> Figure:
        """Per component of ``kind`` whose rows are yes (a value above 0) or no: the share of yes."""
        rows = self.sql(
            """SELECT component, count(*), count(*) FILTER (WHERE value > 0) FROM e WHERE kind = ?
               GROUP BY component""",
            kind,
        )
        table = [[c, n, k, *wilson(k, n)] for c, n, k in rows]
        table.sort(key=lambda r: (-r[3], r[0]))
        return Figure(
            f"{self.prefix}{key}",
            title,
            ["component", "rows", "yes", "share", "low", "high"],
            table,
            bars(table, 3, "share (95% interval)"),
            note,
        )

    def matrix(self, kind: str, key: str, title: str, note: str = "") -> Figure:
        """Two players: the win rate of a seat with one component of ``kind`` against a seat with another."""
        rows = self.sql(
            """
            WITH pick AS (
                SELECT game, seat, min(component) AS component FROM e WHERE kind = ? GROUP BY game, seat
            )
            SELECT a.component, b.component, count(*), count(*) FILTER (WHERE g.won),
                   count(*) FILTER (WHERE g.draw)
            FROM pick a JOIN pick b ON a.game = b.game AND a.seat <> b.seat
            JOIN g ON g.game = a.game AND g.seat = a.seat
            GROUP BY 1, 2 ORDER BY 1, 2
            """,
            kind,
        )
        labels = sorted({r[0] for r in rows} | {r[1] for r in rows})
        cells = {(a, b): (n, w, d) for a, b, n, w, d in rows}
        values = [[_rate(cells.get((a, b))) for b in labels] for a in labels]
        counts = [[cells.get((a, b), (0, 0, 0))[0] for b in labels] for a in labels]
        # A component against itself holds both seats of its games: its win rate is (1 - draws) / 2
        # by construction, so it gets no interval.
        table = [
            [a, b, n, *(wilson(w, n) if a != b else (_rate((n, w, d)), math.nan, math.nan)), d]
            for a, b, n, w, d in rows
        ]
        return Figure(
            f"{self.prefix}{key}",
            title,
            ["component", "against", "games", "win rate", "low", "high", "draws"],
            table,
            Plot("heatmap", {"rows": labels, "cols": labels, "values": values, "counts": counts}),
            note,
        )

    def games(self) -> int:
        """How many games this slice holds."""
        return int(self.sql("SELECT count(DISTINCT game) FROM g")[0][0])


def _rate(cell: tuple[int, int, int] | None) -> float:
    if not cell or not cell[0]:
        return math.nan
    return cell[1] / cell[0]


#: What makes games one game: their signature, or their number where the data has none.
_SIGNATURE = "coalesce(signature, 'game ' || CAST(game AS VARCHAR))"


def _quote(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def bars(
    table: Sequence[Sequence[Any]],
    column: int,
    xlabel: str,
    *,
    reference: float | None = None,
    label: int = 0,
) -> Plot:
    """Bars of one column of a table, the next two columns its interval; the ``label`` column names each.

    ``reference``: a dashed line across the bars (the value of no advantage, say).

    >>> bars([["a", 0.5, 0.4, 0.6]], 1, "share").data["highs"]
    [0.6]
    """
    return Plot(
        "bars",
        {
            "labels": [r[label] for r in table],
            "values": [r[column] for r in table],
            "lows": [r[column + 1] for r in table],
            "highs": [r[column + 2] for r in table],
            "reference": reference,
        },
        xlabel,
    )
