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

from tussle.agents.base import Agent, PlayerView
from tussle.errors import AgentError
from tussle.game import AgentHook, Game
from tussle.registry import game_ids, game_info

__all__ = ["Agent", "PlayerView", "agent_names", "make_agent", "parse_spec", "playable_agents"]

# Agents that work for every game: name -> "module:Class". A game's own agents
# (its rule-of-thumb agent, ``<game>:<name>`` agents) come from its GameInfo.hooks.
_GENERAL: dict[str, str] = {
    "random": "tussle.agents.random_agent:RandomAgent",
    "human": "tussle.agents.human:HumanAgent",
    "mcts": "tussle.search.mcts:MctsAgent",
    "ismcts": "tussle.search.ismcts:IsMctsAgent",
    "smmcts": "tussle.search.simultaneous:SmMctsAgent",
    "alphabeta": "tussle.search.alphabeta:AlphaBetaAgent",
    "easy": "tussle.agents.levels:LevelAgent",
    "medium": "tussle.agents.levels:LevelAgent",
    "hard": "tussle.agents.levels:LevelAgent",
}

_HELP: dict[str, str] = {
    "random": "a uniformly random legal action",
    "human": "a person at the terminal, typing notation",
    "rule": "the game's rule-of-thumb agent",
    "mcts": "UCT tree search (sequential perfect-information games); time=, iterations=, c=, depth=",
    "ismcts": "information-set tree search over sampled hidden states (any game); time=, iterations=",
    "smmcts": "tree search for simultaneous choices, decoupled UCT or regret matching; time=, select=",
    "alphabeta": "iterative-deepening alpha-beta (two-player sequential games); time=, iterations=, depth=",
    "easy": "the easy computer opponent of this game (see docs/agents.md)",
    "medium": "the medium computer opponent, the default of tussle play (about half a second a move)",
    "hard": "the hard computer opponent (a few seconds a move)",
}


def _scoped(game_id: str | None = None) -> dict[str, tuple[str, AgentHook]]:
    """Agents for one game only (of ``game_id``, or of every game), by spec name ``<game>:<name>``."""
    ids = game_ids() if game_id is None else [game_id] if game_id in game_ids() else []
    return {f"{gid}:{hook.name}": (gid, hook) for gid in ids for hook in game_info(gid).hooks.agents}


def _load(target: str) -> Callable[..., Agent]:
    module_name, _, class_name = target.partition(":")
    cls: Callable[..., Agent] = getattr(importlib.import_module(module_name), class_name)
    return cls


def agent_names(game_id: str | None = None) -> dict[str, str]:
    """Agent names (with a one-line description) available for ``game_id``."""
    names = {name: _HELP[name] for name in _GENERAL}
    if game_id is None or (game_id in game_ids() and game_info(game_id).hooks.rule_agent):
        names["rule"] = _HELP["rule"]
    names.update({name: hook.help for name, (_, hook) in _scoped(game_id).items()})
    return names


def playable_agents(game: Game) -> dict[str, str]:
    """The agents of :func:`agent_names` that can play ``game`` (its player count and kind).

    Each is built once to see: a search made for other kinds of game refuses it.

    >>> from tussle import load_game
    >>> "alphabeta" in playable_agents(load_game("fite")), "smmcts" in playable_agents(load_game("fite"))
    (False, True)
    """
    out = {}
    for name, text in agent_names(game.info.id).items():
        try:
            make_agent(name, game, 0, seed=0)
        except AgentError:
            continue
        out[name] = text
    return out


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """Split ``name:key=value,...`` into the name and its parameters.

    >>> parse_spec("mcts:time=0.5,c=1.4")
    ('mcts', {'time': '0.5', 'c': '1.4'})
    >>> parse_spec("fite:solved:tactics=plan")
    ('fite:solved', {'tactics': 'plan'})
    """
    text = spec.strip()
    scoped = next((s for s in _scoped(text.partition(":")[0]) if text == s or text.startswith(s + ":")), None)
    if scoped is not None:
        name, rest = scoped, text[len(scoped) + 1 :]
    else:
        name, _, rest = text.partition(":")
        if name in game_ids():  # a game's own agent that the game does not declare
            own = ", ".join(_scoped(name)) or "none"
            raise AgentError(f"unknown agent {text.split(',')[0]!r} ({name}'s own agents: {own})")
    params: dict[str, str] = {}
    if rest:
        for part in rest.split(","):
            key, eq, value = part.partition("=")
            if not eq or not key.strip():
                raise _NotKeyValueError(f"agent spec {spec!r}: {part!r} is not key=value", name, part.strip())
            params[key.strip()] = value.strip()
    if not name:
        raise AgentError(f"agent spec {spec!r} has no agent name")
    return name, params


class _NotKeyValueError(AgentError):
    """A parameter of a spec with no ``=``: said again by :func:`make_agent`, which knows the game."""

    def __init__(self, message: str, name: str, word: str) -> None:
        super().__init__(message)
        self.name = name
        self.word = word


def power_elsewhere(word: str, game_id: str) -> str:
    """`` ('brutal' is a FITE power, not a Tank Chess one)`` when ``word`` names another game's power."""
    from tussle.tournament import known_powers  # the tournament module plays games: imported late

    for other in game_ids():
        if other != game_id and word.lower() in known_powers(other) and word.lower() != "none":
            here = game_info(game_id).name
            article = "an" if here[:1] in "AEIOU" else "a"
            return f"; {word!r} is a {game_info(other).name} power, not {article} {here} one"
    return ""


def make_agent(spec: str, game: Game, player: int, seed: int | None = None) -> Agent:
    """Build the agent that ``spec`` names for seat ``player`` of ``game``."""
    try:
        name, params = parse_spec(spec)
    except _NotKeyValueError as exc:
        # Said with what the word is elsewhere and what this agent does take, when it is one.
        try:
            cls = _agent_class(exc.name, game)
        except AgentError:
            raise AgentError(f"{exc}{power_elsewhere(exc.word, game.info.id)}") from None
        takes = ", ".join(getattr(cls, "PARAMS", {})) or "no parameters"
        elsewhere = power_elsewhere(exc.word, game.info.id)
        raise AgentError(f"{exc}{elsewhere} ({exc.name} takes {takes})") from None
    cls = _agent_class(name, game)
    # The agent refuses parameters it does not declare (Agent.__init__); any other error is its own.
    return cls(game, player, seed, spec=spec, params=params)


def _agent_class(name: str, game: Game) -> Callable[..., Agent]:
    """The class of the agent ``name`` for ``game``, or a one-line :class:`AgentError`."""
    scoped = _scoped(name.partition(":")[0])
    if name in _GENERAL:
        cls = _load(_GENERAL[name])
    elif name == "rule":
        if not game.info.hooks.rule_agent:
            raise AgentError(f"no rule-of-thumb agent for {game.info.id} yet")
        cls = game.hook(game.info.hooks.rule_agent)
    elif name in scoped:
        scope, hook = scoped[name]
        if game.info.id != scope:
            raise AgentError(f"agent {name!r} plays {scope} only, not {game.info.id}")
        cls = game.hook(hook.target)
    else:
        known = ", ".join(agent_names(game.info.id))
        raise AgentError(f"unknown agent {name!r} (agents for {game.info.id}: {known})")
    return cls
