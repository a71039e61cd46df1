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
  of a legal action, as the view lists it in ``legal.moves``). Anything wrong gets
  ``{"type": "error", "error": "<one line>"}`` and changes nothing.
- ``/healthz``, ``/readyz``, ``/metrics``: for the operator (docs/server.md).

Every request first passes :mod:`tussle.server.guard` (the Host, bounded bodies,
request rates) and :mod:`tussle.server.observe` (the access log and metrics).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import secrets
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from functools import partial
from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field

from tussle.agents.levels import LEVEL_NAMES
from tussle.errors import TussleError, shorten
from tussle.game import PUBLIC, GameInfo
from tussle.record import Record
from tussle.registry import game_class, game_ids, game_info, load_game
from tussle.server import MOVE_TIME
from tussle.server.documents import DocumentLibrary
from tussle.server.guard import AllowedHosts, Guard, client_of
from tussle.server.hub import (
    ABANDON_AFTER,
    JOIN_SECONDS,
    Hub,
    HubError,
    LiveGame,
    UnknownGameError,
    new_token,
    token_hash,
)
from tussle.server.limits import RENEW_SECONDS, Clients, Limits
from tussle.server.observe import AccessLog, Metrics
from tussle.server.outbox import ConnectionGoneError, Outbox
from tussle.server.store import CHANNEL, WAITING_KINDS, Seat, Store, is_game_id
from tussle.server.workers import WorkerPool

log = logging.getLogger("tussle.server")

#: The largest WebSocket message or request body the server reads, in bytes.
MAX_MESSAGE = 16 * 1024
#: The largest body of a request that makes a game: its options may hold a document (a deck, a layout).
MAX_CREATE = 256 * 1024
#: The longest text an option may have over the API (a document: a Fight! deck is about 10 KB).
MAX_OPTION_CHARS = 64 * 1024
#: The most options a request may give (the games have at most a handful).
MAX_OPTIONS = 32
#: Replays (made for a request) are made one at a time per process, each within these bounds:
#: seconds of work, bytes of answer, and seconds waiting for its turn before the client is told to wait.
REPLAY_SECONDS = 3.0
MAX_REPLAY_ANSWER = 8 * 1024 * 1024
REPLAY_WAIT = 5.0
#: How long a new WebSocket connection may take to say hello.
HELLO_SECONDS = 10.0
HELLO = (
    'the first message must be {"type": "hello", "token": "<the seat\'s token>"} '
    '(or "table": "<the table handle>" for a game at one screen), or without either to watch'
)
#: The largest record the replay page may upload, in bytes, and its most events.
MAX_RECORD = 1024 * 1024
MAX_RECORD_EVENTS = 5000
#: Seats a game may have (the games themselves allow at most 6).
MAX_SEATS = 8
#: Text a person types or a client names (no control characters: they show as nothing, and
#: PostgreSQL refuses NUL in text).
PRINTABLE = r"^[^\x00-\x1f\x7f]*$"


OptionName = Annotated[str, Field(max_length=64)]
OptionValue = Annotated[str, Field(max_length=MAX_OPTION_CHARS)] | int | bool


def computer_agents(info: GameInfo) -> list[str]:
    """The computer players a game's seats may be given over the API: its levels, random, rule.

    Each has a bounded budget; an agent spec with parameters (``mcts:time=3600``)
    is for local commands only.
    """
    return [*LEVEL_NAMES, "random", *(["rule"] if info.hooks.rule_agent else [])]


class SeatRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    kind: Literal["person", "computer", "open", "invite"] = Field(
        description="who sits here: a person (the answer gives their token), a computer, an open seat "
        "(listed in the lobby for anyone), or an invite (kept for whoever holds its secret; never listed)"
    )
    agent: str | None = Field(
        None,
        max_length=20,
        pattern=PRINTABLE,
        description="a computer seat's player: a level (easy, medium, hard), random or rule "
        "(the catalog lists each game's)",
    )
    name: str = Field("", max_length=60, pattern=PRINTABLE, description="a display name")


class ClockRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    minutes: float = Field(gt=0, le=24 * 60, description="each player's time for the whole game")
    increment: float = Field(0.0, ge=0, le=600, description="seconds added after each of a player's moves")


class CreateRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    game: str = Field(max_length=64, description="a game id, as `tussle games` lists them")
    options: dict[OptionName, OptionValue] = Field(
        default_factory=dict,
        max_length=MAX_OPTIONS,
        description="game options (a document option: its text, or a name the catalog lists)",
    )
    seats: list[SeatRequest] = Field(
        min_length=1, max_length=MAX_SEATS, description="one per player, in order"
    )
    seed: str | None = Field(
        None,
        max_length=64,
        pattern=PRINTABLE,
        description="drives the chance events and the computer seats; only for a game without open seats "
        "(one nobody else can join): any other draws from the server's secret",
    )
    clock: ClockRequest | None = Field(None, description="a time control: at zero the player loses")
    table: bool = Field(
        False,
        description="a game at one screen (hot seat): instead of a token per person seat, the answer "
        "gives one table handle, which shows each person seat's view only while that seat is to act",
    )


class TokenRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    token: str = Field(max_length=100, pattern=PRINTABLE, description="a seat's secret token")


class TokensRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    tokens: list[Annotated[str, Field(max_length=100, pattern=PRINTABLE)]] = Field(
        max_length=200, description="the seat tokens a player holds"
    )


class JoinRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    seat: int | None = Field(
        None, ge=0, lt=MAX_SEATS, description="the open seat to take (default: the first)"
    )
    name: str = Field("", max_length=60, pattern=PRINTABLE)
    invite: str | None = Field(
        None, max_length=100, pattern=PRINTABLE, description="an invite's secret: takes the seat it keeps"
    )


def link(game_id: str, token: str) -> str:
    """A seat's link, relative to the server: the token after ``#`` never reaches a server's log."""
    return f"/play/{game_id}#{token}"


