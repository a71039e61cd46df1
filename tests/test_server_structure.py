"""How the server is put together: ``create_app`` only builds the application, every route is a
routes module's, and the game service stands without FastAPI.

The service is driven here directly over a throwaway SQLite store (no HTTP, no
worker processes): a game made, joined, played to its end and rematched, at one
screen too.
"""

from __future__ import annotations

import ast
import asyncio
import inspect
import random
import subprocess
import sys
import textwrap
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tussle.server.app import create_app
from tussle.server.hub import Hub, HubError, token_hash
from tussle.server.models import CreateRequest
from tussle.server.service import GameService
from tussle.server.store import Store


def _endpoints(routes: Iterable[Any]) -> Iterator[Any]:
    """Every endpoint an application serves, through its included routers."""
    for route in routes:
        endpoint = getattr(route, "endpoint", None)
        if endpoint is not None:
            yield endpoint
        # Newer FastAPI keeps an included router whole, behind one route, instead of copying its routes.
        included = getattr(route, "original_router", None)
        if included is not None:
            yield from _endpoints(included.routes)


def test_every_route_is_a_routes_modules_and_create_app_defines_none() -> None:
    app = create_app("sqlite://")
    ours = [e for e in _endpoints(app.routes) if not e.__module__.startswith("fastapi.")]
    modules = {e.__module__ for e in ours}
    assert all(module.startswith("tussle.server.routes.") for module in modules), modules
    assert modules >= {
        "tussle.server.routes.operator",
        "tussle.server.routes.pages",
        "tussle.server.routes.games",
        "tussle.server.routes.replays",
        "tussle.server.routes.play",
        "tussle.server.routes.lobby",
        "tussle.server.routes.accounts",
    }
    assert len(ours) >= 20, [e.__name__ for e in ours]
    tree = ast.parse(textwrap.dedent(inspect.getsource(create_app)))
    nested = [
        node.name
        for node in ast.walk(tree.body[0])
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node is not tree.body[0]
    ]
    assert nested == ["lifespan"]


def test_the_service_imports_no_web_framework() -> None:
    code = (
        "import sys, tussle.server.service\n"
        "print(sorted({m.split('.')[0] for m in sys.modules} & {'fastapi', 'starlette', 'uvicorn'}))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


async def _finish(hub: Hub, game_id: str, rng: random.Random) -> None:
    """Play a game to its end by random legal moves (the hub draws its chance)."""
    live = await hub.get(game_id)
    while live.result_json() is None:
        player = live.state.to_act()[0]
        action = live.state.legal_actions(player).sample(rng)
        await hub.act(game_id, player, live.state.action_to_str(player, action))


async def _seats_made_joined_and_rematched(db: str) -> None:
    store = Store.open(db)
    hub = Hub(store)  # no workers: only people sit here
    service = GameService(hub)
    rng = random.Random(7)
    try:
        made = await service.create(
            CreateRequest.model_validate(
                {
                    "game": "tank-chess",
                    "options": {"ply_limit": 4},
                    "seats": [{"kind": "person", "name": "Ann"}, {"kind": "open"}],
                }
            ),
            "client-a",
        )
        game_id = made["id"]
        ann = made["seats"][0]["token"]
        assert made["seats"][0]["link"] == f"/play/{game_id}#{ann}" and "token" not in made["seats"][1]
        assert [g["id"] for g in (await service.lobby())["games"]] == [game_id]
        with pytest.raises(HubError, match="not open"):
            await service.join(game_id, seat=0)
        joined = await service.join(game_id, name="Bob")
        assert joined["seat"] == 1 and (await service.lobby())["games"] == []
        bob = joined["token"]
        await hub.confirm(token_hash(bob))  # what the seat's first connection does
        with pytest.raises(HubError, match="still played"):
            await service.rematch(game_id, ann)
        await _finish(hub, game_id, rng)
        mine = (await service.my_games([ann, "no such token"]))["games"]
        assert [(g["id"], g["seat"], g["status"]) for g in mine] == [(game_id, 0, "finished")]
        assert (await service.record(game_id))["game"] == "tank-chess"

        # The seats turn by one; the rematch starts once both have taken theirs.
        first = await service.rematch(game_id, ann)
        assert first["seat"] == 1
        await hub.confirm(token_hash(first["token"]))
        rematch = await hub.get(first["id"])
        assert [(s.kind, s.name) for s in rematch.seats] == [("reserved", "Bob"), ("person", "Ann")]
        assert await store_status(store, first["id"]) == "waiting"
        second = await service.rematch(game_id, bob)
        assert (second["id"], second["seat"]) == (first["id"], 0)
        await hub.confirm(token_hash(second["token"]))
        assert [s.kind for s in (await hub.get(first["id"])).seats] == ["person", "person"]
        assert await store_status(store, first["id"]) == "playing"
        with pytest.raises(HubError, match="taken already"):
            await service.rematch(game_id, bob)

        # At one screen the rematch is made once, behind a new table handle.
        table = await service.create(
            CreateRequest.model_validate(
                {
                    "game": "tank-chess",
                    "options": {"ply_limit": 2},
                    "seats": [{"kind": "person"}, {"kind": "person"}],
                    "table": True,
                    "seed": "fixed",
                }
            ),
            "client-a",
        )
        await _finish(hub, table["id"], rng)
        again = await service.rematch(table["id"], table["table"])
        assert set(again) == {"id", "table"} and again["table"] != table["table"]
        with pytest.raises(HubError, match="made already"):
            await service.rematch(table["id"], table["table"])
    finally:
        await hub.close()
        store.close()


async def store_status(store: Store, game_id: str) -> str:
    row = await asyncio.to_thread(store.game, game_id)
    assert row is not None
    return row.status


def test_the_service_makes_joins_and_rematches_games_without_http(tmp_path: Path) -> None:
    asyncio.run(_seats_made_joined_and_rematched(f"sqlite:///{tmp_path / 'games.db'}"))
