"""A rule-of-thumb agent for Fightopia.

It looks one ply ahead: it takes a winning action when there is one, scores
every other action by the position it leads to (material, how far each Giant
has come, Tanks in reach of a Giant, Pawns in a Tank's line of fire), and plays
the best action that does not hand the opponent an immediate win. It reads only
its :class:`~tussle.agents.base.PlayerView`: the observation's pieces, the legal
actions (whose kind it reads off the engine's int, never off the notation), and
copies of the state for the lookahead.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tussle.agents.base import Agent, PlayerView
from tussle.game import State
from tussle.games.fightopia.board import GIANT_KILL, GIANT_STEP, SQUARE_NAMES, decode, tank_code
from tussle.games.fightopia.evaluation import board_score

#: What a win is worth; every other score is far smaller.
WIN = 10_000.0

_SQUARES = {name: square for square, name in enumerate(SQUARE_NAMES)}
_COLORS = ("white", "black")
_GIANT_KINDS = (GIANT_STEP, GIANT_KILL)


def _board(obs: Mapping[str, Any]) -> tuple[list[int], list[int], list[list[int]]]:
    """The observation's pieces as the evaluation reads them: Pawn bitboards, Giant corners, Tank codes."""
    pawns, giants = [0, 0], [0, 0]
    tanks: list[list[int]] = [[], []]
    for piece in obs["pieces"]:
        color = _COLORS.index(piece["color"])
        squares = [_SQUARES[s] for s in piece["squares"]]
        kind = piece["kind"]
        if kind == "giant":
            giants[color] = min(squares)
        elif kind == "tank":
            tanks[color].append(tank_code(squares[0], squares[1]))
        else:
            pawns[color] |= 1 << squares[0]
    return pawns, giants, tanks


def evaluate(obs: Mapping[str, Any], me: int) -> float:
    """How good the observed position is for player ``me``, who has just moved (higher is better):
    :func:`~tussle.games.fightopia.evaluation.board_score` with its own weights, seen from ``me``.

    >>> from tussle import load_game
    >>> evaluate(load_game("fightopia").new_initial_state().observation(0), 0)
    0.0
    """
    result = obs.get("result")
    if result:
        winner = result["winner"]
        return 0.0 if winner is None else (WIN if winner == me else -WIN)
    pawns, giants, tanks = _board(obs)
    score = board_score(pawns, giants, tanks, me)
    return score if me == 0 else -score


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
            if decode(action)[0] not in _GIANT_KINDS:
                continue
            child = state.clone()
            child.apply(them, action)
            result = child.result()
            if result is not None and result.winner == them:
                return True
        return False