def invite_link(game_id: str, secret: str) -> str:
    """An invitation to a game's invite seat: whoever opens it (and only they) may take that seat."""
    return f"/play/{game_id}#invite={secret}"


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


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
    join_wait: float = JOIN_SECONDS,
) -> FastAPI:
    """The server's ASGI application over the database at ``db_url``.

    ``workers`` processes play the computer seats (default: one fewer than the
    CPUs, at least one), each move within ``move_time`` seconds; ``origins`` are
    the web origins, besides the server's own, whose pages may open its
    WebSockets; ``hosts`` the names its requests may give as their Host (default:
    this machine's loopback names); ``limits`` bound what each client may ask,
    counted in Redis at ``redis_url`` if given (shared by a deployment's
    processes), else in this process; ``documents`` are the named documents
    (decks, layouts) a client may ask for by name, besides giving their text.
    """
    clients = Clients(limits or Limits(), redis_url)
    library = documents or DocumentLibrary.load(None)
    metrics = Metrics()
    replaying = asyncio.Semaphore(1)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        _quiet_client_mistakes()
        store = await asyncio.to_thread(Store.open, db_url)
        pool = WorkerPool(workers or max(1, (os.cpu_count() or 1) - 1))
        pool.start()  # on the loop's thread, which lives as long as the pool (see workers.py)
        hub = Hub(
            store,
            pool,
            move_time=move_time,
            abandon_after=abandon_after,
            join_wait=join_wait,
            metrics=metrics,
        )
        app.state.hub = hub
        loop = asyncio.get_running_loop()
        # The port answers at once: unfinished games are loaded meanwhile (or when first asked for).
        background = [loop.create_task(hub.resume_all()), loop.create_task(hub.maintain())]
        if store.engine.dialect.name == "postgresql":
            background.append(loop.create_task(_listen(db_url, hub)))
        if clients.shared:
            background.append(loop.create_task(_renew(clients)))
        try:
            yield
        finally:
            for task in background:
                task.cancel()
            await hub.close()
            await clients.close()
            store.close()

    app = FastAPI(
        title="tussle",
        summary="Play the five fighting tabletop games online: people, programs and computer seats.",
        lifespan=lifespan,
    )

    def body_limit(path: str) -> int:
        if path == "/api/replay":
            return MAX_RECORD
        return MAX_CREATE if path == "/api/games" else MAX_MESSAGE

    app.add_middleware(
        Guard,
        hosts=hosts or AllowedHosts.serving("127.0.0.1"),
        clients=clients,
        body_limit=body_limit,
    )
    # Added last, so outermost: every request is logged and counted, the Guard's refusals too.
    app.add_middleware(AccessLog, metrics=metrics)

    @app.get("/healthz", include_in_schema=False)
    async def healthz() -> dict[str, str]:
        """Alive: the process answers (for a supervisor's liveness check)."""
        return {"status": "alive"}

    @app.get("/readyz", include_in_schema=False)
    async def readyz(request: Request) -> JSONResponse:
        """Ready to serve: the database answers, workers are alive, and (PostgreSQL) LISTEN is connected."""
        hub = hub_of(request)
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

    @app.get("/metrics", include_in_schema=False)
    async def prometheus(request: Request) -> Response:
        """The server's metrics in Prometheus's text format."""
        hub = hub_of(request)
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

    web = Path(__file__).with_name("web")
    app.mount("/web", StaticFiles(directory=web), name="web")

    @app.get("/", include_in_schema=False)
    async def home() -> FileResponse:
        """The home page: make a game, or join one from the lobby."""
        return FileResponse(web / "index.html")

    @app.get("/replay/{game_id}", include_in_schema=False)
    async def replay_page(game_id: str) -> FileResponse:
        """A finished game, step by step, forward and back."""
        return FileResponse(web / "replay.html")

    @app.get("/replay", include_in_schema=False)
    async def replay_upload_page() -> FileResponse:
        """Any record, uploaded from the browser, step by step."""
        return FileResponse(web / "replay.html")

    @app.get("/api/rules/{game_id}")
    async def rules(game_id: str) -> Response:
        """A game's rules in brief and its notation, as ``tussle rules`` prints them (Markdown)."""
        if game_id not in game_ids():
            return _error(404, f"unknown game {shorten(game_id)}")
        text = game_class(game_id).rules_text() or f"{game_id} has no rules summary."
        return Response(text, media_type="text/plain; charset=utf-8")

    @app.get("/play/{game_id}", include_in_schema=False)
    async def game_page(game_id: str) -> FileResponse:
        """A game's page: the seat of the token after '#', or the public view without one."""
        return FileResponse(web / "play.html")

    @app.get("/draw/{game_id}.js", include_in_schema=False)
    async def drawing(game_id: str) -> Response:
        """The module that draws a game in the browser: the game's own, or the text of its observation."""
        if game_id not in game_ids():
            return _error(404, f"unknown game {shorten(game_id)}")
        text = game_class(game_id).web_client()
        if text is None:
            return FileResponse(web / "text.js", media_type="text/javascript")
        return Response(text, media_type="text/javascript")

    @app.get("/api/catalog")
    async def catalog() -> dict[str, Any]:
        """The games this server offers: options, levels and computer players (the home page's form)."""
        return {"games": [_describe(game_info(g), library.offered(g)) for g in game_ids()]}

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        first = exc.errors()[0] if exc.errors() else {"loc": (), "msg": "invalid request"}
        where = ".".join(str(part) for part in first.get("loc", ()) if part != "body")
        message = shorten(f"{where}: {first.get('msg', 'invalid')}" if where else str(first.get("msg")), 200)
        _log_refusal(request, message)
        return _error(422, message)

    @app.exception_handler(TussleError)
    async def _refused(request: Request, exc: TussleError) -> JSONResponse:
        status = 429 if isinstance(exc, LimitError) else 404 if isinstance(exc, UnknownGameError) else 400
        _log_refusal(request, str(exc))
        answer = _error(status, str(exc))
        if isinstance(exc, LimitError):
            answer.headers["retry-after"] = str(exc.retry_after)
        return answer

    def hub_of(request: Request | WebSocket) -> Hub:
        hub: Hub = request.app.state.hub
        return hub

    @app.post("/api/games", status_code=201)
    async def create_game(body: CreateRequest, request: Request) -> dict[str, Any]:
        """A new game; the answer holds each person seat's secret token (give it only to that person)."""
        if body.game not in game_ids():
            raise HubError(f"unknown game {shorten(body.game)} (games: {', '.join(game_ids())})")
        info = game_info(body.game)
        known = {o.name for o in info.options}
        for name in body.options:
            if name not in known:
                raise HubError(
                    f"{body.game} has no option {shorten(name)} (options: "
                    f"{', '.join(sorted(known)) or 'none'}; the number of players is the number of seats)"
                )
        if body.table and any(s.kind in ("open", "invite") for s in body.seats):
            raise HubError("a game at one screen has person and computer seats only")
        if body.seed is not None and any(s.kind in ("open", "invite") for s in body.seats):
            raise HubError(
                "a seed may be fixed only for a game whose every seat is yours: "
                "a game with an open seat draws its chance from the server's secret"
            )
        allowed = computer_agents(info)
        for number, seat in enumerate(body.seats):
            if seat.kind == "computer" and (seat.agent or "medium") not in allowed:
                raise HubError(
                    f"seat {number}: a computer seat plays one of {', '.join(allowed)}, "
                    f"not {shorten(seat.agent or '')}"
                )
        # A name of a document the server offers becomes its text; any other value is the text
        # itself, which the game parses: nothing a client sends names a file.
        options = library.resolve(body.game, body.options)
        game = load_game(body.game, players=len(body.seats), **options)
        seats: list[Seat] = []
        tokens: dict[int, str] = {}
        invites: dict[int, str] = {}
        for number, seat in enumerate(body.seats):
            if seat.kind == "computer":
                spec = seat.agent or "medium"
                seats.append(Seat(number, "computer", spec, seat.name or spec, None))
            elif seat.kind == "person" and body.table:
                # At one screen no seat has a token of its own: the table handle opens the one to act.
                seats.append(Seat(number, "person", None, seat.name or f"player {number + 1}", None))
            elif seat.kind == "person":
                tokens[number] = new_token()
                seats.append(
                    Seat(number, "person", None, seat.name or f"player {number}", token_hash(tokens[number]))
                )
            elif seat.kind == "invite":
                invites[number] = new_token()
                seats.append(Seat(number, "invite", None, seat.name, token_hash(invites[number])))
            else:
                seats.append(Seat(number, "open", None, "", None))
        table = new_token() if body.table else None
        hub = hub_of(request)
        client = client_of(request.scope)
        most = clients.limits.open_games
        if await asyncio.to_thread(hub.store.games_in_play_of, client) >= most:
            raise LimitError(f"too many games in play: at most {most} at once; finish some first", 60)
        seed = body.seed if body.seed is not None else secrets.token_hex(16)
        clock = (body.clock.minutes * 60.0, body.clock.increment) if body.clock is not None else None
        game_id = await asyncio.to_thread(
            partial(
                hub.store.create_game,
                seed=seed,
                clock=clock,
                creator=client,
                table_hash=token_hash(table) if table is not None else None,
            ),
            body.game,
            game.non_default_options(),
            game.num_players,
            seats,
        )
        await hub.get(game_id)
        if not any(s.kind in WAITING_KINDS for s in seats):
            await hub.start(game_id)
        answer: dict[str, Any] = {
            "id": game_id,
            "game": body.game,
            "seats": [
                {
                    "seat": s.seat,
                    "kind": s.kind,
                    "name": s.name,
                    **(
                        {"token": tokens[s.seat], "link": link(game_id, tokens[s.seat])}
                        if s.seat in tokens
                        else {}
                    ),
                    **(
                        {"invite": invites[s.seat], "invite_link": invite_link(game_id, invites[s.seat])}
                        if s.seat in invites
                        else {}
                    ),
                }
                for s in seats
            ],
            "spectate": f"/play/{game_id}",
        }
        if table is not None:
            answer["table"] = table
        return answer

    @app.post("/api/games/{game_id}/join")
    async def join(game_id: str, body: JoinRequest, request: Request) -> dict[str, Any]:
        """Take an open seat of a game in the lobby; the answer holds the seat's secret token."""
        hub = hub_of(request)
        live = await hub.get(game_id)
        kind = "open"
        invite_hash = token_hash(body.invite) if body.invite is not None else None
        if invite_hash is not None:
            # An invitation opens the one seat it keeps, and stops opening it once that is taken.
            kind = "invite"
            seat = await asyncio.to_thread(hub.store.invited_seat, game_id, invite_hash)
            if seat is None:
                raise HubError("that invitation opens no seat of this game (was it taken already?)")
        else:
            open_seats = [s.seat for s in live.seats if s.kind == "open"]
            seat = body.seat if body.seat is not None else (open_seats[0] if open_seats else None)
            if seat is None or seat not in open_seats:
                raise HubError(
                    f"seat {seat} of game {game_id} is not open" if seat is not None else "no open seat"
                )
        token = new_token()
        name = body.name or f"player {seat}"
        if not await asyncio.to_thread(
            partial(hub.store.take_seat, kind=kind, invite_hash=invite_hash),
            game_id,
            seat,
            name,
            token_hash(token),
        ):
            raise HubError(f"seat {seat} was taken just now")
        live = await hub.refresh(game_id)
        if not any(s.kind in WAITING_KINDS for s in live.seats):
            await hub.start(game_id)
        else:
            await hub.broadcast(live)
        return {"id": game_id, "seat": seat, "token": token, "link": link(game_id, token)}

    @app.post("/api/games/{game_id}/rematch")
    async def rematch(game_id: str, body: TokenRequest, request: Request) -> dict[str, Any]:
        """A player of a finished game asks for the rematch: the same game, seats turned by one.

        The first to ask makes it; each person of the old game takes their new seat
        by asking with their old token, and the rematch starts when all have.
        """
        hub = hub_of(request)
        if await asyncio.to_thread(hub.store.table_of, token_hash(body.token)) == game_id:
            return await table_rematch(hub, game_id)
        found = await asyncio.to_thread(hub.store.seat_of, token_hash(body.token))
        if found is None or found[0] != game_id:
            raise HubError("that token opens no seat of this game")
        old = await hub.get(game_id)
        if old.result_json() is None:
            raise HubError("a rematch follows a finished game; this one is still played")
        n = len(old.seats)
        new_seat = (found[1] + 1) % n
        async with old.lock:
            row = await asyncio.to_thread(hub.store.rematch_of, game_id)
            new_id = row.id if row is not None else await new_rematch(hub, old, None)
        token = new_token()
        seat = next(s for s in (await hub.get(new_id)).seats if s.seat == new_seat)
        if seat.kind != "reserved" or not await asyncio.to_thread(
            partial(hub.store.take_seat, kind="reserved"), new_id, new_seat, seat.name, token_hash(token)
        ):
            raise HubError(f"seat {new_seat} of the rematch is taken already")
        live = await hub.refresh(new_id)
        if not any(s.kind in WAITING_KINDS for s in live.seats):
            await hub.start(new_id)
        return {"id": new_id, "seat": new_seat, "token": token, "link": link(new_id, token)}

    async def new_rematch(hub: Hub, old: LiveGame, table: str | None) -> str:
        """Make the rematch of ``old`` (its lock held): the same game, the seats turned by one, each
        person's seat reserved for them (or, at one screen, all behind the new ``table`` handle)."""
        n = len(old.seats)
        kept = "person" if table is not None else "reserved"
        seats = sorted(
            (
                Seat((s.seat + 1) % n, kept if s.kind == "person" else s.kind, s.agent, s.name, None)
                for s in old.seats
            ),
            key=lambda s: s.seat,
        )
        new_id = await asyncio.to_thread(
            partial(
                hub.store.create_game,
                seed=secrets.token_hex(16),
                rematch_of=old.row.id,
                clock=old.row.clock,
                table_hash=token_hash(table) if table is not None else None,
            ),
            old.row.game,
            old.row.options,
            old.row.players,
            seats,
        )
        await hub.broadcast_message(old, {"type": "rematch", "game": new_id})
        return new_id

    async def table_rematch(hub: Hub, game_id: str) -> dict[str, Any]:
        """A game at one screen again, the seats turned by one: its new table handle (made once)."""
        old = await hub.get(game_id)
        if old.result_json() is None:
            raise HubError("a rematch follows a finished game; this one is still played")
        async with old.lock:
            if await asyncio.to_thread(hub.store.rematch_of, game_id) is not None:
                raise HubError("this game's rematch is made already: it is in your games")
            table = new_token()
            new_id = await new_rematch(hub, old, table)
        await hub.start(new_id)
        return {"id": new_id, "table": table}

    @app.post("/api/my-games")
    async def my_games(body: TokensRequest, request: Request) -> dict[str, Any]:
        """The games of the seats whose tokens a player holds (a browser keeps them), newest first."""
        hub = hub_of(request)
        out: list[dict[str, Any]] = []
        for token in body.tokens:
            found = await asyncio.to_thread(hub.store.seat_of, token_hash(token))
            table = (
                None if found is not None else await asyncio.to_thread(hub.store.table_of, token_hash(token))
            )
            if found is None and table is None:
                continue
            live = await hub.get(found[0] if found is not None else str(table))
            playing = live.result_json() is None
            out.append(
                {
                    "id": live.row.id,
                    "game": live.row.game,
                    # A table is every person seat at one screen: no seat of its own.
                    "seat": found[1] if found is not None else None,
                    "table": found is None,
                    "status": "finished" if not playing else live.row.status,
                    "your_turn": playing
                    and (
                        found[1] in live.state.to_act()
                        if found is not None
                        else bool(hub.cover(live)["to_act"])
                    ),
                    "created": live.row.created,
                    "result": live.result_json(),
                }
            )
        out.sort(key=lambda g: -g["created"])
        return {"games": out}

    @app.get("/api/lobby")
    async def lobby(request: Request) -> dict[str, Any]:
        """Games waiting for players, newest first."""
        store = hub_of(request).store
        rows = await asyncio.to_thread(store.open_games)
        # Read from the stored seats, in one query: listing a game replays none of its events.
        seats_of = await asyncio.to_thread(store.seats_of_games, [row.id for row in rows])
        out = []
        for row in rows:
            seats = seats_of.get(row.id, [])
            if not any(s.kind == "open" for s in seats):
                continue  # a rematch or an invitation waiting for its players is nobody else's to join
            out.append(
                {
                    "id": row.id,
                    "game": row.game,
                    "options": {k: _summary(v) for k, v in row.options.items()},
                    "open_seats": [s.seat for s in seats if s.kind == "open"],
                    "seats": [{"seat": s.seat, "kind": s.kind, "name": s.name} for s in seats],
                }
            )
        return {"games": out}

    @app.get("/api/games/{game_id}")
    async def public_view(game_id: str, request: Request) -> dict[str, Any]:
        """What a spectator sees: the public view of the game."""
        hub = hub_of(request)
        return hub.view(await hub.get(game_id), PUBLIC)

    @app.get("/api/games/{game_id}/record")
    async def record(game_id: str, request: Request) -> JSONResponse:
        """A finished game as a tussle record (``tussle replay`` reads it); refused while it is played."""
        hub = hub_of(request)
        live = await hub.get(game_id)
        if live.result_json() is None:
            raise HubError("the game is not over: its record would show what is still secret")
        return JSONResponse(hub.record(live).to_json())

    @app.get("/api/games/{game_id}/replay")
    async def replay(game_id: str, request: Request, seat: str = "0") -> dict[str, Any]:
        """A finished game step by step as one seat saw it (``?seat=N`` or ``public``)."""
        hub = hub_of(request)
        live = await hub.get(game_id)
        if live.result_json() is None:
            raise HubError("the game is not over: its replay would show what is still secret")
        record = hub.record(live)
        answer = await bounded_replay(record, _seat_param(seat, record.num_players))
        answer["result"] = live.result_json()  # a clock's result is no part of the record
        return answer

    @app.post("/api/replay")
    async def replay_upload(body: ReplayRequest) -> dict[str, Any]:
        """An uploaded record, step by step as a finished game's replay; a bad record is refused whole."""
        record = Record.from_json(body.record)
        if len(record.events) > MAX_RECORD_EVENTS:
            raise HubError(f"a record may have at most {MAX_RECORD_EVENTS:,} events to replay here")
        if record.game not in game_ids():
            raise HubError(f"unknown game {shorten(record.game)} (games: {', '.join(game_ids())})")
        return await bounded_replay(record, _seat_param(body.seat, record.num_players))

    async def bounded_replay(record: Record, seat: int) -> dict[str, Any]:
        """A replay made in a thread, one at a time, in :data:`REPLAY_SECONDS` and :data:`MAX_REPLAY_ANSWER`.

        One at a time: a replay is pure Python work, and several at once would hold the
        interpreter from every other request; the others wait their turn a little, then are
        told to come back.
        """
        try:
            async with asyncio.timeout(REPLAY_WAIT):
                await replaying.acquire()
        except TimeoutError:
            raise LimitError(
                "the server is busy replaying other records; try again in a few seconds", 5
            ) from None
        try:
            return await asyncio.to_thread(_replay, record, seat, time.monotonic() + REPLAY_SECONDS)
        finally:
            replaying.release()

    @app.websocket("/ws/games/{game_id}")
    async def play(websocket: WebSocket, game_id: str) -> None:
        """A seat's (or a spectator's) connection: views out, actions in."""
        if not _origin_allowed(websocket, origins):
            await websocket.close(code=1008)
            return
        client = client_of(websocket.scope)
        await websocket.accept()
        handle, why = await clients.connect(client)
        if why is not None:
            metrics.refusals.labels("connections").inc()
            with contextlib.suppress(Exception):
                await websocket.send_text(json.dumps({"type": "error", "error": why}))
                await websocket.close(code=1008)
            return
        outbox = Outbox(
            websocket,
            f"client {client}, game {game_id if is_game_id(game_id) else '(not a game id)'}",
            most_messages=clients.limits.outbox,
        )
        metrics.connections.inc()
        try:
            await _play(websocket, game_id, outbox)
        except (WebSocketDisconnect, ConnectionGoneError):
            pass
        finally:
            metrics.connections.dec()
            if outbox.too_slow:
                metrics.refusals.labels("outbox").inc()
            outbox.stop()
            await clients.disconnect(handle)

    async def _play(websocket: WebSocket, game_id: str, outbox: Outbox) -> None:
        """A seat's (or a spectator's) connection once it is let in: views out, actions in."""
        hub = hub_of(websocket)
        bucket = clients.message_bucket()

        async def refuse(message: str) -> None:
            await outbox.send({"type": "error", "error": message})

        async def shut(message: str) -> None:
            await refuse(message)
            await outbox.aclose(1008)

        watcher = None
        try:
            try:
                async with asyncio.timeout(HELLO_SECONDS):
                    hello = await _receive(websocket, refuse)
            except TimeoutError:
                await shut(f"no hello within {HELLO_SECONDS:g} seconds")
                return
            if hello is None or hello.get("type") != "hello" or set(hello) - {"type", "token", "table"}:
                await shut(HELLO)
                return
            if not is_game_id(game_id):
                await shut(f"no game {shorten(game_id)}")
                return
            seat = PUBLIC
            token, table = hello.get("token"), hello.get("table")
            if token is not None:
                found = (
                    await asyncio.to_thread(hub.store.seat_of, token_hash(token))
                    if isinstance(token, str) and len(token) <= 100
                    else None
                )
                if found is None or found[0] != game_id:
                    await shut("that token opens no seat of this game")
                    return
                seat = found[1]
                # The first use of a joined seat's token: the join is confirmed (its answer arrived).
                await hub.confirm(token_hash(token))
            elif table is not None:
                opens = (
                    await asyncio.to_thread(hub.store.table_of, token_hash(table))
                    if isinstance(table, str) and len(table) <= 100
                    else None
                )
                if opens != game_id:
                    await shut("that table handle opens no game here")
                    return
            try:
                watcher = await hub.watch(game_id, seat, outbox.send, table=table is not None)
            except HubError as exc:
                await shut(str(exc))
                return
            while True:
                message = await _receive(websocket, refuse)
                if not bucket.take():
                    metrics.refusals.labels("messages").inc()
                    limit = clients.limits.messages_per_second
                    await refuse(f"too many messages: at most {limit:g} a second; that one was not read")
                    continue
                if message is None:
                    continue
                kind = message.get("type")
                if watcher.table and kind == "sit" and set(message) == {"type", "seat"}:
                    number = message["seat"]
                    try:
                        if not isinstance(number, int) or isinstance(number, bool):
                            raise HubError('sit down with {"type": "sit", "seat": <a seat number>}')
                        await hub.sit(game_id, watcher, number)
                    except HubError as exc:
                        await refuse(str(exc))
                    continue
                if watcher.table and kind == "cover" and set(message) == {"type"}:
                    await hub.stand(game_id, watcher)
                    continue
                if kind != "action" or set(message) not in ({"type", "action"}, {"type", "move"}):
                    await refuse(
                        'send {"type": "action", "action": "<notation>"} (or "move": <its structured form>)'
                    )
                    continue
                acting = watcher.seat
                if acting == PUBLIC:
                    await refuse("a spectator cannot act")
                    continue
                if acting < 0:
                    await refuse("the screen is covered: the player to act sits down first")
                    continue
                action = message.get("action", message.get("move"))
                if "action" in message and not isinstance(action, str):
                    await refuse('an action is a string: {"type": "action", "action": "<notation>"}')
                    continue
                if not isinstance(action, str | dict):
                    await refuse(
                        'a move is an object: {"type": "action", "move": <a legal move of the view>}'
                    )
                    continue
                try:
                    await hub.act(game_id, acting, action)
                except HubError as exc:
                    await refuse(str(exc))
        finally:
            if watcher is not None:
                await hub.unwatch(game_id, watcher)

    return app


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
                async for notice in connection.notifies():
                    game_id, _, origin = notice.payload.partition(" ")
                    if origin != hub.store.origin:
                        await hub.catch_up(game_id)
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


