"""Secrets stay with their player: games at one screen, private invitations, and the seats a browser keeps.

At one screen (hot seat) a game is one table handle, kept in the browser's storage and never
in its address; the server shows a seat's view only while that seat is to act. After every pass
of the screen these tests search everything the next player can reach, as a person would reach
it, for what the last player did in secret (the exact text that leaked before: Robo Battle
Pigs' "Your program for round 1 is sent", FITE's "You chose", Fight!'s Boost and hand): the
page's DOM, its storage, its address, every WebSocket frame it received since the cover, the
header link, "Your games", the history and a reload. A friend's game is never in the lobby and
takes no seat without its invitation's secret; every seat a browser takes is kept, listed, and
carried to another browser by export and import.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, BrowserContext, Page

from test_server import Server
from web_support import Watched, accept, invitation, needs_chromium, new_game, screenshot, status

pytestmark = needs_chromium


def messages(frames: list[str]) -> list[dict[str, Any]]:
    return [json.loads(f) for f in frames if f.startswith("{")]


def without_legal(message: dict[str, Any]) -> str:
    """A message as text, less its list of legal actions (which names every action the seat could take)."""
    return json.dumps({k: v for k, v in message.items() if k != "legal"})


def game_of(page: Page) -> str:
    return page.url.split("#")[0].rstrip("/").split("/")[-1]


def shows(secret: str, text: str) -> bool:
    """Whether ``secret`` is in ``text`` as a whole word or phrase (a card's name inside another's is not)."""
    return re.search(rf"(?<![\w]){re.escape(secret)}(?![\w])", text) is not None


class Table:
    """A game at one screen in one browser page, passed from player to player."""

    def __init__(self, page: Page, web: Server) -> None:
        self.page = page
        self.web = web
        self.watched = Watched(page)
        self.game = ""
        self.handle = ""
        self.mark = 0  # the frames from here on were received since the screen was last covered
        self.passes = 0

    def opened(self) -> None:
        """The page of a game just made: it holds one table handle, kept in storage alone."""
        self.game = game_of(self.page)
        stored = json.loads(self.page.evaluate("localStorage.getItem('tussle-seats')"))
        assert stored == [{"game": self.game, "table": stored[0]["table"]}]
        self.handle = stored[0]["table"]

    def storage(self) -> str:
        return str(
            self.page.evaluate(
                "JSON.stringify([Object.entries(localStorage), Object.entries(sessionStorage)])"
            )
        )

    def cover_for(self, name: str) -> None:
        self.page.wait_for_function(
            "(name) => { const b = document.querySelector('#pass-go');"
            " return b && b.offsetParent !== null && b.textContent.includes(name); }",
            arg=name,
        )

    def clean(self, secrets: list[str], *, covered: bool, legal: tuple[str, ...] = ()) -> None:
        """Nothing of ``secrets`` in the DOM, the storage, the address, or a frame since the cover.

        Those also in ``legal`` are actions the seat to act may take itself, so its page lists them
        (a FITE placement): they are searched for everywhere but in its DOM.
        """
        page = self.page
        content = page.content()
        for secret in secrets:
            assert secret in legal or not shows(secret, content), f"{secret!r} is on the page"
            assert secret not in self.storage(), f"{secret!r} is in the page's storage"
        assert page.url == f"{self.web.url}/play/{self.game}#table", page.url
        assert self.handle not in content
        since = messages(self.watched.frames[self.mark :])
        for message in since:
            text = without_legal(message)
            for secret in secrets:
                assert not shows(secret, text), f"{secret!r} came in a frame since the cover: {text[:300]}"
        if covered:
            assert all(m["type"] != "view" for m in since), "a view came to a covered table"
            # The cover holds the game's name and who is to act: nothing drawn, listed or typed.
            assert page.is_hidden("#game") and page.locator("#board > *").count() == 0
            assert page.locator("#moves li").count() == 0 and page.input_value("#action") == ""

    def passed(self, to: str, secrets: list[str], *, walk: bool = True) -> None:
        """The screen is covered for ``to``: check it, and every way the page leads back to the game."""
        self.cover_for(to)
        covers = [i for i, f in enumerate(self.watched.frames) if f.startswith('{"type": "cover"')]
        self.mark = covers[-1]
        self.passes += 1
        self.clean(secrets, covered=True)
        if not walk:
            return
        page = self.page
        # The header link, then the one game in "Your games": the cover again, nobody's view.
        page.click("header a")
        page.wait_for_selector("#mine a")
        assert page.eval_on_selector_all("#mine a", "as => as.map(a => a.href)") == [
            f"{self.web.url}/play/{self.game}#table"
        ]
        for secret in secrets:
            assert not shows(secret, page.content())
        page.click("#mine a")
        self.cover_for(to)
        self.clean(secrets, covered=True)
        if self.passes == 1:
            # Back, forward and a reload: every history entry of this page, covered or home.
            page.go_back()
            page.wait_for_url(f"{self.web.url}/")
            page.go_forward()
            self.cover_for(to)
            page.reload()
            self.cover_for(to)
            self.clean(secrets, covered=True)

    def sit(self, seat: int, name: str) -> dict[str, Any]:
        """``name`` presses the cover: their view, and no other since the cover; the view's message."""
        self.page.click("#pass-go")
        self.page.wait_for_function(
            "(name) => document.querySelector('#status').textContent === `${name}: your move.`", arg=name
        )
        seen = [m for m in messages(self.watched.frames[self.mark :]) if m["type"] == "view"]
        assert seen and all(v["seat"] == seat for v in seen), [v["seat"] for v in seen]
        assert name in (self.page.text_content("#title") or "")
        return seen[-1]

    def play(self, action: str) -> None:
        self.page.fill("#action", action)
        self.page.press("#action", "Enter")

    def act(self, action: str) -> dict[str, Any]:
        """Play ``action``; what answers it: the cover, or the view of a seat that is still to act."""
        before = len(self.watched.frames)
        events = [m for m in messages(self.watched.frames) if m["type"] == "view"][-1]["events"]
        self.play(action)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            for message in messages(self.watched.frames[before:]):
                if message["type"] == "cover" or (message["type"] == "view" and message["events"] > events):
                    return message
            self.page.wait_for_timeout(50)
        raise AssertionError(f"nothing came after {action!r}")


