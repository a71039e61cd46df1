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
import textwrap
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import duckdb

from tussle.balance import feel
from tussle.balance.measures import Data, Figure, Measures, Plot, bars
from tussle.balance.play import Plan, Slice
from tussle.balance.stats import format_p, holm, mean_interval, no_advantage, p_is, paired, sign_test, wilson
from tussle.errors import TussleError
from tussle.registry import load_game

#: Beyond this many slices (variants times pairings) each slice's figures are tables only: the
#: side-by-side comparison and the option matrices carry the plots (49 power pairs would make
#: thousands of plots).
PLOTTED_SLICES = 8

#: Beyond this many slices each slice's section is folded (a line of its headline figures that opens
#: it), so that the page stays a page: the summary, the contents and the comparison come first.
FOLDED_SLICES = 3

#: Beyond this many slices the summary gives the range of the seats' results, not a line per slice.
SUMMARISED_SLICES = 4

#: Where the sections added after the report is built go (below the summary and the contents).
SECTIONS = "<!-- sections -->"

#: Where the summary's sentences start on the page (an A/B run puts its own first).
SUMMARY = '<section class="summary"><h2 id="summary">At a glance</h2><ul>'

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


#: The side-by-side measures that are shares (besides the first seat's win rate): differences in points.
SHARES = ("draw share", "cut by a limit")


def seat_names(game: str, players: int) -> list[str]:
    """How the game names each seat, seat 0 first (White, Black; fighter A, fighter B): its
    ``player_name``, as its own messages and the server name them. A game that names seats only by
    number ("player 0"), or cannot be loaded here, gets "seat 0", "seat 1"..."""
    try:
        state = load_game(game, players=players).new_initial_state()
        names = [state.player_name(seat) for seat in range(players)]
    except TussleError:
        return [f"seat {seat}" for seat in range(players)]
    return [f"seat {seat}" if name == f"player {seat}" else name for seat, name in enumerate(names)]


def seat_label(seat: int, names: Sequence[str]) -> str:
    """A seat as tables and plots show it: the game's name and the number ("White (seat 0)")."""
    name = names[seat] if seat < len(names) else f"seat {seat}"
    return name if name == f"seat {seat}" else f"{name} (seat {seat})"


def general_figures(data: Data, names: Sequence[str] = ()) -> list[Figure]:
    """The figures every game gets (the module's docstring defines them); ``names``: the seats' names."""
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
        seat_rows.append(
            [seat, games, won, drawn, games - won - drawn, rate, low, high, seat_label(seat, names)]
        )
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
        named = [n for n in names[:2] if not n.startswith("seat ")]
        versus = f"{names[0]} minus {names[1]}; " if len(named) == 2 else ""
        paired_rows = [[f"seat 0 minus seat 1 score ({versus}win 1, draw 1/2), paired by game", d, low, high]]
        interval = (
            f"[{low:+.3f}, {high:+.3f}] (paired t, {len(differences):,} games)"
            if not math.isnan(low)
            else f"(no interval from {len(differences)} game{'s' if len(differences) != 1 else ''})"
        )
        first, second = (names[s] if s < len(names) else f"seat {s}" for s in (0, 1))
        note += f"; {first} minus {second} score: {d:+.3f} {interval}"
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
            ["seat", "games", "wins", "draws", "losses", "win rate", "low", "high", "name"],
            seat_rows,
            bars(
                seat_rows,
                5,
                "win rate (95% Wilson interval; a draw is not a win); dashed: no advantage (1 - draws)/seats",
                reference=reference,
                label=8,
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


def comparison(datas: Sequence[Data], names: Sequence[str] = ()) -> Figure:
    """Each slice's headline figures side by side, and each one's difference from the first slice.

    The first seat is named the game's way (``names``: "White (seat 0) win rate").

    The slices play the same game numbers with the same seeds, so a difference is paired
    game by game: the Student's t interval of the per-game differences over the games both
    slices count (:func:`~tussle.balance.stats.paired`), its p-value, and that p-value
    adjusted by Holm across the table.
    """
    first_rate = f"{seat_label(0, names)} win rate"

    def figures(data: Data) -> dict[str, dict[int, float]]:
        rows = data.sql(
            """SELECT game, bool_or(seat = 0 AND won), bool_or(draw), bool_or(limited), any_value(length),
                      any_value(lead_changes)
               FROM g GROUP BY game ORDER BY game"""
        )
        return {
            first_rate: {int(r[0]): float(r[1]) for r in rows},
            "draw share": {int(r[0]): float(r[2]) for r in rows},
            "cut by a limit": {int(r[0]): float(r[3]) for r in rows},
            "length (events)": {int(r[0]): float(r[4]) for r in rows},
            "lead changes": {int(r[0]): float(r[5]) for r in rows if r[5] is not None},
        }

    shares = (first_rate, *SHARES)
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
    first = seat_label(0, seat_names(plan.game, plan.players))
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
                f"{first}'s score (win 1, draw 1/2) by {keys[0]} (rows) and {keys[1]} ({pairing})",
                [keys[0], keys[1], "games", f"{first}'s score", "low", "high"],
                table,
                Plot(
                    "heatmap",
                    {
                        "rows": rows,
                        "cols": cols,
                        "values": means,
                        "counts": counts,
                        "colorbar": f"{first}'s score; 0.5: even",
                    },
                    keys[1],
                ),
                f"Above 0.5 the row's value beats the column's ({first} holds the row's); 95% t intervals; "
                "each cell's games in brackets.",
            )
        )
    return out


