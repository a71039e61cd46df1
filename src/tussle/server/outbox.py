"""One WebSocket connection's messages out: queued, bounded, and sent by a task of the connection's own.

Whoever tells a connection something (the hub, after every event, to every
connection of a game) only puts the message in its outbox and goes on: a
client that reads slowly, or not at all, delays nobody else. Its outbox holds
at most :data:`OUTBOX_MESSAGES` messages and :data:`OUTBOX_BYTES` bytes; past
that the client is behind for good, and it is closed with code
:data:`TOO_SLOW` (it may connect again and get the whole view afresh).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from typing import Any

from fastapi import WebSocket

log = logging.getLogger("tussle.server")

#: The most messages, and bytes, waiting for one connection before it is closed as too slow.
OUTBOX_MESSAGES = 200
OUTBOX_BYTES = 4 * 1024 * 1024
#: The close code of a connection that did not read what it was sent (a private code: 4000-4999).
TOO_SLOW = 4008
#: The close code of a connection that a message could not be sent on (the standard "internal
#: error"): left open, it would never be sent another view; closed, its client connects again.
SEND_FAILED = 1011
#: The reason sent with it.
SEND_FAILED_REASON = "a message could not be sent: connect again"
#: How long a closing connection's last messages (a refusal) may take to leave, in seconds.
FLUSH_SECONDS = 5.0


class ConnectionGoneError(ConnectionError):
    """The connection is closed (or was closed for not reading): nothing more can be sent to it."""


class Outbox:
    """The messages waiting to be sent on one WebSocket, in order."""

    def __init__(
        self,
        websocket: WebSocket,
        who: str,
        *,
        most_messages: int = OUTBOX_MESSAGES,
        most_bytes: int = OUTBOX_BYTES,
    ) -> None:
        self.websocket = websocket
        self.who = who
        self.most_messages = most_messages
        self.most_bytes = most_bytes
        self.closed = False
        #: Whether it was closed for not reading what it was sent.
        self.too_slow = False
        self._queue: asyncio.Queue[str] = asyncio.Queue()
        self._bytes = 0
        self._task = asyncio.get_running_loop().create_task(self._pump())
        self._closing: asyncio.Task[None] | None = None

    async def send(self, message: dict[str, Any]) -> None:
        """Queue ``message``, never waiting; ConnectionGoneError if the connection is closed or behind."""
        if self.closed:
            raise ConnectionGoneError(self.who)
        try:
            text = json.dumps(message)
        except (TypeError, ValueError) as exc:
            log.warning("%s: closed: a message could not be written as JSON: %s", self.who, exc)
            self.close(SEND_FAILED, SEND_FAILED_REASON)
            raise ConnectionGoneError(self.who) from exc
        if self._queue.qsize() >= self.most_messages or self._bytes + len(text) > self.most_bytes:
            log.warning("%s: closed: it read too little of what it was sent", self.who)
            self.too_slow = True
            self.close(TOO_SLOW, "too slow: you did not read what the server sent")
            raise ConnectionGoneError(self.who)
        self._bytes += len(text)
        self._queue.put_nowait(text)

    async def _pump(self) -> None:
        try:
            while True:
                text = await self._queue.get()
                self._bytes -= len(text)
                await self.websocket.send_text(text)
        except asyncio.CancelledError:
            raise
        except Exception:  # the connection went away (closed all the same, in case it did not)
            self.close(SEND_FAILED, SEND_FAILED_REASON)

    async def flush(self) -> None:
        """Wait (a little) until every queued message has left."""
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(FLUSH_SECONDS):
                while not self._queue.empty() and not self.closed:
                    await asyncio.sleep(0.01)

    def close(self, code: int = 1000, reason: str = "") -> None:
        """Stop sending and close the connection with ``code``, in the background: the caller never waits."""
        if self._closing is not None:
            return
        self.closed = True
        self._task.cancel()

        async def closing() -> None:
            with contextlib.suppress(Exception):
                async with asyncio.timeout(FLUSH_SECONDS):
                    await self.websocket.close(code=code, reason=reason)

        self._closing = asyncio.get_running_loop().create_task(closing())

    async def aclose(self, code: int = 1000, reason: str = "") -> None:
        """Send what is queued (a little while at most), then close with ``code``."""
        await self.flush()
        self.close(code, reason)
        if self._closing is not None:
            with contextlib.suppress(Exception):
                await self._closing

    def stop(self) -> None:
        """The connection is over: stop the sending task."""
        self.closed = True
        self._task.cancel()
