"""Fight!'s balance measures: the rows of a game agree with its record, the counterfactual of
"an ability changed the winner" is exact, and the figures give known answers on hand-made rows."""

from __future__ import annotations

import math
from collections import Counter
from typing import Any

import duckdb
import pytest

from balance_rows import GAME_FIELDS
from tussle.agents import make_agent
from tussle.balance.measures import Data, Figure, Row
from tussle.balance.play import create_tables
from tussle.game import CHANCE
from tussle.games.fight.balance import measures
from tussle.games.fight.rules import Fight, FightState
from tussle.record import Record
from tussle.runner import play_game

#: The kinds read off each Fight's account in the observations.
TABLE_KINDS = ("main", "family", "boost", "activated", "scored", "killed", "arena")


def seeded_game(players: int, seed: int, spec: str = "random") -> tuple[Fight, Record]:
    game = Fight(players=players)
    agents = [make_agent(spec, game, p, seed=seed * 10 + p) for p in range(players)]
    _, record = play_game(game, agents, seed=seed)
    return game, record


def rows_from_observations(record: Record) -> Counter[tuple[int, str, str]]:
    """The table rows as each seat's own observation tells them, Fight by Fight."""
    expected: Counter[tuple[int, str, str]] = Counter()
    seen = 0
    for state in record.walk():
        # Every seat knows its own Boost, scored or taken face down: read each from its owner's view.
        views = [state.observation(q) for q in range(record.num_players)]
        last = views[0]["last_fight"]
        if last is None or last["fight"] == seen:
            continue
        seen = last["fight"]
        if last["winner"] is not None:
            expected[last["winner"], "arena", last["arena"]["name"]] += 1
        for q in range(record.num_players):
            seat = views[q]["last_fight"]["seats"][q]
            if seat["main"] is not None:
                expected[q, "main", seat["main"]["name"]] += 1
                expected[q, "family", seat["main"]["family"]] += 1
                if seat["main"]["killed"]:
                    expected[q, "killed", seat["main"]["name"]] += 1
            boost = seat["boost"]
            if boost is not None:
                expected[q, "boost", boost["name"]] += 1
                if boost["activated"]:
                    expected[q, "activated", boost["name"]] += 1
                elif boost["scored_by"] == q:
                    expected[q, "scored", boost["name"]] += 1
    return expected


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (2, 2), (3, 3), (4, 4), (6, 5)])
def test_rows_match_the_record(players: int, seed: int) -> None:
    game, record = seeded_game(players, seed)
    rows = list(measures.events(game, record))
    got = Counter((r.seat, r.kind, r.component) for r in rows if r.kind in TABLE_KINDS)
    assert got == rows_from_observations(record)
    # Exactly one Main per seat per Fight while hands last (with 2 players they always do).
    mains = Counter(r.seat for r in rows if r.kind == "main")
    if players == 2:
        assert mains == {0: 7, 1: 7}
    assert all(count <= 7 for count in mains.values())
    # One arena_taken row per Fight; one tie row per Arena taken; one ability row per activation.
    kinds = Counter(r.kind for r in rows)
    assert kinds["arena_taken"] == 7
    assert kinds["arena_tie"] == kinds["arena"] == sum(r.value for r in rows if r.kind == "arena_taken")
    assert kinds["ability_changed_winner"] == kinds["ability_won_fight"] == kinds["activated"]
    changed = [r.value for r in rows if r.kind == "ability_changed_winner"]
    won = [r.value for r in rows if r.kind == "ability_won_fight"]
    assert all(w <= c for w, c in zip(won, changed, strict=True))
    assert all(r.value in (0.0, 1.0) for r in rows if r.kind in ("ability_changed_winner", "arena_tie"))
    # The Glory rows add up to each seat's final Glory.
    final = record.final_state()
    assert isinstance(final, FightState)
    for p in range(players):
        glory = sum(r.value for r in rows if r.kind == "glory" and r.seat == p)
        assert glory == final.glory(p)
        arenas = sum(r.value for r in rows if r.kind == "arena" and r.seat == p)
        assert arenas == next(
            r.value for r in rows if r.kind == "glory" and r.seat == p and r.component == "arenas"
        )