# --- drawing ---------------------------------------------------------------------------


def draw(figure: Figure, folder: Path, sample: str = "") -> list[Path]:
    """The figure's plot as ``<key>.png`` and ``<key>.svg`` in ``folder``; nothing when it has no plot.

    ``sample`` (how many games the plot counts: "2,400 games") goes into its title, so that a plot
    pasted alone still says what it is measured over.
    """
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
    title = f"{figure.title} ({sample})" if sample else figure.title
    # About 12 characters an inch at this size: a narrow heatmap's title wraps rather than being cut.
    ax.set_title(textwrap.fill(title, max(30, int(fig.get_figwidth() * 12))), fontsize=10)
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
    # A report made again (a grown run, a newer tussle) draws its own plots: an earlier one's that
    # it no longer draws would be left beside them as if current.
    for old in [*plots.glob("*.png"), *plots.glob("*.svg")]:
        old.unlink()
    datas: list[Data] = []
    sections: list[dict[str, Any]] = []
    names = seat_names(plan.game, plan.players)
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
        # A batched run stores no component events: their figures would be empty tables.
        components = measures.figures(data) if plan.engine != "batch" else []
        figures = general_figures(data, names) + feel.feel_figures(data) + components
        counting = data.counting()
        if len(plan.slices) <= PLOTTED_SLICES:
            sample = f"{counting['counted']:,} games"
            if len(plan.slices) > 1:
                sample += f"; {part.variant}, {part.pairing}"
            for figure in figures:
                draw(figure, plots, sample)
        sections.append({"slice": part, "figures": figures, "games": counting, "id": _slug(i, part)[:-1]})
    compared = comparison(datas, names) if len(datas) > 1 else None
    matrices = option_matrices(plan, datas)
    across = feel.across_figures(plan, datas, measures)
    for figure in matrices:
        draw(figure, plots, "games per cell in brackets")
    for figure in across:
        # A figure over games says how many; an exact one (FITE's dice odds) counts none.
        counted = any(c in ("games", "fighters") for c in figure.columns)
        draw(figure, plots, f"{plan.n:,} games per slice" if counted else "")
    for table in ("games", "events"):
        target = str(out / f"{table}.parquet").replace("'", "''")
        connection.execute(f"COPY (SELECT * FROM {table} ORDER BY ALL) TO '{target}' (FORMAT parquet)")
    lines = summary(datas, sections, compared, names)
    report = {
        "plan": plan.to_json(),
        "summary": lines,
        "seat_names": names,
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
        _html(plan, sections, compared, matrices, plots, across=across, lines=lines, names=names),
        encoding="utf-8",
    )
    return report


# --- the summary at the top ---------------------------------------------------------------


