"""Tournaments online: making one, registering and withdrawing, starting, and reading them
(:mod:`tussle.server.tournaments` plays them)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Depends
from fastapi.responses import FileResponse
from starlette.requests import HTTPConnection

from tussle.server.routes import AccountDep, NeedAccountDep
from tussle.server.routes.pages import WEB
from tussle.server.tournaments import JoinTournamentRequest, TournamentRequest, Tournaments


def tournaments_of(connection: HTTPConnection) -> Tournaments:
    """The process's tournaments."""
    tournaments: Tournaments = connection.app.state.tournaments
    return tournaments


TournamentsDep = Annotated[Tournaments, Depends(tournaments_of)]

router = APIRouter()


@router.post("/api/tournaments", status_code=201)
async def create(
    body: TournamentRequest, account: NeedAccountDep, tournaments: TournamentsDep
) -> dict[str, Any]:
    """A new tournament (an account makes it); entrants register until it starts."""
    return await tournaments.create(body, account)


@router.get("/api/tournaments")
async def listing(tournaments: TournamentsDep) -> dict[str, Any]:
    """The tournaments registering, being played and finished, the latest first."""
    return await tournaments.listing()


@router.get("/api/tournaments/{tournament_id}")
async def view(tournament_id: str, account: AccountDep, tournaments: TournamentsDep) -> dict[str, Any]:
    """A tournament: entrants, rounds and games, standings or bracket, champion (and yours)."""
    return await tournaments.view(tournament_id, account)


@router.post("/api/tournaments/{tournament_id}/join")
async def join(
    tournament_id: str,
    account: NeedAccountDep,
    tournaments: TournamentsDep,
    body: Annotated[JoinTournamentRequest | None, Body()] = None,
) -> dict[str, Any]:
    """Register the account (a person or a bot) while the tournament registers."""
    return await tournaments.join(tournament_id, account, body.power if body is not None else None)


@router.post("/api/tournaments/{tournament_id}/leave")
async def leave(tournament_id: str, account: NeedAccountDep, tournaments: TournamentsDep) -> dict[str, Any]:
    """Withdraw the account while the tournament registers."""
    return await tournaments.leave(tournament_id, account)


@router.post("/api/tournaments/{tournament_id}/start")
async def start(tournament_id: str, account: NeedAccountDep, tournaments: TournamentsDep) -> dict[str, Any]:
    """The maker starts the tournament: registration closes and round 1 is paired."""
    return await tournaments.start(tournament_id, account)


pages = APIRouter(include_in_schema=False)


@pages.get("/tournaments")
async def list_page() -> FileResponse:
    """The tournaments, and a form to make one."""
    return FileResponse(WEB / "tournaments.html")


@pages.get("/tournaments/{tournament_id}")
async def tournament_page(tournament_id: str) -> FileResponse:
    """A tournament's bracket or standings, live."""
    return FileResponse(WEB / "tournament.html")
