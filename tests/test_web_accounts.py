"""Accounts, ratings, profiles and leaderboards in Chromium (docs/web.md, "Accounts, ratings and
profiles"): signing up, out and in from the page's header (the session cookie out of the page's
reach), a guest's games claimed on signing in, two accounts in two browsers playing a rated game to
its end and both pages saying the ratings the server gives, the profile's plot, games and archive,
the leaderboard, a bot marked in a rated game, and every signed-in change sent with the CSRF header
(making, joining, seeking, a rematch, an uploaded replay)."""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, BrowserContext, Page

from account_support import AccountClient
from test_server import Server
from web_support import Watched, needs_chromium, new_game, screenshot, status

pytestmark = needs_chromium

STATUS = "document.querySelector('#status').textContent"
PASSWORD = "a long enough secret"


def sign_up(page: Page, web: Server, name: str, tmp_path: Path | None = None) -> str:
    """Sign up from the home page's header; answers what the page then says (the claim's line)."""
    if not page.url.startswith(web.url):
        page.goto(web.url + "/")
    page.wait_for_selector("#sign-up")
    page.click("#sign-up")
    page.fill("#account-new-name", name)
    page.fill("#account-email", f"{name.lower()}@example.org")
    page.fill("#account-password", PASSWORD)
    if tmp_path is not None:
        screenshot(page, "sign-up", tmp_path)
    page.click("#account-submit")
    page.wait_for_selector(f"#account-name-link:text-is('{name}')")
    page.wait_for_selector("#account-said:not(:empty)")
    return page.text_content("#account-said") or ""


def session_of(context: BrowserContext) -> dict[str, Any]:
    return next(dict(c) for c in context.cookies() if c["name"] == "tussle_session")


def holds_no_secret(page: Page, secrets: list[str]) -> None:
    """Neither the page's document, its fields, its scripts' cookies nor its storage hold any of them."""
    found = str(
        page.evaluate(
            "JSON.stringify([document.documentElement.outerHTML, document.cookie,"
            " Object.entries(localStorage), Object.entries(sessionStorage),"
            " [...document.querySelectorAll('input, textarea')].map((e) => e.value)])"
        )
    )
    for secret in secrets:
        assert secret not in found


def play_until_resignable(pages: list[Page]) -> None:
    """Each page plays its first legal action whenever it is its move, until both may resign (every
    player has moved: before that, ending the game aborts it, which rates nobody)."""
    for page in pages:
        page.click("#all-legal summary")
    for _ in range(60):
        if all(p.text_content("#end-game") == "Resign" for p in pages):
            return
        for page in pages:
            if status(page) == "Your move." and page.locator("#legal button").count():
                moves = page.locator("#moves li").count()
                page.locator("#legal button").first.click()
                page.wait_for_function(f"document.querySelectorAll('#moves li').length > {moves}")
        pages[0].wait_for_timeout(100)
    raise AssertionError("the game did not reach the point where a player may resign")


