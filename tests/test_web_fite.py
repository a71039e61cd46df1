"""FITE's drawing in the browser (src/tussle/games/fite/web.js), in a real Chromium."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page

from test_server import Server
from tussle.game import CHANCE
from tussle.games.fite.rules import Fite, cancelled
from web_support import Watched, host_page, needs_chromium, new_game, play_until_over, screenshot, status

pytestmark = needs_chromium


def views(frames: list[str]) -> list[dict[str, Any]]:
    return [v for v in (json.loads(f) for f in frames if f.startswith("{")) if v.get("type") == "view"]


def point_somewhere(page: Page, rng: random.Random) -> None:
    """Point at one of the drawing's targets, and at one of the menu's actions if a menu opens."""
    targets = page.locator("#board .target")
    count = targets.count()
    if not count:
        return
    targets.nth(rng.randrange(count)).click()
    menu = page.locator(".menu button[data-action]")
    if menu.count():
        menu.nth(rng.randrange(menu.count())).click()


def test_a_whole_game_against_the_computer_played_by_pointing(
    web: Server, browser: Browser, tmp_path: Path
) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    watched = Watched(page)
    new_game(page, web, "fite", options={"turn_limit": "12"})
    rng = random.Random(5)
    shots: list[Path] = []

    def move(page: Page) -> None:
        # The README's picture: a placement with the last fight below it, its cancellation and hits drawn.
        if (
            not shots
            and page.locator(".last-fight .cancel-line").count()
            and page.locator(".last-fight .hit").count()
        ):
            shots.append(screenshot(page, "fite", tmp_path))
        point_somewhere(page, rng)

    play_until_over(page, move, limit_s=300)
    assert status(page).startswith("Game over")
    if not shots:
        shots.append(screenshot(page, "fite", tmp_path))
    assert not watched.errors
    # What the page got over its WebSocket were views of seat 0 only: never the computer's observation.
    got = views(watched.frames)
    assert got and all(v["seat"] == 0 for v in got)
    page.close()


def test_the_split_is_chosen_by_pointing_between_the_dice(
    web: Server, browser: Browser, tmp_path: Path
) -> None:
    page = browser.new_page(viewport={"width": 390, "height": 844})
    watched = Watched(page)
    new_game(page, web, "fite")
    # SETUP and turn 1's placement, at the defensive location (no tactical choice of ours follows).
    for _ in range(2):
        page.wait_for_selector('#board .target[data-target*="(def 3)"]')
        page.click('#board .target[data-target*="(def 3)"]')
        page.wait_for_timeout(200)
    handle = '#board .target[data-target="5 offense / 4 defense"]'
    page.wait_for_selector(handle)
    assert page.locator("#board .split-handle").count() == 8  # 1/8 .. 8/1
    page.hover(handle)
    page.screenshot(path=str(tmp_path / "fite-split-phone.png"), full_page=True)
    page.click(handle)
    # Our split, shown as chosen (secret), then in the fight or in the last fight: 5 offense, 4 defense.
    page.wait_for_function(
        "document.querySelector('#board .chosen') || document.querySelector('#board .pool-die.fighter-A')"
    )
    board = page.locator("#board")
    if board.locator(".chosen").count():
        assert board.locator(".chosen.off").count() == 5 and board.locator(".chosen.def").count() == 4
        page.wait_for_selector("#board .pool-die.fighter-A")
    fight = board.locator(".this-fight, .last-fight").first
    assert fight.locator(".pool-die.off.fighter-A").count() == 5
    assert fight.locator(".pool-die.def.fighter-A").count() == 4
    splits = [
        (v["observation"].get("fight") or v["observation"].get("last_fight") or {}).get("split")
        for v in views(watched.frames)
    ]
    assert any(s and s[0] == [5, 4] for s in splits)
    assert not watched.errors
    page.close()


def sent_moves(frames: list[str]) -> list[dict[str, Any]]:
    """The structured actions a page sent over its WebSocket."""
    sent = [json.loads(f) for f in frames if f.startswith("{")]
    return [m["move"] for m in sent if m.get("type") == "action" and "move" in m]


def test_a_die_pointed_at_plays_its_structured_tactical_choice(
    web: Server, browser: Browser, tmp_path: Path
) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    watched = Watched(page)
    sent: list[str] = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda data: sent.append(str(data))))
    new_game(page, web, "fite")
    # SETUP and turn 1's placement at the tactical location, then a split: the tactical step is ours.
    for _ in range(2):
        page.wait_for_selector('#board .target[data-target*="(tac 5)"]')
        page.click('#board .target[data-target*="(tac 5)"]')
        page.wait_for_timeout(200)
    page.click('#board .target[data-target="4 offense / 5 defense"]')
    die = "#board .this-fight .pool-die.fighter-A.target"
    page.wait_for_selector(die)
    offered = [
        v["legal"]
        for v in views(watched.frames)
        if v["your_turn"] and v["observation"]["phase"] == "tactical"
    ][-1]
    # What the page sent for the placements and the split: the structured forms the server listed.
    placement = {"kind": "place", "location": "tac", "face": 5}
    assert sent_moves(sent) == [placement, placement, {"kind": "split", "off": 4, "def": 5, "power": None}]
    page.click(die)
    menu = page.locator(".menu button[data-action]")
    if menu.count():  # the die alone, and with another: moved, or turned over
        screenshot(page, "fite-tactical", tmp_path)
        menu.first.click()
    page.wait_for_function("document.querySelector('#board .last-fight')")
    chosen = sent_moves(sent)[-1]
    assert chosen["kind"] in ("move", "turn") and chosen in offered["moves"]
    # The server recorded the very action that the structured form names, in its notation.
    text = offered["actions"][offered["moves"].index(chosen)]
    recorded = [e["action"] for v in views(watched.frames) for e in v["last"] if e["player"] == 0]
    assert text in recorded
    fights = [v["observation"]["last_fight"] for v in views(watched.frames) if v["observation"]["last_fight"]]
    assert fights[-1]["tactical"]["choices"][0] == text
    assert not watched.errors
    page.close()


def a_known_fight() -> dict[str, Any]:
    """The rule text's example rolls, with A at the offensive and B at the defensive location (+1 each)."""
    state = Fite().new_initial_state()
    for player, text in [
        (0, "tac 5"), (1, "tac 5"), (0, "off 1"), (1, "def 3"), (0, "5/4"), (1, "3/6"),
        (CHANCE, "A off 6,5,4,2,2"), (CHANCE, "A def 5,3,1,1"),
        (CHANCE, "B off 5,4,2"), (CHANCE, "B def 6,6,3,2,1,1"),
    ]:  # fmt: skip
        state.apply_str(player, text)
    observation: dict[str, Any] = dict(state.observation(0))
    assert observation["phase"] == "place" and observation["last_fight"]["turn"] == 1
    return observation


