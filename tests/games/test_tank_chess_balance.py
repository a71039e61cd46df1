"""Tank Chess's balance measures: the rows of a game match its record, the figures hand-made data."""

from __future__ import annotations

import itertools
import math
from collections import Counter
from typing import Any

import duckdb
import pytest

from balance_rows import GAME_FIELDS, table
from tussle import load_game
from tussle.agents import make_agent
from tussle.balance.measures import Data
from tussle.balance.play import create_tables
from tussle.games.tank_chess.balance import measures
from tussle.games.tank_chess.board import KIND_LETTERS, KIND_NAMES
from tussle.games.tank_chess.rules import TankChessState
from tussle.record import Record
from tussle.runner import play_game

NAMES = dict(zip(KIND_LETTERS, KIND_NAMES, strict=True))


def play(size: str, specs: tuple[str, str], seed: int, ply_limit: int) -> tuple[TankChessState, Record]:
    game = load_game("tank-chess", size=size, ply_limit=ply_limit)
    agents = [make_agent(spec, game, seat, seed=seed + seat) for seat, spec in enumerate(specs)]
    state, record = play_game(game, agents, seed=seed)
    assert isinstance(state, TankChessState)
    return state, record


@pytest.mark.parametrize(
    ("size", "specs", "seed", "ply_limit"),
    [
        ("16", ("random", "random"), 1, 150),
        ("16", ("random", "random"), 2, 400),
        ("20", ("random", "random"), 3, 150),
        ("16", ("rule", "random"), 4, 150),
        ("20", ("random", "rule"), 5, 150),
    ],
)
def test_rows_match_the_record(size: str, specs: tuple[str, str], seed: int, ply_limit: int) -> None:
    state, record = play(size, specs, seed, ply_limit)
    game = load_game("tank-chess", size=size, ply_limit=ply_limit)
    rows = table(list(measures.events(game, record)))
    # What the record shows, read from the observations (the game's own words for each turn).
    kills: Counter[tuple[int, str]] = Counter()
    losses: Counter[tuple[int, str]] = Counter()
    pairs: Counter[tuple[int, str]] = Counter()
    states = record.replay()
    for before, after in itertools.pairwise(states):
        last = after.observation(0)["last_move"]
        side = 0 if last["by"] == "white" else 1
        assert before.to_act() == (side,)
        if last["destroyed"]:
            shooter, target = NAMES[last["type"]], NAMES[last["destroyed"]["type"]]
            kills[side, shooter] += 1
            losses[1 - side, target] += 1
            pairs[side, f"{shooter} > {target}"] += 1
    start = Counter(
        (0 if t["side"] == "white" else 1, NAMES[t["type"]]) for t in states[0].observation(0)["tanks"]
    )
    end = Counter((0 if t["side"] == "white" else 1, NAMES[t["type"]]) for t in state.observation(0)["tanks"])
    result = state.result()
    assert result is not None
    winner = result.winner
    escaped = winner is not None and "escaped" in result.reason
    if winner is not None and escaped:
        end[winner, "Command"] += 1
    for (seat, kind, component), value in rows.items():
        if kind in ("kills", "losses", "fielded", "survived"):
            expected = {"kills": kills, "losses": losses, "fielded": start, "survived": end}[kind]
            assert value == expected[seat, component], (seat, kind, component)
        elif kind == "survival_rate":
            assert value == pytest.approx(end[seat, component] / start[seat, component])
        elif kind == "kill_pair":
            assert value == pairs[seat, component]
    for seat, name in start:
        assert (seat, "kills", name) in rows  # zeros too
        assert rows[seat, "fielded", name] - rows[seat, "losses", name] == rows[seat, "survived", name]
    # Every kill is somebody's loss.
    for seat in (0, 1):
        made = sum(v for (s, k, _), v in rows.items() if s == seat and k == "kills")
        suffered = sum(v for (s, k, _), v in rows.items() if s == 1 - seat and k == "losses")
        assert made == suffered == sum(n for (s, _), n in kills.items() if s == seat)
    endings = [c for (s, k, c) in rows if k == "ending"]
    if result.winner is None:
        assert endings == ["limit"] and state.cut_by_limit() and state.ply == ply_limit
    else:
        assert endings == ["Command escaped" if escaped else "Command destroyed"]
        assert not state.cut_by_limit()
    assert rows[-1, "size", f"{size}x{size}"] == int(size)


