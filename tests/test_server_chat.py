"""Chat in a game, over real WebSockets to ``tussle serve`` (SQLite and PostgreSQL; two processes).

Players talk among themselves and spectators among themselves; every message is stored, so a
reconnecting page gets the recent ones and a second process over the same database delivers
them too. A bad or too frequent message is refused in one line and reaches nobody.
"""

from __future__ import annotations

import asyncio
import json
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import ClientConnection, connect

from server_support import postgres_database
from test_server import Server, db, receive
from tussle.server.chat import CHAT_BURST, CHAT_CHARS, CHAT_EVERY, RATE, WINDOW
from tussle.server.store import CHAT_KEEP, Store, chat_table

__all__ = ["db"]  # the fixture, from test_server: every test here runs on SQLite and PostgreSQL

Message = dict[str, Any]


@pytest.fixture(scope="module")
def server(db: str) -> Iterator[Server]:
    s = Server(db)
    yield s
    s.stop()


def two_seats(server: Server, game: str = "fite") -> tuple[str, dict[int, str]]:
    made = server.post("/api/games", {"game": game, "seats": [{"kind": "person", "name": "Ann"}] * 2})[1]
    return made["id"], {s["seat"]: s["token"] for s in made["seats"]}


def opened(server: Server, game_id: str, token: str | None) -> ClientConnection:
    """A connection whose first view has come (and nothing else yet)."""
    ws = server.seat(game_id, token)
    first = receive(ws)
    assert first["type"] == "view", first
    return ws


def until(
    ws: ClientConnection, wanted: Callable[[Message], bool], seen: list[Message] | None = None
) -> Message:
    """The first message that is ``wanted``; every message before it goes into ``seen``."""
    while True:
        message = receive(ws)
        if wanted(message):
            return message
        if seen is not None:
            seen.append(message)


def said(text: str) -> Callable[[Message], bool]:
    return lambda m: m["type"] == "chat" and any(line["text"] == text for line in m["messages"])


def chat(ws: ClientConnection, text: object) -> None:
    ws.send(json.dumps({"type": "chat", "text": text}))


def texts(messages: list[Message]) -> list[str]:
    """The texts told, each once: a message stored while a connection's history is read reaches it
    twice (in the history and live), and a page tells them apart by their ids."""
    told: dict[int, str] = {}
    for m in messages:
        if m["type"] == "chat":
            for line in m["messages"]:
                told.setdefault(line["id"], line["text"])
    return list(told.values())


def test_players_and_spectators_talk_in_two_rooms_kept_apart(server: Server) -> None:
    game_id, tokens = two_seats(server)
    a, b = opened(server, game_id, tokens[0]), opened(server, game_id, tokens[1])
    watcher, other_watcher = opened(server, game_id, None), opened(server, game_id, None)
    started = time.time()

    chat(a, "  good luck  ")
    heard = until(b, said("good luck"))
    assert heard["room"] == "players" and heard["history"] is False
    (line,) = heard["messages"]
    assert set(line) == {"id", "seat", "name", "at", "text"}  # what was typed, by whom, when: no more
    assert line["seat"] == 0 and line["name"] == "Ann" and started - 1 < line["at"] < time.time() + 1
    assert until(a, lambda m: m["type"] == "chat")["messages"] == [line]  # the writer sees it too

    # A spectator's message reaches the spectators only; the players' one did not reach them.
    before: list[Message] = []
    chat(watcher, "who is winning?")
    own = until(watcher, said("who is winning?"), before)
    assert own["room"] == "spectators" and own["messages"][0]["seat"] is None
    assert own["messages"][0]["name"] == "spectator"
    assert not texts(before), before
    until(other_watcher, said("who is winning?"), before)
    assert not texts(before), before

    # ... and the spectators' one did not reach the players (delivered in order: it came first).
    between: list[Message] = []
    chat(b, "thanks")
    until(a, said("thanks"), between)
    assert texts(between) == [], between
    until(b, said("thanks"), between)
    assert "who is winning?" not in texts(between)
    for ws in (a, b, watcher, other_watcher):
        ws.close()


