"""Chat in each game: two rooms, as at a club's table, kept in the store for every process.

Players talk among themselves (every seat's connection of the game), spectators among
themselves; neither room reaches the other, so no spectator can whisper to a player,
and a game at one screen (a table) has no chat: everybody at it is in the same room
already. A message carries only what a person typed, with the seat number and the
seat's display name of its writer (or "spectator") and when it was written: nothing
of any view, so nothing the rules hide.

Every message is stored before anyone hears of it (the store keeps each room's last
:data:`~tussle.server.store.CHAT_KEEP`), so a page that reconnects or reloads gets
the recent ones, and a process that did not write it reads it from the store when it
hears of it (PostgreSQL's NOTIFY, the same channel as a game's events) and passes it
to its own connections. Delivery reads the game's latest messages and sends those
this process has not sent yet: a message whose transaction commits after a later
one's is still delivered when its own notice comes.
"""

from __future__ import annotations

import asyncio
import logging
import unicodedata
from typing import TYPE_CHECKING, Any

from sqlalchemy.exc import SQLAlchemyError

from tussle.game import PUBLIC
from tussle.server.hub import HubError, LiveGame, Watcher
from tussle.server.limits import Bucket
from tussle.server.store import ChatLine, StoreError

if TYPE_CHECKING:
    from tussle.server.hub import Hub

log = logging.getLogger("tussle.server")

#: The longest message, in characters, after its ends are trimmed.
CHAT_CHARS = 300
#: Messages one connection may send at once, then one every CHAT_EVERY seconds.
CHAT_BURST = 5
CHAT_EVERY = 2.0
#: What a connection past its chat allowance is told.
RATE = (
    f"too many chat messages: {CHAT_BURST} at once, then one every {CHAT_EVERY:g} seconds; "
    "that one was not sent"
)
#: How many of a game's latest messages a delivery reads to find those not sent yet (more than
#: the rate limits let arrive between two notices).
WINDOW = 60
#: What a client sends, as its refusals say.
SHAPE = f'send {{"type": "chat", "text": "<1 to {CHAT_CHARS} characters>"}}'
#: Characters a message may not hold beyond controls and unpaired surrogates: line and paragraph
#: separators, and the direction overrides that make text read otherwise than it is written.
REFUSED = frozenset("\u2028\u2029\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


class ChatRateError(HubError):
    """A connection sent chat messages faster than its allowance."""


def chat_bucket() -> Bucket:
    """A connection's chat allowance (besides its allowance of messages of every kind)."""
    return Bucket(1 / CHAT_EVERY, CHAT_BURST)


def clean(text: object) -> str:
    """The message a person typed, trimmed; HubError (one line) if it is no printable text of 1 to
    :data:`CHAT_CHARS` characters.

    >>> clean("  good game  ")
    'good game'
    >>> clean("a\\nb")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    tussle.server.hub.HubError: a chat message is one line of printable text: no control characters, ...
    """
    if not isinstance(text, str):
        raise HubError(f"a chat message's text is a string: {SHAPE}")
    text = text.strip()
    # Nothing but spaces and invisible characters (a zero-width space) is no message either.
    if not any(unicodedata.category(c)[0] not in "ZC" for c in text):
        raise HubError(f"an empty chat message is not sent: {SHAPE}")
    if len(text) > CHAT_CHARS:
        raise HubError(f"a chat message may have at most {CHAT_CHARS} characters, not {len(text):,}")
    if any(c in REFUSED or unicodedata.category(c) in ("Cc", "Cs") for c in text):
        raise HubError(
            "a chat message is one line of printable text: "
            "no control characters, line breaks or direction overrides"
        )
    return text


def room_of(watcher: Watcher) -> str | None:
    """The room a connection talks and listens in: players (a seat's), spectators, or none (a table)."""
    if watcher.table:
        return None
    if watcher.seat == PUBLIC:
        return "spectators"
    return "players" if watcher.seat >= 0 else None


class Chat:
    """The chat of the hub's games: what a connection says, what it is told, what it finds on arrival."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub

    async def welcome(self, game_id: str, watcher: Watcher) -> None:
        """Send a new connection its room's stored messages (nothing if there are none, or at a table).

        The connection is among the game's watchers already: a message stored meanwhile reaches it
        twice at most (here and live), never not at all; a page tells them apart by their ids.
        """
        room = room_of(watcher)
        live = self.hub.live.get(game_id)
        if room is None or live is None:
            return
        try:
            async with live.chat_lock:
                if live.chat_seen is None:  # the first connection since the game was loaded here
                    recent = await asyncio.to_thread(self.hub.store.chat, game_id, None, WINDOW)
                    live.chat_seen = {m.id for m in recent}
            lines = await asyncio.to_thread(self.hub.store.chat, game_id, room)
        except SQLAlchemyError as exc:  # the database went away a moment: the game goes on without
            log.warning("game %s: no chat history sent: %s", game_id, exc)
            return
        if lines:
            await watcher.send(_message(room, lines, history=True))

    async def post(self, game_id: str, watcher: Watcher, text: object, allowance: Bucket) -> None:
        """Store what ``watcher``'s person wrote and tell its room; HubError (one line) if refused.

        A message refused for what it holds costs none of the connection's ``allowance``
        (:func:`chat_bucket`); one past it raises :class:`ChatRateError`.
        """
        room = room_of(watcher)
        if room is None:
            raise HubError("a game at one screen has no chat: everybody is at the same table")
        message = clean(text)
        if not allowance.take():
            raise ChatRateError(RATE)
        live = await self.hub.get(game_id)
        if room == "players":
            seat: int | None = watcher.seat
            info = live.seats[watcher.seat] if watcher.seat < len(live.seats) else None
            name = (info.name if info is not None else "") or live.state.player_name(watcher.seat)
        else:
            seat, name = None, "spectator"
        try:
            await asyncio.to_thread(self.hub.store.add_chat, game_id, room, seat, name, message)
        except StoreError as exc:
            raise HubError(str(exc)) from None
        await self.arrived(game_id)

    async def arrived(self, game_id: str) -> None:
        """Another process stored a message of ``game_id``: pass it to this process's connections."""
        live = self.hub.live.get(game_id)
        if live is None:
            return
        try:
            await self._deliver(live)
        except SQLAlchemyError as exc:  # read again at the next notice, or on reconnecting
            log.warning("game %s: chat not read: %s", game_id, exc)

    async def _deliver(self, live: LiveGame) -> None:
        """Send each room's connections the room's messages this process has not sent yet."""
        async with live.chat_lock:
            recent = await asyncio.to_thread(self.hub.store.chat, live.row.id, None, WINDOW)
            seen = live.chat_seen
            live.chat_seen = {m.id for m in recent}
            if seen is None:
                return  # nobody here was welcomed yet: whoever comes reads them from the store
            new = [m for m in recent if m.id not in seen]
        for room in ("players", "spectators"):
            lines = [m for m in new if m.room == room]
            if not lines:
                continue
            message = _message(room, lines)
            for watcher in list(live.watchers):
                if room_of(watcher) != room:
                    continue
                try:
                    await watcher.send(message)
                except Exception as exc:  # a connection that went away: the hub forgets (and closes) it
                    self.hub.drop(live, watcher, exc)


def _message(room: str, lines: list[ChatLine], *, history: bool = False) -> dict[str, Any]:
    return {"type": "chat", "room": room, "history": history, "messages": [m.to_json() for m in lines]}
