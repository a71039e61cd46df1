"""``tussle play --seat LINK``: a seat of a game on a server, played from the terminal.

The server is started as in ``test_server`` (a real ``tussle serve`` on
127.0.0.1, on SQLite and PostgreSQL), and the client runs as ``python -m
tussle play`` in a process of its own, its lines typed through a pipe. A
second connection to the same seat tells the test when the client is asked
and what is legal, so the test types only when the client reads.
"""

from __future__ import annotations

import io
import json
import os
import random
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from rich.console import Console
from rich.text import Text

from test_server import SHORT, Server, db, free_port, play_out, receive
from tussle import PUBLIC, Record, load_game
from tussle.cli import cli
from tussle.cli.common import describe_result, without_result_line
from tussle.colours import styled

__all__ = ["db"]  # the fixture, from test_server: every test here runs on SQLite and PostgreSQL


@pytest.fixture(scope="module")
def server(db: str) -> Iterator[Server]:
    s = Server(db)
    yield s
    s.stop()


class Client:
    """``tussle play ARGS`` in a process of its own: lines typed to it, its output read from files."""

    def __init__(self, folder: Path, *args: str) -> None:
        self.out, self.err = folder / "out.txt", folder / "err.txt"
        with self.out.open("w") as out, self.err.open("w") as err:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "tussle", "play", *args],
                stdin=subprocess.PIPE,
                stdout=out,
                stderr=err,
                text=True,
                env={**os.environ, "PYTHONUNBUFFERED": "1"},
            )

    def type(self, *lines: str) -> None:
        assert self.process.stdin is not None
        for line in lines:
            self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def output(self) -> str:
        return self.out.read_text()

    def errors(self) -> str:
        return self.err.read_text()

    def wait_for(self, text: str, count: int = 1, *, stderr: bool = False, timeout: float = 60) -> None:
        read = self.errors if stderr else self.output
        wait_until(
            lambda: read().count(text) >= count,
            timeout,
            lambda: f"{text!r} x{count}\n{self.output()}\n{self.errors()}",
        )

    def finish(self, timeout: float = 60) -> int:
        try:
            return self.process.wait(timeout)
        finally:
            if self.process.poll() is None:
                self.process.kill()
                self.process.wait()

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()


def wait_until(done: Callable[[], bool], timeout: float = 60, what: Callable[[], str] = str) -> None:
    deadline = time.monotonic() + timeout
    while not done():
        assert time.monotonic() < deadline, f"waited in vain for {what()}"
        time.sleep(0.1)


def view_of(server: Server, game_id: str, token: str) -> dict[str, Any]:
    """The seat's whole view now, from a connection of its own."""
    ws = server.seat(game_id, token)
    try:
        return receive(ws)
    finally:
        ws.close()


def played(view: dict[str, Any], typed_at: int) -> bool:
    """Whether the view shows the seat's action typed at event ``typed_at`` played (or no longer asked)."""
    mine = any(e["player"] == view["seat"] and e["number"] >= typed_at for e in view["last"])
    return mine or not view["your_turn"] or view["result"] is not None


def act(server: Server, game_id: str, token: str, rng: random.Random) -> None:
    """A random legal action for the seat, if it is to act."""
    ws = server.seat(game_id, token)
    try:
        view = receive(ws)
        if view["your_turn"]:
            ws.send(json.dumps({"type": "action", "action": rng.choice(view["legal"]["actions"])}))
            assert receive(ws)["type"] == "view"
    finally:
        ws.close()


def test_a_whole_game_typed_at_the_terminal_against_a_computer_seat(server: Server, tmp_path: Path) -> None:
    seats = [{"kind": "person", "name": "Ann"}, {"kind": "computer", "agent": "rule"}]
    status, created = server.post("/api/games", {"game": "fite", "options": SHORT["fite"], "seats": seats})
    assert status == 201, created
    game_id, token = created["id"], created["seats"][0]["token"]
    client = Client(tmp_path, "--seat", f"{server.url}/play/{game_id}#{token}")
    watcher = server.seat(game_id, token)  # the same seat: its views say when the client is asked
    rng = random.Random(7)
    typed_at: int | None = None  # the events of the view a line was typed for, until it is played
    lines = 0
    try:
        while True:
            view = receive(watcher)
            if view["result"] is not None:
                break
            if typed_at is not None and not played(view, typed_at):
                continue
            typed_at = None
            if view["your_turn"]:
                if lines == 0:  # help, a search, and a line the server refuses: asked again each time
                    client.type("?", "? tac", "tac 9")
                    lines += 3
                client.type(rng.choice(view["legal"]["actions"]))
                lines += 1
                typed_at = view["events"]
    finally:
        watcher.close()
    assert client.finish() == 0, client.errors()
    out = client.output()
    assert out.startswith("FITE on http://127.0.0.1:")
    assert "6 legal actions now:" in out and "2 legal actions with 'tac':" in out
    assert "tussle rules fite" in out
    assert "fighter A, your action (? for help): tac 9\n  'tac 9': 9 is not a die face" in out
    assert out.count("your action (? for help): ") == lines
    record = Record.from_json(server.get(f"/api/games/{game_id}/record")[1])
    final = record.final_state()
    assert final.is_terminal()
    assert without_result_line(final.observation_text(0), final.result()) in out
    assert out.rstrip().endswith(describe_result(final, ["Ann", "rule"]))
    assert client.errors() == ""


