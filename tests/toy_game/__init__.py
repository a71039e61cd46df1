"""A tiny dice game for testing the core itself, with chance and turns; not registered.

Players take turns. On your turn you roll a die (a chance event) as often as you
like: a 1 loses what you rolled this turn and passes the turn; any other number
adds to it. Holding (allowed once you have rolled) banks it and passes the turn.
The first to reach ``target`` points wins.

It is laid out as every game of tussle is (docs/architecture.md, "Adding a
game"): this folder holds everything about it, and its ``GameInfo.hooks`` name
the parts, so that one registry line (:func:`registered`, which tests use for a
moment) gives it play, matches, records, the search agents and the RL adapters:

- ``rules.py``: the game and its states (all a game needs);
- ``rule_agent.py``: its rule-of-thumb agent, and a game-only agent ``dice-race:greedy``;
- ``search.py``: what the search agents know of it;
- ``encoding.py``: its integer actions and observation arrays for the RL adapters;
- ``broken.py``: deliberately broken versions, which show that the conformance
  checks catch real mistakes.

>>> state = DiceRace(players=2, target=5).new_initial_state()
>>> state.apply_str(0, "roll"), state.to_act()
('roll', (-1,))
>>> state.apply_str(CHANCE, "6"), state.legal_actions(0)
(6, ListActions(['roll', 'hold']))
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from contextlib import contextmanager

from toy_game.broken import BROKEN
from toy_game.rules import HOLD, ROLL, DiceRace, DiceRaceState
from tussle import CHANCE, Game, Hooks, registry

__all__ = ["BROKEN", "CHANCE", "HOLD", "ROLL", "BareDiceRace", "DiceRace", "DiceRaceState", "registered"]


class BareDiceRace(DiceRace):
    """The same rules with no parts declared: what generic code does for a game that has only rules."""

    info = dataclasses.replace(DiceRace.info, hooks=Hooks())


@contextmanager
def registered(cls: type[Game] | None = None) -> Iterator[str]:
    """Register ``cls`` (DiceRace by default, under its id) while the block runs: the one registry line."""
    cls = cls or DiceRace
    target = f"{cls.__module__}:{cls.__name__}"
    old = registry._GAMES.get(cls.info.id)
    registry._GAMES[cls.info.id] = target
    try:
        yield cls.info.id
    finally:
        if old is None:
            del registry._GAMES[cls.info.id]
        else:
            registry._GAMES[cls.info.id] = old
