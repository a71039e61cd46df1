"""What the browser tests share: a server, Debian's Chromium driven by Playwright, and helpers.

Debian's Chromium is used (Playwright cannot download its own here): the one
found on the path, or the one ``TUSSLE_CHROMIUM`` names. `.ci/run` installs it,
so CI always runs these tests; without one they are skipped with the reason said.
With ``TUSSLE_SCREENSHOTS=docs/images`` the tests also write the screenshots
that README.md and docs/web.md show.
"""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page

from test_server import Server

CHROMIUM = os.environ.get("TUSSLE_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
needs_chromium = pytest.mark.skipif(CHROMIUM is None, reason="no Chromium found (apt-get install chromium)")


@pytest.fixture(scope="module")
def web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    # Every file a page loads is a request (about ten for a game page), and these tests open pages
    # one after the other, several browsers at once, far faster than people click: the default
    # rate, 20 a second, would refuse some of them.
    server = Server(
        f"sqlite:///{tmp_path_factory.mktemp('web') / 'web.db'}", "--limit", "requests_per_second=200"
    )
    yield server
    server.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield chromium
        chromium.close()


def host_page(page: Page, server: Server) -> None:
    """The home page, as a host for drawing views, once its own start is over.

    Its start fills the page from answers it waits for (the catalog, the account); a view drawn
    before they came would take the elements they fill (a page error in a loaded CI run).
    """
    page.goto(server.url + "/", wait_until="networkidle")
    page.wait_for_function("document.querySelectorAll('#game option').length > 0")


class Watched:
    """A page with what it received over WebSockets and what went wrong in its scripts."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.frames: list[str] = []
        self.errors: list[str] = []
        page.on("websocket", lambda ws: ws.on("framereceived", lambda data: self.frames.append(str(data))))
        page.on("pageerror", lambda error: self.errors.append(str(error)))


def new_game(
    page: Page,
    web: Server,
    game: str,
    *,
    opponent: str = "computer",
    level: str = "easy",
    options: dict[str, str] | None = None,
    keep_form: bool = False,
    players: int | None = None,
) -> None:
    """Make a game from the home page, as a person would: pick the game, the opponent, options; Play.

    With ``keep_form``, the home page is already open with other choices made (a clock, say).
    A game at one screen (``hotseat``) opens covered: this returns once the cover shows.
    """
    if not keep_form:
        page.goto(web.url + "/")
    page.select_option("#game", game)
    if players is not None:
        page.select_option("#player-count", str(players))
    page.check(f"input[value={opponent}]")
    if opponent == "computer":
        page.select_option("#level", level)
    if options:
        page.click("#options-box summary")
        for name, value in options.items():
            page.fill(f"#option-{name}", value)
    page.click("button[type=submit]")
    page.wait_for_url("**/play/**")
    page.wait_for_function(
        "document.querySelector('#status').textContent || !document.querySelector('#pass').hidden"
    )


def invitation(host: Page) -> str:
    """The invitation link a friend game's page shows its maker (the first, if it has several)."""
    host.wait_for_selector("input.invite")
    return host.input_value("input.invite")


def accept(friend: Page, link: str, name: str = "") -> None:
    """Open an invitation link: the page takes the seat, and its address becomes the seat's own.

    A browser that keeps no name is asked for one first: ``name`` (empty: none, the server names the seat).
    """
    friend.goto(link)
    friend.wait_for_function(
        "(location.hash.length > 1 && !location.hash.startsWith('#invite='))"
        " || !!document.querySelector('#name-form')"
    )
    if friend.locator("#name-form").count():
        friend.fill("#invite-name", name)
        friend.click("#name-form button[type=submit]")
    friend.wait_for_function("location.hash.length > 1 && !location.hash.startsWith('#invite=')")
    friend.wait_for_selector("#status:not(:empty)")


def status(page: Page) -> str:
    return page.text_content("#status") or ""


def play_until_over(page: Page, move: Callable[[Page], object], limit_s: float = 240) -> None:
    """Call ``move(page)`` whenever it is the page's turn until the game is over (a deadline, not a count)."""
    deadline = time.monotonic() + limit_s
    while time.monotonic() < deadline:
        text = status(page)
        if text.startswith("Game over"):
            return
        if text == "Your move.":
            move(page)
            page.wait_for_timeout(100)
        else:
            page.wait_for_timeout(100)
    raise AssertionError(f"the game did not end in {limit_s:g} s; the page says {status(page)!r}")


def screenshot(page: Page, name: str, tmp_path: Path) -> Path:
    """A screenshot of the page; a copy into ``$TUSSLE_SCREENSHOTS`` when that is set."""
    shot = tmp_path / f"{name}.png"
    page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 10_000
    folder = os.environ.get("TUSSLE_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        shutil.copy(shot, Path(folder) / f"{name}.png")
    return shot
