"""Clocks players can see, in a real Chromium: a running clock counts down between views, warns at low
time (colour and one sound), correspondence games are made from the home page, and replays play
themselves, follow the current step and show only what the chosen seat saw."""

from __future__ import annotations

import json
import re
from pathlib import Path

from playwright.sync_api import Browser, Page

from test_server import Server, play_out
from tussle.server.hub import token_hash
from tussle.server.store import Seat, Store
from web_support import Watched, needs_chromium, new_game, screenshot, status

pytestmark = needs_chromium

PERSONS = [{"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Bo"}]


def views_in(frames: list[str]) -> int:
    return sum(1 for f in frames if f.startswith("{") and json.loads(f).get("type") == "view")


def clock_text(page: Page, seat: int) -> str:
    return page.text_content(f'[data-clock-seat="{seat}"]') or ""


def seconds(text: str) -> float:
    """A live clock's text as seconds: " 0:17", " 0:09.4"."""
    minutes, rest = text.strip().split(":")
    return int(minutes) * 60 + float(rest)


def test_a_running_clock_counts_down_between_views_and_warns_once_at_low_time(
    web: Server, browser: Browser, tmp_path: Path
) -> None:
    # 18 s each: the warning comes under 5 s (a tenth of the base is less than that).
    made = web.post("/api/games", {"game": "tank-chess", "clock": {"minutes": 0.3}, "seats": PERSONS})[1]
    context = browser.new_context()
    page = context.new_page()
    watched = Watched(page)
    page.goto(web.url + made["seats"][0]["link"])
    page.wait_for_selector('[data-clock-seat="0"]:not(:empty)')
    page.check("#sound-on")  # Ann turns sound on (the page plays a sample of it)
    page.wait_for_function("document.documentElement.dataset.soundsPlayed === '1'")
    assert page.text_content("#time-control") == "Time control: 18 s"
    first = clock_text(page, 0)
    heard = views_in(watched.frames)
    assert heard >= 1 and 5 < seconds(first) <= 18, first
    # Ann's clock runs (she is to move): its text goes down with no view arriving; Bo's stays.
    page.wait_for_function(
        f"(document.querySelector('[data-clock-seat=\"0\"]').textContent || '') !== {json.dumps(first)}"
    )
    assert seconds(clock_text(page, 0)) < seconds(first)
    assert views_in(watched.frames) == heard
    assert (
        seconds(clock_text(page, 1)) == 18 and page.get_attribute('[data-clock-seat="1"]', "class") == "clock"
    )
    # Under 5 s: the warning colour, tenths of a second, and one sound for Ann's own clock.
    page.wait_for_selector('[data-clock-seat="0"].clock.low')
    assert re.fullmatch(r" 0:0\d\.\d", clock_text(page, 0)), clock_text(page, 0)
    assert views_in(watched.frames) == heard  # still no view: the page counted down by itself
    assert page.evaluate("document.documentElement.dataset.soundsPlayed") == "2"
    screenshot(page, "clock-low-time", tmp_path)
    # The server ends the game at zero; the page stops at 0:00.0 and plays no second sound.
    page.wait_for_function("document.querySelector('#status').textContent.startsWith('Game over')")
    assert status(page).endswith("Ann (White) ran out of time; Bo wins.")
    assert clock_text(page, 0) == " 0:00.0"
    assert page.evaluate("document.documentElement.dataset.soundsPlayed") == "2"
    assert not page.locator('[data-clock-seat="1"].low').count()
    assert not watched.errors
    context.close()


def test_a_correspondence_clock_warns_in_its_last_hour(web: Server, browser: Browser) -> None:
    # A move of an hour and 4 seconds, made in the store (the API's least is a day): the warning
    # comes when the move has less than an hour left, shown in minutes and seconds.
    store = Store.open(web.db)
    seats = [Seat(0, "person", None, "Ann", token_hash("ann-mail")), Seat(1, "person", None, "Bo", None)]
    game_id = store.create_game("tank-chess", {}, 2, seats, seed="s", clock=(3604.0, 0), clock_per_move=True)
    store.close()
    page = browser.new_page()
    watched = Watched(page)
    page.goto(f"{web.url}/play/{game_id}#ann-mail")
    page.wait_for_selector('[data-clock-seat="0"]:not(:empty)')
    assert page.text_content("#time-control") == "Time control: 1 h 0 min a move"
    assert clock_text(page, 1) == " 1 h 0 min" and not page.locator(".clock.low").count()
    page.wait_for_selector('[data-clock-seat="0"].clock.low')
    assert re.fullmatch(r" 59:[0-5]\d", clock_text(page, 0)), clock_text(page, 0)
    assert clock_text(page, 1) == " 1 h 0 min" and page.locator(".clock.low").count() == 1
    assert not watched.errors
    page.close()


