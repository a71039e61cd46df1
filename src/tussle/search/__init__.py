"""The generic search agents: MCTS, alpha-beta, information-set and simultaneous-move MCTS.

They name no game: what they know of one (evaluation, playouts, move order)
comes from its search policy (:mod:`tussle.search.policy`), which the game
declares in ``GameInfo.hooks.search``.
"""
