"""Who plays whom in a tournament: FITE's single-elimination draw and a Swiss system, as pure functions.

Both the offline tournament between computer agents (:mod:`tussle.tournament`)
and the server's tournaments (:mod:`tussle.server.tournaments`) draw their
rounds here, so that the two follow one reading of the rules.

**Single elimination** (FITE's rule text): the names still in are drawn from a
bag in pairs; a name left over goes through the round by a bye; winners are
drawn anew each round; a drawn game is played again with the seats swapped.

**Swiss** (any two-player game): a fixed number of rounds (by default
``ceil(log2(n))``); each round the entrants are ranked by score and paired
within their score group, the highest first, with the nearest opponent they
have not met yet (backtracking when a choice leaves someone without one, and
allowing a rematch only when no pairing avoids every one); with an odd number,
the lowest-ranked entrant who has not had a bye gets it, and a bye scores a win.
The first seat goes to whoever has had it less often, then to whoever had the
second seat last. Scores: a win 1, a draw 1/2, a loss 0. Standings break ties
by the Buchholz score (the sum of the opponents' scores; a bye adds nothing),
then by the number of wins, then by registration order.

>>> pairs, bye = elimination_round(["ann", "bob", "cid"], random.Random(1))
>>> sorted([*pairs[0], bye])
['ann', 'bob', 'cid']
>>> swiss_rounds(6), swiss_rounds(8), swiss_rounds(9)
(3, 3, 4)
"""

from __future__ import annotations

import math
import random
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)

#: Points for a win, a draw (a shared first place) and a loss; a bye scores a win.
WIN, DRAW, LOSS = 1.0, 0.5, 0.0
#: The most steps the Swiss search may take before it allows rematches (a pairing of a few
#: dozen entrants takes a few hundred; this bounds a pathological history).
SEARCH_STEPS = 20_000


