"""Accounts over the API of a real server (``tussle serve``), on SQLite and PostgreSQL.

Sign up, in and out, passwords and programs' tokens; what the database keeps of them (hashes only);
the CSRF check on signed-in changes, shared by two processes on one database; sign-in attempts
bounded per address and per account; bad input refused in one line; rated games made, joined and
sought by accounts only, an account's seat and games, a guest's seats claimed; what views and the
lobby say of accounts; and the rated bot of docs/server.md, two copies playing each other.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from email.message import Message
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from itsdangerous.url_safe import URLSafeSerializer
from websockets.sync.client import connect

from account_support import AccountClient
from test_server import SHORT, Server, db, receive
from tussle.server.accounts import CSRF_COOKIE, CSRF_HEADER, SESSION_COOKIE, SESSION_DAYS
from tussle.server.store import Store

__all__ = ["db"]

ROOT = Path(__file__).resolve().parent.parent
PASSWORD = "correct horse"


@pytest.fixture(scope="module")
def server(db: str) -> Iterator[Server]:
    # Every request here comes from one address: sign-ins and rates are bounded in their own tests.
    # Two WebSocket messages a second (bursts of 4): the docs' rated bot, faster than that, is refused
    # moves, as a bot on a fast machine is at the default rate, and must go on all the same.
    limits = [
        "sign_ins=10000",
        "sign_ins_per_account=10000",
        "requests_per_second=1000",
        "messages_per_second=2",
    ]
    s = Server(db, *(arg for limit in limits for arg in ("--limit", limit)))
    yield s
    s.stop()


def call(
    url: str, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None
) -> tuple[int, Any, Message]:
    """One request with exactly these headers: (status, JSON answer, answer's headers)."""
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(
        url + path, data=data, method=method, headers={"content-type": "application/json", **(headers or {})}
    )
    try:
        with urllib.request.urlopen(request, timeout=20) as answer:
            return answer.status, json.loads(answer.read() or b"null"), answer.headers
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read() or b"null"), exc.headers


def cookie_header(client: AccountClient) -> dict[str, str]:
    return {"cookie": "; ".join(f"{k}={v}" for k, v in client.cookies.items())}


def one_line(status: int, answer: Any, low: int = 400, high: int = 499) -> str:
    """The refusal's sentence, checked to be a one-line JSON error of a status in [low, high]."""
    assert low <= status <= high, (status, answer)
    assert isinstance(answer, dict) and list(answer) == ["error"], answer
    error = answer["error"]
    assert isinstance(error, str) and error and "\n" not in error, answer
    return error


def signed_up(server: Server, name: str, *, bot: bool = False) -> AccountClient:
    client = AccountClient(server.url)
    client.sign_up(name, PASSWORD, bot=bot)
    return client


def digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def table_rows(db_url: str, *tables: str) -> dict[str, list[dict[str, Any]]]:
    """Every row of these tables, as the database holds them."""
    store = Store.open(db_url)
    try:
        with store.engine.connect() as conn:
            meta = sa.MetaData()
            meta.reflect(conn, only=list(tables))
            return {
                t: [dict(r._mapping) for r in conn.execute(sa.select(meta.tables[t])).all()] for t in tables
            }
    finally:
        store.close()