async def _renew(clients: Clients) -> None:
    """Keep this process's connections counted in the shared store while they are open."""
    while True:
        await asyncio.sleep(RENEW_SECONDS)
        await clients.renew()


async def _receive(websocket: WebSocket, refuse: Any) -> dict[str, Any] | None:
    """The next message as a JSON object, or None after telling the client what was wrong with it."""
    frame = await websocket.receive()
    if frame["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(frame.get("code", 1000))
    text = frame.get("text")
    if text is None:
        await refuse("send text frames holding JSON, not binary ones")
        return None
    if len(text) > MAX_MESSAGE:
        await refuse(f"a message may have at most {MAX_MESSAGE} characters, not {len(text):,}")
        return None
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError, ValueError):
        await refuse(f"not JSON: {shorten(text)}")
        return None
    if not isinstance(data, dict):
        await refuse("a message is a JSON object")
        return None
    return data


class LimitError(TussleError):
    """A client asked more than its limits allow; it may try again after ``retry_after`` seconds."""

    def __init__(self, message: str, retry_after: int = 1) -> None:
        super().__init__(message)
        self.retry_after = retry_after


def _log_refusal(request: Request, why: str) -> None:
    """A refused request, in the server's log at info: who asked, what, and why."""
    log.info("refused: client %s, %s %s: %s", client_of(request.scope), request.method, request.url.path, why)