def test_rows_of_a_game_between_rule_agents() -> None:
    game, record = seeded_game(2, 7, "rule")
    rows = list(measures.events(game, record))
    got = Counter((r.seat, r.kind, r.component) for r in rows if r.kind in TABLE_KINDS)
    assert got == rows_from_observations(record)


@pytest.mark.parametrize(("players", "seed"), [(2, 11), (3, 12), (5, 13), (6, 14)])
def test_resolving_again_with_nothing_left_out_gives_the_fight_itself(players: int, seed: int) -> None:
    # The counterfactual reruns the rules' own effects: with no activation left out it must
    # rebuild every Fight's end exactly (powers, kills, winner, ties to the right 1st player).
    _, record = seeded_game(players, seed)
    last = None
    first = 0
    checked = 0
    for state in record.walk():
        assert isinstance(state, FightState)
        report = state.last_fight
        if report is not None and report is not last:
            last = report
            again = state.resolve_again(report, first)
            assert tuple(again.mains) == report.mains
            assert tuple(again.powers) == report.powers
            assert again.leader() == report.winner
            checked += 1
        first = state.first
    assert checked == 7


def crafted(
    boost0: str,
    action0: str,
    boost1: str = "Nebula Knight",
    arena: str = "Grand Colosseum",
    main1: str = "Tin Titan",
) -> Record:
    """One Fight of a 2-player game: p0 Mammoth (Animal 29) against p1 ``main1`` (Tin Titan: Robot 29)."""
    hand0 = ["Mammoth", boost0, "Stray Cadet", "Pack Rat", "Dormouse"]
    fillers = [c for c in ("Blip", "Glorp", "Zix", "Quasar") if c not in (main1, boost1)]
    hand1 = [main1, boost1, *fillers[:3]]
    events: list[tuple[int, str]] = []
    for a, b in zip(hand0, hand1, strict=True):
        events += [(CHANCE, f"draw {a}"), (CHANCE, f"draw {b}")]
    events += [(CHANCE, "draw Star Warden"), (CHANCE, "draw Old Gambler"), (CHANCE, "draw Calculon Unit")]
    events += [(CHANCE, f"arena {arena}"), (CHANCE, "arena Sunset Pit"), (CHANCE, "top Human")]
    events += [(0, f"main Mammoth boost {boost0}"), (1, f"main {main1} boost {boost1}")]
    events += [(0, action0), (1, "activate")]
    return Record("fight", num_players=2, players=["a", "b"], events=events)


def test_an_ability_that_changes_the_winner() -> None:
    # Highest power wins. p0's Knight Errant: Mammoth 39; p1's Nebula Knight: Tin Titan 44, p1 wins.
    # Without Nebula Knight p0 would win 39 to 29: it changed the winner. Without Knight Errant
    # p1 still wins 44 to 29: it did not.
    record = crafted("Knight Errant", "activate")
    rows = list(measures.events(Fight(), record))
    assert Row(1, "arena", "Grand Colosseum", 4.0) in rows
    assert [r for r in rows if r.kind == "ability_changed_winner"] == [
        Row(0, "ability_changed_winner", "Knight Errant", 0.0),
        Row(1, "ability_changed_winner", "Nebula Knight", 1.0),
    ]
    assert [r for r in rows if r.kind == "ability_won_fight"] == [
        Row(0, "ability_won_fight", "Knight Errant", 0.0),
        Row(1, "ability_won_fight", "Nebula Knight", 1.0),
    ]
    assert Row(-1, "arena_tie", "Grand Colosseum", 0.0) in rows
    assert {(r.seat, r.kind, r.component) for r in rows if r.kind in TABLE_KINDS} == {
        (0, "main", "Mammoth"),
        (1, "main", "Tin Titan"),
        (0, "family", "Animal"),
        (1, "family", "Robot"),
        (0, "boost", "Knight Errant"),
        (1, "boost", "Nebula Knight"),
        (0, "activated", "Knight Errant"),
        (1, "activated", "Nebula Knight"),
        (1, "arena", "Grand Colosseum"),
    }


