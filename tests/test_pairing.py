"""The tournaments' pairings (tussle.pairing): FITE's elimination draw and the Swiss system's rules,
checked over many simulated tournaments."""

from __future__ import annotations

import random

import pytest

from tussle.pairing import DRAW, LOSS, WIN, Game, elimination_round, standings, swiss_round, swiss_rounds


@pytest.mark.parametrize("n", range(2, 12))
def test_elimination_draws_every_name_once_and_a_bye_only_when_odd(n: int) -> None:
    names = [f"e{i}" for i in range(n)]
    draws = set()
    for seed in range(30):
        pairs, bye = elimination_round(names, random.Random(seed))
        drawn = [x for p in pairs for x in p] + ([bye] if bye is not None else [])
        assert sorted(drawn) == sorted(names)
        assert (bye is not None) == (n % 2 == 1)
        draws.add(tuple(pairs))
    assert len(draws) > 1  # the bag is shuffled, not read in order


@pytest.mark.parametrize("n", [2, 3, 5, 6, 7, 8, 11, 16])
def test_swiss_rules_hold_over_simulated_tournaments(n: int) -> None:
    rng = random.Random(n)
    for _ in range(20):
        entrants = list(range(1, n + 1))
        rounds = swiss_rounds(n) if n > 2 else 1
        games: list[Game[int]] = []
        byes: list[int] = []
        for _round in range(min(rounds, n - 1)):
            pairs, bye = swiss_round(entrants, games, byes)
            seen = [x for p in pairs for x in p] + ([bye] if bye is not None else [])
            assert sorted(seen) == entrants, "everyone plays once a round, or has the bye"
            assert (bye is not None) == (n % 2 == 1)
            if bye is not None:
                assert bye not in byes, "at most one bye per entrant"
                byes.append(bye)
            met = {frozenset((g.first, g.second)) for g in games}
            assert not [p for p in pairs if frozenset(p) in met], "no rematch while rounds < n/2"
            if games:
                firsts = {k: sum(g.first == k for g in games) for k in entrants}
                assert all(firsts[a] <= firsts[b] for a, b in pairs), "the first seat to who had it less"
            games += [Game(a, b, rng.choice([WIN, DRAW, LOSS])) for a, b in pairs]
        table = standings(entrants, games, byes)
        points = {k: 0.0 for k in entrants}
        for g in games:
            points[g.first] += g.points
            points[g.second] += 1 - g.points
        for k in byes:
            points[k] += WIN
        opponents = {
            k: [g.second if g.first == k else g.first for g in games if k in (g.first, g.second)]
            for k in entrants
        }
        for s in table:
            assert s.points == points[s.key]
            assert s.buchholz == sum(points[o] for o in opponents[s.key])
        keys = [(-s.points, -s.buchholz, -s.wins) for s in table]
        assert keys == sorted(keys), "ranked by points, then Buchholz, then wins"


def test_swiss_pairs_within_score_groups() -> None:
    # After round 1 of 8 (1 beat 5, 6 beat 2, 3 beat 7, 8 beat 4): the winners meet the winners.
    games = [Game(1, 5, WIN), Game(6, 2, WIN), Game(3, 7, WIN), Game(8, 4, WIN)]
    pairs, bye = swiss_round(range(1, 9), games, [])
    winners = {1, 6, 3, 8}
    assert bye is None
    assert all((a in winners) == (b in winners) for a, b in pairs)


def test_a_second_bye_goes_to_the_next_lowest() -> None:
    pairs, bye = swiss_round([1, 2, 3], [Game(1, 2, WIN)], [3])
    assert bye == 2 and pairs in ([(1, 3)], [(3, 1)])
