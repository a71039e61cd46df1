"""Document options on the home page: a Tank Chess layout pasted, a Fight! deck read from a file.

The page offers the names the server has, or "custom": a text box to paste the
document into and a file picker whose file the browser reads into the box. The
request carries the text; the game's page then shows that layout, or deals and
plays that deck.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page

from test_server import Server
from test_server_documents import fight_deck
from tussle import load_game
from web_support import Watched, needs_chromium, play_until_over, screenshot, status

pytestmark = needs_chromium

#: A layout of few tanks, nothing like the basic setup.
LAYOUT = "# a skirmish\nobstacles=h8,i8,h9,i9\nwhite=Ch1N,Lc3N,Hm1NE\nblack=Ci16S,Ld14S,Mk12SW\n"
CUSTOM = "*custom"


def views(watched: Watched) -> list[dict[str, Any]]:
    frames = [json.loads(f) for f in watched.frames if f.startswith("{")]
    return [f for f in frames if f.get("type") == "view"]


def home_with_options(page: Page, web: Server, game: str) -> None:
    page.goto(web.url + "/")
    page.select_option("#game", game)
    page.check("input[value=computer]")
    page.select_option("#level", "easy")
    page.click("#options-box summary")


def test_a_tank_chess_game_on_a_pasted_layout(web: Server, browser: Browser, tmp_path: Path) -> None:
    page = browser.new_page(viewport={"width": 1000, "height": 1100})
    watched = Watched(page)
    home_with_options(page, web, "tank-chess")
    offered = page.eval_on_selector_all("#option-setup option", "os => os.map(o => o.value)")
    assert offered == ["", "basic", CUSTOM]
    assert page.is_hidden("#option-setup-text") and page.is_hidden("#option-setup-file")
    page.select_option("#option-setup", CUSTOM)
    assert page.is_visible("#option-setup-text") and page.is_visible("#option-setup-file")
    # Custom and nothing given: the form asks for it before anything is sent.
    page.click("button[type=submit]")
    assert page.eval_on_selector("#option-setup-text", "e => e.validationMessage")
    assert "/play/" not in page.url
    # Too long for any document: said on the page, nothing sent; a paste is never cut short.
    page.fill("#option-setup-text", "#" * 70_000)
    page.click("button[type=submit]")
    page.wait_for_selector("#created:not(:empty)")
    assert "too long: 70,000 characters, at most 65,536" in (page.text_content("#created") or "")
    assert "/play/" not in page.url
    page.fill("#option-setup-text", LAYOUT)
    screenshot(page, "home-custom-layout", tmp_path)
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    serious = [v for v in results.response["violations"] if v.get("impact") in ("serious", "critical")]
    assert not serious, results.generate_report()
    page.click("button[type=submit]")
    page.wait_for_url("**/play/**")
    page.wait_for_selector("#board svg.tank-chess .tc-tank")
    expected = load_game("tank-chess", setup=LAYOUT).new_initial_state().observation(0)
    shown = page.eval_on_selector_all("#board .tc-tank", "ts => ts.map(t => t.dataset.square)")
    assert sorted(shown) == sorted(t["square"] for t in expected["tanks"]) and len(shown) == 6
    first = views(watched)[0]["observation"]
    assert first["tanks"] == expected["tanks"] and first["obstacles"] == expected["obstacles"]
    assert not watched.errors
    page.close()


def test_a_fight_game_with_a_deck_from_a_file(web: Server, browser: Browser, tmp_path: Path) -> None:
    deck = tmp_path / "zork.toml"
    deck.write_text(fight_deck(), encoding="utf-8")
    page = browser.new_page(viewport={"width": 1000, "height": 1100})
    watched = Watched(page)
    home_with_options(page, web, "fight")
    page.select_option("#option-deck", CUSTOM)
    page.set_input_files("#option-deck-file", str(deck))
    page.wait_for_function("document.querySelector('#option-deck-text').value.length > 0")
    assert page.input_value("#option-deck-text") == fight_deck()
    screenshot(page, "home-custom-deck", tmp_path)
    # A file too large for any deck is refused where it is chosen, and the text stays.
    big = tmp_path / "big.toml"
    big.write_text("#" * 300_000, encoding="utf-8")
    page.set_input_files("#option-deck-file", str(big))
    page.wait_for_selector("#created:not(:empty)")
    assert "too large" in (page.text_content("#created") or "")
    assert page.input_value("#option-deck-text") == fight_deck()
    page.click("button[type=submit]")
    page.wait_for_url("**/play/**")
    rng = random.Random(3)
    hands: set[str] = set()

    def move(page: Page) -> None:
        page.wait_for_selector("#board .fight")
        mine = views(watched)[-1]["observation"]["seats"][0]
        hands.update(card["name"] for card in mine["hand"])
        things = page.query_selector_all("#board .target, #board .pick")
        rng.choice(things).click()
        page.wait_for_timeout(30)
        items = page.query_selector_all(".menu button[data-action]")
        if items:
            rng.choice(items).click()

    play_until_over(page, move, limit_s=240)
    assert status(page).startswith("Game over")
    assert hands and all(name.startswith("Zork") for name in hands), hands
    assert "Zork" in (page.text_content("#board") or "")
    assert not watched.errors
    page.close()
