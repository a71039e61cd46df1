"""The HTTP and WebSocket API of ``tussle serve`` (FastAPI on uvicorn; its OpenAPI at ``/openapi.json``).

- ``POST /api/games``: a new game: the game, its options, and per seat a person,
  a computer agent or an open seat; the answer gives each person seat's secret
  token (its invite link is ``/play/<game>#<token>``: after the ``#``, so it never
  reaches a server log).
- ``POST /api/games/<game>/join``: take an open seat; the answer is its token.
- ``GET /api/lobby``: games with open seats. ``GET /api/games/<game>``: the
  public view. ``GET /api/games/<game>/record``: a finished game as a tussle record.
- ``WS /ws/games/<game>``: the first message is ``{"type": "hello", "token": ...}``
  for a seat, or ``{"type": "hello"}`` to watch; the server then sends a
  ``view`` after every event, and takes ``{"type": "action", "action": "tac 5"}``.
  Anything wrong gets ``{"type": "error", "error": "<one line>"}`` and changes nothing.
"""

from __future__ import annotations

import asyncio
import json
import multiprocessing
import os
import secrets
from collections.abc import AsyncIterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import asynccontextmanager
from functools import partial
from pathlib import Path
from typing import Any, Literal

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field

from tussle.agents import make_agent
from tussle.errors import TussleError, shorten
from tussle.game import PUBLIC, GameInfo
from tussle.record import Record
from tussle.registry import game_class, game_ids, game_info, load_game
from tussle.server.hub import Hub, HubError, new_token, token_hash
from tussle.server.limits import Clients, Limits
from tussle.server.store import CHANNEL, WAITING_KINDS, Seat, Store

#: The largest WebSocket message or request body the server reads, in bytes.
MAX_MESSAGE = 16 * 1024
HELLO = (
    'the first message must be {"type": "hello", "token": "<the seat\'s token>"}, or without a token to watch'
)
#: The largest record the replay page may upload, in bytes, and its most events.
MAX_RECORD = 1024 * 1024
MAX_RECORD_EVENTS = 5000
#: Seats a game may have (the games themselves allow at most 6).
MAX_SEATS = 8


class SeatRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    kind: Literal["person", "computer", "open"] = Field(description="who sits here")
    agent: str | None = Field(None, max_length=200, description="the agent spec of a computer seat")
    name: str = Field("", max_length=60, description="a display name")


class ClockRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    minutes: float = Field(gt=0, le=24 * 60, description="each player's time for the whole game")
    increment: float = Field(0.0, ge=0, le=600, description="seconds added after each of a player's moves")


class CreateRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    game: str = Field(max_length=64, description="a game id, as `tussle games` lists them")
    options: dict[str, str | int | bool] = Field(default_factory=dict, description="game options")
    seats: list[SeatRequest] = Field(
        min_length=1, max_length=MAX_SEATS, description="one per player, in order"
    )
    seed: str | None = Field(
        None, max_length=64, description="drives the chance events; only for games that must repeat"
    )
    clock: ClockRequest | None = Field(None, description="a time control: at zero the player loses")


class TokenRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    token: str = Field(max_length=100, description="a seat's secret token")


class TokensRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    tokens: list[str] = Field(max_length=200, description="the seat tokens a player holds")


class JoinRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    seat: int | None = Field(
        None, ge=0, lt=MAX_SEATS, description="the open seat to take (default: the first)"
    )
    name: str = Field("", max_length=60)


