"""The live lobby: every page that shows it is pushed the games waiting for players and the games
being played whenever either list changes, over one WebSocket each (``/ws/lobby``, docs/server.md).

One :class:`LobbyFeed` per server process reads the lists from the store (so that the games other
processes made are in them too) every :data:`LOBBY_EVERY` seconds while anybody listens, and at
once when this process changes them (a game made, joined, paired), and sends them only when they
changed. It never waits on a listener: each has an outbox (:mod:`tussle.server.outbox`) that closes
a connection that does not read what it is sent.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

log = logging.getLogger("tussle.server")

#: Seconds between two readings of the lists while anybody listens.
LOBBY_EVERY = 1.0
#: The most games each list holds: the oldest waiting, the latest started.
LOBBY_GAMES = 50
PLAYING_GAMES = 20
#: The most lobby messages, and bytes, waiting for one listener before it is closed as too slow.
LOBBY_OUTBOX = 8
LOBBY_OUTBOX_BYTES = 1024 * 1024

Send = Callable[[dict[str, Any]], Awaitable[None]]
Snapshot = Callable[[], Awaitable[dict[str, Any]]]


class LobbyFeed:
    """The lists, pushed to every listener of this process when they change."""

    def __init__(self, snapshot: Snapshot, every: float = LOBBY_EVERY) -> None:
        #: Reads both lists: ``{"open": [...], "playing": [...]}``.
        self.snapshot = snapshot
        self.every = every
        self._listeners: set[Send] = set()
        self._last: str | None = None
        self._message: dict[str, Any] | None = None
        self._task: asyncio.Task[None] | None = None
        self._poked = asyncio.Event()

    @property
    def listeners(self) -> int:
        return len(self._listeners)

    async def listen(self, send: Send) -> None:
        """Send ``send`` the lists now, and again whenever they change until :meth:`leave`."""
        self._listeners.add(send)
        if self._task is None or self._task.done():
            # Nobody listened: the lists are read afresh, and sent to every listener as news.
            self._last = None
            self._task = asyncio.get_running_loop().create_task(self._run())
        elif self._message is not None and self._last is not None:
            # The latest lists, as the feed last read them: a page opened in a crowd costs no reading
            # (a reading under way sends the new listener its lists anyway).
            await send(self._message)

    def leave(self, send: Send) -> None:
        self._listeners.discard(send)

    def poke(self) -> None:
        """The lists changed in this process: read them now rather than at the next tick."""
        self._poked.set()

    async def _read(self) -> dict[str, Any]:
        lists = await self.snapshot()
        return {"type": "lobby", **lists, "now": round(time.time(), 3)}

    async def _run(self) -> None:
        while self._listeners:
            self._poked.clear()
            try:
                message = await self._read()
            except Exception as exc:  # the database went away for a moment: try again at the next tick
                log.warning("lobby: could not read the lists (%s)", exc)
            else:
                # "now" moves at every reading: only a change of the lists is news.
                text = json.dumps({k: v for k, v in message.items() if k != "now"}, sort_keys=True)
                if text != self._last:
                    self._last, self._message = text, message
                    for send in list(self._listeners):
                        try:
                            await send(message)
                        except Exception:  # closed, or too slow (its outbox closes it): dropped
                            self._listeners.discard(send)
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(self.every):
                    await self._poked.wait()
        self._task = None

    def close(self) -> None:
        self._listeners.clear()
        if self._task is not None:
            self._task.cancel()
