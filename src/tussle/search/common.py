"""What every search agent shares: parameters, budgets and the statistics of the last search.

A search agent is named by a spec such as ``mcts:iterations=2000,c=1.4``. The
parameters ``time`` (seconds) and ``iterations`` bound each search; with
``iterations`` alone a search is exactly reproducible for a seed, which is what
tests and fair comparisons use. After each :meth:`~tussle.agents.base.Agent.act`
the agent's ``last_stats`` says how much it searched.

>>> spec = Param("int", 100, "playouts", minimum=1)
>>> spec.parse("agent", "n", "250")
250
>>> spec.parse("agent", "n", "0")
Traceback (most recent call last):
tussle.errors.AgentError: agent 'agent': n=0 is below the minimum 1
"""

from __future__ import annotations

import math
import time
from abc import abstractmethod
from collections.abc import Callable
from typing import Any, ClassVar

from tussle.agents.base import Agent, PlayerView
from tussle.agents.params import Param
from tussle.game import Game
from tussle.search.policy import GamePolicy, policy_for

#: The time budget of a search agent given neither ``time`` nor ``iterations``.
DEFAULT_TIME = 0.5


#: The budget parameters every search agent takes.
BUDGET_PARAMS: dict[str, Param] = {
    "time": Param(
        "float", None, "seconds per move (the default budget is 0.5 s)", minimum=0.001, maximum=3600
    ),
    "iterations": Param(
        "int", None, "search iterations per move: reproducible for a seed", minimum=1, maximum=10**9
    ),
}


class Budget:
    """When a search must stop: after ``iterations``, after ``seconds``, or whichever comes first.

    ``clock`` reads the time in seconds. A time budget may be spent before the
    first iteration (a loaded machine, a slow start), and tests stand in a
    clock of their own to make that happen every time.

    >>> budget = Budget(None, 3)
    >>> budget.start()
    >>> [budget.spent(i) for i in range(4)]
    [False, False, False, True]
    >>> budget = Budget(0.5, None, clock=iter([0.0, 0.6]).__next__)
    >>> budget.start()
    >>> budget.spent(0)
    True
    """

    __slots__ = ("_deadline", "clock", "iterations", "seconds")

    def __init__(
        self,
        seconds: float | None,
        iterations: int | None,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        if seconds is None and iterations is None:
            seconds = DEFAULT_TIME
        self.seconds = seconds
        self.iterations = iterations
        self.clock = clock
        self._deadline = math.inf

    def start(self) -> None:
        self._deadline = math.inf if self.seconds is None else self.clock() + self.seconds

    def spent(self, done: int) -> bool:
        """Whether a search that has done ``done`` iterations must stop now (it may be at 0)."""
        if self.iterations is not None and done >= self.iterations:
            return True
        return self._deadline != math.inf and self.clock() >= self._deadline

    def describe(self) -> str:
        parts = []
        if self.seconds is not None:
            parts.append(f"time={self.seconds:g}")
        if self.iterations is not None:
            parts.append(f"iterations={self.iterations}")
        return ",".join(parts)


class SearchAgent(Agent):
    """An agent that searches within a budget and reports ``last_stats``.

    Subclasses declare their parameters in ``PARAMS``, the budget ones
    (:data:`BUDGET_PARAMS`) among them, and implement :meth:`search`, which returns the chosen action and
    statistics; ``iterations`` and ``seconds`` are always among ``last_stats``.

    Whatever the budget, :meth:`act` returns one of the view's legal actions: a
    search whose budget runs out before it has judged any move (a time budget
    spent before the first iteration) plays a cheap fallback that each agent
    names in its docstring, instead of failing on an empty tree.
    """

    PARAMS: ClassVar[dict[str, Param]] = BUDGET_PARAMS

    def setup(self) -> None:
        self.budget = Budget(self.params["time"], self.params["iterations"])
        self.last_stats: dict[str, float] = {}
        self._check_game(self.game)
        #: The game's search knowledge: evaluation, move order, playouts.
        self.policy: GamePolicy = policy_for(self.game)

    def _check_game(self, game: Game) -> None:
        """Raise :class:`AgentError` if this agent cannot play ``game``."""

    def act(self, view: PlayerView) -> Any:
        started = time.perf_counter()
        legal = view.legal_actions()
        if len(legal) == 1:
            self.last_stats = {"iterations": 0.0, "seconds": time.perf_counter() - started}
            return legal[0]
        self.budget.start()
        action, stats = self.search(view)
        stats["seconds"] = time.perf_counter() - started
        stats.setdefault("iterations", 0.0)
        self.last_stats = stats
        return action

    @abstractmethod
    def search(self, view: PlayerView) -> tuple[Any, dict[str, float]]:
        """The action to play and the statistics of the search (``iterations`` at least)."""
