"""The server's routes, one router per area, each route thin: parse, call the service or the hub,
shape the answer.

- :mod:`~tussle.server.routes.pages`: the browser client's pages and each game's drawing module;
- :mod:`~tussle.server.routes.games`: the catalog and rules, making, joining and rematching games,
  a player's games, the lobby, a game's public view and record;
- :mod:`~tussle.server.routes.replays`: finished games and uploaded records step by step;
- :mod:`~tussle.server.routes.play`: the WebSocket a seat, a table or a spectator plays on;
- :mod:`~tussle.server.routes.operator`: ``/healthz``, ``/readyz``, ``/metrics``.

What they share lives on the application's state, which ``create_app`` fills
(the hub and the service once the lifespan has opened the store); the
functions here read it, typed, for the routes' dependencies.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends
from fastapi.responses import JSONResponse
from starlette.requests import HTTPConnection

from tussle.server.accounts import AccountError, Accounts
from tussle.server.hub import Hub
from tussle.server.limits import Clients
from tussle.server.models import Account
from tussle.server.observe import Metrics
from tussle.server.service import GameService


def hub_of(connection: HTTPConnection) -> Hub:
    """The process's live games."""
    hub: Hub = connection.app.state.hub
    return hub


def service_of(connection: HTTPConnection) -> GameService:
    """The process's game service."""
    service: GameService = connection.app.state.service
    return service


def clients_of(connection: HTTPConnection) -> Clients:
    """What each client may ask, and what it has asked."""
    clients: Clients = connection.app.state.clients
    return clients


def metrics_of(connection: HTTPConnection) -> Metrics:
    """The process's metrics."""
    metrics: Metrics = connection.app.state.metrics
    return metrics


def origins_of(connection: HTTPConnection) -> tuple[str, ...]:
    """The web origins, besides the server's own, whose pages may open its WebSockets."""
    origins: tuple[str, ...] = connection.app.state.origins
    return origins


def accounts_of(connection: HTTPConnection) -> Accounts:
    """The server's accounts (fastapi-users' parts over its database)."""
    accounts: Accounts = connection.app.state.accounts
    return accounts


async def current_account(connection: HTTPConnection) -> Account | None:
    """The account a request comes from (its session cookie or bearer token), or None: a guest."""
    return await accounts_of(connection).identify(connection)


async def needed_account(connection: HTTPConnection) -> Account:
    """The account a request comes from; refused (401, one line) without one."""
    account = await current_account(connection)
    if account is None:
        raise AccountError(
            "sign in first (a program sends its API token as 'Authorization: Bearer ...')", 401
        )
    return account


HubDep = Annotated[Hub, Depends(hub_of)]
AccountsDep = Annotated[Accounts, Depends(accounts_of)]
AccountDep = Annotated[Account | None, Depends(current_account)]
NeedAccountDep = Annotated[Account, Depends(needed_account)]
ServiceDep = Annotated[GameService, Depends(service_of)]
ClientsDep = Annotated[Clients, Depends(clients_of)]
MetricsDep = Annotated[Metrics, Depends(metrics_of)]
OriginsDep = Annotated[tuple[str, ...], Depends(origins_of)]


def error_response(status: int, message: str) -> JSONResponse:
    """A refusal as every route answers one: ``{"error": "<one line>"}``."""
    return JSONResponse({"error": message}, status_code=status)
