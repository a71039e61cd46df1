"""Honest resampling for OpenSpiel: drawn histories that show nothing the player could not know."""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel  # type: ignore[import-not-found]
import pytest
from open_spiel.python.algorithms import ismcts, mcts  # type: ignore[import-untyped]

from tussle.adapters import openspiel_game as og
from tussle.agents import make_agent


def _played(game: Any, decisions: int, seed: int, player: int | None = None) -> Any:
    """A state after some random events, stopped at a decision (of ``player``, if given, from then on)."""
    rng = np.random.RandomState(seed)
    state = game.new_initial_state()
    done = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randint(len(outcomes))][0])
            continue
        if done >= decisions and player in (None, state.current_player()):
            return state
        state.apply_action(int(rng.choice(state.legal_actions())))
        done += 1
    raise AssertionError("the game ended before the decision wanted")


def _replayed(game: Any, state: Any) -> Any:
    """A new state reached by playing ``state``'s history again."""
    again = game.new_initial_state()
    for action in state.history():
        again.apply_action(action)
    return again


def _resamples(state: Any, player: int, count: int) -> list[Any]:
    return [
        state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0.0, 1.0))
        for _ in range(count)
    ]


def test_a_resampled_fight_replays_to_a_drawn_game_not_the_true_one() -> None:
    game = og.load("fight")
    state = _played(game, 12, seed=4)
    player = state.current_player()
    opponent = 1 - player
    info = state.information_state_string(player)
    true_hand = sorted(state.tussle_state.hands[opponent])
    hands = []
    for drawn in _resamples(state, player, 12):
        # A complete game whose history, played again, gives this very state ...
        again = _replayed(game, drawn)
        assert str(again) == str(drawn)
        assert again.tussle_state.hands == drawn.tussle_state.hands
        # ... that the player cannot tell from the true one, string for string.
        assert again.information_state_string(player) == info
        assert again.observation_string(player) == state.observation_string(player)
        assert sorted(again.tussle_state.hands[player]) == sorted(state.tussle_state.hands[player])
        hands.append(tuple(sorted(again.tussle_state.hands[opponent])))
    # The opponent's hidden hand is drawn: it varies, and is mostly not the true one.
    assert len(set(hands)) > 3
    assert sum(hand == tuple(true_hand) for hand in hands) < len(hands) // 2


@pytest.mark.parametrize(
    ("game_id", "options", "decisions"),
    [
        ("fite", {"turns": True, "turn_limit": 5}, 7),  # B to submit its split, A's secret
        ("robo-pigs", {"turns": True, "round_limit": 3}, 3),  # B to program, A's program secret
        ("robo-pigs", {"steps": True, "round_limit": 3}, 8),  # B to program, A's tokens secret
    ],
    ids=str,
)
def test_a_secret_submission_is_drawn_afresh(game_id: str, options: dict[str, Any], decisions: int) -> None:
    game = og.load(game_id, **options)
    state = _played(game, decisions, seed=2, player=1)
    player = state.current_player()
    info = state.information_state_string(player)
    truth = state.history()
    histories = set()
    for drawn in _resamples(state, player, 10):
        again = _replayed(game, drawn)
        assert str(again) == str(drawn) and again.information_state_string(player) == info
        histories.add(tuple(drawn.history()))
        # Only what the player has not seen may differ: the other's choices since its last view.
        history = drawn.history()
        assert len(history) == len(truth)
    assert len(histories) > 1
    assert sum(h == tuple(truth) for h in histories) <= 1


def test_events_the_player_saw_are_kept() -> None:
    # FITE's rolls and revealed placements are public: a resample changes only the pending secret.
    game = og.load("fite", turns=True, turn_limit=5)
    state = _played(game, 9, seed=3)
    player = state.current_player()
    truth = state.history()
    for drawn in _resamples(state, player, 5):
        history = drawn.history()
        pending = [k for k, (a, b) in enumerate(zip(history, truth, strict=True)) if a != b]
        assert all(k == len(truth) - 1 for k in pending), pending  # at most the opponent's last choice


def test_resampled_states_serialize() -> None:
    game = og.load("fight")
    state = _played(game, 5, seed=1)
    drawn = og.resampler(seed=2)(state, state.current_player())
    _, back = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, drawn))
    assert str(back) == str(drawn)


@pytest.mark.parametrize(
    ("game_id", "options"),
    [
        ("fite", {"turns": True, "turn_limit": 3}),
        ("fight", {}),
        ("robo-pigs", {"turns": True, "round_limit": 2}),
        ("robo-pigs", {"steps": True, "round_limit": 2}),
    ],
    ids=str,
)
def test_ismcts_plays_in_its_default_information_state_mode(game_id: str, options: dict[str, Any]) -> None:
    game = og.load(game_id, **options)
    rng = np.random.RandomState(3)
    # No resampler, use_observation_string False: OpenSpiel asks the state to resample itself.
    # Fight! is long: its searches draw one world each (a resample replays the whole game so far).
    worlds = 1 if game_id == "fight" else ismcts.UNLIMITED_NUM_WORLD_SAMPLES
    bot = ismcts.ISMCTSBot(
        game, mcts.RandomRolloutEvaluator(1, rng), 2.0, 3, max_world_samples=worlds, random_state=rng
    )
    other = make_agent("random", game.tussle_game, 1, seed=2)
    seat = pyspiel.make_uniform_random_bot(1, 2) if options.get("steps") else other
    final = og.play(game, [bot, seat], seed=5)
    assert final.is_terminal() and sum(final.returns()) == pytest.approx(0.0)


def test_ismcts_plays_openspiels_turn_based_conversion() -> None:
    inner = og.load("fite", turn_limit=3)  # kept: the conversion does not keep a Python game alive
    game = pyspiel.convert_to_turn_based(inner)
    rng = np.random.RandomState(3)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), 2.0, 4, random_state=rng)
    bot.set_resampler(og.resampler(seed=3))
    state = game.new_initial_state()
    state.apply_action(2)  # A's SETUP placement, which B does not see
    resample = og.resampler(seed=1)
    drawn = [resample(state, 1) for _ in range(8)]
    assert all(d.information_state_string(1) == state.information_state_string(1) for d in drawn)
    assert len({d.history()[0] for d in drawn}) > 1  # A's hidden placement drawn afresh
    other = pyspiel.make_uniform_random_bot(0, 2)  # seat A
    chance = np.random.RandomState(1)
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[chance.randint(len(outcomes))][0])
        else:
            seat = bot if state.current_player() == 1 else other
            state.apply_action(seat.step(state))
    assert sum(state.returns()) == pytest.approx(0.0)
