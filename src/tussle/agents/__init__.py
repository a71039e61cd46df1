"""Agents and the agent-spec registry.

An agent spec is a name, optionally followed by ``:key=value,...`` parameters:
``random``, ``human``, ``rule`` (the game's rule-of-thumb agent).

>>> from tussle import load_game
>>> make_agent("random", load_game("robo-pigs"), 0, seed=1)
<RandomAgent 'random' seat 0>
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from tussle.agents.base import Agent, PlayerView
from tussle.errors import AgentError
from tussle.game import Game

__all__ = ["Agent", "PlayerView", "agent_names", "make_agent", "parse_spec"]

# Agents that work for every game: name -> "module:Class".
_GENERAL: dict[str, str] = {
    "random": "tussle.agents.random_agent:RandomAgent",
    "human": "tussle.agents.human:HumanAgent",
    "mcts": "tussle.agents.search.mcts:MctsAgent",
    "ismcts": "tussle.agents.search.ismcts:IsMctsAgent",
    "smmcts": "tussle.agents.search.simultaneous:SmMctsAgent",
    "alphabeta": "tussle.agents.search.alphabeta:AlphaBetaAgent",
    "easy": "tussle.agents.levels:LevelAgent",
    "medium": "tussle.agents.levels:LevelAgent",
    "hard": "tussle.agents.levels:LevelAgent",
}

# Rule-of-thumb agents, one per game: game id -> "module:Class".
_RULE: dict[str, str] = {
    "robo-pigs": "tussle.agents.robo_pigs:RoboPigsRuleAgent",
    "fight": "tussle.agents.fight:FightRuleAgent",
    "fightopia": "tussle.agents.fightopia:FightopiaRuleAgent",
    "tank-chess": "tussle.agents.tank_chess:TankChessRuleAgent",
    "fite": "tussle.agents.fite:FiteRuleAgent",
}

# Agents for one game only, named game:agent: name -> (game id, "module:Class").
# parse_spec takes such a name whole, so that its colon does not start the parameters.
_SCOPED: dict[str, tuple[str, str]] = {
    "fite:solved": ("fite", "tussle.agents.fite_solved:FiteSolvedAgent"),
}

_HELP: dict[str, str] = {
    "random": "a uniformly random legal action",
    "human": "a person at the terminal, typing notation",
    "rule": "the game's rule-of-thumb agent",
    "fite:solved": "the solved strategy of a model of FITE (docs/fite-solver.md); tactics=value|plan",
    "mcts": "UCT tree search (sequential perfect-information games); time=, iterations=, c=, depth=",
    "ismcts": "information-set tree search over sampled hidden states (any game); time=, iterations=",
    "smmcts": "tree search for simultaneous choices, decoupled UCT or regret matching; time=, select=",
    "alphabeta": "iterative-deepening alpha-beta (two-player sequential games); time=, iterations=, depth=",
    "easy": "the easy computer opponent of this game (see docs/agents.md)",
    "medium": "the medium computer opponent, the default of tussle play (about half a second a move)",
    "hard": "the hard computer opponent (a few seconds a move)",
}


def _load(target: str) -> Callable[..., Agent]:
    module_name, _, class_name = target.partition(":")
    cls: Callable[..., Agent] = getattr(importlib.import_module(module_name), class_name)
    return cls


def agent_names(game_id: str | None = None) -> dict[str, str]:
    """Agent names (with a one-line description) available for ``game_id``."""
    names = {name: _HELP[name] for name in _GENERAL}
    if game_id is None or game_id in _RULE:
        names["rule"] = _HELP["rule"]
    names.update({name: _HELP[name] for name, (game, _) in _SCOPED.items() if game_id in (None, game)})
    return names


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """Split ``name:key=value,...`` into the name and its parameters.

    >>> parse_spec("mcts:time=0.5,c=1.4")
    ('mcts', {'time': '0.5', 'c': '1.4'})
    >>> parse_spec("fite:solved:tactics=plan")
    ('fite:solved', {'tactics': 'plan'})
    """
    text = spec.strip()
    scoped = next((s for s in _SCOPED if text == s or text.startswith(s + ":")), None)
    if scoped is not None:
        name, rest = scoped, text[len(scoped) + 1 :]
    else:
        name, _, rest = text.partition(":")
    params: dict[str, str] = {}
    if rest:
        for part in rest.split(","):
            key, eq, value = part.partition("=")
            if not eq or not key.strip():
                raise AgentError(f"agent spec {spec!r}: {part!r} is not key=value")
            params[key.strip()] = value.strip()
    if not name:
        raise AgentError(f"agent spec {spec!r} has no agent name")
    return name, params


def make_agent(spec: str, game: Game, player: int, seed: int | None = None) -> Agent:
    """Build the agent that ``spec`` names for seat ``player`` of ``game``."""
    name, params = parse_spec(spec)
    if name in _GENERAL:
        target = _GENERAL[name]
    elif name == "rule":
        if game.info.id not in _RULE:
            raise AgentError(f"no rule-of-thumb agent for {game.info.id} yet")
        target = _RULE[game.info.id]
    elif name in _SCOPED:
        scope, target = _SCOPED[name]
        if game.info.id != scope:
            raise AgentError(f"agent {name!r} plays {scope} only, not {game.info.id}")
    else:
        known = ", ".join(agent_names(game.info.id))
        raise AgentError(f"unknown agent {name!r} (agents for {game.info.id}: {known})")
    cls = _load(target)
    kwargs: dict[str, Any] = {"spec": spec}
    if params:
        kwargs["params"] = params
    try:
        return cls(game, player, seed, **kwargs)
    except TypeError:
        raise AgentError(f"agent {name!r} takes no parameters (got {spec!r})") from None
