"""FITE: the rule text's example fight, cancellation, and a test for every rule sentence."""

from __future__ import annotations

import json
import math
import random
from typing import Any, cast

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tussle import CHANCE, PUBLIC, ActionError, OptionError, Record, RecordError, State, load_game
from tussle.agents import make_agent
from tussle.agents.base import PlayerView
from tussle.games.fite import Fite, FiteState
from tussle.games.fite.notation import (
    Roll,
    TacticAction,
    format_place,
    format_roll,
    format_split,
    format_swift,
    format_tactic,
    parse_place,
    parse_roll,
    parse_split,
    parse_swift,
    parse_tactic,
)
from tussle.games.fite.rule_agent import FiteRuleAgent, hit_chances, split_strategy, uncancelled
from tussle.games.fite.rules import (
    ROLLS,
    apply_tactic,
    cancellations,
    cancelled,
    tactic_actions,
)
from tussle.runner import play_game, run_match

A, B = 0, 1

# --- helpers ------------------------------------------------------------------


def play(state: FiteState, *events: str) -> FiteState:
    """Apply events written ``A:tac 5``, ``B:5/4`` or ``roll:A off 6,5`` in order."""
    for event in events:
        who, _, text = event.partition(":")
        player = {"A": A, "B": B, "roll": CHANCE}[who]
        state.apply_str(player, text)
    return state


def fresh(**options: Any) -> FiteState:
    state = Fite(**options).new_initial_state()
    assert isinstance(state, FiteState)
    return state


def at_split(place_a: str = "tac 5", place_b: str = "tac 5", **options: Any) -> FiteState:
    """A new game after SETUP and turn 1's placement, at the split."""
    state = fresh(**options)
    play(state, "A:tac 5", "B:tac 5", f"A:{place_a}", f"B:{place_b}")
    return state


def phase(state: FiteState) -> str:
    return str(state.observation(A)["phase"])


def seen(state: FiteState, player: int) -> dict[str, Any]:
    """``player``'s observation as plain data, as a client reads it."""
    return cast("dict[str, Any]", state.observation(player))


def last(state: FiteState) -> dict[str, Any]:
    fight = seen(state, A)["last_fight"]
    assert isinstance(fight, dict)
    return fight


def max_cancelled(offence: list[int], defence: list[int]) -> int:
    """The largest number of cancellations by brute force: every way to pair the dice."""

    def best(i: int, free: frozenset[int]) -> int:
        if i == len(offence):
            return 0
        most = best(i + 1, free)  # offensive die i stays uncancelled
        for j in free:
            if offence[i] <= defence[j]:
                most = max(most, 1 + best(i + 1, free - {j}))
        return most

    return best(0, frozenset(range(len(defence))))


# --- the text's example fight (golden) ------------------------------------------


def test_golden_example_fight() -> None:
    """A: 6,5,4,2,2 / 5,3,1,1; B: 5,4,2 / 6,6,3,2,1,1; each fighter takes 1 hit."""
    state = at_split()  # both at the tactical location: no modifiers
    play(
        state,
        "A:5/4",
        "B:3/6",
        "roll:A off 6,5,4,2,2",
        "roll:A def 5,3,1,1",
        "roll:B off 5,4,2",
        "roll:B def 6,6,3,2,1,1",
        "A:pass",
        "B:pass",
    )
    fight = last(state)
    assert fight["cancelled"] == [2, 4]  # A's defence cancels 2 of B's 3; B's 4 of A's 5
    # Which die cancels which: [A's defensive die, B's offensive die], then [B's defensive, A's offensive].
    assert fight["cancellations"] == [[[1, 2], [0, 1]], [[3, 4], [2, 3], [1, 2], [0, 1]]]
    assert fight["hits"] == [1, 1]
    assert fight["dice"] == [8, 8]
    assert phase(state) == "place" and state.observation(A)["turn"] == 2


def test_golden_example_cancellation_counts() -> None:
    assert cancelled([6, 5, 4, 2, 2], [6, 6, 3, 2, 1, 1]) == 4
    assert cancelled([5, 4, 2], [5, 3, 1, 1]) == 2


def test_the_cancellation_pairs_are_a_largest_matching_that_never_crosses() -> None:
    rng = random.Random(7)
    for _ in range(300):
        offence = sorted((rng.randint(0, 8) for _ in range(rng.randint(0, 8))), reverse=True)
        defence = sorted((rng.randint(0, 8) for _ in range(rng.randint(0, 8))), reverse=True)
        pairs = cancellations(offence, defence)
        assert len(pairs) == cancelled(offence, defence) == max_cancelled(offence, defence)
        assert len({d for d, _ in pairs}) == len({o for _, o in pairs}) == len(pairs)
        assert all(offence[o] <= defence[d] for d, o in pairs)
        ordered = sorted(pairs)
        assert [o for _, o in ordered] == sorted(o for _, o in ordered)  # drawn highest first: no crossing


@pytest.mark.parametrize(
    ("offence", "defence", "expected"),
    [
        ([], [6], 0),
        ([3], [], 0),
        ([4], [4], 1),  # equal or above cancels
        ([5], [4], 0),  # below does not
        ([1, 5], [5, 2], 2),  # the 5 must go to the 5 and the 2 to the 1
        ([2, 2, 2], [6], 1),  # a defensive die cancels one die only
        ([6, 6], [6, 6, 6], 2),  # a die is cancelled once only
        ([1, 2, 3], [3, 2, 1], 3),
        ([3, 3, 1], [2, 2, 2], 1),
        ([0, 7], [0, 8], 2),  # modified values below 1 and above 6 compare the same way
    ],
)
def test_cancellation_cases(offence: list[int], defence: list[int], expected: int) -> None:
    assert cancelled(offence, defence) == expected
    assert max_cancelled(offence, defence) == expected


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.integers(0, 8), max_size=6),
    st.lists(st.integers(0, 8), max_size=5),
)
def test_cancellation_is_the_largest_possible(offence: list[int], defence: list[int]) -> None:
    assert cancelled(offence, defence) == max_cancelled(offence, defence)


def test_cancellation_brute_force_on_random_pools() -> None:
    rng = random.Random(4)
    for _ in range(300):
        offence = [rng.randint(1, 6) for _ in range(rng.randint(1, 6))]
        defence = [rng.randint(1, 6) for _ in range(rng.randint(1, 5))]
        assert cancelled(offence, defence) == max_cancelled(offence, defence)


# --- requirements and setup -------------------------------------------------------


def test_nine_dice_and_a_coin_face_up_each() -> None:
    obs = fresh(power_a="brutal").observation(B)
    fighters = obs["fighters"]
    assert [f["dice"] for f in fighters] == [9, 9]
    assert [f["power"] for f in fighters] == ["brutal", None]
    assert [f["power_used"] for f in fighters] == [False, False]


def test_setup_placement_then_turn_one_placement() -> None:
    state = fresh()
    assert phase(state) == "setup" and state.to_act() == (A, B)
    play(state, "A:off 1", "B:def 4")
    assert phase(state) == "place" and state.observation(A)["turn"] == 1
    assert [f["location"] for f in state.observation(A)["fighters"]] == ["off", "def"]
    play(state, "A:tac 6", "B:off 2")
    assert phase(state) == "split"
    assert [f["location"] for f in state.observation(A)["fighters"]] == ["tac", "off"]


def test_option_setup_placement_off_makes_the_first_placement_turn_ones() -> None:
    state = fresh(setup_placement=False, power_a="swift")
    assert phase(state) == "place" and state.observation(A)["turn"] == 1
    play(state, "A:off 1", "B:def 3")
    assert phase(state) == "swift" and state.to_act() == (A,)


@pytest.mark.parametrize(
    ("face", "location"), [(1, "off"), (2, "off"), (3, "def"), (4, "def"), (5, "tac"), (6, "tac")]
)
def test_placement_faces_mark_the_locations(face: int, location: str) -> None:
    state = fresh()
    play(state, "A:tac 5", "B:tac 5", f"A:{face}", "B:5")
    fighter = state.observation(B)["fighters"][A]
    assert fighter["location"] == location and fighter["face"] == face


def test_placement_is_hidden_until_both_have_placed() -> None:
    state = fresh()
    before = state.observation(B), state.observation_text(B)
    play(state, "A:def 4")
    assert (state.observation(B), state.observation_text(B)) == before
    assert state.observation(A)["mine"] == "def 4"
    assert state.to_act() == (B,)
    play(state, "B:off 1")
    fighters = state.observation(B)["fighters"]
    assert [f["face"] for f in fighters] == [4, 1]