def record_of(position: str, *events: str) -> Record:
    return Record(game="tank-chess", position=position, events=[(i % 2, e) for i, e in enumerate(events)])


def test_a_command_destroyed() -> None:
    # White's Heavy steps forward and shoots Black's Command tank in the front (gun III beats armour I).
    record = record_of("white=Ch1N,Ha3N,Lc3N black=Ca10S,Lh16S", "Ha3-a4N xa10")
    game = load_game("tank-chess")
    rows = table(list(measures.events(game, record)))
    assert rows[-1, "ending", "Command destroyed"] == 1
    assert rows[0, "kills", "Heavy"] == 1 and rows[0, "kills", "Light"] == 0
    assert rows[0, "kill_pair", "Heavy > Command"] == 1
    assert rows[1, "losses", "Command"] == 1 and rows[1, "survived", "Command"] == 0
    assert rows[1, "survived", "Light"] == 1 and rows[1, "survival_rate", "Command"] == 0
    assert rows[0, "fielded", "Light"] == 1 and (0, "fielded", "Medium") not in rows
    assert not record.final_state().cut_by_limit()


def test_a_command_escaped_survives() -> None:
    record = record_of("white=Ch16N black=Ca9S", "Ch16-off")
    rows = table(list(measures.events(load_game("tank-chess"), record)))
    assert rows[-1, "ending", "Command escaped"] == 1
    assert rows[0, "survived", "Command"] == 1 and rows[0, "survival_rate", "Command"] == 1
    assert rows[0, "losses", "Command"] == 0


def test_the_ply_limit() -> None:
    record = Record(
        game="tank-chess",
        options={"ply_limit": 4},
        position="ply=3 turn=black white=Ch1N black=Ca9S",
        events=[(1, "Ca9-a8S")],
    )
    state = record.final_state()
    assert state.cut_by_limit()
    rows = table(list(measures.events(load_game("tank-chess", ply_limit=4), record)))
    assert rows[-1, "ending", "limit"] == 1
    # Without a limit the game goes on: not cut.
    assert not load_game("tank-chess").new_initial_state().cut_by_limit()


# --- figures on hand-made rows ---------------------------------------------------------


GAMES: list[tuple[Any, ...]] = []
EVENTS: list[tuple[Any, ...]] = []


def game_rows(
    game: int, winner: int | None, ending: str, seats: dict[int, dict[str, dict[str, float]]]
) -> None:
    for seat in (0, 1):
        won = winner == seat
        GAMES.append(
            (
                "v",
                "p",
                game,
                seat,
                "a",
                1 if won or winner is None else 2,
                0.0,
                won,
                winner is None,
                10,
                ending == "limit",
                0,
                None,
            )
        )
        for kind, values in seats[seat].items():
            for component, value in values.items():
                EVENTS.append(("v", "p", game, seat, kind, component, value))
    EVENTS.append(("v", "p", game, -1, "ending", ending, 1.0))
    EVENTS.append(("v", "p", game, -1, "size", "16x16", 16.0))


def both(kills: dict[str, float], losses: dict[str, float]) -> dict[str, dict[str, float]]:
    fielded = {"Light": 4.0, "Heavy": 2.0}
    survived = {k: fielded[k] - losses[k] for k in fielded}
    return {
        "fielded": fielded,
        "kills": kills,
        "losses": losses,
        "survived": survived,
        "survival_rate": {k: survived[k] / fielded[k] for k in fielded},
    }


