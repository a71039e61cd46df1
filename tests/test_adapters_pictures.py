"""Pictures of the games (``rgb_array``): drawn boards of one size, showing only what their view shows."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

import tussle
from tussle import load_game
from tussle.adapters.gymnasium_env import TussleGymEnv
from tussle.adapters.pettingzoo_env import env as aec_env
from tussle.adapters.pettingzoo_env import parallel_env
from tussle.adapters.pictures import frame_size, picture
from tussle.errors import OptionError
from tussle.game import CHANCE, PUBLIC, State


def _play(state: State[Any], rng: random.Random, moves: int) -> State[Any]:
    """``state`` after up to ``moves`` random events (chance included), changed in place."""
    for _ in range(moves):
        if state.is_terminal():
            break
        player = state.to_act()[0]
        if player == CHANCE:
            outcomes = [o for o, p in state.chance_outcomes() if p > 0]
            state.apply(CHANCE, rng.choice(outcomes))
        else:
            state.apply(player, rng.choice(list(state.legal_actions(player))))
    return state


@pytest.mark.parametrize("game_id", tussle.game_ids())
def test_every_game_is_drawn_at_one_size_and_changes_with_a_move(game_id: str) -> None:
    game = load_game(game_id)
    width, height = frame_size(game)
    rng = random.Random(4)
    state = _play(game.new_initial_state(), rng, 3)
    before = picture(state, 0)
    assert before.shape == (height, width, 3) and before.dtype == np.uint8
    # Drawn, not text: many colours (the boards' squares, pieces, panels), not two.
    assert len(np.unique(before.reshape(-1, 3), axis=0)) > 50
    frames = [before]
    for _ in range(8):
        moved = _play(state, rng, 1)
        frames.append(picture(moved, 0))
    assert {frame.shape for frame in frames} == {(height, width, 3)}
    assert any(not np.array_equal(before, frame) for frame in frames[1:])


@pytest.mark.parametrize(
    ("game_id", "players", "every"),
    [("fight", 2, 5), ("fight", 4, 9), ("fite", 2, 1), ("robo-pigs", 2, 1)],
    ids=str,
)
def test_a_picture_shows_only_what_its_view_shows(game_id: str, players: int, every: int) -> None:
    game = load_game(game_id, players=players)
    rng = random.Random(7)
    state = game.new_initial_state()
    secrets = shown = 0
    for _ in range(10):
        _play(state, rng, every)
        if state.is_terminal():
            break
        for seat in (0, 1):
            # A state that ``seat`` cannot tell from this one: the others' secrets drawn again.
            other = state.resample(seat, rng)
            assert np.array_equal(picture(state, "public"), picture(other, "public"))
            assert np.array_equal(picture(state, seat), picture(other, seat))
            if state.observation(1 - seat) != other.observation(1 - seat):
                # The other seat's secrets differ between the two, and its pictures show them.
                secrets += 1
                shown += not np.array_equal(picture(state, 1 - seat), picture(other, 1 - seat))
    assert secrets > 2 and shown == secrets


def test_the_public_view_and_a_seats_view_differ_where_the_seat_has_secrets() -> None:
    state = _play(load_game("fight").new_initial_state(), random.Random(1), 4)
    assert state.observation(0) != state.observation(PUBLIC)
    assert not np.array_equal(picture(state, 0), picture(state, "public"))


def test_a_bad_view_is_refused_in_one_line() -> None:
    state = load_game("fite").new_initial_state()
    with pytest.raises(OptionError, match="a seat from 0 to 1 or 'public', not 2"):
        picture(state, 2)
    with pytest.raises(OptionError, match="not 'everyone'"):
        TussleGymEnv("fite", render_mode="rgb_array", render_view="everyone")
    with pytest.raises(OptionError, match="not 5"):
        aec_env("fite", render_mode="rgb_array", render_view=5)


def test_gymnasium_draws_the_learners_view_or_the_one_asked_for() -> None:
    env = TussleGymEnv("fight", "random", render_mode="rgb_array")
    env.reset(seed=2)
    mine = env.render()
    assert isinstance(mine, np.ndarray) and mine.shape == (*frame_size(env.game)[::-1], 3)
    assert np.array_equal(mine, picture(env.state, 0))
    public = TussleGymEnv("fight", "random", render_mode="rgb_array", render_view="public")
    public.reset(seed=2)
    seen = public.render()
    assert isinstance(seen, np.ndarray) and np.array_equal(seen, picture(public.state, "public"))
    assert not np.array_equal(seen, mine)


def test_pettingzoo_draws_the_public_view_or_a_seats() -> None:
    e = aec_env("robo-pigs", render_mode="rgb_array")
    e.reset(seed=1)
    frame = e.render()
    assert isinstance(frame, np.ndarray) and frame.dtype == np.uint8
    assert np.array_equal(frame, picture(e.tussle_state, "public"))
    p = parallel_env("fite", render_mode="rgb_array", render_view=1)
    p.reset(seed=1)
    seen = p.render()
    assert isinstance(seen, np.ndarray) and np.array_equal(seen, picture(p.tussle_state, 1))