def test_sign_up_in_out_passwords_and_api_tokens_and_the_database_keeps_only_hashes(
    server: Server,
) -> None:
    ann = signed_up(server, "Ann")
    (header,) = [h for h in ann.set_cookie if h.startswith(f"{SESSION_COOKIE}=")]
    morsel = SimpleCookie(header)[SESSION_COOKIE]
    assert morsel["httponly"] and morsel["secure"] and morsel["samesite"].lower() == "lax"
    assert morsel["max-age"] == str(SESSION_DAYS * 24 * 3600) and morsel["path"] == "/"
    first_session = ann.cookies[SESSION_COOKIE]
    assert ann.get("/api/account") == (
        200,
        {
            "name": "Ann",
            "bot": False,
            "email": "ann@example.org",
            "created": ann.get("/api/account")[1]["created"],
        },
    )
    # A bot gets its token in the answer, and no cookie.
    robo = AccountClient(server.url)
    answer = robo.sign_up("Robo", PASSWORD, bot=True)
    assert answer["bot"] is True and len(answer["token"]) >= 40
    assert not any(SESSION_COOKIE in h for h in robo.set_cookie) and SESSION_COOKIE not in robo.cookies
    first_api_token = answer["token"]
    assert AccountClient(server.url, token=first_api_token).get("/api/account")[1]["name"] == "Robo"

    # Sign in by the name in any case, or by the email; a wrong password or an unknown name: 401.
    by_name, by_email = AccountClient(server.url), AccountClient(server.url)
    assert by_name.post("/api/account/signin", {"login": "aNN", "password": PASSWORD}) == (
        200,
        {"name": "Ann", "bot": False},
    )
    assert (
        by_email.post("/api/account/signin", {"login": " ANN@example.ORG ", "password": PASSWORD})[0] == 200
    )
    for login, password in [("Ann", "wrong horse"), ("nobody", PASSWORD), ("nobody@example.org", PASSWORD)]:
        status, refusal = AccountClient(server.url).post(
            "/api/account/signin", {"login": login, "password": password}
        )
        assert one_line(status, refusal) == "wrong name or password" and status == 401
    sessions = [
        ann.cookies[SESSION_COOKIE],
        by_name.cookies[SESSION_COOKIE],
        by_email.cookies[SESSION_COOKIE],
    ]
    assert len(set(sessions)) == 3
    for client in (by_name, by_email):
        assert client.get("/api/account")[1]["name"] == "Ann"

    # Signing out forgets the session: its cookie, sent again, opens nothing.
    kept = dict(by_email.cookies)
    assert by_email.post("/api/account/signout") == (200, {"signed_out": True})
    assert SESSION_COOKIE not in by_email.cookies
    assert one_line(*by_email.get("/api/account")) and by_email.get("/api/account")[0] == 401
    again = AccountClient(server.url)
    again.cookies = kept
    assert again.get("/api/account")[0] == 401

    # A new password signs out every other session of the account; this one stays.
    status, refusal = ann.post("/api/account/password", {"current": "wrong horse", "new": "battery staple"})
    assert status == 401 and one_line(status, refusal)
    assert ann.post("/api/account/password", {"current": PASSWORD, "new": "battery staple"}) == (
        200,
        {"changed": True},
    )
    assert ann.get("/api/account")[0] == 200 and by_name.get("/api/account")[0] == 401
    old = AccountClient(server.url).post("/api/account/signin", {"login": "Ann", "password": PASSWORD})
    assert old[0] == 401
    new = AccountClient(server.url)
    assert new.post("/api/account/signin", {"login": "Ann", "password": "battery staple"})[0] == 200
    sessions.append(new.cookies[SESSION_COOKIE])

    # A new API token replaces the old one (a bot's by its token, a person's by the cookie).
    bot = AccountClient(server.url, token=first_api_token)
    status, made = bot.post("/api/account/tokens", csrf=False)
    assert status == 201 and made["bot"] is True and made["token"] != first_api_token
    assert bot.get("/api/account")[0] == 401
    bot.token = made["token"]
    assert bot.get("/api/account")[1]["name"] == "Robo"
    # A new password leaves the program's token working.
    assert (
        bot.post("/api/account/password", {"current": PASSWORD, "new": "battery staple"}, csrf=False)[0]
        == 200
    )
    assert bot.get("/api/account")[1]["name"] == "Robo"
    status, annes = ann.post("/api/account/tokens")
    assert status == 201 and annes["bot"] is False
    assert AccountClient(server.url, token=annes["token"]).get("/api/account")[1]["name"] == "Ann"

    # The database holds none of the tokens nor the passwords: hashes only.
    secrets = [*sessions, first_session, first_api_token, made["token"], annes["token"]]
    secrets += [PASSWORD, "battery staple"]
    rows = table_rows(server.db, "sessions", "api_tokens", "accounts")
    kept_text = json.dumps(rows, default=str)
    for secret in secrets:
        assert secret not in kept_text
    assert {r["token"] for r in rows["sessions"]} >= {
        digest(ann.cookies[SESSION_COOKIE]),
        digest(sessions[-1]),
    }
    # Signed out, and signed out by the new password: forgotten.
    assert digest(sessions[1]) not in kept_text and digest(sessions[2]) not in kept_text
    assert {r["token"] for r in rows["api_tokens"]} >= {digest(made["token"]), digest(annes["token"])}
    assert digest(first_api_token) not in kept_text
    accounts = {r["name"]: r for r in rows["accounts"]}
    assert accounts["Ann"]["name_key"] == "ann" and accounts["Robo"]["bot"]
    for row in rows["accounts"]:
        assert row["hashed_password"].startswith("$argon2")


