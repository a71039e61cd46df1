"""A/B runs: two sets of options played game by game from the same seeds, and analysed in pairs.

``tussle balance GAME --compare A.toml B.toml`` plays every game number of the
run under A's options and under B's with the same seeds (the agents', chance's,
the random opening's), so game i of A and game i of B differ only by what the
options changed. Each pair of games is then one observation:

- **paired differences**: per game, B's value minus A's (seat 0's score, 1 a win
  and 1/2 a draw; a win; a draw; the length); their mean with a 95% paired t
  interval. Next to it, for comparison, the interval the two runs would get as
  independent samples (Welch's t interval): where the same seeds make the games
  alike, the paired one is narrower, and it is the right one;
- **discordant pairs**: the games where only A's or only B's game had it (a win,
  a draw) and the exact McNemar test (a binomial test of the discordant pairs
  against 1/2); for scores and lengths, the sign test of the non-zero
  differences (the same binomial test);
- **the changed components first**: each component figure of the game's measures
  (a card, a power, a tank type) before (A) and after (B), the components named
  where A's and B's options differ (a changed line of a deck or a layout, an
  option's new value) first, then the others by the size of their change.

And for any run, :func:`sample_sizes`: the games a variant needs to show a
difference of 1, 3 or 5 points in the first seat's win rate at 80% power.
"""

from __future__ import annotations

import html
import json
import math
import re
import tomllib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import duckdb
from scipy import stats

from tussle.balance.measures import Figure
from tussle.balance.play import BalanceError, Plan
from tussle.balance.stats import CONFIDENCE, p_is

#: The differences of the first seat's win rate the sample-size table is for (1, 3 and 5 points).
DIFFERENCES = (0.01, 0.03, 0.05)
#: The power the sample-size table asks for, at two-sided significance 1 - CONFIDENCE.
POWER = 0.8


# --- the two sides' options -------------------------------------------------------------------


def read_option_file(path: str | Path) -> dict[str, str]:
    """The game options of a TOML file: ``key = value`` lines (text, numbers, true/false).

    A value naming a file next to the TOML file (a deck, a layout) is given as
    that file's path, for the document options to read it.
    """
    where = Path(path)
    try:
        table = tomllib.loads(where.read_text(encoding="utf-8"))
    except OSError as exc:
        raise BalanceError(f"cannot read {path}: {exc.strerror}") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise BalanceError(f"{path} is not a TOML file of options: {exc}") from None
    out: dict[str, str] = {}
    for key, value in table.items():
        if isinstance(value, dict | list):
            raise BalanceError(f"{path}: {key} must be a single value (text, number, true or false)")
        text = str(value).lower() if isinstance(value, bool) else str(value)
        beside = where.parent / text
        if "\n" not in text and text and not Path(text).is_absolute() and beside.is_file():
            text = str(beside)
        out[key.replace("-", "_")] = text
    return out


def parse_option_text(text: str) -> dict[str, str]:
    """``k=v,k=v`` as options; a comma before a part with no ``=`` belongs to the value before.

    >>> parse_option_text("power_a=swift, round_limit=20")
    {'power_a': 'swift', 'round_limit': '20'}
    >>> parse_option_text("walls=a1,b2,size=9")
    {'walls': 'a1,b2', 'size': '9'}
    """
    out: dict[str, str] = {}
    key = ""
    for part in text.split(","):
        name, eq, value = part.partition("=")
        if eq and name.strip().isidentifier():
            key = name.strip()
            if key in out:
                raise BalanceError(f"--compare-options {text!r}: {key} is given twice")
            out[key] = value.strip()
        elif key:
            out[key] += "," + part
        else:
            raise BalanceError(f"--compare-options {text!r}: write KEY=VALUE,KEY=VALUE")
    return out


