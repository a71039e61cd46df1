"""Robo Battle Pigs in the browser: the board, the program editor and the reveal of a round.

A whole game against the computer is played by clicking only; the editor's locked damage X and
the reveal's steps are checked on views built from the rules and drawn by the game's module.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page

from test_server import Server
from tussle.game import PUBLIC
from tussle.games.robo_pigs.actions import Program
from tussle.games.robo_pigs.rules import RoboPigs
from web_support import Watched, browser, host_page, needs_chromium, new_game, screenshot, status, web  # noqa: F401

pytestmark = needs_chromium

#: The commands the clicking player writes (no backslash: a plainer selector).
CHOICES = ("^", "v", "/", "TL", "TR", "F", "F", "H")


def write_program(page: Page, rng: random.Random, count: int | None = None) -> list[str]:
    """Click empty steps, then palette commands: the whole program, or ``count`` commands."""
    written: list[str] = []
    slots = page.locator(".rp-editor .rp-slot")
    for i in range(5):
        if count is not None and len(written) == count:
            break
        slot = slots.nth(i)
        if slot.get_attribute("data-locked") is not None:
            continue
        command = rng.choice(CHOICES)
        slot.click()
        page.click(f".rp-editor .rp-cmd[data-command='{command}']")
        assert slots.nth(i).get_attribute("data-command") == command
        written.append(command)
    return written


def round_heading(page: Page) -> str:
    return page.text_content(".rp-editor h3") or ""


def play_by_clicking(
    page: Page, chromium: Browser, rng: random.Random, tmp_path: Path, sent: dict[int, Any]
) -> bool:
    """Play a game to its end through the editor; whether the README's pictures were taken on the way.

    ``sent`` gets each round's program as the page sent it (its structured form), by round.
    """
    shot_taken = False
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:
        text = status(page)
        if text.startswith("Game over"):
            break
        if text != "Your move." or not page.is_visible(".rp-editor [data-commit]"):
            page.wait_for_timeout(100)
            continue
        heading = round_heading(page)
        send = page.locator(".rp-editor [data-commit]")
        hits = page.locator(".rp-prog td.hit")
        # A damaged pig's forced X steps are locked: two written commands must leave one to write.
        free = page.locator(".rp-editor .rp-slot:not([data-locked])").count()
        if (
            not shot_taken
            and free >= 3
            and page.is_visible(".rp-reveal")
            and (hits.count() or "round 4" in heading)
        ):
            # README's picture: a step of a revealed round on the board (a hit, when there is one)
            # and the next program half written.
            page.click("[data-reveal=end]")
            fired = page.locator(".rp-prog td", has_text="F")
            shown = hits if hits.count() else fired
            if shown.count():
                step = shown.first.get_attribute("data-step")
                while page.get_attribute(".rp-caption", "data-at") != step:
                    page.click("[data-reveal=back]")
            write_program(page, rng, count=2)
            assert send.is_disabled()
            page.wait_for_timeout(600)  # the pigs slide into place
            screenshot(page, "robo-pigs", tmp_path)
            # The same seat on a phone: the board above, the editor below, nothing cut off.
            phone = chromium.new_page(viewport={"width": 390, "height": 844})
            phone.goto(page.url)
            phone.wait_for_selector(".rp-editor [data-commit]")
            phone.click("[data-reveal=end]")
            write_program(phone, random.Random(1), count=2)
            assert phone.evaluate("document.documentElement.scrollWidth") <= 390
            phone.screenshot(path=str(tmp_path / "robo-pigs-phone.png"), full_page=True)
            phone.close()
            shot_taken = True
            page.click("[data-tool=clear-all]")
        assert send.is_disabled()  # nothing written yet: nothing to send
        write_program(page, rng)
        assert send.is_enabled()
        move = json.loads(send.get_attribute("data-move") or "null")
        send.click()
        # The program is in: the editor goes (the sent program is shown) or the next round begins.
        page.wait_for_function(
            """(heading) => {
                const h = document.querySelector('.rp-editor h3');
                const over = document.querySelector('#status').textContent.startsWith('Game over');
                return !h || h.textContent !== heading || over;
            }""",
            arg=heading,
        )
        assert set(move) == {"commands"} and len(move["commands"]) == 5
        sent[int(heading.rsplit(" ", 1)[-1])] = move
    assert status(page).startswith("Game over"), status(page)
    return shot_taken


def test_a_game_against_the_computer_played_by_clicking_the_editor(
    web: Server,  # noqa: F811
    browser: Browser,  # noqa: F811
    tmp_path: Path,
) -> None:
    # The computer's seed is the server's own, so a game may end before a round worth the
    # picture comes up (with a hit, or the fourth): then another game, on a fresh page.
    for _attempt in range(3):
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        watched = Watched(page)
        new_game(page, web, "robo-pigs", options={"round_limit": "6"})
        sent: dict[int, Any] = {}
        shot_taken = play_by_clicking(page, browser, random.Random(7), tmp_path, sent)
        if shot_taken:
            break
        page.close()
    assert shot_taken
    assert watched.errors == []
    views = [json.loads(f) for f in watched.frames if f.startswith("{")]
    views = [v for v in views if v.get("type") == "view"]
    assert views and all(v.get("seat") == 0 for v in views)
    # Each program the page built and sent is the one the server played for pig A: the reveal of its
    # round shows it, and while it waited, the seat's own view held it.
    revealed = {
        v["observation"]["last_round"]["round"]: v["observation"]["last_round"]["moves"]
        for v in views
        if v["observation"]["last_round"]
    }
    assert sent and all(revealed[r][0] == move for r, move in sent.items()), (sent, revealed)
    waited = [v["observation"] for v in views if v["observation"]["my_move"]]
    assert all(obs["my_move"] == sent[obs["round"]] for obs in waited)
    # The computer's program of a round appears in no frame before that round's reveal, in neither form.
    theirs = {r: moves[1] for r, moves in revealed.items()}
    raw = [f for f in watched.frames if f.startswith("{") and json.loads(f).get("type") == "view"]
    for frame, view in zip(raw, views, strict=True):
        obs = view["observation"]
        secret = theirs.get(obs["round"])
        if secret is None:
            continue
        notation = RoboPigs().new_initial_state().action_to_str(1, Program.from_json(secret).commands)
        # The same program may be in the frame rightly: this seat's own, or one already revealed.
        known = [obs["my_move"], *(obs["last_round"] or {}).get("moves", [])]
        if secret in known or notation in {event["action"] for event in view.get("last", [])}:
            continue
        assert json.dumps(secret["commands"]) not in frame, (obs["round"], secret)
        assert json.dumps(notation) not in frame, (obs["round"], notation)
    # The end: the board and the last round stay, the editor is gone.
    assert page.locator(".rp-editor").count() == 0
    assert page.locator(".rp-reveal").count() == 1
    page.close()


def draw_view(page: Page, view: dict[str, Any]) -> None:
    """Draw ``view`` with the game's module on a page of the server; what it plays goes to window.acted."""
    page.evaluate(
        """async (view) => {
            const module = await import('/draw/robo-pigs.js');
            window.acted = [];
            const element = module.draw(view, { act: (move) => window.acted.push(move) });
            document.body.replaceChildren(element);
        }""",
        view,
    )