def test_a_link_without_a_token_watches(server: Server, tmp_path: Path) -> None:
    body = {"game": "fite", "options": SHORT["fite"], "seats": [{"kind": "person"}, {"kind": "person"}]}
    created = server.post("/api/games", body)[1]
    game_id, tokens = created["id"], {s["seat"]: s["token"] for s in created["seats"]}
    client = Client(tmp_path, "--seat", f"{server.url}/play/{game_id}")
    try:
        client.wait_for("You are watching")
        play_out(server, game_id, tokens, seed=4)
        assert client.finish() == 0, client.errors()
    finally:
        client.stop()
    out = client.output()
    final = Record.from_json(server.get(f"/api/games/{game_id}/record")[1]).final_state()
    assert without_result_line(final.observation_text(PUBLIC), final.result()) in out
    assert out.rstrip().endswith(describe_result(final, ["player 0", "player 1"]))
    assert "your action" not in out


def test_a_seat_online_sees_its_view_in_its_games_colours_as_at_home(server: Server, tmp_path: Path) -> None:
    # Played at home, a view has its game's colours (its sides, its last move); a seat on a server
    # had them only as plain text.
    body = {"game": "tank-chess", "seats": [{"kind": "person"}, {"kind": "person"}]}
    created = server.post("/api/games", body)[1]
    game_id, token = created["id"], created["seats"][0]["token"]

    def shown(colour: str) -> str:
        """What the seat's client shows, run with ``colour``, until it is asked and quits."""
        (tmp_path / colour).mkdir()
        client = Client(tmp_path / colour, "--seat", f"{server.url}/play/{game_id}#{token}", colour)
        try:
            client.wait_for("your action (? for help): ")
            client.type("quit")
            assert client.finish() == 0, client.errors()
        finally:
            client.stop()
        return client.output()

    view = view_of(server, game_id, token)
    coloured = styled(load_game("tank-chess"), view["text"], view["observation"], 0)
    # The same bytes as a colour terminal shows a local game's view: the game's style hook, as there.
    out = shown("--color")
    assert "\x1b[" in out and rendered(coloured) in out
    plain = shown("--no-color")
    assert "\x1b[" not in plain and view["text"] in plain


def rendered(text: Text) -> str:
    """``text`` as a colour terminal is sent it (the 16 standard colours)."""
    sent = io.StringIO()
    console = Console(file=sent, color_system="standard", force_terminal=True, soft_wrap=True)
    console.print(text, highlight=False)
    return sent.getvalue().rstrip("\n")


def test_bad_links_tokens_and_servers_are_one_line_errors(server: Server) -> None:
    created = server.post("/api/games", {"game": "fite", "seats": [{"kind": "person"}, {"kind": "person"}]})[
        1
    ]
    game_id = created["id"]
    nowhere = f"http://127.0.0.1:{free_port()}"
    for args, why in [
        (["--seat", f"{server.url}/play/{game_id}#wrong-token"], "that token opens no seat of this game"),
        (["--seat", f"{game_id}#wrong-token", "--server", server.url], "that token opens no seat"),
        (["--seat", f"{server.url}/play/no-such-game"], "no game 'no-such-game'"),
        (["--seat", f"{nowhere}/play/{game_id}#token"], "cannot reach the server at http://127.0.0.1:"),
        (["--seat", f"{game_id}#token"], "names no server: paste the whole link, or give --server"),
        (["--seat", f"{server.url}/somewhere/{game_id}"], "names no game"),
        (["--seat", f"{server.url}/play/{game_id}#"], "no seat token follows it"),
        (["--seat", f"{game_id}#t", "--server", "ftp://x"], "is no server address"),
        (["fite", "--seat", f"{server.url}/play/{game_id}"], "leave out GAME"),
        (["fite", "--server", server.url], "--server goes with --seat"),
        ([], "missing argument 'GAME'"),
    ]:
        result = CliRunner().invoke(cli, ["play", *args])
        assert result.exit_code == 2, (args, result.output)
        assert result.stderr.count("\n") == 1 and why in result.stderr, (args, result.stderr)
        assert "wrong-token" not in result.stderr  # a token is never printed


def test_the_client_connects_again_when_the_server_is_killed_and_started_again(
    db: str, tmp_path: Path
) -> None:
    server = Server(db)
    client: Client | None = None
    try:
        body = {"game": "fite", "options": SHORT["fite"], "seats": [{"kind": "person"}, {"kind": "person"}]}
        created = server.post("/api/games", body)[1]
        game_id, tokens = created["id"], {s["seat"]: s["token"] for s in created["seats"]}
        rng = random.Random(2)
        client = Client(tmp_path, "--seat", f"{game_id}#{tokens[0]}", "--server", server.url)
        client.wait_for("your action")
        client.type("tac 5")
        wait_until(lambda: 0 not in server.get(f"/api/games/{game_id}")[1]["to_act"])

        # Killed while the client waits for the other seat: it connects again by itself.
        server.kill()
        server.start()
        act(server, game_id, tokens[1], rng)
        client.wait_for("Connected again.", stderr=True)
        client.wait_for("your action", 2)

        # Killed while the client is asked: the line typed then is sent once it is connected again.
        view = view_of(server, game_id, tokens[0])
        assert view["your_turn"]
        server.kill()
        server.start()
        client.type(rng.choice(view["legal"]["actions"]))
        wait_until(lambda: played(view_of(server, game_id, tokens[0]), view["events"]))
        client.wait_for("Connected again.", 2, stderr=True)

        # quit leaves: read at the next prompt, while the other seat plays on.
        client.type("quit")
        deadline = time.monotonic() + 60
        while client.process.poll() is None and time.monotonic() < deadline:
            act(server, game_id, tokens[1], rng)
            time.sleep(0.2)
        assert client.finish() == 0, client.errors()
        assert f"left game {game_id}; the seat stays yours" in client.errors()
        assert tokens[0] not in client.output() + client.errors()
    finally:
        if client is not None:
            client.stop()
        server.stop()
