"""The game's story on the game page, in a real Chromium: the list of plain-words lines that grows as a game
is played (what each player did, as the rules let this seat know it), looking back at an earlier line
and coming back, numbers past 99, and the invitation box above the board with its copy button.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page

from test_server import Server, play_out
from web_support import Watched, accept, invitation, needs_chromium, screenshot

pytestmark = needs_chromium


def story_lines(page: Page) -> list[str]:
    return [str(t) for t in page.eval_on_selector_all("#moves li", "items => items.map(i => i.innerText)")]


def wait_lines(page: Page, count: int) -> list[str]:
    page.wait_for_function(f"document.querySelectorAll('#moves li').length >= {count}")
    return story_lines(page)


def stories(frames: list[str]) -> list[dict[str, Any]]:
    """Every story entry the page received over its WebSocket."""
    out = []
    for frame in frames:
        message = json.loads(frame) if frame.startswith("{") else {}
        if message.get("type") == "view":
            out.extend(message["story"])
    return out


def type_action(page: Page, action: str) -> None:
    page.wait_for_selector("#move:not([hidden])")
    page.fill("#action", action)
    page.press("#action", "Enter")


def test_the_story_grows_in_plain_words_and_a_line_looks_back_and_comes_back(
    web: Server, browser: Browser, tmp_path: Path
) -> None:
    host_context = browser.new_context(viewport={"width": 1000, "height": 900})
    host_context.grant_permissions(["clipboard-read", "clipboard-write"], origin=web.url)
    host = host_context.new_page()
    watched_host = Watched(host)
    host.goto(web.url + "/")
    host.select_option("#game", "fite")
    host.check("input[value=friend]")
    host.click("button[type=submit]")
    host.wait_for_url("**/play/**")
    link = invitation(host)
    # While the friend has not come: the invitation sits above the board, and no move can be made.
    share = host.locator("#share").bounding_box()
    board = host.locator("#board").bounding_box()
    assert share is not None and board is not None and share["y"] + share["height"] <= board["y"]
    assert share["y"] < 300, share  # at the top, in view without scrolling
    assert host.is_hidden("#move") and host.locator("#legal button").count() == 0
    assert "Waiting" in (host.text_content("#status") or "")
    host.click("#invites button:has-text('Copy')")
    host.wait_for_function("navigator.clipboard.readText().then(t => t.includes('#invite='))")
    assert host.evaluate("navigator.clipboard.readText()") == link
    # The editor still does not show after a while: the server sends nobody to act.
    host.wait_for_timeout(500)
    assert host.is_hidden("#move")

    friend_context = browser.new_context(viewport={"width": 1000, "height": 900})
    friend = friend_context.new_page()
    watched_friend = Watched(friend)
    accept(friend, link)
    host.wait_for_selector("#share", state="hidden")

    # Each places a die at once; the host's choice stays off the friend's story until the friend chooses.
    type_action(host, "off 1")
    assert wait_lines(host, 1)[0].startswith("1.")
    assert "chose off 1" in story_lines(host)[0]
    friend.wait_for_function("document.querySelectorAll('#moves li').length >= 1")
    first = story_lines(friend)[0]
    assert "fighter A) chose where to place a die" in first and "off 1" not in first
    assert all("off 1" not in " ".join(e["lines"]) for e in stories(watched_friend.frames))
    type_action(friend, "tac 5")
    for page in (host, friend):
        lines = wait_lines(page, 2)
        assert lines[1].startswith("2.") and "both choices revealed:" in lines[1]
        assert "(fighter A): off 1" in lines[1] and "(fighter B): tac 5" in lines[1]

    # The first turn's placement, then both split: the story grows by plain-words lines (the rolls
    # follow by themselves).
    type_action(host, "off 2")
    type_action(friend, "tac 6")
    wait_lines(host, 4)
    type_action(host, "4/5")
    type_action(friend, "5/4")
    lines = wait_lines(host, 10)
    assert "rolled A off" in lines[6] and lines[9].startswith("10.")
    present = host.text_content("#board-text")

    # Look back at the first line: the board shows what the host saw then, and says so.
    host.click("#moves li:nth-child(1) button")
    host.wait_for_selector("#story-bar:not([hidden])")
    assert "Looking back at move" in (host.text_content("#story-at") or "")
    assert host.is_hidden("#story-new")
    past = host.text_content("#board-text")
    assert past != present
    assert host.locator("#moves li.current").count() == 1
    screenshot(host, "story-look-back", tmp_path)
    # A move made meanwhile does not pull the host away: the bar says there is a new move.
    # (The friend stands at the tactical location: a tactical option is theirs to choose alone.)
    friend.wait_for_function("document.querySelector('#status').textContent.startsWith('Your move')")
    events_before = len(story_lines(host))
    friend.evaluate("document.querySelector('#all-legal').open = true")
    friend.click("#legal button >> nth=0")
    host.wait_for_function(f"document.querySelectorAll('#moves li').length > {events_before}")
    host.wait_for_selector("#story-new:not([hidden])")
    assert host.is_visible("#story-bar") and host.text_content("#board-text") == past
    # Back to the game: the present is drawn again.
    host.click("#story-back")
    host.wait_for_selector("#story-bar", state="hidden")
    assert host.text_content("#board-text") != past
    assert host.locator("#moves li.current").count() == 0
    # With the keyboard: Enter on a line looks back, Escape comes back.
    now = host.text_content("#board-text")
    host.focus("#moves li:nth-child(2) button")
    host.keyboard.press("Enter")
    host.wait_for_selector("#story-bar:not([hidden])")
    assert host.text_content("#board-text") != now
    host.keyboard.press("Escape")
    host.wait_for_selector("#story-bar", state="hidden")
    assert host.text_content("#board-text") == now
    assert not watched_host.errors and not watched_friend.errors
    host_context.close()
    friend_context.close()


def test_a_spectator_reads_the_whole_story_numbered_past_99_and_looks_back(
    web: Server, browser: Browser, tmp_path: Path
) -> None:
    status, made = web.post(
        "/api/games", {"game": "fightopia", "options": {"ply_limit": 130}, "seats": [{"kind": "person"}] * 2}
    )
    assert status == 201, made
    tokens = {s["seat"]: s["token"] for s in made["seats"]}
    seen = play_out(web, made["id"], tokens, seed=9, stop_after=106)
    events = seen[0][-1]["events"]
    assert events > 105
    page = browser.new_page(viewport={"width": 390, "height": 800})
    watched = Watched(page)
    page.goto(f"{web.url}/play/{made['id']}")
    lines = wait_lines(page, events)
    assert len(lines) == events
    assert [line.split(".", 1)[0] for line in lines] == [str(n) for n in range(1, events + 1)]
    assert " played " in lines[100]
    # Every number shows whole: nothing of "101." is cut off, even on a phone.
    clipped = page.eval_on_selector_all(
        "#moves .story-number", "spans => spans.filter(s => s.scrollWidth > s.clientWidth).length"
    )
    assert clipped == 0
    number = page.locator("#moves li:nth-child(101) .story-number")
    assert number.inner_text() == "101." and (number.bounding_box() or {"x": -1})["x"] >= 0
    page.click("#moves li:nth-child(101) button")
    page.wait_for_selector("#story-bar:not([hidden])")
    assert (page.text_content("#story-at") or "").startswith("Looking back at move 10")
    screenshot(page, "story-phone", tmp_path)
    page.click("#story-back")
    page.wait_for_selector("#story-bar", state="hidden")
    assert not watched.errors
    page.close()