def test_csrf_a_signed_in_change_needs_the_header_and_every_process_takes_the_cookie(server: Server) -> None:
    cat = signed_up(server, "Cat")
    body = {
        "game": "fightopia",
        "options": SHORT["fightopia"],
        "seats": [{"kind": "person"}, {"kind": "open"}],
    }
    lobby = server.get("/api/lobby")[1]
    signed = {**cookie_header(cat)}
    for headers in (
        signed,
        {**signed, CSRF_HEADER: "x" + cat.cookies[CSRF_COOKIE]},
        {**signed, CSRF_HEADER: ""},
    ):
        status, refusal, _ = call(server.url, "POST", "/api/games", body, headers)
        assert status == 403 and CSRF_HEADER in one_line(status, refusal)
    assert server.get("/api/lobby")[1] == lobby
    assert cat.get("/api/account/games")[1] == {"games": []}
    status, refusal, _ = call(server.url, "POST", "/api/account/signout", {}, signed)
    assert status == 403 and one_line(status, refusal)
    assert cat.get("/api/account")[0] == 200  # not signed out

    status, made = cat.post("/api/games", body)
    assert status == 201 and [g["id"] for g in cat.get("/api/account/games")[1]["games"]] == [made["id"]]
    # A program's bearer token needs no header (it sends no cookie); nor does a guest.
    bot = signed_up(server, "CatBot", bot=True)
    status, _, _ = call(server.url, "POST", "/api/games", body, {"authorization": f"Bearer {bot.token}"})
    assert status == 201
    guest = AccountClient(server.url)
    guest.get("/api/catalog")
    assert CSRF_COOKIE in guest.cookies and guest.post("/api/games", body, csrf=False)[0] == 201
    # Another site's page cannot sign its visitor in (or up) to an account of its own; the server's
    # own pages can.
    login = {"login": "Cat", "password": PASSWORD}
    evil = {"origin": "https://games.example.net"}
    status, refusal, answered = call(server.url, "POST", "/api/account/signin", login, evil)
    assert status == 403 and "another site" in one_line(status, refusal)
    assert not any(SESSION_COOKIE in c for c in answered.get_all("set-cookie") or [])
    new = {"name": "Mallory", "email": "mallory@example.org", "password": PASSWORD}
    status, refusal, _ = call(server.url, "POST", "/api/account/signup", new, evil)
    assert status == 403 and one_line(status, refusal)
    assert call(server.url, "POST", "/api/account/signin", login, {"origin": server.url})[0] == 200

    # The cookie is signed by the key the database keeps, the same for every process on it.
    store = Store.open(server.db)
    try:
        key = store.key("csrf")
    finally:
        store.close()
    URLSafeSerializer(key, "csrftoken").loads(cat.cookies[CSRF_COOKIE])
    if server.db.startswith("postgresql"):
        other = Server(server.db)
        try:
            headers = {**signed, CSRF_HEADER: cat.cookies[CSRF_COOKIE]}
            status, answer, _ = call(other.url, "POST", "/api/games", body, headers)
            assert status == 201, answer
            headers[CSRF_HEADER] = "x" + cat.cookies[CSRF_COOKIE]
            assert call(other.url, "POST", "/api/games", body, headers)[0] == 403
        finally:
            other.stop()