# --- the split -----------------------------------------------------------------------


def test_split_pools_hold_one_to_eight_dice_and_use_every_die() -> None:
    state = at_split()
    texts = sorted(state.action_to_str(A, a) for a in state.legal_actions(A))
    assert texts == sorted(f"{k}/{9 - k}" for k in range(1, 9))
    for bad, why in [("9/0", "1 to 8"), ("0/9", "1 to 8"), ("5/3", "has 9 dice"), ("5/5", "has 9 dice")]:
        with pytest.raises(ActionError, match=why):
            state.parse_action(A, bad)


def test_split_is_secret_until_both_have_split_then_both_are_revealed() -> None:
    state = at_split()
    before = state.observation(B)
    play(state, "A:2/7")
    assert state.observation(B) == before
    assert state.observation(A)["mine"] == "2/7"
    play(state, "B:6/3")
    fight = seen(state, B)["fight"]
    assert fight["split"] == [[2, 7], [6, 3]]
    assert state.to_act() == (CHANCE,)


def test_each_pool_is_rolled_as_its_own_chance_event() -> None:
    state = at_split()
    play(state, "A:2/7", "B:6/3")
    sizes = []
    names = []
    while state.is_chance():
        rolling = seen(state, A)["rolling"]
        sizes.append(rolling["dice"])
        names.append(f"{rolling['fighter']} {rolling['pool']}")
        outcomes = state.chance_outcomes()
        assert math.isclose(math.fsum(p for _, p in outcomes), 1.0)
        assert len(outcomes) == math.comb(rolling["dice"] + 5, 5)
        state.apply(CHANCE, outcomes[0][0])
    assert sizes == [2, 7, 6, 3]
    assert names == ["A off", "A def", "B off", "B def"]


def test_roll_probabilities_are_multinomial() -> None:
    table = dict(ROLLS[2])
    assert table[(6, 6)] == pytest.approx(1 / 36)
    assert table[(6, 1)] == pytest.approx(2 / 36)
    for size in range(1, 9):
        assert math.isclose(math.fsum(p for _, p in ROLLS[size]), 1.0)


def test_sampled_rolls_follow_the_probabilities() -> None:
    state = at_split()
    play(state, "A:1/8", "B:1/8")
    rng = random.Random(3)
    counts = [0] * 7
    for _ in range(6000):
        (face,) = cast("tuple[int]", state.sample_chance(rng))
        counts[face] += 1
    assert all(900 < c < 1100 for c in counts[1:])


# --- locations and their bonuses -----------------------------------------------------


def fight_once(place_a: str, place_b: str, *events: str, **options: Any) -> dict[str, Any]:
    state = at_split(place_a, place_b, **options)
    play(state, *events)
    return last(state)


def test_offensive_location_adds_one_to_the_offensive_pool() -> None:
    fight = fight_once(
        "off 1",
        "def 3",
        "A:2/7",
        "B:2/7",
        "roll:A off 5,1",
        "roll:A def 1,1,1,1,1,1,1",
        "roll:B off 1,1",
        "roll:B def 1,1,1,1,1,1,1",
    )
    assert fight["modifiers"] == [{"off": 1, "def": 0}, {"off": 0, "def": 1}]
    assert fight["values"][A] == {"off": [6, 2], "def": [1] * 7}
    assert fight["values"][B] == {"off": [1, 1], "def": [2] * 7}
    # B's defence of 2s cancels A's 2 but not A's 6; A's 1s cancel B's 1s.
    assert fight["hits"] == [0, 1]


def test_defensive_location_adds_one_to_the_defensive_pool() -> None:
    # B's 5 meets A's defensive 4 raised to 5: cancelled.
    fight = fight_once(
        "def 4",
        "tac 5",
        "A:1/8",
        "B:1/8",
        "roll:A off 1",
        "roll:A def 4,1,1,1,1,1,1,1",
        "roll:B off 5",
        "roll:B def 6,6,6,6,6,6,6,6",
        "B:pass",
    )
    assert fight["hits"] == [0, 0]
    assert fight["cancelled"] == [1, 1]


def test_tactical_move_up_to_two_dice_from_one_pool_to_the_other() -> None:
    state = at_split("tac 5", "off 1")
    play(
        state,
        "A:3/6",
        "B:8/1",
        "roll:A off 6,1,1",
        "roll:A def 6,5,5,4,2,1",
        "roll:B off 6,6,6,5,5,4,4,3",
        "roll:B def 1",
    )
    assert state.to_act() == (A,)  # only the fighter at the tactical location chooses
    play(state, "A:move def>off 6,5")
    fight = last(state)
    assert fight["tactical"]["choices"] == ["move def>off 6,5", None]
    assert fight["pools"][A] == {"off": [6, 6, 5, 1, 1], "def": [5, 4, 2, 1]}


def test_tactical_turn_up_to_two_dice_to_the_opposite_face() -> None:
    state = at_split("tac 5", "tac 6")
    play(
        state,
        "A:3/6",
        "B:3/6",
        "roll:A off 2,1,1",
        "roll:A def 6,5,5,4,2,1",
        "roll:B off 1,1,1",
        "roll:B def 1,1,1,1,1,1",
        "A:turn off 1 def 1",
        "B:turn def 1,1",
    )
    fight = last(state)
    assert fight["pools"][A] == {"off": [6, 2, 1], "def": [6, 6, 5, 5, 4, 2]}
    assert fight["pools"][B] == {"off": [1, 1, 1], "def": [6, 6, 1, 1, 1, 1]}


def test_tactical_choice_is_one_option_or_the_other_and_secret() -> None:
    state = at_split("tac 5", "tac 5")
    play(
        state,
        "A:4/5",
        "B:4/5",
        "roll:A off 6,5,2,1",
        "roll:A def 6,5,2,1,1",
        "roll:B off 3,3,3,3",
        "roll:B def 3,3,3,3,3",
    )
    assert state.to_act() == (A, B)
    with pytest.raises(ActionError, match="only one tactical option"):
        state.parse_action(A, "move off>def 6 and turn def 1")
    with pytest.raises(ActionError, match="has no"):
        state.parse_action(A, "turn off 3")
    with pytest.raises(ActionError, match="has no"):
        state.parse_action(A, "move def>off 6,6")
    before = state.observation(B)
    play(state, "A:turn off 1,2")
    assert state.observation(B) == before


def test_tactical_move_may_not_empty_a_pool() -> None:
    state = at_split("tac 5", "off 1")
    play(
        state,
        "A:2/7",
        "B:8/1",
        "roll:A off 6,1",
        "roll:A def 6,6,6,6,6,6,6",
        "roll:B off 6,6,6,6,6,6,6,6",
        "roll:B def 1",
    )
    texts = {state.action_to_str(A, a) for a in state.legal_actions(A)}
    assert "move off>def 6" in texts
    assert "move off>def 6,1" not in texts
    assert "move def>off 6,6" in texts
    with pytest.raises(ActionError, match="at least 1 die"):
        state.parse_action(A, "move off>def 6,1")


def test_tactical_move_respects_the_eight_dice_limit() -> None:
    assert ("tactic", 1, (6, 6), ()) not in tactic_actions(((6,) * 7, (6, 6)), 1)
    assert ("tactic", 1, (6,), ()) in tactic_actions(((6,) * 7, (6, 6)), 1)


def test_turned_die_gets_the_modifiers_after_turning() -> None:
    # A at the offensive location turns a 2 to a 5 (with Cunning): the value is 5 + 1.
    state = at_split("off 1", "def 3", power_a="cunning")
    play(
        state,
        "A:1/8 +power",
        "B:1/8",
        "roll:A off 2",
        "roll:A def 1,1,1,1,1,1,1,1",
        "roll:B off 1",
        "roll:B def 5,5,5,5,5,5,5,5",
    )
    assert state.to_act() == (A,)
    play(state, "A:turn off 2")
    fight = last(state)
    assert fight["pools"][A]["off"] == [5]
    assert fight["values"][A]["off"] == [6]
    assert fight["values"][B]["def"] == [6] * 8
    assert fight["hits"] == [0, 0]


# --- hits and the end ------------------------------------------------------------------


