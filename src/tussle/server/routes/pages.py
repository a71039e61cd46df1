"""The browser client: its pages (the files of ``web/``, mounted at ``/web`` by ``create_app``) and
the module that draws each game."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse, Response

from tussle.errors import shorten
from tussle.registry import game_class, game_ids
from tussle.server.routes import error_response

#: The browser client's files.
WEB = Path(__file__).parents[1] / "web"

router = APIRouter(include_in_schema=False)


@router.get("/")
async def home() -> FileResponse:
    """The home page: make a game, or join one from the lobby."""
    return FileResponse(WEB / "index.html")


@router.get("/replay/{game_id}")
async def replay_page(game_id: str) -> FileResponse:
    """A finished game, step by step, forward and back."""
    return FileResponse(WEB / "replay.html")


@router.get("/replay")
async def replay_upload_page() -> FileResponse:
    """Any record, uploaded from the browser, step by step."""
    return FileResponse(WEB / "replay.html")


@router.get("/play/{game_id}")
async def game_page(game_id: str) -> FileResponse:
    """A game's page: the seat of the token after '#', or the public view without one."""
    return FileResponse(WEB / "play.html")


@router.get("/players/{name}")
async def player_page(name: str) -> FileResponse:
    """An account's profile: its ratings with their plot, its record against the computer, its games;
    to its owner also the password and the API token."""
    return FileResponse(WEB / "profile.html")


@router.get("/leaderboard/{game}")
async def leaderboard_page(game: str) -> FileResponse:
    """A game's leaderboard, with the computer levels in their places."""
    return FileResponse(WEB / "leaderboard.html")


@router.get("/draw/{game_id}.js")
async def drawing(game_id: str) -> Response:
    """The module that draws a game in the browser: the game's own, or the text of its observation."""
    if game_id not in game_ids():
        return error_response(404, f"unknown game {shorten(game_id)}")
    text = game_class(game_id).web_client()
    if text is None:
        return FileResponse(WEB / "text.js", media_type="text/javascript")
    return Response(text, media_type="text/javascript")
