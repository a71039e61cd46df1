"""The games: what the server offers, making, joining and rematching games, a player's games, the
lobby, and a game's public view and record."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from tussle.errors import shorten
from tussle.registry import game_class, game_ids
from tussle.server.guard import client_of
from tussle.server.models import CreateRequest, JoinRequest, TokenRequest, TokensRequest
from tussle.server.routes import AccountDep, ServiceDep, error_response

router = APIRouter()


@router.get("/api/rules/{game_id}")
async def rules(game_id: str) -> Response:
    """A game's rules in brief and its notation, as ``tussle rules`` prints them (Markdown)."""
    if game_id not in game_ids():
        return error_response(404, f"unknown game {shorten(game_id)}")
    text = game_class(game_id).rules_text() or f"{game_id} has no rules summary."
    return Response(text, media_type="text/plain; charset=utf-8")


@router.get("/api/catalog")
async def catalog(service: ServiceDep) -> dict[str, Any]:
    """The games this server offers: options, levels and computer players (the home page's form)."""
    return service.catalog()


@router.post("/api/games", status_code=201)
async def create_game(
    body: CreateRequest, request: Request, service: ServiceDep, account: AccountDep
) -> dict[str, Any]:
    """A new game; the answer holds each person seat's secret token (give it only to that person)."""
    return await service.create(body, client_of(request.scope), account)


@router.post("/api/games/{game_id}/join")
async def join(game_id: str, body: JoinRequest, service: ServiceDep, account: AccountDep) -> dict[str, Any]:
    """Take an open seat of a game in the lobby; the answer holds the seat's secret token."""
    return await service.join(game_id, seat=body.seat, name=body.name, invite=body.invite, account=account)


@router.post("/api/games/{game_id}/rematch")
async def rematch(game_id: str, body: TokenRequest, service: ServiceDep) -> dict[str, Any]:
    """A player of a finished game asks for the rematch: the same game, seats turned by one.

    The first to ask makes it; each person of the old game takes their new seat
    by asking with their old token, and the rematch starts when all have.
    """
    return await service.rematch(game_id, body.token)


@router.post("/api/my-games")
async def my_games(body: TokensRequest, service: ServiceDep) -> dict[str, Any]:
    """The games of the seats whose tokens a player holds (a browser keeps them), newest first."""
    return await service.my_games(body.tokens)


@router.get("/api/lobby")
async def lobby(service: ServiceDep) -> dict[str, Any]:
    """Games waiting for players, newest first."""
    return await service.lobby()


@router.get("/api/games/{game_id}")
async def public_view(game_id: str, service: ServiceDep) -> dict[str, Any]:
    """What a spectator sees: the public view of the game."""
    return await service.public_view(game_id)


@router.get("/api/games/{game_id}/record")
async def record(game_id: str, service: ServiceDep) -> JSONResponse:
    """A finished game as a tussle record (``tussle replay`` reads it); refused while it is played."""
    return JSONResponse(await service.record(game_id))