def test_each_uncancelled_die_removes_one_die() -> None:
    fight = fight_once(
        "tac 5",
        "tac 5",
        "A:8/1",
        "B:1/8",
        "roll:A off 6,6,6,5,5,4,4,4",
        "roll:A def 1",
        "roll:B off 2",
        "roll:B def 1,1,1,1,1,1,1,1",
        "A:pass",
        "B:pass",
    )
    assert fight["hits"] == [1, 8]
    assert fight["dice"] == [8, 1]


def test_a_fighter_without_dice_is_taken_out_and_the_other_wins() -> None:
    state = at_split()
    # Turn 1: B loses 4 dice; turn 2: A's 8 hits meet B's 5 dice (the hits left over are lost).
    play(
        state,
        "A:4/5",
        "B:4/5",
        "roll:A off 6,6,6,6",
        "roll:A def 6,6,6,6,6",
        "roll:B off 1,1,1,1",
        "roll:B def 1,1,1,1,1",
        "A:pass",
        "B:pass",
    )
    assert last(state)["dice"] == [9, 5]
    play(
        state,
        "A:tac 5",
        "B:tac 5",
        "A:8/1",
        "B:4/1",
        "roll:A off 6,6,6,6,6,6,6,6",
        "roll:A def 6",
        "roll:B off 1,1,1,1",
        "roll:B def 1",
        "A:pass",
        "B:pass",
    )
    fight = last(state)
    assert fight["hits"] == [3, 8] and fight["dice"] == [6, 0]
    result = state.result()
    assert result is not None and result.winner == A
    assert "taken out" in result.reason
    assert state.to_act() == () and state.observation(B)["phase"] == "over"


def test_both_out_at_once_cannot_happen_but_would_be_a_draw() -> None:
    # Hits on a fighter with d dice come from at most (the attacker's dice - 1)
    # offensive dice, so both reaching 0 (or one 0 and the other 1) in one fight
    # is impossible; the ending still reads those cases as the text says.
    state = at_split()
    for dice, winner in (([0, 0], None), ([1, 0], A), ([0, 1], B), ([0, 5], B)):
        state.dice = list(dice)
        result = state._ending()
        assert result is not None and result.winner == winner


def test_finish_him_a_fighter_left_with_one_die_is_finished_off() -> None:
    state = at_split()
    play(
        state,
        "A:8/1",
        "B:1/8",
        "roll:A off 6,6,6,6,6,6,6,6",
        "roll:A def 6",
        "roll:B off 1",
        "roll:B def 1,1,1,1,1,1,1,1",
        "A:pass",
        "B:pass",
    )
    assert last(state)["dice"] == [9, 1]
    result = state.result()
    assert result is not None and result.winner == A and "FINISH HIM" in result.reason
    assert state.to_act() == ()  # nothing is left to choose: the finishing is automatic


def test_finish_him_both_left_with_one_die_is_a_draw() -> None:
    state = at_split()
    play(
        state,
        "A:8/1",
        "B:8/1",
        "roll:A off 6,6,6,6,6,6,6,6",
        "roll:A def 1",
        "roll:B off 6,6,6,6,6,6,6,2",
        "roll:B def 1",
        "A:pass",
        "B:pass",
    )
    assert last(state)["dice"] == [1, 1]
    result = state.result()
    assert result is not None and result.is_draw and "FINISH HIM" in result.reason


def test_turn_limit_ends_in_a_draw() -> None:
    state = at_split(turn_limit=1)
    play(
        state,
        "A:1/8",
        "B:1/8",
        "roll:A off 1",
        "roll:A def 1,1,1,1,1,1,1,1",
        "roll:B off 1",
        "roll:B def 1,1,1,1,1,1,1,1",
        "A:pass",
        "B:pass",
    )
    result = state.result()
    assert result is not None and result.is_draw and "turn limit" in result.reason


def test_the_next_turn_starts_with_a_new_placement() -> None:
    state = at_split()
    play(
        state,
        "A:4/5",
        "B:4/5",
        "roll:A off 1,1,1,1",
        "roll:A def 6,6,6,6,6",
        "roll:B off 1,1,1,1",
        "roll:B def 6,6,6,6,6",
        "A:pass",
        "B:pass",
    )
    obs = seen(state, A)
    assert obs["phase"] == "place" and obs["turn"] == 2 and state.to_act() == (A, B)
    assert obs["fight"] is None and obs["last_fight"]["turn"] == 1


# --- super powers ---------------------------------------------------------------------------


def test_power_declared_with_the_split_flips_the_coin_and_is_once_per_game() -> None:
    state = at_split(power_a="brutal")
    assert len(state.legal_actions(A)) == 16 and len(state.legal_actions(B)) == 8
    play(state, "A:4/5 +brutal")
    assert state.observation(B)["fighters"][A]["power_used"] is False  # still secret
    play(state, "B:4/5")
    assert state.observation(B)["fighters"][A]["power_used"] is True
    play(
        state,
        "roll:A off 1,1,1,1",
        "roll:A def 6,6,6,6,6",
        "roll:B off 1,1,1,1",
        "roll:B def 6,6,6,6,6",
        "A:pass",
        "B:pass",
        "A:tac 5",
        "B:tac 5",
    )
    with pytest.raises(ActionError, match="used already"):
        state.parse_action(A, "4/5 +power")
    assert len(state.legal_actions(A)) == 8


def test_brutal_adds_to_the_offensive_location_bonus() -> None:
    fight = fight_once(
        "off 2",
        "tac 5",
        "A:1/8 +power",
        "B:1/8",
        "roll:A off 4",
        "roll:A def 1,1,1,1,1,1,1,1",
        "roll:B off 1",
        "roll:B def 5,5,5,5,5,5,5,5",
        "B:pass",
        power_a="brutal",
    )
    assert fight["modifiers"][A] == {"off": 2, "def": 0}
    assert fight["values"][A]["off"] == [6]
    assert fight["hits"] == [0, 1]


def test_tough_adds_one_to_the_defensive_pool() -> None:
    fight = fight_once(
        "tac 5",
        "tac 5",
        "A:1/8",
        "B:1/8 +tough",
        "roll:A off 6",
        "roll:A def 1,1,1,1,1,1,1,1",
        "roll:B off 1",
        "roll:B def 5,5,5,5,5,5,5,5",
        "A:pass",
        "B:pass",
        power_b="tough",
    )
    assert fight["modifiers"][B] == {"off": 0, "def": 1}
    assert fight["hits"] == [0, 0]


def test_aggressive_takes_one_from_the_opponents_offensive_pool() -> None:
    fight = fight_once(
        "tac 5",
        "tac 5",
        "A:1/8 +power",
        "B:1/8",
        "roll:A off 1",
        "roll:A def 4,1,1,1,1,1,1,1",
        "roll:B off 5",
        "roll:B def 6,6,6,6,6,6,6,6",
        "A:pass",
        "B:pass",
        power_a="aggressive",
    )
    assert fight["modifiers"][B] == {"off": -1, "def": 0}
    assert fight["values"][B]["off"] == [4]
    assert fight["hits"] == [0, 0]


def test_fast_takes_one_from_the_opponents_defensive_pool() -> None:
    fight = fight_once(
        "tac 5",
        "tac 5",
        "A:1/8 +fast",
        "B:1/8",
        "roll:A off 6",
        "roll:A def 1,1,1,1,1,1,1,1",
        "roll:B off 1",
        "roll:B def 6,6,6,6,6,6,6,6",
        "A:pass",
        "B:pass",
        power_a="fast",
    )
    assert fight["modifiers"][B] == {"off": 0, "def": -1}
    assert fight["hits"] == [0, 1]


def cunning_rolled(**options: Any) -> FiteState:
    """A with Cunning at the defensive location, B at the offensive, both split 4/5 and rolled."""
    state = at_split("def 3", "off 1", power_a="cunning", **options)
    play(
        state,
        "A:4/5 +cunning",
        "B:4/5",
        "roll:A off 1,1,1,1",
        "roll:A def 6,6,6,6,6",
        "roll:B off 6,6,6,6",
        "roll:B def 1,1,1,1,1",
    )
    return state