def test_sign_in_attempts_are_bounded_per_address_and_per_account(tmp_path: Path) -> None:
    limits = ["--limit", "sign_ins=5", "--limit", "sign_ins_per_account=3", "--trust-proxy", "127.0.0.1"]
    # Served over plain HTTP to other addresses: the cookies are not Secure.
    server = Server(f"sqlite:///{tmp_path / 'tussle.db'}", *limits, "--insecure-cookies")
    try:

        def attempt(address: str, login: str, password: str) -> tuple[int, Any, Message]:
            headers = {"x-forwarded-for": address}
            return call(
                server.url, "POST", "/api/account/signin", {"login": login, "password": password}, headers
            )

        def refused(answer: tuple[int, Any, Message], whose: str) -> None:
            status, body, headers = answer
            assert status == 429 and f"too many sign-in attempts at {whose}" in one_line(status, body)
            assert 1 <= int(headers["retry-after"]) <= 600

        body = {"name": "Dora", "email": "dora@example.org", "password": PASSWORD}
        status, answer, headers = call(
            server.url, "POST", "/api/account/signup", body, {"x-forwarded-for": "10.0.0.1"}
        )
        assert status == 201, answer
        cookies: SimpleCookie = SimpleCookie()
        for header in headers.get_all("set-cookie") or []:
            cookies.load(header)
        assert set(cookies) == {SESSION_COOKIE, CSRF_COOKIE} and not any(
            c["secure"] for c in cookies.values()
        )
        assert cookies[SESSION_COOKIE]["httponly"] and not cookies[CSRF_COOKIE]["httponly"]
        # Five attempts from one address (at different accounts), right or wrong; the sixth is refused,
        # a sign-up from there too.
        for n in range(4):
            assert attempt("10.0.0.2", f"nobody{n}", PASSWORD)[0] == 401
        assert attempt("10.0.0.2", "DORA", PASSWORD)[0] == 200
        refused(attempt("10.0.0.2", "nobody9", PASSWORD), "your address")
        refused(attempt("10.0.0.2", "Dora", PASSWORD), "your address")
        other = {**body, "name": "Eve", "email": "eve@example.org"}
        status, answer, headers = call(
            server.url, "POST", "/api/account/signup", other, {"x-forwarded-for": "10.0.0.2"}
        )
        refused((status, answer, headers), "your address")
        assert attempt("10.0.0.3", "Dora", PASSWORD)[0] == 200  # another address is not held back

        # At one account, whatever the address and however it is named: the third attempt from the
        # third address is its last; then the right password is refused too, from anywhere.
        limited = {**body, "name": "Finn", "email": "finn@example.org"}
        assert (
            call(server.url, "POST", "/api/account/signup", limited, {"x-forwarded-for": "10.0.1.0"})[0]
            == 201
        )
        for n, login in enumerate(["Finn", "finn@example.org", "FINN"]):
            assert attempt(f"10.0.1.{n + 1}", login, "wrong horse")[0] == 401
        for n, login in enumerate(["Finn", "FINN@example.org"]):
            refused(attempt(f"10.0.2.{n}", login, PASSWORD), "this account")
        assert attempt("10.0.2.9", "Dora", PASSWORD)[0] == 200  # another account is not held back
    finally:
        server.stop()


def test_bad_input_is_refused_in_one_line_and_never_a_500(server: Server) -> None:
    gil = signed_up(server, "Gil")
    guest = AccountClient(server.url)

    def sign_up(**fields: Any) -> tuple[int, Any]:
        body = {"name": "Hugo", "email": "hugo@example.org", "password": PASSWORD, **fields}
        return guest.post("/api/account/signup", body)

    cases: list[tuple[dict[str, Any], int, str]] = [
        ({"password": "short"}, 400, "at least 8"),
        ({"password": "I am HUGO, ok"}, 400, "name"),
        ({"name": "gIL"}, 400, "taken"),
        ({"email": "GIL@Example.org"}, 400, "email"),
        ({"name": "no spaces"}, 422, "name"),
        ({"name": "x"}, 422, "name"),
        ({"name": "a" * 21}, 422, "name"),
        ({"name": "Zoë"}, 422, "name"),
        ({"name": "<b>"}, 422, "name"),
        ({"name": "ab\n"}, 422, "name"),
        ({"name": "Hugo Hugo"}, 422, "name"),
        ({"email": "not an email"}, 422, "email"),
        ({"bot": "yes"}, 422, "bot"),
        ({"password": ""}, 422, "password"),
        ({"admin": True}, 422, "admin"),
        ({"is_superuser": True}, 422, "is_superuser"),
    ]
    for fields, status, words in cases:
        answer = sign_up(**fields)
        assert answer[0] == status and words in one_line(*answer), (fields, answer)
    assert (
        guest.post("/api/account/signin", {"login": "Gil", "password": PASSWORD, "remember": True})[0] == 422
    )
    bodies: list[Any] = [{"login": "", "password": PASSWORD}, {"login": "Gil"}, [], "Gil"]
    for body in bodies:
        answer = guest.post("/api/account/signin", body)
        assert answer[0] == 422 and one_line(*answer)
    for body, status in [
        ({"current": PASSWORD, "new": "short"}, 400),
        ({"current": PASSWORD, "new": "gil is me!"}, 400),
        ({"current": PASSWORD}, 422),
        ({"current": PASSWORD, "new": "battery staple", "again": "battery staple"}, 422),
    ]:
        answer = gil.post("/api/account/password", body)
        assert answer[0] == status and one_line(*answer), (body, answer)
    assert gil.get("/api/account")[0] == 200  # the password is unchanged: it still signs in
    assert (
        AccountClient(server.url).post("/api/account/signin", {"login": "gil", "password": PASSWORD})[0]
        == 200
    )
    for method, path, request in [
        ("POST", "/api/account/claim", {"tokens": "abc"}),
        ("POST", "/api/account/claim", {}),
        ("GET", "/api/account/games?status=lost", None),
        ("GET", "/api/account/games?limit=0", None),
        ("POST", "/api/games/not-a-game/seat", None),
        ("POST", "/api/games/00000000-0000-0000-0000-000000000000/seat", None),
    ]:
        answer = gil.request(method, path, request)
        assert one_line(*answer), (path, answer)
    # Without an account: 401, in one line.
    for method, path in [
        ("GET", "/api/account"),
        ("POST", "/api/account/tokens"),
        ("GET", "/api/account/games"),
    ]:
        answer = guest.request(method, path)
        assert answer[0] == 401 and "sign in" in one_line(*answer)
    answer = AccountClient(server.url, token="not a token").get("/api/account")
    assert answer[0] == 401 and one_line(*answer)
    # A body that is not JSON.
    status, refusal, _ = call(server.url, "POST", "/api/account/signin", None, {"content-type": "text/plain"})
    assert one_line(status, refusal)
    # An email is kept in lower case, so the unique index holds it whatever case a sign-up used.
    ivy = AccountClient(server.url)
    ivy.get("/api/catalog")
    status, _ = ivy.post(
        "/api/account/signup", {"name": "Ivy", "email": "Ivy@Example.ORG", "password": PASSWORD}
    )
    assert status == 201 and ivy.get("/api/account")[1]["email"] == "ivy@example.org"