def elimination_round(alive: Sequence[K], bag: random.Random) -> tuple[list[tuple[K, K]], K | None]:
    """One round of FITE's draw: the names shuffled by ``bag``, paired in the order drawn (the first
    of a pair takes the first seat), the last one drawn left over (a bye) when they are odd.

    >>> elimination_round(["a", "b", "c", "d"], random.Random(3))
    ([('d', 'a'), ('c', 'b')], None)
    """
    drawn = list(alive)
    bag.shuffle(drawn)
    bye = drawn.pop() if len(drawn) % 2 else None
    return [(drawn[2 * i], drawn[2 * i + 1]) for i in range(len(drawn) // 2)], bye


def replay_seats(a: K, b: K, attempt: int) -> tuple[K, K]:
    """Who sits where in a pairing's ``attempt``-th game (1 first): the seats swap at each replay of
    a drawn game, so that neither keeps the first seat.

    >>> replay_seats("ann", "bob", 1), replay_seats("ann", "bob", 2)
    (('ann', 'bob'), ('bob', 'ann'))
    """
    return (a, b) if attempt % 2 else (b, a)


def swiss_rounds(entrants: int) -> int:
    """The default number of rounds of a Swiss of ``entrants``: enough for one to win them all."""
    return max(1, math.ceil(math.log2(max(entrants, 2))))


@dataclass
class Record(Generic[K]):
    """One entrant's Swiss history: its points, opponents (in order), seats taken and byes."""

    key: K
    order: int
    """Registration order: the last tiebreak, and the first round's ranking."""
    points: float = 0.0
    wins: int = 0
    opponents: list[K] = field(default_factory=list)
    seats: list[int] = field(default_factory=list)
    byes: int = 0

    @property
    def first_seats(self) -> int:
        return self.seats.count(0)


@dataclass(frozen=True)
class Game(Generic[K]):
    """A finished two-player game of a Swiss: who sat first and second, and the first's points."""

    first: K
    second: K
    points: float
    """The first seat's points: 1 (won), 0.5 (drawn) or 0 (lost); the second gets the rest."""


@dataclass(frozen=True)
class Standing(Generic[K]):
    key: K
    rank: int
    points: float
    buchholz: float
    wins: int
    byes: int
    opponents: tuple[K, ...]


def records(entrants: Sequence[K], games: Sequence[Game[K]], byes: Sequence[K]) -> dict[K, Record[K]]:
    """Each entrant's history from the games played and the byes given (in the order played)."""
    out = {k: Record(k, i) for i, k in enumerate(entrants)}
    for g in games:
        first, second = out[g.first], out[g.second]
        first.points += g.points
        second.points += 1.0 - g.points
        first.wins += g.points == WIN
        second.wins += g.points == LOSS
        first.opponents.append(g.second)
        second.opponents.append(g.first)
        first.seats.append(0)
        second.seats.append(1)
    for k in byes:
        out[k].points += WIN
        out[k].wins += 1
        out[k].byes += 1
    return out


def standings(entrants: Sequence[K], games: Sequence[Game[K]], byes: Sequence[K]) -> list[Standing[K]]:
    """The table: points, then Buchholz, then wins, then registration order; tied entrants (equal
    in all but the order) share a rank.

    >>> g = [Game("a", "b", WIN), Game("c", "d", DRAW)]
    >>> [(s.key, s.rank, s.points, s.buchholz) for s in standings("abcd", g, [])]
    [('a', 1, 1.0, 0.0), ('c', 2, 0.5, 0.5), ('d', 2, 0.5, 0.5), ('b', 4, 0.0, 1.0)]
    """
    recs = records(entrants, games, byes)
    buchholz = {k: sum(recs[o].points for o in r.opponents) for k, r in recs.items()}
    ordered = sorted(recs.values(), key=lambda r: (-r.points, -buchholz[r.key], -r.wins, r.order))
    out: list[Standing[K]] = []
    for i, r in enumerate(ordered):
        tied = out and (out[-1].points, out[-1].buchholz, out[-1].wins) == (r.points, buchholz[r.key], r.wins)
        rank = out[-1].rank if tied else i + 1
        out.append(Standing(r.key, rank, r.points, buchholz[r.key], r.wins, r.byes, tuple(r.opponents)))
    return out


def swiss_round(
    entrants: Sequence[K], games: Sequence[Game[K]], byes: Sequence[K]
) -> tuple[list[tuple[K, K]], K | None]:
    """The next round's pairings (first seat first) and its bye, from the history so far.

    >>> swiss_round("abcd", [], [])
    ([('a', 'c'), ('d', 'b')], None)
    >>> pairs, bye = swiss_round("abcde", [Game("a", "c", WIN), Game("d", "b", LOSS)], ["e"])
    >>> bye != "e", all(set(p) not in ({"a", "c"}, {"b", "d"}) for p in pairs)
    (True, True)
    """
    recs = records(entrants, games, byes)
    ranked = [s.key for s in standings(entrants, games, byes)] if games or byes else list(entrants)
    bye = None
    if len(ranked) % 2:
        # The lowest-ranked who has had no bye (everyone has had one: the lowest-ranked).
        bye = next((k for k in reversed(ranked) if recs[k].byes == 0), ranked[-1])
        ranked.remove(bye)
    pairs = _pair(ranked, recs, rematches=False) or _pair(ranked, recs, rematches=True)
    assert pairs is not None  # with rematches allowed any even list pairs
    if not games and not byes:
        # The first round alternates the first seat down the boards, as Swiss events do.
        return [(a, b) if i % 2 == 0 else (b, a) for i, (a, b) in enumerate(pairs)], bye
    return [_seated(a, b, recs) for a, b in pairs], bye


def _pair(ranked: list[K], recs: dict[K, Record[K]], *, rematches: bool) -> list[tuple[K, K]] | None:
    """Pair ``ranked`` top down: each unpaired entrant with the nearest below it it has not met
    (score groups are runs of equal points in this order, so the nearest is in its group when
    one is free there); backtracks, and gives up (None) after :data:`SEARCH_STEPS` steps."""
    steps = 0

    def search(left: list[K]) -> list[tuple[K, K]] | None:
        nonlocal steps
        if not left:
            return []
        top, rest = left[0], left[1:]
        # The first round (nobody has points) pairs the top half with the bottom half, as Swiss
        # events do; later rounds the nearest in the order.
        candidates = rest
        if all(recs[k].points == 0 and not recs[k].opponents for k in left):
            half = len(left) // 2
            candidates = rest[half - 1 :] + rest[: half - 1]
        for other in candidates:
            steps += 1
            if steps > SEARCH_STEPS:
                return None
            if not rematches and other in recs[top].opponents:
                continue
            tail = search([k for k in rest if k != other])
            if tail is not None:
                return [(top, other), *tail]
        return None

    return search(ranked)


def _seated(a: K, b: K, recs: dict[K, Record[K]]) -> tuple[K, K]:
    """Who of a pair takes the first seat: fewer first seats so far, then the one who sat second
    last time, then the higher ranked (``a``)."""
    ra, rb = recs[a], recs[b]
    if ra.first_seats != rb.first_seats:
        return (a, b) if ra.first_seats < rb.first_seats else (b, a)
    if ra.seats and rb.seats and ra.seats[-1] != rb.seats[-1]:
        return (a, b) if ra.seats[-1] == 1 else (b, a)
    return a, b