def first_legal(page: Page) -> str:
    page.wait_for_function("document.querySelectorAll('#legal-list option').length > 0")
    return str(page.eval_on_selector("#legal-list option", "o => o.value"))


NAMES = {0: "player 1", 1: "player 2", 2: "player 3"}


def test_robo_pigs_at_one_screen_shows_no_program_to_the_other_pig(
    web: Server, browser: Browser, tmp_path: Path
) -> None:
    page = browser.new_page(viewport={"width": 1100, "height": 800})
    table = Table(page, web)
    new_game(page, web, "robo-pigs", opponent="hotseat")
    table.opened()
    # It opens covered: both pigs program at once, and nothing of either is drawn yet.
    table.passed("player 1", [])
    screenshot(page, "cover", tmp_path)
    results = Axe().run(page).response["violations"]
    assert not [v for v in results if v.get("impact") in ("serious", "critical")], results
    # A player seated who follows the header link leaves nothing behind: back, and the page is covered.
    table.sit(0, "player 1")
    page.click("header a")
    page.wait_for_url(f"{web.url}/")
    page.go_back()
    table.passed("player 1", [], walk=False)
    # Distinct programs, so that each can be searched for; a round's programs are public once revealed.
    seat, view = 0, table.sit(0, "player 1")
    for program in ["TL F TR F H", "^ ^ F v TR", "TR F TL F H", "v ^ F TL ^"]:
        sent = f"Your program for round {view['observation']['round']} is sent"
        answer = table.act(program)
        if answer["type"] == "cover":
            # The other pig's turn: nothing of this program, nor that one was sent, reaches it.
            seat = answer["to_act"][0]
            table.passed(NAMES[seat], [sent, program])
            view = table.sit(seat, NAMES[seat])
            table.clean([sent, program], covered=False)
            assert page.locator(".rp-sent").count() == 0
        else:
            # The round is revealed (both programs public now) and this pig programs the next one.
            assert (
                answer["seat"] == seat and answer["observation"]["round"] == view["observation"]["round"] + 1
            )
            view = answer
    assert table.passes == 4  # the opening cover, the way back, then once a round
    assert not table.watched.errors
    page.close()