def test_the_cancellation_drawn_is_the_rules_one(web: Server, browser: Browser, tmp_path: Path) -> None:
    observation = a_known_fight()
    fight = observation["last_fight"]
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    watched = Watched(page)
    host_page(page, web)
    page.evaluate(
        """async (observation) => {
          const module = await import('/draw/fite.js');
          const view = {observation, text: '', seat: 0, legal: null, your_turn: false, previous: null,
                        result: null, replay: true};
          document.body.replaceChildren(module.draw(view, {act() { throw new Error('a replay acts'); }}));
        }""",
        observation,
    )
    assert page.locator(".target").count() == 0  # a replay: nothing to point at
    exchanges = page.locator(".last-fight svg.fite-exchange")
    assert exchanges.count() == 2
    for attacker in (0, 1):
        defender = 1 - attacker
        drawn = exchanges.nth(attacker)
        attack = fight["values"][attacker]["off"]
        defence = fight["values"][defender]["def"]
        lines = drawn.locator(".cancel-line")
        pairs = [
            (
                int(lines.nth(i).get_attribute("data-def") or -1),
                int(lines.nth(i).get_attribute("data-off") or -1),
            )
            for i in range(lines.count())
        ]
        # As many lines as the rules cancel, each from a defense die to an attacking die of at most its value.
        assert len(pairs) == cancelled(attack, defence) == fight["cancelled"][defender]
        assert all(attack[o] <= defence[d] for d, o in pairs)
        assert len({d for d, _ in pairs}) == len({o for _, o in pairs}) == len(pairs)
        assert drawn.locator(".pool-die.off.hit").count() == fight["hits"][defender]
        assert drawn.locator(".pool-die.off.cancelled").count() == fight["cancelled"][defender]
        faces = [
            int(f) for f in drawn.locator(".pool-die.off").evaluate_all("ds => ds.map(d => d.dataset.face)")
        ]
        assert faces == fight["pools"][attacker]["off"]
        # Each line stands between the two dice it joins: a cancelled die right above its canceller.
        for i in range(lines.count()):
            line = lines.nth(i)
            d, o = pairs[i]
            top = drawn.locator(".pool-die.off").nth(o).bounding_box()
            bottom = drawn.locator(".pool-die.def").nth(d).bounding_box()
            box = line.bounding_box()
            assert top and bottom and box
            assert abs((top["x"] + top["width"] / 2) - (box["x"] + box["width"] / 2)) < 2
            assert abs((bottom["x"] + bottom["width"] / 2) - (box["x"] + box["width"] / 2)) < 2
            assert top["y"] + top["height"] <= box["y"] + 1 and box["y"] + box["height"] <= bottom["y"] + 1
    # Here: B's 7,7,4,3,2,2 (+1) cancel 4 of A's 7,6,5,3,3 (+1); A's 5,3,1,1 cancel 2 of B's 5,4,2.
    assert fight["hits"] == [1, 1]
    outcome = page.text_content(".last-fight .fite-outcome") or ""
    assert "Fighter B lost 1 die (9 → 8)" in outcome and "You (A) lost 1 die (9 → 8)" in outcome
    page.screenshot(path=str(tmp_path / "fite-cancellation.png"), full_page=True)
    page.set_viewport_size({"width": 390, "height": 844})
    page.screenshot(path=str(tmp_path / "fite-cancellation-phone.png"), full_page=True)
    assert not watched.errors
    page.close()
