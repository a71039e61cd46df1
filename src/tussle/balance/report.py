"""The figures every game gets, and the report: an HTML page with its plots, PNG and SVG files, JSON.

Every game, whatever it declares, is measured for:

- **games**: how many were played, how many were distinct (a game played again
  move for move, by the same agents in the same seats, is one game), and which
  count: by default each distinct game once (:class:`~tussle.balance.measures.Data`);
- **seat advantage**: each seat's wins, draws and losses, its win rate with a
  95% Wilson interval, and the p-value of "no seat has an advantage" (an exact
  binomial sign test of the first seat's share of the decided games with two seats,
  a chi-square test of equal win counts with more); with two seats, the paired
  difference of their scores (a win 1, a draw 1/2) game by game, with its t
  interval; the plot's "no advantage" line is (1 - the draw share) / seats;
- **balance** (as Ludii measures it): 1 minus the gap between the best and the
  worst seat's win rate; 1 is perfectly balanced;
- **drawishness**: the share of games with no single winner;
- **cut by a limit**: the share of games a ply, turn or round limit ended;
- **length**: events per game, mean with its interval, median, histogram;
- **lead changes**: how often the leader changed along a game, by the game's
  own evaluation (its search policy) after every player's event;
- **decided at**: the share of a won game played before its winner took the
  lead for good (lower: decided earlier).
"""

from __future__ import annotations

import html
import json
import math
import re
import statistics
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import duckdb

from tussle.balance import feel
from tussle.balance.measures import Data, Figure, Measures, Plot
from tussle.balance.play import Plan, Slice
from tussle.balance.stats import format_p, holm, mean_interval, no_advantage, paired, sign_test, wilson

#: Beyond this many slices (variants times pairings) each slice's figures are tables only: the
#: side-by-side comparison and the option matrices carry the plots (49 power pairs would make
#: thousands of plots).
PLOTTED_SLICES = 8

#: How every figure is computed, as the report's "Methods" section says it.
METHODS = [
    "Games: by default every distinct game counts once; a game played again move for move (the same "
    "start, the same agents in the same seats, the same events) is one game, kept as its first copy. "
    "Each slice says how many games it played and how many were distinct, and warns when games repeat.",
    "Shares (win rates, draws, games cut by a limit): 95% Wilson score intervals; a draw is not a win.",
    "Seat advantage, two seats: an exact binomial sign test of the first seat's share of the decided "
    "games (the two seats are the same games, so this is a paired test), and the paired difference of "
    "the seats' scores (win 1, draw 1/2) game by game with its Student's t interval. More seats: a "
    "chi-square test of equal win counts. The plot's 'no advantage' line is (1 - draw share) / seats.",
    "Component against no component (cards, powers, tanks, families): the win rate with it minus "
    "without, its interval and p-value counting each game once (a cluster-robust, by game, "
    "delta-method variance with Student's t; with one seat with and one without per game, the paired "
    "t test; where every game gives the same difference, Newcombe's interval and the exact sign test). "
    "The p-values of one figure are a family: adjusted by Holm (family-wise error) and by "
    "Benjamini-Hochberg (false discovery rate); significance is judged on the Holm-adjusted p-value.",
    "Means: Student's t intervals. Winners against losers: paired within each game (the winner's total "
    "minus the losers' mean), Student's t, p adjusted by Holm across the components. Side by side: each "
    "slice's difference from the first, paired by game "
    "number (the slices share seeds), a Student's t interval of the per-game differences and its p-value, "
    "with Holm's adjustment across the table; the first slice's difference from itself is 0 by "
    "construction and has no interval.",
    "p-values are printed exactly (small ones in scientific notation), never as 0.000.",
    *feel.METHODS,
]


