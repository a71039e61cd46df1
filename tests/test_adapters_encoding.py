"""The integer action spaces and observation arrays of tussle.adapters.encoding.

Random playouts of every game check, at every decision, that each legal action
has its own index in range, that the index leads back to the action, that
labels are the notation (or, for Tank Chess, describe it), that chance
outcomes are numbered too, and that observation arrays fit their space and
depend on nothing but the player's own observation (a game's array written
straight from its state equals the one written from the observation).
"""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import toy_game
import tussle
from tussle import CHANCE, ActionError, State, load_game
from tussle.adapters.encoding import EncodingError, GameEncoding, IndexArray, encoding_for
from tussle.games.fight.encoding import FightCodec, fight_cards
from tussle.games.fightopia.encoding import FightopiaCodec
from tussle.games.fite.encoding import FiteCodec
from tussle.games.robo_pigs.encoding import RoboPigsCodec
from tussle.games.tank_chess.encoding import TankChessCodec

#: (game id, players, options) played at random; limits keep each game short.
CASES: list[tuple[str, int | None, dict[str, Any]]] = [
    ("robo-pigs", None, {"round_limit": 12}),
    ("robo-pigs", None, {"round_limit": 12, "extra_x": True}),
    ("fite", None, {}),
    ("fite", None, {"power_a": "cunning", "power_b": "swift"}),
    ("fite", None, {"turn_dice": "any", "power_a": "cunning", "power_b": "cunning"}),
    ("fightopia", None, {"ply_limit": 200}),
    ("tank-chess", None, {"ply_limit": 60}),
    ("tank-chess", None, {"ply_limit": 40, "size": 20}),
    ("fight", None, {}),
    ("fight", 5, {}),
]

#: Codecs whose labels are the canonical notation of the action.
CANONICAL = {"robo-pigs", "fightopia", "fight"}


def playout(enc: GameEncoding, seed: int, check_every: int = 1) -> int:
    """Play one game at random through the encoding, checking it on the way; return the events."""
    state = enc.game.new_initial_state()
    rng = random.Random(seed)
    gid = enc.game.info.id
    events = 0
    while not state.is_terminal():
        check = events % check_every == 0
        if check:
            for p in range(enc.game.num_players):
                obs = enc.observation(state, p)
                assert obs.shape == enc.observation_shape and obs.dtype == np.float32
                assert obs.min() >= 0.0 and obs.max() <= 1.0
                # A game's array written straight from its state is exactly its observation's:
                # it shows no more than the observation does.
                assert np.array_equal(obs, enc.features.array(state.observation(p), p))
        if state.is_chance():
            outcomes = enc.chance_outcomes(state)
            indices = [i for i, _, _ in outcomes]
            assert indices == sorted(set(indices)) and all(0 <= i < enc.num_chance for i in indices)
            assert abs(sum(p for _, p, _ in outcomes) - 1.0) < 1e-9
            if check:
                for i, _, outcome in outcomes[:50]:
                    assert state.parse_action(CHANCE, enc.chance_label(i)) == outcome
                # A codec's shortcut from outcome to number agrees with the notation's number.
                for i, _, outcome in outcomes:
                    assert enc.codec.encode_chance(state.action_to_str(CHANCE, outcome)) == i
            state.apply(CHANCE, state.sample_chance(rng))
            events += 1
            continue
        chosen = []
        for p in state.to_act():
            legal = enc.legal(state, p)
            actions = state.legal_actions(p)
            assert len(legal) == len(actions) > 0
            if check and len(actions) <= 1024:
                # A codec's shortcut from action to number agrees with the notation's number.
                numbers = {enc.codec.encode(state.action_to_str(p, a)) for a in actions}
                assert numbers == {enc.codec.action_index(state, p, a) for a in actions}
                assert sorted(numbers) == legal.indices
            assert legal.indices == sorted(set(legal.indices))
            assert legal.indices[0] >= 0 and legal.indices[-1] < enc.num_actions
            index = legal.indices[rng.randrange(len(legal))]
            action = legal.action(state, index)
            assert enc.index(state, p, action) == index
            text = state.action_to_str(p, action)
            assert legal.text(state, index) == text
            label = enc.label(index)
            if gid in CANONICAL:
                assert label == text
            elif gid == "fite":
                assert state.parse_action(p, label) == action
            else:  # Tank Chess labels name the squares and the facing, not the tank's type or target
                assert text[1:].startswith(label.split(" ")[0])
            chosen.append((p, action))
        for p, action in chosen:
            state.apply(p, action)
            events += 1
    return events