def test_bad_messages_and_a_table_are_refused_in_one_line_and_reach_nobody(server: Server) -> None:
    game_id, tokens = two_seats(server)
    a, b = opened(server, game_id, tokens[0]), opened(server, game_id, tokens[1])
    for bad, why in [
        ({"type": "chat"}, 'send {"type": "chat", "text":'),
        ({"type": "chat", "text": "hi", "to": 1}, 'send {"type": "chat", "text":'),
        ({"type": "chat", "text": 5}, "text is a string"),
        ({"type": "chat", "text": ["hi"]}, "text is a string"),
        ({"type": "chat", "text": "   "}, "an empty chat message"),
        ({"type": "chat", "text": "x" * (CHAT_CHARS + 1)}, f"at most {CHAT_CHARS} characters"),
        ({"type": "chat", "text": "two\nlines"}, "one line of printable text"),
        ({"type": "chat", "text": "bell\x07"}, "one line of printable text"),
        ({"type": "chat", "text": "\u202etxet"}, "direction overrides"),
    ]:
        a.send(json.dumps(bad))
        error = until(a, lambda m: m["type"] == "error")  # views may come between (b's arrival)
        assert error["type"] == "error" and why in error["error"], (bad, error)
        assert "\n" not in error["error"] and len(error["error"]) < 200
    longest = "y" * CHAT_CHARS
    chat(a, f"  {longest}\t")  # trimmed first: the length is what is left
    # The first message b hears is the good one: none of the refused ones reached it.
    assert texts([until(b, lambda m: m["type"] == "chat")]) == [longest]
    a.close()
    b.close()

    made = server.post("/api/games", {"game": "fite", "table": True, "seats": [{"kind": "person"}] * 2})[1]
    table = connect(f"ws://127.0.0.1:{server.port}/ws/games/{made['id']}", open_timeout=10, legacy=True)
    table.send(json.dumps({"type": "hello", "table": made["table"]}))
    assert receive(table)["type"] == "cover"
    chat(table, "hello")
    assert "a game at one screen has no chat" in until(table, lambda m: m["type"] == "error")["error"]
    table.close()


def test_any_script_and_emoji_pass_as_typed_and_odd_characters_do_not(server: Server) -> None:
    game_id, tokens = two_seats(server)
    a, b = opened(server, game_id, tokens[0]), opened(server, game_id, tokens[1])
    for raw, why in [
        ('{"type": "chat", "text": "half \\ud800 a pair"}', "one line of printable text"),  # a lone surrogate
        ('{"type": "chat", "text": "nul \\u0000"}', "one line of printable text"),
        (json.dumps({"type": "chat", "text": "\u200b\u200b"}), "an empty chat message"),  # invisible only
        (json.dumps({"type": "chat", "text": "\u00a0\u3000 "}), "an empty chat message"),  # wide spaces only
        (json.dumps({"type": "chat", "text": "\U0001f600" * (CHAT_CHARS + 1)}), f"at most {CHAT_CHARS}"),
    ]:
        a.send(raw)
        error = until(a, lambda m: m["type"] == "error")
        assert why in error["error"], (raw, error)
    good = [
        "\U0001f468\u200d\U0001f469\u200d\U0001f467 gg",
        "\u0645\u0631\u062d\u0628\u0627",
        "e\u0301te\u0301",
        "\U0001f600" * CHAT_CHARS,
    ]
    for text in good:
        chat(a, text)
    heard: list[Message] = []
    until(b, said(good[-1]), heard)
    assert [*texts(heard), good[-1]] == good  # each as it was typed, in order; nothing refused between
    a.close()
    b.close()


def test_a_connection_sends_a_few_messages_then_one_every_few_seconds(server: Server) -> None:
    game_id, tokens = two_seats(server)
    a, b = opened(server, game_id, tokens[0]), opened(server, game_id, tokens[1])
    for i in range(CHAT_BURST + 1):
        chat(a, f"spam {i}")
    refused = until(a, lambda m: m["type"] == "error")
    assert refused["error"].startswith("too many chat messages")
    heard: list[Message] = []
    until(b, said(f"spam {CHAT_BURST - 1}"), heard)
    # Another connection has an allowance of its own, and the limit refills with time.
    chat(b, "my turn to talk")
    until(a, said("my turn to talk"), heard)
    assert f"spam {CHAT_BURST}" not in texts(heard)
    time.sleep(CHAT_EVERY + 0.2)  # the bucket's refill time (the limit itself, not a guess at speed)
    chat(a, "one more")
    until(b, said("one more"))
    a.close()
    b.close()


def test_a_reconnecting_page_gets_its_rooms_recent_messages(server: Server, db: str) -> None:
    game_id, tokens = two_seats(server)
    a, watcher = opened(server, game_id, tokens[0]), opened(server, game_id, None)
    for text in ("first", "second"):
        chat(a, text)
        until(a, said(text))
    chat(watcher, "from the stands")
    until(watcher, said("from the stands"))
    a.close()
    watcher.close()
    # A page reloaded (or a seat that was never connected): its view, then its room's messages.
    for token, room, expected in [
        (tokens[0], "players", ["first", "second"]),
        (tokens[1], "players", ["first", "second"]),
        (None, "spectators", ["from the stands"]),
    ]:
        ws = opened(server, game_id, token)
        history = until(ws, lambda m: m["type"] == "chat")  # views may come first (presence)
        assert history["type"] == "chat" and history["history"] is True and history["room"] == room
        assert texts([history]) == expected
        ws.close()
    # The store keeps each room's last CHAT_KEEP; a page gets those, oldest first.
    store = Store.open(db)
    try:
        for i in range(CHAT_KEEP + 5):
            store.add_chat(game_id, "players", 1, "Ann", f"line {i}")
        assert len(store.chat(game_id, "players", limit=10_000)) == CHAT_KEEP
        assert texts(
            [{"type": "chat", "messages": [m.to_json() for m in store.chat(game_id, "spectators")]}]
        ) == ["from the stands"]
    finally:
        store.close()
    ws = opened(server, game_id, tokens[1])
    history = until(ws, lambda m: m["type"] == "chat")
    kept = texts([history])
    assert len(kept) == CHAT_KEEP and kept[0] == "line 5" and kept[-1] == f"line {CHAT_KEEP + 4}"
    ws.close()


