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
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, FloatRect, Page
from websockets.sync.client import connect

from test_server import Server, free_port
from web_support import CHROMIUM, Watched, accept, invitation, needs_chromium, new_game, screenshot

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
    clip: FloatRect = {"x": 0, "y": top - 8, "width": 1000, "height": bottom - top + 16}
    page.screenshot(path=str(shot), full_page=True, clip=clip)
    folder = os.environ.get("TUSSLE_SCREENSHOTS")
    if folder:
        shutil.copy(shot, Path(folder) / "chat.png")


def log_lines(page: Page) -> list[str]:
    return page.locator("#chat-log li .chat-text").all_text_contents()


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


class Tab:
    """A page in a Chromium of its own, driven over the DevTools protocol without Playwright.

    Playwright keeps every page it drives visible (it emulates focus), whatever is in front of
    it; a tab driven directly is hidden for real when another tab of its window comes to the
    front, as when a player switches tabs, and visible again when it is brought back.
    """

    def __init__(self, folder: Path) -> None:
        assert CHROMIUM is not None
        port = free_port()
        self.process = subprocess.Popen(
            [
                CHROMIUM,
                "--headless",
                "--no-sandbox",
                "--no-first-run",
                f"--remote-debugging-port={port}",
                f"--user-data-dir={folder}",
                "about:blank",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/version", timeout=1) as answer:
                    address = json.loads(answer.read())["webSocketDebuggerUrl"]
                break
            except (OSError, ValueError):
                assert time.monotonic() < deadline, "Chromium did not start"
                time.sleep(0.1)
        self.socket = connect(address, max_size=None, open_timeout=10, legacy=True)
        self.calls = 0
        pages = self.call("Target.getTargets")["targetInfos"]
        self.target = next(t["targetId"] for t in pages if t["type"] == "page")
        self.session = self.call("Target.attachToTarget", {"targetId": self.target, "flatten": True})[
            "sessionId"
        ]
        self.cover: str | None = None

    def call(self, method: str, params: dict[str, Any] | None = None, page: bool = False) -> dict[str, Any]:
        self.calls += 1
        message: dict[str, Any] = {"id": self.calls, "method": method, "params": params or {}}
        if page:
            message["sessionId"] = self.session
        self.socket.send(json.dumps(message))
        while True:
            answer = json.loads(self.socket.recv(timeout=30))
            if answer.get("id") == self.calls:  # events in between are not needed
                assert "error" not in answer, answer
                result: dict[str, Any] = answer["result"]
                return result

    def eval(self, expression: str) -> Any:
        done = self.call(
            "Runtime.evaluate",
            {"expression": expression, "returnByValue": True, "awaitPromise": True},
            page=True,
        )
        assert "exceptionDetails" not in done, done
        return done["result"].get("value")

    def wait(self, expression: str, limit_s: float = 30) -> None:
        deadline = time.monotonic() + limit_s
        while not self.eval(expression):
            assert time.monotonic() < deadline, f"never true: {expression}"
            time.sleep(0.05)

    def goto(self, url: str) -> None:
        self.call("Page.navigate", {"url": url}, page=True)
        self.wait("document.readyState === 'complete' && location.href !== 'about:blank'")

    def away(self) -> None:
        """Another tab comes to the front of this one's window."""
        made = self.call(
            "Target.createTarget", {"url": "about:blank", "newWindow": False, "background": False}
        )
        self.cover = made["targetId"]
        self.wait("document.visibilityState === 'hidden'")

    def back(self) -> None:
        self.call("Target.activateTarget", {"targetId": self.target})
        if self.cover is not None:
            self.call("Target.closeTarget", {"targetId": self.cover})
        self.wait("document.visibilityState === 'visible'")

    def close(self) -> None:
        self.socket.close()
        self.process.terminate()
        self.process.wait(10)


def test_the_title_shows_a_move_to_make_and_unseen_messages_and_a_notification_is_shown(
    web: Server, browser: Browser, tmp_path: Path
) -> None:
    host = browser.new_page()
    new_game(host, web, "fightopia", opponent="friend")
    friend = Tab(tmp_path / "friend")
    try:
        friend.call("Browser.grantPermissions", {"permissions": ["notifications"], "origin": web.url})
        friend.goto(invitation(host))
        # The invitation asks for the name to play under (unless this browser keeps one).
        friend.wait("document.querySelector('#name-form') || !location.hash.startsWith('#invite=')")
        friend.eval(
            "const form = document.querySelector('#name-form');"
            "if (form) { document.querySelector('#invite-name').value = 'Bea'; form.requestSubmit(); }"
        )
        friend.wait("location.hash.length > 1 && !location.hash.startsWith('#invite=')")
        friend.wait(
            "document.querySelector('#status').textContent.startsWith('Your move') || "
            "document.querySelector('#status').textContent.startsWith('Waiting for')"
        )
        host.wait_for_function(
            "!/^Waiting for your friend/.test(document.querySelector('#status').textContent)"
        )
        if friend.eval("document.querySelector('#status').textContent") == "Your move.":
            friend.eval(
                "document.querySelector('#action').value ="
                " document.querySelector('#legal-list option').value;"
                "document.querySelector('#act').requestSubmit()"
            )
        host.wait_for_function("document.querySelector('#status').textContent === 'Your move.'")
        assert host.title().startswith(SIGN + "Your move")
        friend.wait(f"!document.title.startsWith({json.dumps(SIGN)})")
        # The friend turns notifications on (the permission is granted to this site), and looks away.
        friend.eval("document.querySelector('#notify-on').click()")
        friend.wait("document.querySelector('#notify-on').checked")
        assert friend.eval("Notification.permission") == "granted"
        friend.away()
        host.fill("#action", host.eval_on_selector("#legal-list option", "o => o.value"))
        host.press("#action", "Enter")
        friend.wait(f"document.title.startsWith({json.dumps(SIGN + 'Your move')})")
        friend.wait("document.documentElement.dataset.notifications === '1'")
        host.wait_for_function(f"!document.title.startsWith({json.dumps(SIGN)})")
        # A message while the tab is hidden: counted in the title, and notified.
        say(host, "your turn!")
        friend.wait("document.title.includes('1 new message')")
        friend.wait("document.documentElement.dataset.notifications === '2'")
        # Seen: the count goes; the move to make stays until it is made.
        friend.back()
        friend.wait("!document.title.includes('new message')")
        assert friend.eval("document.title").startswith(SIGN + "Your move")
        # Looked at, a message makes no notification and no unread count.
        say(host, "still there?")
        friend.wait("document.querySelectorAll('#chat-log li').length === 2")
        assert "new message" not in friend.eval("document.title")
        assert friend.eval("document.documentElement.dataset.notifications") == "2"
        # Notifications turned off: none, hidden or not.
        friend.eval("document.querySelector('#notify-on').click()")
        friend.away()
        say(host, "anyone?")
        friend.wait("document.title.includes('1 new message')")
        assert friend.eval("document.documentElement.dataset.notifications") == "2"
    finally:
        friend.close()
        host.close()