def general_figures(data: Data) -> list[Figure]:
    """The figures every game gets (the module's docstring defines them)."""
    counting = data.counting()
    n = data.games()
    seats = data.sql(
        """SELECT seat, count(*), count(*) FILTER (WHERE won), count(*) FILTER (WHERE draw)
           FROM g GROUP BY seat ORDER BY seat"""
    )
    wins = [w for _, _, w, _ in seats]
    p_value = no_advantage(wins)
    seat_rows = []
    for seat, games, won, drawn in seats:
        rate, low, high = wilson(won, games)
        seat_rows.append([seat, games, won, drawn, games - won - drawn, rate, low, high])
    rates = [r[5] for r in seat_rows]
    balance = 1 - (max(rates) - min(rates)) if rates else math.nan
    draws = int(data.sql("SELECT count(DISTINCT game) FROM g WHERE draw")[0][0])
    limited = int(data.sql("SELECT count(DISTINCT game) FROM g WHERE limited")[0][0])
    # A draw takes a share from every seat: with no advantage each wins (1 - draws) / seats.
    reference = (1 - draws / n) / len(seat_rows) if seat_rows and n else None
    paired_rows: list[list[Any]] = []
    seat_test = "exact binomial sign test of the decided games" if len(wins) == 2 else "chi-square test"
    note = f"p-value of no seat advantage: {format_p(p_value)} ({seat_test})"
    if len(seat_rows) == 2:
        scores = data.sql(
            """SELECT sum(CASE WHEN seat = 0 THEN s ELSE -s END) FROM
               (SELECT game, seat, CASE WHEN won THEN 1.0 WHEN draw THEN 0.5 ELSE 0.0 END AS s FROM g)
               GROUP BY game ORDER BY game"""
        )
        differences = [float(d) for (d,) in scores]
        d, low, high, _ = paired(differences)
        positive = sum(1 for x in differences if x > 0)
        negative = sum(1 for x in differences if x < 0)
        # The sign test of these differences is the binomial test above (one decided game, one sign).
        assert math.isnan(p_value) or p_value == sign_test(positive, negative)
        paired_rows = [["seat 0 minus seat 1 score (win 1, draw 1/2), paired by game", d, low, high]]
        interval = (
            f"[{low:+.3f}, {high:+.3f}] (paired t, {len(differences):,} games)"
            if not math.isnan(low)
            else f"(no interval from {len(differences)} game{'s' if len(differences) != 1 else ''})"
        )
        note += f"; seat 0 minus seat 1 score: {d:+.3f} {interval}"
    note += f". {counting['method'][0].upper()}{counting['method'][1:]}."
    if counting["warning"]:
        note += f" Warning: {counting['warning']}."
    per_game = data.sql(
        "SELECT game, any_value(length), any_value(lead_changes), any_value(decisive_at) FROM g GROUP BY game"
    )
    lengths = [float(r[1]) for r in per_game]
    changes = [float(r[2]) for r in per_game if r[2] is not None]
    decided = [float(r[3]) for r in per_game if r[3] is not None and not math.isnan(r[3])]
    summary = [
        ["games", n, None, None],
        ["games played", counting["played"], None, None],
        ["distinct games", counting["distinct"], None, None],
        ["balance (1 - gap between seats' win rates)", balance, None, None],
        [f"no seat advantage: p-value ({seat_test})", p_value, None, None],
        *paired_rows,
        ["drawishness (share of draws)", *wilson(draws, n)],
        ["no advantage: each seat's win rate, (1 - draw share) / seats", reference, None, None],
        ["cut by a limit (share)", *wilson(limited, n)],
        ["length (events), mean", *mean_interval(lengths)],
        ["length (events), median", statistics.median(lengths) if lengths else math.nan, None, None],
        ["lead changes per game, mean", *mean_interval(changes)],
        ["decided at (share of the game), mean", *mean_interval(decided)],
    ]
    return [
        Figure(
            f"{data.prefix}seats",
            "Seat advantage",
            ["seat", "games", "wins", "draws", "losses", "win rate", "low", "high"],
            seat_rows,
            Plot(
                "bars",
                {
                    "labels": [f"seat {r[0]}" for r in seat_rows],
                    "values": rates,
                    "lows": [r[6] for r in seat_rows],
                    "highs": [r[7] for r in seat_rows],
                    "reference": reference,
                },
                "win rate (95% Wilson interval; a draw is not a win); dashed: no advantage (1 - draws)/seats",
            ),
            note,
        ),
        Figure(f"{data.prefix}summary", "The game as a whole", ["measure", "value", "low", "high"], summary),
        Figure(
            f"{data.prefix}length",
            "Length of the games",
            ["events", "games"],
            [
                [int(k), int(v)]
                for k, v in data.sql("SELECT length, count(DISTINCT game) FROM g GROUP BY 1 ORDER BY 1")
            ],
            Plot("hist", {"values": lengths}, "events per game"),
        ),
    ]


