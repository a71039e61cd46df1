"""Custom content from the home page: a Robo Battle Pigs board and Tank Chess tank types pasted
as documents, FITE's power names."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Browser

from test_server import Server
from web_support import Watched, browser, needs_chromium, screenshot, status, web  # noqa: F401

pytestmark = needs_chromium

CORRIDOR = """size = [6, 5]
walls = ["c2", "c3", "d3"]
a = "a5S"
b = "f1N"
"""


def test_a_pasted_board_is_played_and_drawn_with_its_walls(
    web: Server,  # noqa: F811
    browser: Browser,  # noqa: F811
    tmp_path: Path,
) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    watched = Watched(page)
    page.goto(web.url + "/")
    # FITE's powers are text with the standard six suggested (a powers document may name others).
    page.select_option("#game", "fite")
    page.click("#options-box summary")
    suggested = page.eval_on_selector_all("#option-power_a-values option", "els => els.map(e => e.value)")
    assert suggested == ["none", "swift", "cunning", "aggressive", "brutal", "fast", "tough"]
    assert page.input_value("#option-power_a") == "none"
    page.select_option("#game", "robo-pigs")
    page.check("input[value=computer]")
    page.select_option("#option-board", "*custom")
    page.fill("#option-board-text", CORRIDOR)
    page.click("button[type=submit]")
    page.wait_for_url("**/play/**")
    page.wait_for_function("document.querySelector('#status').textContent")
    page.wait_for_selector(".rp rect[data-square]")
    assert page.locator(".rp rect[data-square]").count() == 6 * 5
    walls = page.eval_on_selector_all(".rp rect[data-wall]", "els => els.map(e => e.dataset.square)")
    assert sorted(walls) == ["c2", "c3", "d3"]
    assert page.get_attribute(".rp g[data-square='a5']", "data-facing") == "S"
    assert status(page) == "Your move."
    shot = screenshot(page, "robo-pigs-custom-board", tmp_path)
    assert shot.exists()
    assert watched.errors == []


#: Tank Chess tank types: Heavies as fast as Lights and armoured V in front, a fixed gun.
FAST_HEAVIES = """[H] # Heavy
speed = 5
armour = [5, 2, 1]
turret = false
"""


def test_pasted_tank_types_are_played_and_shown_on_the_tanks(
    web: Server,  # noqa: F811
    browser: Browser,  # noqa: F811
) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    watched = Watched(page)
    page.goto(web.url + "/")
    page.select_option("#game", "tank-chess")
    page.check("input[value=computer]")
    page.click("#options-box summary")
    offered = page.eval_on_selector_all("#option-tanks option", "os => os.map(o => o.value)")
    assert "standard" in offered
    page.select_option("#option-tanks", "*custom")
    page.fill("#option-tanks-text", FAST_HEAVIES)
    page.click("button[type=submit]")
    page.wait_for_url("**/play/**")
    page.wait_for_selector("#board svg.tank-chess .tc-tank")
    page.hover("#board .tc-tank[data-square=c1]")
    page.wait_for_selector("#board .tc-fire[data-tank=c1]")
    details = page.text_content("#board .tc-info") or ""
    assert "speed 5" in details and "armour front V, side II, rear I" in details, details
    # A fixed gun: one line of fire, straight ahead (the rules' Heavy has three).
    directions = page.eval_on_selector_all(
        "#board .tc-fire[data-tank=c1] .tc-fire-square",
        "els => [...new Set(els.map(e => e.dataset.direction))]",
    )
    assert directions == ["N"]
    assert watched.errors == []
