"""Fight!: the text's clarification examples and example fight, every rule sentence, the deck format."""

from __future__ import annotations

import ast
import inspect
import json
import math
import os
import random
import re
import threading
import tomllib
from collections import Counter
from pathlib import Path
from typing import Any

import fight_reference as ref
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tussle.games.fight.rule_agent as agent_module
from tussle import ActionError, AgentError, OptionError, Record, load_game
from tussle.agents import make_agent
from tussle.agents.random_agent import RandomAgent
from tussle.game import CHANCE, MAX_DOCUMENT_CHARS, PUBLIC, State
from tussle.games.fight import Fight, FightState, default_deck, load_deck
from tussle.games.fight.actions import ACTIVATE, SCORE, Move, NextArena, Play, PlayAction
from tussle.games.fight.cards import (
    ALIEN,
    ANIMAL,
    DEMON,
    FAMILIES,
    HUMAN,
    MAX_DIGITS,
    MAX_EFFECTS,
    MAX_NESTING,
    MAX_TEXT,
    MAX_WARRIORS,
    POWER_BOUND,
    ROBOT,
    Effect,
    family_mask,
    multiply_digits,
    parse_condition,
    parse_deck,
    replace_digit,
    reverse_digits,
    scale_percent,
)
from tussle.games.fight.rules import ST_OVER, ST_PLAY, STEP_ARENA, STEP_TOP, Pairs
from tussle.runner import play_game, run_match

DATA = Path(__file__).resolve().parent.parent / "data"

# --- helpers ------------------------------------------------------------------

FILLER_FAMILIES = ("Human", "Animal", "Robot", "Demon", "Alien")


def warrior(name: str, family: str, power: int, ability: Any = None) -> dict[str, Any]:
    return {
        "name": name,
        "family": family,
        "power": power,
        "ability": ability if ability is not None else {"do": "add", "amount": 1, "target": "own"},
    }


def fillers(count: int, family: str | None = None, power: int = 5, prefix: str = "F") -> list[dict[str, Any]]:
    return [warrior(f"{prefix}{i}", family or FILLER_FAMILIES[i % 5], power) for i in range(1, count + 1)]


ARENAS = [
    {"name": "Pit", "glory": 7, "condition": {"goal": "closest", "value": 25}},
    {"name": "Top", "glory": 4, "condition": {"goal": "highest"}},
    {"name": "Low", "glory": 5, "condition": {"goal": "lowest"}},
    {"name": "Odd", "glory": 6, "condition": {"goal": "highest", "parity": "odd"}},
    {"name": "Even", "glory": 6, "condition": {"goal": "highest", "parity": "even"}},
    {"name": "Fifteen", "glory": 8, "condition": {"goal": "closest", "value": 15}},
    {"name": "Digits", "glory": 8, "condition": {"goal": "highest", "measure": "digit_sum"}},
]


def deck_text(warriors: list[dict[str, Any]], arenas: list[dict[str, Any]] | None = None) -> str:
    """A deck's text (JSON), as the option takes it."""
    return json.dumps({"warrior": warriors, "arena": arenas or ARENAS})


def make(warriors: list[dict[str, Any]], players: int = 2, **options: Any) -> Fight:
    game = load_game("fight", players=players, deck=deck_text(warriors), **options)
    assert isinstance(game, Fight)
    return game


def deal(
    game: Fight,
    hands: list[list[str]],
    graveyard: tuple[str, ...] = ("G1", "G2", "G3"),
    arenas: tuple[str, ...] = ("Pit", "Top"),
    top: str | None = None,
) -> FightState:
    """The setup with chosen cards: 5 each round-robin, the Graveyard, the Arenas, the top's back."""
    state = game.new_initial_state()
    for r in range(5):
        for p in range(game.num_players):
            state.apply_str(CHANCE, f"draw {hands[p][r]}")
    for name in graveyard:
        state.apply_str(CHANCE, f"draw {name}")
    for name in arenas:
        state.apply_str(CHANCE, f"arena {name}")
    if top is not None:
        state.apply_str(CHANCE, f"top {top}")
    return state


def act(state: FightState, *texts: str) -> None:
    """Apply each text for whoever is to act."""
    for text in texts:
        state.apply_str(state.to_act()[0], text)


def name_of(state: FightState, card: int) -> str:
    return state.deck.warriors[card].name


def names(state: FightState, cards: list[int]) -> list[str]:
    return [name_of(state, c) for c in cards]


def two_player(
    mine: dict[str, Any], theirs: dict[str, Any], boosts: list[dict[str, Any]], **options: Any
) -> FightState:
    """p0 holds ``mine``, the ``boosts`` and M1.. of its family; p1 ``theirs`` and T1..T4; Arena: Pit."""
    theirs_family = theirs["family"]
    p1_rest = fillers(4, family=theirs_family, prefix="T")
    p0_rest = fillers(4 - len(boosts), family=mine["family"], prefix="M")
    extra = fillers(20, prefix="X") + fillers(3, family="Demon", prefix="G")
    game = make([mine, *boosts, *p0_rest, theirs, *p1_rest, *extra], **options)
    p0 = [mine["name"], *(b["name"] for b in boosts), *(w["name"] for w in p0_rest)]
    p1 = [theirs["name"], *(w["name"] for w in p1_rest)]
    return deal(game, [p0, p1], top="Human")


def power_of(state: FightState, p: int) -> int:
    return state.powers[p]


def last_fight(state: FightState, viewer: int = 0) -> Any:  # read deep, where each test knows
    """How the Fight just decided ended, as ``viewer`` sees it."""
    last = state.observation(viewer)["last_fight"]
    assert isinstance(last, dict)
    return last


def fought(state: FightState) -> list[int | None]:
    """The final powers of the Fight just decided (None: no Main Warrior left)."""
    mains = [seat["main"] for seat in last_fight(state)["seats"]]
    return [None if m is None or m["killed"] else m["final_power"] for m in mains]


def pairs(state: FightState, p: int) -> list[PlayAction]:
    """``p``'s legal plays (Main, Boost)."""
    return [a for a in state.legal_actions(p) if isinstance(a, tuple)]


def random_playout(state: FightState, rng: random.Random, stop: int | None = None) -> FightState:
    events = 0
    while not state.is_terminal() and (stop is None or events < stop):
        acting = state.to_act()
        if acting == (CHANCE,):
            state.apply(CHANCE, state.sample_chance(rng))
        else:
            state.apply(acting[0], state.legal_actions(acting[0]).sample(rng))
        events += 1
    return state


def locations(state: FightState) -> Counter[int]:
    """How often each Warrior appears anywhere: every one must be in exactly one place."""
    seen: Counter[int] = Counter()
    for h in state.hands:
        seen.update(h)
    for s in state.scored:
        seen.update(s)
    seen.update(state.reserves)
    seen.update(state.graveyard)
    seen.update(state.buffer)
    seen.update(c for c in state.mains if c >= 0)
    seen.update(c for c in state.boosts if c >= 0)
    return seen


# --- the clarification examples -------------------------------------------------


def test_number_operations_of_the_clarifications() -> None:
    animals = Effect("add", amount=-10, families=1 << ANIMAL)
    assert animals.apply(20, False, False) == 10
    assert Effect("replace_digit", old=9, new=0).apply(19, False, False) == 10
    assert multiply_digits(14) == 4 and multiply_digits(54) == 20
    assert reverse_digits(29) == 92 and reverse_digits(46) == 64
    assert scale_percent(32, 150) == 48
    assert replace_digit(12, 2, 8) == 18


def test_minus_ten_to_all_animals_20_becomes_10() -> None:
    hunter = warrior("Hunter", "Human", 3, {"do": "add", "amount": -10, "family": "Animal"})
    state = two_player(warrior("Tiger", "Animal", 20), warrior("Bot", "Robot", 20), [hunter])
    act(state, "main Tiger boost Hunter", "main Bot boost T1", "activate")
    assert power_of(state, 0) == 10  # the Animal
    assert power_of(state, 1) == 20  # the Robot is no Animal
    assert state.deck.warrior("Hunter").text == "-10 to all Animals"


def test_all_nines_become_zero_19_becomes_10_and_9_dies() -> None:
    eater = warrior("Eater", "Robot", 3, {"do": "replace_digit", "from": 9, "to": 0})
    state = two_player(warrior("Nineteen", "Human", 19), warrior("Nine", "Robot", 9), [eater])
    act(state, "main Nineteen boost Eater", "main Nine boost T1", "activate")
    assert power_of(state, 0) == 10
    # 9 becomes 0: below 1, the Warrior is killed and removed to the Graveyard.
    assert state.mains[1] == -1
    assert "Nine" in names(state, state.graveyard)
    assert state.observation(0)["killed"] == ["Nine"]


def test_multiply_digits_14_becomes_4_and_54_becomes_20() -> None:
    lift = warrior("Lift", "Human", 3, {"do": "add", "amount": 40, "target": "own"})
    calc = warrior("Calc", "Robot", 3, {"do": "multiply_digits"})
    game = make(
        [
            warrior("Fourteen", "Animal", 14),
            lift,
            *fillers(3, family="Animal", prefix="M"),
            warrior("Other", "Demon", 14),
            calc,
            *fillers(3, family="Demon", prefix="T"),
            *fillers(20, prefix="X"),
            *fillers(3, family="Demon", prefix="G"),
        ],
    )
    state = deal(
        game, [["Fourteen", "Lift", "M1", "M2", "M3"], ["Other", "Calc", "T1", "T2", "T3"]], top="Human"
    )
    act(state, "main Fourteen boost Lift", "main Other boost Calc", "activate")
    assert power_of(state, 0) == 54
    act(state, "activate")  # the last Boost: the Fight is decided at once
    assert fought(state) == [20, 4]


def test_switch_digits_29_becomes_92_and_46_becomes_64() -> None:
    push = warrior("Push", "Human", 3, {"do": "add", "amount": 23, "target": "opponent"})
    flip = warrior("Flip", "Robot", 3, {"do": "reverse_digits"})
    game = make(
        [
            warrior("TwentyNine", "Animal", 29),
            push,
            *fillers(3, family="Animal", prefix="M"),
            warrior("TwentyThree", "Demon", 23),
            flip,
            *fillers(3, family="Demon", prefix="T"),
            *fillers(20, prefix="X"),
            *fillers(3, family="Demon", prefix="G"),
        ],
    )
    state = deal(
        game,
        [["TwentyNine", "Push", "M1", "M2", "M3"], ["TwentyThree", "Flip", "T1", "T2", "T3"]],
        top="Human",
    )
    act(state, "main TwentyNine boost Push", "main TwentyThree boost Flip")
    assert state.legal_actions(0) and state.action_to_str(0, 1) == "activate p1"
    act(state, "activate p1")
    assert power_of(state, 1) == 46
    act(state, "activate")
    assert fought(state) == [92, 64]


