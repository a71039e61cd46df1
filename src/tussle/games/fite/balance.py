"""FITE's balance measures (``tussle balance fite``): super powers, locations, splits and tactics.

Every fight leaves its whole story in ``last_fight`` (a new dict per fight), so
one walk through the record reads each fight once, as it is made. The rows
(docs/games/fite.md, "Balance measures"):

- ``power``: the fighter's super power (or ``none``), one row per seat;
- ``power_used``: the power, 1 if the fighter used it in the game, else 0 (seats with a power);
- ``power_turn``: the power, with the turn it was used (Swift: the turn it moved);
- ``location``: where the fighter fought (after any Swift move), 1 per turn;
- ``location_result``: the same location, the turn's hits dealt minus hits taken;
- ``location_pair``: own location ``v`` the opponent's (``tac v off``), the same value;
- ``swift``: a Swift move, ``off>tac`` (placed, moved to), with the turn's hits dealt minus taken;
- ``split``: the location, the share of the fighter's dice put into the offence;
- ``tactic``: what the fighter did at the tactical step (``pass``, ``move``,
  ``turn``, ``move and turn``; ``+ theirs`` when it turned the opponent's dice);
- ``series:dice left``: after each turn's fight (component: the turn), each fighter's dice
  (a trajectory, docs/balance.md);
- ``duration`` (seat -1): component ``turns``, the turns fought.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from tussle.balance.feel import DURATION, SERIES
from tussle.balance.measures import Data, Figure, Measures, Plot, Row
from tussle.balance.stats import mean_interval
from tussle.game import Game
from tussle.games.fite.notation import FACE_LOCATION, parse_tactic
from tussle.games.fite.rules import FightRecord, FiteState, turns_theirs
from tussle.record import Record

if TYPE_CHECKING:
    from tussle.balance.play import Plan

#: The locations by their notation names, as fights name them.
LOCATION_NAMES = ("off", "def", "tac")


def tactic_kind(text: str, player: int) -> str:
    """What a tactical choice, as the fight shows it, did: its kind for the ``tactic`` rows.

    >>> tactic_kind("pass", 0), tactic_kind("move off>def 6,5", 0), tactic_kind("turn off 6 def 1", 1)
    ('pass', 'move', 'turn')
    >>> tactic_kind("move def>off 6 and turn off 1,1", 0), tactic_kind("turn B def 6", 0)
    ('move and turn', 'turn + theirs')
    """
    action = parse_tactic(text, player)
    _, source, _moved, turned = action
    parts = (["move"] if source >= 0 else []) + (["turn"] if turned else [])
    kind = " and ".join(parts) or "pass"
    return kind + " + theirs" if turns_theirs(action) else kind


class FiteMeasures(Measures):
    """What a FITE game did with its super powers, locations, splits and tactical options."""

    def events(self, game: Game, record: Record) -> Iterable[Row]:
        return list(self._rows(record))

    def _rows(self, record: Record) -> Iterator[Row]:
        last: FightRecord | None = None
        final: FiteState | None = None
        turns = 0
        for state in record.walk():
            assert isinstance(state, FiteState)
            if final is None:
                for p in (0, 1):
                    yield Row(p, "power", state.powers[p] or "none")
            final = state
            fight = state.last_fight
            if fight is None or fight is last:
                continue
            last = fight
            yield from self._fight_rows(fight, state)
            turns = fight["turn"]
            for p in (0, 1):
                yield Row(p, SERIES + "dice left", f"{turns:03d}", float(state.dice[p]))
        assert final is not None  # a walk yields the start at least
        yield Row(-1, DURATION, "turns", float(turns))
        for p in (0, 1):
            power = final.powers[p]
            if power:
                yield Row(p, "power_used", power, float(final.used[p]))

    def _fight_rows(self, fight: FightRecord, state: FiteState) -> Iterator[Row]:
        turn = fight["turn"]
        hits = fight["hits"]
        places = fight["locations"]
        for p in (0, 1):
            where = places[p]
            swing = float(hits[1 - p] - hits[p])
            yield Row(p, "location", where)
            yield Row(p, "location_result", where, swing)
            yield Row(p, "location_pair", f"{where} v {places[1 - p]}", swing)
            off, dfn = fight["split"][p]
            yield Row(p, "split", where, off / (off + dfn))
            power = fight["powers"][p]
            if power:
                yield Row(p, "power_turn", power, float(turn))
            if fight["swift"][p] is not None:
                # The placement face is still the turn's when its fight is scored.
                placed = LOCATION_NAMES[FACE_LOCATION[state.face[p]]]
                yield Row(p, "swift", f"{placed}>{where}", swing)
            choice = fight["tactical"]["choices"][p]
            if choice is not None:
                yield Row(p, "tactic", tactic_kind(choice, p))

    def figures(self, data: Data) -> list[Figure]:
        powers = {name for (name,) in data.sql("SELECT DISTINCT component FROM e WHERE kind = 'power'")}
        # Fighters without powers (the default) would get a 1x1 matrix and a lone "none" row: a
        # power is compared only where fighters brought different ones, and its use shown only
        # where one was brought.
        compared = len(powers) > 1
        brought = bool(powers - {"none"})
        return [
            *self.power_figures(data, compared, brought),
            data.by_outcome(
                "location",
                "location_turns",
                "Locations: turns fought at each, winners against losers",
            ),
            data.means(
                "location_result",
                "location_result",
                "Locations: dice knocked out minus dice lost in a turn fought there",
            ),
            data.means(
                "location_pair",
                "location_pair",
                "Location against the opponent's: dice knocked out minus dice lost in the turn",
            ),
            data.means(
                "swift",
                "swift_moves",
                "Swift moves (placed>moved to): dice knocked out minus dice lost in the turn",
            ),
            data.means("split", "split", "Splits: share of the dice put into the offence, by location"),
            data.by_outcome(
                "tactic",
                "tactic_choices",
                "Tactical step: choices per game, winners against losers",
            ),
        ]

    @staticmethod
    def power_figures(data: Data, compared: bool, brought: bool) -> list[Figure]:
        """The super powers' figures that the slice's powers give a meaning to."""
        figures = []
        if compared:
            figures += [
                data.matrix(
                    "power",
                    "power_matrix",
                    "Super power against super power",
                    "The win rate of a fighter with the row's power against one with the column's. "
                    "Each fighter's power is an option (power_a, power_b): a variant fills its own "
                    "pair's cells only.",
                ),
                data.component_wins(
                    "power",
                    "power_wins",
                    "Super powers: win rate of a fighter with the power minus one without",
                ),
            ]
        if brought:
            figures += [
                data.shares(
                    "power_used",
                    "power_used",
                    "Super powers: share of the fighters with a power who used it",
                ),
                data.means("power_turn", "power_turn", "Super powers: the turn a power was used, on average"),
            ]
        return figures

    def across(self, plan: Plan, datas: Sequence[Data]) -> list[Figure]:
        """The exact dice odds, and per pairing of agents the super powers ranked against the solver's."""
        out = [odds_figure()]
        for pairing in dict.fromkeys(s.pairing for s in plan.slices):
            parts = [
                d
                for s, d in zip(plan.slices, datas, strict=True)
                if s.pairing == pairing and set(s.options) <= EXACT_OPTIONS
            ]
            figure = power_ranking(pairing, parts)
            if figure is not None:
                out.append(figure)
        return out