def a_view(obs: Mapping[str, Any], **fields: Any) -> dict[str, Any]:
    return {
        "observation": obs,
        "text": "",
        "seat": obs["player"],
        "legal": None,
        "moves": None,
        "your_turn": True,
        "previous": None,
        "result": None,
        "replay": False,
        **fields,
    }


def test_a_damaged_pigs_editor_shows_its_forced_x_locked(
    web: Server,  # noqa: F811
    browser: Browser,  # noqa: F811
) -> None:
    page = browser.new_page(viewport={"width": 390, "height": 844})
    watched = Watched(page)
    host_page(page, web)
    state = RoboPigs().state_from_position("d8S0 d1N3 5")
    legal = [state.action_to_str(1, a) for a in state.legal_actions(1)]
    moves = [state.action_to_json(1, a) for a in state.legal_actions(1)]
    assert len(legal) == 641  # few enough for the server to list them
    draw_view(page, a_view(state.observation(1), legal=legal, moves=moves))
    slots = page.locator(".rp-editor .rp-slot")
    assert slots.count() == 5
    locked = [i for i in range(5) if slots.nth(i).get_attribute("data-locked") is not None]
    assert len(locked) == 3
    for i in locked:
        assert slots.nth(i).get_attribute("data-command") == "X"
        assert "locked" in (slots.nth(i).get_attribute("aria-label") or "")
    # A locked X is not cleared and not overwritten.
    slots.nth(locked[0]).click()
    assert page.locator("[data-tool=clear]").is_disabled()
    page.keyboard.press("Delete")
    assert slots.nth(locked[0]).get_attribute("data-command") == "X"
    send = page.locator("[data-commit]")
    assert send.is_disabled()
    # The keyboard writes the free steps; the X may move, but there are always three.
    slots.nth(0).focus()
    page.keyboard.press("1")
    page.keyboard.press("f")
    page.keyboard.press("h")
    assert [slots.nth(i).get_attribute("data-command") for i in range(5)] == ["F", "H", "X", "X", "X"]
    slots.nth(2).click()
    page.click("[data-tool=left]")
    commands = [slots.nth(i).get_attribute("data-command") for i in range(5)]
    assert commands == ["F", "X", "H", "X", "X"]
    assert send.is_enabled()
    send.click()
    # What it plays is the listed move itself, which the rules read back as the program written.
    (acted,) = page.evaluate("window.acted")
    assert acted == {"commands": ["F", "X", "H", "X", "X"]} and acted in moves
    assert state.action_from_json(1, acted) == state.parse_action(1, "F X H X X")
    # Repair fills the whole program with R; clearing brings the locked X back.
    damaged = RoboPigs().state_from_position("d8S0 d1N1 5")
    draw_view(page, a_view(damaged.observation(1)))
    page.click(".rp-cmd[data-command=R]")
    assert [slots.nth(i).get_attribute("data-command") for i in range(5)] == ["R"] * 5
    assert send.is_enabled()
    # Too many programs to list (view.moves null): the page builds the structured form itself.
    send.click()
    (acted,) = page.evaluate("window.acted")
    assert acted == {"commands": ["R"] * 5} and damaged.action_from_json(1, acted) == damaged.parse_action(
        1, "RRRRR"
    )
    draw_view(page, a_view(damaged.observation(1)))
    page.click("[data-tool=clear-all]")
    assert [slots.nth(i).get_attribute("data-command") for i in range(5)] == ["", "", "", "", "X"]
    assert send.is_disabled()
    # A spectator and a replay get no editor.
    draw_view(page, a_view(state.observation(PUBLIC), seat=None, your_turn=False))
    assert page.locator(".rp-editor").count() == 0 and page.locator(".pig").count() == 2
    draw_view(page, a_view(state.observation(1), replay=True, your_turn=False))
    assert page.locator(".rp-editor").count() == 0
    assert watched.errors == []
    page.close()


