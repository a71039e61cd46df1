"""The dice race's computer players by rule: hold at a few points, or roll for the win."""

from __future__ import annotations

from typing import Any

from toy_game.rules import HOLD, ROLL
from tussle.agents.base import Agent, PlayerView


class DiceRaceRuleAgent(Agent):
    """Holds once the turn has made 4 points, or enough to win; rolls otherwise.

    >>> from toy_game import DiceRace
    >>> game = DiceRace(target=12)
    >>> state = game.new_initial_state()
    >>> agent = DiceRaceRuleAgent(game, 0)
    >>> agent.act(PlayerView(state, 0))
    'roll'
    """

    hold_at = 4

    def act(self, view: PlayerView) -> Any:
        legal = view.legal_actions()
        obs = view.observation()
        pot, mine = obs["pot"], obs["scores"][self.player]
        target = self.game.options["target"]
        if HOLD in legal and (pot >= self.hold_at or mine + pot >= target):
            return HOLD
        return ROLL


class GreedyAgent(DiceRaceRuleAgent):
    """Rolls until the turn would win (a game-only agent: ``dice-race:greedy``)."""

    hold_at = 1000