measures = FiteMeasures()

#: The options under which the solver's values are the game's (the model plays no other).
EXACT_OPTIONS = frozenset({"power_a", "power_b", "turn_limit"})


def odds_rows(edge: int = 0, attack_turns: int = 0, defence_turns: int = 0) -> list[list[Any]]:
    """The solver's exact hit odds for every split a fighter can make: attack, defence, expected hits, P(k).

    ``edge`` is the defence's modifiers minus the offence's; ``*_turns`` the
    dice each pool's plan turns (the lowest showing 1 to 3, see the solver).

    >>> row = odds_rows()[0]  # one die against one: it gets through 15 times in 36
    >>> row[:2], round(row[3], 4), round(row[4], 4)
    ([1, 1], 0.5833, 0.4167)
    """
    from tussle.games.fite.solver import MAX_POOL, START_DICE, hit_chances

    rows: list[list[Any]] = []
    for attack in range(1, MAX_POOL + 1):
        for defence in range(1, START_DICE - attack + 1):
            chances = hit_chances(attack, attack_turns, defence, defence_turns, edge)
            expected = sum(k * p for k, p in enumerate(chances))
            padded = [chances[k] if k < len(chances) else 0.0 for k in range(MAX_POOL + 1)]
            rows.append([attack, defence, expected, *padded])
    return rows


