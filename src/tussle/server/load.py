"""A load benchmark of ``tussle serve``: many games at once, played by WebSocket bots against one server.

A server process is started on a free local port over the given database
(a new SQLite file by default). Each game gets two bot clients, one per seat,
that play random legal actions as soon as it is their turn. Measured:
actions applied per second over the whole run, the latency of each action
(from sending it to receiving the view that shows it applied), the errors the
server answered, the events lost (every game's stored record is compared
with what its bots saw), and the memory of the server and its workers. With
``computers`` a share of the games has a computer seat (a level) instead of
the second bot, so the people's latency is measured while computers think.

>>> report = LoadReport(2, 10, 2.0, [0.01, 0.02, 0.03], errors=0, lost=0, db="sqlite")
>>> report.actions_per_s, round(report.p50 * 1000), round(report.p95 * 1000), round(report.p99 * 1000)
(5.0, 20, 30, 30)
"""

from __future__ import annotations

import asyncio
import json
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tussle.errors import TussleError

#: Games whose every legal action list the server sends whole (no composed actions needed).
DEFAULT_GAME = "fightopia"
DEFAULT_OPTIONS: dict[str, Any] = {"ply_limit": 60}


@dataclass(frozen=True)
class LoadReport:
    games: int
    actions: int
    seconds: float
    latencies: list[float]
    errors: int
    lost: int
    db: str
    computer_games: int = 0
    server_mb: float = 0.0
    """The server process's peak resident memory (VmHWM), in MB."""
    workers_mb: float = 0.0
    """Its worker processes' resident memory at the end, in MB, all together."""

    @property
    def actions_per_s(self) -> float:
        return self.actions / self.seconds if self.seconds > 0 else 0.0

    def _quantile(self, q: float) -> float:
        if not self.latencies:
            return 0.0
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))]

    @property
    def p50(self) -> float:
        return self._quantile(0.5)

    @property
    def p95(self) -> float:
        return self._quantile(0.95)

    @property
    def p99(self) -> float:
        return self._quantile(0.99)

    def to_json(self) -> dict[str, Any]:
        return {
            "db": self.db,
            "games": self.games,
            "computer_games": self.computer_games,
            "actions": self.actions,
            "seconds": round(self.seconds, 3),
            "actions_per_s": round(self.actions_per_s, 1),
            "latency_p50_ms": round(self.p50 * 1000, 2),
            "latency_p95_ms": round(self.p95 * 1000, 2),
            "latency_p99_ms": round(self.p99 * 1000, 2),
            "latency_mean_ms": round(statistics.fmean(self.latencies) * 1000, 2) if self.latencies else 0.0,
            "errors": self.errors,
            "lost_events": self.lost,
            "server_mb": round(self.server_mb, 1),
            "workers_mb": round(self.workers_mb, 1),
        }


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _post(url: str, body: Any) -> Any:
    request = urllib.request.Request(url, json.dumps(body).encode(), {"content-type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.loads(answer.read())


def _get(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=30) as answer:
        return json.loads(answer.read())


async def _bot(
    port: int, game_id: str, token: str, seed: int, stats: dict[str, Any]
) -> list[tuple[int, str]]:
    """Play one seat at random to the end; return the (event number, action) pairs it had applied."""
    from websockets.asyncio.client import connect

    rng = random.Random(seed)
    mine: list[tuple[int, str]] = []
    sent_at: float | None = None
    sent_events = -1
    async with connect(f"ws://127.0.0.1:{port}/ws/games/{game_id}", max_size=2**22) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        async for raw in ws:
            message = json.loads(raw)
            if message["type"] == "error":
                stats["errors"] += 1
                sent_at = None
                continue
            if sent_at is not None and message["events"] > sent_events:
                stats["latencies"].append(time.perf_counter() - sent_at)
                sent_at = None
            if message["result"] is not None:
                break
            if message.get("your_turn") and sent_at is None:
                action = rng.choice(message["legal"]["actions"])
                mine.append((message["events"], action))
                sent_events = message["events"]
                sent_at = time.perf_counter()
                stats["actions"] += 1
                await ws.send(json.dumps({"type": "action", "action": action}))
    return mine


async def _play_all(port: int, games: list[dict[str, Any]], seed: int, stats: dict[str, Any]) -> list[Any]:
    jobs = []
    for g, created in enumerate(games):
        for s in created["seats"]:
            if "token" in s:  # a person's seat; a computer seat is the server's
                jobs.append(_bot(port, created["id"], s["token"], seed * 1000 + 2 * g + s["seat"], stats))
    return await asyncio.gather(*jobs)


def run_load(
    games: int = 200,
    *,
    db: str | None = None,
    game: str = DEFAULT_GAME,
    options: dict[str, Any] | None = None,
    seed: int = 1,
    workers: int = 1,
    computers: float = 0.0,
    level: str = "easy",
) -> LoadReport:
    """Start a server over ``db`` (a new SQLite file when None), play ``games`` games at once, measure.

    ``computers``: the share of games whose second seat is a computer playing ``level``.
    """
    options = DEFAULT_OPTIONS if options is None and game == DEFAULT_GAME else (options or {})
    port = _free_port()
    with tempfile.TemporaryDirectory() as scratch:
        url = db or f"sqlite:///{Path(scratch) / 'load.db'}"
        command = [sys.executable, "-m", "tussle", "serve", "--port", str(port), "--db", url]
        limits = ["open_games=100000", "connections=100000", "requests_per_second=100000"]
        command += ["--workers", str(workers), *(f"--limit={pair}" for pair in limits)]
        server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        try:
            base = f"http://127.0.0.1:{port}"
            deadline = time.monotonic() + 60
            while True:
                try:
                    _get(f"{base}/api/lobby")
                    break
                except OSError:
                    if server.poll() is not None or time.monotonic() > deadline:
                        error = server.stderr.read().decode() if server.stderr else ""
                        raise TussleError(f"the server did not start: {error.strip()[-300:]}") from None
                    time.sleep(0.1)
            with_computer = round(games * computers)
            created = []
            for g in range(games):
                second = {"kind": "computer", "agent": level} if g < with_computer else {"kind": "person"}
                body = {"game": game, "options": options, "seats": [{"kind": "person"}, second]}
                created.append(_post(f"{base}/api/games", body))
            stats: dict[str, Any] = {"actions": 0, "errors": 0, "latencies": []}
            started = time.perf_counter()
            applied = asyncio.run(_play_all(port, created, seed, stats))
            seconds = time.perf_counter() - started
            server_mb, workers_mb = _memory(server.pid)
            lost = 0
            bots = iter(applied)
            for made in created:
                record = _get(f"{base}/api/games/{made['id']}/record")
                stored = {(i, e["action"]) for i, e in enumerate(record["events"])}
                for _seat in (s for s in made["seats"] if "token" in s):
                    lost += sum(1 for pair in next(bots) if pair not in stored)
        finally:
            server.terminate()
            server.wait(30)
    return LoadReport(
        games,
        stats["actions"],
        seconds,
        stats["latencies"],
        stats["errors"],
        lost,
        url.split(":")[0],
        with_computer,
        server_mb,
        workers_mb,
    )


def _memory(pid: int) -> tuple[float, float]:
    """The server's peak resident memory and its children's resident memory now, in MB (Linux's /proc)."""

    def field(status: Path, name: str) -> float:
        for line in status.read_text().splitlines():
            if line.startswith(name):
                return int(line.split()[1]) / 1024
        return 0.0

    try:
        server = field(Path(f"/proc/{pid}/status"), "VmHWM:")
    except OSError:
        return 0.0, 0.0
    children = 0.0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1]) == pid:
                children += field(entry / "status", "VmRSS:")
        except (OSError, IndexError, ValueError):
            continue
    return server, children