def test_plus_fifty_percent_32_becomes_48_for_your_main_only() -> None:
    # A composed ability: +10 to your Main Warrior, then +50% to it.
    drill = warrior(
        "Drill",
        "Human",
        3,
        [{"do": "add", "amount": 10, "target": "own"}, {"do": "percent", "amount": 150, "target": "own"}],
    )
    state = two_player(warrior("Cadet", "Animal", 22), warrior("Foe", "Robot", 22), [drill])
    act(state, "main Cadet boost Drill", "main Foe boost T1", "activate")
    assert power_of(state, 0) == 48
    assert power_of(state, 1) == 22


def test_plus_fifty_percent_rounds_down_by_default_and_up_as_an_option() -> None:
    holt = warrior("Holt", "Human", 3, {"do": "percent", "amount": 150, "target": "own"})
    state = two_player(warrior("Odd15", "Animal", 15), warrior("Foe", "Robot", 2), [holt])
    act(state, "main Odd15 boost Holt", "main Foe boost T1", "activate")
    assert power_of(state, 0) == 22
    state = two_player(warrior("Odd15", "Animal", 15), warrior("Foe", "Robot", 2), [holt], rounding="up")
    act(state, "main Odd15 boost Holt", "main Foe boost T1", "activate")
    assert power_of(state, 0) == 23


def test_switching_one_digit_keeps_it_unless_padded() -> None:
    flip = warrior("Flip", "Robot", 3, {"do": "reverse_digits"})
    for option, expected in (("keep", (7, 3)), ("pad", (70, 3))):
        state = two_player(
            warrior("Seven", "Animal", 7),
            warrior("Thirty", "Demon", 30),
            [flip],
            one_digit_switch=option,
        )
        act(state, "main Seven boost Flip", "main Thirty boost T1", "activate")
        assert (power_of(state, 0), power_of(state, 1)) == expected


def test_the_abilities_the_text_names_are_in_the_default_deck() -> None:
    deck = default_deck()
    effects = {(w.ability[0], len(w.ability)) for w in deck.warriors}
    wanted = [
        Effect("add", amount=-10, families=1 << ANIMAL),
        Effect("replace_digit", old=9, new=0),
        Effect("draw_score", count=5, families=1 << ALIEN),
        Effect("steal_boost", target="opponent", families=family_mask((HUMAN, DEMON))),
        Effect("multiply_digits"),
        Effect("reverse_digits"),
        Effect("percent", target="own", amount=150),
        Effect("add", target="opponent", amount=10),
        Effect("draw_score", count=5, families=1 << HUMAN),
        Effect("replace_digit", old=2, new=8),
    ]
    for effect in wanted:
        assert (effect, 1) in effects, effect.text()
    arenas = {
        a.condition.goal: a for a in deck.arenas if a.condition.goal == "closest" and a.condition.value == 25
    }
    assert arenas["closest"].text == "Closest to 25 wins"


def test_the_default_deck_has_the_components_of_the_text() -> None:
    deck = default_deck()
    assert len(deck.warriors) == 60 and len(deck.arenas) == 12
    assert Counter(FAMILIES[w.family] for w in deck.warriors) == dict.fromkeys(FAMILIES, 12)
    powers = sorted(w.power for w in deck.warriors)
    assert powers[0] == 1 and powers[-1] == 30 and set(powers) == set(range(1, 31))
    for f in range(5):
        family_powers = [w.power for w in deck.warriors if w.family == f]
        assert min(family_powers) <= 3 and max(family_powers) >= 28  # spread over 1 to 30
    assert all(4 <= a.glory <= 8 for a in deck.arenas)
    assert {a.glory for a in deck.arenas} == {4, 5, 6, 7, 8}
    assert len({w.text for w in deck.warriors}) >= 50


# --- the text's four-player example fight ----------------------------------------


def test_the_four_player_example_fight() -> None:
    """Mark, Sofia, Phillip and Joan (seats 0 to 3) fight in the Arena closest to 25.

    Mark activates +10 to an opponent's Main Warrior on Phillip; Sofia scores her
    Boost; Phillip draws five and scores the two Humans; Joan turns all 2s into
    8s and is now the closest to 25.
    """
    deck = [
        warrior("Mark's Warrior", "Robot", 29),
        warrior("Mark's Helper", "Animal", 4, {"do": "add", "amount": 10, "target": "opponent"}),
        warrior("Sofia's Warrior", "Demon", 27),
        warrior("Sofia's Helper", "Alien", 11),
        warrior("Phillip's Warrior", "Alien", 13),
        warrior("Phillip's Helper", "Human", 2, {"do": "draw_score", "count": 5, "family": "Human"}),
        warrior("Joan's Warrior", "Human", 18),
        warrior("Joan's Helper", "Robot", 6, {"do": "replace_digit", "from": 2, "to": 8}),
        warrior("Recruit A", "Human", 8),
        warrior("Recruit B", "Human", 9),
        warrior("Beast", "Animal", 10),
        warrior("Drone", "Robot", 11),
        warrior("Fiend", "Demon", 12),
        *fillers(16, family="Animal", prefix="K"),
        *fillers(8, family="Robot", prefix="R"),
        *fillers(3, family="Demon", prefix="G"),
    ]
    game = make(deck, players=4)
    hands = [
        ["Mark's Warrior", "Mark's Helper", "K1", "K2", "K3"],
        ["Sofia's Warrior", "Sofia's Helper", "K4", "K5", "K6"],
        ["Phillip's Warrior", "Phillip's Helper", "K7", "K8", "K9"],
        ["Joan's Warrior", "Joan's Helper", "K10", "K11", "K12"],
    ]
    state = deal(game, hands, arenas=("Pit", "Top"), top="Human")
    assert state.observation(0)["arena"] == {
        "name": "Pit",
        "glory": 7,
        "condition": "Power closest to 25 wins",
        "rule": {"goal": "closest", "value": 25},
    }
    act(
        state,
        "main Mark's Warrior boost Mark's Helper",
        "main Sofia's Warrior boost Sofia's Helper",
        "main Phillip's Warrior boost Phillip's Helper",
        "main Joan's Warrior boost Joan's Helper",
    )
    # Before any Boost: Sofia (27) and Phillip (13) ... Sofia is closest to 25.
    assert state.leader() == 1
    act(state, "activate p2")  # Mark: +10 to Phillip's Main Warrior
    assert state.powers == [29, 27, 23, 18]
    act(state, "score")  # Sofia scores her Boost, face down
    assert names(state, state.scored[1]) == ["Sofia's Helper"]
    assert state.observation(0)["seats"][1]["scored"] == [{"family": "Alien"}]
    act(state, "activate")  # Phillip draws five ...
    for name in ("Recruit A", "Beast", "Recruit B", "Drone", "Fiend"):
        assert state.to_act() == (CHANCE,)
        act(state, f"draw {name}")
    # ... and scores the two Humans; the others go to the Graveyard.
    assert names(state, state.scored[2]) == ["Recruit A", "Recruit B"]
    assert names(state, state.graveyard)[-3:] == ["Beast", "Drone", "Fiend"]
    # Phillip (23) and Sofia (27) are both 2 from 25: the tie goes to Sofia, closer to Mark.
    assert state.leader() == 1
    act(state, "top Animal")  # the back of the Reserves' new top card
    act(state, "activate")  # Joan: all 2s become 8s
    assert fought(state) == [89, 87, 83, 18]
    # The fight is over: Joan takes the Arena.
    assert [len(w) for w in state.won] == [0, 0, 0, 1]
    assert state.deck.arenas[state.won[3][0]].name == "Pit"
    assert last_fight(state)["winner"] == 3
    # How it ended, for everybody: Phillip's Boost drew five and scored two; Sofia's went down face down.
    report = last_fight(state, 0)["seats"]
    assert report[0]["boost"]["effects"] == [{"kind": "power", "seat": 2, "from": 13, "to": 23}]
    assert report[0]["boost"]["target"] == 2
    assert report[1]["boost"] == {"family": "Alien", "activated": False, "scored_by": 1}
    assert report[2]["boost"]["effects"] == [
        {"kind": "drew", "scored": ["Recruit A", "Recruit B"], "graveyard": ["Beast", "Drone", "Fiend"]}
    ]
    assert report[3]["boost"]["effects"] == [
        {"kind": "power", "seat": 0, "from": 29, "to": 89},
        {"kind": "power", "seat": 1, "from": 27, "to": 87},
        {"kind": "power", "seat": 2, "from": 23, "to": 83},
    ]
    assert last_fight(state, 1)["seats"][1]["boost"]["name"] == "Sofia's Helper"
    assert [state.glory(p) for p in range(4)] == [0, 1, 2, 7]
    # Everything that stayed on the table went to the Graveyard.
    assert {"Mark's Warrior", "Mark's Helper", "Joan's Helper", "Joan's Warrior"} <= set(
        names(state, state.graveyard)
    )


# --- each rule sentence -----------------------------------------------------------


def test_setup_deals_five_a_graveyard_of_three_and_two_visible_arenas() -> None:
    state = Fight(players=3).new_initial_state()
    rng = random.Random(5)
    while state.to_act() == (CHANCE,):
        state.apply(CHANCE, state.sample_chance(rng))
    assert [len(h) for h in state.hands] == [5, 5, 5]
    assert len(state.graveyard) == 3 and len(state.reserves) == 60 - 15 - 3
    obs = state.observation(1)
    assert all("name" in c for c in obs["graveyard"])  # face up
    assert obs["arena"] is not None and len(obs["upcoming_arenas"]) == 1  # the face-up pile's top
    assert obs["reserves"]["top_family"] in FAMILIES
    assert state.to_act() == (0,)  # the oldest player holds the 1st player card


def test_arena_visibility_options() -> None:
    rng = random.Random(1)
    for view, upcoming in (("next", 1), ("all", 6), ("current", 0)):
        state = Fight(arenas=view).new_initial_state()
        while state.to_act() == (CHANCE,):
            state.apply(CHANCE, state.sample_chance(rng))
        assert len(state.observation(0)["upcoming_arenas"]) == upcoming
        state = random_playout(state, rng)
        assert len(state.arena_seq) == 7 and len(set(state.arena_seq)) == 7


def family_game(**options: Any) -> FightState:
    """p0 plays a Robot; p1 then holds Robots and others (set per test)."""
    deck = [
        warrior("Robo", "Robot", 10),
        *fillers(4, family="Human", prefix="H"),
        *fillers(3, family="Robot", prefix="R"),
        *fillers(2, family="Animal", prefix="A"),
        *fillers(25, prefix="X"),
        *fillers(3, family="Demon", prefix="G"),
    ]
    game = make(deck, **options)
    return deal(game, [["Robo", "H1", "H2", "H3", "H4"], ["R1", "R2", "R3", "A1", "A2"]], top="Human")