def test_the_reveal_steps_through_the_round_and_can_be_replayed(
    web: Server,  # noqa: F811
    browser: Browser,  # noqa: F811
) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    watched = Watched(page)
    host_page(page, web)
    state = RoboPigs().new_initial_state()
    before = state.observation(0)
    state.apply_str(0, "F ^ TR v H")
    state.apply_str(1, "\\ \\ F ^ /")
    after = state.observation(0)
    pending = state.clone()
    pending.apply_str(0, "F F F F F")
    waiting = pending.observation(0)
    redrawn = False
    draw_view(page, a_view(after, previous=before))
    seen: list[tuple[str, str, str, int, int]] = []
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        got = page.evaluate(
            """() => [document.querySelector('.rp-caption').dataset.at,
                      document.querySelector('.pig-a').dataset.square,
                      document.querySelector('.pig-b').dataset.square,
                      document.querySelectorAll('.laser').length,
                      document.querySelectorAll('.hit-mark').length]"""
        )
        if not seen or tuple(got) != seen[-1]:
            seen.append(tuple(got))
        if got[0] == "end":
            break
        if got[0] == "2" and not redrawn:
            # A view in the middle of the reveal (the next round's program sent) goes on with it.
            draw_view(page, a_view(waiting, previous=after, your_turn=False))
            redrawn = True
            assert page.get_attribute(".rp-caption", "data-at") == "2"
            # This seat's sent program is drawn from its structured form (my_move).
            assert page.locator(".rp-sent .sym").all_text_contents() == ["F"] * 5
        page.wait_for_timeout(80)
    steps = [s[0] for s in seen]
    assert [s for i, s in enumerate(steps) if s not in steps[:i]] == ["0", "1", "2", "3", "4", "5", "end"]
    assert seen[0][1:3] == ("d8", "e1") and seen[-1][1:3] == ("e7", "d5")
    assert len({s[1:3] for s in seen}) >= 4  # the pigs move across the steps
    assert any(s[3] for s in seen) and any(s[4] for s in seen)  # a laser shot, a hit
    # A page's first view shows the end at once, and the reveal can be replayed and stepped by hand.
    draw_view(page, a_view(after))
    assert page.get_attribute(".rp-caption", "data-at") == "end"
    # The table of programs is drawn from their structured forms (last_round.moves).
    rows = [page.locator(f".rp-prog tr[data-pig={pig}] td").all_text_contents() for pig in "AB"]
    revealed = after["last_round"]
    assert revealed is not None and rows == [move["commands"] for move in revealed["moves"]]
    assert rows == [["F", "^", "TR", "v", "H"], ["\\", "\\", "F", "^", "/"]]
    page.click("[data-reveal=replay]")
    page.wait_for_function("document.querySelector('.rp-caption').dataset.at !== 'end'")
    page.click("[data-reveal=end]")
    page.click("[data-reveal=back]")
    assert page.get_attribute(".rp-caption", "data-at") == "5"
    page.click("[data-reveal=back]")
    assert page.get_attribute(".rp-caption", "data-at") == "4"
    assert "Step 4 of 5" in (page.text_content(".rp-caption") or "")
    assert watched.errors == []
    page.close()


