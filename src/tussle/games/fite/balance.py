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
  ``turn``, ``move and turn``; ``+ theirs`` when it turned the opponent's dice).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from tussle.balance.measures import Data, Figure, Measures, Row
from tussle.game import Game
from tussle.games.fite.notation import FACE_LOCATION, parse_tactic
from tussle.games.fite.rules import FightRecord, FiteState, turns_theirs
from tussle.record import Record

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
        assert final is not None  # a walk yields the start at least
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
        return [
            data.matrix(
                "power",
                "power_matrix",
                "Super power against super power",
                "The win rate of a fighter with the row's power against one with the column's. Each "
                "fighter's power is an option (power_a, power_b): a variant fills its own pair's cells only.",
            ),
            data.component_wins(
                "power",
                "power_wins",
                "Super powers: win rate of a fighter with the power minus one without",
            ),
            data.shares(
                "power_used",
                "power_used",
                "Super powers: share of the fighters with a power who used it",
            ),
            data.means("power_turn", "power_turn", "Super powers: the turn a power was used, on average"),
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


measures = FiteMeasures()