def changed_text(a: dict[str, Any], b: dict[str, Any]) -> list[str]:
    """What differs between two sides' options, as lines: a document's lines found on one side only,
    or an option's values.

    >>> changed_text({"deck": "x 1\\ny 2"}, {"deck": "x 1\\ny 3", "n": 4})
    ['y 2', 'y 3', 'n=4']
    """
    lines: list[str] = []
    for key in dict.fromkeys([*a, *b]):
        before, after = str(a.get(key, "")), str(b.get(key, ""))
        if before == after:
            continue
        if "\n" in before or "\n" in after:
            mine, theirs = before.splitlines(), after.splitlines()
            lines += [line for line in mine if line not in theirs] + [
                line for line in theirs if line not in mine
            ]
        else:
            lines.append(f"{key}={after}" if not before else f"{key}={before}")
            if before and after:
                lines.append(f"{key}={after}")
    return lines


# --- paired statistics ------------------------------------------------------------------------


def paired(a: Sequence[float], b: Sequence[float]) -> dict[str, float]:
    """B minus A game by game: the mean difference with its paired t interval, the unpaired (Welch)
    interval of the same difference, and the sign test of the non-zero differences.

    >>> r = paired([1, 0, 1, 0], [1, 1, 1, 1])
    >>> r["difference"], r["a_only"], r["b_only"], round(r["p"], 3)
    (0.5, 0.0, 2.0, 0.5)
    """
    n = len(a)
    if n != len(b):
        raise ValueError("paired samples of different sizes")
    diffs = [y - x for x, y in zip(a, b, strict=True)]
    mean = sum(diffs) / n if n else math.nan
    low = high = low_u = high_u = math.nan
    if n >= 2:
        sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1))
        half = float(stats.t.ppf(0.5 + CONFIDENCE / 2, n - 1)) * sd / math.sqrt(n)
        low, high = mean - half, mean + half
        if len(set(a)) > 1 or len(set(b)) > 1:
            welch = stats.ttest_ind(b, a, equal_var=False).confidence_interval(CONFIDENCE)
            low_u, high_u = float(welch.low), float(welch.high)
        else:  # both constant: no spread to estimate, as the paired interval says
            low_u, high_u = mean, mean
    a_only = sum(1 for d in diffs if d < 0)
    b_only = sum(1 for d in diffs if d > 0)
    p = float(stats.binomtest(b_only, a_only + b_only, 0.5).pvalue) if a_only + b_only else math.nan
    return {
        "games": float(n),
        "a": sum(a) / n if n else math.nan,
        "b": sum(b) / n if n else math.nan,
        "difference": mean,
        "low": low,
        "high": high,
        "unpaired_low": low_u,
        "unpaired_high": high_u,
        "a_only": float(a_only),
        "b_only": float(b_only),
        "p": p,
    }


def _per_game(
    connection: duckdb.DuckDBPyConnection, variant: str, pairing: str, first_agent: str
) -> dict[int, dict[str, float]]:
    rows = connection.execute(
        """SELECT game,
                  max(CASE WHEN seat = 0 THEN (CASE WHEN won THEN 1.0 WHEN draw THEN 0.5 ELSE 0.0 END) END),
                  bool_or(draw), any_value(length),
                  max(CASE WHEN agent = ? THEN (CASE WHEN won THEN 1.0 WHEN draw THEN 0.5 ELSE 0.0 END) END)
           FROM games WHERE variant = ? AND pairing = ? GROUP BY game""",
        [first_agent, variant, pairing],
    ).fetchall()
    return {
        int(game): {
            "seat 0 score": float(score),
            "seat 0 wins": float(score == 1.0),
            "draws": float(bool(draw)),
            "length (events)": float(length),
            f"{first_agent} score": float(agent) if agent is not None else math.nan,
        }
        for game, score, draw, length, agent in rows
    }


PAIRED_METHOD = (
    "Paired by seed: game i of A and game i of B share every seed. B - A per game, its mean with a "
    "95% paired t interval; unpaired: Welch's t interval, as if the runs were independent. "
    "A only / B only: the discordant pairs (games where only A's, only B's had it, or was higher); "
    "p: the exact McNemar test (binomial test of the discordant pairs against 1/2), the sign test "
    "for scores and lengths."
)