game_rows(
    1,
    0,
    "Command destroyed",
    {
        0: both({"Light": 2, "Heavy": 1}, {"Light": 0, "Heavy": 0})
        | {"kill_pair": {"Light > Light": 2, "Heavy > Light": 1}},
        1: both({"Light": 0, "Heavy": 0}, {"Light": 3, "Heavy": 0}),
    },
)
game_rows(
    2,
    1,
    "Command destroyed",
    {
        0: both({"Light": 0, "Heavy": 0}, {"Light": 1, "Heavy": 1}),
        1: both({"Light": 0, "Heavy": 2}, {"Light": 0, "Heavy": 0})
        | {"kill_pair": {"Heavy > Light": 1, "Heavy > Heavy": 1}},
    },
)
game_rows(
    3,
    0,
    "Command escaped",
    {
        0: both({"Light": 0, "Heavy": 0}, {"Light": 0, "Heavy": 0}),
        1: both({"Light": 0, "Heavy": 0}, {"Light": 0, "Heavy": 0}),
    },
)
game_rows(
    4,
    None,
    "limit",
    {
        0: both({"Light": 0, "Heavy": 0}, {"Light": 2, "Heavy": 0}),
        1: both({"Light": 2, "Heavy": 0}, {"Light": 0, "Heavy": 0}) | {"kill_pair": {"Light > Light": 2}},
    },
)


@pytest.fixture
def data() -> Data:
    con = duckdb.connect()
    create_tables(con)
    con.executemany(f"INSERT INTO games ({GAME_FIELDS}) VALUES (" + ", ".join(["?"] * 13) + ")", GAMES)
    con.executemany("INSERT INTO events VALUES (?, ?, ?, ?, ?, ?, ?)", EVENTS)
    # Another variant's rows must not leak into this one's figures.
    con.execute("INSERT INTO events VALUES ('w', 'p', 1, -1, 'ending', 'limit', 1)")
    return Data(con, "v", "p")


def rows_by_component(figure: Any) -> dict[str, list[Any]]:
    return {row[0]: row for row in figure.rows}


def test_figures(data: Data) -> None:
    figures = {f.key: f for f in measures.figures(data)}
    assert len(figures) == len(measures.figures(data))  # keys are unique
    endings = rows_by_component(figures["endings"])
    assert endings["Command destroyed"][1:3] == [2, 0.5]
    assert endings["Command escaped"][2] == endings["limit"][2] == 0.25
    kills = rows_by_component(figures["kills"])
    # Light kills over 8 seats: 2, 0, 0, 0, 0, 0, 0, 2.
    assert kills["Light"][1:3] == [8, 0.5]
    assert kills["Heavy"][2] == pytest.approx(3 / 8)
    by_outcome = rows_by_component(figures["kills-by-outcome"])
    # Winners (game 1 seat 0, game 2 seat 1, game 3 seat 0) made 1, 2 and 0 Heavy kills; losers none.
    assert by_outcome["Heavy"][1] == pytest.approx(1.0) and by_outcome["Heavy"][4] == 0
    assert by_outcome["Light"][1] == pytest.approx(2 / 3) and by_outcome["Light"][4] == 0
    losses = rows_by_component(figures["losses"])
    assert losses["Light"][2] == pytest.approx(6 / 8)
    survived = rows_by_component(figures["survived"])
    assert survived["Light"][2] == pytest.approx(4 - 6 / 8)
    rate = rows_by_component(figures["survival-rate"])
    assert rate["Heavy"][2] == pytest.approx(1 - 0.5 / 8)
    matrix = figures["kill-matrix"]
    cells = {(r[0], r[1]): r[2:] for r in matrix.rows}
    assert cells == {
        ("Light", "Light"): [4, 1.0],
        ("Heavy", "Light"): [2, 0.5],
        ("Heavy", "Heavy"): [1, 0.25],
    }
    assert matrix.plot is not None
    assert matrix.plot.data["rows"] == ["Light", "Heavy"] and matrix.plot.data["cols"] == ["Light", "Heavy"]
    assert matrix.plot.data["values"] == [[1.0, 0.0], [0.5, 0.25]]
    for figure in figures.values():
        assert figure.rows and figure.to_json()["rows"]
        assert not any(isinstance(v, float) and math.isinf(v) for row in figure.rows for v in row)