def summary(
    datas: Sequence[Data],
    sections: Sequence[dict[str, Any]],
    compared: Figure | None,
    names: Sequence[str],
) -> list[str]:
    """The report's findings in plain sentences, for the top of the page and ``figures.json``.

    Per slice (up to :data:`SUMMARISED_SLICES`): the seat advantage in the game's seat
    names with its p-value, each family of components' strongest and weakest member where
    one is significant after Holm's adjustment (else that none stands out), and who won a
    mixed pairing. Then whether games repeated, and what the side-by-side comparison finds.
    """
    lines: list[str] = []
    several = len(sections) > 1
    if len(sections) <= SUMMARISED_SLICES:
        for section, data in zip(sections, datas, strict=True):
            part: Slice = section["slice"]
            head = f"{part.variant}, {part.pairing}: " if several else ""
            lines.append(head + _seat_sentence(section["figures"], section["games"], names))
            lines.extend(head + line for line in _component_sentences(section["figures"]))
            who = _who_won(data)
            if who:
                lines.append(head + who)
    else:
        lines.append(_seat_range(sections, names))
    lines.extend(_repeats(sections))
    if compared is not None:
        lines.append(_compared_sentence(compared))
    return lines


def _row(figure: Figure, name: str) -> list[Any] | None:
    return next((r for r in figure.rows if str(r[0]).startswith(name)), None)


def _points(share: float) -> str:
    return f"{100 * share:.1f} points"


def _seat_sentence(figures: Sequence[Figure], games: dict[str, Any], names: Sequence[str]) -> str:
    """The seat advantage in words: who wins how much more often, and how sure that is."""
    seats = next(f for f in figures if f.key.endswith("seats"))
    whole = next(f for f in figures if f.key.endswith("summary"))
    p_row, draw_row = _row(whole, "no seat advantage"), _row(whole, "drawishness")
    p = float(p_row[1]) if p_row is not None else math.nan
    drawn = float(draw_row[1]) if draw_row is not None and not _nan(draw_row[1]) else 0.0
    n = games["counted"]
    counted = f"{n:,} {'distinct ' if games['distinct_only'] else ''}game{'s' if n != 1 else ''}"
    rows = seats.rows
    name = {r[0]: names[r[0]] if r[0] < len(names) else f"seat {r[0]}" for r in rows}
    draws = f"; {drawn:.1%} of them drawn" if drawn else ""
    if math.isnan(p):
        return f"No seat advantage can be measured: none of the {counted} had a winner."
    if len(rows) == 2:
        test = "exact sign test of the decided games"
        best, worst = sorted(rows, key=lambda r: (-r[5], r[0]))
        if p < 0.05:
            return (
                f"{name[best[0]]} wins {_points(best[5] - worst[5])} more often than {name[worst[0]]} "
                f"({best[5]:.1%} against {worst[5]:.1%} of {counted}{draws}); p {p_is(p)} ({test})."
            )
        first, second = rows
        return (
            f"No seat advantage shows: {name[first[0]]} wins {first[5]:.1%}, {name[second[0]]} "
            f"{second[5]:.1%} of {counted}{draws}; p {p_is(p)} ({test})."
        )
    rates = ", ".join(f"{name[r[0]]} {r[5]:.1%}" for r in rows)
    verdict = "A seat advantage shows" if p < 0.05 else "No seat advantage shows"
    return f"{verdict}: {rates} of {counted}{draws}; p {p_is(p)} (chi-square test of equal wins)."


def _component_sentences(figures: Sequence[Figure]) -> list[str]:
    """Per family of components (a figure with Holm-adjusted differences): its strongest and weakest."""
    out = []
    for figure in figures:
        columns = {c: i for i, c in enumerate(figure.columns)}
        if "significant (Holm)" not in columns or "difference" not in columns or not figure.rows:
            continue
        diff, holm_p = columns["difference"], columns["p Holm"]
        what = figure.title.split(":")[0]
        rows = [r for r in figure.rows if not _nan(r[diff])]
        found = [r for r in rows if r[columns["significant (Holm)"]]]
        up = [r for r in found if r[diff] > 0]
        down = [r for r in found if r[diff] < 0]
        parts = []
        if up:
            best = max(up, key=lambda r: r[diff])
            parts.append(
                f"{best[0]} is the strongest, {best[diff] * 100:+.1f} points of win rate against the seats "
                f"without it (Holm p {p_is(best[holm_p])})"
            )
        if down:
            worst = min(down, key=lambda r: r[diff])
            parts.append(
                f"{worst[0]} {'the' if up else 'is the'} weakest, {worst[diff] * 100:+.1f} points "
                f"(Holm p {p_is(worst[holm_p])})"
            )
        total = f"{len(found)} of {len(figure.rows)} significant after Holm's adjustment"
        if parts:
            out.append(f"{what}: {'; '.join(parts)} ({total}).")
        elif rows:
            largest = max(rows, key=lambda r: abs(r[diff]))
            out.append(
                f"{what}: none of the {len(figure.rows)} stands out after Holm's adjustment (the largest "
                f"difference, {largest[0]} {largest[diff] * 100:+.1f} points, has Holm p "
                f"{p_is(largest[holm_p])})."
            )
    return out


