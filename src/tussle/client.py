"""A seat of a game on a ``tussle serve`` server, played at the terminal (``tussle play --seat LINK``).

A seat's invite link is ``http://HOST:PORT/play/GAME#TOKEN``: the token
after ``#`` is the seat's key. The client opens the game's WebSocket
(``ws://HOST:PORT/ws/games/GAME``: the path carries the game only, never the
token, so no server or proxy log holds it), names the seat in its first
message, and from then on shows each view the server sends (the seat's
observation text, as a local game shows it) and, when it is the seat's turn,
asks at the same prompt as a local game (:class:`tussle.agents.human.TerminalPrompt`).
A link without a token watches the game as a spectator.

When the connection drops the client connects again by itself, a few times
with a short pause; the server then sends the whole view again, and an action
typed but not yet played is sent again. ``quit`` leaves; the seat stays the
player's, and the same link brings them back.

>>> link = parse_link("http://127.0.0.1:8000/play/9c1e#s3cret")
>>> link.server, link.game, link.token, link.websocket_url
('http://127.0.0.1:8000', '9c1e', 's3cret', 'ws://127.0.0.1:8000/ws/games/9c1e')
>>> parse_link("9c1e", "https://example.org/tussle").websocket_url
'wss://example.org/tussle/ws/games/9c1e'
"""

from __future__ import annotations

import contextlib
import json
import random
import re
import socket
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TextIO
from urllib.parse import urlsplit

from rich.console import Console
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus, InvalidURI
from websockets.sync.client import ClientConnection, connect

from tussle.agents.human import Choices, PlayerQuitError, TerminalPrompt
from tussle.cli.common import printable, result_line, without_result_line
from tussle.colours import styled
from tussle.errors import TussleError, shorten
from tussle.game import CHANCE, PUBLIC, Game, Result
from tussle.registry import game_info, load_game

#: Connecting again after the connection dropped: this many tries, this many seconds apart.
RECONNECT_TRIES = 8
RECONNECT_PAUSE = 2.0
#: The longest line sent as an action (the server takes at most 200 characters of notation).
MAX_ACTION = 1000
#: The largest message read from a server (a view is a few kilobytes).
MAX_MESSAGE = 4 * 1024 * 1024

_GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,100}")
#: Path segments before a game id in a link: ``/play/ID`` (a seat) or ``/games/ID`` (to watch).
_LINK_KINDS = ("play", "games")


class ClientError(TussleError):
    """A link that cannot be used, a server that cannot be reached, or one that refuses the seat."""


@dataclass(frozen=True)
class SeatLink:
    """Where a seat is: the server's base URL, the game, and the seat's token (None to watch)."""

    server: str
    game: str
    token: str | None

    @property
    def websocket_url(self) -> str:
        """The game's WebSocket: the game's id only, never the token."""
        scheme, rest = self.server.split("://", 1)
        return f"{'wss' if scheme == 'https' else 'ws'}://{rest}/ws/games/{self.game}"


def _server_base(text: str, what: str) -> tuple[str, str]:
    """``text`` as (scheme://host[:port], the path after it); ``http://`` when no scheme is written."""
    if "://" not in text:
        text = "http://" + text
    try:
        parts = urlsplit(text)
        port = parts.port  # a port that is no number raises ValueError here
    except ValueError as exc:
        raise ClientError(f"{what} {shorten(text)} is no server address: {exc}") from None
    scheme = {"ws": "http", "wss": "https"}.get(parts.scheme, parts.scheme)
    if scheme not in ("http", "https") or not parts.hostname:
        raise ClientError(f"{what} {shorten(text)} is no server address (write http://HOST:PORT)")
    if parts.username or parts.password or parts.query:
        raise ClientError(f"{what} {shorten(text)}: write only http://HOST:PORT")
    host = f"[{parts.hostname}]" if ":" in parts.hostname else parts.hostname
    return f"{scheme}://{host}{f':{port}' if port is not None else ''}", parts.path


