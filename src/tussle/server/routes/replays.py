"""Replays: a finished game, or an uploaded record, step by step as one seat saw it."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from tussle.server.models import ReplayRequest
from tussle.server.routes import ServiceDep

router = APIRouter()


@router.get("/api/games/{game_id}/replay")
async def replay(game_id: str, service: ServiceDep, seat: str = "0") -> dict[str, Any]:
    """A finished game step by step as one seat saw it (``?seat=N`` or ``public``)."""
    return await service.replay(game_id, seat)


@router.post("/api/replay")
async def replay_upload(body: ReplayRequest, service: ServiceDep) -> dict[str, Any]:
    """An uploaded record, step by step as a finished game's replay; a bad record is refused whole."""
    return await service.replay_record(body.record, body.seat)