@pytest.mark.parametrize(("game_id", "players", "options"), CASES, ids=str)
def test_random_playouts_number_every_action(
    game_id: str, players: int | None, options: dict[str, Any]
) -> None:
    game = load_game(game_id, players=players, **tussle.simulation_options(game_id, options))
    enc = encoding_for(game)
    every = 5 if game_id == "tank-chess" else 1
    assert playout(enc, seed=1, check_every=every) > 0


def test_a_legal_map_is_kept_for_an_actions_object_a_game_shares_between_states() -> None:
    # FITE's placing step offers one shared table of actions: both seats, every game.
    enc = encoding_for(load_game("fite"))
    first, second = load_game("fite").new_initial_state(), load_game("fite").new_initial_state()
    assert first.legal_actions(0) is second.legal_actions(0)
    kept = enc.legal(first, 0)
    assert enc.legal(second, 0) is kept
    assert enc.legal(second, 1) is not kept  # another player: its own map, naming it in errors
    assert enc.legal(second, 1).indices == kept.indices
    numbers = kept.array()
    assert numbers.tolist() == kept.indices and kept.array() is numbers
    with pytest.raises(ValueError, match="read-only"):
        numbers[0] = 1


def test_encodings_are_built_once_per_game_and_options() -> None:
    assert encoding_for(load_game("fite")) is encoding_for(load_game("fite"))
    assert encoding_for(load_game("tank-chess", size=20)) is not encoding_for(load_game("tank-chess"))


def test_sizes_of_the_action_spaces() -> None:
    sizes = {
        gid: (encoding_for(load_game(gid)).num_actions, encoding_for(load_game(gid)).num_chance)
        for gid in tussle.game_ids()
    }
    assert sizes == {
        "robo-pigs": (59050, 0),
        "fite": (5143, 3002),
        "fightopia": (11648, 2),
        "tank-chess": (1734912, 0),
        "fight": (3600 + 60 + 2 + 2, 77),
    }
    assert encoding_for(load_game("fight", players=6)).num_actions == 3600 + 60 + 2 + 6


def test_observations_show_only_what_the_player_sees() -> None:
    # Arrays are built from the player's observation alone: a state consistent with it gives the same array.
    game = load_game("fight", players=3)
    enc = encoding_for(game)
    state = game.new_initial_state()
    rng = random.Random(4)
    while state.is_chance() or state.to_act() != (0,):
        acting = state.to_act()
        if acting == (CHANCE,):
            state.apply(CHANCE, state.sample_chance(rng))
        else:
            for p in acting:
                state.apply(p, state.legal_actions(p).sample(rng))
    for p in range(3):
        mine = enc.observation(state, p)
        for _ in range(3):
            assert np.array_equal(enc.observation(state.resample(p, rng), p), mine)
    assert not np.array_equal(enc.observation(state, 0), enc.observation(state, 1))


def test_the_robo_pigs_shortcut_matches_listing_every_program() -> None:
    for extra_x in (False, True):
        game = load_game("robo-pigs", extra_x=extra_x)
        enc = encoding_for(game)
        state = game.state_from_position("c5N2 f4W0 3")
        for player, count in ((0, 5802 if extra_x else 5121), (1, 59049 if extra_x else 32768)):
            fast = enc.legal(state, player)
            slow = {enc.codec.encode(state.action_to_str(player, a)) for a in state.legal_actions(player)}
            assert len(fast) == count and sorted(slow) == fast.indices


def test_a_shortcut_that_disagrees_with_the_game_is_not_used() -> None:
    class WrongCodec(RoboPigsCodec):
        def fast_legal(self, state: State[Any], player: int, legal: Sequence[Any]) -> IndexArray:
            return np.arange(len(legal), dtype=np.int64)  # the right count, the wrong programs

    game = load_game("robo-pigs")
    enc = GameEncoding(game, WrongCodec(), encoding_for(game).features)
    state = game.new_initial_state()
    legal = enc.legal(state, 0)
    assert legal.indices == encoding_for(game).legal(state, 0).indices


def test_an_illegal_index_is_refused_with_a_clear_message() -> None:
    game = load_game("fightopia")
    enc = encoding_for(game)
    state = game.new_initial_state()
    state.apply_str(CHANCE, "first white")
    legal = enc.legal(state, 0)
    with pytest.raises(ActionError, match=r"action 0 is not one of the 30 legal actions of"):
        legal.action(state, 0)
    assert legal.text(state, 0) is None
    pigs = load_game("robo-pigs")
    pig_state = pigs.new_initial_state()
    with pytest.raises(ActionError, match="59049 is not one of the 32768 legal actions"):
        encoding_for(pigs).legal(pig_state, 0).action(pig_state, 59049)


