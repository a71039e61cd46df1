"""Hands and eyes on the game page (issue 36, item 7), in Chromium and over a WebSocket.

The keyboard stays on the board after a move, arrow keys move between what may be pointed at and
Enter or Space plays it; a secret choice may be held for confirming; a computer seat that thinks
is said to, with a running count of seconds (the views say who thinks and for how long); and a
390-pixel phone plays every game with targets of at least 32 px, Tank Chess 20x20 on a board that
scrolls and with a compass of facings that stays on the screen.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Locator, Page, ViewportSize

from test_server import Server, receive
from web_support import Watched, needs_chromium, new_game, status

GAMES = ["fightopia", "tank-chess", "robo-pigs", "fite", "fight"]
PHONE: ViewportSize = {"width": 390, "height": 844}
#: What a person may tap on a board: the things to point at, and any button or field it holds.
CLICKABLE = "#board .pick, #board .target, #board button, #board [role=button], #board input, #board select"


def views(watched: Watched) -> list[dict[str, Any]]:
    frames = [json.loads(f) for f in watched.frames if f.startswith("{")]
    return [f for f in frames if f.get("type") == "view"]


def sent_actions(sent: list[str]) -> list[dict[str, Any]]:
    messages = [json.loads(f) for f in sent if f.startswith("{")]
    return [m for m in messages if m.get("type") == "action"]


def watch_sent(page: Page) -> list[str]:
    """Every frame the page sends over its WebSockets, as it sends it."""
    sent: list[str] = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda data: sent.append(str(data))))
    return sent


def wait_for_views(watched: Watched, count: int, limit_s: float = 60) -> None:
    """Wait until the page has received more than ``count`` views."""
    deadline = time.monotonic() + limit_s
    while len(views(watched)) <= count:
        assert time.monotonic() < deadline, "no new view came"
        watched.page.wait_for_timeout(50)


def your_move(page: Page, limit_s: float = 60) -> None:
    page.wait_for_function(
        "document.querySelector('#status').textContent === 'Your move.'", timeout=limit_s * 1000
    )


def new_tank_chess(page: Page, web: Server, size: str, level: str = "easy") -> None:
    """A Tank Chess game against the computer from the home page, its board size chosen (a select)."""
    page.goto(web.url + "/")
    page.select_option("#game", "tank-chess")
    page.click("#options-box summary")
    page.select_option("#option-size", size)
    page.check("input[value=computer]")
    page.select_option("#level", level)
    page.click("button[type=submit]")
    page.wait_for_url("**/play/**")
    page.wait_for_selector("#status:not(:empty)")


def focus_in_board(page: Page) -> bool:
    return bool(page.evaluate("!!document.activeElement && !!document.activeElement.closest('#board')"))


def focused_centre(page: Page) -> tuple[float, float]:
    box = page.evaluate(
        "(() => { const r = document.activeElement.getBoundingClientRect();"
        " return [r.left + r.width / 2, r.top + r.height / 2]; })()"
    )
    return float(box[0]), float(box[1])


pytestmark = needs_chromium


# --- the views say who thinks -------------------------------------------------------------------


def test_a_view_names_the_computer_seat_to_act_and_how_long_it_has_thought(web: Server) -> None:
    made = web.post(
        "/api/games",
        {"game": "tank-chess", "seats": [{"kind": "person"}, {"kind": "computer", "agent": "hard"}]},
    )[1]
    ws = web.seat(made["id"], made["seats"][0]["token"])
    try:
        first = receive(ws)
        while first.get("type") != "view":
            first = receive(ws)
        assert first["your_turn"] and first["thinking"] == []
        ws.send(json.dumps({"type": "action", "action": first["legal"]["actions"][0]}))
        after = receive(ws)
        while after.get("type") != "view" or after["events"] == first["events"]:
            after = receive(ws)
        # Made the moment the move was played, before the computer's worker starts: 0 s so far.
        assert after["to_act"] == [1]
        assert after["thinking"] == [{"seat": 1, "seconds": 0.0}]
        # A spectator who comes while it thinks is told how long it has thought already.
        time.sleep(1.2)
        spectator = web.seat(made["id"], None)
        try:
            public = receive(spectator)
            while public.get("type") != "view":
                public = receive(spectator)
            assert "legal" not in public
            if public["to_act"] == [1]:
                assert [t["seat"] for t in public["thinking"]] == [1]
                assert public["thinking"][0]["seconds"] >= 1.0
            else:  # it had answered already: nobody thinks on the seat's turn
                assert public["thinking"] == []
        finally:
            spectator.close()
        answer = receive(ws)
        while answer.get("type") != "view" or answer["to_act"] != [0]:
            answer = receive(ws)
        assert answer["thinking"] == []
    finally:
        ws.close()


# --- the keyboard -------------------------------------------------------------------------------


def test_the_focus_stays_on_the_board_after_a_move_and_arrow_keys_move_between_targets(
    web: Server, browser: Browser
) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    watched = Watched(page)
    sent = watch_sent(page)
    new_game(page, web, "fightopia")
    your_move(page)
    page.wait_for_selector("#board .pick")
    # One tab stop for the whole board: Tab reaches one of its pieces, the others have tabindex -1.
    for _ in range(60):
        if focus_in_board(page):
            break
        page.keyboard.press("Tab")
    assert focus_in_board(page), "Tab never reaches the board"
    stops = page.eval_on_selector_all("#board .pick, #board .target", "es => es.map(e => e.tabIndex)")
    assert sorted(stops)[-1] == 0 and stops.count(0) == 1 and len(stops) > 1
    # The arrows move between pieces by where they are on the screen.
    start = focused_centre(page)
    first = page.evaluate("document.activeElement.getAttribute('aria-label')")
    page.keyboard.press("ArrowRight")
    moved = focused_centre(page)
    assert focus_in_board(page) and moved[0] > start[0]
    assert page.evaluate("document.activeElement.tabIndex") == 0  # the tab stop follows
    page.keyboard.press("ArrowLeft")
    assert page.evaluate("document.activeElement.getAttribute('aria-label')") == first
    # Enter picks the piece, its targets come, and the arrows walk them; Space plays one.
    page.keyboard.press("Enter")
    page.wait_for_function("document.activeElement && document.activeElement.matches('#board .target')")
    target = page.evaluate("document.activeElement.getAttribute('aria-label')")
    for key in ["ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight"]:
        page.keyboard.press(key)
        if page.evaluate("document.activeElement.getAttribute('aria-label')") != target:
            break
    assert page.evaluate("document.activeElement.matches('#board .target')")
    before = len(views(watched))
    page.keyboard.press("Space")
    if page.locator(".menu").count():  # a landing shared by several moves: the menu's first
        page.keyboard.press("Enter")
    wait_for_views(watched, before)
    assert len(sent_actions(sent)) == 1
    # The board is drawn again (and again after the computer's answer): the keyboard is still on it.
    your_move(page)
    page.wait_for_selector("#board .pick")
    assert focus_in_board(page), page.evaluate("document.activeElement && document.activeElement.outerHTML")
    assert page.evaluate("document.activeElement !== document.body")
    # From there the arrows lead to a piece and Enter plays on, with no Tab from the page's start.
    if not page.evaluate("document.activeElement.matches('#board .pick')"):
        page.keyboard.press("ArrowDown")
    assert page.evaluate("document.activeElement.matches('#board .pick')")
    page.keyboard.press("Enter")
    page.wait_for_function("document.activeElement && document.activeElement.matches('#board .target')")
    before = len(views(watched))
    page.keyboard.press("Enter")
    if page.locator(".menu").count():
        page.keyboard.press("Enter")
    wait_for_views(watched, before)
    assert len(sent_actions(sent)) == 2
    assert not watched.errors, watched.errors
    page.close()


def test_a_tank_turns_by_the_compass_with_the_arrow_keys(web: Server, browser: Browser) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    watched = Watched(page)
    sent = watch_sent(page)
    new_tank_chess(page, web, "16")
    your_move(page)
    page.locator("#board .pick[data-square=c1]").focus()
    page.keyboard.press("Enter")
    page.locator("#board .target[data-square=c1]").focus()
    page.keyboard.press("Enter")
    page.wait_for_selector(".menu.tc-compass")

    def facing() -> str:
        return str(
            page.evaluate("JSON.parse(document.activeElement.dataset.action || 'null')?.facing ?? null")
        )

    # The Heavy on c1 faces N: its first choice is NE, the compass's top right; arrows go as drawn.
    assert facing() == "NE"
    page.keyboard.press("ArrowDown")
    assert facing() == "E"
    page.keyboard.press("ArrowLeft")
    assert page.evaluate("document.activeElement.textContent") == "cancel"
    page.keyboard.press("ArrowLeft")
    assert facing() == "W"
    page.keyboard.press("ArrowUp")
    assert facing() == "NW"
    # Escape closes it and the keyboard is back on the square; Enter opens it again, and plays.
    page.keyboard.press("Escape")
    assert page.locator(".menu").count() == 0
    assert page.evaluate("document.activeElement.dataset.square") == "c1"
    page.keyboard.press("Enter")
    page.wait_for_selector(".menu.tc-compass")
    page.keyboard.press("ArrowLeft")
    assert facing() == "NW"
    before = len(views(watched))
    page.keyboard.press("Enter")
    wait_for_views(watched, before)
    actions = sent_actions(sent)
    assert len(actions) == 1 and actions[0]["move"]["facing"] == "NW" and actions[0]["move"]["to"] == "c1"
    assert not watched.errors, watched.errors
    page.close()


# --- confirming a secret choice -------------------------------------------------------------------


def test_a_secret_choice_is_held_until_confirmed_when_the_player_asks_for_that(
    web: Server, browser: Browser
) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    watched = Watched(page)
    sent = watch_sent(page)
    new_game(page, web, "fite")
    your_move(page)
    toggle = page.locator("#confirm-secret")
    assert toggle.is_visible() and not toggle.is_checked()  # off until the player turns it on
    toggle.check()
    page.wait_for_selector("#board .target")
    label = page.get_attribute("#board .target >> nth=0", "aria-label") or ""
    page.click("#board .target >> nth=0")
    box = page.locator("#confirm-choice")
    box.wait_for()
    assert (page.text_content("#confirm-text") or "").startswith("You chose ")
    assert page.evaluate("document.activeElement.id") == "confirm-send"
    page.wait_for_timeout(300)
    assert sent_actions(sent) == [] and status(page) == "Your move."  # nothing has left the browser
    # Change drops it: still nothing sent, and the board may be pointed at again.
    page.click("#confirm-change")
    assert box.is_hidden()
    page.wait_for_timeout(300)
    assert sent_actions(sent) == []
    before = len(views(watched))
    page.click(f'#board .target[aria-label="{label}"]')
    box.wait_for()
    page.click("#confirm-send")
    wait_for_views(watched, before)
    assert len(sent_actions(sent)) == 1 and box.is_hidden()
    # The setting is this browser's: a reload keeps it, and typed notation is never held.
    page.reload()
    page.wait_for_selector("#status:not(:empty)")
    assert page.locator("#confirm-secret").is_checked()
    # Once the game is over there is nothing more to confirm: the toggle goes.
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#end-game")
    page.wait_for_function("document.querySelector('#status').textContent.startsWith('Game over')")
    assert page.locator("#confirm-toggle").is_hidden()
    # A game without secrets has nothing to confirm: no toggle, and a pointed move goes at once.
    new_game(page, web, "fightopia")
    your_move(page)
    assert page.locator("#confirm-toggle").is_hidden()
    page.click("#board .pick >> nth=0")
    before = len(views(watched))
    page.click("#board .target >> nth=0")
    if page.locator(".menu button[data-action]").count():
        page.click(".menu button[data-action] >> nth=0")
    wait_for_views(watched, before)
    assert page.locator("#confirm-choice").is_hidden()
    assert not watched.errors, watched.errors
    page.close()


# --- the computer thinking ----------------------------------------------------------------------------


def test_the_page_counts_the_seconds_a_computer_seat_thinks(web: Server, browser: Browser) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.clock.install()
    watched = Watched(page)
    new_tank_chess(page, web, "16", level="hard")
    your_move(page)
    assert page.locator("#thinking").is_hidden()
    page.click("#board .pick >> nth=0")
    before = len(views(watched))
    page.click("#board .target >> nth=0")
    if page.locator(".menu button[data-action]").count():
        page.click(".menu button[data-action] >> nth=0")
    wait_for_views(watched, before)
    thinking = page.locator("#thinking")
    thinking.wait_for()
    line = thinking.text_content() or ""
    assert re.fullmatch(r".*hard.* is thinking… \d+ s", line), line
    shown = len(views(watched))
    page.clock.fast_forward(3000)
    if len(views(watched)) == shown:  # still thinking: the count went on by this page's clock
        seconds = int(re.findall(r"\d+", thinking.text_content() or "")[-1])
        assert seconds >= 3
    # Its move comes: the line goes.
    your_move(page, limit_s=90)
    assert page.locator("#thinking").is_hidden()
    assert not watched.errors, watched.errors
    page.close()


# --- a phone --------------------------------------------------------------------------------------


def phone_screenshot(page: Page, name: str, tmp_path: Path) -> None:
    """What the phone's screen shows (a page-long picture would not show where a fixed box sits)."""
    shot = tmp_path / f"{name}.png"
    page.screenshot(path=str(shot))
    assert shot.stat().st_size > 10_000
    folder = os.environ.get("TUSSLE_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        shutil.copy(shot, Path(folder) / f"{name}.png")


def check_targets(page: Page, game: str) -> int:
    """Every clickable thing on the board: at least 32x32 px, and inside the screen once scrolled to.

    Measured in one go in the page, each scrolled to in turn, so that no new view redraws the board
    between scrolling to a thing and measuring it.
    """
    boxes: list[dict[str, Any]] = page.evaluate(
        """(selector) => [...document.querySelectorAll(selector)]
          .filter((e) => e.getClientRects().length > 0 && getComputedStyle(e).visibility !== "hidden")
          .map((e) => {
            e.scrollIntoView({ block: "center", inline: "center" });
            const r = e.getBoundingClientRect();
            const label = e.getAttribute("aria-label") || e.textContent;
            return { label, x: r.left, y: r.top, width: r.width, height: r.height };
          })""",
        CLICKABLE,
    )
    assert boxes, f"{game}: nothing to tap"
    for box in boxes:
        what = f"{game}: {box['label']!r} at {box}"
        assert box["width"] >= 32 and box["height"] >= 32, what
        assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], what
        assert box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"], what
    return len(boxes)


