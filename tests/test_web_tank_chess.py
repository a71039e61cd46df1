"""Tank Chess in the browser: a game played by pointing only, lines of fire on hover, both boards."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page

from test_server import Server
from web_support import Watched, needs_chromium, new_game, play_until_over, screenshot, status

pytestmark = needs_chromium


def views(watched: Watched) -> list[dict[str, Any]]:
    frames = [json.loads(f) for f in watched.frames if f.startswith("{")]
    return [f for f in frames if f.get("type") == "view"]


def wait_for_views(watched: Watched, count: int, limit_s: float = 60) -> None:
    """Wait until the page has received more than ``count`` views."""
    deadline = time.monotonic() + limit_s
    while len(views(watched)) <= count:
        assert time.monotonic() < deadline, "no new view came"
        watched.page.wait_for_timeout(50)


def menu_moves(page: Page) -> list[dict[str, Any]]:
    """The structured forms of the turns the open menu offers, in its order (each button's data-action)."""
    return [
        json.loads(b.get_attribute("data-action") or "")
        for b in page.query_selector_all(".menu button[data-action]")
    ]


def seat_page(
    browser: Browser, web: Server, *, size: int = 16, seat: int = 0, setup: str = "", **page_args: Any
) -> tuple[Page, Watched]:
    """A game between two people, made by the API, shown to one of its seats."""
    options = {"size": str(size), "setup": setup} if setup else {"size": str(size)}
    made = {"game": "tank-chess", "options": options, "seats": [{"kind": "person"}] * 2}
    created = web.post("/api/games", made)[1]
    token = next(s["token"] for s in created["seats"] if s["seat"] == seat)
    page = browser.new_page(**page_args)
    watched = Watched(page)
    page.goto(f"{web.url}/play/{created['id']}#{token}")
    page.wait_for_selector("#board svg.tank-chess")
    return page, watched


def test_a_whole_game_against_the_computer_played_by_pointing(
    web: Server, browser: Browser, tmp_path: Path
) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    watched = Watched(page)
    new_game(page, web, "tank-chess", level="easy", options={"ply_limit": "20"})
    rng = random.Random(5)
    moves: list[int] = []
    shot: list[Path] = []

    def move(page: Page) -> None:
        page.wait_for_selector("#board svg.tank-chess .pick")
        before = len(views(watched))
        obs = views(watched)[-1]["observation"]
        if not shot and obs["ply"] >= 6:
            # The picture README shows: a board in play, one tank's lines of fire shown.
            mine = [t for t in obs["tanks"] if t["side"] == "white"]
            best = max(mine, key=lambda t: (sum(len(line["hits"]) for line in t["fire"]), t["type"] == "H"))
            page.hover(f"#board .tc-tank[data-square={best['square']}]")
            page.wait_for_selector(f"#board .tc-fire[data-tank={best['square']}]")
            page.wait_for_timeout(500)  # the last move's slide is over
            shot.append(screenshot(page, "tank-chess", tmp_path))
        picks = page.query_selector_all("#board .pick")
        rng.choice(picks).click()
        targets = page.query_selector_all("#board .target")
        assert targets, "a tank picked, and nowhere to go"
        shots = [t for t in targets if t.get_attribute("data-victim")]
        (shots[0] if shots else rng.choice(targets)).click()
        items = page.query_selector_all(".menu button[data-action]")
        if items:
            rng.choice(items).click()
        moves.append(obs["ply"])
        wait_for_views(watched, before)

    play_until_over(page, move, limit_s=300)
    assert status(page).startswith("Game over")
    assert not watched.errors, watched.errors
    assert shot and len(moves) >= 3
    frames = views(watched)
    assert frames and all(v["seat"] == 0 for v in frames)
    # The finished game: nothing to point at, the last board still drawn.
    assert page.query_selector_all("#board .pick") == [] and page.query_selector("#board svg.tank-chess")

    # A spectator's page draws the board without anything to point at.
    game = page.url.split("#")[0].rstrip("/").split("/")[-1]
    page.goto(f"{web.url}/play/{game}")
    page.wait_for_selector("#board svg.tank-chess .tc-tank")
    assert page.query_selector_all("#board .pick, #board .target") == []
    assert not watched.errors, watched.errors
    page.close()


def test_hovering_a_tank_shows_its_lines_of_fire_and_picking_one_shows_its_turns(
    web: Server, browser: Browser
) -> None:
    page, watched = seat_page(browser, web)
    page.wait_for_selector("#board svg.tank-chess .pick")
    obs = views(watched)[-1]["observation"]
    heavy = next(t for t in obs["tanks"] if t["square"] == "c1")
    expected = {name for line in heavy["fire"] for name in line["squares"]}
    assert {"c2", "b2", "d2"} <= expected

    tank = page.locator('#board [aria-label="White Heavy tank on c1, facing N"]')
    assert tank.get_attribute("class") is not None and "pick" in (tank.get_attribute("class") or "")
    assert page.query_selector_all("#board .tc-fire-square") == []
    tank.hover()
    fire = page.locator("#board .tc-fire[data-tank=c1] .tc-fire-square")
    fire.first.wait_for()
    shown = {fire.nth(i).get_attribute("data-square") for i in range(fire.count())}
    assert shown == expected
    assert "armour front III, side II, rear I" in (page.text_content("#board .tc-info") or "")
    # An enemy tank shows its lines too; moving away clears them.
    page.hover("#board .tc-tank[data-square=i16]")
    page.wait_for_selector("#board .tc-fire[data-tank=i16] .tc-fire-square[data-square=i15]")
    page.mouse.move(1, 1)
    page.wait_for_function("document.querySelectorAll('#board .tc-fire-square').length === 0")

    # Picking the Heavy highlights its turns; turning in place offers the facings in words.
    tank.click()
    targets = page.locator("#board .target")
    assert targets.count() >= 5
    page.click("#board .target[data-square=c1]")
    labels = page.locator(".menu button[data-action]").all_text_contents()
    assert "turn to face NE" in labels and "turn to face NW" in labels
    page.keyboard.press("Escape")
    page.click("#board .target[data-square=c2]")
    page.wait_for_selector(".menu")
    labels = page.locator(".menu button[data-action]").all_text_contents()
    assert "drive to c2, face N" in labels
    # Each item names its turn's structured form, one of the server's legal moves.
    legal = views(watched)[-1]["legal"]
    offered = menu_moves(page)
    assert offered and all(move in legal["moves"] for move in offered)
    forward = {"kind": "move", "tank": "H", "from": "c1", "to": "c2", "facing": "N", "target": None}
    page.locator(".menu button[data-action]").nth(offered.index(forward)).click()
    page.wait_for_selector("#board .tc-tank[data-square=c2][data-facing=N]")
    assert page.query_selector_all("#board .pick") == []  # Black's turn now
    assert page.query_selector_all("#board .tc-last rect") and page.query_selector("#board .tc-arrow line")
    assert not watched.errors, watched.errors
    page.close()


def test_the_20x20_board_draws_for_black_turned_round_and_on_a_phone(
    web: Server, browser: Browser, tmp_path: Path
) -> None:
    page, watched = seat_page(browser, web, size=20, seat=1, viewport={"width": 390, "height": 844})
    page.wait_for_selector("#board svg.tank-chess[data-size='20']")
    assert page.locator("#board .tc-squares rect[data-square]").count() == 400
    assert page.locator("#board .tc-tank").count() == 28
    assert page.locator("#board .tc-obstacle").count() == 76
    assert page.locator("#board .tc-tank[data-type=R]").count() == 4
    assert page.locator("#board .tc-tank[data-type=D]").count() == 4
    assert page.query_selector_all("#board .pick") == []  # White moves first
    # Black's seat sees its own tanks at the bottom: j20 below j1.
    white = page.locator("#board .tc-tank[data-square=j1]").bounding_box()
    black = page.locator("#board .tc-tank[data-square=k20]").bounding_box()
    assert white and black and black["y"] > white["y"]
    # On a phone the board keeps squares a finger can hit: larger than the screen, it scrolls in
    # its own box, which (and the page) stays within the screen's width.
    drawing = page.locator("#board svg.tank-chess").bounding_box()
    frame = page.locator("#board .board-scroll").bounding_box()
    assert drawing and drawing["width"] / 20 >= 34
    assert frame and frame["width"] <= 390 and page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path=str(tmp_path / "tank-chess-20-phone.png"), full_page=True)
    assert not watched.errors, watched.errors
    page.close()


