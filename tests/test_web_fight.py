"""Fight! in the browser: a whole game played by pointing only, with nothing of the computer's hand shown."""

from __future__ import annotations

import contextlib
import json
import random
import re
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from test_server import Server
from web_support import Watched, needs_chromium, new_game, play_until_over, screenshot, status

pytestmark = needs_chromium


def views(watched: Watched) -> list[dict[str, Any]]:
    frames = [json.loads(f) for f in watched.frames if f.startswith("{")]
    return [f for f in frames if f.get("type") == "view"]


def game_id(page: Page) -> str:
    return page.url.split("#")[0].rstrip("/").split("/")[-1]


def shows(name: str, text: str) -> bool:
    return re.search(rf"\b{re.escape(name)}\b", text) is not None


def point(page: Page, rng: random.Random) -> None:
    """One click on something to point at, then one on the menu's actions if a menu opened."""
    # The status can say "Your move." a moment before the board has drawn what to point at.
    with contextlib.suppress(PlaywrightTimeout):
        page.wait_for_selector("#board .target, #board .pick", timeout=5000)
    # By place, not by element: a view that comes in now redraws the board (seen in CI: the element
    # picked was gone by the click); the locator finds whatever is at that place when it clicks.
    for _ in range(3):
        things = page.locator("#board .target, #board .pick")
        count = things.count()
        assert count, "my move, and nothing to point at"
        with contextlib.suppress(PlaywrightTimeout):
            things.nth(rng.randrange(count)).click(timeout=5000)
            break
    page.wait_for_timeout(30)
    items = page.query_selector_all(".menu button[data-action]")
    if items:
        rng.choice(items).click()


def test_a_whole_game_against_the_computer_played_by_pointing(
    web: Server, browser: Browser, tmp_path: Path
) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    watched = Watched(page)
    new_game(page, web, "fight", level="easy")
    rng = random.Random(7)
    seen: list[tuple[int, str]] = []  # (events, the board's HTML) whenever it was my move
    shot: list[Path] = []

    def move(page: Page) -> None:
        page.wait_for_selector("#board .fight")
        last = views(watched)[-1]
        seen.append((last["events"], page.inner_html("#board")))
        obs = last["observation"]
        mine = obs["seats"][0]
        table = obs["seats"][1]["main"] is not None  # the computer played first: its Main is shown
        if not shot and obs["fight"] >= 3 and obs["stage"] == "play" and len(mine["hand"]) == 5 and table:
            page.wait_for_timeout(400)  # the newly drawn cards have come in
            shot.append(screenshot(page, "fight", tmp_path))
        point(page, rng)

    play_until_over(page, move, limit_s=240)
    assert status(page).startswith("Game over")
    assert not watched.errors
    assert len(seen) >= 14 and shot  # 7 Fights, a Main and Boost then a Boost's fate in each
    frames = views(watched)
    assert frames and all(v["seat"] == 0 for v in frames)

    # The computer's hand, step by step, as its own seat saw it: never in my frames or my board.
    code, replay = web.get(f"/api/games/{game_id(page)}/replay?seat=1")
    assert code == 200
    hands = [[c["name"] for c in step["observation"]["seats"][1]["hand"]] for step in replay["steps"]]

    def hidden(events: int, mine: dict[str, Any]) -> list[str]:
        # A card of its hand that my observation shows only by its back.
        known = {c["name"] for c in mine["seats"][1]["hand"] if "name" in c}
        return [n for n in hands[events] if n not in known]

    checked = 0
    for frame in frames:
        text = json.dumps(frame)
        for name in hidden(frame["events"], frame["observation"]):
            assert not shows(name, text), f"{name} of the computer's hand sent at event {frame['events']}"
            checked += 1
    by_events = {f["events"]: f["observation"] for f in frames}
    for events, board in seen:
        for name in hidden(events, by_events[events]):
            assert not shows(name, board), f"{name} of the computer's hand drawn at event {events}"
            checked += 1
    final = page.inner_text("#board")
    for name in hidden(frames[-1]["events"], frames[-1]["observation"]):
        assert not shows(name, final)
    assert checked > 0
    assert "Graveyard" in final and "Glory" in final

    # Every step of the replay, as seat 0 and as a spectator saw it, draws with nothing to point at.
    for seat in ("0", "public"):
        drawn = page.evaluate(
            """async (seat) => {
                const { draw } = await import("/draw/fight.js");
                const game = location.pathname.split("/").pop();
                const data = await (await fetch(`/api/games/${game}/replay?seat=${seat}`)).json();
                let pointable = 0;
                data.steps.forEach((step, i) => {
                    const view = {
                        observation: step.observation, text: step.text, seat: data.seat, legal: null,
                        your_turn: false, previous: i ? data.steps[i - 1].observation : null, result: null,
                        seats: [], replay: true,
                    };
                    pointable += draw(view, { act() {} }).querySelectorAll(".pick, .target").length;
                });
                return { steps: data.steps.length, pointable };
            }""",
            seat,
        )
        assert drawn["steps"] == len(replay["steps"]) and drawn["pointable"] == 0
    assert not watched.errors
    page.close()