def comparison(datas: Sequence[Data]) -> Figure:
    """Each slice's headline figures side by side, and each one's difference from the first slice.

    The slices play the same game numbers with the same seeds, so a difference is paired
    game by game: the Student's t interval of the per-game differences over the games both
    slices count (:func:`~tussle.balance.stats.paired`), its p-value, and that p-value
    adjusted by Holm across the table.
    """

    def figures(data: Data) -> dict[str, dict[int, float]]:
        rows = data.sql(
            """SELECT game, bool_or(seat = 0 AND won), bool_or(draw), bool_or(limited), any_value(length),
                      any_value(lead_changes)
               FROM g GROUP BY game ORDER BY game"""
        )
        return {
            "seat 0 win rate": {int(r[0]): float(r[1]) for r in rows},
            "draw share": {int(r[0]): float(r[2]) for r in rows},
            "cut by a limit": {int(r[0]): float(r[3]) for r in rows},
            "length (events)": {int(r[0]): float(r[4]) for r in rows},
            "lead changes": {int(r[0]): float(r[5]) for r in rows if r[5] is not None},
        }

    shares = ("seat 0 win rate", "draw share", "cut by a limit")
    measured = [figures(d) for d in datas]
    first = measured[0]
    table: list[list[Any]] = []
    for name in first:
        base = first[name]
        for i, (data, values) in enumerate(zip(datas, measured, strict=True)):
            here = values[name]
            xs = list(here.values())
            value = wilson(int(sum(xs)), len(xs)) if name in shares else mean_interval(xs)
            common = sorted(set(here) & set(base))
            if i == 0:
                diff: tuple[float | None, ...] = (None, None, None, None)  # itself: 0 by construction
            else:
                diff = paired([here[k] - base[k] for k in common])
            table.append([name, f"{data.variant} / {data.pairing}", *value, *diff, len(common)])
    adjusted = holm([math.nan if r[8] is None else float(r[8]) for r in table])
    for row, p in zip(table, adjusted, strict=True):
        row.append(None if row[8] is None else p)
    return Figure(
        "comparison",
        "Side by side: each variant and pairing, and its difference from the first",
        [
            "measure",
            "variant / pairing",
            "value",
            "low",
            "high",
            "difference",
            "low",
            "high",
            "p",
            "paired games",
            "p Holm",
        ],
        table,
        note=f"differences are from {datas[0].variant} / {datas[0].pairing}, paired by game number (the same "
        "seeds): Student's t interval of the per-game differences; p adjusted by Holm across the table",
    )


