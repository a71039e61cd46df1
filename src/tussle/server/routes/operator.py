"""For the operator: ``/healthz`` (alive), ``/readyz`` (ready to serve), ``/metrics`` (Prometheus)."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from fastapi import APIRouter
from fastapi.responses import JSONResponse, Response

from tussle.errors import shorten
from tussle.server.routes import ClientsDep, HubDep, MetricsDep

router = APIRouter(include_in_schema=False)


@router.get("/healthz")
async def healthz() -> dict[str, str]:
    """Alive: the process answers (for a supervisor's liveness check)."""
    return {"status": "alive"}


@router.get("/readyz")
async def readyz(hub: HubDep, clients: ClientsDep) -> JSONResponse:
    """Ready to serve: the database answers, workers are alive, and (PostgreSQL) LISTEN is connected."""
    checks: dict[str, Any] = {}
    try:
        async with asyncio.timeout(3.0):
            await asyncio.to_thread(hub.store.ping)
        checks["database"] = "ok"
    except Exception as exc:
        checks["database"] = shorten(f"not answering: {exc}", 200)
    pool = hub.pool
    alive = pool.alive() if pool is not None else 0
    checks["workers"] = "ok" if alive > 0 else f"none alive (of {pool.size if pool else 0})"
    checks["listening"] = "ok" if hub.listening else "the LISTEN connection is down"
    if clients.shared:
        checks["redis"] = "ok" if await clients.ping() else "not answering"
    ready = all(v == "ok" for v in checks.values())
    return JSONResponse(
        {"ready": ready, "checks": checks, "games_loaded": hub.resumed}, status_code=200 if ready else 503
    )


@router.get("/metrics")
async def prometheus(hub: HubDep, metrics: MetricsDep) -> Response:
    """The server's metrics in Prometheus's text format."""
    with contextlib.suppress(Exception):
        for status, count in (await asyncio.to_thread(hub.store.count_by_status)).items():
            metrics.games.labels(status).set(count)
    metrics.live_games.set(len(hub.live))
    if hub.pool is not None:
        metrics.workers.labels("alive").set(hub.pool.alive())
        metrics.workers.labels("busy").set(hub.pool.busy())
        metrics.worker_queue.set(hub.pool.queued())
    metrics.listening.set(1 if hub.listening else 0)
    return Response(metrics.render(), media_type="text/plain; version=0.0.4; charset=utf-8")
