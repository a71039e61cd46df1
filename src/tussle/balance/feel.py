"""How a game feels and how much skill it rewards: game-feel measures, trajectories, per-agent results.

Every figure here names its method; docs/balance.md ("Game feel", "Who won",
"Skill depth", "Trajectories") defines each one.

- **Per game** (:func:`per_game`, extra columns of the ``games`` table): the
  decisions, the branching factor (mean legal actions at a decision), the
  share of decisions with more than one legal action, drama, uncertainty and
  repetition, as Ludii's measures define them (the evaluation is the game's
  search policy, as for lead changes). The duration in the game's own unit
  (turns, rounds, Fights) is a ``duration`` row of the game's measures.
- **Trajectories**: rows of kind ``series:NAME`` (component: the step, value:
  the seat's value at that step), averaged per step for winners and losers.
- **Who won** in a mixed pairing: each agent's wins, draws and losses over
  both seats, and an exact binomial test between two agents.
- **Skill depth** over a ladder of agents (``--skill random,rule,medium``):
  the stronger agent's score against the weaker at each step, and the first
  player's edge at each level.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, Any

from scipy import stats

from tussle.balance.measures import Data, Figure, Plot, bars
from tussle.balance.stats import mean_interval, wilson
from tussle.errors import PositionError
from tussle.game import Game, State
from tussle.record import Record

if TYPE_CHECKING:
    from tussle.balance.measures import Measures
    from tussle.balance.play import Plan

#: The extra columns of the ``games`` table, as :func:`per_game` gives them.
FEEL_COLUMNS = {
    "decisions": "INTEGER",
    "branching": "DOUBLE",
    "decision_moves": "DOUBLE",
    "drama": "DOUBLE",
    "uncertainty": "DOUBLE",
    "repetition": "DOUBLE",
}
#: How this module's figures are computed, for the report's "Methods" section.
METHODS = [
    "Who won (a pairing of different agents): each agent's wins, draws and losses over every seat it sat "
    "in, win rates with Wilson intervals; with two agents, an exact two-sided binomial (sign) test of the "
    "first agent's share of the decided games against 1/2.",
    "Skill depth (--skill): the first seat's score at each level (an agent against itself) and the "
    "stronger agent's score at each step (win 1, draw 1/2), with a Wilson interval when no game was "
    "drawn, else Student's t, and an exact two-sided binomial test of the decided games against 1/2.",
    "Game feel, one value per game, mean with a Student's t interval: decisions; branching factor (mean "
    "legal actions at a decision); decision moves (share of decisions with more than one legal action); "
    "duration in the game's own unit; drama (won games: mean half-gap between the leader's value and "
    "the eventual winner's where the winner is behind, 0 if never); uncertainty (mean of 1 minus half "
    "the gap between the two highest values); repetition (share of decisions in a position met before). "
    "Values are the game's own evaluation after every player's event.",
    "Trajectories: per step (turn, Fight, round), the mean over the seats of the games that reached it, "
    "with a Student's t interval, for winners, losers and all; plotted while a step has 10 rows or more.",
    "FITE: the exact dice odds count every roll of both pools (the solver's hit_chances); each power's "
    "measured score beside its exact score (1 + V) / 2 from the solved model over the same opponents, "
    "the two rankings compared by Spearman's rank correlation (ties at their mean rank).",
]
#: The row kind of a game's duration in its own unit (the component names the unit).
DURATION = "duration"
#: The row kind prefix of a trajectory (``series:NAME``; component: the step).
SERIES = "series:"
#: A trajectory's plot shows the steps with at least this many rows.
PLOTTED_ROWS = 10


def per_game(game: Game, record: Record, winner: int | None) -> tuple[Any, ...]:
    """The game-feel values of one played game, in the order of :data:`FEEL_COLUMNS`.

    One walk through the record: at each player's event, the legal actions of
    the state before it and that state's position (for repetition); after it,
    each player's value by the game's evaluation (for drama and uncertainty;
    NaN without an evaluation).
    """
    target = game.info.hooks.search
    policy = game.hook(target)(game) if target else None
    counts: list[int] = []
    keys: list[Hashable] = []
    values: list[list[float]] = []
    events = record.events
    pending = False  # whether the state walked to now follows a player's event
    for i, state in enumerate(record.walk()):
        if pending and policy is not None:
            values.append(list(policy.values(state)))
        pending = False
        if i < len(events) and events[i][0] >= 0:
            player = events[i][0]
            counts.append(len(state.legal_actions(player)))
            keys.append((player, _position_key(state, policy)))
            pending = True
    decisions = len(counts)
    branching = sum(counts) / decisions if decisions else math.nan
    choice = sum(c > 1 for c in counts) / decisions if decisions else math.nan
    seen: set[Hashable] = set()
    repeated = 0
    for key in keys:
        repeated += key in seen
        seen.add(key)
    repetition = repeated / decisions if decisions else math.nan
    d, u = drama_and_uncertainty(values, winner) if policy is not None else (math.nan, math.nan)
    return decisions, branching, choice, d, u, repetition


def _position_key(state: State[Any], policy: Any) -> Hashable:
    """What makes two states the same position: the policy's repetition key, else the notation or render."""
    if policy is not None:
        key = policy.repetition_key(state)
        if key is not None:
            return key  # type: ignore[no-any-return]
    try:
        return state.position()
    except PositionError:
        return state.render()


