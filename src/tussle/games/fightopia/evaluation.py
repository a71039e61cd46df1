"""Fightopia's one evaluation: material, how far each Giant has come, Tanks in reach of a Giant,
Pawns in a Tank's line of fire, read from a board's bitboards.

The rule-of-thumb agent scores the positions it looks at with it (read from its observation),
and the search with its own weights (:class:`~tussle.games.fightopia.search.FightopiaPolicy`).
"""

from __future__ import annotations

from collections.abc import Sequence

from tussle.games.fightopia.board import tank_squares

# Weights. A position is scored just after one player has moved, so the other moves next:
# their threats are worth more than the mover's (they strike first).
TANK = 40.0
PAWN = 2.0
ADVANCE = 5.0  # per rank a Giant has come towards the far side
TANK_IN_REACH = 38.0  # the next to move's Giant touches the mover's Tank: it dies
THREAT = 8.0  # the mover's Giant touches an enemy Tank (it may still move away)
HUNT = 1.0  # per square between a Giant and the nearest enemy Tank
IN_SIGHT = 1.5  # the next to move's Tank can shoot one of the mover's Pawns
TARGET = 1.0  # the mover's Tank has an enemy Pawn in its line
OPEN_ROAD = 1.0  # per clear square straight ahead of a Giant

_FILE_BITS = tuple(sum(1 << (8 * r + f) for r in range(8)) for f in range(8))
_RANK_BITS = tuple(0xFF << (8 * r) for r in range(8))


def board_score(
    pawns: Sequence[int],
    giants: Sequence[int],
    tanks: Sequence[Sequence[int]],
    moved: int,
    *,
    pawn: float = PAWN,
    lines: float = 0.0,
    pressure: float = 0.0,
) -> float:
    """How good a board is for White, scored just after ``moved`` (0 or 1) has moved.

    ``pawns`` are each color's Pawn bitboard (bit ``8 * rank + file``), ``giants``
    each Giant's lowest square, ``tanks`` each color's Tank codes, as a state
    holds them. Whoever moves next strikes first, so their threats weigh more.
    The search scores with changes: ``pawn`` (the weight of a Pawn, the rule
    agent's by default), ``lines`` (per clear square out of either end of a
    Tank, 0 by default) and ``pressure`` (per enemy Pawn anywhere on a Tank's
    line of fire, whatever stands between, 0 by default).

    >>> board_score((0, 0), (3, 51), ((1,), (97,)), 0)
    0.0
    """
    occupied = pawns[0] | pawns[1]
    for corner in giants:
        occupied |= 0x303 << corner  # the Giant's 2x2 block
    halves: list[list[tuple[int, int, int, int]]] = [[], []]  # per color: each Tank's squares, low first
    for color in (0, 1):
        for code in tanks[color]:
            a, b = tank_squares(code)
            occupied |= 1 << a | 1 << b
            halves[color].append((a & 7, a >> 3, b & 7, b >> 3))
    score = TANK * (len(tanks[0]) - len(tanks[1])) + pawn * (pawns[0].bit_count() - pawns[1].bit_count())
    for color, sign in ((0, 1.0), (1, -1.0)):
        gf, low = giants[color] & 7, giants[color] >> 3
        if color == 0:
            score += sign * ADVANCE * low
            front = low + 2
        else:
            score += sign * ADVANCE * (6 - low)
            front = low - 1
        if 0 <= front < 8:
            ahead = occupied >> (8 * front + gf)
            score += sign * OPEN_ROAD * ((1 - (ahead & 1)) + (1 - (ahead >> 1 & 1)))
        enemy = halves[1 - color]
        if enemy:
            # Distances from a square to the Giant's 2x2 block: the nearest of its squares
            # is the nearest file and the nearest rank of the block, chosen independently.
            gap = 99
            for af, ar, bf, br in enemy:
                touch = False
                for tf, tr in ((af, ar), (bf, br)):
                    dx = gf - tf if tf < gf else (tf - gf - 1 if tf > gf + 1 else 0)
                    dy = low - tr if tr < low else (tr - low - 1 if tr > low + 1 else 0)
                    if dx + dy == 1:
                        touch = True
                    gap = min(gap, max(dx, dy))
                if touch:
                    score += sign * (THREAT if color == moved else TANK_IN_REACH)
            score -= sign * HUNT * gap
        targets = pawns[1 - color]
        clear = 0  # squares out of the ends of color's Tanks, counted whole so that even sides sum to 0
        for af, ar, bf, br in halves[color]:
            df, dr = bf - af, br - ar
            for f, r, sf, sr in ((bf, br, df, dr), (af, ar, -df, -dr)):
                f, r = f + sf, r + sr
                while 0 <= f < 8 and 0 <= r < 8:
                    bit = 1 << (8 * r + f)
                    if occupied & bit:
                        if targets & bit:
                            score += sign * (TARGET if color == moved else IN_SIGHT)
                        break
                    clear += 1
                    f, r = f + sf, r + sr
        score += sign * lines * clear
        if pressure:
            # A Tank lined up on Pawns behind others keeps shooting as the line clears, and
            # walls of Pawns have to step out of it: this is what makes a search press on.
            aimed = 0
            for af, ar, bf, _ in halves[color]:
                aimed += (targets & (_FILE_BITS[af] if af == bf else _RANK_BITS[ar])).bit_count()
            score += sign * pressure * aimed
    return score