def test_fite_at_one_screen_keeps_each_placement_and_split_from_the_other_fighter(
    web: Server, browser: Browser
) -> None:
    page = browser.new_page()
    table = Table(page, web)
    new_game(page, web, "fite", opponent="hotseat")
    table.opened()
    table.passed("player 1", [])
    # SETUP's placements, turn 1's, then the splits: each made in secret, distinct where they can be.
    placements = ["tac 6", "off 1", "def 4", "tac 5"]
    table.sit(0, "player 1")
    # "Cover the screen" covers it at once, for the same player to sit down again.
    page.click("#hide")
    table.passed("player 1", [], walk=False)
    seat, view = 0, table.sit(0, "player 1")
    for step in range(6):
        action = placements[step] if step < len(placements) else first_legal(page)
        assert action in view["legal"]["actions"]
        answer = table.act(action)
        if answer["type"] != "cover":
            view = answer
            continue
        # "You chose tac 6; waiting for the other fighter" is the last fighter's alone.
        secrets = ["You chose", *([action] if step < len(placements) else [])]
        seat = answer["to_act"][0]
        table.passed(NAMES[seat], secrets)
        view = table.sit(seat, NAMES[seat])
        assert view["observation"]["mine"] is None
        table.clean(secrets, covered=False, legal=tuple(view["legal"]["actions"]))
    assert table.passes >= 4
    assert not table.watched.errors
    page.close()


def names_in(value: Any) -> set[str]:
    """Every card name anywhere in an observation."""
    if isinstance(value, dict):
        found = {value["name"]} if isinstance(value.get("name"), str) and "family" in value else set()
        return found.union(*(names_in(v) for v in value.values()))
    if isinstance(value, list):
        return set().union(*(names_in(v) for v in value))
    return set()


def held_secretly(view: dict[str, Any]) -> set[str]:
    """The cards a Fight! seat holds in secret: its hand, and its Boost while face down."""
    me = view["observation"]["seats"][view["seat"]]
    cards = [*me["hand"], *([me["boost"]] if me["boost"] and not me["boost"].get("activated") else [])]
    return {c["name"] for c in cards if "name" in c}


def test_fight_with_three_players_at_one_screen_shows_no_hand_or_boost_to_the_next(
    web: Server, browser: Browser
) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    table = Table(page, web)
    new_game(page, web, "fight", opponent="hotseat", players=3)
    table.opened()
    page.wait_for_selector("#pass-go")
    cover = messages(table.watched.frames)[-1]
    assert cover["type"] == "cover" and len(cover["seats"]) == 3
    seat = cover["to_act"][0]
    table.passed(NAMES[seat], [])
    view = table.sit(seat, NAMES[seat])
    boosts = 0
    for _ in range(5):
        action = first_legal(page)
        secret = held_secretly(view)
        boosts += action.startswith("main ")
        answer = table.act(action)
        # Fight! is played in turn: the next player's, always (once, under load, a view came first:
        # which seat's, at which event, is what to look at if it comes again).
        assert answer["type"] == "cover", {k: answer.get(k) for k in ("seat", "events", "to_act", "status")}
        # At the cover nothing of any card the last player holds in secret, the Boost just played among them;
        # once the next player sits, nothing of those their own observation does not show.
        seat = answer["to_act"][0]
        table.passed(NAMES[seat], sorted(secret))
        view = table.sit(seat, NAMES[seat])
        table.clean(sorted(secret - names_in(view["observation"])), covered=False)
    assert boosts >= 3
    assert not table.watched.errors
    page.close()


