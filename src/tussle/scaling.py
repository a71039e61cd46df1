"""How match throughput grows with CPUs, on this machine's processes and on Ray (``tussle bench --scaling``).

Every figure comes from :func:`tussle.runner.run_match` as a user runs it, timed
by the wall clock: one process first (the base), then for each CPU count a pool of
that many processes and a local Ray of that many CPUs (Ray's start is timed apart:
it is paid once per run, not per game). Parallel efficiency is the speed-up over
one process divided by the CPUs. The overhead of a chunk is what a task costs
beyond its games: the same games played one per chunk and all in one chunk, the
difference divided by the extra chunks.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from tussle.parallel import DEFAULT_CHUNK, Cluster, connected
from tussle.runner import run_match


@dataclass(frozen=True)
class Point:
    """One way of running the same games, and how fast it went."""

    way: str  # "process", "pool" or "ray"
    cpus: int
    games: int
    seconds: float
    games_per_s: float
    speedup: float  # over one process
    efficiency: float  # speed-up per CPU


@dataclass(frozen=True)
class Scaling:
    game: str
    agents: tuple[str, ...]
    chunk: int
    points: tuple[Point, ...]
    ray_start_s: dict[int, float]  # a local Ray's start, by CPUs
    chunk_overhead_ms: dict[str, float]  # by way: "pool", "ray"

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "agents": list(self.agents),
            "chunk": self.chunk,
            "points": [asdict(p) for p in self.points],
            "ray_start_s": {str(k): round(v, 2) for k, v in self.ray_start_s.items()},
            "chunk_overhead_ms": {k: round(v, 3) for k, v in self.chunk_overhead_ms.items()},
        }


def _timed(game: str, agents: Sequence[str], n: int, **how: Any) -> float:
    start = time.perf_counter()
    for _ in run_match(game, agents, n, **how):
        pass
    return time.perf_counter() - start


def measure_scaling(
    game: str,
    agents: Sequence[str],
    games: int,
    cpus: Sequence[int],
    *,
    chunk: int = DEFAULT_CHUNK,
    overhead_games: int = 200,
    on_step: Callable[[str], None] | None = None,
) -> Scaling:
    """Time ``games`` games of ``game`` between ``agents`` on one process, then on pools and
    local Rays of each of ``cpus``; the chunk overhead from ``overhead_games`` games."""
    step = on_step or (lambda _: None)
    base_s = _timed(game, agents, games, jobs=1, chunk=chunk)
    step("one process")
    base = games / base_s
    points = [Point("process", 1, games, base_s, base, 1.0, 1.0)]

    def point(way: str, c: int, seconds: float) -> Point:
        rate = games / seconds
        return Point(way, c, games, seconds, rate, rate / base, rate / base / c)

    starts: dict[int, float] = {}
    overhead: dict[str, float] = {}
    for c in cpus:
        if c > 1:  # one process is the base already
            points.append(point("pool", c, _timed(game, agents, games, jobs=c, chunk=chunk)))
        step(f"{c} processes")
        began = time.perf_counter()
        cluster = Cluster(cpus=c)
        with connected(cluster):
            starts[c] = time.perf_counter() - began
            points.append(point("ray", c, _timed(game, agents, games, cluster=cluster, chunk=chunk)))
            if c == min(cpus):
                overhead["ray"] = _overhead(game, agents, overhead_games, c, cluster=cluster)
        step(f"Ray, {c} CPUs")
    widest = max(cpus)
    if widest > 1:
        overhead["pool"] = _overhead(game, agents, overhead_games, widest, jobs=widest)
    step("chunk overhead")
    return Scaling(game, tuple(agents), chunk, tuple(points), starts, overhead)


def _overhead(game: str, agents: Sequence[str], n: int, workers: int, **how: Any) -> float:
    """Milliseconds of a worker's time a chunk costs beyond its games.

    The same ``n`` games once a game a chunk and once in one chunk per worker: the
    difference is the cost of the extra chunks, shared among ``workers``.
    """
    one_each = _timed(game, agents, n, chunk=1, **how)
    one_per_worker = _timed(game, agents, n, chunk=-(-n // workers), **how)
    return max(0.0, (one_each - one_per_worker) * workers / (n - workers) * 1000)