def drama_and_uncertainty(values: Sequence[Sequence[float]], winner: int | None) -> tuple[float, float]:
    """Drama and uncertainty of a game from each player's value (-1 to 1) after every player's event.

    Drama (Ludii's): over the states where the eventual winner's value is not
    the highest, the mean of the gap between the highest value and the
    winner's, halved to lie in 0..1; 0 when the winner always led or tied;
    NaN for a draw. Uncertainty: over all those states, the mean of 1 minus
    half the gap between the two highest values (1: level all along).

    >>> drama_and_uncertainty([[0.0, 0.0], [-0.5, 0.5], [1.0, -1.0]], 0)  # behind once, by 1
    (0.5, 0.5)
    """
    if not values:
        return math.nan, math.nan
    gaps = []
    behind = []
    for row in values:
        top = sorted(row, reverse=True)
        gaps.append(1 - (top[0] - top[1]) / 2 if len(top) > 1 else 0.0)
        if winner is not None and row[winner] < top[0]:
            behind.append((top[0] - row[winner]) / 2)
    uncertainty = sum(gaps) / len(gaps)
    if winner is None:
        return math.nan, uncertainty
    return (sum(behind) / len(behind) if behind else 0.0), uncertainty


# --- figures of one slice ------------------------------------------------------------------


def feel_figures(data: Data) -> list[Figure]:
    """The game-feel table, the per-agent results of a mixed pairing, and the game's trajectories."""
    out = [_feel(data)]
    agents = _agents(data)
    if agents is not None:
        out.append(agents)
    out.extend(trajectories(data))
    return out


def _has_columns(data: Data) -> bool:
    names = {r[0] for r in data.sql("SELECT column_name FROM (DESCRIBE SELECT * FROM g)")}
    return set(FEEL_COLUMNS) <= names


