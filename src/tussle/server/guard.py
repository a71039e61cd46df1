"""What stands in front of the server's application: the Host it answers to, bounded bodies, request rates.

An ASGI middleware, so that it sees every request before FastAPI reads a byte
of it, WebSockets included:

- **Host**: a request whose ``Host`` header names no host the server serves is
  refused (HTTP 421, or the WebSocket closed with 1008). A page elsewhere can
  point a name it controls at 127.0.0.1 (DNS rebinding) and reach a desktop
  server with its own origin; it cannot make the browser send this server's
  name as the Host.
- **Bodies** are counted as they are read, chunked ones included, and a request
  over its bound is answered 413 without reading on; a body that takes longer
  than :data:`BODY_SECONDS` to arrive is answered 408.
- **Rates**: each client's HTTP requests are counted (:class:`~tussle.server.limits.Clients`);
  over its rate a client is answered 429 with ``Retry-After``.

>>> hosts = AllowedHosts.serving("127.0.0.1")
>>> [hosts.allows(h) for h in ("127.0.0.1:8000", "localhost", "[::1]:80", "evil.example:8000", "")]
[True, True, True, False, False]
>>> anywhere = AllowedHosts.serving("0.0.0.0")
>>> anywhere.allows("192.0.2.7:8000"), anywhere.allows("a.example")
(True, False)
>>> AllowedHosts.serving("0.0.0.0", ("Games.Example.org",)).allows("games.example.org.:443")
True
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import logging
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass
from typing import Any

from tussle.server.limits import Clients

log = logging.getLogger("tussle.server")

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

#: The longest a request's body may take to arrive, in seconds.
BODY_SECONDS = 10.0

#: The most of a body over its bound that is read (and thrown away) before the answer.
DRAIN_BYTES = 1024 * 1024
#: Sent with an answer given before the body was read whole: the connection ends, rather than
#: reading (and throwing away) whatever more the client sends.
CLOSE = [(b"connection", b"close")]

#: The paths of the page's own files: counted apart from the API (Clients.request).
STATIC_PATHS = ("/web/", "/draw/")

_LOOPBACK = ("127.0.0.1", "localhost", "::1")
_WILDCARD = ("0.0.0.0", "::", "")


@dataclass(frozen=True)
class AllowedHosts:
    """The names a request's ``Host`` may give (without the port); ``*`` allows any."""

    names: frozenset[str]
    ip_literals: bool = False
    """Any IP address as the host (a server bound to every address): a rebinding page sends a name."""

    @classmethod
    def serving(cls, bind: str, extra: tuple[str, ...] = ()) -> AllowedHosts:
        """The hosts of a server bound to ``bind``, and the names an operator adds (``--allowed-host``)."""
        names = {_bare(name) for name in extra}
        bare = _bare(bind)
        if bare in _WILDCARD:
            return cls(frozenset(names | {"localhost"}), ip_literals=True)
        names.add(bare)
        if _is_loopback(bare):
            names.update(_LOOPBACK)
        return cls(frozenset(names))

    def allows(self, host: str) -> bool:
        name = _bare(_strip_port(host))
        if not name:
            return False
        if "*" in self.names or name in self.names:
            return True
        return self.ip_literals and _is_ip(name)


def _strip_port(host: str) -> str:
    host = host.strip()
    if host.startswith("["):
        return host[1:].partition("]")[0]
    if host.count(":") == 1:
        return host.partition(":")[0]
    return host


def _bare(name: str) -> str:
    return name.strip().strip("[]").rstrip(".").lower()


def _is_ip(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def _is_loopback(name: str) -> bool:
    if name == "localhost":
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def client_of(scope: Scope) -> str:
    """Who is asking: the connection's address (or what a trusted proxy forwarded for it)."""
    client = scope.get("client")
    return str(client[0]) if client else "?"


class Guard:
    """The middleware: Host, body bounds and request rates, before the application sees a request."""

    def __init__(
        self,
        app: ASGIApp,
        *,
        hosts: AllowedHosts,
        clients: Clients,
        body_limit: Callable[[str], int],
    ) -> None:
        self.app = app
        self.hosts = hosts
        self.clients = clients
        self.body_limit = body_limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        hosts = [bytes(v).decode("latin-1") for k, v in scope.get("headers", ()) if k == b"host"]
        host = hosts[0] if len(hosts) == 1 else ""  # two Host headers: which one a proxy read is unknown
        if not self.hosts.allows(host):
            log.info(
                "refused: client %s asked for host %r, which this server does not serve",
                client_of(scope),
                host,
            )
            if kind == "websocket":
                await send({"type": "websocket.close", "code": 1008})
                return
            await _answer(send, 421, f"this server does not serve the host {host[:100]!r}")
            return
        if kind == "websocket":
            await self.app(scope, receive, send)
            return
        most = self.body_limit(scope.get("path", ""))
        length = _header(scope, b"content-length")
        # Far over its bound: refused unread. A little over: read and thrown away (_read_body).
        if length and (not length.isdigit() or int(length) > max(most, DRAIN_BYTES)):
            await _answer(send, 413, f"a request body may have at most {most:,} bytes", CLOSE)
            return
        path = str(scope.get("path", ""))
        refusal = await self.clients.request(client_of(scope), static=path.startswith(STATIC_PATHS))
        if refusal is not None:
            await _answer(send, 429, refusal.message, [(b"retry-after", str(refusal.retry_after).encode())])
            return
        try:
            async with asyncio.timeout(BODY_SECONDS):
                body = await _read_body(receive, most)
        except TimeoutError:
            await _answer(
                send, 408, f"the request's body took longer than {BODY_SECONDS:g} s to arrive", CLOSE
            )
            return
        if body is None:
            await _answer(send, 413, f"a request body may have at most {most:,} bytes", CLOSE)
            return
        if isinstance(body, bool):
            return  # the client went away while sending
        await self.app(scope, _replay(body, receive), send)


def _header(scope: Scope, name: bytes) -> str:
    for key, value in scope.get("headers", ()):
        if key == name:
            return bytes(value).decode("latin-1")
    return ""


async def _read_body(receive: Receive, most: int) -> bytes | bool | None:
    """The whole body; None if it is over ``most`` bytes; False if the client left.

    A body over ``most`` is read on, and thrown away, up to :data:`DRAIN_BYTES`, so that a
    proxy still sending it hears the answer rather than a closed connection (nginx would make
    that a 502); past that, reading stops.
    """
    parts: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return False
        chunk = bytes(message.get("body", b""))
        size += len(chunk)
        if size <= most:
            parts.append(chunk)
        elif size > DRAIN_BYTES or not message.get("more_body", False):
            return None
        if not message.get("more_body", False):
            return b"".join(parts)


def _replay(body: bytes, receive: Receive) -> Receive:
    """A ``receive`` that gives the application the body already read, then waits as the real one does."""
    sent = False

    async def again() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return again


async def _answer(
    send: Send, status: int, message: str, headers: list[tuple[bytes, bytes]] | None = None
) -> None:
    payload = json.dumps({"error": message}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(payload)).encode()),
                *(headers or []),
            ],
        }
    )
    await send({"type": "http.response.body", "body": payload})