def hello(server: Server, game_id: str, token: str) -> dict[str, Any]:
    """The first message a seat's token gets (a view, or an error)."""
    with connect(f"ws://127.0.0.1:{server.port}/ws/games/{game_id}", open_timeout=10) as ws:
        ws.send(json.dumps({"type": "hello", "token": token}))
        return receive(ws)


def test_rated_games_are_accounts_one_seat_each_and_an_account_reaches_its_seats(server: Server) -> None:
    hal, ida = signed_up(server, "Hal"), signed_up(server, "Ida")
    jo = signed_up(server, "Jo-bot", bot=True)
    jo.cookies.clear()  # a program: its token only
    guest = AccountClient(server.url)
    pigs = SHORT["robo-pigs"]
    rated = {
        "game": "robo-pigs",
        "options": pigs,
        "seats": [{"kind": "person"}, {"kind": "open"}],
        "rated": True,
    }

    # A guest can neither make, join nor seek a rated game.
    for path, body in [("/api/games", rated), ("/api/seek", {"game": "robo-pigs", "rated": True})]:
        answer = guest.post(path, body)
        assert answer[0] == 400 and "account" in one_line(*answer)
    status, made = hal.post("/api/games", rated)
    assert status == 201 and made["rated"] is True
    hals = {s["seat"]: s["token"] for s in made["seats"] if "token" in s}
    answer = guest.post(f"/api/games/{made['id']}/join", {})
    assert answer[0] == 400 and "sign in" in one_line(*answer)
    answer = hal.post(f"/api/games/{made['id']}/join", {})
    assert answer[0] == 400 and "Hal has a seat" in one_line(*answer)
    for bad in (
        {**rated, "seats": [{"kind": "person"}, {"kind": "person"}]},
        {**rated, "table": True},
        {**rated, "seed": "7"},
    ):
        answer = hal.post("/api/games", bad)
        assert answer[0] == 400 and one_line(*answer)
    status, joined = ida.post(f"/api/games/{made['id']}/join", {})
    assert status == 200
    view = hello(server, made["id"], joined["token"])
    assert view["rated"] is True and view["seat"] == joined["seat"]
    assert [(s["name"], s["account"], s["bot"]) for s in view["seats"]] == [
        ("Hal", True, False),
        ("Ida", True, False),
    ]

    # Seeks: never paired with oneself, rated never with casual.
    seek = {"game": "robo-pigs", "options": {"round_limit": 13}, "rated": True}
    first = hal.post("/api/seek", seek)[1]
    second = hal.post("/api/seek", seek)[1]
    assert not first["paired"] and not second["paired"] and first["id"] != second["id"]
    casual = ida.post("/api/seek", {**seek, "rated": False})[1]
    assert not casual["paired"] and casual["rated"] is False
    status, paired = jo.post("/api/seek", seek, csrf=False)
    assert status == 200 and paired["paired"] and paired["id"] == first["id"] and paired["rated"] is True
    paired_too = ida.post("/api/seek", seek)[1]
    assert paired_too["paired"] and paired_too["id"] == second["id"]
    waiting = jo.post("/api/seek", {**seek, "options": {"round_limit": 14}}, csrf=False)[1]
    assert not waiting["paired"]

    # The lobby marks accounts, bots and rated games.
    entries = {g["id"]: g for g in server.get("/api/lobby")[1]["games"]}
    assert first["id"] not in entries and second["id"] not in entries
    assert entries[waiting["id"]]["rated"] is True and entries[casual["id"]]["rated"] is False
    (bots_seat,) = [s for s in entries[waiting["id"]]["seats"] if s["kind"] != "open"]
    assert bots_seat == {
        "seat": bots_seat["seat"],
        "kind": "person",
        "name": "Jo-bot",
        "account": True,
        "bot": True,
    }

    # An account's seat: a fresh token for its own seat only; the seat's old token stops opening it.
    status, seat = hal.post(f"/api/games/{first['id']}/seat")
    assert (
        status == 200
        and seat["seat"] == first["seat"]
        and seat["link"] == f"/play/{first['id']}#{seat['token']}"
    )
    assert hello(server, first["id"], seat["token"])["seat"] == first["seat"]
    assert hello(server, first["id"], first["token"])["type"] == "error"
    status, bots = jo.post(f"/api/games/{first['id']}/seat", csrf=False)
    assert status == 200 and bots["seat"] == paired["seat"]
    view = hello(server, first["id"], bots["token"])
    assert view["seat"] == paired["seat"] and view["rated"] is True
    # Both seats came: the live lobby lists the game as played, rated, with its bot.
    with connect(f"ws://127.0.0.1:{server.port}/ws/lobby", open_timeout=10) as ws:
        lists = receive(ws)
    assert {g["id"]: g["rated"] for g in lists["open"]}[waiting["id"]] is True
    playing = {g["id"]: g for g in lists["playing"]}
    assert playing[first["id"]]["rated"] is True
    assert {s["name"]: s["bot"] for s in playing[first["id"]]["seats"]} == {"Hal": False, "Jo-bot": True}
    # Neither an API token nor a session opens a seat over the WebSocket: only a seat's token does.
    assert hello(server, first["id"], str(jo.token))["type"] == "error"
    assert hello(server, first["id"], hal.cookies[SESSION_COOKIE])["type"] == "error"
    answer = ida.post(f"/api/games/{first['id']}/seat")
    assert answer[0] == 404 and "Ida has no seat" in one_line(*answer)
    answer = guest.post(f"/api/games/{first['id']}/seat")
    assert answer[0] == 401 and one_line(*answer)

    # The account's games, newest first, by status.
    games = hal.get("/api/account/games")[1]["games"]
    assert [g["id"] for g in games] == [second["id"], first["id"], made["id"]]
    assert all(g["rated"] and g["seats"] for g in games)
    assert games[1]["seat"] == first["seat"] and games[1]["status"] == "playing"
    with connect(f"ws://127.0.0.1:{server.port}/ws/games/{made['id']}", open_timeout=10) as ws:
        ws.send(json.dumps({"type": "hello", "token": hals[0]}))
        receive(ws)
        ws.send(json.dumps({"type": "resign"}))  # nobody has moved: the game is aborted
        view = receive(ws)
        while view["type"] != "view" or view["result"] is None:
            view = receive(ws)
    finished = hal.get("/api/account/games?status=finished")[1]["games"]
    assert [g["id"] for g in finished] == [made["id"]] and finished[0]["replay"] == f"/replay/{made['id']}"
    assert [g["id"] for g in hal.get("/api/account/games?status=playing")[1]["games"]] == [
        second["id"],
        first["id"],
    ]
    # A rated game's rematch is rated too, each seat still its account's.
    status, again = hal.post(f"/api/games/{made['id']}/rematch", {"token": hals[0]})
    assert status == 200 and again["seat"] == 1
    status, again_ida = ida.post(f"/api/games/{made['id']}/rematch", {"token": joined["token"]})
    assert status == 200 and again_ida["id"] == again["id"] and again_ida["seat"] == 0
    view = server.get(f"/api/games/{again['id']}")[1]
    assert view["rated"] is True
    assert [(s["name"], s.get("account")) for s in view["seats"]] == [("Ida", True), ("Hal", True)]
    assert ida.get("/api/account/games?status=playing")[1]["games"][0]["id"] == again["id"]

    # Claiming a guest's seats by their tokens: never another account's seat, one seat per game.
    two = {
        "game": "robo-pigs",
        "options": pigs,
        "seats": [{"kind": "person", "name": "me"}, {"kind": "person"}],
    }
    guests = guest.post("/api/games", two)[1]
    tokens = [s["token"] for s in guests["seats"]]
    status, claimed = hal.post("/api/account/claim", {"tokens": [*tokens, "unknown", seat["token"]]})
    assert status == 200 and claimed == {"claimed": [guests["id"]]}
    view = server.get(f"/api/games/{guests['id']}")[1]
    assert sum(s.get("account", False) for s in view["seats"]) == 1 and "Hal" in [
        s["name"] for s in view["seats"]
    ]
    # Hal's seats (claimed, or his from the start) are not Ida's to claim; the game's other guest seat
    # stays a guest's (Hal has a seat there).
    mine = [*hals.values(), seat["token"]]
    assert ida.post("/api/account/claim", {"tokens": [*mine, tokens[0], joined["token"]]})[1] == {
        "claimed": []
    }
    assert hal.post("/api/account/claim", {"tokens": tokens})[1] == {"claimed": []}
    assert hal.get("/api/account/games")[1]["games"][0]["id"] == guests["id"]

    # Nothing anyone sees holds an email, a seat's token or a token's hash.
    secrets = [f"{n}@example.org" for n in ("hal", "ida", "jo-bot")]
    for token in [*hals.values(), joined["token"], first["token"], seat["token"], bots["token"], *tokens]:
        secrets += [token, digest(token)]
    secrets += [again["token"], digest(again["token"]), again_ida["token"], digest(again_ida["token"])]
    for token in (second["token"], paired_too["token"], waiting["token"], casual["token"], paired["token"]):
        secrets += [token, digest(token)]
    seen = [
        server.get("/api/lobby")[1],
        lists,
        hal.get("/api/account/games")[1],
        jo.get("/api/account/games")[1],
    ]
    seen += [server.get(f"/api/games/{g}")[1] for g in (made["id"], first["id"], second["id"], guests["id"])]
    seen.append(hello(server, first["id"], bots["token"]))
    for path in (f"/api/games/{made['id']}/record", f"/api/games/{made['id']}/replay?seat=0"):
        status, answer = server.get(path)
        assert status == 200 and "Hal" in json.dumps(answer)
        seen.append(answer)
    text = json.dumps(seen)
    for secret in secrets:
        assert secret not in text


