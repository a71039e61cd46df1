"""Adapters to the reinforcement-learning ecosystem: PettingZoo, Gymnasium and OpenSpiel.

They need the optional extra ``rl`` (``pip install tussle[rl]``: numpy,
gymnasium, pettingzoo, open_spiel); the core never imports them. Everything
here stands on the core API alone (notation, legal actions, observations,
``resample``), never on a game's internals:

- :mod:`tussle.adapters.encoding`: each game's fixed integer action space, read
  from its notation, and its observation arrays, built from each player's
  observation;
- :mod:`tussle.adapters.pettingzoo_env`: an AEC environment for every game and
  a Parallel one for the games with simultaneous steps;
- :mod:`tussle.adapters.gymnasium_env`: one seat against fixed tussle agents;
- :mod:`tussle.adapters.openspiel_game`: every game registered as a pyspiel
  Python game, with helpers to play tussle agents against OpenSpiel bots;
- :mod:`tussle.adapters.openspiel_bench`: tussle's MCTS against OpenSpiel's
  MCTSBot at the same time per move.

See docs/ecosystem.md for examples and the action numbering of each game.
"""