def option_matrices(plan: Plan, datas: Sequence[Data]) -> list[Figure]:
    """With two options varied: per pairing, the first seat's score for each combination of values."""
    out: list[Figure] = []
    for pairing in dict.fromkeys(s.pairing for s in plan.slices):
        parts = [(s, d) for s, d in zip(plan.slices, datas, strict=True) if s.pairing == pairing]
        keys = list(parts[0][0].varied)
        if len(keys) != 2:
            continue
        rows = list(dict.fromkeys(s.varied[keys[0]] for s, _ in parts))
        cols = list(dict.fromkeys(s.varied[keys[1]] for s, _ in parts))
        cells: dict[tuple[str, str], list[float]] = {}
        for part, data in parts:
            scores = data.sql(
                "SELECT CASE WHEN won THEN 1.0 WHEN draw THEN 0.5 ELSE 0.0 END FROM g WHERE seat = 0"
            )
            cells[part.varied[keys[0]], part.varied[keys[1]]] = [float(v) for (v,) in scores]
        table = [[a, b, len(v), *mean_interval(v)] for (a, b), v in cells.items()]
        means = [[mean_interval(cells[a, b])[0] for b in cols] for a in rows]
        counts = [[len(cells[a, b]) for b in cols] for a in rows]
        slug = re.sub(r"[^a-z0-9]+", "-", pairing.lower()).strip("-")
        out.append(
            Figure(
                f"options-{slug}",
                f"Seat 0's score (win 1, draw 1/2) by {keys[0]} (rows) and {keys[1]} ({pairing})",
                [keys[0], keys[1], "games", "seat 0's score", "low", "high"],
                table,
                Plot(
                    "heatmap",
                    {
                        "rows": rows,
                        "cols": cols,
                        "values": means,
                        "counts": counts,
                        "colorbar": "seat 0's score; 0.5: even",
                    },
                    keys[1],
                ),
                "Above 0.5 the row's value beats the column's (seat 0 holds the row's); 95% t intervals.",
            )
        )
    return out


# --- drawing ---------------------------------------------------------------------------


def draw(figure: Figure, folder: Path) -> list[Path]:
    """The figure's plot as ``<key>.png`` and ``<key>.svg`` in ``folder``; nothing when it has no plot."""
    if figure.plot is None or not figure.rows:
        return []  # nothing happened (a power nobody had, say): no empty plot
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plot = figure.plot
    data = plot.data
    if plot.kind in ("bars", "grouped"):
        labels = data["labels"]
        height = max(2.2, 0.28 * len(labels) * (2 if plot.kind == "grouped" else 1) + 1.2)
        fig, ax = plt.subplots(figsize=(7.5, height))
        series = (
            {"": (data["values"], data["lows"], data["highs"])}
            if plot.kind == "bars"
            else {k: tuple(v) for k, v in data["series"].items()}
        )
        width = 0.8 / len(series)
        for i, (name, (values, lows, highs)) in enumerate(series.items()):
            ys = [y + (i - (len(series) - 1) / 2) * width for y in range(len(labels))]
            vals = [0.0 if _nan(v) else v for v in values]
            err = [
                [0.0 if _nan(lo) or _nan(v) else v - lo for v, lo in zip(values, lows, strict=True)],
                [0.0 if _nan(hi) or _nan(v) else hi - v for v, hi in zip(values, highs, strict=True)],
            ]
            ax.barh(
                ys,
                vals,
                height=width,
                xerr=err,
                capsize=2,
                label=name or None,
                color=["#2a6fb0", "#c8553d"][i % 2],
            )
        if data.get("reference") is not None:
            ax.axvline(data["reference"], color="#333", linestyle="--", linewidth=1)
        ax.axvline(0, color="#000", linewidth=0.8)
        ax.set_yticks(range(len(labels)), [_short(lab) for lab in labels])
        ax.invert_yaxis()
        ax.set_xlabel(plot.xlabel)
        if plot.kind == "grouped":
            ax.legend()
    elif plot.kind == "heatmap":
        rows, cols, values = data["rows"], data["cols"], data["values"]
        fig, ax = plt.subplots(figsize=(1.2 + 0.8 * len(cols), 1.0 + 0.6 * len(rows)))
        grid = [[math.nan if _nan(v) else v for v in row] for row in values]
        finite = [v for row in grid for v in row if not _nan(v)]
        vmin = data.get("vmin", 0.0)
        vmax = data.get("vmax", 1.0 if not finite or max(finite) <= 1 else max(finite))
        image = ax.imshow(grid, cmap="RdBu" if vmax == 1.0 else "Blues", vmin=vmin, vmax=vmax)
        for r, row in enumerate(grid):
            for c, value in enumerate(row):
                if not _nan(value):
                    ax.text(
                        c, r, f"{value:.2f}\n({data['counts'][r][c]})", ha="center", va="center", fontsize=7
                    )
        ax.set_xticks(range(len(cols)), [_short(c) for c in cols], rotation=45, ha="right")
        ax.set_yticks(range(len(rows)), [_short(r) for r in rows])
        ax.set_xlabel(plot.xlabel or "against")
        fig.colorbar(image, ax=ax, label=data.get("colorbar", "win rate of the row"))
    elif plot.kind == "line":
        fig, ax = plt.subplots(figsize=(7.5, 3.5))
        feel.draw_line(plot, ax)
    elif plot.kind == "hist":
        fig, ax = plt.subplots(figsize=(7.5, 3))
        ax.hist(data["values"], bins=min(40, max(5, len(set(data["values"])))), color="#2a6fb0")
        ax.set_xlabel(plot.xlabel)
        ax.set_ylabel("games")
    else:
        raise ValueError(f"no way to draw a {plot.kind!r} plot")
    ax.set_title(figure.title, fontsize=10)
    fig.tight_layout()
    paths = [folder / f"{figure.key}.png", folder / f"{figure.key}.svg"]
    for path in paths:
        fig.savefig(path, dpi=110, metadata={"Date": None} if path.suffix == ".svg" else None)
    plt.close(fig)
    return paths