def ab_figures(plan: Plan, connection: duckdb.DuckDBPyConnection, report: dict[str, Any]) -> list[Figure]:
    """The paired comparison of an A/B run, and its components before and after, changed ones first."""
    labels = list(dict.fromkeys(s.variant for s in plan.slices))
    if len(labels) != 2:
        raise BalanceError("an A/B comparison needs exactly two variants")
    a_label, b_label = labels
    rows: list[list[Any]] = []
    for pairing in dict.fromkeys(s.pairing for s in plan.slices):
        agents = pairing.split(",")
        mixed = len(set(agents)) > 1
        a = _per_game(connection, a_label, pairing, agents[0])
        b = _per_game(connection, b_label, pairing, agents[0])
        games = sorted(set(a) & set(b))
        names = ["seat 0 score", "seat 0 wins", "draws", "length (events)"]
        if mixed:
            names.append(f"{agents[0]} score")
        for name in names:
            r = paired([a[g][name] for g in games], [b[g][name] for g in games])
            rows.append(
                [
                    name,
                    pairing,
                    int(r["games"]),
                    r["a"],
                    r["b"],
                    r["difference"],
                    r["low"],
                    r["high"],
                    r["unpaired_low"],
                    r["unpaired_high"],
                    int(r["a_only"]),
                    int(r["b_only"]),
                    r["p"],
                ]
            )
    paired_figure = Figure(
        "ab-paired",
        f"A/B, game by game: {a_label} (A) against {b_label} (B)",
        [
            "measure",
            "pairing",
            "pairs",
            "A",
            "B",
            "B - A",
            "low",
            "high",
            "unpaired low",
            "unpaired high",
            "A only",
            "B only",
            "p-value",
        ],
        rows,
        note=PAIRED_METHOD,
    )
    slices = report["slices"]
    # The options as given (a default given to one side is what changed, though no option shows it).
    sides = {s.variant: {**s.options, **s.varied} for s in plan.slices}
    changed = [line.lower() for line in changed_text(sides[a_label], sides[b_label])]
    component_rows: list[list[Any]] = []
    for pairing in dict.fromkeys(s.pairing for s in plan.slices):
        before = next(s for s in slices if s["variant"] == a_label and s["pairing"] == pairing)
        after = next(s for s in slices if s["variant"] == b_label and s["pairing"] == pairing)
        component_rows += _components(before["figures"], after["figures"], changed, pairing)
    component_rows.sort(key=lambda r: (not r[3], -abs(r[6]) if not _nan(r[6]) else math.inf))
    components = Figure(
        "ab-components",
        "Components before (A) and after (B): the changed ones first",
        ["figure", "pairing", "component", "changed", "A", "B", "B - A"],
        component_rows,
        note="changed: named on a line of a document (deck, layout) or in an option value that differs "
        "between A and B; they come first, then the others by the size of the change. Each value is "
        "the figure's first rate, share or mean; its own section has the intervals.",
    )
    return [paired_figure, components]


def _nan(value: Any) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value))


#: How many components the summary names as having moved most.
SUMMARISED_COMPONENTS = 3