def test_two_processes_over_one_postgresql_deliver_each_others_messages() -> None:
    with postgres_database() as url:
        first, second = Server(url), Server(url)
        try:
            made = first.post("/api/games", {"game": "fite", "seats": [{"kind": "person"}] * 2})[1]
            game_id = made["id"]
            a = opened(first, game_id, made["seats"][0]["token"])
            b = opened(second, game_id, made["seats"][1]["token"])
            here, there = opened(first, game_id, None), opened(second, game_id, None)
            tag = uuid.uuid4().hex[:6]
            chat(a, f"hello from the first {tag}")
            heard = until(b, said(f"hello from the first {tag}"))
            assert heard["room"] == "players" and heard["messages"][0]["seat"] == 0
            chat(b, f"and from the second {tag}")
            until(a, said(f"and from the second {tag}"))
            seen: list[Message] = []
            chat(there, f"spectating on the second {tag}")
            until(here, said(f"spectating on the second {tag}"), seen)
            assert not texts(seen)  # the players' messages did not reach the first's spectator
            seen.clear()
            chat(a, f"last {tag}")
            until(b, said(f"last {tag}"), seen)
            assert f"spectating on the second {tag}" not in texts(seen)
            for ws in (a, b, here, there):
                ws.close()
        finally:
            first.stop()
            second.stop()


def test_a_full_disk_refuses_a_message_in_one_line_and_nobody_hears_of_it(tmp_path: Path) -> None:
    # SQLite's own "database or disk is full", from a page limit (as in test_server_faults).
    import sqlalchemy as sa

    from tussle.game import PUBLIC
    from tussle.server.chat import chat_bucket
    from tussle.server.hub import Hub, HubError
    from tussle.server.store import Seat

    store = Store.open(f"sqlite:///{tmp_path / 'full.db'}")
    seats = [Seat(0, "person", None, "Ann", "h0"), Seat(1, "person", None, "Bo", "h1")]
    game_id = store.create_game("fite", {}, 2, seats, seed="s")
    heard: list[Message] = []

    async def listen(message: Message) -> None:
        heard.append(message)

    async def talk() -> str:
        hub = Hub(store)
        ann = await hub.watch(game_id, 0, listen)
        await hub.watch(game_id, 1, listen)
        await hub.watch(game_id, PUBLIC, listen)
        await hub.chat.welcome(game_id, ann)
        await hub.chat.post(game_id, ann, "before", chat_bucket())
        with store.engine.connect() as db:
            pages: int = db.exec_driver_sql("PRAGMA page_count").scalar_one()
        store.engine.dispose()

        @sa.event.listens_for(store.engine, "connect")
        def _cap(dbapi_connection: Any, _record: Any) -> None:
            dbapi_connection.execute(f"PRAGMA max_page_count = {pages + 1}")

        # Fill the file up to its limit (with rows the store would have pruned), to its last bytes.
        for size in (290, 1):
            for _ in range(10_000):
                try:
                    with store.engine.begin() as db:
                        db.execute(
                            chat_table.insert().values(
                                game_id=game_id,
                                room="spectators",
                                seat=None,
                                name="s",
                                at=0.0,
                                text="x" * size,
                            )
                        )
                except sa.exc.OperationalError as exc:
                    assert "full" in str(exc), exc
                    break
            else:
                raise AssertionError("the file never filled")
        heard.clear()
        try:
            await hub.chat.post(game_id, ann, "after", chat_bucket())
        except HubError as exc:
            return str(exc)
        raise AssertionError("a message was stored in a full file")

    message = asyncio.run(talk())
    assert "could not store the message" in message and "full" in message and "\n" not in message
    assert not [m for m in heard if m["type"] == "chat" and texts([m]) == ["after"]]
    store.close()


def test_the_chat_bounds_in_the_docs_are_the_servers() -> None:
    text = " ".join((Path(__file__).parents[1] / "docs" / "server.md").read_text().split())
    for line in (
        f"| a chat message ([Chat](#chat)) | 1 to {CHAT_CHARS} characters of one line; "
        f"{CHAT_BURST} at once on each WebSocket, then one every {CHAT_EVERY:g} s; "
        f"the last {CHAT_KEEP} of each game's room kept |",
        f"is 1 to {CHAT_CHARS} characters",
        f"Each connection may send {CHAT_BURST} at once, then one every {CHAT_EVERY:g} seconds",
        f"the store keeps the last {CHAT_KEEP} of each game's room",
        f"up to the game's latest {WINDOW} messages",
        RATE,
    ):
        assert " ".join(line.split()) in text, line