def test_the_editor_writes_a_variants_short_program(
    web: Server,  # noqa: F811
    browser: Browser,  # noqa: F811
) -> None:
    page = browser.new_page(viewport={"width": 390, "height": 844})
    watched = Watched(page)
    host_page(page, web)
    game = RoboPigs(program_length=2, damage_limit=3)
    # Two steps, one X owed for 1 damage, three damage pips; the repair is R R.
    state = game.state_from_position("d8S0 d1N1 5")
    draw_view(page, a_view(state.observation(1)))
    slots = page.locator(".rp-editor .rp-slot")
    assert slots.count() == 2
    assert [slots.nth(i).get_attribute("data-command") for i in range(2)] == ["", "X"]
    assert page.locator("[data-pig=B] .rp-pip").count() == 3
    send = page.locator("[data-commit]")
    slots.nth(0).focus()
    page.keyboard.press("f")
    assert send.is_enabled()
    send.click()
    (acted,) = page.evaluate("window.acted")
    assert acted == {"commands": ["F", "X"]}
    assert state.action_from_json(1, acted) == state.parse_action(1, "F X")
    state = game.state_from_position("d8S0 d1N1 4")  # another round: a fresh draft
    draw_view(page, a_view(state.observation(1)))
    page.click(".rp-cmd[data-command=R]")
    send.click()
    (acted,) = page.evaluate("window.acted")
    assert acted == {"commands": ["R", "R"]}
    assert state.action_from_json(1, acted) == state.parse_action(1, "R R")
    # A pig with more damage than steps owes an X in every step: nothing is left to write.
    worn = game.state_from_position("d8S0 d1N2 5")
    draw_view(page, a_view(worn.observation(1)))
    assert [slots.nth(i).get_attribute("data-command") for i in range(2)] == ["X", "X"]
    assert send.is_enabled()
    assert watched.errors == []
    page.close()
