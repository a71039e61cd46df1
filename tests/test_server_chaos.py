"""Chaos: games on two server processes over one PostgreSQL while processes, workers and LISTEN die.

Sixty games (Fightopia and FITE; half between two bots, half a bot against a
computer seat) are played by WebSocket bots that connect to either process and
come back when their connection drops. Meanwhile a chaos loop, at random moments,
SIGKILLs a worker, SIGKILLs a server process (started again a moment later), or
terminates the processes' LISTEN connections in PostgreSQL. Then:

- every game finishes, and its record replays;
- every move a bot saw acknowledged (its event in a view) is in the record, as sent;
- every computer move was chosen for exactly the position it was applied to
  (recomputed from the game's seed, which is the test's own: every seat is);
- every seat's last view equals the record's final state as that seat sees it.

Bounded: at most 150 s of play, traffic to 127.0.0.1 only.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import random
import signal
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import psycopg
import pytest

from server_support import children, postgres_database
from test_server import Server
from tussle import Record
from tussle.server.hub import ChoiceJob, choose

pytestmark = pytest.mark.xdist_group("server_chaos")

GAMES = 60
GAMES_OPTIONS = {"fightopia": {"ply_limit": 100}, "fite": {"turn_limit": 8}}
PLAY_SECONDS = 150.0


def chaos(servers: list[Server], url: str, stop: threading.Event, log: list[str]) -> None:
    """Kill something at random every second or so until ``stop``; a failure is logged as an error."""
    try:
        kill_at_random(servers, url, stop, log)
    except Exception as exc:  # a server that does not start again: the test must say so
        log.append(f"error {exc}")
        stop.set()


def kill_at_random(servers: list[Server], url: str, stop: threading.Event, log: list[str]) -> None:
    rng = random.Random(7)
    while not stop.wait(rng.uniform(0.3, 1.0)):
        what = rng.choice(["worker", "worker", "server", "listen"])
        server = rng.choice(servers)
        assert server.process is not None
        if what == "worker":
            for pid in children(server.process.pid):
                os.kill(pid, signal.SIGKILL)
        elif what == "server":
            server.kill()
            time.sleep(rng.uniform(0.2, 1.0))
            server.start()
        else:
            with psycopg.connect(url, autocommit=True) as admin:
                admin.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE 'LISTEN%'"
                )
        log.append(f"{what} {server.port}")


async def bot(
    servers: list[Server], game_id: str, seat: int, token: str, *, seed: int, seen: dict[str, Any]
) -> None:
    """Play one seat to the end at random, reconnecting to either process whenever a connection drops."""
    from websockets.asyncio.client import connect
    from websockets.exceptions import WebSocketException

    rng = random.Random(seed)
    acknowledged: set[tuple[int, str]] = seen["acknowledged"]
    deadline = time.monotonic() + PLAY_SECONDS
    while time.monotonic() < deadline:
        server = rng.choice(servers)
        try:
            async with connect(f"ws://127.0.0.1:{server.port}/ws/games/{game_id}", open_timeout=5) as ws:
                await ws.send(json.dumps({"type": "hello", "token": token}))
                while True:
                    # Bounded: a game that stops moving fails the test rather than holding it.
                    raw = await asyncio.wait_for(ws.recv(), max(0.1, deadline - time.monotonic()))
                    message = json.loads(raw)
                    if message["type"] != "view":
                        continue
                    for event in message["last"]:
                        if event["player"] == seat:
                            acknowledged.add((event["number"], event["action"]))
                    seen["last"] = message
                    if message["result"] is not None:
                        return
                    if message.get("your_turn"):
                        await asyncio.sleep(rng.uniform(0.02, 0.25))  # a bot that thinks a little
                        await ws.send(
                            json.dumps({"type": "action", "action": rng.choice(message["legal"]["actions"])})
                        )
        except (TimeoutError, OSError, WebSocketException):
            pass
        await asyncio.sleep(rng.uniform(0.1, 0.4))
    raise AssertionError(f"game {game_id}: seat {seat} never saw the end")


def post(server: Server, body: Any) -> Any:
    for _ in range(50):
        try:
            status, answer = server.post("/api/games", body)
            if status == 201:
                return answer
        except (OSError, urllib.error.URLError):
            pass
        time.sleep(0.2)
    raise AssertionError("no game could be made")


def test_every_game_finishes_right_while_processes_workers_and_listen_connections_die(tmp_path: Path) -> None:
    with postgres_database("tussle_chaos") as url:
        play_in_chaos(url, tmp_path)


def play_in_chaos(url: str, tmp_path: Path) -> None:
    limits = [
        f"--limit={pair}" for pair in ("requests_per_second=1000", "connections=1000", "open_games=1000")
    ]
    servers = [Server(url, *limits, "--move-time", "5", log=tmp_path / f"server{i}.log") for i in range(2)]
    stop = threading.Event()
    kills: list[str] = []
    try:
        games = []
        for g in range(GAMES):
            game = "fightopia" if g % 2 else "fite"
            computer = g % 4 >= 2
            seats = [
                {"kind": "person"},
                {"kind": "computer", "agent": "random"} if computer else {"kind": "person"},
            ]
            seed = f"chaos-{g}"
            made = post(
                servers[g % 2], {"game": game, "options": GAMES_OPTIONS[game], "seats": seats, "seed": seed}
            )
            games.append((game, seed, made))
        killer = threading.Thread(target=chaos, args=(servers, url, stop, kills))
        killer.start()
        seen: dict[tuple[str, int], dict[str, Any]] = {}

        async def play_all() -> None:
            jobs = []
            for g, (_game, _seed, made) in enumerate(games):
                for s in made["seats"]:
                    if "token" in s:
                        key = (made["id"], s["seat"])
                        seen[key] = {"acknowledged": set(), "last": None}
                        jobs.append(
                            bot(
                                servers,
                                made["id"],
                                s["seat"],
                                s["token"],
                                seed=1000 * g + s["seat"],
                                seen=seen[key],
                            )
                        )
            await asyncio.gather(*jobs)

        try:
            asyncio.run(play_all())
        finally:
            stop.set()
            killer.join(30)
        assert not [k for k in kills if k.startswith("error")], kills
        assert len([k for k in kills if k.startswith("server")]) >= 3, kills
        assert any(k.startswith("listen") for k in kills) and any(k.startswith("worker") for k in kills), (
            kills
        )
        for _game, seed, made in games:
            record = Record.from_json(_get(servers, f"/api/games/{made['id']}/record"))
            final = record.final_state()
            assert final.is_terminal(), made["id"]
            for s in made["seats"]:
                if "token" in s:
                    got = seen[(made["id"], s["seat"])]
                    for number, action in got["acknowledged"]:
                        assert record.events[number] == (s["seat"], action), (made["id"], number)
                    observation = json.loads(json.dumps(final.observation(s["seat"])))
                    assert got["last"]["observation"] == observation, made["id"]
                else:  # the computer seat: each of its moves chosen for its exact position
                    for number, (player, text) in enumerate(record.events):
                        if player != s["seat"]:
                            continue
                        move_seed = int.from_bytes(
                            hashlib.sha256(f"{seed}/{number}/{player}".encode()).digest()[:8]
                        )
                        job = ChoiceJob.replayed(record, number, player, "random", move_seed)
                        assert choose(job) == text, (made["id"], number)
    finally:
        stop.set()
        for server in servers:
            server.stop()


def _get(servers: list[Server], path: str) -> Any:
    for _ in range(50):
        for server in servers:
            try:
                status, answer = server.get(path)
                if status == 200:
                    return answer
            except (OSError, urllib.error.URLError):
                pass
        time.sleep(0.2)
    raise AssertionError(f"{path}: no answer")
