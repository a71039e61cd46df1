"""The browser client of ``tussle serve``, in a real Chromium driven by Playwright.

Debian's Chromium is used (Playwright cannot download its own here): the one
found on the path, or the one ``TUSSLE_CHROMIUM`` names. `.ci/run` installs it,
so CI always runs these tests; without one they are skipped with the reason said.
"""

from __future__ import annotations

import json
import os
import shutil
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser

from test_server import Server

CHROMIUM = os.environ.get("TUSSLE_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no Chromium found (apt-get install chromium)")


@pytest.fixture(scope="module")
def web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    server = Server(f"sqlite:///{tmp_path_factory.mktemp('web') / 'web.db'}")
    yield server
    server.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield chromium
        chromium.close()


def test_a_game_against_the_computer_made_and_played_to_its_end_by_clicking(
    web: Server, browser: Browser, tmp_path: Path
) -> None:
    page = browser.new_page()
    frames: list[str] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append(str(payload))))
    page.goto(web.url + "/")
    page.select_option("#game", "fite")
    page.check("input[value=computer]")
    page.select_option("#level", "easy")
    page.click("button[type=submit]")
    page.wait_for_url("**/play/**")
    # A deadline, not a count of polls: the computer's first move waits for its worker
    # process to start, which takes seconds on a loaded machine.
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        page.wait_for_selector("#status:not(:empty)")
        if (page.text_content("#status") or "").startswith("Game over"):
            break
        if page.is_visible("#legal button"):
            page.click("#legal button >> nth=0")
        page.wait_for_timeout(50)
    assert (page.text_content("#status") or "").startswith("Game over")
    # What the page got over its WebSocket were views of seat 0 only: never the computer's observation.
    views = [json.loads(f) for f in frames if f.startswith("{")]
    assert views and all(v.get("seat") == 0 for v in views if v["type"] == "view")
    shot = tmp_path / "fite.png"
    page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 10_000
    page.close()


def test_the_home_page_lists_the_lobby_and_a_friend_joins_by_the_invite_link(
    web: Server, browser: Browser
) -> None:
    host = browser.new_page()
    host.goto(web.url + "/")
    host.select_option("#game", "fightopia")
    host.check("input[value=friend]")
    host.click("button[type=submit]")
    host.wait_for_url("**/play/**")
    host.wait_for_selector("#invite")
    invite = host.input_value("#invite")
    assert "?join=" in invite
    friend = browser.new_page()
    friend.goto(invite)
    friend.wait_for_url("**/play/**")
    host.wait_for_function(
        "document.querySelector('#status').textContent !== 'Waiting for a player to take the open seat.'"
    )
    # Neither page's address nor DOM holds the other's token.
    host_token, friend_token = host.url.split("#")[1], friend.url.split("#")[1]
    assert host_token != friend_token
    assert friend_token not in host.content() and host_token not in friend.content()
    host.close()
    friend.close()


def test_the_replay_page_steps_a_finished_game_forward_and_back_with_the_keyboard(
    web: Server, browser: Browser
) -> None:
    from test_server import play_out

    created = web.post(
        "/api/games", {"game": "fightopia", "options": {"ply_limit": 20}, "seats": [{"kind": "person"}] * 2}
    )[1]
    play_out(web, created["id"], {s["seat"]: s["token"] for s in created["seats"]}, seed=1)
    assert web.get(f"/api/games/{created['id']}/replay")[0] == 200
    page = browser.new_page()
    page.goto(f"{web.url}/replay/{created['id']}")
    page.wait_for_selector("#where:not(:empty)")
    start = page.text_content("#board")
    assert page.text_content("#where") == "step 0 of 21" and page.text_content("#event") == "The start."
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert page.text_content("#where") == "step 2 of 21" and page.text_content("#board") != start
    page.keyboard.press("End")
    assert page.text_content("#where") == "step 21 of 21" and "ply limit" in (
        page.text_content("#result") or ""
    )
    page.keyboard.press("Home")
    assert page.text_content("#board") == start
    page.close()
    unfinished = web.post("/api/games", {"game": "fite", "seats": [{"kind": "person"}] * 2})[1]
    assert web.get(f"/api/games/{unfinished['id']}/replay")[0] == 400  # its boards would show secrets