def plays(state: FightState, p: int) -> set[tuple[str, str]]:
    return {(name_of(state, m), name_of(state, b)) for m, b in pairs(state, p)}


def test_family_rule_both_warriors_differ_from_the_last_main() -> None:
    state = family_game()
    act(state, "main Robo boost H1")
    assert plays(state, 1) == {("A1", "A2"), ("A2", "A1")}
    with pytest.raises(ActionError, match="last Main Warrior played was a Robot"):
        state.parse_action(1, "main R1 boost A1")


def test_family_rule_with_one_other_family_it_must_be_played() -> None:
    deck = [
        warrior("Robo", "Robot", 10),
        *fillers(4, family="Human", prefix="H"),
        *fillers(4, family="Robot", prefix="R"),
        warrior("A1", "Animal", 5),
        *fillers(25, prefix="X"),
        *fillers(3, family="Demon", prefix="G"),
    ]
    state = deal(make(deck), [["Robo", "H1", "H2", "H3", "H4"], ["R1", "R2", "R3", "R4", "A1"]])
    act(state, "top Human", "main Robo boost H1")
    legal = plays(state, 1)
    assert len(legal) == 8 and all("A1" in pair for pair in legal)


def test_family_rule_when_you_cannot_you_may_play_the_same_family() -> None:
    deck = [
        warrior("Robo", "Robot", 10),
        *fillers(4, family="Human", prefix="H"),
        *fillers(5, family="Robot", prefix="R"),
        *fillers(25, prefix="X"),
        *fillers(3, family="Demon", prefix="G"),
    ]
    state = deal(make(deck), [["Robo", "H1", "H2", "H3", "H4"], ["R1", "R2", "R3", "R4", "R5"]])
    act(state, "top Human", "main Robo boost H1")
    assert len(plays(state, 1)) == 20


def test_family_rule_option_main_only() -> None:
    state = family_game(family_rule="main")
    act(state, "main Robo boost H1")
    legal = plays(state, 1)
    assert ("A1", "R1") in legal and all(main.startswith("A") for main, _ in legal)


def test_first_player_is_bound_by_the_previous_fight_or_free() -> None:
    deck = [
        warrior("Robo", "Robot", 10),
        *fillers(4, family="Human", prefix="H"),
        *fillers(2, family="Robot", prefix="R"),
        *fillers(3, family="Animal", prefix="A"),
        *fillers(25, prefix="X"),
        *fillers(3, family="Demon", prefix="G"),
    ]
    for option, bound in (("previous", True), ("free", False)):
        game = make(deck, family_first=option)
        state = deal(game, [["Robo", "H1", "H2", "H3", "H4"], ["R1", "R2", "A1", "A2", "A3"]], top="Human")
        act(state, "main Robo boost H1", "main A1 boost A2", "score", "score")
        rng = random.Random(3)
        while state.to_act() == (CHANCE,):
            state.apply(CHANCE, state.sample_chance(rng))
        # The card passed: p1 is the 1st player of Fight 2; the last Main Warrior was an Animal.
        assert state.first == 1 and state.to_act() == (1,)
        mains = {name_of(state, m) for m, _ in pairs(state, 1)}
        assert ("A3" not in mains) == bound, option


def test_tie_goes_to_the_player_closest_to_the_first_player() -> None:
    deck = [
        *[warrior(f"Twenty{i}", fam, 20) for i, fam in enumerate(("Human", "Animal", "Robot"))],
        *fillers(12, family="Demon", prefix="D"),
        *fillers(25, family="Alien", prefix="X"),
        *fillers(3, family="Demon", prefix="G"),
    ]
    game = make(deck, players=3)
    hands = [
        ["Twenty0", "D1", "D2", "D3", "D4"],
        ["Twenty1", "D5", "D6", "D7", "D8"],
        ["Twenty2", "D9", "D10", "D11", "D12"],
    ]
    state = deal(game, hands, arenas=("Top", "Pit"), top="Alien")
    # The 1st player ties with the others at 20 and wins.
    act(
        state,
        "main Twenty0 boost D1",
        "main Twenty1 boost D5",
        "main Twenty2 boost D9",
        "score",
        "score",
        "score",
    )
    assert [len(w) for w in state.won] == [1, 0, 0]


def test_tie_order_runs_clockwise_from_the_first_player() -> None:
    state = Fight(players=3).new_initial_state()
    state.first = 1
    state.arena_seq = [default_deck().arena_ids["grand colosseum"]]
    state.mains = [0, 1, 2]
    state.powers = [20, 10, 20]  # p0 and p2 tie; from p1 clockwise p2 comes first
    assert state.leader() == 2
    state.first = 2
    assert state.leader() == 2
    state.first = 0
    assert state.leader() == 0


def test_nobody_wins_when_every_main_warrior_is_killed() -> None:
    eater = warrior("Eater", "Robot", 3, {"do": "replace_digit", "from": 9, "to": 0})
    state = two_player(warrior("Nine", "Human", 9), warrior("Ninety", "Animal", 9), [eater])
    act(state, "main Nine boost Eater", "main Ninety boost T1", "activate")
    assert state.mains == [-1, -1] and state.leader() == -1
    act(state, "score")
    assert state.won == [[], []]
    assert last_fight(state)["winner"] is None and last_fight(state)["glory"] == 0
    assert state.glory(1) == 1  # the scored Boost still counts


def test_nobody_wins_when_no_main_warrior_meets_the_condition() -> None:
    state = two_player(warrior("Two", "Human", 2), warrior("Four", "Animal", 4), [])
    state.arena_seq[0] = state.deck.arena_ids["odd"]  # highest odd power: 2 and 4 cannot win
    act(state, "main Two boost M1", "main Four boost T1", "score", "score")
    assert state.won == [[], []]


def test_scoring_a_boost_is_one_glory_and_stays_face_down() -> None:
    state = two_player(warrior("Tiger", "Animal", 20), warrior("Bot", "Robot", 25), [])
    act(state, "main Tiger boost M1", "main Bot boost T1", "score")
    assert state.observation(1)["seats"][0]["scored"] == [{"family": "Animal"}]
    assert state.observation(0)["seats"][0]["scored"][0]["name"] == "M1"
    act(state, "score")
    assert state.glory(0) == 1 and state.glory(1) == 1 + 7  # Bot is closest to 25


def test_boost_is_hidden_until_activated() -> None:
    state = two_player(warrior("Tiger", "Animal", 20), warrior("Bot", "Robot", 25), [])
    act(state, "main Tiger boost M1")
    assert state.observation(1)["seats"][0]["boost"] == {"activated": False, "family": "Animal"}
    main = state.observation(1)["seats"][0]["main"]
    assert main is not None and main["name"] == "Tiger"
    act(state, "main Bot boost T1", "activate")
    boost = state.observation(1)["seats"][0]["boost"]
    assert boost is not None and boost["name"] == "M1"


def report_game() -> FightState:
    """Four seats: p0 steals p1's face-down Boost, p2's Boost kills its own Main, p3 scores its Boost."""
    deck = [
        warrior("Tiger", "Animal", 20),
        warrior("Broker", "Demon", 5, {"do": "steal_boost", "family": ["Human", "Demon"]}),
        *fillers(3, family="Animal", prefix="M"),
        warrior("Bot", "Robot", 12),
        warrior("Humble", "Human", 4, {"do": "add", "amount": 30, "target": "own"}),
        *fillers(3, family="Human", prefix="T"),
        warrior("Nine", "Alien", 9),
        warrior("Eater", "Robot", 3, {"do": "replace_digit", "from": 9, "to": 0}),
        *fillers(3, family="Robot", prefix="U"),
        warrior("Nineteen", "Demon", 19),
        warrior("Secret", "Human", 8),
        *fillers(3, family="Demon", prefix="V"),
        *fillers(20, prefix="X"),
        *fillers(3, family="Demon", prefix="G"),
    ]
    game = make(deck, players=4, family_rule="main")
    hands = [
        ["Tiger", "Broker", "M1", "M2", "M3"],
        ["Bot", "Humble", "T1", "T2", "T3"],
        ["Nine", "Eater", "U1", "U2", "U3"],
        ["Nineteen", "Secret", "V1", "V2", "V3"],
    ]
    state = deal(game, hands, top="Human")
    act(state, "main Tiger boost Broker", "main Bot boost Humble", "main Nine boost Eater")
    act(state, "main Nineteen boost Secret", "activate p1", "activate")
    assert state.observation(0)["last_fight"] is None  # not scored yet
    act(state, "score")  # p3, the last Boost: the Fight is scored
    return state


def test_the_views_tell_how_the_last_fight_ended() -> None:
    state = report_game()
    last = last_fight(state, 2)
    assert (last["fight"], last["arena"]["name"], last["winner"], last["glory"]) == (1, "Pit", 0, 7)
    tiger, bot, nine, nineteen = (seat["main"] for seat in last["seats"])
    assert (tiger["name"], tiger["final_power"], tiger["killed"]) == ("Tiger", 20, False)
    assert (bot["name"], bot["final_power"]) == ("Bot", 12)
    assert (nine["name"], nine["final_power"], nine["killed"]) == ("Nine", 0, True)
    assert (nineteen["name"], nineteen["final_power"]) == ("Nineteen", 10)
    broker, humble, eater, secret = (seat["boost"] for seat in last["seats"])
    assert broker["name"] == "Broker" and broker["target"] == 1 and broker["scored_by"] is None
    assert broker["effects"] == [{"kind": "stole", "seat": 1, "face_up": False}]
    assert humble == {"family": "Human", "activated": False, "scored_by": 0}  # p2 sees its back only
    assert eater["name"] == "Eater" and eater["effects"] == [
        {"kind": "power", "seat": 2, "from": 9, "to": 0},
        {"kind": "power", "seat": 3, "from": 19, "to": 10},
        {"kind": "killed", "seat": 2, "warrior": "Nine", "power": 0},
    ]
    assert secret == {"family": "Human", "activated": False, "scored_by": 3}
    text = state.observation_text(2)
    section = text[text.index("Fight 1 ended") :]
    assert "Fight 1 ended: Pit (7 Glory): Power closest to 25 wins; p0 took 7 Glory" in section
    assert "p0: Main Tiger (Animal 20), final power 20; Boost Broker (Demon 5) activated on p1" in section
    assert "took p1's Boost [Human]" in section
    assert "p1: Main Bot (Robot 12), final power 12; Boost [Human] taken by p0" in section
    assert "p2: Main Nine (Alien 9), killed at 0; Boost Eater (Robot 3) activated" in section
    assert "p2 9 -> 0; p3 19 -> 10; p2's Nine killed" in section
    assert "p3: Main Nineteen (Demon 19), final power 10; Boost [Human] scored" in section
    # The report stays through the draws and the next Fight, until that one is scored.
    rng = random.Random(1)
    while state.to_act() == (CHANCE,):
        state.apply(CHANCE, state.sample_chance(rng))
    assert state.observation(1)["stage"] == "play" and last_fight(state, 1)["fight"] == 1
    assert "Fight 1 ended" in state.observation_text(1)