def ab_summary(plan: Plan, figures: Sequence[Figure], names: Sequence[str]) -> list[str]:
    """An A/B run's findings in plain sentences, for the top of the report's summary.

    Per pairing, how B moves the first seat's score from A's, paired by seed, with its
    interval and the exact McNemar p; then the changed components that moved most (or,
    where what changed names no component, the components that moved most).
    """
    paired_figure, components = figures[0], figures[1]
    a_label, b_label = list(dict.fromkeys(s.variant for s in plan.slices))
    a_side, b_side = _side(a_label), _side(b_label)
    pairings = list(dict.fromkeys(s.pairing for s in plan.slices))
    first = names[0] if names else "seat 0"
    lines = []
    for row in paired_figure.rows:
        pairing, pairs, before, after, diff, low, high, a_only, b_only, p = row[1:8] + row[10:13]
        if row[0] != "seat 0 score" or _nan(diff):
            continue
        head = f"{pairing}: " if len(pairings) > 1 else ""
        moves = (
            f"{'raises' if diff > 0 else 'lowers'} {first}'s score by {diff * 100:+.1f} points against"
            if diff
            else f"leaves {first}'s score where it is under"
        )
        interval = (
            f"95% [{low * 100:+.1f}, {high * 100:+.1f}] points, " if not (_nan(low) or _nan(high)) else ""
        )
        line = (
            f"{head}{b_side} {moves} {a_side} ({before:.3f} to {after:.3f}; "
            f"paired by seed, {pairs:,} pairs, {interval}{b_only:,} went B's way and {a_only:,} A's: "
            f"exact McNemar p {p_is(p)})."
        )
        if not _nan(low) and low <= 0 <= high:
            line += f" The interval holds 0: {pairs:,} pairs do not tell B from A."
        lines.append(line)
    moved = [r for r in components.rows if not _nan(r[6])]
    changed = [r for r in moved if r[3]]
    shown = changed or moved
    # A changed component found on one side only (a power B gives, say) has no difference to rank.
    alone = {
        side: list(dict.fromkeys(r[2] for r in components.rows if r[3] and _nan(r[other])))
        for side, other in (("A", 5), ("B", 4))
    }
    parts = []
    if shown:
        top = sorted(shown, key=lambda r: -abs(r[6]))[:SUMMARISED_COMPONENTS]
        parts = [
            f"{r[2]} ({r[0]}{', ' + r[1] if len(pairings) > 1 else ''}) {_value(r[4])} to "
            f"{_value(r[5])}, {'+' if r[6] >= 0 else ''}{_value(r[6])}"
            for r in top
        ]
        if changed:
            what = "The changed components that moved most, A to B"
        elif any(r[3] for r in components.rows):
            what = "No changed component is found under both sides; the components that moved most, A to B"
        else:
            what = "What changed names no component; the components that moved most, A to B"
        parts = [f"{what}: {'; '.join(parts)}"]
    for side, found in alone.items():
        if found:
            more = f" and {len(found) - 4} more" if len(found) > 4 else ""
            parts.append(f"under {side} only: {', '.join(found[:4])}{more}")
    if parts:
        text = "; ".join(parts)
        lines.append(text[0].upper() + text[1:] + ".")
    return lines


def _value(value: float) -> str:
    return f"{value:.3f}" if abs(value) < 100 else f"{value:,.1f}"


def _side(label: str) -> str:
    """A side's label as a sentence names it: "B (after.toml)" for "B: after.toml".

    >>> _side("B: power_a=brutal"), _side("B")
    ('B (power_a=brutal)', 'B')
    """
    side, colon, what = label.partition(": ")
    return f"{side} ({what})" if colon else label


def _components(
    before: list[dict[str, Any]], after: list[dict[str, Any]], changed: list[str], pairing: str
) -> list[list[Any]]:
    """Rows of the component figures of either side, matched by title, their rows by their leading names.

    A side may lack a figure the other has (a game that makes a power's figures only
    where a fighter brought one): its components are then found under the other side only.
    """
    out: list[list[Any]] = []
    mine = {f["title"]: f for f in before}
    other = {f["title"]: f for f in after}
    for title in dict.fromkeys([*mine, *other]):
        sides = [mine.get(title), other.get(title)]
        first = next(f for f in sides if f is not None)
        if not first["columns"] or first["columns"][0] != "component":
            continue
        column = _value_column([r for f in sides if f is not None for r in f["rows"]])
        if column is None:
            continue
        values_a, values_b = ({_row_key(r): r[column] for r in f["rows"]} if f else {} for f in sides)
        for key in dict.fromkeys([*values_a, *values_b]):
            name = " / ".join(key)
            va, vb = values_a.get(key), values_b.get(key)
            diff = vb - va if not _nan(va) and not _nan(vb) else math.nan  # type: ignore[operator]
            hit = any(_names(part, line) for part in key for line in changed if part.strip())
            out.append([title, pairing, name, hit, va, vb, diff])
    return out