def parse_link(link: str, server: str | None = None) -> SeatLink:
    """The seat of an invite link: ``http://HOST:PORT/play/GAME#TOKEN``, or ``GAME#TOKEN`` with ``server``.

    A link without ``#TOKEN`` is a spectator's. ``server`` (``http://HOST:PORT``,
    or ``HOST:PORT``) is needed only when the link names no server, and is used
    instead of the link's when both are given.

    >>> parse_link("abc#t0k", "127.0.0.1:9000")
    SeatLink(server='http://127.0.0.1:9000', game='abc', token='t0k')
    >>> parse_link("abc")
    Traceback (most recent call last):
    tussle.client.ClientError: the link 'abc' names no server: paste the whole link, or give --server http://HOST:PORT
    """
    text = link.strip()
    where, hashed, token = text.partition("#")
    token = token.strip()
    if hashed and not token:
        raise ClientError("the link ends with # but no seat token follows it (leave out # to watch)")
    if token and (len(token) > 200 or not token.isprintable() or " " in token):
        raise ClientError("the text after # in the link is no seat token")
    prefix = ""
    if "://" in where or (where.count("/") >= 2 and not where.startswith("/")):
        base, path = _server_base(where, "the link")
        segments = [s for s in path.split("/") if s]
        if len(segments) < 2 or segments[-2] not in _LINK_KINDS:
            raise ClientError(f"the link {shorten(where)} names no game (a link ends /play/GAME#TOKEN)")
        prefix = "".join(f"/{s}" for s in segments[:-2])
        game = segments[-1]
    else:
        base = ""
        segments = [s for s in where.split("/") if s]
        if len(segments) == 2 and segments[0] in _LINK_KINDS:
            segments = segments[1:]
        game = segments[0] if len(segments) == 1 else where
    if not _GAME_ID.fullmatch(game):
        raise ClientError(f"{shorten(game)} is no game id (a link ends /play/GAME#TOKEN)")
    if server is not None:
        base, path = _server_base(server.strip(), "--server")
        prefix = path.rstrip("/")
    elif not base:
        raise ClientError(
            f"the link {shorten(where)} names no server: paste the whole link, or give --server http://HOST:PORT"
        )
    return SeatLink(base + prefix, game, token or None)


class _ConnectionLostError(Exception):
    """The connection dropped (the server stopped, the network failed): connect again."""


class _OnlinePrompt(TerminalPrompt):
    QUIT_HINT = "quit leaves the game (the seat stays yours: the same link brings you back)."


def _action(line: str) -> str:
    """A typed line as the action to send; the server checks it by the rules."""
    if len(line) > MAX_ACTION:
        raise ClientError(f"a line of {len(line):,} characters is too long for any action")
    return line