def test_the_last_fight_shows_nothing_hidden() -> None:
    state = report_game()
    for viewer in range(4):
        last = last_fight(state, viewer)
        # A face-down Boost is named only to whoever knows it: p1's to its owner and the thief.
        assert ("name" in last["seats"][1]["boost"]) == (viewer in (0, 1))
        assert ("name" in last["seats"][3]["boost"]) == (viewer == 3)
        text = state.observation_text(viewer)
        section = text[text.index("Fight 1 ended") :]
        assert ("Humble" in section) == (viewer in (0, 1))
        assert ("Secret" in section) == (viewer == 3)
        hidden = [n for q in range(4) if q != viewer for n in names(state, state.hands[q])]
        assert hidden and not any(re.search(rf"\b{n}\b", text) for n in hidden), viewer
        # What a viewer sees of the report does not change when what it cannot see is redrawn.
        for seed in range(5):
            other = state.resample(viewer, random.Random(seed))
            assert other.observation(viewer) == state.observation(viewer)
            assert other.observation_text(viewer) == text
    assert "Humble" in state.render() and "Secret" in state.render()


def test_the_public_view_names_only_what_is_shown_to_everybody() -> None:
    state = report_game()
    public: Any = state.observation(PUBLIC)  # read deep, where the test knows what is there
    assert public == state.public_observation() and public["player"] == PUBLIC
    seats = public["seats"]
    # Main Warriors and activated Boosts are face up: named.
    assert [seat["main"]["name"] for seat in public["last_fight"]["seats"]] == [
        "Tiger",
        "Bot",
        "Nine",
        "Nineteen",
    ]
    assert public["last_fight"]["seats"][0]["boost"]["name"] == "Broker"
    # The stolen Boost (known to its owner and the thief) and the scored one stay face down.
    assert public["last_fight"]["seats"][1]["boost"] == {
        "family": "Human",
        "activated": False,
        "scored_by": 0,
    }
    assert seats[0]["scored"] == [{"family": "Human"}] and seats[3]["scored"] == [{"family": "Human"}]
    # The Graveyard is public; no hand shows a name.
    assert all("name" in card for card in public["graveyard"])
    assert all("name" not in card for seat in seats for card in seat["hand"])
    text = state.observation_text(PUBLIC)
    assert "(you)" not in text
    for name in ("Tiger", "Broker", "Bot", "Nine", "Nineteen"):
        assert re.search(rf"\b{name}\b", text), name
    hidden = ["Humble", "Secret", *(n for hand in state.hands for n in names(state, hand))]
    assert not any(re.search(rf"\b{n}\b", text) for n in hidden)
    # What every player may name, every player's view names too.
    for viewer in range(4):
        mine: Any = state.observation(viewer)
        assert [seat["main"] for seat in mine["last_fight"]["seats"]] == [
            seat["main"] for seat in public["last_fight"]["seats"]
        ]
        assert mine["graveyard"] == public["graveyard"]


def test_resampling_for_the_public_redraws_every_card_not_shown_to_everybody() -> None:
    state = report_game()
    public, text = state.observation(PUBLIC), state.observation_text(PUBLIC)
    redrawn = set()
    for seed in range(8):
        other = state.resample(PUBLIC, random.Random(seed))
        assert other.observation(PUBLIC) == public and other.observation_text(PUBLIC) == text
        assert names(other, other.graveyard) == names(state, state.graveyard)
        redrawn.add((tuple(names(other, other.scored[0])), tuple(names(other, other.hands[1]))))
    assert len(redrawn) > 1  # p0's stolen face-down Boost and the hands are not public


def test_hands_are_hidden_from_the_others_but_their_backs_show_the_family() -> None:
    state = Fight(players=3).new_initial_state()
    rng = random.Random(4)
    while state.to_act() == (CHANCE,):
        state.apply(CHANCE, state.sample_chance(rng))
    for p in range(3):
        obs = state.observation(p)
        for q, seat in enumerate(obs["seats"]):
            assert len(seat["hand"]) == 5
            assert all(("name" in c) == (p == q) for c in seat["hand"])
        text = state.observation_text(p)
        own = names(state, state.hands[p])
        others = [n for q in range(3) if q != p for n in names(state, state.hands[q])]
        assert all(n in text for n in own)
        assert not any(n in text for n in others)
    assert all(n in state.render() for h in state.hands for n in names(state, h))


def test_steal_a_human_or_demon_boost() -> None:
    broker = warrior("Broker", "Demon", 5, {"do": "steal_boost", "family": ["Human", "Demon"]})
    deck = [
        warrior("Main0", "Animal", 10),
        broker,
        *fillers(3, family="Animal", prefix="M"),
        warrior("Main1", "Robot", 12),
        warrior("Humble", "Human", 4, {"do": "add", "amount": 30, "target": "own"}),
        *fillers(3, family="Human", prefix="T"),
        warrior("Main2", "Alien", 14),
        warrior("Robby", "Robot", 4),
        *fillers(3, family="Robot", prefix="U"),
        *fillers(20, prefix="X"),
        *fillers(3, family="Demon", prefix="G"),
    ]
    game = make(deck, players=3)
    hands = [
        ["Main0", "Broker", "M1", "M2", "M3"],
        ["Main1", "Humble", "T1", "T2", "T3"],
        ["Main2", "Robby", "U1", "U2", "U3"],
    ]
    state = deal(game, hands, top="Human")
    act(state, "main Main0 boost Broker", "main Main1 boost Humble", "main Main2 boost Robby")
    # Only p1's Boost is a Human or a Demon: p2's Robot cannot be taken.
    assert [state.action_to_str(0, a) for a in state.legal_actions(0)] == ["activate p1", "score"]
    with pytest.raises(ActionError, match="not an opponent this ability can choose"):
        state.parse_action(0, "activate p2")
    act(state, "activate p1")
    # p1 has no Boost to resolve: p2 acts next.
    assert state.to_act() == (2,)
    assert names(state, state.scored[0]) == ["Humble"]
    # Face down: the thief and its owner know it, the third player sees its back.
    assert state.observation(0)["seats"][0]["scored"][0]["name"] == "Humble"
    assert state.observation(1)["seats"][0]["scored"][0]["name"] == "Humble"
    assert state.observation(2)["seats"][0]["scored"][0] == {"family": "Human"}


def test_draw_five_score_aliens_when_reserves_run_dry_reshuffles() -> None:
    blip = warrior("Blip", "Human", 5, {"do": "draw_score", "count": 5, "family": "Alien"})
    deck = [
        warrior("Main0", "Animal", 10),
        blip,
        *fillers(3, family="Animal", prefix="M"),
        *fillers(5, family="Robot", prefix="T"),
        *fillers(3, family="Demon", prefix="G"),
        warrior("Al1", "Alien", 3),
        warrior("Al2", "Alien", 3),
    ]
    game = make(deck)  # 15 Warriors: 2 in the Reserves after the setup
    state = deal(game, [["Main0", "Blip", "M1", "M2", "M3"], ["T1", "T2", "T3", "T4", "T5"]], top="Alien")
    act(state, "main Main0 boost Blip", "main T1 boost T2", "activate", "draw Al1", "draw Al2")
    # The Reserves are depleted: the Graveyard (G1..G3) is the new Reserves, and with
    # three Warriors or fewer it is not refilled (ruling).
    assert state.epoch == 1 and len(state.reserves) == 3 and state.graveyard == []
    act(state, "draw G1", "draw G2", "draw G3")
    # Nothing left anywhere: the last draw is lost.
    assert names(state, state.scored[0]) == ["Al1", "Al2"]
    assert names(state, state.graveyard) == ["G1", "G2", "G3"]


def test_reshuffle_refills_the_graveyard_with_three() -> None:
    deck = [
        *fillers(7, family="Animal", prefix="M"),
        *fillers(7, family="Robot", prefix="T"),
        *fillers(3, family="Demon", prefix="G"),
    ]
    game = make(deck)  # 17 Warriors: 4 Reserves after the setup
    hands = [["M1", "M2", "M3", "M4", "M5"], ["T1", "T2", "T3", "T4", "T5"]]
    state = deal(game, hands, top="Animal")
    act(state, "main M1 boost M2", "main T1 boost T2", "activate", "activate")
    # Played Warriors went to the Graveyard, after the three of the setup.
    assert names(state, state.graveyard) == ["G1", "G2", "G3", "M1", "M2", "T1", "T2"]
    act(state, "draw M6", "draw M7", "draw T6", "draw T7")
    # The last draw emptied the Reserves: at once the Graveyard became the new
    # Reserves, and three of them are drawn onto the Graveyard.
    assert state.epoch == 1 and state.graveyard == [] and len(state.reserves) == 7
    act(state, "draw G1", "draw G2", "draw G3")
    assert names(state, state.graveyard) == ["G1", "G2", "G3"]
    assert sorted(names(state, state.reserves)) == ["M1", "M2", "T1", "T2"]
    assert [len(h) for h in state.hands] == [5, 5]
    # Resampling never moves a Warrior nobody has seen into the new Reserves.
    for seed in range(10):
        other = state.resample(0, random.Random(seed))
        assert sorted(names(other, other.reserves)) == ["M1", "M2", "T1", "T2"]
        assert other.observation(0) == state.observation(0)


def test_draw_two_pass_the_first_player_card_and_play_seven_fights() -> None:
    state = Fight(players=3).new_initial_state()
    rng = random.Random(9)
    firsts = []
    fights = 0
    while not state.is_terminal():
        acting = state.to_act()
        if acting == (CHANCE,):
            state.apply(CHANCE, state.sample_chance(rng))
            continue
        if state.cursor == 0 and all(m < 0 for m in state.mains):
            firsts.append(acting[0])
            fights += 1
            assert all(len(h) == 5 for h in state.hands)  # two drawn each after every Fight
        state.apply(acting[0], state.legal_actions(acting[0]).sample(rng))
    assert fights == 7 and firsts == [0, 1, 2, 0, 1, 2, 0]
    assert sum(len(w) for w in state.won) <= 7
    assert locations(state) == Counter(range(60))


def over(state: FightState, won: list[list[int]], scored: list[int]) -> FightState:
    state.won = won
    state.scored = [list(range(10 * p, 10 * p + k)) for p, k in enumerate(scored)]
    state.queue = []
    state.stage = ST_OVER
    return state


