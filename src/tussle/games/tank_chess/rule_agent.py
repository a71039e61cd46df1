"""A rule-of-thumb agent for Tank Chess that plays from its own view only.

Its rules, in order:

1. Win now if it can: destroy the enemy Command tank, or drive its own off the far edge.
2. Score every legal turn cheaply from its notation: what the shot destroys
   (by the value of the tank), how far the Command tank advances towards the
   far edge, and how much closer another tank gets to the enemy Command tank.
3. Try the best-scoring turns on a copy of the game: a turn after which the
   opponent could win at once is thrown out; otherwise the best tank the
   opponent could destroy in reply is subtracted, and announcing Check or
   Escape earns a bonus. The best turn after this look-ahead is played.

Everything goes through :class:`~tussle.agents.base.PlayerView`: the
observation (tanks, squares, announcements), the move notation and copies of
the game to try turns on.

>>> from tussle import load_game
>>> from tussle.agents.base import PlayerView
>>> game = load_game("tank-chess")
>>> state = game.new_initial_state()
>>> agent = TankChessRuleAgent(game, 0, seed=1)
>>> agent.act(PlayerView(state, 0)) in state.legal_actions(0)
True
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

from tussle.agents.base import Agent, PlayerView
from tussle.agents.params import Param
from tussle.game import State
from tussle.games.tank_chess.rules import TankChessState

#: What destroying a tank is worth, by type letter.
VALUES = {"L": 3.0, "M": 5.0, "H": 8.0, "C": 1000.0, "D": 7.0, "R": 6.0}
_WIN = 10_000.0
_ESCAPE_BONUS = 40.0
_CHECK_BONUS = 6.0
_ADVANCE = 1.5  # per rank the Command tank gains towards the far edge
_APPROACH = 0.4  # per square another tank gets closer to the enemy Command tank
_FILES = "abcdefghijklmnopqrst"
_MOVE = re.compile(r"([A-Z])([a-t]\d+)-(?:(off)|([a-t]\d+)([NESW]+))(?: x([a-t]\d+))?")

#: While every turn tried so far loses at once, keep looking, up to this many.
_DESPERATE = 60


def _coords(square: str) -> tuple[int, int]:
    return _FILES.index(square[0]), int(square[1:])


def _distance(a: str, b: str) -> int:
    (fa, ra), (fb, rb) = _coords(a), _coords(b)
    return max(abs(fa - fb), abs(ra - rb))


class TankChessRuleAgent(Agent):
    """Greedy with a one-reply look-ahead; ``lookahead`` sets how many turns get it (default 8)."""

    PARAMS: ClassVar[dict[str, Param]] = {
        "lookahead": Param("int", 8, "how many of the best turns get a one-reply look-ahead", 1, 1000),
    }

    def setup(self) -> None:
        self.lookahead: int = self.params["lookahead"]

    def act(self, view: PlayerView) -> Any:
        legal = view.legal_actions()
        obs = view.observation()
        me = ("white", "black")[view.player]
        tanks = {t["square"]: t for t in obs["tanks"]}
        enemy_command = next(s for s, t in tanks.items() if t["side"] != me and t["type"] == "C")
        forward = 1 if me == "white" else -1
        scored: list[tuple[float, int, Any]] = []
        for index, action in enumerate(legal):
            text = view.action_to_str(action)
            match = _MOVE.fullmatch(text)
            if match is None:  # not this game's notation: leave it for last
                scored.append((-_WIN, index, action))
                continue
            kind, start, off, dest, _, target = match.groups()
            if off or target == enemy_command:
                return action
            score = self.rng.random() * 0.1  # breaks ties without a bias
            if target:
                score += 10.0 * VALUES[tanks[target]["type"]]
            if kind == "C":
                score += _ADVANCE * forward * (_coords(dest)[1] - _coords(start)[1])
            else:
                score += _APPROACH * (_distance(start, enemy_command) - _distance(dest, enemy_command))
            scored.append((score, index, action))
        scored.sort(reverse=True)
        state = view.sample_state(self.rng)
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
        mine = after.tank_types(self.player)
        opponent = 1 - self.player
        worst = 0.0
        for reply in after.legal_actions(opponent):
            text = after.action_to_str(opponent, reply)
            if text.endswith("-off"):
                return -_WIN
            _, shot, target = text.partition(" x")
            if shot:
                loss = VALUES[mine[target]]
                if loss >= VALUES["C"]:
                    return -_WIN
                worst = max(worst, loss)
        return value - 9.0 * worst