class OnlineSeat:
    """A seat (or a spectator) of a game on a server, at the terminal.

    ``console`` and ``stdin`` are where views and prompts go and typed lines
    come from (the terminal by default); ``notice`` gets the lines about the
    connection (lost, connecting again; standard error by default). ``tries`` and ``pause`` set how the
    client connects again after the connection drops.
    """

    def __init__(
        self,
        link: SeatLink,
        *,
        console: Console | None = None,
        stdin: TextIO | None = None,
        notice: Callable[[str], None] | None = None,
        tries: int = RECONNECT_TRIES,
        pause: float = RECONNECT_PAUSE,
        colour: bool = False,
    ) -> None:
        self.link = link
        self.console = console if console is not None else Console(highlight=False, soft_wrap=True)
        self.notice = notice if notice is not None else _to_stderr
        self.tries = tries
        self.pause = pause
        self.prompt = _OnlinePrompt(self.console, stdin, "you", random.Random())
        self.prompt.colour = colour
        #: The game, learnt from the first view, whose style hook colours the views (None: unknown here).
        self._game: Game | None = None
        self.latest: dict[str, Any] = {}
        #: Events up to this number have been shown (the moves of others, in notation).
        self.shown_events: int | None = None
        #: The game's name of a seat (``pig A``), learnt from the first view.
        self._player_name: Callable[[int], str] = _seat_number
        self._started = False
        self._view_time = 0.0
        self._ws: ClientConnection | None = None
        self._status = ""
        self.notation = ""

    # --- the session ------------------------------------------------------------------

    def play(self) -> Result | None:
        """Play (or watch) until the game ends; its result. Raises :class:`PlayerQuitError` on ``quit``.

        The connection is closed on the way out whatever happens; the seat stays the player's.
        """
        self._ws = self._open()
        try:
            return self._loop()
        finally:
            self._close()

    def _loop(self) -> Result | None:
        # (events of the view acted on, the action) from sending an action until the server answers it
        sent: tuple[int, str] | None = None
        while True:
            view = self.latest
            if view["result"] is not None:
                return self._finish()
            if sent is None and view.get("your_turn"):
                waiting = self._receive(timeout=0)  # the newest view first: nothing is asked twice
                if waiting is not None:
                    sent = self._handle(waiting, sent)
                    continue
                self._show_clocks()
                action = self.prompt.read_action(self._choices(), _action)
                sent = (view["events"], action)
                self._send(action)
                continue
            sent = self._handle(self._receive(timeout=None), sent)

    def _handle(self, message: dict[str, Any] | None, sent: tuple[int, str] | None) -> tuple[int, str] | None:
        """Show a message from the server; what is still ``sent`` and unanswered after it."""
        if message is None:  # connected again: the whole view came with it
            if sent is not None and not self._answered(sent[0]):
                self._send(sent[1])  # typed before the connection dropped: not played yet
                return sent
            return None
        if message.get("type") == "error":
            self.prompt.say(f"  {printable(str(message.get('error')))} (type ? for the legal actions)")
            return None  # refused: the prompt comes again
        if message.get("type") == "view":
            self._take(message)
            return None if sent is None or self._answered(sent[0]) else sent
        return sent

    def _answered(self, sent_at: int) -> bool:
        """Whether the latest view shows the action sent at event ``sent_at`` played (or no longer wanted)."""
        view = self.latest
        if view["result"] is not None or not view.get("your_turn"):
            return True
        seat = view["seat"]
        last = view["last"]
        mine = any(e["player"] == seat and e["number"] >= sent_at for e in last)
        # The view holds the latest events only: so many came since that the action is among the older.
        return mine or (bool(last) and last[0]["number"] > sent_at)

    # --- what is shown ----------------------------------------------------------------

    def _say(self, text: str) -> None:
        self.console.print(text, markup=False, highlight=False, soft_wrap=True)

    def _name(self, seat: int) -> str:
        """The game's name of a seat (``pig A``), and who sits there."""
        seats = self.latest["seats"]
        name = seats[seat]["name"] if 0 <= seat < len(seats) else ""
        return f"{self._player_name(seat)} ({printable(name)})" if name else self._player_name(seat)

    def _start(self, view: dict[str, Any]) -> None:
        """The first view: learn the game, and say who plays whom."""
        game_id, seats = str(view["game_id"]), view["seats"]
        try:
            info = game_info(game_id)
            self._game = load_game(game_id, players=len(seats))
            state = self._game.new_initial_state()
            title, notation, self._player_name = info.name, info.notation, state.player_name
        except TussleError:  # a game this tussle does not know: the server's text still shows it
            title, notation = game_id, ""
            self._player_name = _seat_number
        self.notation = notation
        self.latest = view
        self._started = True
        who = ", ".join(
            f"{self._player_name(s['seat'])} = {printable(s['name'] or s['kind'])}"
            + (" (computer)" if s["kind"] == "computer" else "")
            for s in seats
        )
        self._say(f"{title} on {self.link.server}: {who}")
        if view["seat"] is None:
            self._say("You are watching (Ctrl-C to leave).")
        else:
            self.prompt.label = self._player_name(view["seat"])
            self._say(
                f"You play {self.prompt.label}. Type ? for the legal actions, "
                "quit to leave (the same link brings you back)."
            )

    def _take(self, view: dict[str, Any]) -> None:
        """Show a view: the others' moves since the last one (where the seat may see them), then its text."""
        self.latest = view
        self._view_time = time.monotonic()
        seat = view["seat"]
        if self.shown_events is not None and view.get("story") is not None:
            # The game's story, as the seat may know it: every other player's move (an opponent's
            # secret one as "chose ...") and what the seat's own move revealed or did.
            for entry in view["story"]:
                if entry["number"] >= self.shown_events:
                    own = entry["player"] == seat
                    for line in entry["lines"][1 if own else 0 :]:
                        self._say(f"  {printable(str(line))}")
        elif self.shown_events is not None:  # a server from before the story
            for event in view["last"]:
                player = CHANCE if event["player"] == "chance" else event["player"]
                if event["number"] >= self.shown_events and player != seat:
                    self._say(f"{self._name(player)}: {printable(str(event['action']))}")
        self.shown_events = view["events"]
        if view["status"] != self._status:
            self._status = view["status"]
            open_seats = [s["seat"] for s in view["seats"] if s["kind"] == "open"]
            if view["status"] == "waiting" and open_seats:
                names = ", ".join(self._player_name(s) for s in open_seats)
                self._say(f"Waiting for players: {names} still open.")
        text = without_result_line(str(view["text"]), self._result())
        coloured = None
        if self.prompt.colour and self._game is not None:
            # The style hooks read only the text and the observation, never the game's options.
            coloured = styled(self._game, text, view["observation"], PUBLIC if seat is None else seat)
        self.prompt.show(text, coloured)

    def _show_clocks(self) -> None:
        """Before asking, in a game with a clock: every player's time left."""
        view = self.latest
        clocks = view.get("clocks")
        if clocks and view["result"] is None:
            ran = time.monotonic() - self._view_time  # a running clock ran on since the view came
            times = []
            for c in clocks:
                left = (
                    _minutes(c["remaining"] - ran) + " (running)"
                    if c.get("running")
                    else _minutes(c["remaining"])
                )
                times.append(f"{self._player_name(c['seat'])} {left}")
            self._say(f"Time left: {', '.join(times)}")

    def _result(self) -> Result | None:
        data = self.latest.get("result")
        if not data:
            return None
        return Result.from_json(data)

    def _finish(self) -> Result | None:
        result = self._result()
        if result is not None:
            self._say(result_line(result, self._player_name, [s["name"] for s in self.latest["seats"]]))
        return result

    def _choices(self) -> Choices:
        legal = self.latest.get("legal") or {}
        return Choices.of_names(
            legal.get("actions"), int(legal.get("count") or 0), self.notation, str(self.latest["game_id"])
        )

    # --- the connection ---------------------------------------------------------------

    def _open(self) -> ClientConnection:
        """Connect, name the seat, and show the whole view the server answers with."""
        where = f"{self.link.server} (game {self.link.game})"
        with contextlib.ExitStack() as stack:  # the connection is closed unless it is returned
            try:
                ws = stack.enter_context(
                    connect(self.link.websocket_url, open_timeout=10, max_size=MAX_MESSAGE)
                )
            except InvalidStatus as exc:
                code = exc.response.status_code
                raise ClientError(f"{where} is no tussle server, or has no such game (HTTP {code})") from None
            except InvalidURI as exc:
                raise ClientError(f"{shorten(self.link.server)} is no server address ({exc})") from None
            except (OSError, InvalidHandshake, TimeoutError, EOFError) as exc:
                raise _ConnectionLostError(f"cannot reach the server at {where}: {_why(exc)}") from None
            try:
                hello = {"type": "hello", **({"token": self.link.token} if self.link.token else {})}
                ws.send(json.dumps(hello))
                first = _message(ws.recv(timeout=30))
            except (ConnectionClosed, OSError, TimeoutError) as exc:
                raise _ConnectionLostError(f"the server at {where} did not answer: {_why(exc)}") from None
            if first.get("type") == "error":
                raise ClientError(f"the server refused the link: {printable(str(first.get('error')))}")
            if first.get("type") != "view":
                raise ClientError(f"the server at {where} answered with no view: is it a tussle server?")
            stack.pop_all()
        if not self._started:
            self._start(first)
        self._take(first)
        return ws

    def _reconnect(self) -> None:
        """Connect again after the connection dropped: a few tries, a pause before each."""
        self._close()
        why = "the connection dropped"
        for attempt in range(1, self.tries + 1):
            self.notice(f"Connection lost; connecting again ({attempt} of {self.tries})...")
            time.sleep(self.pause)
            try:
                self._ws = self._open()
                self.notice("Connected again.")
                return
            except _ConnectionLostError as exc:
                why = str(exc)
        raise ClientError(
            f"lost the connection and could not connect again ({why}); "
            "the seat is still yours: run the same command to come back"
        )

    def _receive(self, timeout: float | None) -> dict[str, Any] | None:
        """The next message (None when none came within ``timeout``, or after connecting again)."""
        assert self._ws is not None
        try:
            return _message(self._ws.recv(timeout=timeout))
        except TimeoutError:
            return None
        except (ConnectionClosed, OSError):
            self._reconnect()
            return None

    def _send(self, action: str) -> None:
        assert self._ws is not None
        try:
            self._ws.send(json.dumps({"type": "action", "action": action}))
        except (ConnectionClosed, OSError):
            # The latest view came with the new connection; the action is sent again if still wanted.
            self._reconnect()
            sent_at = self.latest["events"]
            if self.latest.get("your_turn") and not self._answered(sent_at):
                self._send(action)

    def _close(self) -> None:
        if self._ws is not None:
            with contextlib.suppress(Exception):  # already gone
                self._ws.close()
            self._ws = None