def test_final_glory_counts_arenas_and_scored_warriors() -> None:
    deck = default_deck()
    a8 = [i for i, a in enumerate(deck.arenas) if a.glory == 8]
    a4 = [i for i, a in enumerate(deck.arenas) if a.glory == 4]
    state = over(Fight(players=3).new_initial_state(), [[a8[0]], [a4[0], a4[1]], []], [1, 2, 5])
    assert [state.glory(p) for p in range(3)] == [9, 10, 5]
    result = state.result()
    assert result is not None and result.winner == 1 and result.ranking == (2, 1, 3)


def test_tie_on_glory_goes_to_the_most_scored_warriors() -> None:
    deck = default_deck()
    a8 = [i for i, a in enumerate(deck.arenas) if a.glory == 8]
    a4 = [i for i, a in enumerate(deck.arenas) if a.glory == 4]
    state = over(Fight(players=3).new_initial_state(), [[a8[0]], [a4[0]], []], [2, 6, 1])
    result = state.result()
    assert result is not None and result.winner == 1 and "broken by 6 scored" in result.reason
    # Still tied: those players share the win.
    state = over(Fight(players=3).new_initial_state(), [[a8[0]], [a8[1]], []], [2, 2, 1])
    result = state.result()
    assert result is not None and result.winner is None and result.ranking == (1, 1, 3)
    assert math.isclose(sum(result.returns), 0.0, abs_tol=1e-12)
    assert result.returns[0] == result.returns[1] > 0 > result.returns[2]


def test_swap_and_set_and_filters() -> None:
    chameleon = warrior(
        "Chameleon", "Animal", 3, [{"do": "swap"}, {"do": "set", "amount": 0, "max_power": 5}]
    )
    state = two_player(warrior("Small", "Human", 4), warrior("Big", "Robot", 28), [chameleon])
    act(state, "main Small boost Chameleon", "main Big boost T1", "activate p1")
    # Swapped (28 and 4), then every Main Warrior of power 5 or less is set to 0: killed.
    assert state.powers[0] == 28 and state.mains[1] == -1


# --- notation -----------------------------------------------------------------------


def test_notation_examples_and_round_trips() -> None:
    state = two_player(warrior("Tiger King", "Animal", 20), warrior("Bot", "Robot", 25), [])
    action = state.parse_action(0, "  MAIN tiger king   Boost m1 ")
    assert state.action_to_str(0, action) == "main Tiger King boost M1"
    act(state, "main Tiger King boost M1", "main Bot boost T1")
    assert {state.action_to_str(0, a) for a in state.legal_actions(0)} == {"activate", "score"}
    assert state.parse_action(0, "Score") == SCORE and state.parse_action(0, "activate") == ACTIVATE
    fresh = Fight().new_initial_state()
    assert fresh.action_to_str(CHANCE, fresh.chance_outcomes()[0][0]).startswith("draw ")
    assert fresh.parse_action(CHANCE, "grizzle") == fresh.parse_action(CHANCE, "draw Grizzle")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("main", "play as 'main <Warrior> boost <Warrior>'"),
        ("score", "play as"),
        ("main Nobody boost M1", "no Warrior is called 'nobody'"),
        ("main Bot boost T1", "Bot is not in your hand"),
        ("main Tiger boost Tiger", "two different Warriors"),
        ("main Tiger", "play a Main Warrior and a Boost Warrior"),
    ],
)
def test_bad_play_texts_are_refused_and_change_nothing(text: str, message: str) -> None:
    state = two_player(warrior("Tiger", "Animal", 20), warrior("Bot", "Robot", 25), [])
    before = state.render(), [state.observation(p) for p in range(2)]
    with pytest.raises(ActionError, match=re.escape(message)) as info:
        state.apply_str(0, text)
    assert "\n" not in str(info.value)
    assert (state.render(), [state.observation(p) for p in range(2)]) == before


def test_bad_resolve_and_chance_texts() -> None:
    state = two_player(warrior("Tiger", "Animal", 20), warrior("Bot", "Robot", 25), [])
    act(state, "main Tiger boost M1", "main Bot boost T1")
    for text in ("main Tiger boost M1", "activate pX", "activate p1", "fold"):
        with pytest.raises(ActionError):
            state.apply_str(0, text)
    with pytest.raises(ActionError, match="not p1's turn"):
        state.apply_str(1, "score")
    fresh = Fight().new_initial_state()
    with pytest.raises(ActionError, match="no Warrior is called 'zorgon'"):
        fresh.apply_str(CHANCE, "draw Zorgon")


def test_every_legal_action_and_outcome_round_trips() -> None:
    rng = random.Random(8)
    for players in (2, 5):
        state = Fight(players=players).new_initial_state()
        while not state.is_terminal():
            acting = state.to_act()
            if acting == (CHANCE,):
                outcomes = state.chance_outcomes()
                assert math.isclose(sum(p for _, p in outcomes), 1.0)
                for outcome, _ in outcomes:
                    assert state.parse_action(CHANCE, state.action_to_str(CHANCE, outcome)) == outcome
                state.apply(CHANCE, state.sample_chance(rng))
            else:
                p = acting[0]
                for action in state.legal_actions(p):
                    assert state.parse_action(p, state.action_to_str(p, action)) == action
                state.apply(p, state.legal_actions(p).sample(rng))


# --- structured actions ----------------------------------------------------------------


def acts_and_outcomes(state: FightState) -> tuple[int, list[Any]]:
    """Who acts now and every action it may take: a seat's legal actions, or every chance outcome."""
    p = state.to_act()[0]
    if p == CHANCE:
        return p, [outcome for outcome, _ in state.chance_outcomes()]
    return p, list(state.legal_actions(p))


@pytest.mark.parametrize(("players", "seed", "options"), [(2, 1, {}), (3, 2, {"arenas": "all"}), (5, 3, {})])
def test_every_action_and_outcome_round_trips_through_its_structured_form(
    players: int, seed: int, options: dict[str, Any]
) -> None:
    rng = random.Random(seed)
    kinds: Counter[str] = Counter()
    for _ in range(3):
        state = Fight(players=players, **options).new_initial_state()
        while not state.is_terminal():
            p, actions = acts_and_outcomes(state)
            for action in actions:
                form = state.action_to_json(p, action)
                sent = json.loads(json.dumps(form))
                assert sent == form
                assert state.action_from_json(p, sent) == action
                # The structured form and the notation name the same action, and one Move writes both.
                assert state.parse_action(p, state.action_to_str(p, action)) == action
                assert Move.from_json(sent) == state.move(p, action)
                assert state.move(p, action).notation() == state.action_to_str(p, action)
                kinds[form["kind"] if form["kind"] != "activate" or form["target"] is None else "on"] += 1
            random_playout(state, rng, stop=1)
    assert set(kinds) == {"play", "activate", "on", "score", "draw", "top", "arena"}, kinds


def hex_state() -> FightState:
    """Both have played; p0's Boost Hex chooses an opponent (p1's Main Bot is the one)."""
    hexer = warrior("Hex", "Animal", 3, {"do": "add", "amount": -10, "target": "opponent"})
    state = two_player(warrior("Tiger", "Animal", 20), warrior("Bot", "Robot", 25), [hexer])
    act(state, "main Tiger boost Hex", "main Bot boost T1")
    assert set(state.legal_actions(0)) == {1, SCORE}
    return state


PLAY_FORMS: list[tuple[object, str]] = [
    ("main Tiger boost M1", "'main Tiger boost M1' is not a structured action"),
    ([1, 2], "is not a structured action"),
    ({"main": "Tiger", "boost": "M1"}, "None is not a kind of Fight! move (kinds: play, activate, score"),
    ({"kind": "fold"}, "'fold' is not a kind of Fight! move"),
    ({"kind": 3, "main": "Tiger", "boost": "M1"}, "3 is not a kind of Fight! move"),
    ({"kind": "play", "main": "Tiger"}, "a play move lacks the key 'boost' (its keys: kind, boost, main)"),
    ({"kind": "play", "main": "Tiger", "boost": "M1", "face": "up"}, "a play move has no key 'face'"),
    ({"kind": "play", "main": 3, "boost": "M1"}, "a play's main is a Warrior's name, not 3"),
    ({"kind": "play", "main": "Tiger", "boost": ["M1"]}, "a play's boost is a Warrior's name or null"),
    (
        {"kind": "play", "main": "tiger", "boost": "M1"},
        "no Warrior is called 'tiger' (the deck writes 'Tiger')",
    ),
    ({"kind": "play", "main": "Nobody", "boost": "M1"}, "no Warrior is called 'Nobody'"),
    ({"kind": "play", "main": "x" * 500, "boost": "M1"}, "no Warrior is called 'xxxx"),
    ({"kind": "play", "main": "Bot", "boost": "T1"}, "Bot is not in your hand"),
    ({"kind": "play", "main": "Tiger", "boost": "Tiger"}, "two different Warriors"),
    ({"kind": "play", "main": "Tiger", "boost": None}, "play a Main Warrior and a Boost Warrior"),
    ({"kind": "score"}, "a score move: play a Main and a Boost now (kind play)"),
    ({"kind": "draw", "warrior": "Tiger"}, "a draw move: play a Main and a Boost now"),
]

RESOLVE_FORMS: list[tuple[object, str]] = [
    ({"kind": "activate", "target": "p1"}, "an activate move's target is a seat number or null, not 'p1'"),
    ({"kind": "activate", "target": True}, "target is a seat number or null, not True"),
    ({"kind": "activate", "target": -1}, "target is a seat number or null, not -1"),
    ({"kind": "activate", "target": 1.0}, "target is a seat number or null, not 1.0"),
    ({"kind": "activate", "target": 7}, "there is no p7 of 2"),
    ({"kind": "activate"}, "an activate move lacks the key 'target'"),
    ({"kind": "activate", "target": None}, "this ability needs an opponent: activate pN"),
    ({"kind": "activate", "target": 0}, "p0 is not an opponent this ability can choose"),
    ({"kind": "score", "glory": 1}, "a score move has no key 'glory' (its keys: kind)"),
    ({"kind": "play", "main": "Tiger", "boost": "M1"}, "a play move: activate or score your Boost now"),
    ({"kind": "top", "family": "Animal"}, "a top move: activate or score your Boost now"),
]


@pytest.mark.parametrize(("data", "message"), PLAY_FORMS)
def test_malformed_or_illegal_play_forms_are_refused_in_one_line(data: object, message: str) -> None:
    state = two_player(warrior("Tiger", "Animal", 20), warrior("Bot", "Robot", 25), [])
    refused_form(state, 0, data, message)


@pytest.mark.parametrize(("data", "message"), RESOLVE_FORMS)
def test_malformed_or_illegal_resolve_forms_are_refused_in_one_line(data: object, message: str) -> None:
    refused_form(hex_state(), 0, data, message)


