"""Terminal play's forgiving input and commands (issue 40): dash-less moves, Fight! cards by place or
start of name, ``?`` filters that match what they say, and at the prompt ``undo``, ``hint``, ``save``
and ``tussle play --resume``; the real-terminal ones through tmux (see test_terminal.py).
"""

from __future__ import annotations

import io
import itertools
import json
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from tussle import load_game
from tussle.agents.human import Choices, TerminalPrompt
from tussle.cli.play_session import take_back_point
from tussle.errors import ActionError
from tussle.game import CHANCE, State
from tussle.record import Record


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


# --- undo, hint, save and --resume ---------------------------------------------------------------


def _tussle(*args: str, stdin: str = "", cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tussle", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=cwd,
        env={**os.environ, "NO_COLOR": "1"},
        timeout=300,
        check=False,
    )


def test_undo_hint_and_save_make_a_record_that_replays_and_resumes(tmp_path: Path) -> None:
    typed = "e3e4\nundo\nhint\nsave s.json\nquit\n"
    done = _tussle("play", "fightopia", "-p", "human,easy", "--seed", "3", stdin=typed, cwd=tmp_path)
    assert "Taken back: your last move and what followed (2 events)." in done.stdout, done.stdout
    assert "Hint (easy): " in done.stdout
    saved = Record.load(tmp_path / "s.json")
    assert saved.hints == [1, 0]
    assert saved.takebacks == [
        {"seat": 0, "at": 2, "undone": [{"player": 0, "action": "e3-e4"}, saved.takebacks[0]["undone"][1]]}
    ]
    assert [p for p, _ in saved.events] == [CHANCE, 1]  # the game as it stands after the take-back
    assert saved.final_state().to_act() == (0,)
    again = _tussle("play", "--resume", "s.json", stdin="d3-c4\nsave\nquit\n", cwd=tmp_path)
    assert "Saved to s.json" in again.stdout, again.stdout + again.stderr
    resumed = Record.load(tmp_path / "s.json")
    assert resumed.events[:2] == saved.events and resumed.events[2] == (0, "d3-c4")
    assert resumed.hints == [1, 0] and len(resumed.takebacks) == 1
    # The replay says where the game was taken back, what was taken back, and who asked for hints.
    undone = ", ".join(e["action"] for e in saved.takebacks[0]["undone"])
    lines = _tussle("replay", "s.json", cwd=tmp_path).stdout.splitlines()
    assert "hints asked for: White (human) 1" in lines, lines[:3]
    back = lines.index(f"take-back at event 2: White (human) took back 2 events: {undone}")
    assert lines[back + 1] == "event 2: White (human): d3-c4"
    shown = json.loads(_tussle("replay", "s.json", "--json", cwd=tmp_path).stdout)
    assert shown["hints"] == [1, 0] and shown["takebacks"] == saved.takebacks


def test_undo_is_refused_between_two_people_and_before_any_move(tmp_path: Path) -> None:
    done = _tussle("play", "fightopia", "-p", "human,human", "--seed", "3", stdin="undo\nquit\n")
    assert "undo takes back a move against the computer only" in done.stdout
    done = _tussle("play", "fightopia", "-p", "human,easy", "--seed", "3", stdin="undo\nquit\n")
    assert "You have made no move to take back yet." in done.stdout


def test_resume_refuses_a_finished_game_and_a_bad_file_in_one_line(tmp_path: Path) -> None:
    finished = tmp_path / "done.json"
    _tussle("play", "fightopia", "-p", "random,random", "--seed", "1", "--record", str(finished))
    done = _tussle("play", "--resume", str(finished))
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert f"{finished}: the game is over, nothing to resume" in done.stderr
    bad = tmp_path / "bad.json"
    bad.write_text('{"game": ')
    done = _tussle("play", "--resume", str(bad))
    assert done.returncode == 2 and done.stderr.strip() == f"tussle: error: {bad}: not valid JSON: " + (
        "Expecting value at line 1 column 10"
    )
    done = _tussle("play", "fite", "--resume", str(bad))
    assert "--resume plays the record's game and seats: leave out GAME" in done.stderr


def test_a_take_back_at_a_simultaneous_step_takes_the_whole_step_back() -> None:
    record = Record(game="fite", num_players=2, players=["easy", "human"])
    state = record.initial_state()
    rng = random.Random(2)
    while len(record.events) < 12 or 1 not in state.to_act():
        acting = state.to_act()
        player = acting[0]
        action = (
            state.sample_chance(rng) if acting == (CHANCE,) else rng.choice(list(state.legal_actions(player)))
        )
        record.add(player, state.action_to_str(player, action))
        state.apply(player, action)
    at = take_back_point(record, 1)
    assert at is not None and record.events[at][0] in (0, 1)
    before = list(itertools.islice(record.walk(), at + 1))[-1]
    assert 1 in before.to_act() and 0 in before.to_act()  # both choose again


# --- in a real terminal (tmux) -------------------------------------------------------------------

from test_terminal import Start, terminal  # noqa: E402  (the tmux fixture, in its own file)

__all__ = ["terminal"]


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
def test_tab_completes_undo_takes_back_hint_and_save_resume_in_a_terminal(
    terminal: Start, tmp_path: Path
) -> None:
    t = terminal("play", "fightopia", "-p", "human,easy", "--seed", "3")
    t.wait_for("White, your action")
    t.keys("-l", "e3")
    t.keys("Tab")
    t.type("e4")  # Tab put in the dash: e3- and then e4
    t.wait_for("White, your action (? for help): e3-e4")
    t.wait_for("Black (easy): ")
    t.type("undo")
    t.wait_for("Taken back: your last move and what followed")
    t.type("hint")
    t.wait_for("Hint (easy): ")
    t.type("save game.json")
    t.wait_for("Saved to game.json; tussle play --resume game.json goes on from here.")
    t.type("quit")
    t.wait_for("game abandoned")
    assert Record.load(tmp_path / "game.json").hints == [1, 0]
    t = terminal("play", "--resume", "game.json")
    t.wait_for("White, your action")
    t.type("d3c4")  # without its dash
    t.wait_for("Black (easy): ")
    t.type("quit")
    t.wait_for("game abandoned")


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
def test_tab_completes_fight_card_names_after_main_and_boost(terminal: Start) -> None:
    t = terminal("play", "fight", "--seed", "2")
    t.wait_for("p0, your action")
    t.keys("-l", "main exo")  # any case: the line becomes the legal plays' spelling
    t.keys("Tab")
    t.keys("-l", "pl")
    t.keys("Tab")
    t.type("")
    t.wait_for("p0, your action (? for help): main Exorcist Bram boost Plague Lord")
    t.type("quit")
    t.wait_for("game abandoned")
