"""What one client may ask of the server: requests and messages per second, connections, games in play.

A client is its IP address: the address of the connection, or, from a proxy
named with ``--trust-proxy``, the address that proxy forwards. A client over a
bound gets a one-line error (HTTP 429 with ``Retry-After``, or a WebSocket error
message) and the request changes nothing.

Where the bounds are kept decides whether they bind a whole deployment:

- request rates and open connections are counted in Redis when the server is
  given one (``--redis URL``), so that every process of a deployment counts
  against the same budget; without Redis they are counted in the process's
  memory, which binds a deployment of one process;
- games in play are counted in the database (each game remembers the client
  that made it), so they are shared by every process on it, Redis or not;
- WebSocket messages are counted per connection, which lives in one process.

Rates are a moving window (the ``limits`` library): ``requests_per_second``
*r* allows 2*r* requests in any two seconds, so a page that loads a few files
at once is not refused, while a steady flood is held to *r* a second.

>>> bucket = Bucket(rate=2.0, burst=2)
>>> [bucket.take(now=0.0) for _ in range(3)]
[True, True, False]
>>> bucket.take(now=0.5)
True
"""

from __future__ import annotations

import logging
import math
import time
import uuid
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from limits import RateLimitItemPerSecond
from limits.aio.storage import MemoryStorage, RedisStorage
from limits.aio.strategies import MovingWindowRateLimiter

log = logging.getLogger("tussle.server")

#: How long a process's count of a connection lives in Redis without being renewed: a process
#: that is killed stops renewing, and its connections stop counting after this many seconds.
CONNECTION_LEASE = 60.0
#: How often a process renews its connections' counts in Redis, in seconds.
RENEW_SECONDS = 20.0


#: The window sign-in attempts are counted over, in seconds.
SIGN_IN_WINDOW = 600


@dataclass(frozen=True)
class Limits:
    """The bounds per client; the defaults suit friends and bots on one server."""

    requests_per_second: float = 20.0
    """HTTP requests, with bursts of twice as many."""
    messages_per_second: float = 20.0
    """WebSocket messages on one connection, with bursts of twice as many."""
    connections: int = 64
    """WebSockets open at once."""
    open_games: int = 100
    """Games made and not finished yet."""
    outbox: int = 200
    """Messages waiting to be sent on one WebSocket: a client further behind is closed (code 4008)."""
    lobby_connections: int = 4
    """Live lobby WebSockets open at once (each counts among ``connections`` too): a few tabs."""
    sign_ins: int = 20
    """Sign-in and sign-up attempts from one address in any :data:`SIGN_IN_WINDOW` seconds."""
    sign_ins_per_account: int = 10
    """Sign-in attempts at one account, from anywhere, in any :data:`SIGN_IN_WINDOW` seconds: guessing
    one account's password from many addresses is as slow as from one."""


@dataclass
class Bucket:
    """A token bucket: ``rate`` a second, at most ``burst`` saved up (one connection's messages)."""

    rate: float
    burst: float
    tokens: float = -1.0
    stamp: float = field(default_factory=time.monotonic)

    def take(self, now: float | None = None) -> bool:
        """Spend a token if there is one."""
        now = time.monotonic() if now is None else now
        if self.tokens < 0:
            self.tokens = self.burst
        else:
            self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False


@dataclass(frozen=True)
class Refusal:
    """Why a client is refused, and after how many seconds it may try again."""

    message: str
    retry_after: int


