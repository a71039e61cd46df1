"""The uniform random agent."""

from __future__ import annotations

from typing import Any

from tussle.agents.base import Agent, PlayerView


class RandomAgent(Agent):
    """Picks a legal action uniformly at random (without listing large action sets)."""

    def act(self, view: PlayerView) -> Any:
        return view.legal_actions().sample(self.rng)