def test_cunning_gives_one_option_away_from_the_tactical_location() -> None:
    state = cunning_rolled()
    assert state.to_act() == (A,)
    assert seen(state, A)["fight"]["tactical"]["entitled"] == ["one", "none"]
    with pytest.raises(ActionError, match="only one"):
        state.parse_action(A, "move def>off 6 and turn off 1,1")
    play(state, "A:turn off 1,1")
    assert last(state)["pools"][A]["off"] == [6, 6, 1, 1]


def test_cunning_at_the_tactical_location_gives_both_options() -> None:
    state = at_split("tac 6", "off 1", power_a="cunning")
    play(
        state,
        "A:4/5 +power",
        "B:4/5",
        "roll:A off 1,1,1,1",
        "roll:A def 6,6,6,6,6",
        "roll:B off 6,6,6,6",
        "roll:B def 1,1,1,1,1",
    )
    assert seen(state, A)["fight"]["tactical"]["entitled"] == ["both", "none"]
    play(state, "A:move def>off 6 and turn off 1,1")
    assert last(state)["pools"][A] == {"off": [6, 6, 6, 1, 1], "def": [6, 6, 6, 6]}


def test_swift_moves_after_the_reveal_and_only_its_owner_chooses() -> None:
    state = fresh(power_b="swift")
    play(state, "A:tac 5", "B:tac 5", "A:off 1", "B:def 3")
    assert phase(state) == "swift" and state.to_act() == (B,)
    texts = {state.action_to_str(B, a) for a in state.legal_actions(B)}
    assert texts == {"stay", "swift off", "swift tac"}
    with pytest.raises(ActionError, match="already"):
        state.parse_action(B, "swift def")
    play(state, "B:swift tac")
    obs = seen(state, A)
    assert obs["fighters"][B]["location"] == "tac" and obs["fighters"][B]["power_used"] is True
    assert obs["fight"]["swift"] == [None, "tac"]
    # Used once: no Swift step in the next turn.
    play(
        state,
        "A:4/5",
        "B:4/5",
        "roll:A off 1,1,1,1",
        "roll:A def 6,6,6,6,6",
        "roll:B off 1,1,1,1",
        "roll:B def 6,6,6,6,6",
        "B:pass",
        "A:tac 5",
        "B:off 1",
    )
    assert phase(state) == "split"


def test_swift_stay_keeps_the_coin() -> None:
    state = fresh(power_a="swift")
    play(state, "A:tac 5", "B:tac 5", "A:off 1", "B:def 3", "A:stay")
    assert state.observation(B)["fighters"][A]["power_used"] is False
    with pytest.raises(ActionError, match="Swift is used at the end of the placement"):
        state.parse_action(A, "4/5 +swift")


def test_swift_is_not_offered_at_the_setup_placement() -> None:
    state = fresh(power_a="swift")
    play(state, "A:tac 5", "B:tac 5")
    assert phase(state) == "place"


def test_both_swift_owners_choose_at_once_in_secret() -> None:
    state = fresh(power_a="swift", power_b="swift")
    play(state, "A:tac 5", "B:tac 5", "A:off 1", "B:def 3")
    assert state.to_act() == (A, B)
    before = state.observation(B)
    play(state, "A:swift def")
    assert state.observation(B) == before


def test_power_options_are_checked() -> None:
    with pytest.raises(OptionError, match="power_a"):
        Fite(power_a="sneaky")
    with pytest.raises(ActionError, match="no super power"):
        at_split().parse_action(A, "4/5 +power")
    with pytest.raises(ActionError, match="tough, not brutal"):
        at_split(power_a="tough").parse_action(A, "4/5 +brutal")


# --- notation ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "canonical"),
    [("5", "tac 5"), ("place 2", "off 2"), ("Defensive 4", "def 4"), ("def", "def 3"), ("TAC 6", "tac 6")],
)
def test_place_notation(text: str, canonical: str) -> None:
    assert format_place(parse_place(text)) == canonical


@pytest.mark.parametrize("text", ["7", "0", "off 5", "up 2", "1 2", "", "place", "tac 5!"])
def test_place_notation_rejects(text: str) -> None:
    with pytest.raises(ActionError):
        parse_place(text)


def test_swift_and_split_notation() -> None:
    assert format_swift(parse_swift("Swift TACTICAL")) == "swift tac"
    assert format_swift(parse_swift("pass")) == "stay"
    assert format_split(parse_split("3 / 6 + power", "tough"), "tough") == "3/6 +tough"
    assert format_split(parse_split("3 6", None), None) == "3/6"
    for bad in ["3/6/1", "three/six", "3/6 +", "3/6 +power +power"]:
        with pytest.raises(ActionError):
            parse_split(bad, "tough")


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("pass", "pass"),
        ("move off 5,6", "move off>def 6,5"),
        ("move defensive -> offensive 1", "move def>off 1"),
        ("turn def 1 off 2", "turn off 2 def 1"),
        ("turn off 1, 1", "turn off 1,1"),
        ("turn def 2 and move off>def 6", "move off>def 6 and turn def 2"),
        ("move off 6; turn def 1 + ", "move off>def 6 and turn def 1"),
    ],
)
def test_tactic_notation(text: str, canonical: str) -> None:
    assert format_tactic(parse_tactic(text)) == canonical


@pytest.mark.parametrize(
    "text",
    [
        "move off>off 6",
        "move off 6,5,4",
        "turn off 1,2,3",
        "turn 1",
        "move 6",
        "jump",
        "move off",
        "turn off 7",
        "move off 6 move def 1",
    ],
)
def test_tactic_notation_rejects(text: str) -> None:
    with pytest.raises(ActionError):
        parse_tactic(text)


def test_roll_notation() -> None:
    assert parse_roll("2,6 5", 1, 0, 3) == (6, 5, 2)
    assert format_roll(1, 0, (6, 5, 2)) == "B off 6,5,2"
    for bad, why in [
        ("A off 6,5,2", "B's"),
        ("B def 6,5,2", "offensive pool"),
        ("6,5", "has 3 dice, not 2"),
        ("6,5,7", "not a die face"),
    ]:
        with pytest.raises(ActionError, match=why):
            parse_roll(bad, 1, 0, 3)


def test_every_legal_tactic_round_trips_and_is_distinct() -> None:
    state = at_split("tac 5", "off 1", power_a="cunning")
    play(
        state,
        "A:4/5 +power",
        "B:4/5",
        "roll:A off 6,5,1,1",
        "roll:A def 6,4,3,2,2",
        "roll:B off 6,6,6,6",
        "roll:B def 1,1,1,1,1",
    )
    legal = state.legal_actions(A)
    texts = [state.action_to_str(A, a) for a in legal]
    assert len(set(texts)) == len(texts) == len(set(legal))
    for action, text in zip(legal, texts, strict=True):
        assert state.parse_action(A, text) == action
        # And the action does what it says on the pools.
        apply_tactic(state.pools(A), cast(TacticAction, action))


# --- whose dice the turn acts on: the option turn_dice (ruling 7) ----------------------------

#: A at the tactical location, B at the offensive one: B's single defensive 6 stops one of A's
#: two 5s, and A's seven 6s stop B's seven 1s (+1 each).
OPPONENTS_SIX = (
    "A:2/7",
    "B:7/2",
    "roll:A off 5,5",
    "roll:A def 6,6,6,6,6,6,6",
    "roll:B off 1,1,1,1,1,1,1",
    "roll:B def 6,1",
)


def net_hits(state: FiteState, action: Any) -> int:
    """Hits A deals minus hits A takes if A (alone entitled) plays ``action``."""
    trial = state.clone()
    trial.apply(A, action)
    hits = last(trial)["hits"]
    return int(hits[B] - hits[A])


def test_turn_dice_is_an_option_whose_default_turns_the_fighters_own_dice() -> None:
    option = next(o for o in Fite.info.options if o.name == "turn_dice")
    assert (option.kind, option.default, option.choices) == ("choice", "own", ("own", "any"))
    assert fresh().observation(A)["turn_dice"] == "own"
    assert fresh(turn_dice="any").observation(B)["turn_dice"] == "any"
    with pytest.raises(OptionError, match="turn_dice"):
        Fite(turn_dice="theirs")