def refused_form(state: FightState, player: int, data: object, message: str) -> None:
    before = state.render(), [state.observation(p) for p in range(state.num_players)]
    with pytest.raises(ActionError) as info:
        state.action_from_json(player, data)
    assert message in str(info.value)
    assert "\n" not in str(info.value) and len(str(info.value)) < 200
    assert (state.render(), [state.observation(p) for p in range(state.num_players)]) == before


def test_structured_forms_of_chance_out_of_turn_and_of_the_right_kind() -> None:
    state = hex_state()
    assert state.action_from_json(0, {"kind": "activate", "target": 1}) == 1
    assert state.action_from_json(0, {"kind": "score"}) == SCORE
    refused_form(state, 1, {"kind": "score"}, "not p1's turn")
    refused_form(state, CHANCE, {"kind": "draw", "warrior": "X1"}, "not chance's turn")
    fresh = Fight().new_initial_state()
    assert fresh.action_from_json(CHANCE, {"kind": "draw", "warrior": "Grizzle"}) == fresh.parse_action(
        CHANCE, "draw Grizzle"
    )
    refused_form(
        fresh, CHANCE, {"kind": "top", "family": "Animal"}, "a top move: the chance event now is a draw move"
    )
    refused_form(fresh, CHANCE, {"kind": "draw", "warrior": "Zorgon"}, "no Warrior is called 'Zorgon'")
    refused_form(
        fresh, CHANCE, {"kind": "draw", "warrior": None}, "a draw's warrior is a Warrior's name, not None"
    )
    refused_form(fresh, 0, {"kind": "score"}, "not p0's turn")
    with pytest.raises(
        ActionError, match="a top's family is one of Human, Animal, Robot, Demon, Alien, not 'Elf'"
    ):
        Move.from_json({"kind": "top", "family": "Elf"})
    with pytest.raises(ActionError, match="a draw move is not a play move"):
        Play.from_json({"kind": "draw", "warrior": "Grizzle"})
    with pytest.raises(
        ActionError, match="no Arena is called 'sunset pit' \\(the deck writes 'Sunset Pit'\\)"
    ):
        NextArena("sunset pit").to_action(fresh.deck)
    assert NextArena.from_json({"kind": "arena", "arena": "Sunset Pit"}).to_action(fresh.deck) == 0
    assert Play.from_json({"kind": "play", "main": "Grizzle", "boost": None}).to_action(fresh.deck)[1] == -1


# --- one legality predicate, held to the base's and to the rule text ---------------------------


@pytest.mark.parametrize(
    ("players", "options"),
    [(2, {}), (3, {"family_rule": "main", "arenas": "current"}), (4, {"family_first": "free"}), (6, {})],
)
def test_is_legal_agrees_with_the_legal_lists_and_the_rule_text(
    players: int, options: dict[str, Any]
) -> None:
    """The game's fast is_legal answers as the base State.is_legal (list membership) does, for the
    legal actions and for plausible illegal ones; the lists are what the reference reads in the text.
    """
    game = Fight(players=players, **options)
    seen: list[Any] = [
        None,
        "score",
        (),
        (1,),
        (1, 2, 3),
        [1, 2],
        -7,
        10**6,
        (0, 0),
        (-1, -1),
        True,
        False,
        1.5,
    ]
    checked = Counter[bool]()
    for seed in range(4):
        rng = random.Random(100 * players + seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            p, actions = acts_and_outcomes(state)
            deck, queue = state.deck, state.queue
            if p == CHANCE:
                step = queue[0]
                want = (
                    ref.tops(deck, state.reserves)
                    if step == STEP_TOP
                    else ref.arenas(deck, state.arena_seq)
                    if step == STEP_ARENA
                    else ref.draws(deck, state.reserves, state.top)
                )
                assert set(actions) == want
            elif state.stage == ST_PLAY:
                main_only = game.main_rule
                assert set(actions) == ref.plays(deck, state.hands[p], state.last_family, main_only)
            tried = actions + rng.sample(seen, min(len(seen), 12))
            for q in (p, CHANCE, PUBLIC, *range(players)):
                for action in tried:
                    fast = state.is_legal(q, action)
                    assert fast == State.is_legal(state, q, action), (q, action)
                    checked[fast] += 1
            seen.extend(rng.sample(actions, min(len(actions), 3)))
            random_playout(state, rng, stop=1)
    assert checked[True] > 1000 and checked[False] > 10_000


def test_the_top_family_restricts_the_next_draw() -> None:
    checked = 0
    for seed in range(3):
        state = Fight(players=3).new_initial_state()
        rng = random.Random(seed)
        while not state.is_terminal():
            acting = state.to_act()
            if acting == (CHANCE,):
                outcomes = state.chance_outcomes()
                if state.queue[0] >= -2 and state.top >= 0:  # a draw under a known back
                    assert {state.family(c) for c, _ in outcomes if isinstance(c, int)} == {state.top}
                    checked += 1
                state.apply(CHANCE, state.sample_chance(rng))
            else:
                assert state.top >= 0 or not state.reserves  # players always see the top's back
                state.apply(acting[0], state.legal_actions(acting[0]).sample(rng))
    assert checked >= 15


# --- hidden information ----------------------------------------------------------------


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10_000), st.integers(2, 6), st.integers(0, 400))
def test_resample_keeps_what_the_player_saw(seed: int, players: int, stop: int) -> None:
    state = random_playout(Fight(players=players).new_initial_state(), random.Random(seed), stop=stop)
    assert locations(state) == Counter(range(60))
    rng = random.Random(seed + 1)
    for p in range(players):
        other = state.resample(p, rng)
        assert other.observation(p) == state.observation(p)
        assert locations(other) == Counter(range(60))
        assert other.hands[p] == state.hands[p]
        random_playout(other, rng)
        assert other.result() is not None


def backs_game() -> Fight:
    """p1 holds two Animals apart in hand (A1 at position 0, A2 at 2); p0 plays Humans."""
    deck = [
        *fillers(5, family="Human", prefix="H"),
        warrior("A1", "Animal", 5),
        warrior("R1", "Robot", 6),
        warrior("A2", "Animal", 7),
        warrior("D1", "Demon", 8),
        warrior("L1", "Alien", 9),
        *fillers(25, prefix="X"),
        *fillers(3, family="Demon", prefix="G"),
    ]
    return make(deck)


def others_views(state: FightState, owner: int) -> list[Any]:
    return [
        (state.observation(p), state.observation_text(p)) for p in range(state.game.num_players) if p != owner
    ]


def test_backs_in_hand_do_not_tell_which_card_left_the_hand() -> None:
    game = backs_game()
    views = []
    for boost in ("A1", "A2"):  # the first Animal in p1's hand, or the second
        state = deal(game, [["H1", "H2", "H3", "H4", "H5"], ["A1", "R1", "A2", "D1", "L1"]], top="Human")
        act(state, "main H1 boost H2", f"main D1 boost {boost}")
        views.append(others_views(state, 1))
        hand = state.observation(0)["seats"][1]["hand"]
        assert [c["family"] for c in hand] == ["Animal", "Robot", "Alien"]  # the families' order
    assert views[0] == views[1]


def test_hands_dealt_in_another_order_look_the_same_to_the_others() -> None:
    game = backs_game()
    p0 = ["H1", "H2", "H3", "H4", "H5"]
    one = deal(game, [p0, ["A1", "R1", "A2", "D1", "L1"]], top="Human")
    two = deal(game, [p0, ["L1", "A2", "D1", "R1", "A1"]], top="Human")
    assert others_views(one, 1) == others_views(two, 1)
    # The owner still sees its own hand as dealt.
    assert [c["name"] for c in two.observation(1)["seats"][1]["hand"]] == ["L1", "A2", "D1", "R1", "A1"]


def test_resample_redraws_the_opponents_hands() -> None:
    state = random_playout(Fight().new_initial_state(), random.Random(3), stop=40)
    rng = random.Random(0)
    hands = {tuple(state.resample(0, rng).hands[1]) for _ in range(20)}
    assert len(hands) > 1


# --- deck files ----------------------------------------------------------------------------


def test_bad_deck_fixtures_are_refused_with_one_line_naming_the_card() -> None:
    cases = {
        "fight_bad_power.toml": "warrior #2 'Overcharged': power 31 is not 1 to 30",
        "fight_bad_ability.json": "warrior #1 'Muddle': effect 'do' must be one of",
        "fight_bad_arena.toml": "arena #1 'Golden Hall': glory 9 is not 4 to 8",
    }
    for name, message in cases.items():
        with pytest.raises(OptionError) as info:
            load_game("fight", deck=(DATA / name).read_text(encoding="utf-8"))
        text = str(info.value)
        assert text.startswith("option deck: ") and message in text and "\n" not in text, text


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"family": "Elf"}, "unknown family 'Elf'"),
        ({"power": 0}, "power 0 is not 1 to 30"),
        ({"power": "ten"}, "power must be a whole number"),
        ({"name": "main man"}, "uses a word of the notation"),
        ({"name": "Twice"}, "name 'Twice' is already used by warrior #1"),
        ({"ability": []}, "ability is an empty list"),
        ({"ability": {"do": "add"}}, "needs an amount"),
        ({"ability": {"do": "add", "amount": 3, "target": "everyone"}}, "target must be one of"),
        ({"ability": {"do": "replace_digit", "from": 2, "to": 2}}, "turns 2 into itself"),
        ({"ability": {"do": "multiply_digits", "colour": "red"}}, "unknown key 'colour'"),
        ({"ability": {"do": "draw_score", "count": 5}}, "needs a count and a family"),
        ({"wings": 2}, "unknown key 'wings'"),
    ],
)
def test_bad_warriors_are_refused(change: dict[str, Any], message: str) -> None:
    good = warrior("Twice", "Human", 5)
    bad = {**warrior("Second", "Robot", 5), **change}
    with pytest.raises(OptionError, match=r"deck .*warrior #2") as info:
        parse_deck({"warrior": [good, bad], "arena": ARENAS}, "deck mine.json")
    assert message in str(info.value)


def test_bad_arenas_and_texts() -> None:
    with pytest.raises(OptionError, match="arena #1 'Pit': condition goal 'closest' needs a value"):
        parse_deck(
            {
                "warrior": [warrior("A", "Human", 5)],
                "arena": [{"name": "Pit", "glory": 5, "condition": {"goal": "closest"}}],
            },
            "x",
        )
    with pytest.raises(OptionError, match=r"^deck: not valid TOML"):
        load_deck("[[warrior]\nname = 1\n")
    with pytest.raises(OptionError, match=r"^deck: not valid JSON: Expecting"):
        load_deck('{"warrior": [}')
    with pytest.raises(OptionError, match=r"^option deck: not valid TOML"):
        load_game("fight", deck="warrior: []\n")  # YAML is neither
    with pytest.raises(OptionError, match=r"^option deck: it has 12 Warriors; 2 players need at least 13"):
        load_game("fight", deck=deck_text(fillers(12)))
    with pytest.raises(OptionError, match=r"^option deck: it has 6 Arenas; a game needs 7"):
        load_game("fight", deck=deck_text(fillers(40), ARENAS[:6]))


