"""The live lobby in Chromium (docs/web.md, "The live lobby"): a game another browser makes appears
in the lobby without a reload and goes once taken, "play anyone now" in two browsers pairs them, a
game being played is listed to watch with its spectators, and a spectator's page follows a rematch."""

from __future__ import annotations

import json
from pathlib import Path

from playwright.sync_api import Browser, Page

from test_server import Server
from web_support import Watched, needs_chromium, new_game, screenshot

pytestmark = needs_chromium

STATUS = "document.querySelector('#status').textContent"


def mark(page: Page) -> None:
    """Leave a mark in the page's window: a reload (or any new document) would wipe it."""
    page.evaluate("window.notReloaded = true")


def not_reloaded(page: Page) -> bool:
    return bool(page.evaluate("window.notReloaded === true"))


def test_a_game_another_browser_makes_appears_in_the_lobby_without_a_reload(
    web: Server, browser: Browser, tmp_path: Path
) -> None:
    watcher_context, maker_context = browser.new_context(), browser.new_context()
    try:
        page = watcher_context.new_page()
        watched = Watched(page)
        page.goto(web.url + "/")
        page.wait_for_function("!document.querySelector('#lobby').textContent.includes('Loading')")
        mark(page)
        maker = maker_context.new_page()
        maker.goto(web.url + "/")
        maker.wait_for_selector(
            "#seek-game option", state="attached"
        )  # the page's script is ready: the name is kept
        maker.fill("#name", "Ann")
        maker.select_option("#clock", "5+3")
        new_game(maker, web, "fite", opponent="lobby", options={"turn_limit": "12"}, keep_form=True)
        game = maker.url.split("/play/")[1].split("#")[0]
        row = f"#lobby li[data-game='{game}']"
        page.wait_for_selector(row)
        text = page.text_content(row) or ""
        assert "Join FITE" in text and "5 min + 3 s a move" in text and "turn_limit 12" in text, text
        assert "Ann vs open seat" in text and "made just now" in text, text
        screenshot(page, "lobby", tmp_path)
        # Taken by someone else: it goes from the lobby, and once both are there it is listed to watch.
        joined = web.post(f"/api/games/{game}/join", {"name": "Bo"})[1]
        page.wait_for_selector(row, state="detached")
        with web.seat(game, joined["token"]):
            playing = f"#playing li[data-game='{game}']"
            page.wait_for_selector(playing)
            assert "FITE: Ann vs Bo" in (page.text_content(playing) or "")
            assert "0 watching" in (page.text_content(playing) or "")
            with web.seat(game, None):
                page.wait_for_function(
                    f"document.querySelector(\"{playing}\").textContent.includes('1 watching')"
                )
            page.click(f"{playing} a")
            page.wait_for_url(f"**/play/{game}")
            page.wait_for_selector("#status:not(:empty)")
            assert "watching" in (page.text_content("#title") or "")
        assert not watched.errors, watched.errors
    finally:
        watcher_context.close()
        maker_context.close()


def test_play_anyone_now_in_two_browsers_pairs_them(web: Server, browser: Browser, tmp_path: Path) -> None:
    contexts = [browser.new_context(), browser.new_context()]
    try:
        first, second = (c.new_page() for c in contexts)
        for page, name in ((first, "Cy"), (second, "Di")):
            page.goto(web.url + "/")
            page.wait_for_selector(
                "#seek-game option", state="attached"
            )  # the page's script is ready: the name is kept
            page.fill("#name", name)
            page.select_option("#seek-game", "tank-chess")
            page.select_option("#seek-clock", "10+5")
        first.click("#seek-button")
        first.wait_for_url("**/play/**")
        first.wait_for_function(
            "document.querySelector('#status').textContent.startsWith('Waiting for a player')"
        )
        game = first.url.split("/play/")[1].split("#")[0]
        # Asked again while its game waits: back to it, not paired with itself.
        link = first.url
        first.goto(web.url + "/")
        first.wait_for_selector(f"#lobby li[data-game='{game}']")
        first.select_option("#seek-game", "tank-chess")
        first.select_option("#seek-clock", "10+5")
        first.click("#seek-button")
        first.wait_for_url(link)
        first.wait_for_function(f"{STATUS}.startsWith('Waiting for a player')")
        second.click("#seek-button")
        second.wait_for_url(f"**/play/{game}#*")
        for page in (first, second):
            # Started: one page's move, the other waiting for that player (no seat open any more).
            page.wait_for_function(
                f"['Your move.', 'Waiting for'].some((s) => {STATUS}.startsWith(s))"
                f" && !{STATUS}.startsWith('Waiting for a player')"
            )
        players = first.text_content("#players") or ""
        assert "Cy" in players and "Di" in players, players
        # Each browser keeps its own seat: different seats of the one game.
        seats = [json.loads(p.evaluate("localStorage.getItem('tussle-seats')")) for p in (first, second)]
        mine = [next(e["seat"] for e in s if e["game"] == game) for s in seats]
        assert sorted(mine) == [0, 1], seats
        screenshot(second, "play-anyone", tmp_path)
    finally:
        for c in contexts:
            c.close()


def test_a_spectators_page_follows_the_rematch(web: Server, browser: Browser) -> None:
    made = web.post("/api/games", {"game": "fite", "seats": [{"kind": "person"}, {"kind": "person"}]})[1]
    game = made["id"]
    tokens = [s["token"] for s in made["seats"]]
    page = browser.new_page()
    try:
        page.goto(f"{web.url}/play/{game}")
        page.wait_for_selector("#status:not(:empty)")
        with web.seat(game, tokens[0]) as player:
            player.send(json.dumps({"type": "resign"}))
            page.wait_for_function("document.querySelector('#status').textContent.startsWith('Game over')")
        rematch = web.post(f"/api/games/{game}/rematch", {"token": tokens[1]})[1]
        page.wait_for_url(f"**/play/{rematch['id']}")
        page.wait_for_selector("#status:not(:empty)")
        assert "watching" in (page.text_content("#title") or "")
        # A spectator who opens the finished game afterwards is offered the rematch, not moved to it.
        late = browser.new_page()
        late.goto(f"{web.url}/play/{game}")
        late.wait_for_selector("#rematch-link a")
        assert late.get_attribute("#rematch-link a", "href") == f"/play/{rematch['id']}"
        assert late.url.endswith(f"/play/{game}")
        late.close()
    finally:
        page.close()


def test_the_lobby_and_play_anyone_now_on_a_phone(web: Server, browser: Browser, tmp_path: Path) -> None:
    page = browser.new_page(viewport={"width": 390, "height": 844})
    try:
        page.goto(web.url + "/")
        page.wait_for_function("!document.querySelector('#lobby').textContent.includes('Loading')")
        page.locator("#lobby-box").scroll_into_view_if_needed()
        box = page.locator("#seek-button").bounding_box()
        assert box is not None and box["height"] >= 32 and box["x"] + box["width"] <= 390, box
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        new_game(page, web, "fightopia", opponent="lobby")
        page.goto(web.url + "/")
        page.wait_for_selector("#lobby li[data-game] button")
        button = page.locator("#lobby li[data-game] button").first.bounding_box()
        assert button is not None and button["height"] >= 32, button
        screenshot(page, "lobby-phone", tmp_path)
    finally:
        page.close()