def test_accounts_in_the_browser_from_sign_up_to_a_rated_game_its_ratings_profile_and_leaderboard(
    web: Server, browser: Browser, tmp_path: Path
) -> None:
    # Tall enough that the sign-up dialog's backdrop covers the whole home page in its screenshot.
    ann_context = browser.new_context(viewport={"width": 1280, "height": 1500})
    bea_context = browser.new_context()
    try:
        ann, bea = ann_context.new_page(), bea_context.new_page()
        watched = [Watched(ann), Watched(bea)]

        # A guest's game, then a sign-up in the same browser: the game becomes the account's.
        new_game(ann, web, "fite", level="easy")
        guest_game = ann.url.split("/play/")[1].split("#")[0]
        ann.goto(web.url + "/")
        said = sign_up(ann, web, "Ann", tmp_path)
        assert "1 game this browser played as a guest is now your account's" in said, said
        assert ann.get_attribute("#leaderboards a:text-is('FITE')", "href") == "/leaderboard/fite"
        listed = web.get("/api/players/Ann/games")[1]["games"]
        assert [g["id"] for g in listed] == [guest_game]

        # The session is an HttpOnly cookie: the page's scripts never see it, nor the password.
        session = session_of(ann_context)
        assert session["httpOnly"] and session["sameSite"] == "Lax"
        assert "tussle_session" not in str(ann.evaluate("document.cookie"))
        assert "tussle_csrf" in str(ann.evaluate("document.cookie"))
        holds_no_secret(ann, [session["value"], PASSWORD])
        # A signed-in change without the CSRF header is refused: what api.js adds is what lets it through.
        refused = ann.evaluate(
            "fetch('/api/my-games', {method: 'POST', headers: {'content-type': 'application/json'},"
            " body: JSON.stringify({tokens: []})}).then((r) => r.status)"
        )
        assert refused == 403

        # Out, in with a wrong password (one line in the form), in again.
        ann.click("#sign-out")
        ann.wait_for_selector("#sign-in")
        assert ann.is_enabled("#name") and ann.is_hidden("#rated-box")
        ann.click("#sign-in")
        ann.fill("#account-login", "ann")
        ann.fill("#account-password", "not the password")
        ann.click("#account-submit")
        ann.wait_for_selector("#account-error:not(:empty)")
        assert ann.text_content("#account-error") == "wrong name or password"
        ann.fill("#account-password", PASSWORD)
        ann.click("#account-submit")
        ann.wait_for_selector("#account-name-link:text-is('Ann')")
        assert ann.is_visible("#rated-box") and ann.is_disabled("#name")
        assert ann.input_value("#name") == "Ann"
        holds_no_secret(ann, [session_of(ann_context)["value"], PASSWORD])

        # A rated game between two accounts: Ann makes it for the lobby, Bea (signed in) joins it.
        sign_up(bea, web, "Bea")
        ann.goto(web.url + "/")
        ann.wait_for_selector("#rated-box:not([hidden])")
        ann.check("#rated")
        new_game(ann, web, "fite", opponent="lobby", keep_form=True)
        game = ann.url.split("/play/")[1].split("#")[0]
        assert ann.is_visible("#rated-line")
        bea.goto(web.url + "/")
        bea.click(f"#lobby button[data-game='{game}']")
        bea.wait_for_url(f"**/play/{game}#*")
        play_until_resignable([ann, bea])
        ann.once("dialog", lambda dialog: dialog.accept())
        ann.click("#end-game")
        for page in (ann, bea):
            page.wait_for_function(f"{STATUS}.startsWith('Game over')")
            page.wait_for_selector("#rating-changes li[data-player='Bea'] .rating-after")
        # Both pages say the ratings the server now gives, each changed from the start by the rule.
        base = web.get("/api/levels")[1]["scale"]["base"]
        for name, won in (("Ann", False), ("Bea", True)):
            rating = next(r for r in web.get(f"/api/players/{name}")[1]["ratings"] if r["game"] == "fite")
            assert rating["games"] == 1 and (rating["rating"] > base) == won, rating
            for page in (ann, bea):
                line = page.text_content(f"#rating-changes li[data-player='{name}']") or ""
                shown = page.text_content(f"#rating-changes li[data-player='{name}'] .rating-after")
                assert shown == rating["shown"], (line, rating)
                gained = rating["rating"] - round(base)
                sign = "+" if gained >= 0 else "\u2212"
                assert f"{base:g} \u2192" in line and f"({sign}{abs(gained)})" in line

        # Ann's profile: the rating, its plot against the levels, the games, the archive.
        levels = next(g for g in web.get("/api/levels")[1]["games"] if g["game"] == "fite")["levels"]
        ann.goto(f"{web.url}/players/Ann")
        ann.wait_for_selector("#games li[data-game]")
        profile = web.get("/api/players/Ann")[1]
        fite = next(r for r in profile["ratings"] if r["game"] == "fite")
        assert ann.text_content("#ratings tr[data-game='fite'] td.rating") == fite["shown"]
        plot = "svg.plot[data-game='fite']"
        assert ann.locator(f"{plot} .level").count() == len(levels) > 0
        points = ann.get_attribute(f"{plot} .rating-line", "points") or ""
        assert len(points.split()) == 2  # the start and the one rated game
        assert "rated games played" in (ann.text_content(plot) or "")
        row = f"#games li[data-game='{game}']"
        assert ann.get_attribute(f"{row} .replay-link", "href") == f"/replay/{game}"
        assert ann.get_attribute(f"{row} .record-link", "href") == f"/api/games/{game}/record"
        assert ann.locator(f"#games li[data-game='{guest_game}']").count() == 1
        assert ann.get_attribute("#archive", "href") == "/api/players/Ann/archive"
        archive = ann.request.get(web.url + "/api/players/Ann/archive")
        assert archive.ok
        assert any(game in n for n in zipfile.ZipFile(io.BytesIO(archive.body())).namelist())
        assert ann.is_visible("#owner")
        screenshot(ann, "profile", tmp_path)
        # The guest game, still being played, opens in any browser the account signs in from.
        ann.click(f"#games li[data-game='{guest_game}'] .open-seat")
        ann.wait_for_url(f"**/play/{guest_game}#*")
        ann.wait_for_selector("#status:not(:empty)")
        assert "Ann (you)" in (ann.text_content("#players") or "")
        # Lost to the computer: the profile's record against its level says so.
        play_until_resignable([ann])
        ann.once("dialog", lambda dialog: dialog.accept())
        ann.click("#end-game")
        ann.wait_for_function(f"{STATUS}.startsWith('Game over')")
        ann.goto(f"{web.url}/players/Ann")
        ann.wait_for_selector("#record tbody tr")
        cells = ann.eval_on_selector_all(
            "#record tbody tr:first-child > *", "cells => cells.map((c) => c.textContent)"
        )
        assert cells[:2] == ["FITE", "easy"] and cells[3:] == ["0", "0", "1"], cells
        # Bea sees Ann's profile without Ann's tools.
        bea.goto(f"{web.url}/players/Ann")
        bea.wait_for_selector("#games li[data-game]")
        assert bea.is_hidden("#owner")

        # The leaderboard lists both, with the computer levels in their places.
        bea.goto(f"{web.url}/leaderboard/fite")
        bea.wait_for_selector("#board-rows tr[data-player='Ann']")
        names = bea.eval_on_selector_all(
            "#board-rows tr", "rows => rows.map((r) => r.dataset.player || 'level:' + r.dataset.level)"
        )
        assert names.index("Bea") < names.index("Ann")
        assert len([n for n in names if n.startswith("level:")]) == len(levels)
        ratings = bea.eval_on_selector_all(
            "#board-rows td.rating", "cells => cells.map((c) => parseInt(c.textContent))"
        )
        assert ratings == sorted(ratings, reverse=True)
        screenshot(bea, "leaderboard", tmp_path)

        # Every other change a signed-in page sends: a rematch, an uploaded replay, a seek.
        ann.goto(f"{web.url}/play/{game}#{next(e['token'] for e in seats(ann) if e['game'] == game)}")
        ann.wait_for_selector("#after:not([hidden])")
        ann.click("#rematch")
        ann.wait_for_function(f"!location.pathname.endsWith('{game}')")
        record = tmp_path / "record.json"
        record.write_text(json.dumps(web.get(f"/api/games/{game}/record")[1]))
        ann.goto(f"{web.url}/replay")
        ann.set_input_files("#file", str(record))
        ann.wait_for_selector("#viewer:not([hidden])")
        assert not ann.text_content("#error")
        ann.goto(web.url + "/")
        ann.wait_for_selector("#seek-rated-box:not([hidden])")
        ann.select_option("#seek-game", "tank-chess")
        ann.check("#seek-rated")
        ann.click("#seek-button")
        ann.wait_for_url("**/play/**")
        ann.wait_for_function(f"{STATUS}.startsWith('Waiting for a player')")
        assert ann.is_visible("#rated-line")
        for w in watched:
            assert not w.errors, w.errors
    finally:
        ann_context.close()
        bea_context.close()


