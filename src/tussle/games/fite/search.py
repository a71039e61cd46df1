"""FITE's search knowledge: splits searched, tactics played greedily, positions scored by dice left.

The game declares it in ``GameInfo.hooks.search``; the generic searches
(:mod:`tussle.search`) call it for evaluations, playout moves and move order,
on states resampled for the searching player.

>>> from tussle import load_game
>>> from tussle.search.policy import policy_for
>>> type(policy_for(load_game("fite"))).__name__
'FitePolicy'
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Any, cast

from tussle.game import PUBLIC, Game, State
from tussle.games.fite import rule_agent as fite_rule
from tussle.games.fite.notation import (
    DEF,
    OFF,
    STAY,
    TAC,
    PlaceAction,
    Roll,
    SplitAction,
    SwiftAction,
    TacticAction,
)
from tussle.games.fite.rules import (
    PLACE,
    SETUP,
    SPLIT,
    SWIFT,
    TACTICAL,
    FiteState,
    apply_tactic,
    count_cancelled,
    resolve_tactics,
)
from tussle.search.policy import GamePolicy

#: The step each phase of a FITE state is, as :meth:`FitePolicy.step` names it.
_STEPS = {SETUP: "place", PLACE: "place", SWIFT: "swift", SPLIT: "split", TACTICAL: "tactical"}
#: The playouts' placement (the die at the tactical location) and Swift choices, as the rules' values.
_PLACE_TAC: PlaceAction = ("place", 5)
_SWIFT_TAC: SwiftAction = ("swift", TAC)
_STAY: SwiftAction = ("swift", STAY)


def _fite_strength(dice: int) -> float:
    return float(dice) if dice >= 2 else 0.0


class FitePolicy(GamePolicy):
    """Splits searched, tactical options played greedily, positions scored by the dice left.

    The playout policy is the rule-of-thumb agent's: the tactical location,
    Swift to it, the rule's equilibrium split of the dice, the greedy tactical
    option. The step and the dice are read from the state's own public fields,
    so that an observation (costly here) is built only where its data is needed.
    """

    default_depth = 12
    default_rollout = "rule"

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        #: Under turn_dice=any a turn may reach the opponent's dice: choices are scored on both pools.
        self._turn_any = game.options["turn_dice"] == "any"
        self._best_any: dict[tuple[Any, ...], int] = {}
        #: The pools each legal tactical option leaves, by the pools rolled and the number of options.
        self._after: dict[tuple[Roll, Roll, int], list[tuple[Roll, Roll]]] = {}
        #: The best tactical option's index, by both fighters' pools and modifiers and the options.
        self._best: dict[tuple[Any, ...], int] = {}

    @staticmethod
    def step(state: State[Any], player: int) -> str:
        """``place``, ``swift``, ``split`` or ``tactical``: the step ``player`` acts in."""
        assert isinstance(state, FiteState)
        return _STEPS[state.phase]

    def evaluate(self, state: State[Any]) -> list[float]:
        if isinstance(state, FiteState):  # the dice left are public: no need for a whole observation
            dice = state.dice
        else:
            dice = [f["dice"] for f in state.observation(PUBLIC)["fighters"]]
        diff = _fite_strength(dice[0]) - _fite_strength(dice[1])
        v = math.tanh(diff / 3.0)
        return [v, -v]

    def tree_actions(
        self, state: State[Any], acting: tuple[int, ...], rng: random.Random
    ) -> list[Any] | None:
        if self.step(state, acting[0]) != "tactical":
            return None
        return [self._tactic(state, p) for p in acting]

    def rollout_actions(self, state: State[Any], acting: tuple[int, ...], rng: random.Random) -> list[Any]:
        step = self.step(state, acting[0])
        if step == "place":
            return [_PLACE_TAC for _ in acting]
        if step == "swift":
            return [_SWIFT_TAC if _SWIFT_TAC in state.legal_actions(p) else _STAY for p in acting]
        if step == "split" and len(acting) == 2:
            return [self._split(state, p, rng) for p in acting]
        if step == "split":
            return [self._observed_split(state, p, rng) for p in acting]
        return [self._tactic(state, p) for p in acting]

    def rollout_action(self, state: State[Any], player: int, rng: random.Random) -> Any:
        return self.rollout_actions(state, (player,), rng)[0]

    def _split(self, state: State[Any], player: int, rng: random.Random) -> SplitAction:
        """The rule's split, both fighters splitting (each one's dice read from the state's public fields).

        Playouts place at the tactical location, so no location bonus is assumed.
        """
        assert isinstance(state, FiteState)
        dice = state.dice
        offs, weights, _ = fite_rule.split_strategy(dice[player], dice[1 - player], (0, 0), (0, 0))
        off = rng.choices(offs, weights)[0]
        return ("split", off, dice[player] - off, False)

    def _observed_split(self, state: State[Any], player: int, rng: random.Random) -> SplitAction:
        assert isinstance(state, FiteState)
        me, them = state.location[player], state.location[1 - player]
        mine = (int(me == OFF), int(me == DEF))
        theirs = (int(them == OFF), int(them == DEF))
        dice = state.dice[player]
        offs, weights, _ = fite_rule.split_strategy(dice, state.dice[1 - player], mine, theirs)
        off = rng.choices(offs, weights)[0]
        return ("split", off, dice - off, False)

    def _tactic(self, state: State[Any], player: int) -> Any:
        """The tactical option that leaves the most hits dealt minus taken against the rolls as they are.

        Read from the state's public fields: the rolls and the modifiers.
        """
        if self._turn_any:
            return self._tactic_any(state, player)
        assert isinstance(state, FiteState)
        other = 1 - player
        legal = state.legal_actions(player)
        mine, theirs = state.pools(player), state.pools(other)
        my_off, my_def = state.modifiers(player)
        their_off, their_def = state.modifiers(other)
        key = (mine, theirs, my_off, my_def, their_off, their_def, len(legal))
        best_index = self._best.get(key)
        if best_index is None:
            best_index, best = 0, None
            attack, defence = theirs
            for i, (off, dfn) in enumerate(self._outcomes(mine, legal)):
                # uncancelled() of the values, modifiers added, on the faces sorted as they are.
                dealt = len(off) - count_cancelled(off, defence, their_def - my_off)
                taken = len(attack) - count_cancelled(attack, dfn, my_def - their_off)
                score = (dealt - taken, -taken)
                if best is None or score > best:
                    best_index, best = i, score
            if len(self._best) > 50_000:
                self._best.clear()
            self._best[key] = best_index
        return legal[best_index]

    def _tactic_any(self, state: State[Any], player: int) -> Any:
        """:meth:`_tactic` where a turn may reach the opponent's dice: both pools after each choice.

        Read from the state's own fields (the rolls and modifiers are public), the
        opponent taken as passing, as :meth:`_tactic` takes it.
        """
        assert isinstance(state, FiteState)
        other = 1 - player
        rolled = (state.pools(0), state.pools(1))
        mods = (state.modifiers(0), state.modifiers(1))
        legal = state.legal_actions(player)
        key = (rolled, mods, player, len(legal))
        best_index = self._best_any.get(key)
        if best_index is None:
            best_index, best = 0, None
            for i, action in enumerate(legal):
                choices: list[TacticAction | None] = [None, None]
                choices[player] = cast(TacticAction, action)
                after = resolve_tactics(rolled, choices)
                attack = [f + mods[player][0] for f in after[player][0]]
                defence = [f + mods[player][1] for f in after[player][1]]
                dealt = fite_rule.uncancelled(attack, [f + mods[other][1] for f in after[other][1]])
                taken = fite_rule.uncancelled([f + mods[other][0] for f in after[other][0]], defence)
                score = (dealt - taken, -taken)
                if best is None or score > best:
                    best_index, best = i, score
            if len(self._best_any) > 50_000:
                self._best_any.clear()
            self._best_any[key] = best_index
        return legal[best_index]

    def _outcomes(self, pools: tuple[Roll, Roll], legal: Sequence[Any]) -> list[tuple[Roll, Roll]]:
        """The pools each legal tactical option leaves, in the order of ``legal``, highest faces first.

        The options depend only on the dice rolled and the fighter's entitlement
        (which the number of options tells), so they are worked out once for each.
        """
        key = (pools[0], pools[1], len(legal))
        outcomes = self._after.get(key)
        if outcomes is None:
            outcomes = [apply_tactic(pools, a) for a in legal]
            if len(self._after) > 50_000:
                self._after.clear()
            self._after[key] = outcomes
        return outcomes