def _summary(value: Any) -> Any:
    """An option's value as the lobby shows it: a document (a long text) by its length, not whole."""
    if isinstance(value, str) and len(value) > 64:
        return f"(a document of {len(value):,} characters)"
    return value


def _origin_allowed(websocket: WebSocket, origins: tuple[str, ...]) -> bool:
    """A page may open a WebSocket only from the server's own origin or one allowed; programs send none."""
    origin = websocket.headers.get("origin")
    if origin is None:
        return True
    host = websocket.headers.get("host", "")
    return origin.split("://", 1)[-1] == host or origin in origins


class ReplayRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    record: dict[str, Any] = Field(description="a tussle record, as `tussle play --record` writes it")
    seat: str | int = Field("0", description="whose view to show: a seat number, or public")


def _seat_param(seat: str | int, players: int) -> int:
    """The seat a replay is seen by: a number, or ``public`` for a spectator's view."""
    if str(seat) == "public":
        return PUBLIC
    text = str(seat)
    if not text.isdigit() or int(text) >= players:
        raise HubError(f"seat must be public or a number from 0 to {players - 1}, not {shorten(text)}")
    return int(text)


def _replay(record: Record, seat: int, deadline: float = float("inf")) -> dict[str, Any]:
    """Each step of a record as ``seat`` saw it: the event, the observation, and its text.

    Refused (HubError) past ``deadline`` (a :func:`time.monotonic` time) or once the
    answer would pass :data:`MAX_REPLAY_ANSWER` bytes: such a record is for ``tussle replay``.
    """
    steps: list[dict[str, Any]] = []
    events = [None, *record.events]
    state = None
    size = 0
    for event, state in zip(events, record.walk(), strict=True):
        who = None if event is None else ("chance" if event[0] < 0 else event[0])
        step = {
            "player": who,
            "action": None if event is None else event[1],
            "observation": state.observation(seat),
            "text": state.observation_text(seat),
        }
        size += len(json.dumps(step))
        if size > MAX_REPLAY_ANSWER:
            raise HubError(
                f"this record's replay would be over {MAX_REPLAY_ANSWER // 2**20} MB; "
                "replay it with tussle replay"
            )
        if time.monotonic() > deadline:
            raise HubError(
                f"this record takes over {REPLAY_SECONDS:g} s to replay here; replay it with tussle replay"
            )
        steps.append(step)
    result = state.result() if state is not None else None
    return {
        "game": record.game,
        "players": record.players,
        "num_players": record.num_players,
        "seat": None if seat == PUBLIC else seat,
        "result": result.to_json() if result is not None else None,
        "steps": steps,
        "record": record.to_json(),
    }


def _describe(info: GameInfo, documents: dict[str, list[str]] | None = None) -> dict[str, Any]:
    """A game's options and levels as the home page's form needs them.

    ``documents`` holds, for each document option, the names of the documents the
    server offers (``DocumentLibrary.offered``); without it, those the game ships.
    A document option is chosen among them, or given whole (a deck, a layout) up to
    ``max_length`` characters.
    """
    from tussle.game import MAX_DOCUMENT_CHARS

    return {
        "id": info.id,
        "name": info.name,
        "description": info.description,
        "players": [info.min_players, info.max_players],
        "information": str(info.information),
        "levels": [level for level, _ in info.hooks.levels],
        "agents": computer_agents(info),
        "options": [
            {
                "name": o.name,
                "kind": o.kind,
                "default": o.default,
                "help": o.help,
                "choices": list(o.choices),
                "minimum": o.minimum,
                "maximum": o.maximum,
                "documents": (
                    (documents or {}).get(o.name, list(o.documents)) if o.kind == "document" else []
                ),
                "max_length": MAX_DOCUMENT_CHARS if o.kind == "document" else None,
            }
            for o in info.options
        ],
    }