def test_an_ability_that_breaks_a_tie() -> None:
    # p0 scores its Boost. 29 against 29 is a tie that the 1st player (p0) would take; Nebula
    # Knight's +15 gives the Arena to p1 instead.
    record = crafted("Knight Errant", "score")
    rows = list(measures.events(Fight(), record))
    assert Row(0, "scored", "Knight Errant") in rows
    assert not any(r.kind == "activated" and r.seat == 0 for r in rows)
    assert [r for r in rows if r.kind == "ability_changed_winner"] == [
        Row(1, "ability_changed_winner", "Nebula Knight", 1.0)
    ]
    assert Row(1, "ability_won_fight", "Nebula Knight", 1.0) in rows


def test_an_ability_whose_effect_depends_on_the_one_before() -> None:
    # Effects run in order on the powers as they are: p0's Knight Errant makes Mammoth 39, then
    # p1's Nine-Eater (all 9s become 0) makes it 30 and Tin Titan 20. On the Colosseum (highest
    # power) p0 wins; without Knight Errant both are 20, a tie p0 takes; without Nine-Eater 39
    # against 29: neither changed the winner. On the Bone Yard (lowest power of 10 or more) p1
    # wins with 20; without Knight Errant the tie at 20 goes to p0, so Knight Errant changed the
    # winner (against its owner); without Nine-Eater 29 still beats 39.
    rows = list(measures.events(Fight(), crafted("Knight Errant", "activate", "Nine-Eater")))
    assert Row(0, "arena", "Grand Colosseum", 4.0) in rows
    assert [r.value for r in rows if r.kind == "ability_changed_winner"] == [0.0, 0.0]
    rows = list(measures.events(Fight(), crafted("Knight Errant", "activate", "Nine-Eater", "Bone Yard")))
    assert Row(1, "arena", "Bone Yard", 8.0) in rows
    assert [r for r in rows if r.kind == "ability_changed_winner"] == [
        Row(0, "ability_changed_winner", "Knight Errant", 1.0),
        Row(1, "ability_changed_winner", "Nine-Eater", 0.0),
    ]
    assert [r.value for r in rows if r.kind == "ability_won_fight"] == [0.0, 0.0]


def test_a_tie_is_a_row() -> None:
    # Shallow Pool: lowest power wins. 29 against 29, and Imp (Main Warriors of 10 or less become
    # 0) touches neither: a tie, taken by the 1st player, p0; Imp changed nothing.
    rows = list(measures.events(Fight(), crafted("Knight Errant", "score", "Imp", "Shallow Pool")))
    assert Row(0, "arena", "Shallow Pool", 5.0) in rows
    assert Row(-1, "arena_tie", "Shallow Pool", 1.0) in rows
    assert Row(1, "ability_changed_winner", "Imp", 0.0) in rows
    assert Row(1, "ability_won_fight", "Imp", 0.0) in rows


def test_an_ability_that_kills_its_owners_main() -> None:
    # p1's Glorp (Alien 8) would take the Shallow Pool from Mammoth (29), but p1's own Imp kills
    # it: p0 takes the Arena. The ability changed the winner, against its owner.
    record = crafted("Knight Errant", "score", "Imp", "Shallow Pool", main1="Glorp")
    rows = list(measures.events(Fight(), record))
    assert Row(1, "killed", "Glorp") in rows
    assert Row(0, "arena", "Shallow Pool", 5.0) in rows
    assert Row(-1, "arena_tie", "Shallow Pool", 0.0) in rows
    assert Row(1, "ability_changed_winner", "Imp", 1.0) in rows
    assert Row(1, "ability_won_fight", "Imp", 0.0) in rows


def test_no_limit_cuts_a_game() -> None:
    _, record = seeded_game(2, 3)
    assert record.final_state().cut_by_limit() is False


# --- the figures on hand-made rows ------------------------------------------------------


