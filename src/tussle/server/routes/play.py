"""The WebSocket a game is played on (docs/server.md): views out, actions in.

The first message is ``{"type": "hello", "token": ...}`` for a seat,
``{"type": "hello", "table": ...}`` for a game at one screen, or
``{"type": "hello"}`` to watch; then the hub sends a ``view`` after every event,
and a seat sends ``{"type": "action", "action": "<notation>"}`` or
``{"type": "action", "move": <a legal move's structured form>}`` (a table also
``sit`` and ``cover``); any connection but a table may ``chat`` (:mod:`tussle.server.chat`).
Anything wrong gets ``{"type": "error", "error": "<one
line>"}`` and changes nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Awaitable, Callable
from functools import partial
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from tussle.errors import shorten
from tussle.game import PUBLIC
from tussle.server.chat import SHAPE as CHAT_SHAPE
from tussle.server.chat import ChatRateError, chat_bucket
from tussle.server.guard import client_of
from tussle.server.hub import Hub, HubError, token_hash
from tussle.server.limits import Clients
from tussle.server.models import MAX_MESSAGE
from tussle.server.observe import Metrics
from tussle.server.outbox import SEND_FAILED, SEND_FAILED_REASON, ConnectionGoneError, Outbox
from tussle.server.routes import ClientsDep, HubDep, MetricsDep, OriginsDep
from tussle.server.store import is_game_id

#: How long a new WebSocket connection may take to say hello.
HELLO_SECONDS = 10.0
HELLO = (
    'the first message must be {"type": "hello", "token": "<the seat\'s token>"} '
    '(or "table": "<the table handle>" for a game at one screen), or without either to watch'
)

Refuse = Callable[[str], Awaitable[None]]

router = APIRouter()


#: The messages that end a game, or offer to, other than by a move: each with its one right shape.
ENDINGS = {
    "resign": 'resign with {"type": "resign"}',
    "abort": 'abort with {"type": "abort"}',
    "draw": 'offer a draw, or accept the standing offer, with {"type": "draw"}',
    "decline": 'decline the standing draw offer with {"type": "decline"}',
    "claim": 'claim a game the others left with {"type": "claim", "result": "win"} (or "draw")',
}


@router.websocket("/ws/games/{game_id}")
async def play(
    websocket: WebSocket,
    game_id: str,
    *,
    hub: HubDep,
    clients: ClientsDep,
    metrics: MetricsDep,
    origins: OriginsDep,
) -> None:
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
        await _play(websocket, game_id, outbox, hub=hub, clients=clients, metrics=metrics)
    except (WebSocketDisconnect, ConnectionGoneError):
        pass
    finally:
        metrics.connections.dec()
        if outbox.too_slow:
            metrics.refusals.labels("outbox").inc()
        outbox.stop()
        await clients.disconnect(handle)


async def _play(
    websocket: WebSocket, game_id: str, outbox: Outbox, *, hub: Hub, clients: Clients, metrics: Metrics
) -> None:
    """A seat's (or a spectator's) connection once it is let in: views out, actions in."""
    bucket = clients.message_bucket()
    chatting = chat_bucket()

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
            watcher = await hub.watch(
                game_id,
                seat,
                outbox.send,
                table=table is not None,
                close=partial(outbox.close, SEND_FAILED, SEND_FAILED_REASON),
            )
        except HubError as exc:
            await shut(str(exc))
            return
        await hub.chat.welcome(game_id, watcher)
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
            if kind == "chat":
                if set(message) != {"type", "text"}:
                    await refuse(CHAT_SHAPE)
                    continue
                try:
                    await hub.chat.post(game_id, watcher, message["text"], chatting)
                except HubError as exc:
                    if isinstance(exc, ChatRateError):
                        metrics.refusals.labels("chat").inc()
                    await refuse(str(exc))
                continue
            if isinstance(kind, str) and kind in ENDINGS:
                claim = message.get("result") if kind == "claim" else None
                if set(message) != ({"type", "result"} if kind == "claim" else {"type"}) or claim not in (
                    ("win", "draw") if kind == "claim" else (None,)
                ):
                    await refuse(ENDINGS[kind])
                    continue
                if watcher.seat < 0:
                    who = "a spectator" if watcher.seat == PUBLIC else "a covered screen"
                    await refuse(f"{who} cannot {kind}: a player in a seat can")
                    continue
                try:
                    if kind == "claim":
                        await hub.claim(game_id, watcher.seat, win=claim == "win")
                    else:
                        ending = {
                            "resign": hub.resign,
                            "abort": hub.abort,
                            "draw": hub.offer_draw,
                            "decline": hub.decline_draw,
                        }[kind]
                        await ending(game_id, watcher.seat)
                except HubError as exc:
                    await refuse(str(exc))
                continue
            if kind == "look":
                # Looking back costs a few dozen replayed events at most (tussle.server.story), and
                # counts against the connection's message rate like any other message.
                at = message.get("at")
                if set(message) != {"type", "at"} or not isinstance(at, int) or isinstance(at, bool):
                    await refuse('look back with {"type": "look", "at": <an event number>}')
                    continue
                try:
                    live = await hub.get(game_id)
                    await outbox.send(hub.look(live, watcher.seat, at))
                except HubError as exc:
                    await refuse(str(exc))
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
                await refuse('a move is an object: {"type": "action", "move": <a legal move of the view>}')
                continue
            try:
                await hub.act(game_id, acting, action)
            except HubError as exc:
                await refuse(str(exc))
    finally:
        if watcher is not None:
            await hub.unwatch(game_id, watcher)


async def _receive(websocket: WebSocket, refuse: Refuse) -> dict[str, Any] | None:
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


def _origin_allowed(websocket: WebSocket, origins: tuple[str, ...]) -> bool:
    """A page may open a WebSocket only from the server's own origin or one allowed; programs send none."""
    origin = websocket.headers.get("origin")
    if origin is None:
        return True
    host = websocket.headers.get("host", "")
    return origin.split("://", 1)[-1] == host or origin in origins