def test_turning_an_opponents_die_matters_under_turn_dice_any() -> None:
    """The worked case of ruling 7: A turns B's defensive 6 to a 1, and both of A's 5s hit."""
    own = at_split("tac 5", "off 1")
    play(own, *OPPONENTS_SIX)
    assert own.to_act() == (A,)
    # The fighter's own dice only: nothing beats one hit dealt and none taken.
    assert max(net_hits(own, a) for a in own.legal_actions(A)) == 1
    assert all(t[0] < 2 for a in own.legal_actions(A) for t in cast(TacticAction, a)[3])
    with pytest.raises(ActionError, match=r"turns only its own dice.*turn_dice=any"):
        own.parse_action(A, "turn B def 6")

    wide = at_split("tac 5", "off 1", turn_dice="any")
    play(wide, *OPPONENTS_SIX)
    assert max(net_hits(wide, a) for a in wide.legal_actions(A)) == 2
    assert "the opponent's dice too, by its letter: 'turn B def 6'" in wide.observation_text(A)
    assert "opponent's dice" not in own.observation_text(A)
    play(wide, "A:turn B def 6")
    fight = last(wide)
    assert fight["tactical"]["choices"] == ["turn B def 6", None]
    assert fight["pools"][B] == {"off": [1] * 7, "def": [1, 1]}
    assert fight["values"][B]["def"] == [1, 1]
    assert fight["hits"] == [0, 2] and fight["dice"] == [9, 7]
    assert "A has one tactical option: turn B def 6" in wide.observation_text(B)


def test_legal_tactical_choices_under_each_reading() -> None:
    own = at_split("tac 5", "off 1")
    wide = at_split("tac 5", "off 1", turn_dice="any")
    for state in (own, wide):
        play(state, *OPPONENTS_SIX)
    own_legal, wide_legal = set(own.legal_actions(A)), set(wide.legal_actions(A))
    assert own_legal < wide_legal
    extra = wide_legal - own_legal
    assert all(any(pool >= 2 for pool, _ in cast(TacticAction, a)[3]) for a in extra)
    texts = {wide.action_to_str(A, a) for a in extra}
    assert {"turn B off 1", "turn B def 6", "turn B def 6,1", "turn off 5 B def 6", "turn B off 1,1"} <= texts
    assert "turn B def 6,6" not in texts  # B's defence shows one 6
    # Singles: A's off 5, def 6 and B's off 1, def 6, def 1; pairs of those, repeats where a pool
    # holds the face twice (A's 5,5 and 6,6, B's 1,1).
    kinds = 5
    turns = kinds + kinds * (kinds - 1) // 2 + 3
    moves = len([a for a in wide_legal if a[1] >= 0])
    assert len(wide_legal) == 1 + moves + turns
    with pytest.raises(ActionError, match="B's defensive pool \\(6,1\\) has no 6,6"):
        wide.parse_action(A, "turn B def 6,6")


def test_only_entitled_choices_turn_opponent_dice_and_cunning_does_too() -> None:
    state = cunning_rolled(turn_dice="any")
    assert state.to_act() == (A,)
    play(state, "A:turn B off 6,6")
    assert last(state)["pools"][B]["off"] == [6, 6, 1, 1]


def test_both_fighters_turning_the_same_dice_at_once() -> None:
    def turn(a: str, b: str, a_off: str = "1,1") -> dict[str, Any]:
        state = at_split("tac 5", "tac 6", turn_dice="any")
        play(
            state,
            "A:2/7",
            "B:2/7",
            f"roll:A off {a_off}",
            "roll:A def 6,6,6,6,6,6,6",
            "roll:B off 6,6",
            "roll:B def 1,1,1,1,1,1,1",
            f"A:{a}",
            f"B:{b}",
        )
        return last(state)

    # Two 1s: each fighter's turn takes its own die, so both show 6.
    assert turn("turn off 1", "turn A off 1")["pools"][A]["off"] == [6, 6]
    # A single 1 turned by both: turned twice, it shows its rolled face again.
    assert turn("turn off 1", "turn A off 1", a_off="5,1")["pools"][A]["off"] == [5, 1]
    assert turn("pass", "turn A def 6")["pools"][A]["def"] == [6, 6, 6, 6, 6, 6, 1]
    # A die its owner moves is turned where it lands.
    state = at_split("tac 5", "tac 6", turn_dice="any", power_a="cunning")
    play(
        state,
        "A:2/7 +power",
        "B:2/7",
        "roll:A off 5,1",
        "roll:A def 6,6,6,6,6,6,6",
        "roll:B off 6,6",
        "roll:B def 1,1,1,1,1,1,1",
        "A:move off>def 1",
        "B:turn A off 1",
    )
    assert last(state)["pools"][A] == {"off": [5], "def": [6, 6, 6, 6, 6, 6, 6, 6]}


@pytest.mark.parametrize(
    ("player", "text", "canonical"),
    [
        (A, "turn b def 6", "turn B def 6"),
        (A, "turn their def 6 off 5", "turn off 5 B def 6"),
        (A, "turn B off 1 B def 6", "turn B off 1 B def 6"),
        (A, "turn opp off 1,1", "turn B off 1,1"),
        (A, "turn a off 5", "turn off 5"),  # its own letter: its own dice
        (B, "turn a off 5 def 1", "turn def 1 A off 5"),
        (B, "move def>off 1 and turn A def 6", "move def>off 1 and turn A def 6"),
    ],
)
def test_opponent_dice_notation(player: int, text: str, canonical: str) -> None:
    assert format_tactic(parse_tactic(text, player), player) == canonical


def test_opponent_dice_notation_rejects() -> None:
    for bad in ["turn B 6", "turn B", "turn B off 6 def 1 B def 2", "turn their"]:
        with pytest.raises(ActionError):
            parse_tactic(bad, A)
    with pytest.raises(ActionError, match="their"):
        parse_tactic("turn B def 6")  # a letter needs to know who is choosing


def test_every_legal_tactic_round_trips_under_turn_dice_any() -> None:
    state = at_split("tac 5", "tac 6", power_a="cunning", turn_dice="any")
    play(
        state,
        "A:4/5 +power",
        "B:4/5",
        "roll:A off 6,5,1,1",
        "roll:A def 6,4,3,2,2",
        "roll:B off 6,6,3,1",
        "roll:B def 5,2,2,1,1",
    )
    for player in (A, B):
        legal = state.legal_actions(player)
        texts = [state.action_to_str(player, a) for a in legal]
        assert len(set(texts)) == len(texts) == len(set(legal))
        for action, text in zip(legal, texts, strict=True):
            assert state.parse_action(player, text) == action
    # The default reading offers a part of these, written as before: no fighter's letter.
    own = at_split("tac 5", "tac 6", power_a="cunning")
    play(own, "A:4/5 +power", "B:4/5", "roll:A off 6,5,1,1", "roll:A def 6,4,3,2,2")
    play(own, "roll:B off 6,6,3,1", "roll:B def 5,2,2,1,1")
    assert set(own.legal_actions(A)) < set(state.legal_actions(A))
    assert all(" B " not in f" {own.action_to_str(A, a)} " for a in own.legal_actions(A))


def test_agents_play_legally_under_turn_dice_any() -> None:
    game = load_game("fite", power_a="cunning", power_b="cunning", turn_dice="any", turn_limit=30)
    for spec in ("random", "rule", "easy"):
        agents = [make_agent(spec, game, 0, seed=1), make_agent(spec, game, 1, seed=2)]
        state, record = play_game(game, agents, seed=3)
        assert state.result() is not None
        assert Record.loads(record.dumps()).replay()[-1].result() == state.result()


def test_random_games_under_turn_dice_any_replay_and_resample() -> None:
    for seed in range(6):
        power_b = ("cunning", "none")[seed % 2]
        game = load_game("fite", power_a="cunning", power_b=power_b, turn_dice="any", turn_limit=40)
        rng = random.Random(seed)
        state = game.new_initial_state()
        record = Record.start(game, ["random", "random"])
        while not state.is_terminal():
            player = rng.choice(state.to_act())
            if player == CHANCE:
                action = state.sample_chance(rng)
            else:
                action = state.legal_actions(player).sample(rng)
                other = state.resample(1 - player, rng)
                assert other.observation(1 - player) == state.observation(1 - player)
                assert set(other.legal_actions(player)) == set(state.legal_actions(player))
            text = state.action_to_str(player, action)
            assert state.parse_action(player, text) == action
            state.apply(player, action)
            record.add(player, text)
        result = state.result()
        assert result is not None
        record.finish(result)
        assert Record.loads(record.dumps()).replay()[-1].render() == state.render()


# --- the structured form of an action ----------------------------------------------------