def test_a_card_with_several_actions_opens_a_menu_of_exactly_those_actions(
    web: Server, browser: Browser, tmp_path: Path
) -> None:
    page = browser.new_page(viewport={"width": 390, "height": 844})
    watched = Watched(page)
    new_game(page, web, "fight", level="easy")
    page.wait_for_function("document.querySelector('#status').textContent === 'Your move.'", timeout=60_000)
    page.wait_for_selector("#board .fight")
    moves = views(watched)[-1]["legal"]["moves"]
    assert moves and all(m["kind"] == "play" for m in moves)
    # A card of the hand picks the Main; the cards it may go with are the targets, one action each.
    main = page.query_selector("#board .hand .pick")
    assert main is not None
    name = main.eval_on_selector(".name", "e => e.innerText")
    main.click()
    targets = page.query_selector_all("#board .hand .target")
    assert {t.eval_on_selector(".name", "e => e.innerText") for t in targets} == {
        m["boost"] for m in moves if m["main"] == name
    }
    page.screenshot(path=str(tmp_path / "fight-phone-pick.png"), full_page=True)
    targets[0].click()
    # The Boost's fate: the face-down Boost is pointed at, and its menu holds exactly the legal actions.
    page.wait_for_selector("#board .seat .card.pick", timeout=60_000)
    page.wait_for_function("document.querySelector('#status').textContent === 'Your move.'")
    legal = views(watched)[-1]["legal"]
    assert {"kind": "score"} in legal["moves"] and len(legal["moves"]) >= 2
    page.click("#board .seat .card.pick")
    items = page.query_selector_all(".menu button[data-action]")
    # Each item shows its action's notation, one item for each legal action.
    assert {i.get_attribute("data-action") for i in items} == set(legal["actions"])
    assert all((i.get_attribute("data-action") or "?") in i.inner_text() for i in items)
    page.screenshot(path=str(tmp_path / "fight-phone-menu.png"), full_page=True)
    page.click(".menu button[data-action=score]")
    page.wait_for_function("!document.querySelector('#board .seat .card.pick')")
    assert not watched.errors
    page.close()


def test_the_moves_pointed_at_are_the_moves_the_server_records(web: Server, browser: Browser) -> None:
    """The page plays the structured moves it read: the Main and Boost clicked, then the Boost's fate."""
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    watched = Watched(page)
    new_game(page, web, "fight", level="easy")
    mine = "document.querySelector('#status').textContent === 'Your move.'"
    page.wait_for_function(mine, timeout=60_000)
    legal = views(watched)[-1]["legal"]
    main = page.query_selector("#board .hand .pick")
    assert main is not None
    name = main.eval_on_selector(".name", "e => e.innerText")
    main.click()
    boost = page.query_selector_all("#board .hand .target")[-1]
    play = {"kind": "play", "main": name, "boost": boost.eval_on_selector(".name", "e => e.innerText")}
    # What the server must record: the notation at the index of the structured move clicked.
    expected = [legal["actions"][legal["moves"].index(play)]]
    boost.click()
    page.wait_for_selector("#board .seat .card.pick", timeout=60_000)
    page.wait_for_function(mine)
    page.click("#board .seat .card.pick")
    fates = page.query_selector_all(".menu button[data-action]")
    assert len(fates) >= 2
    expected.append(fates[-1].get_attribute("data-action") or "?")
    fates[-1].click()
    page.wait_for_function("!document.querySelector('#board .seat .card.pick')")
    # A seat's view lists the events of its own seat that the server recorded, in notation.
    deadline = time.monotonic() + 30
    while (
        len(recorded := [e["action"] for e in views(watched)[-1]["last"]]) < 2 and time.monotonic() < deadline
    ):
        page.wait_for_timeout(100)
    assert recorded == expected
    assert not watched.errors
    page.close()
