"""People and seats in Chromium (issue 36, item 4): a name chosen once and kept in the browser, shown
to the other players; games of more than two players made from the home page, each seat a friend,
an open seat or a computer; the maker's seat picked, or drawn by the server."""

from __future__ import annotations

import json
import os
import re
import shutil
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page

from test_server import Server
from web_support import Watched, accept, needs_chromium, play_until_over, screenshot, status

pytestmark = needs_chromium


def players(page: Page) -> list[str]:
    return [text.strip() for text in page.locator("#players li").all_text_contents()]


def home(page: Page, web: Server, name: str) -> None:
    page.goto(web.url + "/")
    page.wait_for_selector("#my-seat option", state="attached")
    page.fill("#name", name)


def make(page: Page) -> dict[str, Any]:
    """Press Play; the request the page sent and the game page opened."""
    with page.expect_request(lambda r: r.url.endswith("/api/games") and r.method == "POST") as sent:
        page.click("button[type=submit]")
    page.wait_for_url("**/play/**")
    page.wait_for_selector("#status:not(:empty)")
    body: dict[str, Any] = json.loads(sent.value.post_data or "{}")
    return body


def form_shot(page: Page, name: str, tmp_path: Path) -> None:
    """A picture of the new game form alone; a copy into ``$TUSSLE_SCREENSHOTS`` when that is set."""
    shot = tmp_path / f"{name}.png"
    page.locator("#create").screenshot(path=str(shot))
    assert shot.stat().st_size > 10_000
    folder = os.environ.get("TUSSLE_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        shutil.copy(shot, Path(folder) / f"{name}.png")


def play_a_move(page: Page) -> None:
    """Wait for the page's turn and play the first legal action, as a person pointing at the list."""
    page.wait_for_function("document.querySelector('#status').textContent === 'Your move.'")
    page.click("#all-legal summary")
    before = page.locator("#moves li").count()
    page.locator("#legal button").first.click()
    page.wait_for_function(f"document.querySelectorAll('#moves li').length > {before}")


def test_a_name_is_kept_across_reloads_and_shown_to_the_other_browser(
    web: Server, browser: Browser, tmp_path: Path
) -> None:
    host = browser.new_page()
    host.on("dialog", lambda dialog: dialog.accept())
    watched = Watched(host)
    home(host, web, "  Ada ☃ ")
    host.reload()
    host.wait_for_selector("#my-seat option", state="attached")
    assert host.input_value("#name") == "Ada ☃"
    # A name too long is said at once and not kept; the form will not send it.
    host.fill("#name", "x" * 31)
    assert host.text_content("#name-said") == "A name has at most 30 characters."
    host.click("button[type=submit]")
    assert "/play/" not in host.url
    host.reload()
    host.wait_for_selector("#my-seat option", state="attached")
    assert host.input_value("#name") == "Ada ☃"
    host.select_option("#game", "fite")
    host.check("input[value=friend]")
    body = make(host)
    assert body["seats"] == [{"kind": "person", "name": "Ada ☃"}, {"kind": "invite", "name": "friend"}]
    assert "shuffle" not in body
    assert "Ada ☃ (you)" in players(host)[0]
    link = host.input_value("input.invite")
    # The friend's browser keeps no name yet: the invitation asks for one before taking the seat.
    friend_context = browser.new_context()
    friend = friend_context.new_page()
    friend.goto(link)
    friend.wait_for_selector("#name-form")
    assert "#invite=" in friend.url  # nothing is taken before the name is given
    friend.fill("#invite-name", "Bo\u202e")
    assert friend.text_content("#invite-name-said") == "A name may not hold control characters."
    friend.click("#name-form button[type=submit]")
    assert friend.locator("#name-form").count() == 1
    accept(friend, link, "Bo")
    host.wait_for_function("document.querySelectorAll('#players .dot.on').length === 2")
    assert "Bo" in players(host)[1] and "Bo" in players(friend)[1] and "Ada ☃" in players(friend)[0]
    assert "Bo (you)" in players(friend)[1]
    # The status lines name whoever is awaited.
    for page, other in ((host, "Bo"), (friend, "Ada ☃")):
        page.wait_for_function("document.querySelector('#status').textContent.length > 0")
        assert status(page) in ("Your move.", f"Waiting for {other}.")
    screenshot(host, "names-players", tmp_path)
    # The friend's name is kept in that browser for the next game.
    again = friend_context.new_page()
    again.goto(web.url + "/")
    again.wait_for_selector("#my-seat option", state="attached")
    assert again.input_value("#name") == "Bo"
    again.close()
    # The result line names the player too (aborted before both had moved).
    friend.on("dialog", lambda dialog: dialog.accept())
    friend.wait_for_function("document.querySelector('#end-game').textContent === 'Abort the game'")
    friend.click("#end-game")
    for page in (host, friend):
        page.wait_for_function("document.querySelector('#status').textContent.startsWith('Game over')")
        assert "aborted by Bo" in status(page)
    # Every frame the host received names the friend by the name the friend chose, as text.
    assert any('"name": "Bo"' in frame or '"name":"Bo"' in frame for frame in watched.frames)
    assert not watched.errors
    host.close()
    friend_context.close()


def test_a_four_player_fight_game_with_computer_seats_from_the_home_page(
    web: Server, browser: Browser, tmp_path: Path
) -> None:
    page = browser.new_page()
    watched = Watched(page)
    home(page, web, "Ada")
    page.select_option("#game", "fight")
    assert page.is_visible("#player-count")
    page.select_option("#player-count", "4")
    page.check("input[value=mixed]")
    page.select_option("#my-seat", "1")
    labels = page.locator("#seat-list label").all_text_contents()
    assert labels == ["p0 (seat 1)", "p2 (seat 3)", "p3 (seat 4)"]  # as the game names them
    for other in range(3):
        page.select_option(f"#seat-{other}", "computer:easy")
    form_shot(page, "seats-home", tmp_path)
    # On a 390-pixel phone every seat's choice is on the screen, none wider than it.
    page.set_viewport_size({"width": 390, "height": 844})
    for control in ("#my-seat", "#seat-0", "#seat-1", "#seat-2", "#name"):
        box = page.locator(control).bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390, (control, box)
        assert box["height"] >= 32, (control, box)  # a finger's target
    page.set_viewport_size({"width": 1280, "height": 720})
    body = make(page)
    assert body["game"] == "fight" and "shuffle" not in body
    assert body["seats"] == [
        {"kind": "computer", "agent": "easy"},
        {"kind": "person", "name": "Ada"},
        {"kind": "computer", "agent": "easy"},
        {"kind": "computer", "agent": "easy"},
    ]
    page.wait_for_function("document.querySelectorAll('#players li').length === 4")
    seats = players(page)
    assert "Ada (you)" in seats[1] and all("(computer)" in seats[s] for s in (0, 2, 3)), seats
    play_a_move(page)
    # The server took Ada's action: a view after it holds an event of her seat.
    page.wait_for_function("document.querySelector('#status').textContent !== 'Your move.'")
    views = [json.loads(f) for f in watched.frames if f.startswith('{"type": "view"')]
    assert any(event["player"] == 1 for view in views for event in view["last"]), views[-1]["last"]
    # The story tells it in the game's words, each seat's person named beside the game's name for it.
    page.wait_for_function("document.querySelector('#moves').textContent.includes('Ada (p1)')")
    story = page.locator("#moves .story-words").all_text_contents()
    assert not [w for w in story if re.search(r"(?<![(\w])p[0-3](?![)\w])", w)], story
    assert not watched.errors
    page.close()


def test_the_maker_picks_a_colour_or_a_random_seat_drawn_by_the_server(web: Server, browser: Browser) -> None:
    page = browser.new_page()
    home(page, web, "Ada")
    page.select_option("#game", "fightopia")
    options = page.eval_on_selector_all("#my-seat option", "os => os.map(o => o.textContent)")
    assert options == ["White (seat 1)", "Black (seat 2)", "random (drawn by the server)"]
    assert page.is_hidden("#player-count") and page.is_hidden("#seats-box")
    page.select_option("#my-seat", "1")
    page.select_option("#level", "easy")
    body = make(page)
    assert body["seats"] == [{"kind": "computer", "agent": "easy"}, {"kind": "person", "name": "Ada"}]
    page.wait_for_function("document.querySelectorAll('#players li').length === 2")
    assert "Ada (you)" in players(page)[1]
    # Random: the page asks the server to deal the seats (it sends its own first), and opens the
    # seat the server gave it.
    watched = Watched(page)
    home(page, web, "Ada")
    page.select_option("#game", "fightopia")
    page.select_option("#my-seat", "random")
    page.select_option("#level", "easy")
    body = make(page)
    assert body["shuffle"] is True
    assert body["seats"] == [{"kind": "person", "name": "Ada"}, {"kind": "computer", "agent": "easy"}]
    page.wait_for_function("document.querySelectorAll('#players li').length === 2")
    views = [json.loads(f) for f in watched.frames if f.startswith('{"type": "view"')]
    seat = views[0]["seat"]
    assert views[0]["seats"][seat]["name"] == "Ada" and "Ada (you)" in players(page)[seat]
    page.close()


def test_a_three_player_game_with_two_friends_joined_from_two_browsers(web: Server, browser: Browser) -> None:
    host = browser.new_page()
    home(host, web, "Ada")
    host.select_option("#game", "fight")
    host.select_option("#player-count", "3")
    host.check("input[value=mixed]")
    host.select_option("#seat-0", "invite")
    host.select_option("#seat-1", "invite")
    body = make(host)
    assert body["seats"] == [
        {"kind": "person", "name": "Ada"},
        {"kind": "invite", "name": "friend 1"},
        {"kind": "invite", "name": "friend 2"},
    ]
    # Both invitations are shown to the maker, each to its own seat.
    host.wait_for_function("document.querySelectorAll('input.invite').length === 2")
    links = [host.input_value(f"#invite-{seat}") for seat in (1, 2)]
    assert len(set(links)) == 2 and all("#invite=" in link for link in links)
    assert status(host) == "Waiting for your friend to open the invitation."
    friends = []
    for link, name in zip(links, ("Bo", "Cy"), strict=True):
        friend = browser.new_page()
        accept(friend, link, name)
        friends.append(friend)
    host.wait_for_function("document.querySelectorAll('#players .dot.on').length === 3")
    assert [p.split(":")[0] for p in players(host)] == ["Ada (you)", "Bo", "Cy"]
    assert "Bo (you)" in players(friends[0])[1] and "Cy (you)" in players(friends[1])[2]
    # The invitations are spent: the box is gone once every seat is taken.
    host.wait_for_function("document.querySelectorAll('input.invite').length === 0")
    # Whoever is to act first plays, and the others see the game go on.
    deadline = time.monotonic() + 30
    while not any(status(p) == "Your move." for p in (host, *friends)) and time.monotonic() < deadline:
        host.wait_for_timeout(100)
    play_a_move(next(p for p in (host, *friends) if status(p) == "Your move."))
    for page in (host, *friends):
        page.close()


def test_the_result_line_names_the_people_beside_the_games_own_names(web: Server, browser: Browser) -> None:
    page = browser.new_page()
    home(page, web, "Ada")
    page.select_option("#game", "fight")
    page.select_option("#level", "easy")
    make(page)

    def first_action(p: Page) -> None:
        if p.is_hidden("#legal"):
            p.click("#all-legal summary")
        p.locator("#legal button").first.click()

    play_until_over(page, first_action)
    line = status(page)
    # The game's reason names seats its own way (p0, p1): each is the person's now, the game's name kept.
    assert re.search(r"(Ada|easy) \(p[01]\)", line), line
    assert not re.search(r"(?<![(\w])p[01](?![)\w])", line), line
    # Whole words only, and one pass: p10 is not p1, and a name is not replaced twice.
    named = page.evaluate(
        """async () => (await import("/web/name.js")).inTheirNames(
            "p1 beats p0 and p10; White", ["p0", "p1"], [{seat: 0, name: "p1"}, {seat: 1, name: "Ada"}])"""
    )
    assert named == "Ada (p1) beats p1 (p0) and p10; White"
    page.close()