class Clients:
    """Each client's request rate and open connections, in Redis (shared) or in memory (this process)."""

    def __init__(self, limits: Limits, redis_url: str | None = None) -> None:
        self.limits = limits
        self.redis_url = redis_url
        rate = limits.requests_per_second
        # 2r in any 2 seconds: r a second, with bursts of 2r (a whole second's worth saved up).
        self._window = RateLimitItemPerSecond(max(1, math.ceil(2 * rate)), 2)
        # The page's own files (scripts, styles, a game's drawing) count in a window of their own, ten
        # times as wide: a game page loads about ten of them at once, and each is a small file.
        self._static_window = RateLimitItemPerSecond(max(1, math.ceil(20 * rate)), 2)
        self._storage: MemoryStorage | RedisStorage = (
            RedisStorage(_async_url(redis_url), implementation="redispy") if redis_url else MemoryStorage()
        )
        self._limiter = MovingWindowRateLimiter(self._storage)
        self._redis: Any = None
        if redis_url:
            import redis.asyncio

            self._redis = redis.asyncio.from_url(redis_url)
        self._connections: dict[str, int] = defaultdict(int)
        #: This process's connections as Redis knows them: member name -> client.
        self._leases: dict[str, str] = {}
        self._warned = 0.0

    @property
    def shared(self) -> bool:
        return self._redis is not None

    async def request(self, client: str, *, static: bool = False) -> Refusal | None:
        """None if ``client`` may make another HTTP request now (``static``: for one of the
        page's own files), else why not."""
        window, kind = (self._static_window, "static") if static else (self._window, "requests")
        try:
            if await self._limiter.hit(window, kind, client):
                return None
            stats = await self._limiter.get_window_stats(window, kind, client)
            wait = max(1, math.ceil(stats.reset_time - time.time()))
        except Exception as exc:  # Redis went away: serve on rather than refuse everyone
            self._warn(exc)
            return None
        limit = self.limits.requests_per_second
        return Refusal(f"too many requests: at most {limit:g} a second; wait {wait} s", wait)

    async def sign_in(self, client: str, account: str | None) -> Refusal | None:
        """None if ``client`` may try to sign in (at ``account``, a name or email in lower case; None
        for a sign-up) now, else why not. Every attempt counts, right or wrong."""
        checks = [(RateLimitItemPerSecond(self.limits.sign_ins, SIGN_IN_WINDOW), "sign-in", client)]
        if account is not None:
            most = self.limits.sign_ins_per_account
            checks.append((RateLimitItemPerSecond(most, SIGN_IN_WINDOW), "sign-in-account", account))
        for item, kind, key in checks:
            try:
                if await self._limiter.hit(item, kind, key):
                    continue
                stats = await self._limiter.get_window_stats(item, kind, key)
                wait = max(1, math.ceil(stats.reset_time - time.time()))
            except Exception as exc:  # Redis went away: counted nowhere rather than refusing everyone
                self._warn(exc)
                return None
            whose = "this account" if kind == "sign-in-account" else "your address"
            return Refusal(
                f"too many sign-in attempts at {whose}: at most {item.amount} in {SIGN_IN_WINDOW // 60} "
                f"minutes; wait {wait} s",
                wait,
            )
        return None

    def message_bucket(self) -> Bucket:
        rate = self.limits.messages_per_second
        return Bucket(rate, 2 * rate)

    async def connect(
        self, client: str, *, kind: str = "", most: int | None = None
    ) -> tuple[str | None, str | None]:
        """(a handle for :meth:`disconnect`, None), or (None, why ``client`` may open no more).

        ``kind`` names connections counted apart, against ``most`` of them (the live lobby's).
        """
        most = self.limits.connections if most is None else most
        refused = f"too many {kind + ' ' if kind else ''}connections: at most {most} open at once"
        client = f"{kind}:{client}" if kind else client
        if self._redis is None:
            if self._connections[client] >= most:
                return None, refused
            self._connections[client] += 1
            return client, None
        key = _connections_key(client)
        member = uuid.uuid4().hex
        now = time.time()
        try:
            async with self._redis.pipeline(transaction=True) as pipe:
                pipe.zremrangebyscore(key, "-inf", now)
                pipe.zadd(key, {member: now + CONNECTION_LEASE})
                pipe.zcard(key)
                pipe.expire(key, int(CONNECTION_LEASE) * 2)
                _, _, count, _ = await pipe.execute()
            if count > most:
                await self._redis.zrem(key, member)
                return None, refused
        except Exception as exc:
            self._warn(exc)
            return "", None
        self._leases[member] = client
        return member, None

    async def disconnect(self, handle: str | None) -> None:
        if handle is None:
            return
        if self._redis is None:
            self._connections[handle] -= 1
            if self._connections[handle] <= 0:
                del self._connections[handle]
            return
        client = self._leases.pop(handle, None)
        if client is None:
            return
        try:
            await self._redis.zrem(_connections_key(client), handle)
        except Exception as exc:
            self._warn(exc)

    async def renew(self) -> None:
        """Renew this process's connections in Redis (every :data:`RENEW_SECONDS`)."""
        if self._redis is None or not self._leases:
            return
        until = time.time() + CONNECTION_LEASE
        try:
            async with self._redis.pipeline(transaction=False) as pipe:
                for member, client in self._leases.items():
                    pipe.zadd(_connections_key(client), {member: until}, xx=True)
                await pipe.execute()
        except Exception as exc:
            self._warn(exc)

    async def ping(self) -> bool:
        """Whether the shared store answers (always true without Redis)."""
        if self._redis is None:
            return True
        try:
            return bool(await self._redis.ping())
        except Exception:
            return False

    async def close(self) -> None:
        if self._redis is not None:
            for member in list(self._leases):
                await self.disconnect(member)
            await self._redis.aclose()

    def _warn(self, exc: BaseException) -> None:
        # Once a minute at most: a Redis outage must not flood the log.
        if time.monotonic() - self._warned > 60:
            self._warned = time.monotonic()
            log.warning("limits: Redis does not answer (%s); requests are let through meanwhile", exc)


def _connections_key(client: str) -> str:
    return f"tussle:connections:{client}"


def _async_url(url: str) -> str:
    """The ``limits`` library's name for an asynchronous Redis URL."""
    return url if url.startswith("async+") else f"async+{url}"