def link(game_id: str, token: str) -> str:
    """A seat's invite link, relative to the server: the token after ``#`` never reaches a server's log."""
    return f"/play/{game_id}#{token}"


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def create_app(
    db_url: str, *, workers: int | None = None, origins: tuple[str, ...] = (), limits: Limits | None = None
) -> FastAPI:
    """The server's ASGI application over the database at ``db_url``.

    ``workers`` processes play the computer seats (default: the CPU count);
    ``origins`` are the web origins, besides the server's own, whose pages may
    open its WebSockets; ``limits`` bound what each client may ask.
    """
    clients = Clients(limits or Limits())

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = await asyncio.to_thread(Store.open, db_url)
        # Spawned, not forked: a forked worker would inherit the listening socket and the open
        # connections, hold the port after the server is killed, and keep dead clients waiting.
        spawn = multiprocessing.get_context("spawn")
        pool = ProcessPoolExecutor(max_workers=workers or os.cpu_count() or 1, mp_context=spawn)
        hub = Hub(store, pool)
        app.state.hub = hub
        await hub.resume_all()
        listener = None
        if store.engine.dialect.name == "postgresql":
            listener = asyncio.get_running_loop().create_task(_listen(db_url, hub))
        try:
            yield
        finally:
            if listener is not None:
                listener.cancel()
            await hub.close()
            pool.shutdown(cancel_futures=True)
            store.close()

    app = FastAPI(
        title="tussle",
        summary="Play the five fighting tabletop games online: people, programs and computer seats.",
        lifespan=lifespan,
    )

    @app.middleware("http")
    async def _rate(request: Request, call_next: Any) -> Any:
        # Bodies are bounded before they are read; then each client's request rate.
        length = request.headers.get("content-length")
        most = MAX_RECORD if request.url.path == "/api/replay" else MAX_MESSAGE
        if length is not None and (not length.isdigit() or int(length) > most):
            return _error(413, f"a request body may have at most {most:,} bytes")
        why = clients.request(_client(request))
        if why is not None:
            return _error(429, why)
        return await call_next(request)

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
            return _error(404, f"unknown game {game_id!r}")
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
            return _error(404, f"unknown game {game_id!r}")
        text = game_class(game_id).web_client()
        if text is None:
            return FileResponse(web / "text.js", media_type="text/javascript")
        return Response(text, media_type="text/javascript")

    @app.get("/api/catalog")
    async def catalog() -> dict[str, Any]:
        """The games this server offers, with their options and computer levels (the home page's form)."""
        return {"games": [_describe(game_info(game_id)) for game_id in game_ids()]}

    @app.exception_handler(RequestValidationError)
    async def _invalid(_request: Request, exc: RequestValidationError) -> JSONResponse:
        first = exc.errors()[0] if exc.errors() else {"loc": (), "msg": "invalid request"}
        where = ".".join(str(part) for part in first.get("loc", ()) if part != "body")
        return _error(422, f"{where}: {first.get('msg', 'invalid')}" if where else str(first.get("msg")))

    @app.exception_handler(TussleError)
    async def _refused(_request: Request, exc: TussleError) -> JSONResponse:
        return _error(429 if isinstance(exc, LimitError) else 400, str(exc))

    def hub_of(request: Request | WebSocket) -> Hub:
        hub: Hub = request.app.state.hub
        return hub

    @app.post("/api/games", status_code=201)
    async def create_game(body: CreateRequest, request: Request) -> dict[str, Any]:
        """A new game; the answer holds each person seat's secret token (give it only to that person)."""
        if body.game not in game_ids():
            raise HubError(f"unknown game {body.game!r} (games: {', '.join(game_ids())})")
        game = load_game(body.game, players=len(body.seats), **body.options)
        seats: list[Seat] = []
        tokens: dict[int, str] = {}
        for number, seat in enumerate(body.seats):
            if seat.kind == "computer":
                spec = seat.agent or "medium"
                if make_agent(spec, game, number, seed=0).interactive:
                    raise HubError(f"seat {number}: {spec!r} needs a person; give it kind 'person'")
                seats.append(Seat(number, "computer", spec, seat.name or spec, None))
            elif seat.kind == "person":
                tokens[number] = new_token()
                seats.append(
                    Seat(number, "person", None, seat.name or f"player {number}", token_hash(tokens[number]))
                )
            else:
                seats.append(Seat(number, "open", None, "", None))
        hub = hub_of(request)
        mine = clients.games[_client(request)]
        for gone in [g for g in mine if g not in hub.live or hub.live[g].state.is_terminal()]:
            mine.discard(gone)
        if len(mine) >= clients.limits.open_games:
            raise LimitError(
                f"too many games in play: at most {clients.limits.open_games} at once; finish some first"
            )
        seed = body.seed if body.seed is not None else secrets.token_hex(16)
        clock = (body.clock.minutes * 60.0, body.clock.increment) if body.clock is not None else None
        game_id = await asyncio.to_thread(
            partial(hub.store.create_game, seed=seed, clock=clock),
            body.game,
            game.non_default_options(),
            game.num_players,
            seats,
        )
        mine.add(game_id)
        await hub.get(game_id)
        if not any(s.kind == "open" for s in seats):
            await hub.start(game_id)
        return {
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
                }
                for s in seats
            ],
            "spectate": f"/play/{game_id}",
        }

    @app.post("/api/games/{game_id}/join")
    async def join(game_id: str, body: JoinRequest, request: Request) -> dict[str, Any]:
        """Take an open seat of a game in the lobby; the answer holds the seat's secret token."""
        hub = hub_of(request)
        live = await hub.get(game_id)
        open_seats = [s.seat for s in live.seats if s.kind == "open"]
        seat = body.seat if body.seat is not None else (open_seats[0] if open_seats else None)
        if seat is None or seat not in open_seats:
            raise HubError(
                f"seat {seat} of game {game_id} is not open" if seat is not None else "no open seat"
            )
        token = new_token()
        name = body.name or f"player {seat}"
        if not await asyncio.to_thread(hub.store.take_seat, game_id, seat, name, token_hash(token)):
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
            if row is None:
                seats = [
                    Seat(
                        (s.seat + 1) % n,
                        "reserved" if s.kind == "person" else s.kind,
                        s.agent,
                        s.name,
                        None,
                    )
                    for s in old.seats
                ]
                seats.sort(key=lambda s: s.seat)
                new_id = await asyncio.to_thread(
                    partial(
                        hub.store.create_game,
                        seed=secrets.token_hex(16),
                        rematch_of=game_id,
                        clock=old.row.clock,
                    ),
                    old.row.game,
                    old.row.options,
                    old.row.players,
                    seats,
                )
                await hub.broadcast_message(old, {"type": "rematch", "game": new_id})
            else:
                new_id = row.id
        token = new_token()
        seat = next(s for s in (await hub.get(new_id)).seats if s.seat == new_seat)
        if seat.kind != "reserved" or not await asyncio.to_thread(
            hub.store.take_seat, new_id, new_seat, seat.name, token_hash(token), "reserved"
        ):
            raise HubError(f"seat {new_seat} of the rematch is taken already")
        live = await hub.refresh(new_id)
        if not any(s.kind in WAITING_KINDS for s in live.seats):
            await hub.start(new_id)
        return {"id": new_id, "seat": new_seat, "token": token, "link": link(new_id, token)}

    @app.post("/api/my-games")
    async def my_games(body: TokensRequest, request: Request) -> dict[str, Any]:
        """The games of the seats whose tokens a player holds (a browser keeps them), newest first."""
        hub = hub_of(request)
        out: list[dict[str, Any]] = []
        for token in body.tokens:
            found = await asyncio.to_thread(hub.store.seat_of, token_hash(token))
            if found is None:
                continue
            live = await hub.get(found[0])
            out.append(
                {
                    "id": live.row.id,
                    "game": live.row.game,
                    "seat": found[1],
                    "status": "finished" if live.result_json() is not None else live.row.status,
                    "your_turn": live.result_json() is None and found[1] in live.state.to_act(),
                    "created": live.row.created,
                    "result": live.result_json(),
                }
            )
        out.sort(key=lambda g: -g["created"])
        return {"games": out}

    @app.get("/api/lobby")
    async def lobby(request: Request) -> dict[str, Any]:
        """Games waiting for players, newest first."""
        rows = await asyncio.to_thread(hub_of(request).store.open_games)
        hub = hub_of(request)
        out = []
        for row in rows:
            live = await hub.get(row.id)
            if not any(s.kind == "open" for s in live.seats):
                continue  # a rematch waiting for its players is nobody else's to join
            out.append(
                {
                    "id": row.id,
                    "game": row.game,
                    "options": row.options,
                    "open_seats": [s.seat for s in live.seats if s.kind == "open"],
                    "seats": [{"seat": s.seat, "kind": s.kind, "name": s.name} for s in live.seats],
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
        answer = await asyncio.to_thread(_replay, record, _seat_param(seat, record.num_players))
        answer["result"] = live.result_json()  # a clock's result is no part of the record
        return answer

    @app.post("/api/replay")
    async def replay_upload(body: ReplayRequest) -> dict[str, Any]:
        """An uploaded record, step by step as a finished game's replay; a bad record is refused whole."""
        record = Record.from_json(body.record)
        if len(record.events) > MAX_RECORD_EVENTS:
            raise HubError(f"a record may have at most {MAX_RECORD_EVENTS:,} events to replay here")
        if record.game not in game_ids():
            raise HubError(f"unknown game {record.game!r} (games: {', '.join(game_ids())})")
        return await asyncio.to_thread(_replay, record, _seat_param(body.seat, record.num_players))

    @app.websocket("/ws/games/{game_id}")
    async def play(websocket: WebSocket, game_id: str) -> None:
        """A seat's (or a spectator's) connection: views out, actions in."""
        if not _origin_allowed(websocket, origins):
            await websocket.close(code=1008)
            return
        client = _client(websocket)
        await websocket.accept()
        why = clients.connect(client)
        if why is not None:
            await websocket.send_text(json.dumps({"type": "error", "error": why}))
            await websocket.close(code=1008)
            return
        try:
            await _play(websocket, game_id)
        finally:
            clients.disconnect(client)

    async def _play(websocket: WebSocket, game_id: str) -> None:
        """A seat's (or a spectator's) connection once it is let in: views out, actions in."""
        hub = hub_of(websocket)
        bucket = clients.message_bucket()

        async def send(message: dict[str, Any]) -> None:
            await websocket.send_text(json.dumps(message))

        async def refuse(message: str) -> None:
            await send({"type": "error", "error": message})

        watcher = None
        try:
            hello = await _receive(websocket, refuse)
            if hello is None or hello.get("type") != "hello" or set(hello) - {"type", "token"}:
                await refuse(HELLO)
                await websocket.close(code=1008)
                return
            seat = PUBLIC
            token = hello.get("token")
            if token is not None:
                found = await asyncio.to_thread(hub.store.seat_of, token_hash(str(token)))
                if found is None or found[0] != game_id:
                    await refuse("that token opens no seat of this game")
                    await websocket.close(code=1008)
                    return
                seat = found[1]
            try:
                watcher = await hub.watch(game_id, seat, send)
            except HubError as exc:
                await refuse(str(exc))
                await websocket.close(code=1008)
                return
            while True:
                message = await _receive(websocket, refuse)
                if not bucket.take():
                    limit = clients.limits.messages_per_second
                    await refuse(f"too many messages: at most {limit:g} a second; that one was not read")
                    continue
                if message is None:
                    continue
                if message.get("type") != "action" or set(message) != {"type", "action"}:
                    await refuse('send {"type": "action", "action": "<notation>"}')
                    continue
                if seat == PUBLIC:
                    await refuse("a spectator cannot act")
                    continue
                try:
                    await hub.act(game_id, seat, str(message["action"]))
                except HubError as exc:
                    await refuse(str(exc))
        except WebSocketDisconnect:
            pass
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
                async for notice in connection.notifies():
                    game_id, _, origin = notice.payload.partition(" ")
                    if origin != hub.store.origin:
                        await hub.catch_up(game_id)
        except asyncio.CancelledError:
            raise
        except Exception:  # the database went away: listen again in a moment
            await asyncio.sleep(1.0)


async def _receive(websocket: WebSocket, refuse: Any) -> dict[str, Any] | None:
    """The next message as a JSON object, or None after telling the client what was wrong with it."""
    text = await websocket.receive_text()
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
    """A client asked more than its limits allow."""


def _client(connection: Request | WebSocket) -> str:
    """Who is asking: the client's address."""
    return connection.client.host if connection.client is not None else "?"


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


def _replay(record: Record, seat: int) -> dict[str, Any]:
    """Each step of a record as ``seat`` saw it: the event, the observation, and its text."""
    steps: list[dict[str, Any]] = []
    events = [None, *record.events]
    state = None
    for event, state in zip(events, record.walk(), strict=True):
        who = None if event is None else ("chance" if event[0] < 0 else event[0])
        steps.append(
            {
                "player": who,
                "action": None if event is None else event[1],
                "observation": state.observation(seat),
                "text": state.observation_text(seat),
            }
        )
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


def _describe(info: GameInfo) -> dict[str, Any]:
    """A game's options and levels as the home page's form needs them."""
    return {
        "id": info.id,
        "name": info.name,
        "description": info.description,
        "players": [info.min_players, info.max_players],
        "information": str(info.information),
        "levels": [level for level, _ in info.hooks.levels],
        "options": [
            {
                "name": o.name,
                "kind": o.kind,
                "default": o.default,
                "help": o.help,
                "choices": list(o.choices),
                "minimum": o.minimum,
                "maximum": o.maximum,
            }
            for o in info.options
        ],
    }
