"""A rule-of-thumb agent for Tank Chess that plays from its own view only.

Its rules, in order:

1. Win now if it can: destroy the enemy Command tank, or drive its own off the far edge.
2. Score every legal turn cheaply from its parts (the packed turn and the
   board): what the shot destroys (by the value of the tank), how far the
   Command tank advances towards the far edge, and how much closer another
   tank gets to the enemy Command tank.
3. Try the best-scoring turns on a copy of the game: a turn after which the
   opponent could win at once is thrown out; otherwise the best tank the
   opponent could destroy in reply is subtracted, and announcing Check or
   Escape earns a bonus. The best turn after this look-ahead is played.

Everything goes through :class:`~tussle.agents.base.PlayerView`: its legal
turns and copies of the game to try them on. The game has no hidden
information, so a copy's own fields (the board, each side's tanks) are what
the player sees; a turn's parts are read off its packed int (:mod:`.board`),
never off its notation.

>>> from tussle import load_game
>>> from tussle.agents.base import PlayerView
>>> game = load_game("tank-chess")
>>> state = game.new_initial_state()
>>> agent = TankChessRuleAgent(game, 0, seed=1)
>>> agent.act(PlayerView(state, 0)) in state.legal_actions(0)
True
"""

from __future__ import annotations

from typing import Any, ClassVar

from tussle.agents.base import Agent, PlayerView
from tussle.agents.params import Param
from tussle.game import State
from tussle.games.tank_chess.board import COMMAND, ESCAPE, KIND_LETTERS, NO_TARGET, code_kind, decode
from tussle.games.tank_chess.rules import TankChessState

#: What destroying a tank is worth, by type letter.
VALUES = {"L": 3.0, "M": 5.0, "H": 8.0, "C": 1000.0, "D": 7.0, "R": 6.0}
#: :data:`VALUES` by the board's kind number (``code_kind`` of a tank's code).
_KIND_VALUES = tuple(VALUES[letter] for letter in KIND_LETTERS)
_WIN = 10_000.0
_ESCAPE_BONUS = 40.0
_CHECK_BONUS = 6.0
_ADVANCE = 1.5  # per rank the Command tank gains towards the far edge
_APPROACH = 0.4  # per square another tank gets closer to the enemy Command tank

#: While every turn tried so far loses at once, keep looking, up to this many.
_DESPERATE = 60


class TankChessRuleAgent(Agent):
    """Greedy with a one-reply look-ahead; ``lookahead`` sets how many turns get it (default 8)."""

    PARAMS: ClassVar[dict[str, Param]] = {
        "lookahead": Param("int", 8, "how many of the best turns get a one-reply look-ahead", 1, 1000),
    }

    def setup(self) -> None:
        self.lookahead: int = self.params["lookahead"]

    def act(self, view: PlayerView) -> Any:
        legal = view.legal_actions()
        # A copy, drawn before scoring: the game has no hidden information, so it is the
        # board as seen, and drawing it takes nothing from the random generator.
        state = view.sample_state(self.rng)
        assert isinstance(state, TankChessState)
        board, size = state.board, state.geo.size
        enemy_command = state.commands[1 - self.player]
        ex, ey = enemy_command % size, enemy_command // size
        forward = 1 if self.player == 0 else -1
        scored: list[tuple[float, int, Any]] = []
        for index, action in enumerate(legal):
            start, end, target = decode(action)
            if end == ESCAPE or target == enemy_command:
                return action
            score = self.rng.random() * 0.1  # breaks ties without a bias
            if target != NO_TARGET:
                score += 10.0 * _KIND_VALUES[code_kind(board[target])]
            dest = end >> 3
            if code_kind(board[start]) == COMMAND:
                score += _ADVANCE * forward * (dest // size - start // size)
            else:
                sx, sy, dx, dy = start % size, start // size, dest % size, dest // size
                before = max(abs(sx - ex), abs(sy - ey))
                score += _APPROACH * (before - max(abs(dx - ex), abs(dy - ey)))
            scored.append((score, index, action))
        scored.sort(reverse=True)
        best: tuple[float, Any] | None = None
        for tried, (score, _, action) in enumerate(scored):
            if tried >= self.lookahead and best is not None and (best[0] > -_WIN / 2 or tried >= _DESPERATE):
                break
            value = score + self._reply_value(state, action)
            if best is None or value > best[0]:
                best = (value, action)
        assert best is not None  # a side always has a legal turn: a tank can always turn in place
        return best[1]

    def _reply_value(self, state: State[Any], action: Any) -> float:
        """How good ``action`` looks once the opponent's best immediate reply is considered."""
        after = state.clone()
        after.apply(self.player, action)
        if after.is_terminal():
            return _WIN
        # The state's own fields, not its observation: this runs for every turn tried, and the
        # observation also works out every tank's lines of fire, which this needs none of.
        assert isinstance(after, TankChessState)
        check, escape = after.announcements()
        value = 0.0
        if escape:
            value += _ESCAPE_BONUS
        if check:
            value += _CHECK_BONUS
        board = after.board
        worst = 0.0
        for reply in after.legal_actions(1 - self.player):
            _, end, target = decode(reply)
            if end == ESCAPE:
                return -_WIN
            if target != NO_TARGET:
                loss = _KIND_VALUES[code_kind(board[target])]
                if loss >= VALUES["C"]:
                    return -_WIN
                worst = max(worst, loss)
        return value - 9.0 * worst
