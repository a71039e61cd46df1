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
from typing import Any

from tussle.game import PUBLIC, Game, State
from tussle.games.fite import rule_agent as fite_rule
from tussle.games.fite.notation import TacticAction
from tussle.games.fite.rules import FiteState, resolve_tactics
from tussle.search.policy import GamePolicy


def _fite_strength(dice: int) -> float:
    return float(dice) if dice >= 2 else 0.0


class FitePolicy(GamePolicy):
    """Splits searched, tactical options played greedily, positions scored by the dice left.

    The playout policy is the rule-of-thumb agent's: the tactical location,
    Swift to it, the rule's equilibrium split of the dice, the greedy tactical
    option. The step is told by the notation of the first legal action, so that
    an observation (costly here) is built only where its data is needed.
    """

    default_depth = 12
    default_rollout = "rule"

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        self._parsed: dict[tuple[int, str], Any] = {}
        self._tactics: dict[
            tuple[tuple[int, ...], tuple[int, ...], int], list[tuple[list[int], list[int]]]
        ] = {}
        #: Under turn_dice=any a turn may reach the opponent's dice: choices are scored on both pools.
        self._turn_any = game.options["turn_dice"] == "any"
        self._best_any: dict[tuple[Any, ...], int] = {}

    def _parse(self, state: State, player: int, text: str) -> Any:
        # Placement and split actions are plain values, the same in every state.
        key = (player, text)
        action = self._parsed.get(key)
        if action is None:
            action = self._parsed[key] = state.parse_action(player, text)
        return action

    @staticmethod
    def step(state: State, player: int) -> str:
        """``place``, ``swift``, ``split`` or ``tactical``, from the legal actions' notation."""
        first = state.action_to_str(player, state.legal_actions(player)[0])
        if first[0].isdigit():
            return "split"
        if first in ("stay",) or first.startswith("swift"):
            return "swift"
        if first.startswith(("off", "def", "tac")):
            return "place"
        return "tactical"

    def evaluate(self, state: State) -> list[float]:
        fighters = state.observation(PUBLIC)["fighters"]
        diff = _fite_strength(fighters[0]["dice"]) - _fite_strength(fighters[1]["dice"])
        v = math.tanh(diff / 3.0)
        return [v, -v]

    def tree_actions(self, state: State, acting: tuple[int, ...], rng: random.Random) -> list[Any] | None:
        if self.step(state, acting[0]) != "tactical":
            return None
        obs = state.observation(PUBLIC)
        return [self._tactic(state, p, obs) for p in acting]

    def rollout_actions(self, state: State, acting: tuple[int, ...], rng: random.Random) -> list[Any]:
        step = self.step(state, acting[0])
        if step == "place":
            return [self._parse(state, p, "tac 5") for p in acting]
        if step == "swift":
            out = []
            for p in acting:
                texts = [state.action_to_str(p, a) for a in state.legal_actions(p)]
                out.append(self._parse(state, p, "swift tac" if "swift tac" in texts else "stay"))
            return out
        if step == "split" and len(acting) == 2:
            return [self._split(state, p, rng) for p in acting]
        obs = state.observation(PUBLIC)
        if step == "split":
            return [self._observed_split(state, p, obs, rng) for p in acting]
        return [self._tactic(state, p, obs) for p in acting]

    def rollout_action(self, state: State, player: int, rng: random.Random) -> Any:
        return self.rollout_actions(state, (player,), rng)[0]

    def _split(self, state: State, player: int, rng: random.Random) -> Any:
        """The rule's split, both fighters splitting (each one's dice read from its split's notation).

        Playouts place at the tactical location, so no location bonus is assumed.
        """
        dice = [self._dice(state, p) for p in (0, 1)]
        offs, weights, _ = fite_rule.split_strategy(dice[player], dice[1 - player], (0, 0), (0, 0))
        off = rng.choices(offs, weights)[0]
        return self._parse(state, player, f"{off}/{dice[player] - off}")

    @staticmethod
    def _dice(state: State, player: int) -> int:
        off, _, dfn = state.action_to_str(player, state.legal_actions(player)[0]).partition("/")
        return int(off) + int(dfn.split()[0])

    def _observed_split(self, state: State, player: int, obs: dict[str, Any], rng: random.Random) -> Any:
        me, them = obs["fighters"][player], obs["fighters"][1 - player]
        mine = (int(me["location"] == "off"), int(me["location"] == "def"))
        theirs = (int(them["location"] == "off"), int(them["location"] == "def"))
        offs, weights, _ = fite_rule.split_strategy(me["dice"], them["dice"], mine, theirs)
        off = rng.choices(offs, weights)[0]
        return self._parse(state, player, f"{off}/{me['dice'] - off}")

    def _tactic(self, state: State, player: int, obs: dict[str, Any]) -> Any:
        """The tactical option that leaves the most hits dealt minus taken against the rolls as they are."""
        if self._turn_any:
            return self._tactic_any(state, player)
        other = 1 - player
        fight = obs["fight"]
        mods = fight["modifiers"]
        rolls = fight["rolls"]
        their_off = [v + mods[other]["off"] for v in rolls[other]["off"]]
        their_def = [v + mods[other]["def"] for v in rolls[other]["def"]]
        legal = state.legal_actions(player)
        my_off, my_def = mods[player]["off"], mods[player]["def"]
        best_index, best = 0, None
        for i, (off, dfn) in enumerate(self._outcomes(state, player, rolls[player], legal)):
            dealt = fite_rule.uncancelled([v + my_off for v in off], their_def)
            taken = fite_rule.uncancelled(their_off, [v + my_def for v in dfn])
            score = (dealt - taken, -taken)
            if best is None or score > best:
                best_index, best = i, score
        return legal[best_index]

    def _tactic_any(self, state: State, player: int) -> Any:
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
                choices[player] = action
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

    def _outcomes(
        self, state: State, player: int, roll: dict[str, list[int]], legal: Sequence[Any]
    ) -> list[tuple[list[int], list[int]]]:
        """The pools each legal tactical option leaves, in the order of ``legal``.

        The options depend only on the dice rolled and the fighter's entitlement
        (which the number of options tells), so they are worked out once for each.
        """
        key = (tuple(roll["off"]), tuple(roll["def"]), len(legal))
        outcomes = self._tactics.get(key)
        if outcomes is None:
            pools = (list(roll["off"]), list(roll["def"]))
            outcomes = [fite_after_tactic(pools, state.action_to_str(player, a)) for a in legal]
            if len(self._tactics) > 50_000:
                self._tactics.clear()
            self._tactics[key] = outcomes
        return outcomes


_FITE_POOLS = {"off": 0, "def": 1}


def fite_after_tactic(pools: tuple[list[int], list[int]], text: str) -> tuple[list[int], list[int]]:
    """A fighter's (offensive, defensive) faces after the tactical choice written ``text``.

    >>> fite_after_tactic(([6, 5, 1], [2]), "move off>def 6 and turn off 1")
    ([5, 6], [2, 6])
    >>> fite_after_tactic(([3], [2, 1]), "turn off 3 def 1")
    ([4], [2, 6])
    """
    lists = [list(pools[0]), list(pools[1])]
    for part in text.split(" and "):
        words = part.split()
        if words[0] == "move":
            source, target = (_FITE_POOLS[w] for w in words[1].split(">"))
            for face in words[2].split(","):
                lists[source].remove(int(face))
                lists[target].append(int(face))
        elif words[0] == "turn":
            pool = 0
            for word in words[1:]:
                if word in _FITE_POOLS:
                    pool = _FITE_POOLS[word]
                    continue
                for face in word.split(","):
                    lists[pool].remove(int(face))
                    lists[pool].append(7 - int(face))
    return lists[0], lists[1]
