"""Fight!'s search knowledge: the Glory margin, and opponents who play by a rule in the tree.

The game declares it in ``GameInfo.hooks.search``; the generic searches
(:mod:`tussle.search`) call it for evaluations, playout moves and move order,
on states resampled for the searching player.

>>> from tussle import load_game
>>> from tussle.search.policy import policy_for
>>> type(policy_for(load_game("fight"))).__name__
'FightPolicy'
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import Any

from tussle.game import Actions, Game, State
from tussle.games.fight.cards import FAMILIES
from tussle.games.fight.rules import FightState
from tussle.search.policy import GamePolicy


class FightPolicy(GamePolicy):
    """Playouts a few moves deep, scored by the Glory margin; in the tree, opponents play by a rule.

    A finished game is scored by its Glory margin too, with a bonus for the
    winner: a close win and a wide win both win, but the margin tells apart
    the many playouts that end the same way and makes the averages steadier.

    In the search tree every play of Warriors but the searching player's first
    is :meth:`opponent_play`. Searched, an opponent's play met a different
    hand in almost every sampled state (hundreds of plays, each tried once),
    so the tree faced an opponent playing at random and a longer search only
    sharpened the answer to that. The tree also tells an opponent's plays
    apart by the Main alone (:meth:`seen`), since the Boost goes down face down.
    """

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        # Arena name -> its rule's key function; action -> its Main Warrior's name.
        self._keys: dict[str, Callable[[str, int], float | None]] = {}
        self._mains: dict[Any, str] = {}

    # Thirty moves reach the end of most games from anywhere: measured against `rule`, 1000
    # iterations won 28 of 40 games with depth 30 and with depth 100, but 21 of 40 with depth 6,
    # whose playouts mostly stop before a Fight is decided.
    default_depth = 30
    default_rollout = "random"
    scale = 8.0

    def _margins(self, state: State[Any]) -> list[float]:
        # The Glory the public view shows each seat, read from the state.
        assert isinstance(state, FightState)
        glory = [float(state.glory(p)) for p in range(state.num_players)]
        out = []
        for p in range(len(glory)):
            best_other = max(g for q, g in enumerate(glory) if q != p)
            out.append(math.tanh((glory[p] - best_other) / self.scale))
        return out

    def evaluate(self, state: State[Any]) -> list[float]:
        return self._margins(state)

    def values(self, state: State[Any]) -> list[float]:
        margins = self._margins(state)
        result = state.result()
        if result is None:
            return margins
        return [0.5 * r + 0.5 * m for r, m in zip(result.returns, margins, strict=True)]

    def tree_actions(
        self, state: State[Any], acting: tuple[int, ...], rng: random.Random
    ) -> list[Any] | None:
        p = acting[0]
        legal = state.legal_actions(p)
        if len(legal) < 2 or not isinstance(legal[0], tuple):
            return None
        # The search fixes only the opponents' plays (its own stay searched, see Mcts.iterate).
        return [self.opponent_play(state, p, legal, rng)]

    def rollout_action(self, state: State[Any], player: int, rng: random.Random) -> Any:
        legal = state.legal_actions(player)
        if len(legal) > 1 and isinstance(legal[0], tuple):
            return self.opponent_play(state, player, legal, rng)
        return legal.sample(rng)

    def seen(self, player: int, action: Any, observer: int) -> Any:
        # An opponent's Boost goes down face down: the observer's tree tells plays apart by the Main.
        if player != observer and isinstance(action, tuple):
            return action[0]
        return action

    def _key(self, state: FightState) -> Callable[[str, int], float | None]:
        # A deck's Arena names are unique, so the name stands for the rule.
        arena = state.deck.arenas[state.arena]
        key = self._keys.get(arena.name)
        if key is None:
            key = self._keys[arena.name] = _arena_key(arena.condition.to_json())
        return key

    def opponent_play(self, state: State[Any], player: int, legal: Actions[Any], rng: random.Random) -> Any:
        """A plausible play of ``player``: a Main that takes the Arena if one can, else the weakest.

        The Main that wins by the widest margin under the Arena's rule (ties go
        to whoever played first, so it must beat every Main on the table); with
        none, the Main that scores worst here, kept back from the Arenas to
        come. The Boost is drawn at random among the rest.
        """
        # What the player's observation shows (the Arena, the Mains on the table and their
        # powers now, its own hand), read from the state.
        assert isinstance(state, FightState)
        key = self._key(state)
        warriors = state.deck.warriors
        table = [
            key(FAMILIES[warriors[m].family], power)
            for m, power in zip(state.mains, state.powers, strict=True)
            if m >= 0
        ]
        bar = max((k for k in table if k is not None), default=None)
        cards = {w.name: key(FAMILIES[w.family], w.power) for w in (warriors[c] for c in state.hands[player])}
        mains = self._mains
        scores: dict[str, float] = {}
        for action in legal:
            name = mains.get(action)
            if name is None:
                name = mains[action] = warriors[action[0]].name
            if name not in scores:
                k = cards[name]
                scores[name] = -1000.0 if k is None else k
        wins = [n for n, k in scores.items() if k > -1000.0 and (bar is None or k > bar)]
        choice = max(wins, key=scores.__getitem__) if wins else min(scores, key=scores.__getitem__)
        options = [a for a in legal if mains[a] == choice]
        return options[rng.randrange(len(options))]


def _arena_key(rule: dict[str, Any]) -> Callable[[str, int], float | None]:
    """How good a Main Warrior (family, power) is under an Arena's rule: higher is better, None cannot win."""
    goal = rule["goal"]
    value = rule.get("value", 0)
    measure = rule.get("measure", "power")
    parity = rule.get("parity", "")
    families = rule.get("family")
    lo = rule.get("min_power")
    hi = rule.get("max_power")

    def key(family: str, power: int) -> float | None:
        if power < 1 or (families is not None and family not in families):
            return None
        if (lo is not None and power < lo) or (hi is not None and power > hi):
            return None
        if parity and (power % 2 == 1) != (parity == "odd"):
            return None
        m = power
        if measure == "digit_sum":
            m = sum(int(d) for d in str(power))
        elif measure == "last_digit":
            m = power % 10
        if goal == "highest":
            return float(m)
        if goal == "lowest":
            return float(-m)
        return float(-abs(m - value))

    return key
