"""The terminal's colours (tussle.colours and each game's ``style`` hook): the text stays the same, the
sides and the last move are marked, and no colour tells a seat anything its view does not."""

from __future__ import annotations

import io
import random
from typing import Any

import pytest
from rich.console import Console

from tussle import CHANCE, PUBLIC, Information, State, game_ids, game_info, load_game, simulation_options
from tussle.colours import THEME, colour_console, spans, styled, wanted


def states(game_id: str, seed: int, count: int = 40) -> list[State[Any]]:
    """The states of one random game (the first ``count`` events), chance included."""
    game = load_game(game_id, **simulation_options(game_id, {}))
    rng = random.Random(seed)
    state = game.new_initial_state()
    seen = [state.clone()]
    while not state.is_terminal() and len(seen) < count:
        for player in state.to_act():
            if player == CHANCE:
                state.apply(player, state.sample_chance(rng))
            else:
                state.apply(player, state.legal_actions(player).sample(rng))
        seen.append(state.clone())
    return seen


@pytest.mark.parametrize("game_id", game_ids())
def test_every_game_colours_its_sides_and_leaves_its_text_as_it_was(game_id: str) -> None:
    names: set[str] = set()
    for state in states(game_id, 1):
        for viewer in (*range(state.game.num_players), PUBLIC):
            text = state.observation_text(viewer)
            view = styled(state.game, text, state.observation(viewer), viewer)
            assert view.plain == text
            names |= {name for _, _, name in spans(state.game, text, state.observation(viewer), viewer)}
    assert {"side0", "side1"} <= names, f"{game_id} marks no sides: {names}"
    assert names <= set(THEME)


HIDDEN = [g for g in game_ids() if game_info(g).information == Information.IMPERFECT]


@pytest.mark.parametrize("game_id", HIDDEN)
def test_no_colour_tells_a_seat_what_its_view_hides(game_id: str) -> None:
    # A state and another drawn from what one seat knows (the other seats' hands, programs,
    # dice redrawn) look alike to that seat: the same text, and the same colours on it.
    rng = random.Random(2)
    for state in states(game_id, 3):
        for seat in range(state.game.num_players):
            other = state.resample(seat, rng)
            ours = state.observation_text(seat)
            theirs = other.observation_text(seat)
            assert ours == theirs
            assert spans(state.game, ours, state.observation(seat), seat) == spans(
                other.game, theirs, other.observation(seat), seat
            )


def test_fight_dims_the_cards_seen_from_their_backs_and_names_none() -> None:
    state = next(s for s in states("fight", 5) if s.to_act() and s.to_act()[0] != CHANCE)
    text = state.observation_text(0)
    marks = spans(state.game, text, state.observation(0), 0)
    backs = [text[a:b] for a, b, name in marks if name == "hidden"]
    assert backs and all(b.startswith("[") and b.endswith("]") for b in backs)
    hand = [c["name"] for c in state.observation(PUBLIC)["seats"][1]["hand"] if "name" in c]
    assert not hand  # the public view names none of p1's cards: nothing for a colour to mark


def test_tank_chess_marks_the_last_moves_squares() -> None:
    game = load_game("tank-chess")
    state = game.new_initial_state()
    move = state.legal_actions(0)[0]
    state.apply(0, move)
    last = state.observation(1)["last_move"]
    text = state.observation_text(1)
    marked = [text[a:b] for a, b, name in spans(game, text, state.observation(1), 1) if name == "last"]
    assert len(marked) == (1 if last["to"] == last["from"] else 2)
    assert any(cell[0] == last["type"] for cell in marked)  # the tank where it went, White's capital


def test_colour_only_on_a_colour_terminal_without_no_color(monkeypatch: pytest.MonkeyPatch) -> None:
    pipe = Console(file=io.StringIO())
    assert not wanted(pipe, None)
    assert wanted(pipe, True) and not wanted(pipe, False)
    tty = Console(file=io.StringIO(), force_terminal=True, color_system="standard")
    monkeypatch.delenv("NO_COLOR", raising=False)
    assert wanted(tty, None)
    monkeypatch.setenv("NO_COLOR", "1")
    assert not wanted(tty, None)
    # --color writes colour into a pipe too.
    out = io.StringIO()
    forced = colour_console(Console(file=out))
    state = load_game("fightopia").new_initial_state()
    forced.print(styled(state.game, state.observation_text(0), state.observation(0), 0))
    assert "\x1b[" in out.getvalue()
