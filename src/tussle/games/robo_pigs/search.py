"""Robo Battle Pigs' search knowledge: programs built command by command, rounds scored by damage and aim.

The game declares it in ``GameInfo.hooks.search``; the generic searches
(:mod:`tussle.search`) call it for evaluations, playout moves and move order,
on states resampled for the searching player.

>>> from tussle import load_game
>>> from tussle.search.policy import policy_for
>>> type(policy_for(load_game("robo-pigs"))).__name__
'RoboPigsPolicy'
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from typing import Any

from tussle.game import Game, State
from tussle.games.robo_pigs.actions import DAMAGE, STEPS, SYMBOLS, Commands, repair_program
from tussle.games.robo_pigs.rule_agent import DAMAGE_COST as _DAMAGE_COST
from tussle.games.robo_pigs.rule_agent import WEIGHTS as _WEIGHTS
from tussle.games.robo_pigs.rules import FREE, SIZE, RoboPigsState, programs_for
from tussle.search.policy import GamePolicy

# A step in each facing (N E S W, the rules' facing numbers) as file and rank deltas.
_DELTA = ((0, 1), (1, 0), (0, -1), (-1, 0))

# The generic search builds a program piece by piece, and its pieces are text: each
# command's symbol, the command's id in the program's structured form too. assemble
# turns the symbols into the commands themselves, with no notation read.
_FREE_SYMBOLS = tuple(SYMBOLS[c] for c in FREE)
_COMMAND = {symbol: command for command, symbol in enumerate(SYMBOLS)}


def _in_line(square: int, facing: int, target: int) -> bool:
    """Whether the square ``target`` lies straight ahead of a pig on ``square`` facing ``facing``.

    >>> _in_line(59, 2, 3), _in_line(59, 0, 3)  # d8 facing south sees d1; facing north it does not
    (True, False)
    """
    x, y, tx, ty = square % SIZE, square // SIZE, target % SIZE, target // SIZE
    dx, dy = _DELTA[facing]
    if dx:
        return ty == y and (tx - x) * dx > 0
    return tx == x and (ty - y) * dy > 0


class RoboPigsPolicy(GamePolicy):
    """Programs built command by command; a round's outcome scored by damage and aim."""

    default_depth = 0
    default_rollout = "rule"
    # A round changes the score by little (a hit is about 0.16 on the 0..1
    # scale): exploration must be gentle or every program looks alike.
    default_c = 0.1

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        self.extra_x = bool(game.options["extra_x"])
        #: The commands of a program (five, or the program_length variant's).
        self.steps = int(game.options["program_length"])
        self._repair = repair_program(self.steps)
        self._by_count = _damage_table(self.extra_x, self.steps)
        self._assembled: dict[tuple[str, ...], Commands] = {}

    def _damage(self, state: State[Any], player: int) -> int:
        """The pig's damage, or with short programs the X it owes (the programs tell no more)."""
        # The number of legal programs tells the damage without building an observation.
        damage = self._by_count.get(len(state.legal_actions(player)))
        if damage is None:
            damage = min(int(state.observation(player)["pigs"][player]["damage"]), self.steps)
        return damage

    def factored(self, state: State[Any], player: int) -> bool:
        return True

    def tokens(self, state: State[Any], player: int, prefix: tuple[str, ...]) -> Sequence[str] | None:
        return self._pieces(self._damage(state, player), prefix)

    def piece_source(
        self, state: State[Any], player: int
    ) -> Callable[[tuple[str, ...]], Sequence[str] | None]:
        damage = self._damage(state, player)
        return lambda prefix: self._pieces(damage, prefix)

    def _pieces(self, damage: int, prefix: tuple[str, ...]) -> Sequence[str] | None:
        """The commands that may follow ``prefix`` in the program of a pig with ``damage``."""
        size = len(prefix)
        steps = self.steps
        if size == steps:
            return None
        if prefix[:1] == ("R",):
            return ("R",)
        x_left = damage - prefix.count("X")
        if x_left >= steps - size:
            return ("X",)
        options: tuple[str, ...] = _FREE_SYMBOLS
        if x_left > 0 or self.extra_x:
            options += ("X",)
        if size == 0 and damage > 0:
            options += ("R",)
        return options

    def assemble(self, state: State[Any], player: int, prefix: tuple[str, ...]) -> Any:
        action = self._assembled.get(prefix)
        if action is None:
            c = _COMMAND
            action = self._assembled[prefix] = tuple(c[symbol] for symbol in prefix)
        return action

    def program(self, state: State[Any], player: int, rng: random.Random) -> Any:
        """A program weighted towards attacks, as the playout move."""
        damage = self._damage(state, player)
        if damage and rng.random() < 0.1 * damage:
            return self._repair
        commands = rng.choices(FREE, _WEIGHTS, k=self.steps - damage)
        for _ in range(damage):
            commands.insert(rng.randrange(len(commands) + 1), DAMAGE)
        return tuple(commands)

    def rollout_action(self, state: State[Any], player: int, rng: random.Random) -> Any:
        return self.program(state, player, rng)

    def evaluate(self, state: State[Any]) -> list[float]:
        # The state's own fields: where the pigs stand and their damage are public.
        assert isinstance(state, RoboPigsState)
        (sa, sb), (fa, fb), (da, db) = state.squares, state.facings, state.damage
        value = _DAMAGE_COST[min(db, 4)] - _DAMAGE_COST[min(da, 4)]
        if _in_line(sa, fa, sb):
            value += 0.25
        if _in_line(sb, fb, sa):
            value -= 0.25
        v = math.tanh(value / 3.0)
        return [v, -v]


def _damage_table(extra_x: bool, steps: int = STEPS) -> dict[int, int]:
    """Damage by the number of legal programs (each damage level has its own count); with
    short programs, the X owed, which is all the programs depend on."""
    return {len(programs_for(damage, extra_x, steps)): min(damage, steps) for damage in range(5)}