def _seat_number(seat: int) -> str:
    return "chance" if seat == CHANCE else f"player {seat}"


def _minutes(seconds: float) -> str:
    """Time left on a clock, as a clock shows it (a correspondence game's in days and hours).

    >>> _minutes(287.41), _minutes(3725), _minutes(3 * 86400 - 1)
    ('4:47', '1:02:05', '2 d 23 h')
    """
    whole = max(0, int(seconds))
    if whole >= 86400:
        return f"{whole // 86400} d {whole % 86400 // 3600} h"
    hours, rest = divmod(whole, 3600)
    return f"{hours}:{rest // 60:02d}:{rest % 60:02d}" if hours else f"{rest // 60}:{rest % 60:02d}"


def _to_stderr(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def _message(data: str | bytes) -> dict[str, Any]:
    try:
        message = json.loads(data)
    except (ValueError, RecursionError):
        raise ClientError("the server sent something that is no tussle message (not JSON)") from None
    if not isinstance(message, dict):
        raise ClientError("the server sent something that is no tussle message")
    return message


def _why(exc: BaseException) -> str:
    if isinstance(exc, socket.gaierror):
        return "no such host"
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    return " ".join(str(exc).split()) or type(exc).__name__


def play_online(
    link: SeatLink, *, console: Console | None = None, stdin: TextIO | None = None, colour: bool = False
) -> None:
    """Play (or watch) ``link``'s seat at the terminal, its views in colour with ``colour``; a first
    connection that fails is a ClientError."""
    seat = OnlineSeat(link, console=console, stdin=stdin, colour=colour)
    try:
        seat.play()
    except _ConnectionLostError as exc:
        raise ClientError(str(exc)) from None


__all__ = ["ClientError", "OnlineSeat", "PlayerQuitError", "SeatLink", "parse_link", "play_online"]