def test_a_shot_chosen_by_pointing_is_the_turn_the_server_records(web: Server, browser: Browser) -> None:
    # The Heavy on c1 destroys the Light on g5 from c1, d2 or e3, facing one way or another:
    # the page must read the structured forms to offer those, and plays the one chosen.
    page, watched = seat_page(browser, web, setup="obstacles=- white=Hc1N,Ca1N black=Lg5S,Cp16S")
    page.wait_for_selector("#board svg.tank-chess .pick")
    legal = views(watched)[-1]["legal"]
    shots = [
        i
        for i, move in enumerate(legal["moves"])
        if move["kind"] == "move" and move["from"] == "c1" and move["target"] == "g5"
    ]
    assert len(shots) >= 2
    page.click("#board .tc-tank[data-square=c1]")
    page.click("#board .target[data-victim=g5]")
    offered = menu_moves(page)
    assert sorted(legal["moves"].index(move) for move in offered) == shots
    played = offered[-1]
    before = len(views(watched))
    page.locator(".menu button[data-action]").nth(len(offered) - 1).click()
    wait_for_views(watched, before)
    view = views(watched)[-1]
    last = view["observation"]["last_move"]
    assert (last["type"], last["from"], last["to"], last["facing"]) == (
        "H",
        "c1",
        played["to"],
        played["facing"],
    )
    assert last["destroyed"] == {"square": played["target"], "side": "black", "type": "L"}
    # The server recorded that very turn: its notation is the one listed beside its structured form.
    notation = legal["actions"][legal["moves"].index(played)]
    assert view["last"][-1] == {"number": 0, "player": 0, "action": notation}
    page.wait_for_selector("#board .tc-wreck[data-square=g5]")
    page.wait_for_selector(f"#board .tc-tank[data-square={played['to']}][data-facing={played['facing']}]")
    assert page.query_selector("#board .tc-shot")  # the last move's shot is drawn from its structured form
    assert not watched.errors, watched.errors
    page.close()