def test_the_home_page_makes_a_correspondence_game_in_days_a_move(web: Server, browser: Browser) -> None:
    page = browser.new_page()
    watched = Watched(page)
    page.goto(web.url + "/")
    page.select_option("#clock", "3d")
    new_game(page, web, "tank-chess", opponent="friend", keep_form=True)
    page.wait_for_selector('[data-clock-seat="0"]:not(:empty)')
    assert page.text_content("#time-control") == "Time control: 3 days a move"
    game_id = page.url.split("/play/")[1].split("#")[0]
    assert web.get(f"/api/games/{game_id}")[1]["clock"] == {
        "base": 259200.0,
        "increment": 0.0,
        "per_move": True,
    }
    # The game waits for the friend: nobody's clock runs, each shows its three days.
    assert [clock_text(page, s) for s in (0, 1)] == [" 3 d 0 h", " 3 d 0 h"]
    # "Your games" on the home page says what kind of game it is.
    page.goto(web.url + "/")
    mine = page.locator(f'#mine a[href*="{game_id}"]')
    mine.wait_for()
    assert "3 days a move" in (mine.text_content() or "")
    assert not watched.errors
    page.close()


def test_a_replay_plays_itself_follows_its_step_and_shows_only_what_the_seat_saw(
    web: Server, browser: Browser, tmp_path: Path
) -> None:
    made = web.post("/api/games", {"game": "robo-pigs", "options": {"round_limit": 14}, "seats": PERSONS})[1]
    play_out(web, made["id"], {s["seat"]: s["token"] for s in made["seats"]}, seed=7)
    as_bo = web.get(f"/api/games/{made['id']}/replay?seat=1")[1]
    # Ann's programs, each secret from Bo until both pigs' programs of the round are revealed.
    secret = {i: step["action"] for i, step in enumerate(as_bo["steps"]) if step["player"] == 0}
    assert secret and all(as_bo["steps"][i]["told"] == ["pig A wrote a program"] for i in secret)
    page = browser.new_page()
    watched = Watched(page)
    page.goto(f"{web.url}/replay/{made['id']}")
    page.wait_for_selector("#moves li")
    first = min(secret)
    # As Ann saw it (the first seat's view): her own program is told.
    assert secret[first] in (page.text_content(f'#moves li[data-step="{first}"]') or "")
    page.select_option("#seen-by", "1")
    page.wait_for_function(
        f"document.querySelector('#moves li[data-step=\"{first}\"]').textContent === 'pig A wrote a program'"
    )
    items = page.eval_on_selector_all("#moves li", "items => items.map(i => i.textContent)")
    assert items == ["; ".join(step["told"]) for step in as_bo["steps"][1:]]
    # Autoplay at 0.5 s a step, from Ann's first secret step: the text, the words and the list follow.
    page.click(f'#moves li[data-step="{first}"] button')
    assert page.text_content("#event") == "pig A wrote a program"
    assert page.text_content("#board-text") == as_bo["steps"][first]["text"]
    assert secret[first] not in (page.text_content("#board-text") or "")
    page.select_option("#speed", "500")
    page.click("#play")
    assert page.text_content("#play") == "Pause" and page.get_attribute("#play", "aria-pressed") == "true"
    target = first + 12
    page.wait_for_function(f"document.querySelector('#where').textContent.startsWith('step {target} of')")
    page.click("#play")  # paused there (or a step on): what is shown stays still to be checked
    stopped = page.text_content("#where") or ""
    at = int(stopped.split()[1])
    assert at >= target
    current = page.locator(f'#moves li[data-step="{at}"]')
    assert current.get_attribute("class") == "current" and current.get_attribute("aria-current") == "step"
    box, inside = page.locator("#moves").bounding_box(), current.bounding_box()
    assert box is not None and inside is not None
    assert page.evaluate("document.querySelector('#moves').scrollTop") > 0  # the list scrolled to it
    assert box["y"] <= inside["y"] and inside["y"] + inside["height"] <= box["y"] + box["height"] + 1
    page.wait_for_timeout(1500)  # three steps' time: it stays where it was paused
    assert page.text_content("#where") == stopped and page.text_content("#play") == "Play"
    screenshot(page, "replay-autoplay", tmp_path)
    assert not watched.errors
    page.close()
