"""Fightopia's drawing in the browser (src/tussle/games/fightopia/web.js), in a real Chromium.

A whole game is played by pointing only; a Tank shows every one of its moves and a square that
several of them share opens a menu of exactly those; the replay page draws the board.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page

from test_server import Server
from web_support import Watched, browser, needs_chromium, new_game, play_until_over, screenshot, web  # noqa: F401

pytestmark = needs_chromium

Move = dict[str, Any]  # an action's structured form, as the server sends it (docs/games/fightopia.md)


def giant(corner: str) -> list[str]:
    file, rank = corner[0], int(corner[1])
    right = chr(ord(file) + 1)
    return [f"{file}{rank}", f"{right}{rank}", f"{file}{rank + 1}", f"{right}{rank + 1}"]


def targets(move: Move) -> list[str]:
    """The squares pointed at to play ``move``: the squares a move newly covers, or what it destroys."""
    kind = move["kind"]
    if kind == "pawn step":
        return [move["to"]]
    if kind == "giant step":
        return [s for s in giant(move["to"]) if s not in giant(move["from"])]
    if kind == "giant kill":
        return [" ".join(move["kill"])]
    if kind == "tank move":
        return [s for s in move["to"] if s not in move["from"]]
    if kind == "tank shot":
        return [move["kill"]]
    raise AssertionError(f"not a Fightopia move: {move!r}")


def piece_label(move: Move) -> str:
    """How the page names White's piece that plays ``move``, e.g. 'White Tank on a1 and a2'."""
    piece = {"pawn step": "Pawn", "giant step": "Giant", "tank move": "Tank"}[move["kind"]]
    squares = giant(move["from"]) if piece == "Giant" else move["from"] if piece == "Tank" else [move["from"]]
    named = squares[0] if len(squares) == 1 else f"{', '.join(squares[:-1])} and {squares[-1]}"
    return f"White {piece} on {named}"


def my_turn(watched: Watched) -> tuple[list[str], list[Move]]:
    """The legal actions of the newest view the page received, as notation and structured forms."""
    views = [
        v for v in (json.loads(f) for f in watched.frames if f.startswith("{")) if v.get("type") == "view"
    ]
    legal = next(v["legal"] for v in reversed(views) if v.get("your_turn"))
    assert len(legal["actions"]) == len(legal["moves"]) == legal["count"]
    return legal["actions"], legal["moves"]


def legal(page: Page) -> list[str]:
    return [b.text_content() or "" for b in page.query_selector_all("#legal button")]


def moves_played(page: Page) -> int:
    return len(page.query_selector_all("#moves li"))


def point_and_play(page: Page, rng: random.Random) -> None:
    """One action by pointing only: a piece, one of its targets, and a menu item if a menu opens."""
    before = moves_played(page)
    picks = page.query_selector_all("svg .pick")
    assert picks, "no piece to pick on my turn"
    rng.choice(picks).click()
    chosen = rng.choice(page.query_selector_all("svg .target"))
    chosen.click()
    items = page.query_selector_all(".menu button[data-action]")
    if items:
        rng.choice(items).click()
    page.wait_for_function(f"document.querySelectorAll('#moves li').length > {before}")


def test_a_whole_game_against_the_computer_played_by_pointing_only(
    web: Server,  # noqa: F811
    browser: Browser,  # noqa: F811
    tmp_path: Path,
) -> None:
    page = browser.new_page()
    watched = Watched(page)
    new_game(page, web, "fightopia", options={"ply_limit": "20"})
    rng = random.Random(7)
    turns = 0

    def move(page: Page) -> None:
        nonlocal turns
        turns += 1
        if turns == 3:
            # The README's picture: a Tank picked, its targets lit, the ghost of one landing.
            tank = page.query_selector("svg .pick[aria-label*=Tank]") or page.query_selector("svg .pick")
            assert tank is not None
            tank.click()
            shown = page.query_selector_all("svg .target")
            assert shown
            alone = [t for t in shown if "menu" not in (t.get_attribute("aria-label") or "")]
            (alone or shown)[-1].hover()
            assert page.query_selector_all("svg .ghost .piece") or page.query_selector("svg .hit-target")
            screenshot(page, "fightopia", tmp_path)
            tank.click()  # put it down again
            assert not page.query_selector_all("svg .target")
        point_and_play(page, rng)

    play_until_over(page, move)
    assert turns >= 5
    assert watched.errors == []
    views = [json.loads(f) for f in watched.frames if f.startswith("{")]
    assert views and all(v["seat"] == 0 for v in views if v["type"] == "view")
    # The finished board still draws, with no pointing left.
    assert page.query_selector("svg.fightopia") and not page.query_selector_all("svg .pick")
    page.close()


