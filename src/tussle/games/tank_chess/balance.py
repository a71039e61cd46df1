"""Tank Chess's balance measures (``tussle balance tank-chess``).

For each played game, per side and tank type: how many tanks of the type the
side fielded, how many enemy tanks they destroyed, how many of them were
destroyed, and how many were still there at the end (an escaped Command tank
survived); which type destroyed which; how the game ended (the enemy Command
tank destroyed, the own Command tank escaped, or the ply limit); and the board
size. docs/games/tank-chess.md (Balance measures) defines every row and figure. The
game's duration (docs/balance.md, "Game feel") is a ``duration`` row: ``moves``, the plies.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from typing import Any

from tussle.balance.feel import DURATION
from tussle.balance.measures import Data, Figure, Measures, Plot, Row
from tussle.game import Game, State
from tussle.games.tank_chess.board import COMMAND, ESCAPE, KIND_NAMES, TANK, code_kind, code_side, decode
from tussle.games.tank_chess.rules import TankChessState
from tussle.record import Record

#: The ``ending`` components, one per way a game of Tank Chess ends.
DESTROYED = "Command destroyed"
ESCAPED = "Command escaped"
LIMIT = "limit"

#: A ``kill_pair`` component: the shooter's type, this mark, the target's type.
VERSUS = " > "


def _tanks(state: TankChessState) -> list[Counter[int]]:
    """How many tanks of each kind each side has on the board."""
    counts: list[Counter[int]] = [Counter(), Counter()]
    for code in state.board:
        if code >= TANK:
            counts[code_side(code)][code_kind(code)] += 1
    return counts


def _escaped(state: TankChessState) -> bool:
    """Whether the last turn drove a Command tank off the board."""
    return state.last is not None and decode(state.last[0])[1] == ESCAPE


class TankChessMeasures(Measures):
    """Kills, losses and survival per tank type, the endings and the board size."""

    def events(self, game: Game, record: Record) -> Iterable[Row]:
        moves = sum(player >= 0 for player, _ in record.events)
        return [*self._rows(record.walk()), Row(-1, DURATION, "moves", float(moves))]

    def _rows(self, walk: Iterator[State[Any]]) -> Iterator[Row]:
        state = next(walk)
        assert isinstance(state, TankChessState)
        size = state.geo.size
        fielded = _tanks(state)
        kills: list[Counter[int]] = [Counter(), Counter()]
        losses: list[Counter[int]] = [Counter(), Counter()]
        pairs: list[Counter[tuple[int, int]]] = [Counter(), Counter()]
        for state in walk:
            assert isinstance(state, TankChessState)
            if state.last is None:
                continue
            _, code, victim = state.last
            if victim:
                side, shooter, target = code_side(code), code_kind(code), code_kind(victim)
                kills[side][shooter] += 1
                losses[1 - side][target] += 1
                pairs[side][shooter, target] += 1
        alive = _tanks(state)
        result = state.result()
        if state.last is not None and _escaped(state):
            alive[code_side(state.last[1])][COMMAND] += 1  # it left the board, not the game
        for side in (0, 1):
            for kind in sorted(fielded[side]):
                name = KIND_NAMES[kind]
                yield Row(side, "fielded", name, fielded[side][kind])
                yield Row(side, "kills", name, kills[side][kind])
                yield Row(side, "losses", name, losses[side][kind])
                yield Row(side, "survived", name, alive[side][kind])
                if fielded[side][kind]:
                    yield Row(side, "survival_rate", name, alive[side][kind] / fielded[side][kind])
            for (shooter, target), n in sorted(pairs[side].items()):
                yield Row(side, "kill_pair", KIND_NAMES[shooter] + VERSUS + KIND_NAMES[target], n)
        if result is not None:
            ending = LIMIT if result.winner is None else ESCAPED if _escaped(state) else DESTROYED
            yield Row(-1, "ending", ending)
        yield Row(-1, "size", f"{size}x{size}", size)

    def figures(self, data: Data) -> list[Figure]:
        return [
            data.outcome_shares(
                "ending",
                "endings",
                "How games end: a Command tank destroyed, a Command tank escaped, the ply limit",
            ),
            data.means(
                "kills",
                "kills",
                "Enemy tanks destroyed per game by one side's tanks of each type",
                "mean over the sides that fielded the type",
            ),
            data.by_outcome(
                "kills",
                "kills-by-outcome",
                "Enemy tanks destroyed per game by each type: winners against losers",
            ),
            data.means(
                "losses",
                "losses",
                "Tanks of each type lost per game by one side",
                "mean over the sides that fielded the type",
            ),
            data.means(
                "survived",
                "survived",
                "Tanks of each type still on the board at the end (an escaped Command tank counts)",
                "mean over the sides that fielded the type",
            ),
            data.means(
                "survival_rate",
                "survival-rate",
                "Share of one side's tanks of each type that survive the game",
                "per side and game: tanks of the type surviving over tanks of the type fielded",
            ),
            kill_matrix(data),
        ]


def kill_matrix(data: Data) -> Figure:
    """Which type destroys which: kills per game by each shooter type on each target type, both sides."""
    games = data.games()
    rows = data.sql("SELECT component, sum(value) FROM e WHERE kind = 'kill_pair' GROUP BY component")
    cells: dict[tuple[str, str], int] = {}
    for component, total in rows:
        shooter, _, target = str(component).partition(VERSUS)
        cells[shooter, target] = int(total)
    order = {name: i for i, name in enumerate(KIND_NAMES)}
    shooters = sorted({s for s, _ in cells}, key=lambda n: order.get(n, len(order)))
    targets = sorted({t for _, t in cells}, key=lambda n: order.get(n, len(order)))
    per_game = [[cells.get((s, t), 0) / games if games else float("nan") for t in targets] for s in shooters]
    table = [
        [s, t, cells[s, t], cells[s, t] / games if games else float("nan")]
        for s in shooters
        for t in targets
        if (s, t) in cells
    ]
    return Figure(
        f"{data.prefix}kill-matrix",
        "Who destroys whom: kills per game, shooter type by target type",
        ["shooter", "target", "kills", "per game"],
        table,
        Plot(
            "heatmap",
            {
                "rows": shooters,
                "cols": targets,
                "values": per_game,
                "counts": [[cells.get((s, t), 0) for t in targets] for s in shooters],
                "colorbar": "kills per game (not a win rate)",
            },
            "target type (rows: shooter type)",
        ),
        "both sides together",
    )


measures = TankChessMeasures()