def _who_won(data: Data) -> str:
    """In a pairing of different agents, which won more, over every seat it sat in."""
    by = feel.scores_by_agent(data)
    if len(by) < 2:
        return ""
    if len(by) == 2 and data.players == 2:
        a, b = by
        wa, drawn, wb = feel.head_to_head(data, a, b)
        if wb > wa:
            a, b, wa, wb = b, a, wb, wa
        total = wa + wb + drawn
        verb = "won more" if wa > wb else "won as often"
        return (
            f"{a} {verb} than {b}: {wa:,} of {total:,} games against {wb:,}, {drawn:,} drawn; "
            f"p {p_is(sign_test(wa, wb))} (exact binomial test of the decided games)."
        )
    rates = ", ".join(f"{agent} {w / (w + d + lo):.1%}" for agent, (w, d, lo) in by.items() if w + d + lo)
    return f"Each agent's win rate over the seats it sat in: {rates}."


def _seat_range(sections: Sequence[dict[str, Any]], names: Sequence[str]) -> str:
    """Many slices: the range of the first seat's win rate over them (the comparison has each)."""
    rates = []
    for section in sections:
        seats = next(f for f in section["figures"] if f.key.endswith("seats"))
        if seats.rows and not _nan(seats.rows[0][5]):
            part: Slice = section["slice"]
            rates.append((float(seats.rows[0][5]), f"{part.variant}, {part.pairing}"))
    if not rates:
        return f"{len(sections)} slices: no game had a winner."
    low, high = min(rates), max(rates)
    first = names[0] if names else "seat 0"
    return (
        f"{len(sections)} slices (variants times pairings): {first} wins from {low[0]:.1%} ({low[1]}) to "
        f"{high[0]:.1%} ({high[1]}) of its games; each slice's section has its figures."
    )


def _repeats(sections: Sequence[dict[str, Any]]) -> list[str]:
    """Whether games repeated: a warning per slice that replayed games, else that every game was new."""
    out = []
    for section in sections:
        games = section["games"]
        if games["warning"]:
            part: Slice = section["slice"]
            counted = "each distinct game counts once" if games["distinct_only"] else "every game counts"
            out.append(f"Warning ({part.variant}, {part.pairing}): {games['warning']}; {counted}.")
    if out:
        return out
    if all(s["games"]["distinct_only"] for s in sections):
        return ["Every game played was a distinct game (none repeated move for move)."]
    return [f"Repeated games: {sections[0]['games']['method']}."] if sections else []


