"""Computer players decide only from what their seat may see, in every game with hidden information.

A game's computer-player code may read its own state's fields directly, for
speed; these tests check that it still reads nothing it should not. At random
decision points of every imperfect-information game, the true state is
replaced by another that the deciding player cannot tell apart from it (the
opponent's hand, secret program or dice split redrawn): each shipped agent must
make the same choice in both. Both views draw their sampled states from the
same source, so whatever the agent learns through its view is identical; an
agent that looked past its view at the true state would see the difference.
"""

from __future__ import annotations

import random
import zlib
from collections.abc import Callable
from functools import partial
from typing import Any

import pytest

from tussle import CHANCE, Information, State, game_ids, game_info, load_game, simulation_options
from tussle.agents import agent_names, make_agent
from tussle.agents.base import Agent, PlayerView

HIDDEN = [g for g in game_ids() if game_info(g).information == Information.IMPERFECT]

#: Decision points tried per game and agent.
POINTS = 3


class SamplesFrom(PlayerView):
    """A view of one state whose sampled states come from another that the player cannot tell apart."""

    __slots__ = ("source",)

    def __init__(self, state: State[Any], player: int, source: State[Any]) -> None:
        super().__init__(state, player)
        self.source = source

    def sample_state(self, rng: random.Random) -> State[Any]:
        return self.source.resample(self.player, rng)


def specs(game_id: str) -> list[str]:
    """The rule agent, the game's own agents and the easy level: the shipped players that decide quickly."""
    return ["rule", "easy", *(name for name in agent_names(game_id) if name.startswith(game_id + ":"))]


def decision_points(game_id: str, seed: int) -> list[tuple[State[Any], int]]:
    """States of random play where a player decides while another's secrets are hidden from it."""
    game = load_game(game_id, **simulation_options(game_id))
    rng = random.Random(seed)
    state = game.new_initial_state()
    points: list[tuple[State[Any], int]] = []
    while not state.is_terminal() and len(points) < POINTS:
        acting = state.to_act()
        if acting == (CHANCE,):
            state.apply(CHANCE, state.sample_chance(rng))
            continue
        for player in acting:  # at a simultaneous step, the later ones decide after a secret submission
            other = state.resample(player, random.Random(rng.random()))
            hidden = any(other.observation(p) != state.observation(p) for p in range(game.num_players))
            if (
                hidden
                and len(state.legal_actions(player)) > 1
                and rng.random() < 0.5
                and len(points) < POINTS
            ):
                points.append((state.clone(), player))
            state.apply(player, state.legal_actions(player).sample(rng))
    return points


def choices(make: Callable[[], Agent], state: State[Any], player: int, index: int) -> set[str]:
    """What a fresh agent plays in ``state`` and in a redrawn state that ``player`` cannot tell from it."""
    other = state.resample(player, random.Random(index))
    assert other.observation(player) == state.observation(player)
    return {
        truth.action_to_str(player, make().act(SamplesFrom(truth, player, state))) for truth in (state, other)
    }


@pytest.mark.parametrize("game_id", HIDDEN)
def test_agents_choose_alike_in_states_their_seat_cannot_tell_apart(game_id: str) -> None:
    points = decision_points(game_id, seed=11)
    assert len(points) == POINTS, "too few decision points with hidden information"
    for spec in specs(game_id):
        for index, (state, player) in enumerate(points):
            seen = choices(partial(make_agent, spec, state.game, player, seed=index), state, player, index)
            assert len(seen) == 1, f"{game_id} {spec} at point {index}: {seen}"


class _Peeker(Agent):
    """Looks past its view at everybody's observation: what the test above must catch."""

    def act(self, view: PlayerView) -> Any:
        truth = view._state
        secret = repr([truth.observation(p) for p in range(truth.num_players)])
        legal = view.legal_actions()
        return legal[zlib.crc32(secret.encode()) % len(legal)]


@pytest.mark.parametrize("game_id", HIDDEN)
def test_an_agent_that_peeks_is_caught(game_id: str) -> None:
    caught = 0
    for index, (state, player) in enumerate(decision_points(game_id, seed=11)):
        caught += len(choices(partial(_Peeker, state.game, player), state, player, index)) > 1
    assert caught
