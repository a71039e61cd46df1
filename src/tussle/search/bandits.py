"""The choosers at the nodes of a search tree, one per acting player.

* :class:`UcbBandit`: UCB1 with availability counts (under hidden information
  an action is not legal in every sampled state, so each action counts the
  visits in which it could have been chosen), and progressive widening for
  large action sets: a node tries a few actions first (the policy's most
  promising, or random ones) and admits more as its visits grow.
* :class:`RegretBandit`: regret matching with sampled payoffs, for
  simultaneous steps; its average strategy approaches an equilibrium.
* :class:`PrefixBandit`: for actions built piece by piece (a Robo Battle Pigs
  program, command by command): one UCB1 chooser per prefix, so that a huge
  action set is never listed.

Values given to ``update`` are in [0, 1], 1 best for the chooser.

>>> import random
>>> bandit = UcbBandit()
>>> rng = random.Random(1)
>>> for _ in range(200):
...     arm = bandit.select(["a", "b"], 1.0, rng)
...     bandit.update(arm, 1.0 if arm == "b" else 0.0)
>>> bandit.best()
'b'
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from typing import Any

_log = math.log
_sqrt = math.sqrt


class UcbBandit:
    """UCB1 over actions, with availability counts and optional progressive widening."""

    __slots__ = ("arms", "next_index", "ordered", "stats", "visits")

    def __init__(self) -> None:
        #: action -> [visits, total value, times available]
        self.stats: dict[Any, list[float]] = {}
        self.visits = 0
        # Progressive widening: the actions admitted so far and where to take more.
        self.arms: list[Any] = []
        self.ordered: list[Any] | None = None
        self.next_index = 0

    def select(self, candidates: Sequence[Any], c: float, rng: random.Random) -> Any:
        """The action to try among ``candidates`` (those legal now, in order of promise)."""
        self.visits += 1
        stats = self.stats
        best: Any = None
        best_score = -1.0
        unvisited: Any = None
        for action in candidates:
            s = stats.get(action)
            if s is None:
                s = stats[action] = [0, 0.0, 0]
            s[2] += 1
            n = s[0]
            if n == 0:
                if unvisited is None:
                    unvisited = action
                continue
            score = s[1] / n + c * _sqrt(_log(s[2]) / n)
            if score > best_score:
                best, best_score = action, score
        if unvisited is not None:
            return unvisited
        return best

    def widened(
        self,
        legal: Sequence[Any],
        widen: float,
        order: Callable[[], list[Any]] | None,
        rng: random.Random,
        check: bool,
    ) -> list[Any]:
        """The admitted actions that are legal now, admitting more as visits grow.

        ``order`` lists the legal actions best first (called once); without it
        new actions are drawn at random. ``check`` tests each admitted action
        against ``legal`` (needed when the legal set changes between samples).
        """
        allowed = 1 + int(widen * _sqrt(self.visits + 1))
        arms = self.arms
        if len(arms) < allowed:
            if self.ordered is None and order is not None:
                self.ordered = order()
            ordered = self.ordered
            tries = 0
            while len(arms) < allowed and tries < 4 * allowed:
                tries += 1
                if ordered is not None:
                    if self.next_index >= len(ordered):
                        break
                    action = ordered[self.next_index]
                    self.next_index += 1
                else:
                    action = legal[rng.randrange(len(legal))]
                fresh = action not in self.stats or self.stats[action][0] == 0
                if fresh and action not in arms:
                    arms.append(action)
        if not check:
            return arms
        now = [a for a in arms if a in legal]
        if not now:
            extra = legal[rng.randrange(len(legal))]
            arms.append(extra)
            now = [extra]
        return now

    def update(self, key: Any, value: float) -> None:
        s = self.stats[key]
        s[0] += 1
        s[1] += value

    def best(self) -> Any:
        """The most visited action (ties: the higher mean value)."""
        return max(
            self.stats, key=lambda a: (self.stats[a][0], self.stats[a][1] / max(1.0, self.stats[a][0]))
        )

    def mean(self, action: Any) -> float:
        s = self.stats.get(action)
        return s[1] / s[0] if s and s[0] else 0.0


class RegretBandit:
    """Regret matching with sampled payoffs and ``gamma`` exploration (for simultaneous steps).

    >>> import random
    >>> bandit, rng = RegretBandit(0.1), random.Random(2)
    >>> for _ in range(2000):
    ...     key = bandit.select(["rock", "paper"], rng)
    ...     bandit.update(key, 1.0 if key[0] == "paper" else 0.2)
    >>> bandit.best()
    'paper'
    """

    __slots__ = ("actions", "gamma", "index", "regret", "total")

    def __init__(self, gamma: float) -> None:
        self.gamma = gamma
        self.actions: list[Any] = []
        self.index: dict[Any, int] = {}
        self.regret: list[float] = []
        self.total: list[float] = []  # the sum of the strategies played, for the average

    def _admit(self, legal: Sequence[Any]) -> None:
        for action in legal:
            if action not in self.index:
                self.index[action] = len(self.actions)
                self.actions.append(action)
                self.regret.append(0.0)
                self.total.append(0.0)

    def strategy(self, legal: Sequence[Any]) -> list[float]:
        """The current mixed strategy over ``legal`` (regret matching, with exploration)."""
        # Under open-loop chance a node may see different legal sets: admit new actions.
        self._admit(legal)
        idx = [self.index[a] for a in legal]
        positive = [max(0.0, self.regret[i]) for i in idx]
        norm = sum(positive)
        k = len(idx)
        if norm <= 0.0:
            return [1.0 / k] * k
        g = self.gamma
        return [(1.0 - g) * p / norm + g / k for p in positive]

    def select(self, legal: Sequence[Any], rng: random.Random) -> tuple[Any, float, tuple[Any, ...]]:
        """An action drawn from the current strategy, as the key :meth:`update` takes."""
        probs = self.strategy(legal)
        for i, p in zip((self.index[a] for a in legal), probs, strict=True):
            self.total[i] += p
        pick = rng.random()
        chosen = len(probs) - 1
        for j, p in enumerate(probs):
            pick -= p
            if pick < 0.0:
                chosen = j
                break
        return legal[chosen], probs[chosen], tuple(legal)

    def update(self, key: tuple[Any, float, tuple[Any, ...]], value: float) -> None:
        action, prob, legal = key
        chosen = self.index[action]
        gain = value / prob
        regret = self.regret
        for a in legal:
            i = self.index[a]
            regret[i] += (gain if i == chosen else 0.0) - value

    def average(self) -> dict[Any, float]:
        """The average strategy played so far."""
        norm = sum(self.total) or 1.0
        return {a: self.total[i] / norm for i, a in enumerate(self.actions)}

    def best(self) -> Any:
        """The action the average strategy plays most."""
        return max(self.actions, key=lambda a: self.total[self.index[a]])


class PrefixBandit:
    """UCB1 choosers over the pieces of an action, one per prefix.

    ``pieces(prefix)`` lists what may follow ``prefix`` (None once it is a
    whole action) and ``make(prefix)`` turns a whole prefix into the action.

    >>> import random
    >>> bandit, rng = PrefixBandit(), random.Random(3)
    >>> pieces = lambda prefix: None if len(prefix) == 2 else ["x", "y"]
    >>> for _ in range(300):
    ...     key = bandit.select(pieces, "".join, 0.7, rng)
    ...     bandit.update(key, 1.0 if key == ("y", "x") else 0.3)
    >>> bandit.best()
    'yx'
    """

    __slots__ = ("made", "trie")

    def __init__(self) -> None:
        #: prefix -> {piece: [visits, total value]}, with the prefix's own visits under None
        self.trie: dict[tuple[str, ...], dict[Any, list[float]]] = {}
        self.made: dict[tuple[str, ...], Any] = {}

    def select(
        self,
        pieces: Callable[[tuple[str, ...]], Sequence[str] | None],
        make: Callable[[tuple[str, ...]], Any],
        c: float,
        rng: random.Random,
    ) -> tuple[str, ...]:
        """A whole prefix, chosen piece by piece (the key for :meth:`update`)."""
        prefix: tuple[str, ...] = ()
        trie = self.trie
        while True:
            options = pieces(prefix)
            if options is None:
                break
            arms = trie.get(prefix)
            if arms is None:
                arms = trie[prefix] = {None: [0, 0.0]}
            here = arms[None]
            here[0] += 1
            log_n = _log(here[0])
            best: str | None = None
            best_score = -1.0
            fresh: list[str] = []
            for piece in options:
                s = arms.get(piece)
                if s is None or s[0] == 0:
                    fresh.append(piece)
                    continue
                score = s[1] / s[0] + c * _sqrt(log_n / s[0])
                if score > best_score:
                    best, best_score = piece, score
            if fresh:
                best = fresh[rng.randrange(len(fresh))]
            assert best is not None
            prefix += (best,)
        if prefix not in self.made:
            self.made[prefix] = make(prefix)
        return prefix

    def action(self, key: tuple[str, ...]) -> Any:
        return self.made[key]

    def update(self, key: tuple[str, ...], value: float) -> None:
        trie = self.trie
        for i, piece in enumerate(key):
            arms = trie[key[:i]]
            s = arms.get(piece)
            if s is None:
                s = arms[piece] = [0, 0.0]
            s[0] += 1
            s[1] += value

    def best(self) -> Any:
        """The action reached by following the most visited piece at every prefix."""
        prefix: tuple[str, ...] = ()
        while prefix not in self.made:
            arms = self.trie[prefix]
            prefix += (max((p for p in arms if p is not None), key=lambda p: arms[p][0]),)
        return self.made[prefix]
