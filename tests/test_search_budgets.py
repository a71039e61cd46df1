"""Every search agent returns a legal action whatever its budget, even one spent before any search.

A time budget that runs out before the first iteration happens on a loaded
machine now and then; here a clock the test controls (``Budget.clock``) makes it
happen every time, so that nothing depends on the machine's speed.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from tussle import load_game, simulation_options
from tussle.agents import agent_names, make_agent
from tussle.agents.base import PlayerView
from tussle.errors import AgentError
from tussle.game import CHANCE, Dynamics, Game, State
from tussle.registry import game_ids
from tussle.search.common import SearchAgent

# Every game as people play it, and the variants whose actions or seats differ.
GAMES: list[tuple[str, dict[str, Any]]] = [(game_id, {}) for game_id in game_ids()] + [
    ("fight", {"players": 3}),
    ("robo-pigs", {"extra_x": True}),
]

# Parameters that change how an agent chooses its move, each tried with every budget:
# for the tree searches a choice at once after the playout (depth=0) and the
# simultaneous-step choosers; for alpha-beta its fixed depth (a budget of its own)
# and forward pruning.
VARIANTS: dict[str, tuple[str, ...]] = {
    "mcts": ("", ",depth=0", ",widen=1"),
    "ismcts": ("", ",depth=0", ",widen=1"),
    "smmcts": ("", ",select=rm", ",select=rm,final=mix"),
    "alphabeta": ("", ",depth=1", ",width=1"),
}


class Clock:
    """Stands still for its first ``still`` readings, then jumps an hour at each reading.

    ``Budget.start`` reads it once, and each ``Budget.spent`` check once more:
    ``still=1`` spends a time budget before the first iteration, ``still=2``
    after the first (a slow first iteration).
    """

    def __init__(self, still: int) -> None:
        self.still = still
        self.now = 0.0

    def __call__(self) -> float:
        if self.still > 0:
            self.still -= 1
        else:
            self.now += 3600.0
        return self.now


# (spec budget, the clock's still readings or None for the real clock, whether no iteration is done)
BUDGETS: list[tuple[str, int | None, bool]] = [
    ("time=0.001", 1, True),
    ("time=0.001", 2, False),
    ("time=0.001,iterations=1", 1, True),
    ("iterations=1", None, False),
]


def make_game(game_id: str, options: dict[str, Any]) -> Game:
    return load_game(game_id, **simulation_options(game_id, options))


def search_agents(game: Game) -> list[str]:
    """The names of the search agents that play ``game``, found as users find them."""
    out = []
    for name in agent_names(game.info.id):
        try:
            agent = make_agent(name, game, 0, seed=0)
        except AgentError:
            continue
        if isinstance(agent, SearchAgent):
            out.append(name)
    return out


def positions(game: Game, count: int = 6) -> list[State[Any]]:
    """The first decision and later ones of a seeded random game (every other one, for variety)."""
    rng = random.Random(11)
    state = game.new_initial_state()
    out: list[State[Any]] = []
    seen = 0
    while not state.is_terminal() and len(out) < count:
        acting = state.to_act()
        if acting == (CHANCE,):
            state.apply(CHANCE, state.sample_chance(rng))
            continue
        if seen % 2 == 0:
            out.append(state.clone())
        seen += 1
        for p in acting:
            state.apply(p, state.legal_actions(p).sample(rng))
    return out


CASES = [
    pytest.param(
        name, game_id, options, id="-".join([name, game_id, *(f"{k}={v}" for k, v in options.items())])
    )
    for game_id, options in GAMES
    for name in search_agents(make_game(game_id, options))
]


def test_every_search_agent_is_covered() -> None:
    assert {case.values[0] for case in CASES} == set(VARIANTS)
    simultaneous = {g for g, _ in GAMES if load_game(g).info.dynamics == Dynamics.SIMULTANEOUS}
    assert {"robo-pigs", "fite"} <= simultaneous


@pytest.mark.parametrize(("name", "game_id", "options"), CASES)
def test_the_smallest_budgets_give_a_legal_action(name: str, game_id: str, options: dict[str, Any]) -> None:
    game = make_game(game_id, options)
    states = positions(game)
    if game.info.dynamics == Dynamics.SIMULTANEOUS:
        assert any(len(state.to_act()) > 1 for state in states)  # simultaneous steps are among them
    for state in states:
        for player in state.to_act():
            legal = state.legal_actions(player)
            for variant in VARIANTS[name]:
                for budget, still, none_done in BUDGETS:
                    spec = f"{name}:{budget}{variant}"
                    agent = make_agent(spec, game, player, seed=3)
                    assert isinstance(agent, SearchAgent)
                    if still is not None:
                        agent.budget.clock = Clock(still)
                    action = agent.act(PlayerView(state, player))
                    where = f"{spec} in {game_id} {options} for seat {player}"
                    assert action is not None and action in legal, where
                    state.clone().apply(player, action)  # the rules take it, too
                    if len(legal) == 1:
                        continue  # played at once, without a search
                    if name == "alphabeta" and "iterations=1" in budget:
                        # Not one move searched: the first of the policy's order.
                        assert agent.last_stats["depth"] == 0.0, where
                        assert action == agent.policy.order(state, player, legal)[0], where
                    elif none_done and name != "alphabeta":
                        assert agent.last_stats["iterations"] == 0.0, where


@pytest.mark.parametrize("name", ["mcts", "ismcts"])
def test_the_fallback_repeats_for_a_seed(name: str) -> None:
    game = make_game("fightopia", {})
    state = positions(game, 1)[0]

    def fallback() -> Any:
        agent = make_agent(f"{name}:time=0.001", game, 0, seed=8)
        assert isinstance(agent, SearchAgent)
        agent.budget.clock = Clock(1)
        return agent.act(PlayerView(state, 0))

    assert fallback() == fallback()