def _feel(data: Data) -> Figure:
    rows: list[list[Any]] = []
    if _has_columns(data):
        per = data.sql(
            """SELECT any_value(decisions), any_value(branching), any_value(decision_moves),
                      any_value(drama), any_value(uncertainty), any_value(lead_changes),
                      any_value(repetition) FROM g GROUP BY game ORDER BY game"""
        )
        names = [
            "decisions per game",
            "branching factor (mean legal actions at a decision)",
            "decision moves (share of decisions with a choice)",
            "drama (won games)",
            "uncertainty",
            "lead changes per game",
            "repetition (share of positions seen before)",
        ]
        for k, name in enumerate(names):
            values = [float(r[k]) for r in per if r[k] is not None and not math.isnan(float(r[k]))]
            rows.append([name, len(values), *mean_interval(values)])
    duration = data.sql(
        "SELECT component, game, sum(value) FROM e WHERE kind = ? GROUP BY component, game ORDER BY 1, 2",
        DURATION,
    )
    for unit in dict.fromkeys(r[0] for r in duration):
        values = [float(r[2]) for r in duration if r[0] == unit]
        rows.insert(1, [f"duration ({unit})", len(values), *mean_interval(values)])
    return Figure(
        f"{data.prefix}feel",
        "Game feel (Ludii's measures)",
        ["measure", "games", "mean", "low", "high"],
        rows,
        note="One value per game; mean with its 95% t interval over the games. Drama, uncertainty and "
        "lead changes use the game's own evaluation after every player's event.",
    )


def scores_by_agent(data: Data) -> dict[str, tuple[int, int, int]]:
    """Each agent's (wins, draws, losses) over the seats it sat in."""
    rows = data.sql(
        """SELECT agent, count(*) FILTER (WHERE won), count(*) FILTER (WHERE draw),
                  count(*) FILTER (WHERE NOT won AND NOT draw) FROM g GROUP BY agent ORDER BY agent"""
    )
    return {str(a): (int(w), int(d), int(lo)) for a, w, d, lo in rows}


def head_to_head(data: Data, first: str, second: str) -> tuple[int, int, int]:
    """Games one seat of ``first`` and one of ``second`` played: (``first`` won, drawn, ``second`` won)."""
    row = data.sql(
        """SELECT count(DISTINCT game) FILTER (WHERE agent = ? AND won),
                  count(DISTINCT game) FILTER (WHERE draw),
                  count(DISTINCT game) FILTER (WHERE agent = ? AND won) FROM g""",
        first,
        second,
    )[0]
    return int(row[0]), int(row[1]), int(row[2])


def _agents(data: Data) -> Figure | None:
    """Who won, agent by agent, when the pairing holds different agents."""
    by = scores_by_agent(data)
    if len(by) < 2:
        return None
    table = []
    for agent, (w, d, lo) in by.items():
        n = w + d + lo
        table.append([agent, n, w, d, lo, *wilson(w, n), (w + d / 2) / n if n else math.nan])
    note = "Win rates with 95% Wilson intervals over every seat the agent sat in (seats rotate)."
    if len(by) == 2 and data.players == 2:
        a, b = by
        wa, drawn, wb = head_to_head(data, a, b)
        p = float(stats.binomtest(wa, wa + wb, 0.5).pvalue) if wa + wb else math.nan
        note += (
            f" {a} won {wa}, {b} won {wb}, {drawn} drawn, of {wa + wb + drawn} games; exact two-sided "
            f"binomial test of {a}'s share of the decided games against 1/2: p = {p:.3g}."
        )
    return Figure(
        f"{data.prefix}agents",
        "Who won: each agent over both seats",
        ["agent", "seats played", "wins", "draws", "losses", "win rate", "low", "high", "score"],
        table,
        bars(table, 5, f"win rate over both seats, {data.games():,} games (95% Wilson interval)"),
        note,
    )


