"""Terminal play's forgiving input and commands (issue 40): dash-less moves, Fight! cards by place or
start of name, ``?`` filters that match what they say, and at the prompt ``undo``, ``hint``, ``save``
and ``tussle play --resume``; the real-terminal ones through tmux (see test_terminal.py).
"""

from __future__ import annotations

import io
import random
from typing import Any

import pytest
from rich.console import Console

from tussle import load_game
from tussle.agents.human import Choices, TerminalPrompt
from tussle.errors import ActionError
from tussle.game import CHANCE, State


def _started(game_id: str, seed: int = 1) -> State[Any]:
    state = load_game(game_id).new_initial_state()
    rng = random.Random(seed)
    while state.is_chance():
        state.apply(CHANCE, state.sample_chance(rng))
    return state


def _read(state: State[Any], text: str) -> str:
    player = state.to_act()[0]
    return state.action_to_str(player, state.parse_action(player, text))


@pytest.mark.parametrize(
    ("game_id", "typed", "canonical"),
    [
        ("fightopia", "e3e4", "e3-e4"),
        ("fightopia", "E3 E4", "e3-e4"),
        ("fightopia", "Ta1a2a3a4", "Ta1a2-a3a4"),
        ("tank-chess", "c1c2N", "Hc1-c2N"),
        ("tank-chess", "hc1c2n", "Hc1-c2N"),
    ],
)
def test_a_move_without_its_dash_reads_as_with_it(game_id: str, typed: str, canonical: str) -> None:
    state = _started(game_id)
    assert _read(state, typed) == canonical


def test_a_dashless_text_that_splits_no_way_is_still_refused() -> None:
    with pytest.raises(ActionError, match="not a Fightopia action"):
        _read(_started("fightopia"), "e3e4e5")


def _fight_hand(state: State[Any]) -> list[str]:
    return [state.deck.warriors[c].name for c in state.hands[0]]  # type: ignore[attr-defined]


def test_fight_names_a_card_of_the_hand_by_its_place_or_the_start_of_its_name() -> None:
    state = _started("fight")
    hand = _fight_hand(state)
    assert _read(state, "main 1 boost 3") == f"main {hand[0]} boost {hand[2]}"
    assert _read(state, f"main {hand[1][:4]} boost {hand[0][:3]}") == f"main {hand[1]} boost {hand[0]}"
    with pytest.raises(ActionError, match=f"your hand holds Warriors 1 to {len(hand)}, not 9"):
        _read(state, "main 9 boost 1")


def test_fight_refuses_a_start_that_fits_two_cards_and_names_them() -> None:
    for seed in range(200):
        state = _started("fight", seed)
        hand = _fight_hand(state)
        firsts = [name[0] for name in hand]
        twice = next((f for f in firsts if firsts.count(f) == 2), None)
        if twice is not None:
            break
    else:
        pytest.skip("no hand with two cards of one initial")
    both = [name for name in hand if name[0] == twice]
    with pytest.raises(ActionError, match=f"could be {both[0]} or {both[1]}; type more of the name"):
        _read(state, f"main {twice} boost 1")


def _matching(names: list[str], query: str) -> str:
    out = io.StringIO()
    prompt = TerminalPrompt(Console(file=out, width=100), io.StringIO(), "p", random.Random(0))
    prompt.list_matching(Choices.of_names(names, len(names), "", "x"), query)
    return out.getvalue()


def test_a_capital_filter_lists_that_piece_only() -> None:
    state = _started("fightopia")
    player = state.to_act()[0]
    names = [state.action_to_str(player, a) for a in state.legal_actions(player)]
    assert any(n.startswith("g") for n in names)  # Pawns on the g file, which ? G used to list
    shown = _matching(names, "G")
    assert "g1-g2" not in shown and "No legal action mentions 'G'" in shown
    assert "Gd1-d2" in _matching(["Gd1-d2", "g2-g3"], "G") and "g2-g3" not in _matching(["Gd1-d2"], "G")
    assert "g2-g3" in _matching(["Gd1-d2", "g2-g3"], "g")
    # A longer word is looked for in any case.
    assert "tac 5" in _matching(["tac 5", "pass"], "TAC")