def bot_script(port: int) -> str:
    doc = (ROOT / "docs" / "server.md").read_text(encoding="utf-8")
    code = doc.split("### A rated bot in a few lines", 1)[1].split("```python\n", 1)[1].split("```", 1)[0]
    assert '"127.0.0.1:8000"' in code
    return code.replace('"127.0.0.1:8000"', f'"127.0.0.1:{port}"')


def test_the_rated_bot_in_the_docs_plays_rated_games_against_itself(server: Server) -> None:
    code = bot_script(server.port)
    # One copy signs up by itself; the other is given a token, as a bot run again would be.
    given = signed_up(server, "doc-bot-2", bot=True)
    copies = []
    for extra in ({"BOT_NAME": "doc-bot-1"}, {"TUSSLE_TOKEN": str(given.token)}):
        env = {**os.environ, "GAMES": "1", **extra}
        copies.append(
            subprocess.Popen(
                [sys.executable, "-X", "faulthandler", "-c", code],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                env=env,
            )
        )
    outputs = []
    for copy in copies:
        try:
            out, err = copy.communicate(timeout=120)
        except subprocess.TimeoutExpired:
            # Where each copy waits (faulthandler's dump on SIGABRT), and what the server says of
            # their games.
            stuck = []
            for c in copies:
                if c.poll() is None:
                    c.send_signal(signal.SIGABRT)
                stuck.append(c.communicate())
            games = AccountClient(server.url, token=given.token).get("/api/account/games")[1]
            views = [server.get(f"/api/games/{g['id']}")[1] for g in games["games"]]
            raise AssertionError(json.dumps({"copies": stuck, "games": games, "views": views})) from None
        assert copy.returncode == 0, err
        outputs.append(out.splitlines())
    first_token = outputs[0][0].removeprefix("TUSSLE_TOKEN=")
    assert outputs[0][0].startswith("TUSSLE_TOKEN=") and len(outputs[0]) == 2 and len(outputs[1]) == 1
    names = {"doc-bot-1", "doc-bot-2"}
    for token in (first_token, given.token):
        bot = AccountClient(server.url, token=token)
        games = bot.get("/api/account/games")[1]["games"]
        assert len(games) == 1
        for game in games:
            assert game["rated"] and game["status"] == "finished" and game["result"] is not None
            assert {s["name"] for s in game["seats"]} == names
            assert all(s["account"] and s["bot"] for s in game["seats"])
    for name in sorted(names):  # both rated, once each
        status, player = server.get(f"/api/players/{name}")
        assert status == 200 and player["bot"] is True, player
        (fite,) = [r for r in player["ratings"] if r["game"] == "fite"]
        assert fite["games"] == 1 and len(fite["history"]) == 1, fite

    # Stopped (SIGTERM) while its seek waits for an opponent, it ends at once; its game waits for it.
    third = signed_up(server, "doc-bot-3", bot=True)
    env = {**os.environ, "TUSSLE_TOKEN": str(third.token)}
    stopped = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True, env=env)
    try:
        deadline = time.monotonic() + 30
        while not third.get("/api/account/games")[1]["games"]:
            assert time.monotonic() < deadline and stopped.poll() is None
            time.sleep(0.1)
        time.sleep(0.3)  # its WebSocket is open
        stopped.terminate()
        assert stopped.wait(10) == 0 and stopped.stdout is not None and stopped.stdout.read() == ""
    finally:
        stopped.kill()
        stopped.wait()
    (waiting,) = third.get("/api/account/games")[1]["games"]
    assert waiting["status"] == "waiting" and waiting["rated"]


