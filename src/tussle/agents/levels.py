"""The computer opponents' strength levels: ``easy``, ``medium`` and ``hard`` for each game.

Each level is an agent spec, chosen per game by measurement and declared by the
game (``GameInfo.hooks.levels``; docs/strength.md has the ladders): the search
that plays that game best, with a budget of iterations rather than seconds, so
that a level plays the same moves for a seed on any machine and the measured
ladder is the level people meet. ``medium`` is the default opponent of ``tussle
play`` and answers within about a second on a 2-core machine (docs/agents.md
has the times); ``easy`` is quicker and weaker, ``hard`` thinks longer.

>>> level_spec("tank-chess", "medium")
'alphabeta:iterations=2500'

>>> from tussle import load_game
>>> from tussle.agents import make_agent
>>> make_agent("easy", load_game("fite"), 0, seed=1)
<LevelAgent 'easy' seat 0>
"""

from __future__ import annotations

import time
from typing import Any

from tussle.agents.base import Agent, PlayerView
from tussle.errors import AgentError
from tussle.registry import game_info

LEVEL_NAMES = ("easy", "medium", "hard")

#: The levels of a game that declares none in ``GameInfo.hooks.levels``:
#: information-set search fits every game.
DEFAULT_LEVELS = {
    "easy": "ismcts:iterations=300",
    "medium": "ismcts:iterations=1500",
    "hard": "ismcts:iterations=6000",
}


def level_spec(game_id: str, level: str) -> str:
    """The agent spec of ``level`` in the game ``game_id``.

    >>> level_spec("fight", "hard")
    'ismcts:iterations=2000'
    """
    if level not in LEVEL_NAMES:
        raise AgentError(f"unknown level {level!r} (levels: {', '.join(LEVEL_NAMES)})")
    return dict(game_info(game_id).hooks.levels or DEFAULT_LEVELS)[level]


class LevelAgent(Agent):
    """Plays a level (``easy``, ``medium``, ``hard``) by the agent the level table names for the game."""

    default_spec = "medium"

    def setup(self) -> None:
        from tussle.agents import make_agent

        self.inner = make_agent(self.plays, self.game, self.player, self.seed)
        self.last_stats: dict[str, float] = {}

    @property
    def plays(self) -> str:
        """The spec of the agent this level plays in this game."""
        return level_spec(self.game.info.id, self.spec_name)

    def undeclared(self, key: str) -> AgentError:
        return AgentError(
            f"agent {self.spec!r}: a level takes no parameters "
            f"(it plays {self.plays!r}; give that spec to change the budget)"
        )

    def act(self, view: PlayerView) -> Any:
        started = time.perf_counter()
        action = self.inner.act(view)
        stats = dict(getattr(self.inner, "last_stats", {}))
        stats.setdefault("iterations", 0.0)
        stats["seconds"] = time.perf_counter() - started
        self.last_stats = stats
        return action