STRUCTURED_OPTIONS: list[dict[str, Any]] = [
    {"power_a": "cunning", "power_b": "swift", "turn_limit": 8},
    {"turn_dice": "any", "power_a": "cunning", "power_b": "brutal", "turn_limit": 8},
    {"power_a": "swift", "power_b": "tough", "setup_placement": False, "turn_limit": 8},
]


@pytest.mark.parametrize("options", STRUCTURED_OPTIONS, ids=str)
def test_every_action_and_roll_reads_back_from_its_structured_form(options: dict[str, Any]) -> None:
    kinds: set[str] = set()
    for _, state in random_states(options, games=3, seed=5):
        for player in state.to_act():
            if player == CHANCE:
                actions = [outcome for outcome, _ in state.chance_outcomes()]
            else:
                actions = list(state.legal_actions(player))
            for action in actions:
                form = state.action_to_json(player, action)
                kinds.add(str(form["kind"]))
                assert json.loads(json.dumps(form)) == form
                assert state.action_from_json(player, json.loads(json.dumps(form))) == action
                # The form and the notation name the same action.
                assert state.parse_action(player, state.action_to_str(player, action)) == action
    expected = {"place", "split", "roll", "pass", "move", "turn"}
    if "swift" in options.values():
        expected |= {"stay", "swift"}
    if "cunning" in options.values():
        expected.add("move and turn")
    assert expected <= kinds


def test_structured_forms_as_a_client_reads_them() -> None:
    state = at_split("tac 5", "tac 6", power_a="cunning", power_b="brutal", turn_dice="any")
    assert state.action_to_json(A, ("split", 4, 5, True)) == {
        "kind": "split",
        "off": 4,
        "def": 5,
        "power": "cunning",
    }
    assert state.action_to_json(B, ("split", 4, 5, False)) == {
        "kind": "split",
        "off": 4,
        "def": 5,
        "power": None,
    }
    play(state, "A:4/5 +power", "B:4/5", "roll:A off 6,5,1,1", "roll:A def 6,4,3,2,2")
    assert state.action_to_json(CHANCE, (6, 3, 1, 1)) == {
        "kind": "roll", "fighter": "B", "pool": "off", "faces": [6, 3, 1, 1],
    }  # fmt: skip
    play(state, "roll:B off 6,6,3,1", "roll:B def 5,2,2,1,1")
    action = state.parse_action(A, "move def>off 6,4 and turn off 1 B def 5")
    assert state.action_to_json(A, action) == {
        "kind": "move and turn", "from": "def", "to": "off", "dice": [6, 4],
        "turn": [{"fighter": "A", "pool": "off", "face": 1}, {"fighter": "B", "pool": "def", "face": 5}],
    }  # fmt: skip
    # A client may list the dice in any order: the action is the same.
    mixed = {
        "kind": "turn",
        "turn": [{"fighter": "A", "pool": "off", "face": 5}, {"face": 1, "pool": "off", "fighter": "A"}],
    }
    assert state.action_from_json(B, mixed) == state.parse_action(B, "turn A off 5,1")
    assert state.action_to_json(B, state.parse_action(B, "pass")) == {"kind": "pass"}
    fresh_state = fresh(power_a="swift")
    assert fresh_state.action_to_json(A, ("place", 3)) == {"kind": "place", "location": "def", "face": 3}


def structured_error(state: FiteState, player: int, data: object) -> str:
    with pytest.raises(ActionError) as caught:
        state.action_from_json(player, data)
    message = str(caught.value)
    assert message and "\n" not in message and "Traceback" not in message
    return message


@pytest.mark.parametrize(
    ("data", "why"),
    [
        ("tac 5", "not a structured action"),
        (["place", 5], "not a structured action"),
        ({}, "None is not a kind of placement"),
        ({"kind": 5}, "5 is not a kind of placement"),
        ({"kind": "split", "off": 5, "def": 4, "power": None}, "'split' is not a kind of placement"),
        ({"kind": "place", "face": 5}, "needs the key 'location'"),
        ({"kind": "place", "location": "tac", "face": 5, "x": 1}, "has no key 'x'"),
        ({"kind": "place", "location": "tac", "face": "5"}, "'face' is a whole number 1 to 6, not '5'"),
        ({"kind": "place", "location": "tac", "face": True}, "'face' is a whole number 1 to 6, not True"),
        ({"kind": "place", "location": "tac", "face": 7}, "not 7"),
        ({"kind": "place", "location": "top", "face": 5}, "'location' is one of off, def, tac, not 'top'"),
        ({"kind": "place", "location": "off", "face": 5}, "face 5 is the tac location, not off"),
    ],
)
def test_a_malformed_placement_is_refused_in_one_line(data: object, why: str) -> None:
    assert why in structured_error(fresh(), A, data)


@pytest.mark.parametrize(
    ("data", "why"),
    [
        ({"kind": "split", "off": 5, "def": 4}, "needs the key 'power'"),
        ({"kind": "split", "off": 0, "def": 9, "power": None}, "'off' is a whole number 1 to 8, not 0"),
        ({"kind": "split", "off": 4.0, "def": 5, "power": None}, "not 4.0"),
        ({"kind": "split", "off": 4, "def": 5, "power": "+power"}, "'power' is one of aggressive"),
        ({"kind": "split", "off": 4, "def": 5, "power": "tough"}, "super power is cunning, not tough"),
        ({"kind": "split", "off": 5, "def": 5, "power": None}, "fighter A has 9 dice, and 5/5 splits 10"),
    ],
)
def test_a_malformed_or_illegal_split_is_refused_in_one_line(data: object, why: str) -> None:
    assert why in structured_error(at_split(power_a="cunning"), A, data)


def tactical_state() -> FiteState:
    state = at_split("tac 5", "off 1", power_a="cunning")
    play(state, "A:4/5 +power", "B:4/5", "roll:A off 6,5,1,1", "roll:A def 6,4,3,2,2")
    return play(state, "roll:B off 6,6,6,6", "roll:B def 1,1,1,1,1")


@pytest.mark.parametrize(
    ("data", "why"),
    [
        ({"kind": "move", "from": "off", "to": "off", "dice": [6]}, "from one pool to the other"),
        ({"kind": "move", "from": "off", "to": "def", "dice": []}, "a list of 1 to 2 die faces"),
        ({"kind": "move", "from": "off", "to": "def", "dice": [6, 5, 1]}, "a list of 1 to 2 die faces"),
        ({"kind": "move", "from": "off", "to": "def", "dice": 6}, "a list of 1 to 2 die faces (1-6), not 6"),
        ({"kind": "move", "from": "off", "to": "def", "dice": [6], "turn": []}, "has no key 'turn'"),
        ({"kind": "turn", "turn": [{"fighter": "A", "pool": "off"}]}, "turns dice written like"),
        ({"kind": "turn", "turn": [{"fighter": "C", "pool": "off", "face": 6}]}, "'fighter' is one of A, B"),
        ({"kind": "turn", "turn": "off 6"}, "'turn' is a list of 1 or 2 dice"),
        ({"kind": "pass", "dice": []}, "has no key 'dice'"),
        (
            {"kind": "roll", "fighter": "A", "pool": "off", "faces": [6]},
            "'roll' is not a kind of tactical choice",
        ),
        # Well formed, and illegal here:
        ({"kind": "move", "from": "off", "to": "def", "dice": [4]}, "the offensive pool (6,5,1,1) has no 4"),
        ({"kind": "turn", "turn": [{"fighter": "B", "pool": "def", "face": 1}]}, "turns only its own dice"),
    ],
)
def test_a_malformed_or_illegal_tactical_choice_is_refused_in_one_line(data: object, why: str) -> None:
    assert why in structured_error(tactical_state(), A, data)


def test_a_roll_and_a_choice_out_of_turn_are_refused_in_one_line() -> None:
    state = play(at_split(), "A:5/4", "B:3/6")
    roll = {"kind": "roll", "fighter": "A", "pool": "off", "faces": [6, 5, 4, 2, 2]}
    assert state.action_from_json(CHANCE, roll) == (6, 5, 4, 2, 2)
    assert "not B's" in structured_error(state, CHANCE, {**roll, "fighter": "B"})
    assert "has 5 dice, not 4" in structured_error(state, CHANCE, {**roll, "faces": [6, 5, 4, 2]})
    assert "a list of 1 to 8 die faces" in structured_error(state, CHANCE, {**roll, "faces": [6, 0]})
    assert "not fighter A's turn" in structured_error(state, A, {"kind": "pass"})
    placed = play(fresh(), "A:tac 5")
    placement = {"kind": "place", "location": "tac", "face": 6}
    assert "not fighter A's turn (to act: fighter B)" in structured_error(placed, A, placement)


