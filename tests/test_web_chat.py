"""The game page's chat and its signs, in Chromium between two browsers (a host and a friend).

A message typed in one browser arrives in the other, as text whatever it holds; muting (the whole
chat, or one opponent) is kept in the browser; the tab's title shows a sign when it becomes the
player's move or a message arrives unseen; sound and browser notifications are the player's to
turn on, and a notification is shown (by the browser's own Notification API, its permission
granted to the page) only while the tab is hidden.
"""

from __future__ import annotations

import json
import os
import shutil
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page

from test_server import Server
from web_support import Watched, accept, invitation, needs_chromium, new_game, screenshot, status

pytestmark = needs_chromium

SIGN = "\u25cf "


@pytest.fixture
def pair(web: Server, browser: Browser) -> Iterator[tuple[Page, Page, Watched]]:
    """A friend game of Fightopia: the host's page, the friend's (whose frames are watched)."""
    host = browser.new_page()
    new_game(host, web, "fightopia", opponent="friend")
    friend_context: BrowserContext = browser.new_context()
    friend_context.grant_permissions(["notifications"], origin=web.url)
    friend = friend_context.new_page()
    watched = Watched(friend)
    accept(friend, invitation(host))
    for page in (host, friend):
        page.wait_for_selector("#chat:not([hidden])")
        page.wait_for_function(
            "!/^Waiting for your friend/.test(document.querySelector('#status').textContent)"
        )
    yield host, friend, watched
    friend_context.close()
    host.close()


def say(page: Page, text: str) -> None:
    page.fill("#chat-text", text)
    page.press("#chat-text", "Enter")


def arrived(watched: Watched, text: str) -> None:
    """Wait until the page's WebSocket has received a chat message holding ``text``."""
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        for frame in list(watched.frames):
            message = json.loads(frame)
            if message.get("type") == "chat" and any(m["text"] == text for m in message["messages"]):
                return
        watched.page.wait_for_timeout(50)
    raise AssertionError(f"{text!r} never arrived")


def chat_box(page: Page, tmp_path: Path) -> None:
    """A picture of the chat and its toggles alone (docs/web.md shows it), into $TUSSLE_SCREENSHOTS."""
    shot = tmp_path / "chat.png"
    top, bottom = page.evaluate(
        """() => [document.querySelector("#alerts").getBoundingClientRect().top + scrollY,
                  document.querySelector("#chat").getBoundingClientRect().bottom + scrollY]"""
    )
    clip = {"x": 0, "y": top - 8, "width": 1000, "height": bottom - top + 16}
    page.screenshot(path=str(shot), full_page=True, clip=clip)
    folder = os.environ.get("TUSSLE_SCREENSHOTS")
    if folder:
        shutil.copy(shot, Path(folder) / "chat.png")


def log_lines(page: Page) -> list[str]:
    return page.locator("#chat-log li .chat-text").all_text_contents()


def hide(page: Page) -> None:
    """The tab goes into the background, as far as the page can tell.

    Chromium driven by Playwright reports every page visible whatever is in front (a second
    page, a minimized window, a background tab: all tried), so the document's own property is
    set as the browser would set it, and the same event is fired.
    """
    page.evaluate(
        """() => {
            Object.defineProperty(document, "visibilityState", {configurable: true, get: () => "hidden"});
            document.dispatchEvent(new Event("visibilitychange"));
        }"""
    )


def show(page: Page) -> None:
    page.evaluate(
        """() => {
            delete document.visibilityState;
            document.dispatchEvent(new Event("visibilitychange"));
        }"""
    )


def test_a_message_arrives_in_the_other_browser_as_text_and_each_room_is_its_own(
    web: Server, browser: Browser, pair: tuple[Page, Page, Watched], tmp_path: Path
) -> None:
    host, friend, watched = pair
    payload = '<img src=x onerror="window.pwned = 1"><b>bold</b>'
    say(host, payload)
    friend.wait_for_function("document.querySelectorAll('#chat-log li').length === 1")
    assert log_lines(friend) == [payload]  # shown as typed
    assert friend.locator("#chat-log img, #chat-log b").count() == 0  # ... and made no element
    assert friend.evaluate("window.pwned") is None
    assert "(you)" in (host.text_content("#chat-log li .chat-who") or "")
    say(friend, "hello back")
    host.wait_for_function("document.querySelectorAll('#chat-log li').length === 2")
    assert log_lines(host) == [payload, "hello back"]
    # What the friend's page was sent of the chat: only what people typed, with who and when.
    chats = [json.loads(f) for f in watched.frames if json.loads(f).get("type") == "chat"]
    assert chats and all(
        set(line) == {"id", "seat", "name", "at", "text"} for c in chats for line in c["messages"]
    )
    # A spectator sees the spectators' room, not the players' messages.
    spectator = browser.new_page()
    spectator.goto(host.url.split("#")[0])
    spectator.wait_for_selector("#chat:not([hidden])")
    assert spectator.text_content("#chat-title") == "Spectators' chat"
    say(spectator, "nice game")
    spectator.wait_for_function("document.querySelectorAll('#chat-log li').length === 1")
    assert log_lines(spectator) == ["nice game"]
    # A page reloaded gets the room's messages again.
    friend.reload()
    friend.wait_for_function("document.querySelectorAll('#chat-log li').length === 2")
    assert log_lines(friend) == [payload, "hello back"]
    screenshot(host, "chat-page", tmp_path)
    host.set_viewport_size({"width": 390, "height": 844})
    screenshot(host, "chat-phone", tmp_path)
    host.set_viewport_size({"width": 1000, "height": 800})
    chat_box(host, tmp_path)
    spectator.close()
    assert not watched.errors