def trajectories(data: Data) -> list[Figure]:
    """One figure per ``series:NAME`` row kind: the mean value at each step, winners and losers apart."""
    found = data.sql(f"SELECT DISTINCT kind FROM e WHERE kind LIKE '{SERIES}%' ORDER BY 1")
    kinds = [str(k) for (k,) in found]
    units = data.sql("SELECT DISTINCT component FROM e WHERE kind = ?", DURATION)
    unit = str(units[0][0]) if len(units) == 1 else "step"
    out = []
    for kind in kinds:
        name = kind[len(SERIES) :]
        rows = data.sql(
            """SELECT e.component, g.won, g.draw, e.value FROM e
               JOIN g ON g.game = e.game AND g.seat = e.seat WHERE e.kind = ? ORDER BY 1""",
            kind,
        )
        steps = list(dict.fromkeys(str(r[0]) for r in rows))
        counts = {step: sum(str(r[0]) == step for r in rows) for step in steps}
        groups: dict[str, dict[str, list[float]]] = {"winners": {}, "losers": {}, "all": {}}
        for step, won, draw, value in rows:
            groups["all"].setdefault(step, []).append(float(value))
            if not draw:
                groups["winners" if won else "losers"].setdefault(step, []).append(float(value))
        table = []
        series: dict[str, list[list[float]]] = {}
        # The plot leaves out the last steps that few games reached: their intervals say nothing.
        plotted = [step for step in steps if counts[step] >= PLOTTED_ROWS]
        for group, by_step in groups.items():
            lines: list[list[float]] = [[], [], []]
            for step in steps:
                m = mean_interval(by_step.get(step, []))
                table.append([_step(step), group, len(by_step.get(step, [])), *m])
                if step in plotted:
                    for i in range(3):
                        lines[i].append(m[i])
            series[group] = lines
        out.append(
            Figure(
                f"{data.prefix}series-{name.replace(' ', '-')}",
                f"Over a game: {name}, per {unit.rstrip('s')}",
                [unit.rstrip("s"), "group", "rows", "mean", "low", "high"],
                table,
                Plot("line", {"labels": [_step(s) for s in plotted], "series": series, "step": unit}, name),
                f"Mean per {unit.rstrip('s')} over the seats of the games that reached it, with its 95% t "
                f"interval; winners and losers of decided games apart. The plot stops before the first "
                f"{unit.rstrip('s')} with fewer than {PLOTTED_ROWS} rows.",
            )
        )
    return out


def _step(text: str) -> str:
    return text.lstrip("0") or "0"


# --- figures across slices -------------------------------------------------------------


def skill_pairings(levels: Sequence[str], players: int) -> list[list[str]]:
    """The pairings of a skill ladder: each level against itself, then each step up, stronger first.

    With three levels or more, also the strongest against the weakest.

    >>> skill_pairings(["random", "rule", "medium"], 2)
    [['random', 'random'], ['rule', 'rule'], ['medium', 'medium'], ['rule', 'random'], \
['medium', 'rule'], ['medium', 'random']]
    """
    out = [[level] * players for level in levels]
    steps = list(zip(levels[1:], levels[:-1], strict=True))
    if len(levels) > 2:
        steps.append((levels[-1], levels[0]))
    out.extend([strong] + [weak] * (players - 1) for strong, weak in steps)
    return out


def across_figures(plan: Plan, datas: Sequence[Data], measures: Measures) -> list[Figure]:
    """Figures over several slices: skill depth when the pairings hold a ladder, and the game's own."""
    out = []
    skill = skill_depth(plan, datas)
    if skill is not None:
        out.append(skill)
    hook = getattr(measures, "across", None)
    if hook is not None:
        out.extend(hook(plan, datas))
    return out


def seat_scores(data: Data, seat: int) -> list[float]:
    """One seat's score in every game of a slice: win 1, draw 1/2, loss 0."""
    rows = data.sql(
        "SELECT CASE WHEN won THEN 1.0 WHEN draw THEN 0.5 ELSE 0.0 END FROM g WHERE seat = ? ORDER BY game",
        seat,
    )
    return [float(v) for (v,) in rows]


def agent_scores(data: Data, agent: str) -> list[float]:
    """An agent's score in every game of a slice where it sat once (win 1, draw 1/2, loss 0)."""
    rows = data.sql(
        """SELECT CASE WHEN won THEN 1.0 WHEN draw THEN 0.5 ELSE 0.0 END FROM g
           WHERE agent = ? ORDER BY game""",
        agent,
    )
    return [float(v) for (v,) in rows]


