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
from collections.abc import Hashable
from typing import Any

from tussle.game import Actions, Game, State
from tussle.games.fightopia.board import GIANT_KILL, GIANT_STEP, PAWN_STEP, TANK_MOVE, TANK_SHOT, decode
from tussle.games.fightopia.evaluation import PAWN, board_score
from tussle.games.fightopia.notation import parse_position
from tussle.games.fightopia.rules import FightopiaState
from tussle.search.policy import GamePolicy


def fightopia_score(position: str, pawn: float = PAWN, lines: float = 0.0, pressure: float = 0.0) -> float:
    """The evaluation for White of a position, scored for the player who has just moved (the one
    not to move; White before the first move): see :func:`~tussle.games.fightopia.evaluation.board_score`.

    >>> fightopia_score("vppggppv/v1pggp1v/2pppp2/8/8/2PPPP2/V1PGGP1V/VPPGGPPV w 0")
    0.0
    """
    b = parse_position(position)
    return board_score(b.pawns, b.giants, b.tanks, _moved(b.side), pawn=pawn, lines=lines, pressure=pressure)


#: Move order by an action's kind (read off its int by board.decode): a Giant's kill, a Tank's
#: shot, a Giant's step, then the rest.
_ORDER_RANK = {GIANT_KILL: 0, TANK_SHOT: 1, GIANT_STEP: 2, PAWN_STEP: 3, TANK_MOVE: 3}


def _moved(side: int) -> int:
    """The player who has just moved when ``side`` is to move (White before the first move is drawn)."""
    return 1 if side == 0 else 0


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
                _moved(state.side),
                pawn=self.pawn,
                lines=self.lines,
                pressure=self.pressure,
            )
            v = self._cache[key] = math.tanh(score / self.scale)
        return [v, -v]

    def order(self, state: State[Any], player: int, actions: Actions[Any], root: bool = True) -> list[Any]:
        scored = [(_ORDER_RANK[decode(action)[0]], i, action) for i, action in enumerate(actions)]
        scored.sort()
        return [a for _, _, a in scored]