def _names(name: str, line: str) -> bool:
    """Whether ``line`` names ``name`` as a whole word (any case).

    >>> _names("Tac", "power_a=tactical"), _names("swift", "power_a=swift")
    (False, True)
    """
    return re.search(rf"(?<![a-z0-9]){re.escape(name.lower())}(?![a-z0-9])", line) is not None


def _row_key(row: list[Any]) -> tuple[str, ...]:
    names = []
    for value in row:
        if not isinstance(value, str):
            break
        names.append(value)
    return tuple(names)


def _value_column(rows: list[list[Any]]) -> int | None:
    """The first column after the names whose values are fractions or means (floats), not counts."""
    if not rows:
        return None
    width = min(len(r) for r in rows)
    start = len(_row_key(rows[0]))
    for j in range(start, width):
        values = [r[j] for r in rows if r[j] is not None]
        if values and all(isinstance(v, float) for v in values):
            return j
    return None


# --- how many games ---------------------------------------------------------------------------


def games_needed(rate: float, difference: float, power: float = POWER) -> int:
    """Games per variant to tell ``rate`` from ``rate + difference`` (two-sided 5%, at ``power``).

    The normal approximation for two independent proportions (pooled variance
    under no difference, unpooled under the difference; no continuity correction):
    n = (z_a sqrt(2 p (1 - p)) + z_b sqrt(p1 q1 + p2 q2))^2 / d^2, p the mean of p1 and p2.

    >>> games_needed(0.5, 0.05)
    1565
    """
    p1 = min(max(rate, 0.0), 1.0)
    p2 = p1 + difference if p1 + difference <= 1 else p1 - difference
    mean = (p1 + p2) / 2
    z_a = float(stats.norm.ppf(0.5 + CONFIDENCE / 2))
    z_b = float(stats.norm.ppf(power))
    top = z_a * math.sqrt(2 * mean * (1 - mean)) + z_b * math.sqrt(p1 * (1 - p1) + p2 * (1 - p2))
    return math.ceil(top**2 / difference**2)


def sample_sizes(report: dict[str, Any]) -> Figure:
    """For each slice's first-seat win rate, the games a variant needs to see 1, 3 and 5 points."""
    from tussle.balance.report import seat_label

    rows: list[list[Any]] = []
    for part in report["slices"]:
        seats = next((f for f in part["figures"] if f["key"].endswith("seats")), None)
        if seats is None or not seats["rows"]:
            continue
        rate_at = seats["columns"].index("win rate")
        rate = seats["rows"][0][rate_at]
        if _nan(rate):
            continue
        needed = [games_needed(float(rate), d) for d in DIFFERENCES]
        rows.append([f"{part['variant']} / {part['pairing']}", rate, *needed])
    return Figure(
        "sample-sizes",
        "Games needed to see a difference in the first seat's win rate",
        [
            "variant / pairing",
            f"{seat_label(0, report.get('seat_names') or [])} win rate",
            *[f"{round(d * 100)} point{'s' if round(d * 100) != 1 else ''}" for d in DIFFERENCES],
        ],
        rows,
        note=f"Games per variant for a two-sided test at 5% to find a difference of 1, 3 or 5 points "
        f"with {POWER:.0%} power, by the normal approximation for two independent proportions at the "
        "observed rate. An A/B run (--compare) is paired and needs fewer: the narrower its paired "
        "interval than its unpaired one, the fewer.",
    )