def _compared_sentence(compared: Figure) -> str:
    """What the side-by-side comparison finds after Holm's adjustment across its table."""
    found = [r for r in compared.rows if r[10] is not None and not _nan(r[10]) and r[10] < 0.05]
    if not found:
        return (
            "Side by side: no variant or pairing differs from the first in any measure after Holm's "
            "adjustment across the table."
        )
    found.sort(key=lambda r: r[10])
    parts = []
    for r in found[:4]:
        share = r[0] in SHARES or r[0].endswith(" win rate")  # the first seat's, as the game names it
        size = _points(r[5]) if share else f"{r[5]:.3g}"
        if r[5] > 0 and share:
            size = "+" + size
        parts.append(f"{r[0]} of {r[1]} by {size} (Holm p {p_is(r[10])})")
    more = f", and {len(found) - 4} more" if len(found) > 4 else ""
    return f"Side by side, against the first slice: {'; '.join(parts)}{more}."


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
.summary { background: #eef4fb; border-left: 4px solid #0b4f9c; padding: .2rem .8rem; }
.summary h2 { border: none; margin-top: .6rem; }
nav li { margin-bottom: .3rem; }
details.slice > summary { cursor: pointer; }
details.slice > summary h2 { display: inline; border: none; }
details.slice > summary span { margin-left: .6rem; color: #444; }
"""


def _html(
    plan: Plan,
    sections: list[dict[str, Any]],
    compared: Figure | None,
    matrices: list[Figure],
    plots: Path,
    *,
    across: Sequence[Figure] = (),
    lines: Sequence[str] = (),
    names: Sequence[str] = (),
) -> str:
    title = f"tussle balance: {plan.game}, {plan.n:,} games per slice"
    out = [
        f'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{html.escape(title)}</title>',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<style>{STYLE}</style></head><body>",
        f"<h1>{html.escape(title)}</h1>",
        SUMMARY,
        *(f"<li>{html.escape(line)}</li>" for line in lines),
        "</ul></section>",
        f'<nav id="contents"></nav>{SECTIONS}',
        '<h2 id="about">About these games</h2>',
        f"<p>Seed {plan.seed}; seats rotate from game to game. Intervals are 95%. "
        "The data: <code>games.parquet</code> and <code>events.parquet</code> (query them with DuckDB).</p>",
        "<details><summary>Methods: how each figure is computed</summary><ul>",
        *(f"<li>{html.escape(m)}</li>" for m in METHODS),
        "</ul></details>",
    ]
    if compared is not None:
        out.append('<h2 id="side-by-side">Side by side</h2>')
        out.extend(_figure_html(m, plots) for m in matrices)
        out.append(_figure_html(compared, plots))
    if across:
        out.append('<h2 id="across">Across the run</h2>')
        out.extend(_figure_html(f, plots) for f in across)
    folded = len(sections) > FOLDED_SLICES
    for section in sections:
        part: Slice = section["slice"]
        options = ", ".join(f"{k}={v}" for k, v in part.options.items()) or "the defaults"
        heading = f'<h2 id="{section["id"]}">{html.escape(part.variant)}: {html.escape(part.pairing)}</h2>'
        if folded:
            # A folded section shows its heading and headline; the contents' link still reaches it.
            out.append(
                f'<details class="slice"><summary>{heading}<span>{html.escape(_headline(section, names))}'
                "</span></summary>"
            )
        else:
            out.append(heading)
        out.append(f"<p>Options: {html.escape(options)}.</p>")
        games = section["games"]
        out.append(f"<p>{games['played']:,} games played: statistics {html.escape(games['method'])}.</p>")
        if games["warning"]:
            out.append(f'<p class="warning">Warning: {html.escape(games["warning"])}.</p>')
        out.extend(_figure_html(f, plots) for f in section["figures"])
        if folded:
            out.append("</details>")
    out.append("</body></html>\n")
    return with_contents("\n".join(out))


def _headline(section: dict[str, Any], names: Sequence[str]) -> str:
    """A folded slice's one line: each seat's win rate, and how many games."""
    seats = next(f for f in section["figures"] if f.key.endswith("seats"))
    rates = ", ".join(
        f"{names[r[0]] if r[0] < len(names) else r[0]} {r[5]:.1%}" for r in seats.rows if not _nan(r[5])
    )
    return f"{rates}; {section['games']['counted']:,} games"


_HEADING = re.compile(
    r'<h2 id="([^"]+)">(.*?)</h2>|<section class="figure" id="([^"]+)"><h3>(.*?)</h3>', re.S
)

#: Beyond this many sections the contents list the sections only, not each one's figures.
LISTED_FIGURES = 8


def with_contents(page: str) -> str:
    """``page`` with its table of contents (``<nav id="contents">``): every ``h2`` below it and,
    on a page of few sections, each one's figures.

    Made again whenever a section is added (:func:`tussle.balance.compare.add_to_report`).
    """
    start = page.find('<nav id="contents">')
    if start < 0:
        return page
    end = page.index("</nav>", start) + len("</nav>")
    sections: list[tuple[str, str, list[tuple[str, str]]]] = []
    for key, text, figure_key, figure_title in _HEADING.findall(page[end:]):
        if key:
            sections.append((key, text, []))
        elif sections:
            sections[-1][2].append((figure_key, figure_title))
    items = []
    for key, text, figures in sections:
        item = f'<li><a href="#{key}">{re.sub(r"<[^>]+>", "", text)}</a>'
        if figures and len(sections) <= LISTED_FIGURES:
            links = ", ".join(f'<a href="#{k}">{t}</a>' for k, t in figures)
            item += f"<br><small>{links}</small>"
        items.append(item + "</li>")
    return f'{page[:start]}<nav id="contents"><h2>Contents</h2><ol>{"".join(items)}</ol></nav>{page[end:]}'