def odds_figure(edge: int = 0, attack_turns: int = 0, defence_turns: int = 0) -> Figure:
    """The exact dice odds as a figure: the table, and a heatmap of the expected hits."""
    from tussle.games.fite.solver import MAX_POOL

    rows = odds_rows(edge, attack_turns, defence_turns)
    attacks = sorted({r[0] for r in rows})
    defences = sorted({r[1] for r in rows})
    cells = {(r[0], r[1]): r[2] for r in rows}
    some = {(r[0], r[1]): f"1+: {1 - r[3]:.0%}" for r in rows}  # the chance of at least one hit
    return Figure(
        "fite-odds",
        f"Exact dice odds: hits of the attack on the defence "
        f"(edge {edge:+d}, turns {attack_turns}/{defence_turns})",
        ["attack dice", "defence dice", "expected hits", *[f"P({k} hits)" for k in range(MAX_POOL + 1)]],
        rows,
        Plot(
            "heatmap",
            {
                "rows": [str(a) for a in attacks],
                "cols": [str(d) for d in defences],
                "values": [[cells.get((a, d), math.nan) for d in defences] for a in attacks],
                "counts": [[some.get((a, d), "") for d in defences] for a in attacks],
                "colorbar": "expected hits on the defender",
                "vmax": float(MAX_POOL),
            },
            "defence dice (columns); attack dice (rows)",
        ),
        "Exact, from the solver's hit_chances: every roll of both pools counted (docs/fite-solver.md). "
        "Edge: the defence's modifiers minus the attack's (a location's or a power's +1). "
        "`tussle fite-odds` prints it for any edge and plan.",
    )


def exact_value(mine: str, theirs: str) -> float:
    """The solver's value (chance to win minus to lose) at the start of a fighter with power ``mine``."""
    from tussle.games.fite.solved import shipped_strategy
    from tussle.games.fite.solver import START_DICE

    return shipped_strategy()[(START_DICE, START_DICE, mine, theirs)].value


def power_ranking(pairing: str, datas: Sequence[Data]) -> Figure | None:
    """Each super power's measured score against the solver's exact one, over the games of ``datas``.

    A fighter's score is 1 for a win, 1/2 for a draw; its exact score against
    a power ``q`` is ``(1 + V) / 2`` with ``V`` the solver's value of the
    start. Both are averaged over the same fighters (the opponents they met);
    Spearman's rank correlation compares the two rankings. None with fewer
    than three powers.
    """
    from tussle.balance.feel import rank_correlation

    scores: dict[str, list[float]] = {}
    exact: dict[str, list[float]] = {}
    for data in datas:
        rows = data.sql(
            """WITH pw AS (SELECT game, seat, component FROM e WHERE kind = 'power')
               SELECT a.component, b.component, CASE WHEN g.won THEN 1.0 WHEN g.draw THEN 0.5 ELSE 0.0 END
               FROM g JOIN pw a ON a.game = g.game AND a.seat = g.seat
               JOIN pw b ON b.game = g.game AND b.seat <> g.seat ORDER BY g.game, g.seat"""
        )
        for mine, theirs, score in rows:
            scores.setdefault(mine, []).append(float(score))
            exact.setdefault(mine, []).append((1 + exact_value(mine, theirs)) / 2)
    if len(scores) < 3:
        return None
    powers = sorted(scores)
    measured = [mean_interval(scores[p]) for p in powers]
    solved = [sum(exact[p]) / len(exact[p]) for p in powers]
    rho, p_value = rank_correlation([m[0] for m in measured], solved)
    order = sorted(range(len(powers)), key=lambda i: -measured[i][0])
    table = [[powers[i], len(scores[powers[i]]), *measured[i], solved[i]] for i in order]
    return Figure(
        f"power-ranking-{pairing.replace(',', '-').replace(':', '-')}",
        f"Super powers ranked ({pairing}): measured score against the solver's exact one",
        ["power", "fighters", "measured score", "low", "high", "exact score"],
        table,
        Plot(
            "grouped",
            {
                "labels": [r[0] for r in table],
                "series": {
                    "measured": [[r[2] for r in table], [r[3] for r in table], [r[4] for r in table]],
                    "exact (solver)": [[r[5] for r in table]] * 3,
                },
            },
            "score of a fighter with the power: win 1, draw 1/2 (95% t interval)",
        ),
        f"Spearman's rank correlation of the measured and the exact scores: {rho:.3f} (p = {p_value:.3g}); "
        "ties (none and Swift, Brutal and Fast, Aggressive and Tough are equal in the solution) take their "
        "mean rank. Exact: (1 + V) / 2 for the solver's value V of the start, averaged over the same "
        "opponents. The solver's model simplifies the tactical step (docs/fite-solver.md).",
    )