def skill_depth(plan: Plan, datas: Sequence[Data]) -> Figure | None:
    """Per variant: the first seat's score at each self-play level, the stronger agent's at each step.

    A slice is a level when every seat has the same agent, a step when its
    first agent differs from the others (all alike). Nothing without a step.
    """
    table: list[list[Any]] = []
    for variant in dict.fromkeys(s.variant for s in plan.slices):
        parts = [(s, d) for s, d in zip(plan.slices, datas, strict=True) if s.variant == variant]
        steps = [(s, d) for s, d in parts if len(set(s.agents)) == 2 and len(set(s.agents[1:])) == 1]
        if not steps:
            continue
        label = "" if variant == "default" else f" ({variant})"
        for part, data in parts:
            if len(set(part.agents)) == 1:
                scores = seat_scores(data, 0)
                table.append([f"first seat, {part.agents[0]} v itself{label}", len(scores), *_score(scores)])
        for part, data in steps:
            strong, weak = part.agents[0], part.agents[1]
            scores = agent_scores(data, strong)
            table.append([f"{strong} v {weak}{label}", len(scores), *_score(scores)])
    if not table:
        return None
    return Figure(
        "skill",
        "Skill depth: the first seat's score per level, the stronger agent's per step",
        ["pairing", "games", "score", "low", "high", "p-value"],
        table,
        bars(table, 2, "score: win 1, draw 1/2 (95% interval); the line: even", reference=0.5),
        "Score with its 95% interval over the games (Wilson's when no game was drawn, else Student's t). "
        "p-value: exact two-sided binomial test of the "
        "first seat's (level) or the stronger agent's (step) share of the decided games against 1/2. "
        "Skill matters where each step's score is well above 1/2; luck where it stays near it.",
    )


def score_interval(scores: list[float]) -> tuple[float, float, float]:
    """A mean score (win 1, draw 1/2, loss 0) and its 95% interval.

    Wilson's when no game was drawn (the score is then a proportion, and a
    t interval would shrink to nothing at 0 or 1), else Student's t.

    >>> score_interval([1.0] * 20)[1] < 1
    True
    """
    if all(s in (0.0, 1.0) for s in scores):
        return wilson(int(sum(scores)), len(scores))
    return mean_interval(scores)


def _score(scores: list[float]) -> list[float]:
    """Mean score, its interval, and the binomial p-value of the wins among the decided games."""
    wins = sum(s == 1.0 for s in scores)
    decided = wins + sum(s == 0.0 for s in scores)
    p = float(stats.binomtest(wins, decided, 0.5).pvalue) if decided else math.nan
    return [*score_interval(scores), p]


def rank_correlation(measured: Sequence[float], exact: Sequence[float]) -> tuple[float, float]:
    """Spearman's rank correlation of two rankings (ties get their mean rank) and its p-value."""
    if len(measured) < 3:
        return math.nan, math.nan
    result = stats.spearmanr(measured, exact)
    return float(result.statistic), float(result.pvalue)


# --- drawing ---------------------------------------------------------------------------------


def draw_line(plot: Plot, ax: Any) -> None:
    """A ``line`` plot: each series' mean per step, its interval as a band."""
    labels = plot.data["labels"]
    xs = list(range(len(labels)))
    for i, (name, (values, lows, highs)) in enumerate(plot.data["series"].items()):
        colour = ["#2a6fb0", "#c8553d", "#555"][i % 3]
        ys = [math.nan if v is None else v for v in values]
        ax.plot(xs, ys, label=name, color=colour)
        lo = [math.nan if v is None else v for v in lows]
        hi = [math.nan if v is None else v for v in highs]
        ax.fill_between(xs, lo, hi, color=colour, alpha=0.2)
    step = max(1, len(labels) // 20)
    ax.set_xticks(xs[::step], labels[::step])
    ax.set_xlabel(plot.data.get("step", "step"))
    ax.set_ylabel(plot.xlabel)
    ax.legend()