# --- records ---------------------------------------------------------------------------


def recorded_game() -> Record:
    game = load_game("fite", power_a="cunning", power_b="swift")
    agents = [make_agent("random", game, 0, seed=1), make_agent("random", game, 1, seed=2)]
    _, record = play_game(game, agents, seed=5)
    return record


def test_a_record_replays() -> None:
    record = recorded_game()
    states = Record.loads(record.dumps()).replay()
    assert states[-1].result() is not None


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda t: t.replace("6", "7", 1), "7 is not a die face"),
        (lambda t: t + ",1", "pool has"),
        (lambda t: t.rsplit(",", 1)[0] if "," in t else t + ",2", "pool has"),
    ],
)
def test_a_record_with_an_impossible_roll_is_rejected(change: object, message: str) -> None:
    record = recorded_game()
    data = record.to_json()
    index = next(i for i, ev in enumerate(data["events"]) if ev["player"] == "chance" and "6" in ev["action"])
    data["events"][index]["action"] = change(data["events"][index]["action"])  # type: ignore[operator]
    with pytest.raises(RecordError, match=rf"^event {index} \(chance .*{message}") as info:
        Record.loads(json.dumps(data)).replay()
    assert "\n" not in str(info.value)


def test_roll_of_the_wrong_pool_size_is_named() -> None:
    state = at_split()
    play(state, "A:5/4", "B:3/6")
    with pytest.raises(ActionError, match="A's offensive pool has 5 dice, not 4"):
        state.apply_str(CHANCE, "A off 6,5,4,2")


# --- observations and resampling --------------------------------------------------------


def test_resample_redraws_the_opponents_pending_choice_only() -> None:
    state = at_split()
    play(state, "A:8/1")
    seen = set()
    for seed in range(40):
        other = state.resample(B, random.Random(seed))
        assert other.observation(B) == state.observation(B)
        seen.add(other.pending[A])
        assert state.resample(A, random.Random(seed)).pending[A] == ("split", 8, 1, False)
    assert len(seen) > 3
    assert state.pending[A] == ("split", 8, 1, False)


def test_the_first_screen_explains_the_setup_placement() -> None:
    state = fresh()
    for player in (A, B):
        text = state.observation_text(player)
        words = " ".join(text.split())  # the explanation is wrapped to the terminal's width
        for said in (
            "Choose in secret where your fighter stands:",
            "1-2 offensive (+1 on each die you attack with)",
            "3-4 defensive (+1 on each die you defend with)",
            "5-6 tactical (after the roll, move 2 dice between your pools or turn 2 of your dice",
            "Turn 1's placement comes right after this SETUP one",
        ):
            assert said in words, text
        assert "Your move: place your die for SETUP: off 1-2, def 3-4, tac 5-6 (e.g. 'tac 5')" in text
        assert all(len(line) <= 80 for line in text.splitlines())
    assert "where your fighter stands" not in state.render()  # a spectator decides nothing
    play(state, "A:def 3")
    assert "where your fighter stands" not in state.observation_text(A)  # chosen: waiting
    play(state, "B:tac 5")
    assert "where your fighter stands" not in state.observation_text(A)  # turn 1: seen already
    # Without the SETUP placement the first screen is turn 1's placement, and says so the same way.
    first = fresh(setup_placement=False).observation_text(A)
    assert "where your fighter stands" in first and "SETUP" not in first
    wide = " ".join(fresh(turn_dice="any").observation_text(A).split())
    assert "turn 2 of any dice, the opponent's too, to the opposite face" in wide


def test_render_shows_the_secrets_and_observations_do_not() -> None:
    state = at_split()
    play(state, "A:7/2")
    assert "A 7/2" in state.render()
    assert "7/2" not in state.observation_text(B)
    assert "Your choice: 7/2" in state.observation_text(A)


# --- agents and speed ----------------------------------------------------------------------


def test_random_playouts_end() -> None:
    for seed in range(30):
        game = load_game("fite", power_a=("none", "cunning", "swift")[seed % 3], power_b="brutal")
        state, _ = play_game(game, [make_agent("random", game, p, seed=seed + p) for p in (0, 1)], seed=seed)
        assert state.result() is not None


def test_rule_agent_acts_legally_in_every_step() -> None:
    game = load_game("fite", power_a="cunning", power_b="swift", setup_placement=False)
    agents = [FiteRuleAgent(game, 0, seed=1), FiteRuleAgent(game, 1, seed=2)]
    state, record = play_game(game, agents, seed=3)
    assert state.result() is not None and len(record.events) > 8


def test_rule_agent_beats_random_clearly() -> None:
    wins = [0, 0]
    for summary in run_match("fite", ["rule", "random"], 40, seed=11):
        firsts = [a for a, place in enumerate(summary.ranking) if place == 1]
        if len(firsts) == 1:
            wins[firsts[0]] += 1
    assert wins[0] >= 32 and wins[1] <= 6


def test_rule_agent_takes_no_parameters_and_picks_the_tactical_location() -> None:
    game = load_game("fite")
    with pytest.raises(Exception, match="no parameters"):
        make_agent("rule:depth=2", game, 0)
    state = game.new_initial_state()
    assert state.action_to_str(0, FiteRuleAgent(game, 0, seed=0).act(PlayerView(state, 0))) == "tac 5"


def test_rule_agent_tables() -> None:
    assert uncancelled([6, 5, 4, 2, 2], [6, 6, 3, 2, 1, 1]) == 1
    assert math.isclose(sum(hit_chances(3, 2, 1)), 1.0)
    offs, weights, _ = split_strategy(9, 9, (0, 0), (0, 0))
    assert math.isclose(sum(weights), 1.0) and offs == list(range(1, 9))


def test_observations_copy_the_last_fight_and_never_share_it() -> None:
    # An observation's last fight is the state's record, as a copy of its own (made from
    # JSON once per fight): changing it changes neither the state nor a later observation.
    game = load_game("fite")
    rng = random.Random(3)
    checked = 0
    for _ in range(40):
        state = game.new_initial_state()
        assert isinstance(state, FiteState)
        while state.to_act():
            acting = state.to_act()
            if acting == (CHANCE,):
                state.apply(CHANCE, state.sample_chance(rng))
                continue
            for p in acting:
                state.apply(p, state.legal_actions(p).sample(rng))
            for p in (0, 1, PUBLIC):
                record: Any = state.observation(p)["last_fight"]
                assert record == state.last_fight
                if record is not None:
                    record["hits"] = "changed"
                    again = state.clone()
                    assert isinstance(again, FiteState)
                    assert state.observation(p)["last_fight"] == again.last_fight != record
                    checked += 1
    assert checked > 500


# --- the RL encoding's shortcuts ----------------------------------------------------------

#: Option sets the shortcuts are checked under: every power, both turn_dice readings, short games.
ENCODING_OPTIONS: list[dict[str, Any]] = [
    {},
    {"power_a": "cunning", "power_b": "swift"},
    {"power_a": "swift", "power_b": "swift", "setup_placement": False},
    {"turn_dice": "any", "power_a": "cunning", "power_b": "cunning", "turn_limit": 100},
    {"turn_dice": "any", "power_a": "aggressive", "power_b": "fast", "turn_limit": 3},
    {"power_a": "brutal", "power_b": "tough", "turn_limit": 100},
]


def random_states(options: dict[str, Any], games: int, seed: int) -> list[tuple[str, FiteState]]:
    """The states of ``games`` seeded random games, each named by what it is.

    One before each event, one after each submission but the last of a
    simultaneous step (one fighter has chosen, the other not), and the last.
    """
    game = load_game("fite", **options)
    rng = random.Random(seed)
    out: list[tuple[str, FiteState]] = []
    for _ in range(games):
        state = game.new_initial_state()
        assert isinstance(state, FiteState)
        while acting := state.to_act():
            if acting == (CHANCE,):
                out.append(("roll", state.clone()))
                state.apply(CHANCE, state.sample_chance(rng))
                continue
            out.append(("decision", state.clone()))
            for i, p in enumerate(acting):
                state.apply(p, state.legal_actions(p).sample(rng))
                if i < len(acting) - 1:  # the step waits for the others' choices
                    out.append(("half-submitted", state.clone()))
        out.append(("over", state))
    return out


