"""Information-set Monte Carlo tree search, for games with hidden information.

Each iteration draws a fresh full state from the player's view
(:meth:`~tussle.agents.base.PlayerView.sample_state`: the hidden cards, dice or
secret choices redrawn consistently with everything the player has seen) and
runs one descent of the shared tree on it. A node stands for the moves played
since the root, so its statistics average over every sampled state; an action
that is legal only in some samples is judged against the visits in which it
was available. This is single-observer ISMCTS: the tree treats the other
players' moves as seen, but the root player never sees the true hidden state,
only samples of it. It plays any game: simultaneous steps are searched with a
separate chooser per player (decoupled UCT), several players each maximise
their own return.

>>> from tussle import load_game
>>> from tussle.agents.base import PlayerView
>>> from tussle.runner import play_game
>>> game = load_game("fight", players=3)
>>> agents = [IsMctsAgent(game, p, seed=p, params={"iterations": "20"}) for p in range(3)]
>>> state, record = play_game(game, agents, seed=4)
>>> state.is_terminal()
True
"""

from __future__ import annotations

from tussle.search.mcts import TreeAgent


class IsMctsAgent(TreeAgent):
    """ISMCTS (spec ``ismcts:time=0.5,c=0.7``): a fresh sampled state each iteration."""

    resample_each = True