def test_a_deck_option_never_opens_a_file(tmp_path: Path) -> None:
    # A file's name is no deck: the game reads no file, and says where one is read.
    path = tmp_path / "mine.toml"
    path.write_text((DATA / "fight_bad_power.toml").read_text(encoding="utf-8"), encoding="utf-8")
    for name in (str(path), "/etc/passwd", "deck.json"):
        with pytest.raises(OptionError) as info:
            load_game("fight", deck=name)
        text = str(info.value)
        assert text.startswith("option deck: not valid TOML") and "\n" not in text, text
        assert "a game reads no file" in text and "tussle play fight -o deck=FILE" in text, text
        assert "Overcharged" not in text and ":0:0:" not in text, text


def test_local_commands_read_a_deck_file(tmp_path: Path) -> None:
    from test_bad_input import invoke, one_line_error
    from tussle.cli.common import load_with_options

    deck = [warrior(f"Zork{i}", FILLER_FAMILIES[i % 5], 1 + i) for i in range(20)]
    toml = tmp_path / "zork.toml"
    toml.write_text(
        "".join(
            f'[[warrior]]\nname = "{w["name"]}"\nfamily = "{w["family"]}"\npower = {w["power"]}\n'
            'ability = { do = "add", amount = 1, target = "own" }\n'
            for w in deck
        )
        + "".join(
            f'[[arena]]\nname = "{a["name"]}"\nglory = {a["glory"]}\ncondition = {{ goal = "highest" }}\n'
            for a in ARENAS
        ),
        encoding="utf-8",
    )
    js = tmp_path / "zork.json"
    js.write_text(deck_text(deck), encoding="utf-8")
    for path in (toml, js):
        game = load_with_options("fight", 2, {"deck": str(path)})
        assert isinstance(game, Fight) and game.deck.warrior("Zork7").power == 8
    bad = one_line_error(invoke("step", "fight", "-o", f"deck={DATA / 'fight_bad_power.toml'}"))
    # The file's name is said with what is wrong in it.
    assert "option deck (" in bad and "power.toml): warrior #2 'Overcharged': power 31 is not 1 to 30" in bad
    missing = one_line_error(invoke("step", "fight", "-o", f"deck={tmp_path / 'gone.toml'}"))
    assert f"option deck: cannot read {tmp_path / 'gone.toml'}: No such file or directory" in missing


def test_a_game_with_a_user_deck_replays_without_the_file(tmp_path: Path) -> None:
    from test_bad_input import invoke

    path = tmp_path / "mine.json"
    path.write_text(deck_text(fillers(40)), encoding="utf-8")
    played = invoke(
        "match",
        "fight",
        "random",
        "random",
        "-n",
        "1",
        "-o",
        f"deck={path}",
        "--record",
        str(tmp_path / "games"),
    )
    assert played.exit_code == 0, played.output
    assert "deck=(a text of" in played.stdout, played.stdout
    (record,) = (tmp_path / "games").glob("fight-*.json")
    assert json.loads(record.read_text(encoding="utf-8"))["options"]["deck"] == deck_text(fillers(40))
    path.unlink()
    replayed = invoke("replay", str(record), "--json")
    assert replayed.exit_code == 0, replayed.output
    assert json.loads(replayed.stdout)["finished"]


def test_a_user_deck_plays_and_replays() -> None:
    deck = [
        warrior(
            f"W{i}", FILLER_FAMILIES[i % 5], 1 + i % 30, {"do": "add", "amount": -7, "target": "opponent"}
        )
        for i in range(40)
    ]
    game = make(deck, players=4)
    agents = [RandomAgent(game, p, seed=p) for p in range(4)]
    state, record = play_game(game, agents, seed=1)
    assert state.is_terminal()
    replayed = Record.loads(record.dumps()).final_state()
    assert replayed.render() == state.render()


def refused(text: str, *phrases: str) -> str:
    """Building a game with the deck ``text`` fails with one line naming the option and each phrase."""
    with pytest.raises(OptionError) as info:
        load_game("fight", deck=text)
    message = str(info.value)
    assert "\n" not in message and message.startswith("option deck: "), message
    for phrase in phrases:
        assert phrase in message, message
    return message


def test_a_deck_nested_deeper_than_the_limit_is_refused() -> None:
    # Far deeper than Python's parsers follow, and within the length of a document.
    deep = 30_000
    refused(
        '{"warrior": ' + "[" * deep + "]" * deep + ', "arena": []}',
        f"nested more than {MAX_NESTING} levels deep",
    )
    refused("warrior = " + "[" * deep + "]" * deep + "\n", f"nested more than {MAX_NESTING} levels deep")
    refused(
        "warrior = " + "{a = " * 3000 + "1" + "}" * 3000 + "\n", f"nested more than {MAX_NESTING} levels deep"
    )
    # Deep enough to break the limit but not the parser: the message says where.
    family: Any = "Human"
    for _ in range(20):
        family = [family]
    nested = deck_text([warrior("A", "Human", 5, {"do": "add", "amount": 1, "family": family})])
    refused(nested, "warrior #1 ability family #1", f"nested more than {MAX_NESTING} levels deep")
    # The format's own nesting (a family list in an effect in an ability list) is well within it.
    ability = [{"do": "add", "amount": 1, "family": ["Human", "Robot"]}, {"do": "sum_digits"}]
    fine = deck_text([warrior(f"W{i}", "Human", 5, ability) for i in range(20)])
    assert load_deck(fine).warriors[0].ability[0].families == family_mask((HUMAN, ROBOT))


def test_an_ability_with_too_many_effects_is_refused() -> None:
    many = deck_text([warrior("Pump", "Human", 5, [{"do": "percent", "amount": 1000}] * 1000)])
    refused(many, "warrior #1 'Pump'", f"ability has 1000 effects; the limit is {MAX_EFFECTS} effects")
    one_over = deck_text([warrior("Pump", "Human", 5, [{"do": "sum_digits"}] * (MAX_EFFECTS + 1))])
    refused(one_over, f"ability has {MAX_EFFECTS + 1} effects")


def test_with_the_limits_no_power_reaches_the_bound() -> None:
    """The worst a deck can do: six Boosts of the most effects, each multiplying every power by 10."""
    pump = [{"do": "percent", "amount": 1000}] * MAX_EFFECTS
    families = ("Human", "Animal", "Robot", "Demon", "Alien", "Human")
    deck = [warrior(f"Main{p}", families[p], 30) for p in range(6)]
    deck += [warrior(f"Pump{p}", families[p], 1, pump) for p in range(6)]
    deck += [warrior(f"Rest{p}{i}", families[p], 1) for p in range(6) for i in range(3)]
    deck += fillers(20, prefix="X") + fillers(3, family="Demon", prefix="G")
    game = make(deck, players=6, family_first="free", family_rule="main")
    hands = [[f"Main{p}", f"Pump{p}", *(f"Rest{p}{i}" for i in range(3))] for p in range(6)]
    state = deal(game, hands, top="Human")
    # Every Main of another family than the one before: Human, Animal, Robot, Demon, Alien, Human.
    act(state, *(f"main Main{p} boost Pump{p}" for p in range(6)))
    act(state, *(["activate"] * 6))
    assert fought(state) == [30 * 10 ** (8 * 6)] * 6
    assert max(p for p in fought(state) if p is not None) < POWER_BOUND
    assert "Main0" in state.observation_text(0)


def test_a_deck_file_that_is_not_a_regular_file_is_refused_by_the_commands(tmp_path: Path) -> None:
    from tussle.cli.common import read_documents

    def unread(path: Path | str) -> str:
        with pytest.raises(OptionError) as info:
            read_documents("fight", {"deck": str(path)})
        text = str(info.value)
        assert "\n" not in text and text.startswith(f"option deck: cannot read {path}: "), text
        assert "not a regular file" in text, text
        return text

    if Path("/dev/zero").exists():
        unread("/dev/zero")
        link = tmp_path / "zero.toml"
        link.symlink_to("/dev/zero")
        unread(link)
    unread(tmp_path)  # a directory
    if not hasattr(os, "mkfifo"):
        return
    fifo = tmp_path / "fifo.toml"
    os.mkfifo(fifo)
    outcome: list[str] = []
    reader = threading.Thread(target=lambda: outcome.append(unread(fifo)), daemon=True)
    reader.start()
    reader.join(20)
    assert not reader.is_alive(), "reading a FIFO deck blocked"
    assert outcome, "reading a FIFO deck did not refuse it"