def test_two_actions_on_one_index_are_caught() -> None:
    class Collapsing(FightopiaCodec):
        def _encode(self, text: str) -> int:
            return 0

    game = load_game("fightopia")
    enc = GameEncoding(game, Collapsing(), encoding_for(game).features)
    state = game.new_initial_state()
    state.apply_str(CHANCE, "first black")
    with pytest.raises(EncodingError, match="share action index 0"):
        enc.legal(state, 1)


def test_text_without_an_index_is_an_encoding_error() -> None:
    with pytest.raises(EncodingError, match="'fly away' has no index"):
        FightopiaCodec().encode("fly away")
    with pytest.raises(EncodingError, match="has no index"):
        TankChessCodec(16).encode("Lc3-c9N")  # six squares: no tank is that fast
    with pytest.raises(EncodingError, match="chance 'A off 7' has no index"):
        FiteCodec().encode_chance("A off 7")
    with pytest.raises(EncodingError, match="has no index"):
        FightCodec(["A", "B"], ["X"], 2).encode("activate p5")


def test_a_game_without_an_encoding_is_refused() -> None:
    with (
        toy_game.registered(toy_game.BareDiceRace),
        pytest.raises(EncodingError, match="no integer encoding for the game 'dice-race'"),
    ):
        encoding_for(load_game("dice-race"))


def test_fight_cards_are_read_from_the_chance_outcomes() -> None:
    warriors, arenas = fight_cards(load_game("fight", players=4))
    assert len(warriors) == len(set(warriors)) == 60 and len(arenas) == len(set(arenas)) == 12
    assert "Grizzle" in warriors and "Bone Yard" in arenas


def test_tank_chess_shots_are_numbered_by_direction_and_mortar_range() -> None:
    codec = TankChessCodec(16)
    base = codec.encode("Lc3-d5NE")
    assert codec.encode("Lc3-d5NE xg8") == base + 4  # straight ahead, 3 squares
    assert codec.encode("Lc3-d5NE xh9") == base + 5  # the same line, 4 squares: a Heavy Mortar's choice
    assert codec.encode("Lc3-d5NE xd9") == base + 2  # 45 degrees to the left
    assert codec.encode("Lc3-d5NE xh5") == base + 3  # 45 degrees to the right
    assert codec.encode("Lc3-d5NE xl13") == base + 1  # straight ahead, far
    assert codec.encode("Rc3-d5NE xg8") == codec.encode("Lc3-d5NE xg8")  # the type does not matter
    with pytest.raises(EncodingError):
        codec.encode("Lc3-d5NE xa5")  # behind the tank


# The round trips below share one codec each (made once: FITE's with turn_dice=any lists
# 18,013 actions, and making it for every example was most of the module's time).
@functools.cache
def _fite_codec(turn_dice: str = "own") -> FiteCodec:
    return FiteCodec(turn_dice)


@functools.cache
def _fight_codec() -> FightCodec:
    warriors, arenas = fight_cards(load_game("fight"))
    return FightCodec(warriors, arenas, 2)


@settings(max_examples=200, deadline=None)
@given(st.integers(min_value=0, max_value=59049))
def test_robo_pigs_labels_encode_back(index: int) -> None:
    codec = RoboPigsCodec()
    assert codec.encode(codec.label(index)) == index


@settings(max_examples=200, deadline=None)
@given(st.integers(min_value=0, max_value=5142))
def test_fite_labels_encode_back(index: int) -> None:
    codec = _fite_codec()
    assert codec.encode(codec.label(index)) == index


def test_fite_with_turn_dice_any_has_18013_actions() -> None:
    assert (
        encoding_for(load_game("fite", turn_dice="any")).num_actions
        == _fite_codec("any").num_actions
        == 18013
    )


@settings(max_examples=200, deadline=None)
@given(st.integers(min_value=0, max_value=18012))
def test_fite_labels_encode_back_when_the_opponents_dice_turn(index: int) -> None:
    codec = _fite_codec("any")
    assert codec.encode(codec.label(index)) == index


@settings(max_examples=200, deadline=None)
@given(st.integers(min_value=0, max_value=3001))
def test_fite_chance_labels_encode_back(index: int) -> None:
    codec = _fite_codec()
    assert codec.encode_chance(codec.chance_label(index)) == index


@settings(max_examples=300, deadline=None)
@given(st.integers(min_value=0, max_value=11647))
def test_fightopia_labels_encode_back(index: int) -> None:
    codec = FightopiaCodec()
    label = codec.label(index)
    if label != "unused":
        assert codec.encode(label) == index


@settings(max_examples=200, deadline=None)
@given(st.integers(min_value=0, max_value=3663), st.integers(min_value=0, max_value=76))
def test_fight_labels_encode_back(index: int, chance: int) -> None:
    codec = _fight_codec()
    assert codec.encode(codec.label(index)) == index
    assert codec.encode_chance(codec.chance_label(chance)) == chance