def run_figure(plan: Plan, about: dict[str, Any]) -> Figure:
    """What the run's games depend on: tussle's version, the openings, the agents, the content files."""
    rows: list[list[Any]] = [
        ["tussle", about.get("tussle", "")],
        ["seed", str(plan.seed)],
        [
            "openings",
            f"each player's first {plan.openings} decisions random" if plan.openings else "none",
        ],
    ]
    if plan.engine == "batch":
        rows.append(
            [
                "engine",
                "batched (--engine batch, JAX): the agents' batched forms; lead changes, drama, uncertainty, "
                "repetition and component figures are not measured",
            ]
        )
    for spec, agent in about.get("agents", {}).items():
        plays = agent.get("plays", {})
        shown = f"{plays.get('spec')} {plays.get('params')}" if plays else f"{agent.get('params')}"
        batched = f", batched as {agent['batched']}" if agent.get("batched") else ""
        rows.append([f"agent {spec}", f"{agent.get('class', '')} {shown}{batched}"])
    for entry in about.get("content", []):
        where = entry.get("file") or "given inline or shipped"
        rows.append(
            [
                f"{entry['variant']}: {entry['option']}",
                f"{where}, SHA-256 {entry['sha256']}, {entry['chars']} chars",
            ]
        )
    return Figure(
        "run",
        "What these games depend on",
        ["what", "value"],
        rows,
        note="Stored in the folder as plan.json and provenance.json: a run into it with any of these "
        "changed is refused (or, with --fresh, played afresh).",
    )


# --- into the report --------------------------------------------------------------------------


def add_to_report(
    report: dict[str, Any], figures: list[Figure], out: Path, key: str, headline: Sequence[str] = ()
) -> None:
    """Put ``figures`` under ``key`` in the report: its JSON, and a section at the top of its page.

    ``headline``: sentences put first in the report's summary ("At a glance", and ``summary``
    in ``figures.json``).
    """
    from tussle.balance.report import SECTIONS, SUMMARY, draw, with_contents

    report[key] = [f.to_json() for f in figures]
    report["summary"] = [*headline, *report.get("summary", [])]
    (out / "figures.json").write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    page = out / "report.html"
    text = page.read_text(encoding="utf-8")
    at = text.find(SUMMARY)
    if headline and at >= 0:
        at += len(SUMMARY)
        text = text[:at] + "".join(f"\n<li>{html.escape(line)}</li>" for line in headline) + text[at:]
    title = {"ab": "A/B comparison", "sample_sizes": "How many games", "run": "This run"}.get(key, key)
    section = [f'<h2 id="{key}">{html.escape(title)}</h2>']
    for figure in figures:
        draw(figure, out / "plots")
        section.append(_figure_section(figure))
    # Below the summary and the contents (which list it), above the rest; an older page: at its top.
    at = text.find(SECTIONS)
    at = at + len(SECTIONS) if at >= 0 else text.find("<h2")
    at = at if at >= 0 else text.rfind("</body>")
    page.write_text(with_contents(text[:at] + "\n".join(section) + "\n" + text[at:]), encoding="utf-8")


def _figure_section(figure: Figure) -> str:
    def cell(value: Any) -> str:
        if _nan(value):
            return "\u2013"
        if isinstance(value, bool):
            return "yes" if value else ""
        if isinstance(value, float):
            return f"{value:.3g}" if abs(value) < 1e-3 and value else f"{value:.3f}"
        return html.escape(str(value))

    head = "".join(f"<th>{html.escape(c)}</th>" for c in figure.columns)
    body = "".join("<tr>" + "".join(f"<td>{cell(v)}</td>" for v in row) + "</tr>" for row in figure.rows[:40])
    more = f"<p>{len(figure.rows) - 40} more rows in figures.json.</p>" if len(figure.rows) > 40 else ""
    return (
        f'<section class="figure" id="{html.escape(figure.key)}"><h3>{html.escape(figure.title)}</h3>'
        f"<p>{html.escape(figure.note)}</p><table><thead><tr>{head}</tr></thead><tbody>{body}</tbody>"
        f"</table>{more}</section>"
    )