def tap_a_move(page: Page, game: str, sent: list[str]) -> None:
    """Play one move by tapping alone, the way the game asks for it."""
    if game == "robo-pigs":
        slots = page.locator(".rp-editor .rp-slot")
        for i in range(slots.count()):
            if slots.nth(i).get_attribute("data-locked") is None:
                slots.nth(i).tap()
                page.locator(".rp-editor .rp-cmd[data-command=TL]").tap()
        page.locator(".rp-editor .rp-send").tap()
        return
    for _ in range(4):
        menu: Locator = page.locator(".menu button[data-action]")
        if menu.count():
            menu.first.tap()
        elif page.locator("#board .target").count():
            page.locator("#board .target").first.tap()
        else:
            page.locator("#board .pick").first.tap()
        if sent_actions(sent):
            return


@pytest.mark.parametrize("game", GAMES)
def test_a_390_pixel_phone_plays_every_game_with_targets_of_32_px(
    web: Server, browser: Browser, game: str, tmp_path: Path
) -> None:
    page = browser.new_page(viewport=PHONE, has_touch=True, is_mobile=True)
    watched = Watched(page)
    sent = watch_sent(page)
    if game == "tank-chess":
        new_tank_chess(page, web, "20")
    else:
        new_game(page, web, game)
    your_move(page)
    page.wait_for_selector(CLICKABLE)
    check_targets(page, game)
    # The page itself never scrolls sideways (a big board scrolls inside its own box).
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    if game == "tank-chess":
        assert page.locator("#board svg.tank-chess[data-size='20']").count() == 1
        # A tank turning where it stands: the facings come as a compass, all of it on the screen.
        tank = page.locator("#board .pick").first
        square = tank.get_attribute("data-square")
        tank.tap()
        page.locator(f"#board .target[data-square={square}]").tap()
        compass = page.locator(".menu.tc-compass")
        compass.wait_for()
        box = compass.bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
        assert box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"]
        buttons = compass.locator("button")
        for i in range(buttons.count()):
            b = buttons.nth(i).bounding_box()
            assert b and b["width"] >= 32 and b["height"] >= 32
        phone_screenshot(page, "tank-chess-20-phone", tmp_path)
        before = len(views(watched))
        compass.locator("button[data-action]").first.tap()
    else:
        before = len(views(watched))
        tap_a_move(page, game, sent)
    wait_for_views(watched, before)
    assert len(sent_actions(sent)) == 1, f"{game}: no move made by tapping"
    assert not page.text_content("#error"), page.text_content("#error")
    assert not watched.errors, watched.errors
    page.close()