def serious(page: Page) -> list[Any]:
    """What the automated accessibility check finds serious or critical on the page."""
    from axe_playwright_python.sync_playwright import Axe

    found = Axe().run(page).response["violations"]
    return [v for v in found if v.get("impact") in ("serious", "critical")]


def seats(page: Page) -> list[dict[str, Any]]:
    """The seats the page's browser keeps."""
    return list(json.loads(str(page.evaluate("localStorage.getItem('tussle-seats') || '[]'"))))


def test_a_bot_is_marked_in_a_rated_game_and_the_pages_pass_the_checks_on_a_phone(
    web: Server, browser: Browser, tmp_path: Path
) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        page = context.new_page()
        watched = Watched(page)
        page.goto(web.url + "/")
        page.click("#sign-up")
        page.wait_for_selector("#account-dialog[open]")
        assert not serious(page)
        page.keyboard.press("Escape")
        page.wait_for_selector("#account-dialog", state="hidden")
        sign_up(page, web, "Cleo")
        bot = AccountClient(web.url)
        bot.sign_up("Robo-3", bot=True)
        page.check("#rated")
        new_game(page, web, "tank-chess", opponent="lobby", keep_form=True)
        game = page.url.split("/play/")[1].split("#")[0]
        status_code, joined = bot.post(f"/api/games/{game}/join", {})
        assert status_code == 200, joined
        page.wait_for_selector("#players .badge.bot")
        assert "Robo-3 BOT" in (page.text_content("#players") or "")
        assert page.is_visible("#rated-line")
        with web.seat(game, joined["token"]):  # the bot's program connects: the game begins
            page.wait_for_function(f"{STATUS} === 'Your move.'")
            screenshot(page, "rated-game", tmp_path)
        for path in ("/", "/players/Cleo", "/leaderboard/tank-chess", f"/play/{game}"):
            page.goto(web.url + path)
            page.wait_for_load_state("networkidle")
            page.wait_for_selector("#account-name-link")
            wide = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
            assert wide <= 0, f"{path} is {wide} px wider than a phone"
            found = serious(page)
            assert not found, f"{path}: {found}"
        page.goto(f"{web.url}/players/Cleo")
        page.wait_for_selector("#owner:not([hidden])")
        page.click("#make-token")
        page.wait_for_selector("#token-box:not([hidden])")
        token = page.input_value("#token")
        assert AccountClient(web.url, token=token).get("/api/account")[1]["name"] == "Cleo"
        page.fill("#password-current", "wrong wrong wrong")
        page.fill("#password-new", "another long secret")
        page.fill("#password-again", "another long secret")
        page.click("#password-form button[type=submit]")
        page.wait_for_function("document.querySelector('#password-said').textContent.includes('wrong')")
        assert page.text_content("#password-said") == "the current password is wrong"
        page.fill("#password-current", PASSWORD)
        page.fill("#password-new", "another long secret")
        page.fill("#password-again", "another long secret")
        page.click("#password-form button[type=submit]")
        page.wait_for_function(
            "document.querySelector('#password-said').textContent.startsWith('Password changed')"
        )
        assert all(not page.input_value(f"#password-{box}") for box in ("current", "new", "again"))
        signed_in = AccountClient(web.url)
        signed_in.get("/api/catalog")
        assert (
            signed_in.post("/api/account/signin", {"login": "cleo", "password": "another long secret"})[0]
            == 200
        )
        # A bot's profile says it is one.
        page.goto(f"{web.url}/players/robo-3")
        page.wait_for_selector("#title .badge.bot")
        assert (page.text_content("#title") or "").startswith("Robo-3")
        assert not watched.errors, watched.errors
    finally:
        context.close()