@pytest.mark.parametrize("options", ENCODING_OPTIONS, ids=str)
def test_the_observation_array_written_from_the_state_is_the_one_written_from_the_observation(
    options: dict[str, Any],
) -> None:
    # FiteFeatures.write_state reads the state's fields for speed; it must show exactly what
    # the observation shows, hidden choices included, for every seat and the public view.
    np = pytest.importorskip("numpy")
    from tussle.adapters.encoding import encoding_for

    features = encoding_for(load_game("fite", **options)).features
    kinds: dict[str, int] = {}
    phases = set()
    for kind, state in random_states(options, games=25, seed=11):
        kinds[kind] = kinds.get(kind, 0) + 1
        phases.add(state.observation(PUBLIC)["phase"])
        for player in (A, B, PUBLIC):
            slow = np.zeros(features.size, dtype=np.float32)
            fast = np.zeros(features.size, dtype=np.float32)
            features.write(state.observation(player), player, slow)
            features.write_state(state, player, fast)
            assert np.array_equal(fast, slow), (kind, player, state.observation(player))
    assert kinds["over"] == 25 and kinds["half-submitted"] > 50 and sum(kinds.values()) > 500
    assert {"place", "split", "roll", "tactical", "over"} <= phases
    if options.get("setup_placement", True):
        assert "setup" in phases
    if "swift" in options.values():
        assert "swift" in phases


def test_the_array_shortcut_writes_any_float32_array_and_leaves_others_to_the_observation() -> None:
    np = pytest.importorskip("numpy")
    from tussle.adapters.encoding import encoding_for

    features = encoding_for(load_game("fite")).features
    state = play(at_split(), "A:5/4", "B:3/6", "roll:A off 6,5,4,2,2")
    strided = np.zeros(2 * features.size, dtype=np.float32)[::2]  # a view: the shortcut writes through it
    wide = np.zeros(features.size, dtype=np.float64)  # not float32: written from the observation
    for out in (strided, wide):
        expected = np.zeros(features.size, dtype=out.dtype)
        features.write(state.observation(A), A, expected)
        features.write_state(state, A, out)
        assert np.array_equal(out, expected) and out.any()


@pytest.mark.parametrize("options", ENCODING_OPTIONS[:4], ids=str)
def test_the_encodings_shortcuts_number_actions_and_rolls_as_the_notation_does(
    options: dict[str, Any],
) -> None:
    # FiteEncoding keeps each pool size's numbered roll outcomes, and FiteCodec each fighter's
    # action numbers: both must give what numbering the notation gives.
    pytest.importorskip("numpy")
    from tussle.adapters.encoding import GameEncoding, encoding_for

    encoding = encoding_for(load_game("fite", **options))
    rolls = 0
    for kind, state in random_states(options, games=8, seed=5):
        outcomes = encoding.chance_outcomes(state)
        assert outcomes == GameEncoding.chance_outcomes(encoding, state)
        assert list(encoding.chance_pairs(state)) == [(i, p) for i, p, _ in outcomes]
        if kind == "roll":
            rolls += 1
            outcomes.clear()  # the caller's own list: the next one is whole
            assert len(encoding.chance_outcomes(state)) == len(state.chance_outcomes()) > 0
        for p in state.to_act():
            if p != CHANCE:
                actions = state.legal_actions(p)
                numbers = [encoding.codec.action_index(state, p, a) for a in actions]
                assert numbers == [encoding.codec.encode(state.action_to_str(p, a)) for a in actions]
    assert rolls > 100


@pytest.mark.parametrize("turn_dice", ["own", "any"])
def test_every_action_number_stands_for_one_value_its_label_writes(turn_dice: str) -> None:
    # The codec numbers the rules' values and finds a text among those the notation writes:
    # each number's label is its value's notation (``their`` for the opponent's dice) and reads back.
    pytest.importorskip("numpy")
    from tussle.games.fite.encoding import FiteCodec

    codec = FiteCodec(turn_dice)
    values = [codec.value(i) for i in range(codec.num_actions)]
    assert len(set(values)) == len(values) == codec.num_actions
    for index in range(codec.num_actions):
        assert codec.encode(codec.label(index)) == index
    for index in range(codec.num_chance):
        assert codec.encode_chance(codec.chance_label(index)) == index
    with pytest.raises(IndexError):
        codec.value(codec.num_actions)


# --- one legality predicate, one chance draw -----------------------------------------------


def test_is_legal_agrees_with_the_legal_lists_on_legal_and_illegal_actions() -> None:
    # FiteState.is_legal is the one predicate apply asks; the base State.is_legal, which reads the
    # legal lists and the chance outcomes, is the oracle.
    rng = random.Random(2)
    seen: list[Any] = []
    junk: list[Any] = [
        None, "pass", (), ("tactic",), ("place", 7), ("place", 0), ("swift", 3), ("split", 9, 0, False),
        ("split", 5, 4, False, 1), ("tactic", 0, (7,), ()), (6,) * 9, (0,), [1], {"kind": 1},
    ]  # fmt: skip
    checked = illegal = 0
    for options in STRUCTURED_OPTIONS:
        for _, state in random_states(options, games=4, seed=9):
            mine = [a for p in state.to_act() if p != CHANCE for a in state.legal_actions(p)]
            rolls = [o for o, _ in state.chance_outcomes()]
            candidates = mine + rolls + junk + rng.sample(seen, min(len(seen), 40))
            seen += rng.sample(mine, min(len(mine), 5)) + rolls[:3]
            for player in (A, B, CHANCE):
                for action in candidates:
                    legal = state.is_legal(player, action)
                    assert legal == State.is_legal(state, player, action), (player, action)
                    checked += 1
                    illegal += not legal
    assert checked > 50_000 and illegal > checked // 2


def roll_counts(state: FiteState, draws: int, seed: int) -> dict[tuple[int, ...], int]:
    rng = random.Random(seed)
    counts: dict[tuple[int, ...], int] = {}
    for _ in range(draws):
        roll = cast(Roll, state.sample_chance(rng))
        counts[roll] = counts.get(roll, 0) + 1
    return counts


def chi_square(counts: dict[tuple[int, ...], int], outcomes: list[tuple[Any, float]], draws: int) -> float:
    """Pearson's statistic over the outcomes, the rare ones (expected under 5) pooled into one bin."""
    statistic = 0.0
    rare_seen = rare_expected = 0.0
    for outcome, p in outcomes:
        expected = p * draws
        if expected < 5:
            rare_seen += counts.get(outcome, 0)
            rare_expected += expected
        else:
            statistic += (counts.get(outcome, 0) - expected) ** 2 / expected
    if rare_expected:
        statistic += (rare_seen - rare_expected) ** 2 / rare_expected
    return statistic


@pytest.mark.parametrize("size", range(1, 9))
def test_rolling_the_dice_one_by_one_draws_exactly_the_chance_outcomes_distribution(size: int) -> None:
    # sample_chance rolls each die (one random number a die) rather than drawing from the table
    # of chance_outcomes: the golden records were played that way. Its distribution must be the table's.
    state = play(at_split(), f"A:{size}/{9 - size}", "B:1/8")
    outcomes = state.chance_outcomes()
    assert len(outcomes) == len(ROLLS[size]) and seen(state, A)["rolling"]["dice"] == size
    draws = 20_000
    counts = roll_counts(state, draws, seed=size)
    assert set(counts) <= {o for o, _ in outcomes} and sum(counts.values()) == draws
    bins = sum(1 for _, p in outcomes if p * draws >= 5) + 1
    bound = bins + 6 * math.sqrt(2 * bins)  # six standard deviations above the mean
    assert chi_square(counts, outcomes, draws) < bound
    # The same bound refuses a plausible wrong draw: every sorted roll equally likely.
    if size > 1:
        rng = random.Random(size)
        wrong: dict[tuple[int, ...], int] = {}
        for _ in range(draws):
            roll = cast(Roll, rng.choice(outcomes)[0])
            wrong[roll] = wrong.get(roll, 0) + 1
        assert chi_square(wrong, outcomes, draws) > bound
