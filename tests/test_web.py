"""The browser client of ``tussle serve`` in a real Chromium driven by Playwright: what every game shares.

Each game's own drawing is tested in ``test_web_<game>.py``, and games at one screen, private
invitations and the seats a browser keeps in ``test_web_private.py``; here: the home page,
invitation links, online games between two browsers,
reconnection after a server restart, keyboard-only play, spectators, replays
and an automated accessibility check. See ``web_support`` for the browser.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from test_server import Server, play_out
from web_support import Watched, accept, invitation, needs_chromium, new_game, status

pytestmark = needs_chromium


def views(frames: list[str]) -> list[dict[str, Any]]:
    out = [json.loads(f) for f in frames if f.startswith("{")]
    return [v for v in out if v["type"] == "view"]


def without_legal(view: dict[str, Any]) -> str:
    """A view as text, less its list of legal actions (which names every action anyone could take)."""
    return json.dumps({k: v for k, v in view.items() if k != "legal"})


def first_legal(page: Page) -> str:
    page.wait_for_function("document.querySelectorAll('#legal-list option').length > 0")
    return str(page.eval_on_selector("#legal-list option", "o => o.value"))


def type_action(page: Page, action: str) -> None:
    """Play an action by typing its notation, as a keyboard user does."""
    page.fill("#action", action)
    page.press("#action", "Enter")


def test_the_home_page_offers_every_game_with_its_options_and_says_what_is_wrong(
    web: Server, browser: Browser
) -> None:
    page = browser.new_page()
    watched = Watched(page)
    page.goto(web.url + "/")
    catalog = web.get("/api/catalog")[1]["games"]
    offered = page.eval_on_selector_all("#game option", "os => os.map(o => o.value)")
    assert offered == [g["id"] for g in catalog] and len(offered) == 5
    page.select_option("#game", "fightopia")
    page.click("#options-box summary")
    assert page.is_visible("#option-ply_limit")
    levels = page.eval_on_selector_all("#level option", "os => os.map(o => o.value)")
    assert levels == next(g["levels"] for g in catalog if g["id"] == "fightopia")
    # The form refuses a value out of range before anything is sent, and says why.
    page.fill("#option-ply_limit", "-3")
    page.click("button[type=submit]")
    assert page.eval_on_selector("#option-ply_limit", "e => e.validationMessage")
    assert "/play/" not in page.url
    # What gets past the form and the server refuses is said in one line on the page.
    page.eval_on_selector("#option-ply_limit", "e => e.removeAttribute('min')")
    page.click("button[type=submit]")
    page.wait_for_selector("#created:not(:empty)")
    refusal = page.text_content("#created") or ""
    assert "ply_limit" in refusal and "\n" not in refusal and "/play/" not in page.url
    assert not watched.errors
    page.close()


def test_a_friend_joins_by_the_invite_link_and_each_sees_the_other_come_and_go(
    web: Server, browser: Browser
) -> None:
    host = browser.new_page()
    host.goto(web.url + "/")
    host.select_option("#clock", "5+3")
    new_game(host, web, "fightopia", opponent="friend", keep_form=True)
    invite = invitation(host)
    assert "#invite=" in invite
    friend_context = browser.new_context()
    friend = friend_context.new_page()
    accept(friend, invite)
    host.wait_for_function(
        "!document.querySelector('#status').textContent.startsWith('Waiting for your friend')"
    )
    host.wait_for_function("document.querySelectorAll('#players .dot.on').length === 2")
    # The clocks run from the first move: both show 5 minutes or a little less.
    clocks = host.locator("#players .clock").all_text_contents()
    assert len(clocks) == 2 and all(re.fullmatch(r" [45]:\d\d", c) for c in clocks), clocks
    # Neither page's address nor DOM holds the other's token.
    host_token, friend_token = host.url.split("#")[1], friend.url.split("#")[1]
    assert host_token != friend_token
    assert friend_token not in host.content() and host_token not in friend.content()
    friend_context.close()
    host.wait_for_function("document.querySelectorAll('#players .dot.on').length === 1")
    assert "not connected" in (host.text_content("#players") or "")
    host.close()


def test_after_a_game_online_a_rematch_is_asked_for_and_accepted(web: Server, browser: Browser) -> None:
    host = browser.new_page()
    new_game(host, web, "fightopia", opponent="friend", options={"ply_limit": "2"})
    friend_context = browser.new_context()
    friend = friend_context.new_page()
    accept(friend, invitation(host))
    old = host.url
    deadline = time.monotonic() + 60
    while not status(host).startswith("Game over") and time.monotonic() < deadline:
        for page in (host, friend):
            if status(page) == "Your move.":
                type_action(page, first_legal(page))
                page.wait_for_timeout(200)
    friend.wait_for_function("document.querySelector('#status').textContent.startsWith('Game over')")
    assert host.is_visible("#rematch") and host.is_visible("#replay-link")
    host.click("#rematch")
    host.wait_for_function(f"location.href !== {json.dumps(old)}")
    friend.wait_for_function("document.querySelector('#rematch').textContent === 'Accept the rematch'")
    friend.click("#rematch")
    friend.wait_for_function(f"location.href.split('#')[0] === {json.dumps(host.url.split('#')[0])}")
    # Both are in the new game, which has started: one of them is to move.
    for page in (host, friend):
        page.wait_for_function(
            "!/^Waiting for (a player|the rematch)/.test(document.querySelector('#status').textContent)"
        )
    assert host.url.split("#")[1] != friend.url.split("#")[1]
    friend_context.close()
    host.close()


def test_robo_pigs_online_between_two_browsers_keeps_each_program_secret_until_the_reveal(
    web: Server, browser: Browser
) -> None:
    host = browser.new_page()
    host_watch = Watched(host)
    new_game(host, web, "robo-pigs", opponent="friend", options={"round_limit": "3"})
    friend_context = browser.new_context()
    friend = friend_context.new_page()
    friend_watch = Watched(friend)
    accept(friend, invitation(host))
    # A new pair of programs each round: a revealed round legitimately shows its programs after.
    rounds = [("TL F TR F H", "^ ^ F v TR"), ("TR F TL F H", "v ^ F TL ^"), ("H F F TL TR", "F F ^ TR H")]
    for mine, theirs in rounds:
        host.wait_for_function("document.querySelector('#status').textContent === 'Your move.'")
        friend.wait_for_function("document.querySelector('#status').textContent === 'Your move.'")
        before = len(friend_watch.frames)
        type_action(host, mine)
        host.wait_for_function("document.querySelector('#status').textContent.startsWith('Waiting')")
        # The friend hears that the host has sent a program, and nothing of what it is.
        friend.wait_for_timeout(300)
        assert all(mine not in without_legal(v) for v in views(friend_watch.frames[before:]))
        type_action(friend, theirs)
        host.wait_for_function(
            "(t) => document.querySelector('#board-text').textContent.includes(t)", arg=theirs
        )
        if status(host).startswith("Game over"):
            break
    host.wait_for_function("document.querySelector('#status').textContent.startsWith('Game over')")
    assert all(v["seat"] == 0 for v in views(host_watch.frames))
    assert all(v["seat"] == 1 for v in views(friend_watch.frames))
    assert not host_watch.errors and not friend_watch.errors
    friend_context.close()
    host.close()


def hand(view: dict[str, Any], seat: int) -> set[str]:
    cards = view["observation"]["seats"][seat]["hand"]
    return {card["name"] for card in cards if "name" in card}


def test_fight_online_between_two_browsers_never_shows_a_hand_to_the_other(
    web: Server, browser: Browser
) -> None:
    host = browser.new_page()
    host_watch = Watched(host)
    new_game(host, web, "fight", opponent="friend")
    friend_context = browser.new_context()
    friend = friend_context.new_page()
    friend_watch = Watched(friend)
    accept(friend, invitation(host))
    deadline = time.monotonic() + 240
    checked = 0
    while time.monotonic() < deadline and not status(host).startswith("Game over"):
        for page, other, seat in ((host, friend_watch, 1), (friend, host_watch, 0)):
            if status(page) != "Your move.":
                continue
            # What the other holds now, by its own latest view; none of it is on this page.
            theirs = views(other.frames)
            if not theirs:
                continue
            secret = hand(theirs[-1], seat)
            shown = (page.text_content("#board") or "") + (page.text_content("#board-text") or "")
            assert not any(name in shown for name in secret), secret
            checked += 1
            type_action(page, first_legal(page))
            page.wait_for_timeout(150)
        host.wait_for_timeout(100)
    assert status(host).startswith("Game over") and checked > 5
    assert all(v["seat"] == 0 for v in views(host_watch.frames))
    assert all(v["seat"] == 1 for v in views(friend_watch.frames))
    friend_context.close()
    host.close()


def test_the_page_reconnects_after_the_server_restarts_and_play_goes_on(
    browser: Browser, tmp_path: Path
) -> None:
    server = Server(f"sqlite:///{tmp_path / 'restart.db'}")
    try:
        made = server.post("/api/games", {"game": "fightopia", "seats": [{"kind": "person"}] * 2})[1]
        tokens = {s["seat"]: s["token"] for s in made["seats"]}
        page = browser.new_page()
        page.goto(f"{server.url}/play/{made['id']}#{tokens[0]}")
        # Whoever the chance event made first, it is soon the page's turn.
        if server.get(f"/api/games/{made['id']}")[1]["to_act"] == [1]:
            play_out(server, made["id"], {1: tokens[1]}, seed=3, stop_after=1)
        page.wait_for_function("document.querySelector('#status').textContent === 'Your move.'")
        before = page.locator("#moves li").count()
        type_action(page, first_legal(page))
        page.wait_for_function(f"document.querySelectorAll('#moves li').length === {before + 1}")
        server.kill()
        page.wait_for_function("document.querySelector('#status').textContent.startsWith('Connection lost')")
        server.start()
        # The other seat moves through the API; the page, reconnected, shows it and plays on.
        play_out(server, made["id"], {1: tokens[1]}, seed=3, stop_after=1)
        page.wait_for_function(
            "document.querySelector('#status').textContent === 'Your move.'", timeout=30_000
        )
        assert page.locator("#moves li").count() == before + 2
        type_action(page, first_legal(page))
        page.wait_for_function(f"document.querySelectorAll('#moves li').length === {before + 3}")
        page.close()
    finally:
        server.stop()


def test_a_whole_game_played_with_the_keyboard_alone(web: Server, browser: Browser) -> None:
    page = browser.new_page()
    watched = Watched(page)
    new_game(page, web, "fite", options={"turn_limit": "6"})
    deadline = time.monotonic() + 180
    moves = 0
    while time.monotonic() < deadline and not status(page).startswith("Game over"):
        if status(page) != "Your move.":
            page.wait_for_timeout(100)
            continue
        action = first_legal(page)
        # Tab through the page until the notation field has the focus, then type and press Enter.
        for _ in range(200):
            if page.evaluate("document.activeElement && document.activeElement.id") == "action":
                break
            page.keyboard.press("Tab")
        else:
            raise AssertionError("Tab never reaches the notation field")
        page.keyboard.type(action)
        page.keyboard.press("Enter")
        moves += 1
        page.wait_for_timeout(200)
    assert status(page).startswith("Game over") and moves > 3
    assert not watched.errors
    page.close()


def test_a_spectator_sees_the_public_view_and_cannot_act(web: Server, browser: Browser) -> None:
    made = web.post("/api/games", {"game": "fight", "seats": [{"kind": "person"}] * 2})[1]
    page = browser.new_page()
    watched = Watched(page)
    page.goto(f"{web.url}/play/{made['id']}")
    page.wait_for_selector("#status:not(:empty)")
    assert "watching" in (page.text_content("#title") or "")
    assert not page.is_visible("#move")
    received = views(watched.frames)
    assert received and all(v["seat"] is None for v in received)
    assert all("name" not in card for v in received for s in v["observation"]["seats"] for card in s["hand"])
    page.close()


def finished_game(web: Server) -> str:
    created = web.post(
        "/api/games", {"game": "fightopia", "options": {"ply_limit": 20}, "seats": [{"kind": "person"}] * 2}
    )[1]
    play_out(web, created["id"], {s["seat"]: s["token"] for s in created["seats"]}, seed=1)
    game_id: str = created["id"]
    return game_id


def test_the_replay_page_steps_a_finished_game_forward_and_back_with_the_keyboard(
    web: Server, browser: Browser
) -> None:
    game_id = finished_game(web)
    page = browser.new_page()
    watched = Watched(page)
    page.goto(f"{web.url}/replay/{game_id}")
    page.wait_for_selector("#where:not(:empty)")
    start = page.inner_html("#board")
    assert page.text_content("#where") == "step 0 of 21" and page.text_content("#event") == "The start."
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert page.text_content("#where") == "step 2 of 21" and page.inner_html("#board") != start
    page.keyboard.press("End")
    assert page.text_content("#where") == "step 21 of 21" and "ply limit" in (
        page.text_content("#result") or ""
    )
    page.keyboard.press("Home")
    assert page.inner_html("#board") == start
    page.click("#moves li:nth-child(5) button")
    assert page.text_content("#where") == "step 5 of 21"
    with page.expect_download() as download:
        page.click("#record")
    record = json.loads(Path(download.value.path()).read_text())
    assert record["game"] == "fightopia" and len(record["events"]) == 21
    assert not watched.errors
    page.close()
    unfinished = web.post("/api/games", {"game": "fite", "seats": [{"kind": "person"}] * 2})[1]
    assert web.get(f"/api/games/{unfinished['id']}/replay")[0] == 400  # its boards would show secrets


def test_an_uploaded_record_replays_and_a_bad_one_is_refused_whole(
    web: Server, browser: Browser, tmp_path: Path
) -> None:
    record = web.get(f"/api/games/{finished_game(web)}/record")[1]
    good = tmp_path / "game.json"
    good.write_text(json.dumps(record))
    page = browser.new_page()
    watched = Watched(page)
    page.goto(f"{web.url}/replay")
    page.set_input_files("#file", str(good))
    page.wait_for_selector("#where:not(:empty)")
    assert page.text_content("#where") == "step 0 of 21"
    page.keyboard.press("End")
    assert page.text_content("#where") == "step 21 of 21"
    # A record with one illegal move is refused whole, in one line; not JSON, likewise.
    bad = dict(record, events=[*record["events"][:5], {"player": 0, "action": "z9-z10"}])
    (tmp_path / "bad.json").write_text(json.dumps(bad))
    page.set_input_files("#file", str(tmp_path / "bad.json"))
    page.wait_for_function("document.querySelector('#error').textContent.includes('z9-z10')")
    error = page.text_content("#error") or ""
    assert "\n" not in error and "Traceback" not in error
    (tmp_path / "junk.json").write_text("{not json")
    page.set_input_files("#file", str(tmp_path / "junk.json"))
    page.wait_for_function("document.querySelector('#error').textContent.startsWith('Not JSON')")
    assert not watched.errors
    page.close()


@pytest.mark.parametrize("game", ["fightopia", "tank-chess", "robo-pigs", "fite", "fight"])
def test_each_page_passes_an_automated_accessibility_check(web: Server, browser: Browser, game: str) -> None:
    from axe_playwright_python.sync_playwright import Axe

    page = browser.new_page()
    new_game(page, web, game)
    page.wait_for_function("document.querySelector('#status').textContent === 'Your move.'")
    page.wait_for_selector("#board > *")
    results = Axe().run(page)
    serious = [v for v in results.response["violations"] if v.get("impact") in ("serious", "critical")]
    assert not serious, results.generate_report()
    page.close()


def test_the_home_and_replay_pages_pass_the_accessibility_check(web: Server, browser: Browser) -> None:
    from axe_playwright_python.sync_playwright import Axe

    page = browser.new_page()
    for path in ("/", "/replay", f"/replay/{finished_game(web)}"):
        page.goto(web.url + path)
        page.wait_for_load_state("networkidle")
        results = Axe().run(page)
        serious = [v for v in results.response["violations"] if v.get("impact") in ("serious", "critical")]
        assert not serious, f"{path}: {results.generate_report()}"
    # The checker does find what it should: grey text on white, added here, is reported.
    page.evaluate(
        "document.querySelector('main').insertAdjacentHTML('beforeend',"
        " '<p style=\"color:#bbb;background:#fff\">hard to read</p>')"
    )
    found = {v["id"] for v in Axe().run(page).response["violations"]}
    assert "color-contrast" in found
    page.close()


def test_the_client_loads_nothing_from_elsewhere(web: Server, browser: Browser) -> None:
    page = browser.new_page()
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    new_game(page, web, "tank-chess")
    page.wait_for_selector("#board > *")
    assert asked and all(re.match(re.escape(web.url) + "|ws://127", url) for url in asked), asked
    page.close()


def test_a_game_is_aborted_before_both_have_moved_and_resigned_after(web: Server, browser: Browser) -> None:
    host = browser.new_page()
    host.on("dialog", lambda dialog: dialog.accept())  # the page asks before it ends the game
    new_game(host, web, "fite", opponent="friend")
    friend_context = browser.new_context()
    friend = friend_context.new_page()
    accept(friend, invitation(host))
    host.wait_for_function("document.querySelector('#status').textContent === 'Your move.'")
    assert host.text_content("#end-game") == "Abort the game"
    host.click("#end-game")
    for page in (host, friend):
        page.wait_for_function("document.querySelector('#status').textContent.startsWith('Game over')")
        assert "aborted by" in status(page)
        assert page.is_hidden("#ending")
    friend_context.close()

    # Against the computer: once both have moved, the button resigns.
    new_game(host, web, "fightopia", opponent="computer", level="easy")
    host.click("#all-legal summary")
    while host.text_content("#end-game") != "Resign":
        host.wait_for_function(
            "document.querySelector('#status').textContent === 'Your move.'"
            " || document.querySelector('#end-game').textContent === 'Resign'"
        )
        if host.text_content("#end-game") == "Resign":
            break
        moves = host.locator("#moves li").count()
        host.locator("#legal button").first.click()
        host.wait_for_function(f"document.querySelectorAll('#moves li').length > {moves}")
    host.click("#end-game")
    host.wait_for_function("document.querySelector('#status').textContent.startsWith('Game over')")
    assert "resigned" in status(host)
    host.close()
