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

from tussle.errors import PositionError
from tussle.game import PUBLIC, Game, State
from tussle.games.robo_pigs.rules import programs_for
from tussle.search.policy import GamePolicy

_PIG_FREE = ("^", "v", "\\", "/", "TL", "TR", "F", "H")
_PIG_COST = (0.0, 1.0, 2.2, 3.6, 5.2)
_PIG_DELTA = {"N": (0, 1), "E": (1, 0), "S": (0, -1), "W": (-1, 0)}


def _pig_in_line(x: int, y: int, facing: str, tx: int, ty: int) -> bool:
    dx, dy = _PIG_DELTA[facing]
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
        self._parsed: dict[str, Any] = {}

    @staticmethod
    def pigs(state: State[Any]) -> list[tuple[int, int, str, int]]:
        """Each pig's file, rank, facing and damage, read from the position (``d8S0 e1N0 1``)."""
        try:
            words = state.position().split()
        except PositionError:  # a program is pending: positions are written between rounds
            obs = state.observation(PUBLIC)
            words = [f"{p['square']}{p['facing']}{p['damage']}" for p in obs["pigs"]]
        return [("abcdefgh".index(w[0]), int(w[1]) - 1, w[2], int(w[3:])) for w in words[:2]]

    def _damage(self, state: State[Any], player: int) -> int:
        # The number of legal programs tells the damage without building an observation.
        damage = _DAMAGE_BY_COUNT[self.extra_x].get(len(state.legal_actions(player)))
        if damage is None:
            damage = int(state.observation(player)["pigs"][player]["damage"])
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
        if size == 5:
            return None
        if prefix[:1] == ("R",):
            return ("R",)
        x_left = damage - prefix.count("X")
        if x_left >= 5 - size:
            return ("X",)
        options: tuple[str, ...] = _PIG_FREE
        if x_left > 0 or self.extra_x:
            options += ("X",)
        if size == 0 and damage > 0:
            options += ("R",)
        return options

    def assemble(self, state: State[Any], player: int, prefix: tuple[str, ...]) -> Any:
        text = " ".join(prefix)
        action = self._parsed.get(text)
        if action is None:
            action = self._parsed[text] = state.parse_action(player, text)
        return action

    def program(self, state: State[Any], player: int, rng: random.Random) -> Any:
        """A program weighted towards attacks, as the playout move."""
        damage = self._damage(state, player)
        if damage and rng.random() < 0.1 * damage:
            return self.assemble(state, player, ("R",) * 5)
        commands = rng.choices(_PIG_FREE, (3, 2, 2, 2, 2, 2, 6, 3), k=5 - damage)
        for _ in range(damage):
            commands.insert(rng.randrange(len(commands) + 1), "X")
        return self.assemble(state, player, tuple(commands))

    def rollout_action(self, state: State[Any], player: int, rng: random.Random) -> Any:
        return self.program(state, player, rng)

    def evaluate(self, state: State[Any]) -> list[float]:
        pigs = self.pigs(state)
        (ax, ay, af, ad), (bx, by, bf, bd) = pigs
        value = _PIG_COST[min(bd, 4)] - _PIG_COST[min(ad, 4)]
        if _pig_in_line(ax, ay, af, bx, by):
            value += 0.25
        if _pig_in_line(bx, by, bf, ax, ay):
            value -= 0.25
        v = math.tanh(value / 3.0)
        return [v, -v]


def _damage_table(extra_x: bool) -> dict[int, int]:
    """Damage by the number of legal programs (each damage level has its own count)."""
    return {len(programs_for(damage, extra_x)): damage for damage in range(5)}


_DAMAGE_BY_COUNT = {False: _damage_table(False), True: _damage_table(True)}
