"""Fightopia's balance measures: the rows of a game match its record, the figures hand-made data."""

from __future__ import annotations

from collections import Counter
from typing import Any

import duckdb
import pytest

from balance_rows import GAME_FIELDS, table
from tussle import load_game
from tussle.agents import make_agent
from tussle.balance.measures import Data, Figure
from tussle.balance.play import create_tables
from tussle.game import CHANCE
from tussle.games.fightopia.balance import ACTIONS, measures
from tussle.games.fightopia.rules import FightopiaState
from tussle.record import Record
from tussle.runner import play_game


def kind_of(text: str) -> str:
    """The kind of a canonical action text (rules.md, Notation), pivots told by the Tank's squares."""
    if text.startswith("G"):
        return "Giant kill" if "x" in text else "Giant step"
    if text.startswith("T"):
        if "x" in text:
            return "Tank shot"
        old, new = text[1:].split("-")
        # A Tank keeps its direction when it moves: both squares on one file, or on one rank.
        direction = {old[0] == old[2], new[0] == new[2]}
        return "Tank move" if len(direction) == 1 else "Tank pivot"
    return "Pawn step"


@pytest.mark.parametrize(
    ("specs", "seed", "ply_limit", "options"),
    [
        (("random", "random"), 1, 300, {}),
        (("random", "random"), 2, 3000, {}),
        (("random", "random"), 3, 3000, {"pivot_sweep": True}),
        (("rule", "random"), 4, 300, {}),
        (("random", "rule"), 5, 300, {}),
        (("random", "random"), 6, 60, {"limit_result": "material"}),
    ],
)
def test_rows_match_the_record(
    specs: tuple[str, str], seed: int, ply_limit: int, options: dict[str, Any]
) -> None:
    game = load_game("fightopia", ply_limit=ply_limit, **options)
    agents = [make_agent(spec, game, seat, seed=seed + seat) for seat, spec in enumerate(specs)]
    state, record = play_game(game, agents, seed=seed)
    assert isinstance(state, FightopiaState)
    rows = table(list(measures.events(game, record)))
    # The record: the chance event first, then the players' actions in canonical notation.
    assert record.events[0][0] == CHANCE
    first = 0 if record.events[0][1] == "first white" else 1
    assert record.events[1][0] == first
    assert [(s, c) for (s, k, c) in rows if k == "first"] == [(first, "moved first")]
    actions: Counter[tuple[int, str]] = Counter()
    for player, text in record.events:
        if player != CHANCE:
            actions[player, kind_of(text)] += 1
    for seat in (0, 1):
        for name in ACTIONS:
            assert rows[seat, "actions", name] == actions[seat, name], (seat, name)
        # A Pawn lost is an enemy Tank's shot, a Tank lost an enemy Giant's kill.
        assert rows[seat, "losses", "Pawn"] == actions[1 - seat, "Tank shot"]
        assert rows[seat, "losses", "Tank"] == actions[1 - seat, "Giant kill"]
        color = "white" if seat == 0 else "black"
        pieces = Counter(p["kind"] for p in state.observation(0)["pieces"] if p["color"] == color)
        assert rows[seat, "losses", "Pawn"] == 10 - pieces["pawn"]
        assert rows[seat, "losses", "Tank"] == 2 - pieces["tank"]
        assert 0 <= rows[seat, "giant", "ranks advanced"] <= 6
    assert sum(rows[s, "actions", n] for s in (0, 1) for n in ACTIONS) == state.ply
    result = state.result()
    assert result is not None
    (ending,) = [c for (seat, kind, c) in rows if kind == "ending"]
    assert (-1, "ending", ending) in rows
    cut = state.cut_by_limit()
    assert cut == (ending == "limit")
    if "ply limit" in result.reason:
        assert ending == "limit" and state.ply == ply_limit
    elif result.winner is None:
        assert ending == "no legal action"
    elif "Giant reached" in result.reason:
        assert ending == "Giant crossed" and rows[result.winner, "giant", "ranks advanced"] == 6
    elif "no Tanks left" in result.reason:
        assert ending == "Tanks killed" and rows[1 - result.winner, "losses", "Tank"] == 2
    else:
        raise AssertionError(result.reason)


def events_of(position: str, *texts: str, **options: Any) -> tuple[dict[tuple[int, str, str], float], bool]:
    record = Record(game="fightopia", options=options, position=position, events=[(0, t) for t in texts])
    rows = table(list(measures.events(load_game("fightopia", **options), record)))
    return rows, record.final_state().cut_by_limit()


def test_a_giant_crosses() -> None:
    rows, cut = events_of("8/3GG3/3GG3/8/gg6/gg6/6Vv/6Vv w 0", "Gd6-d7")
    assert rows[-1, "ending", "Giant crossed"] == 1 and not cut
    assert rows[0, "actions", "Giant step"] == 1 and rows[0, "giant", "ranks advanced"] == 1
    assert rows[0, "first", "moved first"] == 1 and (1, "first", "moved first") not in rows
    assert rows[1, "losses", "Pawn"] == 0


