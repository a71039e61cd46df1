"""A rule-of-thumb agent for Fight!: look one Fight ahead in a few guessed worlds.

For every legal action it samples a handful of full states consistent with
what it has seen (:meth:`PlayerView.sample_state`), plays the rest of the
current Fight in each (opponents still to play pick random Warriors and every
opponent scores its Boost; at its own Boost it takes the better of activating
and scoring), and counts the Glory it gains minus the mean Glory its opponents
gain. It uses only the view, the observation data and the structured form of scoring.

>>> from tussle import load_game
>>> from tussle.runner import play_game
>>> game = load_game("fight")
>>> agents = [FightRuleAgent(game, 0, seed=1), FightRuleAgent(game, 1, seed=2)]
>>> state, record = play_game(game, agents, seed=3)
>>> state.is_terminal()
True
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from tussle.agents.base import Agent, PlayerView
from tussle.agents.params import Param
from tussle.game import CHANCE, State

_FIGHT_OVER = ("draw", "over")
_SCORE = {"kind": "score"}  # the structured form of scoring a Boost


class FightRuleAgent(Agent):
    """Greedy one-Fight lookahead over sampled worlds (parameter ``samples``, default 4)."""

    PARAMS: ClassVar[dict[str, Param]] = {
        "samples": Param("int", 4, "worlds sampled for each legal action", minimum=1, maximum=64)
    }

    def setup(self) -> None:
        self.samples: int = self.params["samples"]

    def act(self, view: PlayerView) -> Any:
        legal = view.legal_actions()
        if len(legal) == 1:
            return legal[0]
        before = [seat["glory"] for seat in view.observation()["seats"]]
        worlds = [(view.sample_state(self.rng), self.rng.getrandbits(32)) for _ in range(self.samples)]
        best: Any = legal[0]
        best_value = float("-inf")
        for action in legal:
            total = 0.0
            for world, seed in worlds:
                state = world.clone()
                state.apply(self.player, action)
                total += self._finish(state, random.Random(seed), before)
            if total > best_value:
                best, best_value = action, total
        return best

    def _finish(self, state: State[Any], rng: random.Random, before: list[int]) -> float:
        """The value of ``state`` once the current Fight is decided."""
        me = self.player
        while True:
            acting = state.to_act()
            if not acting:
                return self._value(state, before)
            if acting == (CHANCE,):
                if state.observation(me)["stage"] in _FIGHT_OVER:
                    return self._value(state, before)
                state.apply(CHANCE, state.sample_chance(rng))
                continue
            q = acting[0]
            legal = state.legal_actions(q)
            first = legal[0]
            if isinstance(first, tuple):  # a Main and a Boost to play
                state.apply(q, legal.sample(rng))
            elif q == me:  # my Boost: the better of its options
                seed = rng.getrandbits(32)
                best = float("-inf")
                for action in legal:
                    trial = state.clone()
                    trial.apply(q, action)
                    best = max(best, self._finish(trial, random.Random(seed), before))
                return best
            else:
                state.apply(q, state.action_from_json(q, _SCORE))

    def _value(self, state: State[Any], before: list[int]) -> float:
        glory: list[int] = [seat["glory"] for seat in state.observation(self.player)["seats"]]
        gains = [g - b for g, b in zip(glory, before, strict=True)]
        mine = gains[self.player]
        others = [g for p, g in enumerate(gains) if p != self.player]
        return mine - sum(others) / len(others)
