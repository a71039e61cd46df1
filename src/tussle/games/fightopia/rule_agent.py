"""A rule-of-thumb agent for Fightopia.

It looks one ply ahead: it takes a winning action when there is one, scores
every other action by the position it leads to (material, how far each Giant
has come, Tanks in reach of a Giant, Pawns in a Tank's line of fire), and plays
the best action that does not hand the opponent an immediate win. It reads only
its :class:`~tussle.agents.base.PlayerView`: the observation's pieces, the legal
actions and their notation, and copies of the state for the lookahead.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tussle.agents.base import Agent, PlayerView
from tussle.game import State

Square = tuple[int, int]

# Weights of the evaluation. The position is scored just after ``me`` has moved, so the
# opponent moves next: their threats are worth more than ours (they strike first).
TANK = 40.0
PAWN = 2.0
ADVANCE = 5.0  # per rank a Giant has come towards the far side
TANK_IN_REACH = 38.0  # their Giant touches our Tank, and they move next: it dies
THREAT = 8.0  # our Giant touches their Tank (they may still move it away)
HUNT = 1.0  # per square between our Giant and their nearest Tank
IN_SIGHT = 1.5  # their Tank can shoot one of our Pawns next turn
TARGET = 1.0  # our Tank has one of their Pawns in its line
OPEN_ROAD = 1.0  # per clear square straight ahead of our Giant
WIN = 10_000.0


_SQUARES: dict[str, Square] = {
    f"{file}{rank + 1}": (i, rank) for i, file in enumerate("abcdefgh") for rank in range(8)
}


class _Board:
    """The pieces of an observation, indexed for the evaluation."""

    __slots__ = ("at", "giants", "pawns", "tanks")

    def __init__(self, obs: Mapping[str, Any]) -> None:
        colors: list[str] = obs["colors"]
        self.giants: list[list[Square]] = [[], []]
        self.tanks: list[list[list[Square]]] = [[], []]
        self.pawns: list[list[Square]] = [[], []]
        self.at: dict[Square, tuple[int, str]] = {}
        for piece in obs["pieces"]:
            color = colors.index(piece["color"])
            squares = [_SQUARES[s] for s in piece["squares"]]
            kind = piece["kind"]
            if kind == "giant":
                self.giants[color] = squares
            elif kind == "tank":
                self.tanks[color].append(squares)
            else:
                self.pawns[color].append(squares[0])
            for s in squares:
                self.at[s] = (color, kind)

    def first_in_line(self, tank: list[Square]) -> list[tuple[int, str]]:
        """The nearest piece out of each end of a Tank, as (color, kind)."""
        (af, ar), (bf, br) = sorted(tank, key=lambda s: (s[1], s[0]))
        df, dr = bf - af, br - ar
        out = []
        for (f, r), (sf, sr) in (((bf, br), (df, dr)), ((af, ar), (-df, -dr))):
            f, r = f + sf, r + sr
            while 0 <= f < 8 and 0 <= r < 8:
                if (f, r) in self.at:
                    out.append(self.at[(f, r)])
                    break
                f, r = f + sf, r + sr
        return out


def _touches(giant: list[Square], tank: list[Square]) -> bool:
    return any(abs(g[0] - t[0]) + abs(g[1] - t[1]) == 1 for g in giant for t in tank)


def _gap(giant: list[Square], tank: list[Square]) -> int:
    return min(max(abs(g[0] - t[0]), abs(g[1] - t[1])) for g in giant for t in tank)


def evaluate(obs: Mapping[str, Any], me: int) -> float:
    """How good the observed position is for player ``me``, who has just moved (higher is better).

    >>> from tussle import load_game
    >>> evaluate(load_game("fightopia").new_initial_state().observation(0), 0)
    0.0
    """
    result = obs.get("result")
    if result:
        winner = result["winner"]
        return 0.0 if winner is None else (WIN if winner == me else -WIN)
    board = _Board(obs)
    them = 1 - me
    score = TANK * (len(board.tanks[me]) - len(board.tanks[them]))
    score += PAWN * (len(board.pawns[me]) - len(board.pawns[them]))
    for color, sign in ((me, 1.0), (them, -1.0)):
        giant = board.giants[color]
        forward = 1 if color == 0 else -1
        ranks = [r for _, r in giant]
        score += sign * ADVANCE * (min(ranks) if forward == 1 else 6 - min(ranks))
        front = max(ranks) + 1 if forward == 1 else min(ranks) - 1
        if 0 <= front < 8:
            score += (
                sign
                * OPEN_ROAD
                * sum(1 for f, r in giant if r == front - forward and (f, front) not in board.at)
            )
        enemy_tanks = board.tanks[1 - color]
        for tank in enemy_tanks:
            if _touches(giant, tank):
                score += sign * (THREAT if color == me else TANK_IN_REACH)
        if enemy_tanks:
            score -= sign * HUNT * min(_gap(giant, t) for t in enemy_tanks)
        for tank in board.tanks[color]:
            for who, kind in board.first_in_line(tank):
                if kind == "pawn" and who != color:
                    score += sign * (TARGET if color == me else IN_SIGHT)
    return score


class FightopiaRuleAgent(Agent):
    """One-ply lookahead with a hand-made evaluation; never misses a win in one."""

    def act(self, view: PlayerView) -> Any:
        actions = list(view.legal_actions())
        if len(actions) == 1:
            return actions[0]
        me = view.player
        root = view.sample_state(self.rng)
        scored: list[tuple[float, int, Any, State[Any]]] = []
        for i, action in enumerate(actions):
            child = root.clone()
            child.apply(me, action)
            result = child.result()
            if result is not None and result.winner == me:
                return action
            # A little noise breaks ties, so that equal choices vary from game to game.
            score = evaluate(child.observation(me), me) + self.rng.random() * 0.01
            scored.append((score, i, action, child))
        scored.sort(key=lambda item: (-item[0], item[1]))
        for _, _, action, child in scored:
            if not self._loses_at_once(child, me):
                return action
        return scored[0][2]

    @staticmethod
    def _loses_at_once(state: State[Any], me: int) -> bool:
        """Whether the opponent can win with their next action from ``state``."""
        if state.is_terminal():
            return False
        them = 1 - me
        for action in state.legal_actions(them):
            # Only a Giant's step or kill can win at once.
            if not state.action_to_str(them, action).startswith("G"):
                continue
            child = state.clone()
            child.apply(them, action)
            result = child.result()
            if result is not None and result.winner == them:
                return True
        return False
