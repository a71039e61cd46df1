"""Fightopia's search knowledge: material, Giant progress, Tank lines and pressure.

The game declares it in ``GameInfo.hooks.search``; the generic searches
(:mod:`tussle.search`) call it for evaluations, playout moves and move order,
on states resampled for the searching player.

>>> from tussle import load_game
>>> from tussle.search.policy import policy_for
>>> type(policy_for(load_game("fightopia"))).__name__
'FightopiaPolicy'
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from typing import Any

from tussle.game import Actions, Game, State
from tussle.games.fightopia import rule_agent as fightopia_rule
from tussle.games.fightopia.board import tank_squares
from tussle.games.fightopia.notation import parse_position
from tussle.games.fightopia.rules import FightopiaState
from tussle.search.policy import GamePolicy

_FO = fightopia_rule
_FILE_BITS = tuple(sum(1 << (8 * r + f) for r in range(8)) for f in range(8))
_RANK_BITS = tuple(0xFF << (8 * r) for r in range(8))


def fightopia_score(
    position: str, pawn: float = _FO.PAWN, lines: float = 0.0, pressure: float = 0.0
) -> float:
    """The rule-of-thumb agent's evaluation for White, of a position (see :func:`board_score`).

    >>> fightopia_score("vppggppv/v1pggp1v/2pppp2/8/8/2PPPP2/V1PGGP1V/VPPGGPPV w 0")
    0.0
    """
    b = parse_position(position)
    return board_score(b.pawns, b.giants, b.tanks, b.side, pawn=pawn, lines=lines, pressure=pressure)


def board_score(
    pawns: Sequence[int],
    giants: Sequence[int],
    tanks: Sequence[Sequence[int]],
    side: int,
    *,
    pawn: float = _FO.PAWN,
    lines: float = 0.0,
    pressure: float = 0.0,
) -> float:
    """The rule-of-thumb agent's evaluation for White, read from a board's bitboards (much faster).

    ``pawns`` are each color's Pawn bitboard (bit ``8 * rank + file``), ``giants``
    each Giant's lowest square, ``tanks`` each color's Tank codes, ``side`` the
    side to move (-1 before the first move is drawn), as a state holds them.
    Same weights and terms as :func:`tussle.games.fightopia.rule_agent.evaluate`
    on the observation, scored for the player who has just moved (the one not
    to move) and negated when that is Black; the tests check it. Whoever moves
    next strikes first, so their threats weigh more. The search scores with
    changes: ``pawn`` (the weight of a Pawn, the rule agent's by default),
    ``lines`` (per clear square out of either end of a Tank, 0 by default) and
    ``pressure`` (per enemy Pawn anywhere on a Tank's line of fire, whatever
    stands between, 0 by default).
    """
    moved = 1 if side == 0 else 0  # the player who has just moved (White before the first move)
    occupied = pawns[0] | pawns[1]
    for corner in giants:
        occupied |= 0x303 << corner  # the Giant's 2x2 block
    halves: list[list[tuple[int, int, int, int]]] = [[], []]  # per color: each Tank's squares, low first
    for color in (0, 1):
        for code in tanks[color]:
            a, b = tank_squares(code)
            occupied |= 1 << a | 1 << b
            halves[color].append((a & 7, a >> 3, b & 7, b >> 3))
    score = _FO.TANK * (len(tanks[0]) - len(tanks[1])) + pawn * (pawns[0].bit_count() - pawns[1].bit_count())
    for color, sign in ((0, 1.0), (1, -1.0)):
        gf, low = giants[color] & 7, giants[color] >> 3
        if color == 0:
            score += sign * _FO.ADVANCE * low
            front = low + 2
        else:
            score += sign * _FO.ADVANCE * (6 - low)
            front = low - 1
        if 0 <= front < 8:
            ahead = occupied >> (8 * front + gf)
            score += sign * _FO.OPEN_ROAD * ((1 - (ahead & 1)) + (1 - (ahead >> 1 & 1)))
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
                    score += sign * (_FO.THREAT if color == moved else _FO.TANK_IN_REACH)
            score -= sign * _FO.HUNT * gap
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
                            score += sign * (_FO.TARGET if color == moved else _FO.IN_SIGHT)
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


class FightopiaPolicy(GamePolicy):
    """The rule-of-thumb agent's evaluation tuned for progress, in -1..1; captures and Giant moves first.

    With the rule agent's own weights, searches of every depth built Pawn walls
    and drew every game at the ply limit. Pawns weigh three times as much here
    (a Tank's shot is worth taking), a Tank gains for each clear square out of
    its ends (Tanks leave their corners and open lines of fire) and for each
    enemy Pawn anywhere on its line (``pressure``: the Tank aims at a wall,
    and the wall has to give), and a position met before scores a little below
    a draw (see ``default_contempt``).
    """

    default_depth = 0
    scale = 60.0
    # Without contempt both sides shuffle a Pawn back and forth behind their walls to the ply limit.
    default_contempt = 0.05
    # Measured, medium against hard, 6 games from 3 random opening moves a side: pawn 2 and no
    # lines drew all 6; pawn 6 with lines 0.3 gave hard 3 wins and 3 draws; pawn 10, lines 0.5: 6 draws.
    pawn = 6.0
    lines = 0.3
    # Without pressure a search a few Pawns up shuffled behind its wall to the limit; with
    # 6 (3 per half of a Tank in the trial), hard against medium went from 1 win and 9 draws
    # to 5 wins, 4 draws and a loss (docs/strength.md).
    pressure = 6.0

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        self._cache: dict[Hashable, float] = {}

    def repetition_key(self, state: State[Any]) -> Hashable | None:
        # The board and the side to move, read from the state's own fields: every piece
        # placement writes one position, so these keys tell positions apart as the text would.
        assert isinstance(state, FightopiaState)
        pawns, giants = state.pawns, state.giants
        return (pawns[0], pawns[1], giants[0], giants[1], state.tanks[0], state.tanks[1], state.side)

    def evaluate(self, state: State[Any]) -> list[float]:
        return self.evaluate_keyed(state, None)

    def evaluate_keyed(self, state: State[Any], key: Hashable | None) -> list[float]:
        # Alpha-beta hands over the repetition key it made: a board met before is looked up.
        assert isinstance(state, FightopiaState)
        if key is None:
            key = self.repetition_key(state)
        v = self._cache.get(key)
        if v is None:
            if len(self._cache) > 200_000:
                self._cache.clear()
            score = board_score(
                state.pawns,
                state.giants,
                state.tanks,
                state.side,
                pawn=self.pawn,
                lines=self.lines,
                pressure=self.pressure,
            )
            v = self._cache[key] = math.tanh(score / self.scale)
        return [v, -v]

    def order(self, state: State[Any], player: int, actions: Actions[Any], root: bool = True) -> list[Any]:
        scored = []
        for i, action in enumerate(actions):
            text = state.action_to_str(player, action)
            rank = 3
            if "x" in text:
                rank = 0 if text[0] == "G" else 1
            elif text[0] == "G":
                rank = 2
            scored.append((rank, i, action))
        scored.sort()
        return [a for _, _, a in scored]
