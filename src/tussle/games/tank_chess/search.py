"""Tank Chess's search knowledge: material, and the Command tank's road to the far edge.

The game declares it in ``GameInfo.hooks.search``; the generic searches
(:mod:`tussle.search`) call it for evaluations, playout moves and move order,
on states resampled for the searching player.

>>> from tussle import load_game
>>> from tussle.search.policy import policy_for
>>> type(policy_for(load_game("tank-chess"))).__name__
'TankChessPolicy'
"""

from __future__ import annotations

import math
from typing import Any

from tussle.game import Actions, Game, State
from tussle.games.tank_chess.board import (
    COMMAND,
    ESCAPE,
    KIND_LETTERS,
    NO_TARGET,
    OBSTACLE,
    TANK,
    WHITE,
    code_facing,
    code_kind,
)
from tussle.games.tank_chess.rules import TankChessState
from tussle.search.policy import GamePolicy

_TANK_VALUE = {"L": 3.0, "M": 5.0, "H": 8.0, "C": 0.0, "D": 7.0, "R": 6.0}
_TANK_DELTAS = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))
#: The value of each tank kind by its code (tank_chess.board's LIGHT .. MORTAR).
_KIND_VALUE = tuple(_TANK_VALUE[letter] for letter in KIND_LETTERS)
_UNREACHABLE = 999


def escape_steps(size: int, obstacles: frozenset[tuple[int, int]], side: int) -> list[int]:
    """For every (square, facing) of a Command tank, the fewest steps to drive off the far edge.

    ``side`` 0 is White (the far edge is beyond the last rank), 1 is Black.
    Only the obstacles count (tanks and wrecks move or are few); a step is a
    45 degree turn or one square forward, and the last step leaves the board,
    never diagonally through a corner. Index: ``(rank * size + file) * 8 + facing``.

    >>> steps = escape_steps(16, frozenset(), 0)
    >>> steps[(15 * 16 + 3) * 8 + 0], steps[(14 * 16 + 3) * 8 + 0], steps[(15 * 16 + 3) * 8 + 4]
    (1, 2, 4)
    """
    total = size * size * 8
    dist = [_UNREACHABLE] * total
    edge = size - 1 if side == 0 else 0
    out = 1 if side == 0 else -1
    frontier = []
    for file in range(size):
        for facing, (df, dr) in enumerate(_TANK_DELTAS):
            if dr == out and 0 <= file + df < size and (file, edge) not in obstacles:
                st = (edge * size + file) * 8 + facing
                dist[st] = 1
                frontier.append(st)
    # Backwards from the exits: a state one step before a reached state.
    steps = 1
    while frontier:
        steps += 1
        nxt = []
        for st in frontier:
            square, facing = divmod(st, 8)
            rank, file = divmod(square, size)
            for turned in ((facing + 1) & 7, (facing - 1) & 7):
                prev = square * 8 + turned
                if dist[prev] == _UNREACHABLE:
                    dist[prev] = steps
                    nxt.append(prev)
            df, dr = _TANK_DELTAS[facing]
            f, r = file - df, rank - dr
            if 0 <= f < size and 0 <= r < size and (f, r) not in obstacles:
                prev = (r * size + f) * 8 + facing
                if dist[prev] == _UNREACHABLE:
                    dist[prev] = steps
                    nxt.append(prev)
        frontier = nxt
    return dist


def escape_distance(
    size: int, table: list[int], blocked: set[tuple[int, int]], command: tuple[int, int, int]
) -> int:
    """The fewest steps for the Command tank at ``command`` (file, rank, facing) to escape.

    Like :func:`escape_steps`, but other tanks and wrecks (in ``blocked``) are
    in the way too; ``table`` (the obstacles-only distances) guides the search
    and is the answer when the search gives up.

    >>> table = escape_steps(16, frozenset(), 0)
    >>> escape_distance(16, table, set(), (3, 14, 0)), escape_distance(16, table, {(3, 15)}, (3, 14, 0))
    (2, 3)
    """
    import heapq

    file, rank, facing = command
    start = (rank * size + file) * 8 + facing
    if table[start] >= _UNREACHABLE:
        return _UNREACHABLE
    best = {start: 0}
    heap = [(table[start], 0, start)]
    expanded = 0
    while heap and expanded < 600:
        _, cost, st = heapq.heappop(heap)
        if cost > best.get(st, _UNREACHABLE):
            continue
        if table[st] == 1:
            return cost + 1
        expanded += 1
        square, f = divmod(st, 8)
        r, c = divmod(square, size)
        df, dr = _TANK_DELTAS[f]
        options = [square * 8 + ((f + 1) & 7), square * 8 + ((f - 1) & 7)]
        nf, nr = c + df, r + dr
        if 0 <= nf < size and 0 <= nr < size and (nf, nr) not in blocked:
            options.append((nr * size + nf) * 8 + f)
        for nxt in options:
            if table[nxt] >= _UNREACHABLE:
                continue
            if cost + 1 < best.get(nxt, _UNREACHABLE):
                best[nxt] = cost + 1
                heapq.heappush(heap, (cost + 1 + table[nxt], cost + 1, nxt))
    return table[start] + (0 if not heap else 6)