def test_a_game_of_perfect_information_at_one_screen_needs_no_cover_and_keeps_one_side_down(
    web: Server, browser: Browser
) -> None:
    page = browser.new_page()
    table = Table(page, web)
    new_game(page, web, "fightopia", opponent="hotseat", options={"ply_limit": "2"})
    table.opened()
    label = "document.querySelector('#board svg').getAttribute('aria-label')"
    # A chance event says who moves first; each side moves once (the ply limit), nothing covered between.
    for move in range(2):
        page.wait_for_function(
            f"document.querySelectorAll('#moves li').length === {move + 1}"
            " && document.querySelector('#status').textContent.endsWith(': your move.')"
        )
        seat = 1 if status(page).startswith("player 2") else 0
        assert page.is_hidden("#pass") and "White at the bottom" in page.evaluate(label)
        if seat == 1:
            # Black to move at the same screen: the board stays as it was, unless the players turn it.
            page.check("#turn-board")
            assert "Black at the bottom" in page.evaluate(label)
            page.uncheck("#turn-board")
        table.play(first_legal(page))
    covers = [m for m in messages(table.watched.frames) if m["type"] == "cover"]
    assert all(m["perfect"] for m in covers)
    page.wait_for_function("document.querySelector('#status').textContent.startsWith('Game over')")
    # A rematch at one screen is a new table: its handle kept, the old game's own gone from nowhere.
    page.click("#rematch")
    page.wait_for_function(f"!location.pathname.endsWith({json.dumps(table.game)})")
    assert page.url.endswith("#table")
    page.wait_for_function("document.querySelector('#status').textContent.endsWith('your move.')")
    stored = json.loads(page.evaluate("localStorage.getItem('tussle-seats')"))
    assert [e["game"] for e in stored] == [table.game, game_of(page)] and all("table" in e for e in stored)
    page.click("header a")
    page.wait_for_function("document.querySelectorAll('#mine a').length === 2")
    hrefs = page.eval_on_selector_all("#mine a", "as => as.map(a => a.href)")
    assert f"{web.url}/play/{game_of_url(hrefs, table.game)}#table" in hrefs
    assert f"{web.url}/replay/{table.game}" in hrefs
    assert not table.watched.errors
    page.close()


def game_of_url(hrefs: list[str], old: str) -> str:
    """The game of the one link that is not ``old``'s."""
    return next(h for h in hrefs if old not in h).split("#")[0].rstrip("/").split("/")[-1]


def lobby_ids(web: Server) -> set[str]:
    return {g["id"] for g in web.get("/api/lobby")[1]["games"]}


def test_a_friends_game_is_kept_for_the_invitation_alone_and_the_watch_link_opens_no_seat(
    web: Server, browser: Browser, tmp_path: Path
) -> None:
    contexts: list[BrowserContext] = []

    def fresh() -> Page:
        contexts.append(browser.new_context(viewport={"width": 1000, "height": 800}))
        return contexts[-1].new_page()

    host = fresh()
    new_game(host, web, "fite", opponent="friend")
    game = game_of(host)
    link = invitation(host)
    assert link.startswith(f"{web.url}/play/{game}#invite=")
    secret = link.split("#invite=")[1]
    assert host.text_content("#status") == "Waiting for your friend to open the invitation."
    # The invitation stands apart from the watch link, which holds no secret.
    assert host.get_attribute("#share-watch", "href") == f"/play/{game}"
    assert secret not in (host.get_attribute("#watch-link", "href") or "") and secret not in host.url
    screenshot(host, "invitation", tmp_path)
    serious = [
        v for v in Axe().run(host).response["violations"] if v.get("impact") in ("serious", "critical")
    ]
    assert not serious, serious
    # Never in the lobby: not over the API, not on a stranger's home page.
    assert game not in lobby_ids(web)
    stranger = fresh()
    stranger.goto(web.url + "/")
    stranger.wait_for_function("!document.querySelector('#lobby').textContent.includes('Loading')")
    assert game not in stranger.content()
    # The watch link shows the game as a spectator sees it, and no way in.
    stranger.goto(f"{web.url}/play/{game}")
    stranger.wait_for_selector("#status:not(:empty)")
    assert "watching" in (stranger.text_content("#title") or "")
    content = stranger.content()
    assert (
        "#invite=" not in content and secret not in content and stranger.locator("input.invite").count() == 0
    )
    # (The spectators' chat has its Send button: it talks to other spectators, and opens nothing.)
    buttons = stranger.locator("main button:visible:not(#chat-form button)")
    assert stranger.is_hidden("#share") and buttons.count() == 0
    # Nor does the API give the seat without the secret: the first free seat, seat 1 named, a wrong secret.
    for body in ({"name": "x"}, {"seat": 1, "name": "x"}, {"invite": "not-the-secret-at-all", "name": "x"}):
        code, answer = web.post(f"/api/games/{game}/join", body)
        assert code == 400, answer
    # The friend opens the invitation: the seat is theirs, kept, and the address holds its token alone.
    friend = fresh()
    accept(friend, link)
    token = friend.url.split("#")[1]
    assert friend.url == f"{web.url}/play/{game}#{token}"
    stored = json.loads(friend.evaluate("localStorage.getItem('tussle-seats')"))
    assert stored == [{"game": game, "seat": 1, "token": token}]
    host.wait_for_function("document.querySelectorAll('#players .dot.on').length === 2")
    assert host.is_hidden("#share")
    # Taken once, the invitation opens nothing more: whoever opens it again only watches.
    stranger.goto(link)
    stranger.wait_for_function("document.querySelector('#title').textContent.includes('watching')")
    assert "opens no seat" in (stranger.text_content("#notice") or "")
    assert stranger.url == f"{web.url}/play/{game}"
    assert web.post(f"/api/games/{game}/join", {"invite": secret, "name": "x"})[0] == 400
    for context in contexts:
        context.close()