def test_a_deck_over_the_size_limit_is_refused(tmp_path: Path) -> None:
    from tussle.cli.common import read_documents

    refused("# padding\n" * (MAX_DOCUMENT_CHARS // 10 + 1), "too long", f"at most {MAX_DOCUMENT_CHARS:,}")
    big = tmp_path / "big.toml"
    big.write_text("# padding\n" * (MAX_DOCUMENT_CHARS // 10 + 1), encoding="utf-8")
    with pytest.raises(OptionError, match="too long"):
        load_game("fight", deck=read_documents("fight", {"deck": str(big)})["deck"])
    huge = tmp_path / "huge.toml"
    huge.write_text("# padding\n" * 100_000, encoding="utf-8")
    with pytest.raises(OptionError, match=r"1,000,000 bytes, more than the [\d,]+ allowed"):
        read_documents("fight", {"deck": str(huge)})
    with pytest.raises(OptionError, match=f"it has {MAX_WARRIORS + 1} Warriors; the limit is {MAX_WARRIORS}"):
        parse_deck({"warrior": fillers(MAX_WARRIORS + 1), "arena": ARENAS}, "deck many.json")


@pytest.mark.parametrize("digits", [7, 2000, 5000])
def test_numbers_of_many_digits_in_a_deck_are_refused(digits: int) -> None:
    number = "1" * digits
    toml = f'[[warrior]]\nname = "A"\nfamily = "Human"\npower = {number}\nability = {{do = "sum_digits"}}\n'
    limit = f"numbers in a deck have at most {MAX_DIGITS} digits"
    if digits < 4300:  # Python reads it: the message says where it is
        refused(toml, f"warrior #1 power: a number of {digits} digits", limit)
    else:
        refused(toml, "a number of thousands of digits", limit)
    js = deck_text([{**warrior("A", "Human", 5), "power": 0}]).replace('"power": 0', f'"power": {number}')
    refused(js, f"a number of {digits} digits", limit)
    with pytest.raises(OptionError, match="a number of thousands of digits") as info:
        parse_deck({"warrior": [{**warrior("A", "Human", 5), "power": 10**5000}], "arena": ARENAS}, "mine")
    assert len(str(info.value)) < 200


def test_long_or_broken_values_give_short_one_line_messages() -> None:
    for change in ({"family": "Elf\n" * 100_000}, {"name": "x" * 100_000}, {"text": "two\nlines"}):
        with pytest.raises(OptionError) as info:
            parse_deck({"warrior": [{**warrior("A", "Human", 5), **change}], "arena": ARENAS}, "mine")
        text = str(info.value)
        assert "\n" not in text and len(text) < 300, text[:300]
    with pytest.raises(OptionError, match=f"at most {MAX_TEXT} printable characters"):
        parse_deck({"warrior": [{**warrior("A", "Human", 5), "text": "x" * 201}], "arena": ARENAS}, "m")


def test_the_default_deck_round_trips_through_json() -> None:
    deck = default_deck()
    assert deck.warrior("Blip").text == "Draw five Warriors from the Reserves and score all Aliens"
    assert deck.warrior("Octo-Press").family == ROBOT and deck.warrior("Soul Broker").family == DEMON
    source = tomllib.loads((Path(inspect.getfile(Fight)).parent / "deck.toml").read_text(encoding="utf-8"))
    copy = load_deck(json.dumps(source))
    assert copy.warriors == deck.warriors and copy.arenas == deck.arenas


def test_an_arenas_rule_in_the_observation_reads_back_as_its_condition() -> None:
    source = tomllib.loads((Path(inspect.getfile(Fight)).parent / "deck.toml").read_text(encoding="utf-8"))
    source["arena"].append(
        {
            "name": "Odd Den",
            "glory": 5,
            "condition": {
                "goal": "lowest",
                "measure": "digit_sum",
                "parity": "odd",
                "family": ["Robot", "Alien"],
                "min_power": 3,
                "max_power": 20,
            },
        }
    )
    deck = load_deck(json.dumps(source))
    for arena in deck.arenas:
        assert parse_condition(arena.condition.to_json()) == arena.condition
    assert deck.arena("Odd Den").condition.to_json() == source["arena"][-1]["condition"]
    rule = load_game("fight").new_initial_state()
    while rule.to_act() == (CHANCE,) and rule.observation(0)["arena"] is None:
        rule.apply(CHANCE, rule.sample_chance(random.Random(1)))
    arena = rule.observation(1)["arena"]
    assert parse_condition(arena["rule"]) == default_deck().arena(arena["name"]).condition


def test_the_docs_list_the_default_deck_and_say_it_is_a_reconstruction() -> None:
    doc = (Path(__file__).resolve().parents[2] / "docs" / "games" / "fight.md").read_text(encoding="utf-8")
    assert "tussle's reconstruction" in doc
    for w in default_deck().warriors:
        assert f"| {w.name} | {FAMILIES[w.family]} | {w.power} | {w.text} |" in doc, w.name
    for a in default_deck().arenas:
        assert f"| {a.name} | {a.glory} | {a.text} |" in doc, a.name


# --- the observation array ---------------------------------------------------------------------


def same_arrays(state: FightState, players: range) -> int:
    """Check that the array written from the state is the observation's, for each of ``players``."""
    np = pytest.importorskip("numpy")
    from tussle.adapters.encoding import Features, encoding_for

    features = encoding_for(state.game).features
    for p in players:
        fast = np.zeros(features.size, dtype=np.float32)
        features.write_state(state, p, fast)
        slow = np.zeros(features.size, dtype=np.float32)
        Features.write_state(features, state, p, slow)  # the observation's dict, written
        assert np.array_equal(fast, slow), (p, np.flatnonzero(fast != slow))
    return len(players)


@pytest.mark.parametrize(
    ("players", "games", "options"),
    [
        (2, 3, {}),
        (3, 2, {"arenas": "all", "family_rule": "main"}),
        (4, 1, {"arenas": "current", "family_first": "free"}),
        (5, 1, {}),
        (6, 1, {"rounding": "up", "one_digit_switch": "pad"}),
    ],
)
def test_the_array_written_from_the_state_is_the_observations(
    players: int, games: int, options: dict[str, Any]
) -> None:
    """write_state, the adapters' shortcut, writes what the observation does: every viewer, every state."""
    game = load_game("fight", players=players, **options)
    assert isinstance(game, Fight)
    viewers = range(PUBLIC, players)  # the public, chance (seated nowhere), every seat
    states = 0
    for seed in range(games):
        rng = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            same_arrays(state, viewers)
            random_playout(state, rng, stop=1)
            states += 1
        same_arrays(state, viewers)
    assert states > 100


def test_the_array_written_from_the_state_with_a_user_deck() -> None:
    """A deck of other names in another order, most of them Demons: piles of one family past ten."""
    deck = [*fillers(30, family="Demon", prefix="D"), *fillers(15, prefix="X")]
    game = make(deck[::-1], players=3, arenas="all")
    rng = random.Random(5)
    state = game.new_initial_state()
    while not state.is_terminal():
        same_arrays(state, range(PUBLIC, 3))
        random_playout(state, rng, stop=1)
    same_arrays(state, range(PUBLIC, 3))
    # Piles bigger than any game here makes, some of their cards known to p1.
    piled = state.clone()
    demons = [c for c in range(len(deck)) if game.families[c] == DEMON]
    piled.scored[1] = demons[:14]
    piled.hands[2] = demons[14:26]
    for c in demons[:3]:
        piled.known[c] |= 1 << 1
    same_arrays(piled, range(PUBLIC, 3))


# --- the rule-of-thumb agent -------------------------------------------------------------------


def test_rule_agent_uses_only_the_player_view() -> None:
    tree = ast.parse(inspect.getsource(agent_module))
    imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert not any(m and m.startswith("tussle.games") for m in imported)


def test_rule_agent_parameters() -> None:
    game = load_game("fight")
    assert make_agent("rule:samples=2", game, 0, seed=1).samples == 2  # type: ignore[attr-defined]
    with pytest.raises(AgentError, match="samples=0 is below the minimum 1"):
        make_agent("rule:samples=0", game, 0)
    with pytest.raises(AgentError, match="unknown parameter 'depth'"):
        make_agent("rule:depth=2", game, 0)


def test_rule_agent_beats_random_with_two_players() -> None:
    games = list(run_match("fight", ["rule", "random"], 8, seed=11))
    wins = sum(1 for g in games if g.ranking[0] == 1 and g.ranking.count(1) == 1)
    assert wins >= 7


def test_rule_agent_beats_random_with_four_players() -> None:
    games = list(run_match("fight", ["rule", "random", "random", "random"], 4, seed=11))
    wins = sum(1 for g in games if g.ranking[0] == 1 and g.ranking.count(1) == 1)
    assert wins >= 3


# --- the action and chance numbers -------------------------------------------------------------


def same_numbers(encoding: Any, state: FightState) -> int:
    """Check that every chance outcome's and legal action's number is its notation's; how many checked.

    At a chance node the encoding's list of the outcomes (numbered from one table) is checked too.
    """
    codec = encoding.codec
    if state.to_act() == (CHANCE,):
        table = state.chance_outcomes()
        for outcome, _ in table:
            text = state.action_to_str(CHANCE, outcome)
            assert codec.chance_index(state, outcome) == codec.encode_chance(text), text
        by_text = sorted(
            ((codec.encode_chance(state.action_to_str(CHANCE, o)), prob, o) for o, prob in table if prob > 0),
            key=lambda item: item[0],
        )
        assert encoding.chance_outcomes(state) == by_text
        assert list(encoding.chance_pairs(state)) == [(i, p) for i, p, _ in by_text]
        return len(table)
    checked = 0
    for p in state.to_act():
        for action in state.legal_actions(p):
            text = state.action_to_str(p, action)
            assert codec.action_index(state, p, action) == codec.encode(text), (p, text)
            checked += 1
        same_legal_maps(encoding, state, p)
    return checked


def same_legal_maps(encoding: Any, state: FightState, p: int) -> None:
    """Check that the encoding's legal map (plays numbered from a table) is the general one's."""
    from tussle.adapters.encoding import GameEncoding, LegalMap

    fast = encoding.legal(state, p)
    slow = GameEncoding.legal(encoding, state, p)
    # Every choice of a play goes the short way (these decks name each Warrior once).
    assert (type(fast) is not LegalMap) == (type(state.legal_actions(p)) is Pairs)
    assert fast.indices == slow.indices
    for index in fast.indices:
        action = fast.action(state, index)
        assert action == slow.action(state, index), index
        assert fast.text(state, index) == slow.text(state, index) == state.action_to_str(p, action)
    for index in (-1, max(fast.indices, default=0) + 1, encoding.num_actions):  # no legal action's
        assert index not in fast and fast.text(state, index) is None
        with pytest.raises(ActionError):
            fast.action(state, index)


@pytest.mark.parametrize(
    ("players", "games", "options"),
    [
        (2, 300, {}),
        (3, 200, {"arenas": "all", "family_rule": "main"}),
        (4, 160, {"arenas": "current", "family_first": "free"}),
        (5, 120, {}),
    ],
)
def test_action_and_chance_numbers_are_the_notations(
    players: int, games: int, options: dict[str, Any]
) -> None:
    """The encoding's shortcuts (numbers read off the action or the card) give the numbers of the texts."""
    pytest.importorskip("numpy")
    from tussle.games.fight.encoding import FightEncoding, encoding

    game = load_game("fight", players=players, **options)
    assert isinstance(game, Fight)
    enc = encoding(game)  # a fresh encoding, not the adapters' one: nothing numbered before
    assert isinstance(enc, FightEncoding)
    kinds: Counter[str] = Counter()
    for seed in range(games):
        rng = random.Random(1000 * players + seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.to_act() == (CHANCE,):
                outcome = state.chance_outcomes()[0][0]
                kinds[state.action_to_str(CHANCE, outcome).split()[0]] += 1
            same_numbers(enc, state)
            random_playout(state, rng, stop=1)
    assert {"draw", "top", "arena"} <= set(kinds)


def test_action_and_chance_numbers_with_a_user_deck() -> None:
    """A deck of other names in another order: the numbers still are the texts'."""
    pytest.importorskip("numpy")
    from tussle.games.fight.encoding import encoding

    deck = [*fillers(30, family="Demon", prefix="D"), *fillers(15, prefix="X")]
    game = make(deck[::-1], players=3, arenas="all")
    enc = encoding(game)
    checked = 0
    for seed in range(3):
        rng = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            checked += same_numbers(enc, state)
            random_playout(state, rng, stop=1)
    assert checked > 1000
