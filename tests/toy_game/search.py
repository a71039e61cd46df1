"""What the search agents know of the dice race: a lead in points (banked and at risk) is worth something."""

from __future__ import annotations

import math
from typing import Any

from toy_game.rules import DiceRaceState
from tussle.game import State
from tussle.search.policy import GamePolicy


class DiceRacePolicy(GamePolicy):
    """Scores a race by each player's points (the pot at half) against the best of the others'."""

    default_depth = 6

    def evaluate(self, state: State[Any]) -> list[float]:
        assert isinstance(state, DiceRaceState)
        points = [float(s) for s in state.scores]
        points[state.turn] += state.pot / 2
        target = float(state.game.options["target"])
        return [
            math.tanh(2 * (mine - max(p for q, p in enumerate(points) if q != who)) / target)
            for who, mine in enumerate(points)
        ]
