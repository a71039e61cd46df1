"""What an operator sees of a running server: Prometheus metrics, and logs as one JSON object a line.

- :class:`Metrics`: the server's counters, histograms and gauges in a registry of
  its own (``prometheus_client``), served at ``/metrics`` in Prometheus's text format.
- :class:`JsonFormatter`: a log record as one JSON object (``--log-format json``),
  with the request, the client and the game where the record names them.
- :class:`AccessLog`: an ASGI middleware that logs every HTTP request once, at
  ``info`` on the ``tussle.access`` logger: method, path, status, time, client,
  and the game its path names.

>>> metrics = Metrics()
>>> metrics.refusals.labels("rate").inc()
>>> b'tussle_refusals_total{reason="rate"} 1.0' in metrics.render()
True
"""

from __future__ import annotations

import json
import logging
import re
import time
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest

from tussle.server.guard import ASGIApp, Message, Receive, Scope, Send, client_of

access = logging.getLogger("tussle.access")

#: A game's id in a request's path (``/api/games/ID/...``, ``/ws/games/ID``, ``/play/ID``).
_GAME_IN_PATH = re.compile(
    r"/(?:games|play|replay)/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})"
)


#: The bounds whose refusals an HTTP status tells.
_REFUSED = {413: "body", 408: "body_time", 421: "host", 429: "rate"}


class Metrics:
    """The server's metrics (one registry per application, so that tests may make several)."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        r = self.registry
        self.requests = Counter(
            "tussle_http_requests",
            "HTTP requests answered, by method and status",
            ["method", "status"],
            registry=r,
        )
        self.refusals = Counter(
            "tussle_refusals",
            "Requests and messages refused for a bound, by which bound",
            ["reason"],
            registry=r,
        )
        self.actions = Counter(
            "tussle_actions", "Actions applied by this process, by who acted", ["by"], registry=r
        )
        self.latency = Histogram(
            "tussle_action_to_view_seconds",
            "From an action's arrival to every connection's view of it queued",
            buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0),
            registry=r,
        )
        self.computer_moves = Counter(
            "tussle_computer_moves",
            "Computer moves this process computed, by outcome (chosen, capped, failed, stale)",
            ["outcome"],
            registry=r,
        )
        self.games = Gauge("tussle_games", "Games in the database, by status", ["status"], registry=r)
        self.live_games = Gauge("tussle_live_games", "Games this process holds in memory", registry=r)
        self.connections = Gauge(
            "tussle_connections", "WebSocket connections open to this process", registry=r
        )
        self.workers = Gauge(
            "tussle_workers", "Worker processes for the computer seats, by state", ["state"], registry=r
        )
        self.worker_queue = Gauge("tussle_worker_queue", "Computer moves waiting for a worker", registry=r)
        self.listening = Gauge(
            "tussle_listening", "1 when this process hears the others' events (PostgreSQL LISTEN)", registry=r
        )

    def render(self) -> bytes:
        """The metrics in Prometheus's text format."""
        return generate_latest(self.registry)


class JsonFormatter(logging.Formatter):
    """A log record as one line of JSON: time, level, logger, message, and what the record names."""

    FIELDS = ("client", "game", "method", "path", "status", "duration_ms")

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
            + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        for name in self.FIELDS:
            value = getattr(record, name, None)
            if value is not None:
                entry[name] = value
        if record.exc_info:
            entry["error"] = self.formatException(record.exc_info)
        return json.dumps(entry)


def configure_logging(level: str, form: str) -> None:
    """The server's logs at ``level``, as text lines or JSON objects (``form``: text or json)."""
    handler = logging.StreamHandler()
    if form == "json":
        handler.setFormatter(JsonFormatter())
    else:
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())


#: uvicorn's own loggers, sent through the root's handler (set by configure_logging), so that their
#: lines are text or JSON as the server's are.
UVICORN_LOG_CONFIG: dict[str, Any] = {
    "version": 1,
    "disable_existing_loggers": False,
    "loggers": {name: {"handlers": [], "propagate": True} for name in ("uvicorn", "uvicorn.error")},
}


def game_in(path: str) -> str | None:
    """The game a request's path names, if any."""
    found = _GAME_IN_PATH.search(path)
    return found.group(1) if found else None


class AccessLog:
    """Logs each HTTP request once it is answered, and counts it in the metrics."""

    def __init__(self, app: ASGIApp, *, metrics: Metrics) -> None:
        self.app = app
        self.metrics = metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status = 500

        async def sending(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
            await send(message)

        try:
            await self.app(scope, receive, sending)
        finally:
            method, path = str(scope.get("method", "")), str(scope.get("path", ""))
            self.metrics.requests.labels(method, str(status)).inc()
            if status in _REFUSED:
                self.metrics.refusals.labels(_REFUSED[status]).inc()
            elapsed = round((time.perf_counter() - started) * 1000, 2)
            client, game = client_of(scope), game_in(path)
            access.info(
                "%s %s %d %.2f ms client %s%s",
                method,
                path[:200],
                status,
                elapsed,
                client,
                f" game {game}" if game else "",
                extra={
                    "client": client,
                    "game": game,
                    "method": method,
                    "path": path[:200],
                    "status": status,
                    "duration_ms": elapsed,
                },
            )