def test_mute_an_opponent_or_the_whole_chat_and_it_stays_muted_in_this_browser(
    pair: tuple[Page, Page, Watched],
) -> None:
    host, friend, watched = pair
    say(host, "first")
    friend.wait_for_function("document.querySelectorAll('#chat-log li').length === 1")
    friend.click("#sound-on")  # sound on: one sound to hear it (counted by sound.js)
    friend.wait_for_function("document.documentElement.dataset.soundsPlayed === '1'")
    say(host, "second")
    arrived(watched, "second")
    friend.wait_for_function("document.documentElement.dataset.soundsPlayed === '2'")  # a message's sound
    # One opponent muted: their lines leave the log, and what they send next makes no sound.
    friend.click("[data-mute-seat='0']")
    assert log_lines(friend) == []
    say(host, "third")
    arrived(watched, "third")
    assert log_lines(friend) == [] and friend.evaluate("document.documentElement.dataset.soundsPlayed") == "2"
    friend.reload()  # kept in this browser
    friend.wait_for_selector("#chat:not([hidden])")
    friend.wait_for_selector("[data-mute-seat='0'][aria-pressed=true]")
    assert log_lines(friend) == []
    friend.click("[data-mute-seat='0']")
    assert log_lines(friend) == ["first", "second", "third"]
    # The whole chat muted: hidden, and silent.
    friend.check("#chat-mute")
    assert friend.is_hidden("#chat-log") and friend.is_hidden("#chat-text")
    say(host, "fourth")
    arrived(watched, "fourth")
    assert friend.evaluate("document.documentElement.dataset.soundsPlayed") in (None, "0")  # a new page
    friend.reload()
    friend.wait_for_selector("#chat:not([hidden])")
    assert friend.is_checked("#chat-mute") and friend.is_hidden("#chat-log")
    friend.uncheck("#chat-mute")
    friend.wait_for_function("document.querySelectorAll('#chat-log li').length === 4")


def test_the_title_shows_a_move_to_make_and_unseen_messages_and_a_notification_is_shown(
    pair: tuple[Page, Page, Watched],
) -> None:
    host, friend, _ = pair
    pages = {"host": host, "friend": friend}
    mover_name = next(name for name, page in pages.items() if status(page) == "Your move.")
    mover = pages[mover_name]
    waiter = friend if mover is host else host
    assert mover.title().startswith(SIGN + "Your move")
    assert not waiter.title().startswith(SIGN)
    # The waiter turns notifications on (the permission is granted to this site), and looks away.
    waiter.click("#notify-on")
    waiter.wait_for_function("document.querySelector('#notify-on').checked")
    assert waiter.evaluate("Notification.permission") == "granted"
    hide(waiter)
    mover.fill("#action", mover.eval_on_selector("#legal-list option", "o => o.value"))
    mover.press("#action", "Enter")
    waiter.wait_for_function(f"document.title.startsWith({json.dumps(SIGN + 'Your move')})")
    waiter.wait_for_function("document.documentElement.dataset.notifications === '1'")
    mover.wait_for_function(f"!document.title.startsWith({json.dumps(SIGN)})")
    # A message while the tab is hidden: counted in the title, and notified.
    say(mover, "your turn!")
    waiter.wait_for_function("document.title.includes('1 new message')")
    waiter.wait_for_function("document.documentElement.dataset.notifications === '2'")
    # Seen: the count goes; the move to make stays until it is made.
    show(waiter)
    waiter.wait_for_function("!document.title.includes('new message')")
    assert waiter.title().startswith(SIGN + "Your move")
    # Visible, a message makes no notification and no unread count.
    say(mover, "still there?")
    waiter.wait_for_function("document.querySelectorAll('#chat-log li').length === 2")
    assert "new message" not in waiter.title()
    assert waiter.evaluate("document.documentElement.dataset.notifications") == "2"
