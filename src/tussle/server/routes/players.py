"""Players: an account's public profile, its games and their archive, each game's leaderboard, and
the computer levels' ratings (:mod:`tussle.server.profiles`, :mod:`tussle.server.ratings`).

Every answer here is public and holds nothing secret (no email, token or seed); an unknown player
or game is a 404 with one line.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Annotated, Any, TypeVar

from fastapi import APIRouter, Query
from fastapi.responses import JSONResponse, Response

from tussle.server import profiles, ratings
from tussle.server.routes import HubDep, error_response

router = APIRouter()

T = TypeVar("T")
#: A page's start: a game's ``created`` time (a finite number).
Before = Annotated[float | None, Query(allow_inf_nan=False)]


async def _answer(work: Callable[[], T]) -> T | JSONResponse:
    """``work`` run in a thread (it reads the database), or a 404 if it names nobody."""
    try:
        return await asyncio.to_thread(work)
    except profiles.NotFoundError as exc:
        return error_response(404, str(exc))


@router.get("/api/players/{name}", response_model=None)
async def player(name: str, hub: HubDep) -> dict[str, Any] | JSONResponse:
    """An account's profile: its ratings per game (with their history, for a plot), its record
    against each computer level, and how many games it has."""
    return await _answer(lambda: profiles.profile(hub.store.engine, name))


@router.get("/api/players/{name}/games", response_model=None)
async def player_games(
    name: str,
    hub: HubDep,
    game: str | None = None,
    limit: Annotated[int, Query(ge=1, le=profiles.MAX_LIST)] = 50,
    before: Before = None,
) -> dict[str, Any] | JSONResponse:
    """An account's games, newest first (``game``: of one game only; ``limit``: at most 100; ``before``:
    made before that time, the previous answer's ``next``); a finished one links its replay and record."""
    engine = hub.store.engine
    return await _answer(lambda: profiles.games_of(engine, name, game=game, limit=limit, before=before))


@router.get("/api/players/{name}/archive", response_model=None)
async def player_archive(name: str, hub: HubDep, before: Before = None) -> Response:
    """Every finished game of an account as one zip of tussle records (``tussle replay`` reads each),
    its newest 1000 (or 32 MB) at most: the header ``x-archive-next`` is then the ``before`` of the
    older ones."""
    found = await _answer(lambda: profiles.archive(hub.store.engine, name, before=before))
    if isinstance(found, JSONResponse):
        return found
    headers = {
        "content-disposition": f'attachment; filename="tussle-{found.name}-games.zip"',
        "x-archive-records": str(found.records),
        "x-archive-total": str(found.total),
    }
    if found.next is not None:
        headers["x-archive-next"] = repr(found.next)
    return Response(found.data, media_type="application/zip", headers=headers)


@router.get("/api/leaderboard/{game}", response_model=None)
async def leaderboard(game: str, hub: HubDep) -> dict[str, Any] | JSONResponse:
    """A game's top 100 accounts by rating (bots marked), and its computer levels on the same scale."""
    return await _answer(lambda: profiles.leaderboard(hub.store.engine, game))


@router.get("/api/levels")
async def levels() -> dict[str, Any]:
    """Each game's computer players with their fixed ratings (fitted from the ladders), and the scale."""
    return ratings.levels_json()
