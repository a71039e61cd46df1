"""A view the server could not send: the connection is closed (its client connects again), never left
open and forgotten, a game stuck from the client's side (docs/server.md, "When a send fails").

In one process, over a hub and a SQLite store, with connections whose sends are functions: a send
that raises once, for one connection, while the game goes on.
"""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Any

from tussle.server.hub import Hub
from tussle.server.outbox import SEND_FAILED, ConnectionGoneError, Outbox
from tussle.server.store import Seat, Store

Message = dict[str, Any]


class Connection:
    """A connection's two ends as the hub sees them: what it was sent, whether it was closed; its
    next ``failures`` sends of a view raise (as a send that could not be made)."""

    def __init__(self) -> None:
        self.views: list[Message] = []
        self.closed = False
        self.failures = 0

    async def send(self, message: Message) -> None:
        if self.closed:
            raise ConnectionGoneError("closed")
        if message["type"] == "view" and self.failures:
            self.failures -= 1
            raise TypeError("Object of type frozenset is not JSON serializable")
        if message["type"] == "view":
            self.views.append(message)

    def close(self) -> None:
        self.closed = True


async def _play_with_a_failed_send(store: Store, game_id: str) -> tuple[Connection, Connection, int]:
    hub = Hub(store)  # no workers: both seats are people's
    await hub.start(game_id)
    ann, bo = Connection(), Connection()
    await hub.watch(game_id, 0, ann.send, close=ann.close)
    await hub.watch(game_id, 1, bo.send, close=bo.close)
    bo.failures = 1  # the view after the next event cannot be sent to Bo
    live = await hub.get(game_id)
    rng = random.Random(3)
    for _ in range(3):  # three events, each sent to everybody watching
        player = live.state.to_act()[0]
        action = live.state.legal_actions(player).sample(rng)
        await hub.act(game_id, player, live.state.action_to_str(player, action))
    return ann, bo, len(live.events)


def test_a_connection_a_view_could_not_be_sent_to_is_closed_or_still_gets_the_next_view(
    tmp_path: Path,
) -> None:
    store = Store.open(f"sqlite:///{tmp_path / 'views.db'}")
    try:
        seats = [Seat(0, "person", None, "Ann", "h0"), Seat(1, "person", None, "Bo", "h1")]
        game_id = store.create_game("fite", {}, 2, seats, seed="delivery")
        ann, bo, events = asyncio.run(_play_with_a_failed_send(store, game_id))
    finally:
        store.close()
    assert ann.views[-1]["events"] == events and not ann.closed
    # Bo missed a view: either his connection was closed (his client connects again and is sent the
    # whole view), or he was sent the views after it. Left open and sent nothing, he would wait for
    # ever for a view that says it is his turn.
    assert bo.closed or bo.views[-1]["events"] == events, [v["events"] for v in bo.views]


class FakeWebSocket:
    """The end of a WebSocket an outbox sends on: what it sent, how it was closed."""

    def __init__(self, *, fail: bool = False) -> None:
        self.sent: list[str] = []
        self.fail = fail
        self.closed_with: int | None = None

    async def send_text(self, text: str) -> None:
        if self.fail:
            raise RuntimeError("the send failed")
        self.sent.append(text)

    async def close(self, code: int = 1000, reason: str = "") -> None:
        self.closed_with = code


async def _outbox_sends(websocket: FakeWebSocket, message: Message) -> bool:
    """Whether the outbox took ``message`` (False: it raised ConnectionGoneError)."""
    outbox = Outbox(websocket, "a test")  # type: ignore[arg-type]  # what an outbox uses of a WebSocket
    try:
        await outbox.send(message)
    except ConnectionGoneError:
        return False
    finally:
        for _ in range(5):  # let its sending task, and its closing, run
            await asyncio.sleep(0)
    outbox.stop()
    return True


def test_an_outbox_that_cannot_send_closes_its_connection() -> None:
    # A message that is no JSON: refused, and the connection closed rather than left open, unsent to.
    websocket = FakeWebSocket()
    assert not asyncio.run(_outbox_sends(websocket, {"type": "view", "seats": frozenset()}))
    assert websocket.closed_with == SEND_FAILED and websocket.sent == []
    # A send on the socket that fails: closed too.
    websocket = FakeWebSocket(fail=True)
    assert asyncio.run(_outbox_sends(websocket, {"type": "view"}))
    assert websocket.closed_with == SEND_FAILED
    # A good one is sent as JSON, and nothing is closed.
    websocket = FakeWebSocket()
    assert asyncio.run(_outbox_sends(websocket, {"type": "view", "events": 1}))
    assert [json.loads(text) for text in websocket.sent] == [{"type": "view", "events": 1}]
    assert websocket.closed_with is None