def links(page: Page, count: int) -> list[str]:
    page.wait_for_function(f"document.querySelectorAll('#mine a').length === {count}")
    return sorted(page.eval_on_selector_all("#mine a", "as => as.map(a => a.href)"))


def test_every_seat_a_browser_takes_is_kept_listed_and_carried_to_another_browser(
    web: Server, browser: Browser, tmp_path: Path
) -> None:
    context = browser.new_context()
    page = context.new_page()
    new_game(page, web, "fightopia", options={"ply_limit": "2"})
    first = game_of(page)
    deadline = time.monotonic() + 60
    while not status(page).startswith("Game over") and time.monotonic() < deadline:
        if status(page) == "Your move.":
            page.fill("#action", first_legal(page))
            page.press("#action", "Enter")
        page.wait_for_timeout(100)
    page.click("#rematch")
    page.wait_for_function(f"!location.pathname.endsWith({json.dumps(first)})")
    second, token = game_of(page), page.url.split("#")[1]
    page.wait_for_selector("#status:not(:empty)")
    # A seat taken from the lobby is kept too.
    lobby = web.post("/api/games", {"game": "tank-chess", "seats": [{"kind": "person"}, {"kind": "open"}]})[1]
    # The tab is closed: no seat is lost.
    page.close()
    page = context.new_page()
    page.goto(web.url + "/")
    page.click(f"#lobby button[data-game='{lobby['id']}']")
    page.wait_for_url(f"**/play/{lobby['id']}#*")
    page.wait_for_selector("#status:not(:empty)")
    page.click("header a")
    mine = links(page, 3)
    assert f"{web.url}/replay/{first}" in mine and f"{web.url}/play/{second}#{token}" in mine
    assert any(h.startswith(f"{web.url}/play/{lobby['id']}#") for h in mine)
    # Export: one JSON text to copy, or a file to download.
    page.click("#move-seats summary")
    page.click("#export")
    text = page.input_value("#export-text")
    exported = json.loads(text)
    assert {s["game"] for s in exported["seats"]} == {first, second, lobby["id"]}
    with page.expect_download() as download:
        page.click("#export-download")
    saved = tmp_path / "seats.json"
    download.value.save_as(saved)
    assert json.loads(saved.read_text()) == exported
    context.close()
    # Another browser holds nothing, until the seats are imported: pasted, or from the file.
    for how in ("paste", "file"):
        other_context = browser.new_context()
        other = other_context.new_page()
        other.goto(web.url + "/")
        other.wait_for_selector("#mine li")
        assert other.locator("#mine a").count() == 0
        other.click("#move-seats summary")
        if how == "paste":
            other.fill("#import-text", text)
            other.click("#import")
        else:
            other.set_input_files("#import-file", str(saved))
        # ?. : the predicate may run while the page is between documents (seen once in CI).
        other.wait_for_function("document.querySelector('#import-said')?.textContent.includes('3 new seats')")
        assert links(other, 3) == mine
        other_context.close()
    # Bare seat links can be pasted too; the seat opens, and its number is learnt then.
    other_context = browser.new_context()
    other = other_context.new_page()
    other.goto(web.url + "/")
    other.click("#move-seats summary")
    other.fill("#import-text", f"my seat: {web.url}/play/{second}#{token}\n")
    other.click("#import")
    other.wait_for_function("document.querySelector('#import-said').textContent.includes('1 new seat')")
    other.click("#mine a")
    other.wait_for_function("document.querySelector('#title').textContent.includes('(you)')")
    stored = json.loads(other.evaluate("localStorage.getItem('tussle-seats')"))
    assert stored == [{"game": second, "seat": 1, "token": token}]
    other_context.close()
