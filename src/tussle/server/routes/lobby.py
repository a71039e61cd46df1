"""The live lobby (docs/server.md): the lists pushed over a WebSocket, and "play anyone now".

``WS /ws/lobby`` sends ``{"type": "lobby", "open": [...], "playing": [...], "now": <time>}``
at once and again whenever either list changes; it reads nothing (a message gets a one-line
error). ``POST /api/seek`` pairs its asker with the oldest lobby game of the same game, options and
time control, or makes one that waits for the next.
"""

from __future__ import annotations

import contextlib
import json
from typing import Any

from fastapi import APIRouter, Request, WebSocket, WebSocketDisconnect

from tussle.server.guard import client_of
from tussle.server.lobby import LOBBY_OUTBOX, LOBBY_OUTBOX_BYTES
from tussle.server.models import SeekRequest
from tussle.server.outbox import ConnectionGoneError, Outbox
from tussle.server.routes import AccountDep, ClientsDep, MetricsDep, OriginsDep, ServiceDep
from tussle.server.routes.play import _origin_allowed as origin_allowed

#: What a lobby listener is told when it sends anything.
READS_NOTHING = "the lobby only sends: it reads no message (join or seek over HTTP)"

router = APIRouter()


@router.post("/api/seek")
async def seek(
    body: SeekRequest, request: Request, service: ServiceDep, account: AccountDep
) -> dict[str, Any]:
    """Play anyone now: a seat in the oldest lobby game of the same game, options and time control,
    or a new game that waits on its page for the next who asks the same (``paired`` says which)."""
    return await service.seek(body, client_of(request.scope), account)


@router.websocket("/ws/lobby")
async def live(
    websocket: WebSocket,
    *,
    service: ServiceDep,
    clients: ClientsDep,
    metrics: MetricsDep,
    origins: OriginsDep,
) -> None:
    """The lobby's lists, pushed whenever they change."""
    if not origin_allowed(websocket, origins):
        await websocket.close(code=1008)
        return
    client = client_of(websocket.scope)
    await websocket.accept()
    handle, why = await clients.connect(client)
    lobby_handle = None
    if why is None:
        most = clients.limits.lobby_connections
        lobby_handle, why = await clients.connect(client, kind="lobby", most=most)
    if why is not None:
        metrics.refusals.labels("connections").inc()
        with contextlib.suppress(Exception):
            await websocket.send_text(json.dumps({"type": "error", "error": why}))
            await websocket.close(code=1008)
        await clients.disconnect(handle)
        return
    # A small outbox: a listener that does not read is closed long before it holds much memory.
    outbox = Outbox(
        websocket, f"client {client}, lobby", most_messages=LOBBY_OUTBOX, most_bytes=LOBBY_OUTBOX_BYTES
    )
    metrics.connections.inc()
    bucket = clients.message_bucket()
    try:
        await service.feed.listen(outbox.send)
        while True:
            frame = await websocket.receive()
            if frame["type"] == "websocket.disconnect":
                break
            # Anything sent is a mistake: told once per token of the message rate, else unread.
            if bucket.take():
                await outbox.send({"type": "error", "error": READS_NOTHING})
    except (WebSocketDisconnect, ConnectionGoneError):
        pass
    finally:
        service.feed.leave(outbox.send)
        metrics.connections.dec()
        if outbox.too_slow:
            metrics.refusals.labels("outbox").inc()
        outbox.stop()
        await clients.disconnect(lobby_handle)
        await clients.disconnect(handle)
