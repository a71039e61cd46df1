"""Search for games with simultaneous secret choices: Robo Battle Pigs, FITE.

At a step where both players choose at once, each player's choice comes from
its own chooser at the node, and neither sees the other's: decoupled UCT
(``select=ucb``) or regret matching (``select=rm``), whose average strategy
approaches an equilibrium of the step's matrix game, so the agent mixes
instead of playing one predictable choice. With ``final=mix`` the agent draws
its move from that average strategy, with ``final=max`` it plays the choice
the strategy favours most.

Huge action sets are never listed: a Robo Battle Pigs program (up to 59,049
of them) is built command by command, with one chooser per prefix of the
program, so that good openings are shared by every program that starts with
them. Hidden submissions are redrawn from the view at each iteration.

>>> from tussle import load_game
>>> from tussle.agents.base import PlayerView
>>> game = load_game("robo-pigs")
>>> state = game.new_initial_state()
>>> agent = SmMctsAgent(game, 1, seed=2, params={"iterations": "300"})
>>> agent.act(PlayerView(state, 1)) in state.legal_actions(1)
True
"""

from __future__ import annotations

from typing import ClassVar

from tussle.agents.params import Param
from tussle.errors import AgentError
from tussle.game import Dynamics, Game
from tussle.search.common import BUDGET_PARAMS
from tussle.search.mcts import TREE_PARAMS, TreeAgent

SIMULTANEOUS_PARAMS: dict[str, Param] = {
    **TREE_PARAMS,
    "select": Param(
        "choice",
        "ucb",
        "chooser at simultaneous steps: ucb (decoupled UCT) or rm (regret matching)",
        choices=("ucb", "rm"),
    ),
    "gamma": Param("float", 0.1, "exploration of regret matching", minimum=0.001, maximum=1),
    "final": Param(
        "choice",
        "max",
        "the move played: max (the favourite) or mix (drawn from the average strategy, with select=rm)",
        choices=("max", "mix"),
    ),
}


class SmMctsAgent(TreeAgent):
    """Simultaneous-move MCTS (spec ``smmcts:time=0.5,select=rm``)."""

    PARAMS: ClassVar[dict[str, Param]] = {**BUDGET_PARAMS, **SIMULTANEOUS_PARAMS}
    resample_each = True

    def _check_game(self, game: Game) -> None:
        if game.info.dynamics != Dynamics.SIMULTANEOUS:
            raise AgentError(
                f"agent {self.spec!r}: smmcts is for games with simultaneous steps; "
                f"{game.info.id} is sequential (use mcts, ismcts or alphabeta)"
            )