def test_a_tank_shows_all_its_moves_and_a_shared_square_opens_a_menu_of_exactly_those(
    web: Server,  # noqa: F811
    browser: Browser,  # noqa: F811
    tmp_path: Path,
) -> None:
    page = browser.new_page(viewport={"width": 390, "height": 844})  # a phone
    watched = Watched(page)
    new_game(page, web, "fightopia", options={"ply_limit": "20"})
    page.wait_for_selector("svg .pick", timeout=60_000)  # my turn, whoever was drawn to start
    # White's Tank on a1 and a2 has not moved: one and two squares up (both cover a3), a turn onto b2.
    actions, moves = my_turn(watched)
    assert legal(page) == actions  # the page lists the notation the server sent
    mine = [(a, m) for a, m in zip(actions, moves, strict=True) if m["from"] == ["a1", "a2"]]
    assert len(mine) >= 3
    expected: dict[str, set[str]] = {}
    for action, move in mine:
        for square in targets(move):
            expected.setdefault(square, set()).add(action)
    tank = page.locator("svg .pick[aria-label='White Tank on a1 and a2']")
    tank.click()
    shown = {t.get_attribute("data-square"): t for t in page.query_selector_all("svg .target")}
    assert set(shown) == set(expected)
    assert not page.query_selector(".menu")

    shared = next(square for square, actions in expected.items() if len(actions) > 1)
    assert "menu" in (shown[shared].get_attribute("aria-label") or "")
    shown[shared].click()
    items = page.query_selector_all(".menu button[data-action]")
    assert {i.get_attribute("data-action") for i in items} == expected[shared]
    for item in items:  # words and notation
        label = item.text_content() or ""
        assert label.endswith(f"({item.get_attribute('data-action')})") and label[0].isupper()
    page.screenshot(path=str(tmp_path / "fightopia-phone.png"), full_page=True)
    page.click(".menu button.cancel")
    assert not page.query_selector(".menu")

    # Picking the Tank again puts it down; a lone target plays at once.
    tank.click()
    assert not page.query_selector_all("svg .target")
    tank.click()
    alone = next(square for square, actions in expected.items() if len(actions) == 1)
    before = moves_played(page)
    shown = {t.get_attribute("data-square"): t for t in page.query_selector_all("svg .target")}
    shown[alone].click()
    page.wait_for_function(f"document.querySelectorAll('#moves li').length > {before}")
    played = page.text_content(f"#moves li >> nth={before}") or ""
    assert played.endswith(next(iter(expected[alone])))
    assert watched.errors == []
    page.close()


def test_a_move_picked_on_the_board_is_sent_as_its_structured_form_and_recorded(
    web: Server,  # noqa: F811
    browser: Browser,  # noqa: F811
) -> None:
    # The drawing knows what each legal action does only from its structured form: if it could
    # not read one, the piece would offer no target, or the wrong move would be played.
    page = browser.new_page()
    watched = Watched(page)
    sent: list[str] = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda data: sent.append(str(data))))
    new_game(page, web, "fightopia", options={"ply_limit": "20"})
    page.wait_for_selector("svg .pick", timeout=60_000)
    actions, moves = my_turn(watched)

    # A move whose target square no other move of its piece shares (else a menu would choose):
    # a Tank's two-square move or pivot if there is one, else a Pawn's step.
    def alone(i: int) -> str | None:
        mine = [m for j, m in enumerate(moves) if j != i and m["from"] == moves[i]["from"]]
        free = [t for t in targets(moves[i]) if not any(t in targets(m) for m in mine)]
        return free[0] if free else None

    index = next(
        i
        for kind in ("giant step", "tank move", "pawn step")
        for i, m in enumerate(moves)
        if m["kind"] == kind and alone(i) is not None
    )
    move = moves[index]
    page.click(f"svg .pick[aria-label='{piece_label(move)}']")
    before = moves_played(page)
    page.click(f"svg .target[data-square='{alone(index)}']")
    page.wait_for_function(f"document.querySelectorAll('#moves li').length > {before}")
    acted = [m for m in (json.loads(f) for f in sent if f.startswith("{")) if m.get("type") == "action"]
    assert acted == [{"type": "action", "move": move}]  # played as the structured form it was given
    played = page.text_content(f"#moves li >> nth={before}") or ""
    assert played.endswith(actions[index])  # and the server recorded that very action
    # The board draws the last move from its structured form in the observation too.
    page.wait_for_function("document.querySelectorAll('svg .last rect').length > 0")
    assert watched.errors == []
    page.close()


def test_the_replay_page_draws_the_board_without_pointing(
    web: Server,  # noqa: F811
    browser: Browser,  # noqa: F811
) -> None:
    from test_server import play_out

    created = web.post(
        "/api/games", {"game": "fightopia", "options": {"ply_limit": 20}, "seats": [{"kind": "person"}] * 2}
    )[1]
    play_out(web, created["id"], {s["seat"]: s["token"] for s in created["seats"]}, seed=1)
    page = browser.new_page()
    watched = Watched(page)
    page.goto(f"{web.url}/replay/{created['id']}")
    page.wait_for_selector("svg.fightopia")
    # The start: 13 pieces a side, and no last move yet.
    assert len(page.query_selector_all("svg .pieces > .piece")) == 26
    assert len(page.query_selector_all("svg .pieces > .giant")) == 2
    assert len(page.query_selector_all("svg .pieces > .tank")) == 4
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert page.text_content("#where") == "step 2 of 21"
    assert page.query_selector_all("svg .last rect")  # the last move is marked
    page.keyboard.press("End")
    assert page.query_selector("svg.fightopia")
    assert not page.query_selector_all("svg .pick, svg .target")
    assert watched.errors == []
    page.close()