def test_the_account_bounds_in_the_docs_are_the_servers() -> None:
    from tussle.server.accounts import MIN_PASSWORD
    from tussle.server.limits import SIGN_IN_WINDOW, Limits

    text = " ".join((ROOT / "docs" / "server.md").read_text(encoding="utf-8").split())
    limits, minutes = Limits(), SIGN_IN_WINDOW // 60
    for line in (
        f"| `sign_ins` | {limits.sign_ins} sign-in and sign-up attempts from one address in any "
        f"{minutes} minutes",
        f"| `sign_ins_per_account` | {limits.sign_ins_per_account} sign-in attempts (and password changes) "
        f"at one account in any {minutes} minutes",
        f"over a moving window of {minutes} minutes: `sign_ins` (default {limits.sign_ins})",
        f"`sign_ins_per_account` (default {limits.sign_ins_per_account})",
        f"kept {SESSION_DAYS} days (`Max-Age={SESSION_DAYS * 86400}`)",
        f"(at least {MIN_PASSWORD} characters, at most 200, not holding the name)",
        f"the `{SESSION_COOKIE}` cookie",
        f"header `{CSRF_HEADER}` holding the value of the `{CSRF_COOKIE}` cookie",
    ):
        assert " ".join(line.split()) in text, line


def test_a_refused_account_signs_in_again_once_the_window_has_passed(monkeypatch: pytest.MonkeyPatch) -> None:
    from tussle.server import limits

    # The same counting as the server's, over a window of 1 s rather than 10 minutes.
    monkeypatch.setattr(limits, "SIGN_IN_WINDOW", 1)
    clients = limits.Clients(limits.Limits(sign_ins=100, sign_ins_per_account=2))

    async def attempts() -> list[bool]:
        out = [await clients.sign_in(f"10.0.0.{n}", "ann") is None for n in range(3)]
        await asyncio.sleep(1.2)
        out.append(await clients.sign_in("10.0.0.9", "ann") is None)
        return out

    assert asyncio.run(attempts()) == [True, True, False, True]