def _nan(value: Any) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value))


def _short(label: Any) -> str:
    text = str(label)
    return text if len(text) <= 28 else text[:27] + "\u2026"


# --- the report ------------------------------------------------------------------------


def build(
    plan: Plan, connection: duckdb.DuckDBPyConnection, measures: Measures, out: Path, *, distinct: bool = True
) -> dict[str, Any]:
    """Write ``report.html``, ``figures.json``, ``plots/`` and the whole data as two Parquet files.

    ``distinct``: count each distinct game once (the default); else every game played, a
    repeated one as often as it was played (each a fresh draw, as with chance or random agents).
    """
    plots = out / "plots"
    plots.mkdir(parents=True, exist_ok=True)
    datas: list[Data] = []
    sections: list[dict[str, Any]] = []
    for i, part in enumerate(plan.slices):
        data = Data(
            connection,
            part.variant,
            part.pairing,
            prefix=_slug(i, part),
            players=plan.players,
            distinct=distinct,
        )
        datas.append(data)
        figures = general_figures(data) + feel.feel_figures(data) + measures.figures(data)
        if len(plan.slices) <= PLOTTED_SLICES:
            for figure in figures:
                draw(figure, plots)
        sections.append({"slice": part, "figures": figures, "games": data.counting()})
    compared = comparison(datas) if len(datas) > 1 else None
    matrices = option_matrices(plan, datas)
    across = feel.across_figures(plan, datas, measures)
    for figure in matrices + across:
        draw(figure, plots)
    for table in ("games", "events"):
        target = str(out / f"{table}.parquet").replace("'", "''")
        connection.execute(f"COPY (SELECT * FROM {table} ORDER BY ALL) TO '{target}' (FORMAT parquet)")
    report = {
        "plan": plan.to_json(),
        "methods": METHODS,
        "slices": [
            {
                "variant": s["slice"].variant,
                "pairing": s["slice"].pairing,
                "options": s["slice"].options,
                "games": s["games"],
                "figures": [f.to_json() for f in s["figures"]],
            }
            for s in sections
        ],
        "comparison": compared.to_json() if compared else None,
        "option_matrices": [m.to_json() for m in matrices],
        "across": [f.to_json() for f in across],
    }
    (out / "figures.json").write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    (out / "report.html").write_text(
        _html(plan, sections, compared, matrices, plots, across=across), encoding="utf-8"
    )
    return report