def hand_made_data() -> Data:
    """40 two-player games: the seat whose Main is Mammoth always wins (Tin Titan's always loses);
    Nine-Eater changes the winner in 3 of its 4 activations, Imp in none of its 2."""
    con = duckdb.connect()
    create_tables(con)
    games, events = [], []
    for g in range(40):
        winner = g % 2
        for seat in (0, 1):
            won = seat == winner
            games.append(
                (
                    "",
                    "random v random",
                    g,
                    seat,
                    "random",
                    1 if won else 2,
                    1.0 if won else -1.0,
                    won,
                    False,
                    100,
                    False,
                    0,
                    0.5,
                )
            )
            main = "Mammoth" if won else "Tin Titan"
            events += [
                ("", "random v random", g, seat, "main", main, 1.0),
                ("", "random v random", g, seat, "family", "Animal" if won else "Robot", 1.0),
                ("", "random v random", g, seat, "boost", "Imp" if g % 4 == seat else "Blip", 1.0),
                ("", "random v random", g, seat, "scored", "Blip", 1.0),
                ("", "random v random", g, seat, "glory", "arenas", 20.0 if won else 10.0),
                ("", "random v random", g, seat, "glory", "scored", 3.0),
            ]
        events += [
            ("", "random v random", g, winner, "arena", "Bone Yard", 8.0),
            ("", "random v random", g, -1, "arena_taken", "Bone Yard", 1.0),
            ("", "random v random", g, -1, "arena_taken", "Little Ring", 0.0),
            ("", "random v random", g, -1, "arena_tie", "Bone Yard", 1.0 if g < 10 else 0.0),
        ]
    for g, value in enumerate((1.0, 1.0, 1.0, 0.0)):
        events.append(("", "random v random", g, 0, "ability_changed_winner", "Nine-Eater", value))
    for g in range(2):
        events.append(("", "random v random", g, 1, "ability_changed_winner", "Imp", 0.0))
    con.executemany(f"INSERT INTO games ({GAME_FIELDS}) VALUES (" + ", ".join(["?"] * 13) + ")", games)
    con.executemany("INSERT INTO events VALUES (?, ?, ?, ?, ?, ?, ?)", events)
    # Another pairing's rows must not leak into this one's figures.
    con.execute("INSERT INTO events VALUES ('', 'rule v rule', 0, 0, 'main', 'Grizzle', 1.0)")
    return Data(con, "", "random v random")


def table(figures: list[Figure], key: str) -> dict[str, list[Any]]:
    figure = next(f for f in figures if f.key == key)
    return {row[0]: row for row in figure.rows}


def test_figures_on_hand_made_rows() -> None:
    figures = measures.figures(hand_made_data())
    keys = [f.key for f in figures]
    assert len(keys) == len(set(keys))
    assert {
        "warriors-main",
        "warriors-boost",
        "warriors-scored",
        "families",
        "arenas",
        "abilities-change-winner",
    } <= set(keys)
    mains = table(figures, "warriors-main")
    assert set(mains) == {"Mammoth", "Tin Titan"}
    # Mammoth: a player with it always won, one without it never did.
    assert mains["Mammoth"][6] == pytest.approx(1.0) and mains["Mammoth"][7] > 0
    assert mains["Tin Titan"][6] == pytest.approx(-1.0) and mains["Tin Titan"][8] < 0
    families = table(figures, "families")
    assert families["Animal"][6] > 0 > families["Robot"][6]
    arenas = table(figures, "arenas")
    assert arenas["Bone Yard"][6] == pytest.approx(1.0)
    # Blip was scored by everybody: nobody is without it.
    assert math.isnan(table(figures, "warriors-scored")["Blip"][6])
    changes = next(f for f in figures if f.key == "abilities-change-winner")
    assert [row[:4] for row in changes.rows] == [["Nine-Eater", 4, 3, 0.75], ["Imp", 2, 0, 0.0]]
    assert changes.plot is not None and changes.plot.data["labels"] == ["Nine-Eater", "Imp"]
    taken = table(figures, "arenas-taken")
    assert taken["Bone Yard"][3] == 1.0 and taken["Little Ring"][3] == 0.0
    assert table(figures, "arenas-ties")["Bone Yard"][3] == pytest.approx(0.25)
    sources = table(figures, "glory-sources")
    assert sources["arenas"][1] == 20.0 and sources["arenas"][4] == 10.0
    for figure in figures:
        figure.to_json()  # plain data for the report