def _squares(bits: int) -> list[int]:
    """The squares whose bits are set in ``bits``, lowest first."""
    out = []
    while bits:
        low = bits & -bits
        out.append(low.bit_length() - 1)
        bits ^= low
    return out


class TankChessPolicy(GamePolicy):
    """A race of the Command tanks (turns each needs to escape), material, tempo."""

    default_depth = 0
    default_widen = 1.0
    race = 10.0
    step = 0.5
    scale = 25.0
    escape_threat = 12.0
    check_threat = 6.0

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        self._tables: dict[tuple[int, tuple[int, ...]], tuple[list[int], list[int]]] = {}
        self._orders: dict[tuple[int, tuple[int, ...]], list[Any]] = {}

    def _escape_tables(self, state: TankChessState) -> tuple[list[int], list[int]]:
        """Each side's obstacles-only escape distances (:func:`escape_steps`) on ``state``'s board."""
        board, size = state.board, state.geo.size
        obstacles = tuple(s for s in _squares(state.occ) if board[s] == OBSTACLE)
        tables = self._tables.get((size, obstacles))
        if tables is None:
            blocked = frozenset((s % size, s // size) for s in obstacles)
            tables = (escape_steps(size, blocked, 0), escape_steps(size, blocked, 1))
            self._tables[size, obstacles] = tables
        return tables

    def score(self, state: TankChessState) -> float:
        """The evaluation for White (unbounded; :meth:`evaluate` squashes it), read from the board."""
        size = state.geo.size
        board = state.board
        tables = self._escape_tables(state)
        # Every occupied square (obstacle, wreck or tank) blocks the Command tanks' roads.
        blocked = {divmod(s, size)[::-1] for s in _squares(state.occ)}
        commands: list[tuple[int, int, int] | None] = [None, None]
        score = 0.0
        for side in (0, 1):
            for s in state.tanks[side]:
                code = board[s]
                kind = code_kind(code)
                if kind == COMMAND:
                    rank, file = divmod(s, size)
                    commands[side] = (file, rank, code_facing(code))
                else:
                    score += (1.0 if side == 0 else -1.0) * _KIND_VALUE[kind]
        steps = [_UNREACHABLE, _UNREACHABLE]
        for side in (0, 1):
            command = commands[side]
            if command is not None:
                steps[side] = escape_distance(size, tables[side], blocked, command)
        speed = state.geo.types.speed[COMMAND]  # steps in one turn: the game's tank types say
        turns = [-(-n // speed) for n in steps]
        white_to_move = state._result is None and state.turn == WHITE
        margin = max(-4.0, min(4.0, turns[1] - turns[0] + (0.5 if white_to_move else -0.5)))
        score += self.race * margin + self.step * max(-20, min(20, steps[1] - steps[0]))
        if state.ply and state._result is None:
            check, escape = state.announcements()
            sign = 1.0 if 1 - state.turn == WHITE else -1.0
            if escape:
                score += sign * self.escape_threat
            if check:
                score += sign * self.check_threat
        return score

    def evaluate(self, state: State[Any]) -> list[float]:
        assert isinstance(state, TankChessState)
        v = math.tanh(self.score(state) / self.scale)
        return [v, -v]

    def order(self, state: State[Any], player: int, actions: Actions[Any], root: bool = True) -> list[Any]:
        # Reads the actions' packed ints and the board (tank_chess.board), not their notation.
        assert isinstance(state, TankChessState)
        board = state.board
        key = (state.turn, tuple(board))
        cached = self._orders.get(key)
        if cached is not None:
            return cached
        table = self._escape_tables(state)[player]
        enemy_command = state.commands[1 - player]
        scored = []
        rest = (3, 0.0)
        for i, action in enumerate(actions):
            start, end, target = action & 511, action >> 9 & 4095, action >> 21
            command = code_kind(board[start]) == COMMAND
            # Most turns move a tank other than the Command tank and shoot nothing: test that first.
            if not command and target == NO_TARGET:
                scored.append((rest, i, action))
            elif end == ESCAPE or target == enemy_command:
                scored.append(((0, 0.0), i, action))
            elif target != NO_TARGET:
                value = _KIND_VALUE[code_kind(board[target])] if board[target] >= TANK else 0.0
                scored.append(((1, -value), i, action))
            else:
                # A state index is square * 8 + facing, as the escape table counts them.
                scored.append(((2, float(table[end])), i, action))
        scored.sort(key=lambda item: (item[0], item[1]))
        ordered = [a for _, _, a in scored]
        if len(self._orders) > 20_000:
            self._orders.clear()
        self._orders[key] = ordered
        return ordered