def _slug(i: int, part: Slice) -> str:
    words = re.sub(r"[^a-z0-9]+", "-", f"{part.variant} {part.pairing}".lower()).strip("-")
    return f"{i:02d}-{words[:40]}-"


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else ""
    if isinstance(value, float):
        if math.isnan(value):
            return "\u2013"
        if value != 0 and abs(value) < 0.001:
            return f"{value:.2g}"  # a small p-value, exactly: never 0.000
        return f"{value:.3f}" if abs(value) < 100 else f"{value:,.1f}"
    return html.escape(str(value))


def _table(figure: Figure) -> str:
    head = "".join(f"<th>{html.escape(c)}</th>" for c in figure.columns)
    body = "".join("<tr>" + "".join(f"<td>{_cell(v)}</td>" for v in row) + "</tr>" for row in figure.rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _figure_html(figure: Figure, plots: Path) -> str:
    parts = [f'<section class="figure" id="{html.escape(figure.key)}"><h3>{html.escape(figure.title)}</h3>']
    if figure.note:
        parts.append(f"<p>{html.escape(figure.note)}</p>")
    svg = plots / f"{figure.key}.svg"
    if svg.exists():
        text = svg.read_text(encoding="utf-8")
        parts.append('<div class="plot">' + text[text.find("<svg") :] + "</div>")
    if not figure.rows:
        parts.append("<p>Nothing of this kind happened in these games (at these options).</p>")
    elif len(figure.rows) > 12:
        parts.append(
            f"<details><summary>the table ({len(figure.rows)} rows)</summary>{_table(figure)}</details>"
        )
    else:
        parts.append(_table(figure))
    parts.append("</section>")
    return "".join(parts)


STYLE = """
body { font-family: system-ui, sans-serif; max-width: 60rem; margin: 0 auto; padding: 1rem; color: #111; }
table { border-collapse: collapse; margin: .5rem 0; font-size: .9rem; }
th, td { border: 1px solid #bbb; padding: .2rem .45rem; text-align: right; }
th:first-child, td:first-child { text-align: left; }
.plot svg { max-width: 100%; height: auto; }
h2 { border-bottom: 2px solid #0b4f9c; padding-bottom: .2rem; margin-top: 2rem; }
.warning { background: #fff3cd; border-left: 4px solid #c8553d; padding: .4rem .6rem; }
"""


def _html(
    plan: Plan,
    sections: list[dict[str, Any]],
    compared: Figure | None,
    matrices: list[Figure],
    plots: Path,
    *,
    across: Sequence[Figure] = (),
) -> str:
    title = f"tussle balance: {plan.game}, {plan.n:,} games per slice"
    out = [
        f'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{html.escape(title)}</title>',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<style>{STYLE}</style></head><body>",
        f"<h1>{html.escape(title)}</h1>",
        f"<p>Seed {plan.seed}; seats rotate from game to game. Intervals are 95%. "
        "The data: <code>games.parquet</code> and <code>events.parquet</code> (query them with DuckDB).</p>",
        "<details><summary>Methods: how each figure is computed</summary><ul>",
        *(f"<li>{html.escape(m)}</li>" for m in METHODS),
        "</ul></details>",
    ]
    if compared is not None:
        out.append("<h2>Side by side</h2>")
        out.extend(_figure_html(m, plots) for m in matrices)
        out.append(_figure_html(compared, plots))
    if across:
        out.append("<h2>Across the run</h2>")
        out.extend(_figure_html(f, plots) for f in across)
    for section in sections:
        part: Slice = section["slice"]
        options = ", ".join(f"{k}={v}" for k, v in part.options.items()) or "the defaults"
        out.append(f"<h2>{html.escape(part.variant)}: {html.escape(part.pairing)}</h2>")
        out.append(f"<p>Options: {html.escape(options)}.</p>")
        games = section["games"]
        out.append(f"<p>{games['played']:,} games played: statistics {html.escape(games['method'])}.</p>")
        if games["warning"]:
            out.append(f'<p class="warning">Warning: {html.escape(games["warning"])}.</p>')
        out.extend(_figure_html(f, plots) for f in section["figures"])
    out.append("</body></html>\n")
    return "\n".join(out)
