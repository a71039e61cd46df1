"""The HTTP and WebSocket API of ``tussle serve`` (FastAPI on uvicorn; its OpenAPI at ``/openapi.json``).

- ``POST /api/games``: a new game: the game, its options, and per seat a person,
  a computer (a catalog level), an open seat (for the lobby) or an invite (for
  one friend); the answer gives each person seat's secret token (its link is
  ``/play/<game>#<token>``: after the ``#``, so it never reaches a server log),
  each invite's secret, or, for a game at one screen (``"table": true``), one
  table handle.
- ``POST /api/games/<game>/join``: take an open seat, or with an invite's secret
  the seat it keeps; the answer is its token, confirmed by its first use.
- ``GET /api/lobby``: games with open seats. ``GET /api/games/<game>``: the
  public view. ``GET /api/games/<game>/record``: a finished game as a tussle record.
- ``WS /ws/games/<game>``: the first message is ``{"type": "hello", "token": ...}``
  for a seat, ``{"type": "hello", "table": ...}`` for a game at one screen, or
  ``{"type": "hello"}`` to watch; the server then sends a ``view`` (a table: a
  ``cover`` until a player to act sits down) after every event, and takes
  ``{"type": "action", "action": "tac 5"}`` (or ``"move"``: the structured form
  of a legal action, as the view lists it in ``legal.moves``), ``{"type": "resign"}``
  and ``{"type": "abort"}`` (before every player has moved). Anything wrong gets
  ``{"type": "error", "error": "<one line>"}`` and changes nothing.
- ``/healthz``, ``/readyz``, ``/metrics``: for the operator (docs/server.md).

Every request first passes :mod:`tussle.server.guard` (the Host, bounded bodies,
request rates) and :mod:`tussle.server.observe` (the access log and metrics).
This module only builds the application (its configuration, lifespan, middleware
and error answers); the routes are in :mod:`tussle.server.routes`, one router per
area, and what they do with a game in :mod:`tussle.server.service`.
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles

from tussle.errors import TussleError
from tussle.server import MOVE_TIME
from tussle.server.accounts import SESSION_DAYS, AccountError, Accounts, Csrf
from tussle.server.documents import DocumentLibrary
from tussle.server.guard import AllowedHosts, Guard, client_of
from tussle.server.hub import ABANDON_AFTER, CLAIM_AFTER, EXPIRE_AFTER, JOIN_SECONDS, Hub, UnknownGameError
from tussle.server.limits import RENEW_SECONDS, Clients, Limits
from tussle.server.models import MAX_CREATE, MAX_MESSAGE, MAX_RECORD, body_limit
from tussle.server.observe import AccessLog, Metrics
from tussle.server.ratings import rate_finished
from tussle.server.routes import accounts as account_routes
from tussle.server.routes import (
    error_response,
    games,
    lobby,
    operator,
    pages,
    play,
    players,
    replays,
    tournaments,
)
from tussle.server.service import GameService, LimitError
from tussle.server.store import CHANNEL, Store
from tussle.server.tournaments import Tournaments
from tussle.server.workers import WorkerPool

# The bounds other modules (the command line, the tests) read from here, where they always were.
__all__ = ["MAX_CREATE", "MAX_MESSAGE", "MAX_RECORD", "create_app"]

log = logging.getLogger("tussle.server")


def create_app(
    db_url: str,
    *,
    workers: int | None = None,
    origins: tuple[str, ...] = (),
    limits: Limits | None = None,
    hosts: AllowedHosts | None = None,
    redis_url: str | None = None,
    move_time: float = MOVE_TIME,
    documents: DocumentLibrary | None = None,
    abandon_after: float = ABANDON_AFTER,
    claim_after: float = CLAIM_AFTER,
    expire_after: float = EXPIRE_AFTER,
    join_wait: float = JOIN_SECONDS,
    secure_cookies: bool = True,
) -> FastAPI:
    """The server's ASGI application over the database at ``db_url``.

    ``workers`` processes play the computer seats (default: one fewer than the
    CPUs, at least one), each move within ``move_time`` seconds; ``origins`` are
    the web origins, besides the server's own, whose pages may open its
    WebSockets; ``hosts`` the names its requests may give as their Host (default:
    this machine's loopback names); ``limits`` bound what each client may ask,
    counted in Redis at ``redis_url`` if given (shared by a deployment's
    processes), else in this process; ``documents`` are the named documents
    (decks, layouts) a client may ask for by name, besides giving their text; ``secure_cookies``:
    the session and CSRF cookies travel only over HTTPS (and to the loopback address, which browsers
    trust), as they should behind a TLS proxy; off only for a server reached over plain HTTP.
    """
    clients = Clients(limits or Limits(), redis_url)
    library = documents or DocumentLibrary.load(None)
    metrics = Metrics()
    # Connects on first use, after the lifespan has brought the schema up to date.
    accounts = Accounts(db_url, secure_cookies=secure_cookies)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        _quiet_client_mistakes()
        store = await asyncio.to_thread(Store.open, db_url)
        # A rated game's result and its ratings' change are stored in one transaction.
        store.finish_hooks.append(rate_finished)
        # The CSRF check's key, the same for every process on this database.
        app.state.csrf_key = await asyncio.to_thread(store.key, "csrf")
        pool = WorkerPool(workers or max(1, (os.cpu_count() or 1) - 1))
        pool.start()  # on the loop's thread, which lives as long as the pool (see workers.py)
        hub = Hub(
            store,
            pool,
            move_time=move_time,
            abandon_after=abandon_after,
            claim_after=claim_after,
            expire_after=expire_after,
            join_wait=join_wait,
            metrics=metrics,
        )
        app.state.hub = hub
        app.state.service = GameService(hub, library, clients.limits)
        app.state.tournaments = Tournaments(hub, app.state.service)
        loop = asyncio.get_running_loop()
        # The port answers at once: unfinished games are loaded meanwhile (or when first asked for).
        background = [loop.create_task(hub.resume_all()), loop.create_task(hub.maintain())]
        background.append(loop.create_task(app.state.tournaments.run()))
        background.append(loop.create_task(_forget_sessions(store)))
        if store.engine.dialect.name == "postgresql":
            background.append(loop.create_task(_listen(db_url, hub)))
        if clients.shared:
            background.append(loop.create_task(_renew(clients)))
        try:
            yield
        finally:
            for task in background:
                task.cancel()
            app.state.service.feed.close()
            await hub.close()
            await clients.close()
            await accounts.close()
            store.close()

    app = FastAPI(
        title="tussle",
        summary="Play the five fighting tabletop games online: people, programs and computer seats.",
        lifespan=lifespan,
    )
    # What the routes share (see tussle.server.routes); the hub and the service join in the lifespan.
    app.state.clients = clients
    app.state.metrics = metrics
    app.state.origins = origins
    app.state.accounts = accounts
    # Innermost of the three: a request the Guard refuses is never read for its cookies.
    app.add_middleware(Csrf, key=lambda: getattr(app.state, "csrf_key", None), secure_cookies=secure_cookies)
    app.add_middleware(
        Guard,
        hosts=hosts or AllowedHosts.serving("127.0.0.1"),
        clients=clients,
        body_limit=body_limit,
    )
    # Added last, so outermost: every request is logged and counted, the Guard's refusals too.
    app.add_middleware(AccessLog, metrics=metrics)
    app.add_exception_handler(RequestValidationError, _invalid)  # type: ignore[arg-type]
    app.add_exception_handler(TussleError, _refused)  # type: ignore[arg-type]
    app.include_router(operator.router)
    app.mount("/web", StaticFiles(directory=pages.WEB), name="web")
    app.include_router(pages.router)
    app.include_router(games.router)
    app.include_router(replays.router)
    app.include_router(play.router)
    app.include_router(lobby.router)
    app.include_router(account_routes.router)
    app.include_router(players.router)
    app.include_router(tournaments.router)
    app.include_router(tournaments.pages)
    return app


async def _invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
    """A request whose body or parameters do not fit the API: its first mistake, in one line (422)."""
    first = exc.errors()[0] if exc.errors() else {"loc": (), "msg": "invalid request"}
    where = ".".join(str(part) for part in first.get("loc", ()) if part != "body")
    text = f"{where}: {first.get('msg', 'invalid')}" if where else str(first.get("msg"))
    # The server's own sentence, not the client's input: cut if long, never quoted like a value.
    text = " ".join(text.split())
    message = text if len(text) <= 200 else f"{text[:200]}... ({len(text):,} characters)"
    _log_refusal(request, message)
    return error_response(422, message)


async def _refused(request: Request, exc: TussleError) -> JSONResponse:
    """A request the server refuses: 429 past a limit (with when to try again), 404 for a game it
    does not have, 400 for anything else, each in one line."""
    status = 429 if isinstance(exc, LimitError) else 404 if isinstance(exc, UnknownGameError) else 400
    if isinstance(exc, AccountError):
        status = exc.status
    _log_refusal(request, str(exc))
    answer = error_response(status, str(exc))
    if isinstance(exc, LimitError):
        answer.headers["retry-after"] = str(exc.retry_after)
    return answer


async def _listen(db_url: str, hub: Hub) -> None:
    """Hear, through PostgreSQL's LISTEN/NOTIFY, of the events other server processes store.

    Each process announces a game's new events on commit (:data:`CHANNEL`); the
    others that follow the game read them from the database and tell their own
    connections. Reconnects after a lost connection.
    """
    import psycopg

    url = db_url.replace("postgresql+psycopg://", "postgresql://", 1)
    while True:
        try:
            async with await psycopg.AsyncConnection.connect(url, autocommit=True) as connection:
                await connection.execute(f"LISTEN {CHANNEL}")
                hub.listening = True
                # What was announced while this process was not listening is in the database.
                for game_id in list(hub.live):
                    await hub.catch_up(game_id, force=True)
                    await hub.chat.arrived(game_id)
                async for notice in connection.notifies():
                    # "<game> <origin>", and " chat" after them for a chat message.
                    game_id, _, origin = notice.payload.partition(" ")
                    origin, _, what = origin.partition(" ")
                    if origin != hub.store.origin:
                        await (hub.chat.arrived(game_id) if what == "chat" else hub.catch_up(game_id))
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # the database went away: listen again in a moment
            if hub.listening:
                log.warning("LISTEN connection lost (%s); connecting again", exc)
            hub.listening = False
            await asyncio.sleep(1.0)


class _ClientMistake(logging.Filter):
    """A client's malformed frame, which uvicorn logs with a traceback, logged as the one line it is."""

    def filter(self, record: logging.LogRecord) -> bool:
        if str(record.msg).startswith("Invalid UTF-8 sequence received from client"):
            record.msg = "refused: a WebSocket text frame that is not UTF-8 (closed with 1007)"
            record.args = ()
            record.exc_info = None
            record.exc_text = None
            record.levelno, record.levelname = logging.INFO, "INFO"
        return True


def _quiet_client_mistakes() -> None:
    """A client's mistake is one line in the log, never a traceback (once per process)."""
    errors = logging.getLogger("uvicorn.error")
    if not any(isinstance(f, _ClientMistake) for f in errors.filters):
        errors.addFilter(_ClientMistake())


async def _forget_sessions(store: Store, every: float = 3600.0) -> None:
    """Delete the sign-ins older than a session lives (they open nothing already), once an hour."""
    while True:
        try:
            await asyncio.to_thread(store.forget_sessions, time.time() - SESSION_DAYS * 86400)
        except Exception as exc:  # the database went away: try again next time
            log.warning("could not delete old sessions: %s", exc)
        await asyncio.sleep(every)


async def _renew(clients: Clients) -> None:
    """Keep this process's connections counted in the shared store while they are open."""
    while True:
        await asyncio.sleep(RENEW_SECONDS)
        await clients.renew()


def _log_refusal(request: Request, why: str) -> None:
    """A refused request, in the server's log at info: who asked, what, and why."""
    log.info("refused: client %s, %s %s: %s", client_of(request.scope), request.method, request.url.path, why)
