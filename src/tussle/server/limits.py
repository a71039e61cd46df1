"""What one client may ask of the server: requests and messages per second, connections, games in play.

A client is its IP address (behind a reverse proxy, the address the proxy
forwards). Every bound is per server process and kept in memory: enough to
stop a runaway script or a flood, with no state to clean up. A client over a
bound gets a one-line error (HTTP 429, or a WebSocket error message) and the
request changes nothing.

>>> bucket = Bucket(rate=2.0, burst=2)
>>> [bucket.take(now=0.0) for _ in range(3)]
[True, True, False]
>>> bucket.take(now=0.5)
True
"""

from __future__ import annotations

import time
from collections import defaultdict
from dataclasses import dataclass, field


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


@dataclass
class Bucket:
    """A token bucket: ``rate`` a second, at most ``burst`` saved up."""

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


class Clients:
    """Each client's buckets, connections and unfinished games."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self._requests: dict[str, Bucket] = {}
        self.connections: dict[str, int] = defaultdict(int)
        self.games: dict[str, set[str]] = defaultdict(set)

    def request(self, client: str) -> str | None:
        """None if ``client`` may make another HTTP request now, else why not."""
        bucket = self._requests.get(client)
        if bucket is None:
            if len(self._requests) > 100_000:  # forget idle clients rather than grow without end
                self._requests.clear()
            rate = self.limits.requests_per_second
            bucket = self._requests[client] = Bucket(rate, 2 * rate)
        if bucket.take():
            return None
        return f"too many requests: at most {self.limits.requests_per_second:g} a second; wait a moment"

    def message_bucket(self) -> Bucket:
        rate = self.limits.messages_per_second
        return Bucket(rate, 2 * rate)

    def connect(self, client: str) -> str | None:
        """None and the connection counted, or why ``client`` may open no more."""
        if self.connections[client] >= self.limits.connections:
            return f"too many connections: at most {self.limits.connections} open at once"
        self.connections[client] += 1
        return None

    def disconnect(self, client: str) -> None:
        self.connections[client] -= 1
        if self.connections[client] <= 0:
            del self.connections[client]