def test_the_second_tank_killed() -> None:
    rows, cut = events_of("8/3GGv2/3GGv2/8/gg6/gg6/7V/7V w 0", "Gd6xTf6f7")
    assert rows[-1, "ending", "Tanks killed"] == 1 and not cut
    assert rows[0, "actions", "Giant kill"] == 1 and rows[1, "losses", "Tank"] == 1


def test_no_legal_action_and_the_limit() -> None:
    rows, cut = events_of("7v/4gg1v/4gg2/8/2v5/ppvp4/GGVp4/GGVp4 w 30")
    assert rows[-1, "ending", "no legal action"] == 1 and not cut
    assert (0, "first", "moved first") not in rows  # nobody moved
    # At the ply limit with limit_result=material the side ahead wins, and the game was still cut.
    rows, cut = events_of("8/8/2gg3v/2gg3v/8/8/V2GG1pV/V2GG1pV b 20", ply_limit=20, limit_result="material")
    assert rows[-1, "ending", "limit"] == 1 and cut


# --- figures on hand-made rows ---------------------------------------------------------

GAMES: list[tuple[Any, ...]] = []
EVENTS: list[tuple[Any, ...]] = []


def game_rows(game: int, winner: int | None, ending: str, first: int, pawns_lost: tuple[int, int]) -> None:
    for seat in (0, 1):
        won = winner == seat
        rank = 1 if won or winner is None else 2
        GAMES.append(
            ("v", "p", game, seat, "a", rank, 0.0, won, winner is None, 10, ending == "limit", 0, None)
        )
        EVENTS.append(("v", "p", game, seat, "losses", "Pawn", pawns_lost[seat]))
        EVENTS.append(
            ("v", "p", game, seat, "losses", "Tank", 2 if ending == "Tanks killed" and not won else 0)
        )
        EVENTS.append(("v", "p", game, seat, "actions", "Pawn step", 5))
        EVENTS.append(
            ("v", "p", game, seat, "giant", "ranks advanced", 6 if ending == "Giant crossed" and won else 1)
        )
    EVENTS.append(("v", "p", game, first, "first", "moved first", 1))
    EVENTS.append(("v", "p", game, -1, "ending", ending, 1))


# The first mover wins 3 of 4 decided games; the other seat 1 of 4; one game is a draw at the limit.
game_rows(1, 0, "Giant crossed", 0, (1, 3))
game_rows(2, 1, "Giant crossed", 1, (0, 0))
game_rows(3, 1, "Tanks killed", 1, (2, 4))
game_rows(4, 0, "Giant crossed", 1, (0, 2))
game_rows(5, 0, "Tanks killed", 0, (0, 0))
game_rows(6, None, "limit", 0, (1, 1))


@pytest.fixture
def data() -> Data:
    con = duckdb.connect()
    create_tables(con)
    con.executemany(f"INSERT INTO games ({GAME_FIELDS}) VALUES (" + ", ".join(["?"] * 13) + ")", GAMES)
    con.executemany("INSERT INTO events VALUES (?, ?, ?, ?, ?, ?, ?)", EVENTS)
    con.execute("INSERT INTO events VALUES ('v', 'other', 1, -1, 'ending', 'limit', 1)")  # another pairing
    return Data(con, "v", "p")


def by_component(figure: Figure) -> dict[str, list[Any]]:
    return {row[0]: row for row in figure.rows}


def test_figures(data: Data) -> None:
    figures = {f.key: f for f in measures.figures(data)}
    assert len(figures) == 5
    endings = by_component(figures["endings"])
    assert endings["Giant crossed"][1:3] == [3, 0.5]
    assert endings["Tanks killed"][2] == pytest.approx(2 / 6) and endings["limit"][2] == pytest.approx(1 / 6)
    first = by_component(figures["first-mover"])["moved first"]
    # Six seats moved first and won games 1, 2, 3 and 5.
    assert first[1] == 6 and first[2] == pytest.approx(4 / 6)
    assert first[5] == pytest.approx(1 / 6)  # the seats that moved second won game 4 only
    assert first[6] == pytest.approx(3 / 6)
    losses = by_component(figures["losses"])
    # Five decided games: winners lost 1, 0, 4, 0, 0 Pawns; losers 3, 0, 2, 2, 0.
    assert losses["Pawn"][1] == pytest.approx(5 / 5) and losses["Pawn"][4] == pytest.approx(7 / 5)
    assert losses["Tank"][1] == 0 and losses["Tank"][4] == pytest.approx(4 / 5)
    assert by_component(figures["giant-advance"])["ranks advanced"][1] == pytest.approx(
        (6 + 6 + 1 + 6 + 1) / 5
    )
    assert by_component(figures["actions"])["Pawn step"][7] == 0
