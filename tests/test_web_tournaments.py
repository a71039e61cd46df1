"""Tournaments in Chromium (docs/web.md, "Tournaments"): a person signs up, makes a FITE single
elimination on the tournaments page with two computer entrants, registers with a power, starts it
once two people-bots have registered, plays its games from "Play your game" until it is out or the
champion, and the page shows the bracket live to its champion; a Swiss of 6 shows its standings."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page

from test_server import Server
from test_server_tournaments import PeopleBot, bot, call
from web_support import Watched, needs_chromium, screenshot, status

pytestmark = needs_chromium


@pytest.fixture(scope="module")
def web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """The server, its log in a file: the people-bots' requests would fill a pipe nobody reads."""
    folder = tmp_path_factory.mktemp("web-tournaments")
    server = Server(
        f"sqlite:///{folder / 'web.db'}", "--limit", "requests_per_second=200", log=folder / "server.log"
    )
    yield server
    server.stop()


def sign_up(page: Page, web: Server, name: str) -> None:
    """A person's account, signed in in this page's browser (the session cookie is the context's)."""
    answer = page.request.post(
        web.url + "/api/account/signup",
        data={"name": name, "email": f"{name.lower()}@example.org", "password": "a long enough secret"},
    )
    assert answer.status == 201, answer.text()


def play_my_game(page: Page) -> None:
    """From the tournament page: open the game, play the first legal move until every player has
    moved, then resign (a person who would rather watch), and come back to the tournament."""
    back = page.url
    page.click("#play-your-game")
    page.wait_for_url("**/play/**")
    page.click("#all-legal summary")
    deadline = time.monotonic() + 60
    while not status(page).startswith("Game over"):
        assert time.monotonic() < deadline, status(page)
        if page.text_content("#end-game") == "Resign" and page.is_visible("#end-game"):
            page.click("#end-game")
        elif status(page) == "Your move." and page.locator("#legal button").count():
            page.locator("#legal button").first.click()
        page.wait_for_timeout(150)
    page.goto(back)


def test_a_fite_tournament_made_and_played_in_the_browser_and_a_swiss_of_six(
    web: Server, browser: Browser, tmp_path: Path
) -> None:
    page = browser.new_page(viewport={"width": 1100, "height": 800})
    watched = Watched(page)
    page.on("dialog", lambda dialog: dialog.accept())
    page.goto(web.url + "/tournaments")
    page.wait_for_selector("#make-signin:visible")
    sign_up(page, web, "Zed")
    page.reload()
    page.wait_for_selector("#make:visible")
    page.fill("#t-name", "The Grand Tournament")
    page.select_option("#t-game", "fite")
    page.select_option("#t-kind", "elimination")
    page.fill("#t-minutes", "2")
    page.fill("#t-increment", "1")
    for power in ("brutal", "none"):
        page.click("#t-add-computer")
        page.locator(".c-level").last.select_option("random")
        page.locator(".c-power").last.select_option(power)
    page.click("#t-submit")
    page.wait_for_url("**/tournaments/*")
    tid = page.url.rsplit("/", 1)[1]
    page.wait_for_selector("#register")
    page.select_option("#power", "cunning")
    page.click("#register")
    page.wait_for_selector("#withdraw")
    tokens = [bot(web, name, exact=True) for name in ("Kid", "Lou")]
    for token in tokens:
        assert call(web, "POST", f"/api/tournaments/{tid}/join", None, token)[0] == 200
    page.wait_for_function("document.querySelectorAll('#entrants li').length === 5")
    assert "BOT" in (page.text_content("#entrants") or "")
    page.click("#start")
    page.wait_for_selector("#bracket-section:visible")
    bots = [PeopleBot(web, tid, token, i) for i, token in enumerate(tokens)]
    for b in bots:
        b.start()
    deadline = time.monotonic() + 120
    shot = False
    while not (status(page)).startswith("Finished"):
        assert time.monotonic() < deadline, status(page)
        if not shot and page.locator(".match").count() >= 3:
            screenshot(page, "tournament-bracket-live", tmp_path)
            shot = True
        if page.is_visible("#play-your-game"):
            play_my_game(page)
        page.wait_for_timeout(200)
    for b in bots:
        b.join(60)
        assert b.error is None, b.error
    t = call(web, "GET", f"/api/tournaments/{tid}")[1]
    champion = next(e["name"] for e in t["entrants"] if e["number"] == t["champion"])
    assert page.text_content(".champion-name") == champion or champion in (
        page.text_content(".champion-name") or ""
    )
    assert f"Champion: {champion}" in status(page)
    assert page.locator(".bracket-round").count() == len(t["rounds_played"]) + 1
    screenshot(page, "tournament-bracket", tmp_path)

    # A Swiss of 6: two people-bots and four computers, to its standings.
    maker = bot(web, "Max", exact=True)
    request = {
        "game": "fite",
        "kind": "swiss",
        "name": "Saturday Swiss",
        "options": {"turn_limit": 12},
        "clock": {"minutes": 2},
        "computers": [
            {"level": "random"},
            {"level": "random", "power": "swift"},
            {"level": "random"},
            {"level": "random"},
        ],
    }
    sid = call(web, "POST", "/api/tournaments", request, maker)[1]["id"]
    players = [maker, bot(web, "Ned", exact=True)]
    for token in players:
        assert call(web, "POST", f"/api/tournaments/{sid}/join", None, token)[0] == 200
    assert call(web, "POST", f"/api/tournaments/{sid}/start", None, maker)[0] == 200
    page.goto(f"{web.url}/tournaments/{sid}")
    page.wait_for_selector("#standings-section:visible")
    bots = [PeopleBot(web, sid, token, 10 + i) for i, token in enumerate(players)]
    for b in bots:
        b.start()
    page.wait_for_function(
        "document.querySelector('#status').textContent.startsWith('Finished')", timeout=90_000
    )
    for b in bots:
        b.join(60)
        assert b.error is None, b.error
    rows = page.locator("#standings-rows tr")
    assert rows.count() == 6
    t = call(web, "GET", f"/api/tournaments/{sid}")[1]
    first = next(e["name"] for e in t["entrants"] if e["number"] == t["standings"][0]["entrant"])
    assert first in (rows.first.text_content() or "")
    assert page.locator("#swiss-rounds section").count() == 3
    screenshot(page, "tournament-swiss", tmp_path)
    page.goto(web.url + "/tournaments")
    page.wait_for_selector(f"#finished a[href='/tournaments/{sid}']")
    screenshot(page, "tournaments", tmp_path)
    assert not watched.errors, watched.errors

    # On a phone: each page fits the width (the bracket and the table scroll inside their boxes) and
    # passes the accessibility check, as the other pages do.
    from axe_playwright_python.sync_playwright import Axe

    phone = browser.new_page(viewport={"width": 390, "height": 844})
    for path in ("/tournaments", f"/tournaments/{tid}", f"/tournaments/{sid}"):
        phone.goto(web.url + path)
        phone.wait_for_load_state("networkidle")
        phone.wait_for_selector("#finished li, .champion-name, #standings-rows tr")
        wide = phone.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        assert wide <= 0, f"{path} is {wide} px wider than a phone"
        results = Axe().run(phone)
        serious = [v for v in results.response["violations"] if v.get("impact") in ("serious", "critical")]
        assert not serious, f"{path}: {results.generate_report()}"
    phone.close()
