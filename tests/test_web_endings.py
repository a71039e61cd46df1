"""Ending a game by agreement or absence in Chromium, between two browsers: a draw offered,
declined, offered back and accepted; a game claimed once the opponent's browser is gone."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page

from test_server import Server
from web_support import accept, browser, invitation, needs_chromium, new_game, status

pytestmark = needs_chromium
__all__ = ["browser"]  # the fixture, imported to be used here


@pytest.fixture(scope="module")
def web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    server = Server(
        f"sqlite:///{tmp_path_factory.mktemp('endings') / 'web.db'}",
        "--limit",
        "requests_per_second=200",
        "--claim-after",
        "2",
    )
    yield server
    server.stop()


def game_over(page: Page) -> str:
    page.wait_for_function("document.querySelector('#status').textContent.startsWith('Game over')")
    return status(page)


def test_a_draw_is_offered_declined_offered_back_and_accepted(web: Server, browser: Browser) -> None:
    host = browser.new_page()
    host.on("dialog", lambda dialog: dialog.accept())  # the page asks before it offers
    new_game(host, web, "fite", opponent="friend")
    friend_context = browser.new_context()
    friend = friend_context.new_page()
    friend.on("dialog", lambda dialog: dialog.accept())
    accept(friend, invitation(host))
    host.click("#offer-draw")
    host.wait_for_selector("#draw-offer >> text=You offered a draw")
    friend.wait_for_selector("#accept-draw")
    assert "offers a draw" in (friend.text_content("#draw-offer") or "")
    friend.click("#decline-draw")
    host.wait_for_selector("#offer-draw", state="detached")  # one offer per move: not again yet
    friend.wait_for_selector("#offer-draw")
    friend.click("#offer-draw")
    host.wait_for_selector("#accept-draw")
    host.click("#accept-draw")
    for page in (host, friend):
        assert "agreed to a draw" in game_over(page)
        assert page.is_hidden("#ending")
    friend_context.close()
    host.close()


def test_a_player_claims_the_win_when_the_friend_has_gone(web: Server, browser: Browser) -> None:
    host = browser.new_page()
    new_game(host, web, "tank-chess", opponent="friend")
    friend_context = browser.new_context()
    friend = friend_context.new_page()
    accept(friend, invitation(host))
    host.wait_for_function("document.querySelector('#status').textContent !== ''")
    assert host.is_hidden("#claim-line")
    friend_context.close()  # the friend's browser is gone
    host.wait_for_selector("#claim-line")
    assert "left the game" in (host.text_content("#claim-line") or "")
    host.wait_for_selector("#claim-win", timeout=15_000)  # after the server's 2 s
    host.click("#claim-win")
    assert "claimed the win" in game_over(host)
    host.close()
