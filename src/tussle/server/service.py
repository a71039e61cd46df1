"""The server's domain: making, joining and rematching games, the lists a player reads, replays.

:class:`GameService` is what the routes (:mod:`tussle.server.routes`) call once
they have parsed a request: its methods take plain values (the validated request
models of :mod:`tussle.server.models`, token strings, seat numbers) and return
plain JSON data, or raise the server's errors (:class:`~tussle.server.hub.HubError`
and its kinds, :class:`LimitError`), which the application turns into answers.
It knows nothing of HTTP, so a test or a program can drive it over a store
directly. The live games themselves (their states, connections and computer
seats) are the hub's (:mod:`tussle.server.hub`).
"""

from __future__ import annotations

import asyncio
import json
import secrets
import time
from collections.abc import Mapping, Sequence
from functools import cache, partial
from typing import Any

from tussle.agents.levels import LEVEL_NAMES
from tussle.errors import TussleError, shorten
from tussle.game import MAX_DOCUMENT_CHARS, PUBLIC, GameInfo
from tussle.record import Record
from tussle.registry import game_ids, game_info, load_game
from tussle.server.documents import DocumentLibrary
from tussle.server.hub import Hub, HubError, LiveGame, clock_json, new_token, token_hash
from tussle.server.limits import Limits
from tussle.server.lobby import LOBBY_GAMES, PLAYING_GAMES, LobbyFeed
from tussle.server.models import Account, CreateRequest, SeekRequest
from tussle.server.store import WAITING_KINDS, Seat
from tussle.server.story import StoryBook

#: The most events an uploaded record may have to be replayed here.
MAX_RECORD_EVENTS = 5000
#: Replays (made for a request) are made one at a time per process, each within these bounds:
#: seconds of work, bytes of answer, and seconds waiting for its turn before the client is told to wait.
REPLAY_SECONDS = 3.0
MAX_REPLAY_ANSWER = 8 * 1024 * 1024
REPLAY_WAIT = 5.0


class LimitError(TussleError):
    """A client asked more than its limits allow; it may try again after ``retry_after`` seconds."""

    def __init__(self, message: str, retry_after: int = 1) -> None:
        super().__init__(message)
        self.retry_after = retry_after


def computer_agents(info: GameInfo) -> list[str]:
    """The computer players a game's seats may be given over the API: its levels, random, rule.

    Each has a bounded budget; an agent spec with parameters (``mcts:time=3600``)
    is for local commands only.
    """
    return [*LEVEL_NAMES, "random", *(["rule"] if info.hooks.rule_agent else [])]


def link(game_id: str, token: str) -> str:
    """A seat's link, relative to the server: the token after ``#`` never reaches a server's log."""
    return f"/play/{game_id}#{token}"


def invite_link(game_id: str, secret: str) -> str:
    """An invitation to a game's invite seat: whoever opens it (and only they) may take that seat."""
    return f"/play/{game_id}#invite={secret}"


class GameService:
    """Every game of one server process as its API offers them, over the process's :class:`Hub`.

    ``library`` holds the named documents (decks, layouts) a client may ask for by
    name; ``limits`` bound what one client may ask (here: the games it has in play).
    """

    def __init__(
        self, hub: Hub, library: DocumentLibrary | None = None, limits: Limits | None = None
    ) -> None:
        self.hub = hub
        self.library = library or DocumentLibrary.load(None)
        self.limits = limits or Limits()
        # One replay at a time: a replay is pure Python work, and several at once would hold the
        # interpreter from every other request.
        self._replaying = asyncio.Semaphore(1)
        #: The live lobby's lists, pushed to every page that shows them (tussle.server.lobby).
        self.feed = LobbyFeed(self.lobby_lists)

    # --- what the server offers ------------------------------------------------------------

    def catalog(self) -> dict[str, Any]:
        """The games this server offers: options, levels and computer players (the home page's form)."""
        return {"games": [describe(game_info(g), self.library.offered(g)) for g in game_ids()]}

    # --- making and joining games ----------------------------------------------------------

    async def create(
        self, request: CreateRequest, client: str, account: Account | None = None
    ) -> dict[str, Any]:
        """A new game for ``client`` (its address): its id, and each person seat's secret token and
        link, each invite's secret and link, or, at one screen, the table handle.

        A signed-in ``account`` plays the game's one person seat (the maker's); a rated game needs
        one."""
        store = self.hub.store
        self._check_create(request)
        _check_rated(request, account)
        game = load_game(
            request.game, players=len(request.seats), **self._options(request.game, request.options)
        )
        if request.shuffle:
            # Drawn here, from the system's secret randomness: neither the client nor a seed it
            # fixes says who sits where.
            order = list(request.seats)
            secrets.SystemRandom().shuffle(order)
            request = request.model_copy(update={"seats": order})
        seats, tokens, invites = _new_seats(request, account)
        table = new_token() if request.table else None
        most = self.limits.open_games
        if await asyncio.to_thread(store.games_in_play_of, client) >= most:
            raise LimitError(f"too many games in play: at most {most} at once; finish some first", 60)
        seed = request.seed if request.seed is not None else secrets.token_hex(16)
        clock, per_move = _clock(request)
        game_id = await asyncio.to_thread(
            partial(
                store.create_game,
                seed=seed,
                clock=clock,
                clock_per_move=per_move,
                creator=client,
                table_hash=token_hash(table) if table is not None else None,
                # A game with a seat for anyone is anyone's to watch too.
                listed=any(s.kind == "open" for s in seats),
                rated=request.rated,
            ),
            request.game,
            game.non_default_options(),
            game.num_players,
            seats,
        )
        await self.hub.get(game_id)
        if not any(s.kind in WAITING_KINDS for s in seats):
            await self.hub.start(game_id)
        self.feed.poke()
        answer: dict[str, Any] = {
            "id": game_id,
            "game": request.game,
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
            "rated": request.rated,
        }
        if table is not None:
            answer["table"] = table
        return answer

    def _options(self, game_id: str, asked: Mapping[str, Any]) -> dict[str, Any]:
        """The options a game made here is given, from those a client asked for.

        A name of a document the server offers becomes its text; any other value is the text
        itself, which the game parses: nothing a client sends names a file. A game that could go
        on for ever gets the end its rules page states for play online, unless the client chose
        otherwise (the home page shows it as the option's default).
        """
        options = self.library.resolve(game_id, asked)
        return {**dict(game_info(game_id).online_defaults), **options}

    @staticmethod
    def _check_create(request: CreateRequest) -> None:
        """Refuse, in one line, a new game the rules of the API do not allow (HubError)."""
        if request.game not in game_ids():
            raise HubError(f"unknown game {shorten(request.game)} (games: {', '.join(game_ids())})")
        info = game_info(request.game)
        known = {o.name for o in info.options}
        for name in request.options:
            if name not in known:
                raise HubError(
                    f"{request.game} has no option {shorten(name)} (options: "
                    f"{', '.join(sorted(known)) or 'none'}; the number of players is the number of seats)"
                )
        if request.table and any(s.kind in ("open", "invite") for s in request.seats):
            raise HubError("a game at one screen has person and computer seats only")
        if request.seed is not None and any(s.kind in ("open", "invite") for s in request.seats):
            raise HubError(
                "a seed may be fixed only for a game whose every seat is yours: "
                "a game with an open seat draws its chance from the server's secret"
            )
        allowed = computer_agents(info)
        for number, seat in enumerate(request.seats):
            if seat.kind == "computer" and (seat.agent or "medium") not in allowed:
                raise HubError(
                    f"seat {number}: a computer seat plays one of {', '.join(allowed)}, "
                    f"not {shorten(seat.agent or '')}"
                )

    async def join(
        self,
        game_id: str,
        *,
        seat: int | None = None,
        name: str = "",
        invite: str | None = None,
        account: Account | None = None,
    ) -> dict[str, Any]:
        """Take an open seat of ``game_id`` (``seat``, or the first), or with an ``invite``'s secret the
        seat it keeps; the answer holds the seat's secret token. A signed-in ``account`` plays the
        seat under its name; a rated game's seats are only accounts', one each."""
        hub = self.hub
        live = await hub.get(game_id)
        if live.row.rated and account is None:
            raise HubError("a rated game is played by accounts: sign in to join it")
        if account is not None:
            name = account.name
            if any(s.account == account.id for s in live.seats):
                raise HubError(f"{account.name} has a seat in this game already")
        kind = "open"
        invite_hash = token_hash(invite) if invite is not None else None
        if invite_hash is not None:
            # An invitation opens the one seat it keeps, and stops opening it once that is taken.
            kind = "invite"
            seat = await asyncio.to_thread(hub.store.invited_seat, game_id, invite_hash)
            if seat is None:
                raise HubError("that invitation opens no seat of this game (was it taken already?)")
        else:
            open_seats = [s.seat for s in live.seats if s.kind == "open"]
            seat = seat if seat is not None else (open_seats[0] if open_seats else None)
            if seat is None or seat not in open_seats:
                raise HubError(
                    f"seat {seat} of game {game_id} is not open" if seat is not None else "no open seat"
                )
        token = new_token()
        if not await asyncio.to_thread(
            partial(
                hub.store.take_seat,
                kind=kind,
                invite_hash=invite_hash,
                account=account.id if account is not None else None,
            ),
            game_id,
            seat,
            name or f"player {seat}",
            token_hash(token),
        ):
            raise HubError(f"seat {seat} was taken just now")
        live = await hub.refresh(game_id)
        if not any(s.kind in WAITING_KINDS for s in live.seats):
            await hub.start(game_id)
        else:
            await hub.broadcast(live)
        self.feed.poke()
        return {"id": game_id, "seat": seat, "token": token, "link": link(game_id, token)}

    async def seek(self, request: SeekRequest, client: str, account: Account | None = None) -> dict[str, Any]:
        """Play anyone now: a seat in the oldest lobby game of the same game, options and time
        control, or else a new game with a seat open for the next who seeks the same (its maker's
        seat drawn by the server). The answer is the seat's token, as a join's (confirmed by its
        first use), and ``paired``: whether it joined a game rather than made one.

        The store pairs or makes in one locked transaction: two who seek at once are paired.
        The game's chance comes from the server's secret: a seek takes no seed. A signed-in
        ``account`` plays under its name; a rated seek (which needs one) pairs only with rated seeks,
        never with the same account.
        """
        if request.rated and account is None:
            raise HubError("a rated game is played by accounts: sign in (or send a bot's token) to seek one")
        if request.game not in game_ids():
            raise HubError(f"unknown game {shorten(request.game)} (games: {', '.join(game_ids())})")
        players = game_info(request.game).min_players
        mine = secrets.randbelow(players)
        asked = CreateRequest.model_validate(
            {
                "game": request.game,
                "options": request.options,
                "seats": [
                    {"kind": "person", "name": account.name if account is not None else request.name}
                    if n == mine
                    else {"kind": "open"}
                    for n in range(players)
                ],
                "clock": request.clock,
                "rated": request.rated,
            }
        )
        self._check_create(asked)
        game = load_game(request.game, players=players, **self._options(request.game, request.options))
        seats, tokens, _ = _new_seats(asked, account)
        most = self.limits.open_games
        store = self.hub.store
        if await asyncio.to_thread(store.games_in_play_of, client) >= most:
            raise LimitError(f"too many games in play: at most {most} at once; finish some first", 60)
        clock, per_move = _clock(asked)
        game_id, seat, made = await asyncio.to_thread(
            partial(
                store.seek,
                seed=secrets.token_hex(16),
                clock=clock,
                clock_per_move=per_move,
                creator=client,
                name=account.name if account is not None else request.name,
                rated=request.rated,
            ),
            request.game,
            game.non_default_options(),
            seats,
            mine,
        )
        if made:
            await self.hub.get(game_id)
        else:
            await self.hub.broadcast(await self.hub.refresh(game_id))
        self.feed.poke()
        token = tokens[mine]
        return {
            "id": game_id,
            "seat": seat,
            "token": token,
            "link": link(game_id, token),
            "paired": not made,
            "rated": request.rated,
        }

    # --- rematches -------------------------------------------------------------------------

    async def rematch(self, game_id: str, token: str) -> dict[str, Any]:
        """The rematch of a finished game, asked for by one of its players (a seat's token, or the
        table handle of a game at one screen): the same game, the seats turned by one.

        The first to ask makes it; each person of the old game takes their new seat
        by asking with their old token, and the rematch starts when all have. At one
        screen the answer is the rematch's new table handle, made once.
        """
        hub = self.hub
        if await asyncio.to_thread(hub.store.table_of, token_hash(token)) == game_id:
            return await self._table_rematch(game_id)
        found = await asyncio.to_thread(hub.store.seat_of, token_hash(token))
        if found is None or found[0] != game_id:
            raise HubError("that token opens no seat of this game")
        old = await hub.get(game_id)
        if old.result_json() is None:
            raise HubError("a rematch follows a finished game; this one is still played")
        new_seat = (found[1] + 1) % len(old.seats)
        async with old.lock:
            row = await asyncio.to_thread(hub.store.rematch_of, game_id)
            new_id = row.id if row is not None else await self._new_rematch(old, None)
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

    async def _table_rematch(self, game_id: str) -> dict[str, Any]:
        """A game at one screen again, the seats turned by one: its new table handle (made once)."""
        old = await self.hub.get(game_id)
        if old.result_json() is None:
            raise HubError("a rematch follows a finished game; this one is still played")
        async with old.lock:
            if await asyncio.to_thread(self.hub.store.rematch_of, game_id) is not None:
                raise HubError("this game's rematch is made already: it is in your games")
            table = new_token()
            new_id = await self._new_rematch(old, table)
        await self.hub.start(new_id)
        return {"id": new_id, "table": table}

    async def _new_rematch(self, old: LiveGame, table: str | None) -> str:
        """Make the rematch of ``old`` (its lock held): the same game, the seats turned by one, each
        person's seat reserved for them (or, at one screen, all behind the new ``table`` handle); an
        account's seat stays the account's, and a rated game's rematch is rated."""
        n = len(old.seats)
        kept = "person" if table is not None else "reserved"
        seats = sorted(
            (
                Seat(
                    (s.seat + 1) % n,
                    kept if s.kind == "person" else s.kind,
                    s.agent,
                    s.name,
                    None,
                    account=s.account if s.kind == "person" else None,
                )
                for s in old.seats
            ),
            key=lambda s: s.seat,
        )
        new_id = await asyncio.to_thread(
            partial(
                self.hub.store.create_game,
                seed=secrets.token_hex(16),
                rematch_of=old.row.id,
                clock=old.row.clock,
                clock_per_move=old.row.clock_per_move,
                table_hash=token_hash(table) if table is not None else None,
                listed=old.row.listed,
                rated=old.row.rated,
            ),
            old.row.game,
            old.row.options,
            old.row.players,
            seats,
        )
        # Its spectators follow it there (a spectator who comes later reads it in the view).
        old.rematch = new_id
        await self.hub.broadcast_message(old, {"type": "rematch", "game": new_id})
        return new_id

    # --- what a player reads -----------------------------------------------------------------

    async def my_games(self, tokens: Sequence[str]) -> dict[str, Any]:
        """The games of the seats (and tables) whose tokens a player holds, newest first; a token
        that opens nothing is left out."""
        hub = self.hub
        out: list[dict[str, Any]] = []
        for token in tokens:
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
                    "clock": clock_json(live.row),
                }
            )
        out.sort(key=lambda g: -g["created"])
        return {"games": out}

    async def account_games(
        self, account: Account, *, status: str = "all", limit: int = 100
    ) -> dict[str, Any]:
        """An account's games, newest first: the game, its seats (its own marked ``yours``), whether
        it is rated, its status and result; read from the stored rows, replaying none."""
        store = self.hub.store
        rows = await asyncio.to_thread(
            partial(store.games_of_account, status=status, limit=limit), account.id
        )
        seats_of = await asyncio.to_thread(store.seats_of_games, [row.id for row in rows])
        out = []
        for row in rows:
            seats = seats_of.get(row.id, [])
            mine = next((s.seat for s in seats if s.account == account.id), None)
            out.append(
                {
                    "id": row.id,
                    "game": row.game,
                    "seat": mine,
                    "seats": [_seat_entry(s) for s in seats],
                    "rated": row.rated,
                    "status": row.status,
                    "result": row.result,
                    "clock": clock_json(row),
                    "created": round(row.created, 3),
                    **(
                        {"replay": f"/replay/{row.id}", "record": f"/api/games/{row.id}/record"}
                        if row.status == "finished"
                        else {}
                    ),
                }
            )
        return {"games": out}

    async def lobby(self) -> dict[str, Any]:
        """Games waiting for players, newest first."""
        store = self.hub.store
        rows = await asyncio.to_thread(store.open_games, LOBBY_GAMES)
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
                    "clock": clock_json(row),
                    "seats": [_seat_entry(s) for s in seats],
                    "created": round(row.created, 3),
                    "rated": row.rated,
                }
            )
        return {"games": out}

    async def playing(self) -> dict[str, Any]:
        """Games being played that anyone may watch (made for the lobby), the latest started first,
        each with how many spectators this process counts."""
        store = self.hub.store
        rows = await asyncio.to_thread(store.games_in_play, PLAYING_GAMES)
        seats_of = await asyncio.to_thread(store.seats_of_games, [row.id for row in rows])
        out = []
        for row in rows:
            live = self.hub.live.get(row.id)
            out.append(
                {
                    "id": row.id,
                    "game": row.game,
                    "options": {k: _summary(v) for k, v in row.options.items()},
                    "clock": clock_json(row),
                    "seats": [_seat_entry(s) for s in seats_of.get(row.id, [])],
                    "started": round(row.started or row.created, 3),
                    "spectators": self.hub.spectators(live) if live is not None else 0,
                    "rated": row.rated,
                }
            )
        return {"games": out}

    async def lobby_lists(self) -> dict[str, Any]:
        """What the live lobby shows: the games waiting for anyone (``open``), and those being played."""
        return {"open": (await self.lobby())["games"], "playing": (await self.playing())["games"]}

    async def public_view(self, game_id: str) -> dict[str, Any]:
        """What a spectator sees: the public view of the game."""
        return self.hub.view(await self.hub.get(game_id), PUBLIC)

    async def record(self, game_id: str) -> dict[str, Any]:
        """A finished game as a tussle record's JSON; refused while it is played."""
        live = await self.hub.get(game_id)
        if live.result_json() is None:
            raise HubError("the game is not over: its record would show what is still secret")
        record: dict[str, Any] = self.hub.record(live).to_json()
        return record

    # --- replays -----------------------------------------------------------------------------

    async def replay(self, game_id: str, seat: str | int) -> dict[str, Any]:
        """A finished game step by step as one seat (a number, or ``public``) saw it."""
        live = await self.hub.get(game_id)
        if live.result_json() is None:
            raise HubError("the game is not over: its replay would show what is still secret")
        record = self.hub.record(live)
        answer = await self._bounded_replay(record, seat_param(seat, record.num_players))
        answer["result"] = live.result_json()  # a clock's result is no part of the record
        return answer

    async def replay_record(self, data: dict[str, Any], seat: str | int) -> dict[str, Any]:
        """An uploaded record (its JSON), step by step as a finished game's replay; a bad record is
        refused whole."""
        record = Record.from_json(data)
        if len(record.events) > MAX_RECORD_EVENTS:
            raise HubError(f"a record may have at most {MAX_RECORD_EVENTS:,} events to replay here")
        if record.game not in game_ids():
            raise HubError(f"unknown game {shorten(record.game)} (games: {', '.join(game_ids())})")
        return await self._bounded_replay(record, seat_param(seat, record.num_players))

    async def _bounded_replay(self, record: Record, seat: int) -> dict[str, Any]:
        """A replay made in a thread, one at a time, in :data:`REPLAY_SECONDS` and :data:`MAX_REPLAY_ANSWER`.

        Those waiting for their turn wait a little, then are told to come back.
        """
        try:
            async with asyncio.timeout(REPLAY_WAIT):
                await self._replaying.acquire()
        except TimeoutError:
            raise LimitError(
                "the server is busy replaying other records; try again in a few seconds", 5
            ) from None
        try:
            return await asyncio.to_thread(replay_steps, record, seat, time.monotonic() + REPLAY_SECONDS)
        finally:
            self._replaying.release()


def _clock(request: CreateRequest) -> tuple[tuple[float, float] | None, bool]:
    """A request's time control as the store keeps it: (seconds, increment), and whether per move."""
    if request.clock is None:
        return None, False
    if request.clock.days is not None:
        return (request.clock.days * 86400.0, 0.0), True
    assert request.clock.minutes is not None  # the model asks for one of the two
    return (request.clock.minutes * 60.0, request.clock.increment), False


def _new_seats(
    request: CreateRequest, account: Account | None = None
) -> tuple[list[Seat], dict[int, str], dict[int, str]]:
    """The seats of a new game as the request asks them, with the secret token of each person seat
    and of each invite, by seat number (only their hashes are stored). A signed-in ``account`` plays
    the one person seat, under its name (with more person seats it plays none: they are for others
    at the maker's hand)."""
    people = [n for n, s in enumerate(request.seats) if s.kind == "person"]
    mine = people[0] if account is not None and len(people) == 1 and not request.table else None
    seats: list[Seat] = []
    tokens: dict[int, str] = {}
    invites: dict[int, str] = {}
    for number, seat in enumerate(request.seats):
        if seat.kind == "computer":
            spec = seat.agent or "medium"
            seats.append(Seat(number, "computer", spec, seat.name or spec, None))
        elif seat.kind == "person" and request.table:
            # At one screen no seat has a token of its own: the table handle opens the one to act.
            seats.append(Seat(number, "person", None, seat.name or f"player {number + 1}", None))
        elif seat.kind == "person":
            tokens[number] = new_token()
            if number == mine and account is not None:
                seats.append(
                    Seat(number, "person", None, account.name, token_hash(tokens[number]), account=account.id)
                )
                continue
            seats.append(
                Seat(number, "person", None, seat.name or f"player {number}", token_hash(tokens[number]))
            )
        elif seat.kind == "invite":
            invites[number] = new_token()
            seats.append(Seat(number, "invite", None, seat.name, token_hash(invites[number])))
        else:
            seats.append(Seat(number, "open", None, "", None))
    return seats, tokens, invites


def _seat_entry(seat: Seat) -> dict[str, Any]:
    """A seat as the lobby lists it: who sits there (a computer's level too; an account, and whether
    it is a program's), nothing secret."""
    entry: dict[str, Any] = {"seat": seat.seat, "kind": seat.kind, "name": seat.name}
    if seat.kind == "computer":
        entry["agent"] = seat.agent
    if seat.account is not None:
        entry["account"] = True
        entry["bot"] = seat.bot
    return entry


def _check_rated(request: CreateRequest, account: Account | None) -> None:
    """Refuse, in one line, a rated game that could not be rated fairly."""
    if not request.rated:
        return
    if account is None:
        raise HubError("a rated game is played by accounts: sign in (or send a bot's token) to make one")
    if request.table:
        raise HubError("a game at one screen cannot be rated: each rated seat is one account's")
    if request.seed is not None:
        raise HubError("a rated game draws its chance from the server's secret: it takes no seed")
    if sum(s.kind == "person" for s in request.seats) != 1:
        raise HubError(
            "a rated game has one person seat, its maker's: the others are open, invited or computers"
        )


def _summary(value: Any) -> Any:
    """An option's value as the lobby shows it: a document (a long text) by its length, not whole."""
    if isinstance(value, str) and len(value) > 64:
        return f"(a document of {len(value):,} characters)"
    return value


def seat_param(seat: str | int, players: int) -> int:
    """The seat a replay is seen by: a number, or ``public`` for a spectator's view."""
    if str(seat) == "public":
        return PUBLIC
    text = str(seat)
    if not text.isdigit() or int(text) >= players:
        raise HubError(f"seat must be public or a number from 0 to {players - 1}, not {shorten(text)}")
    return int(text)


def replay_steps(record: Record, seat: int, deadline: float = float("inf")) -> dict[str, Any]:
    """Each step of a record as ``seat`` saw it: the event, the observation, its text, and the event
    told as the seat knew it then (``told``: the game's story lines; the page shows those, never
    the notation of a move the seat did not see).

    Refused (HubError) past ``deadline`` (a :func:`time.monotonic` time) or once the
    answer would pass :data:`MAX_REPLAY_ANSWER` bytes: such a record is for ``tussle replay``.
    """
    steps: list[dict[str, Any]] = []
    events = [None, *record.events]
    state = None
    book: StoryBook | None = None
    # Grown an event at a time, so that the book tells each event once (it reads what it has not told).
    told: list[tuple[int, str]] = []
    size = 0
    for event, state in zip(events, record.walk(), strict=True):
        who = None if event is None else ("chance" if event[0] < 0 else event[0])
        if book is None:
            book = StoryBook(state.game)
        if event is not None:
            told.append(event)
            book.follow(told)
        step = {
            "player": who,
            "action": None if event is None else event[1],
            "observation": state.observation(seat),
            "text": state.observation_text(seat),
            "told": [] if event is None else list(book.told[-1][1][seat]),
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


@cache
def seat_names(game_id: str) -> tuple[str, ...]:
    """How the game's own messages name each seat, seat 0 first (White, Black; p0, p1...): its
    ``player_name``, so that a page may offer a seat by it and name the person in the game's words."""
    state = load_game(game_id, players=game_info(game_id).max_players).new_initial_state()
    return tuple(state.player_name(seat) for seat in range(game_info(game_id).max_players))


def describe(info: GameInfo, documents: dict[str, list[str]] | None = None) -> dict[str, Any]:
    """A game's options and levels as the home page's form needs them.

    ``documents`` holds, for each document option, the names of the documents the
    server offers (``DocumentLibrary.offered``); without it, those the game ships.
    A document option is chosen among them, or given whole (a deck, a layout) up to
    ``max_length`` characters.
    """
    return {
        "id": info.id,
        "name": info.name,
        "description": info.description,
        "players": [info.min_players, info.max_players],
        "information": str(info.information),
        "levels": [level for level, _ in info.hooks.levels],
        "seat_names": list(seat_names(info.id)),
        "agents": computer_agents(info),
        "options": [
            {
                "name": o.name,
                "kind": o.kind,
                "default": dict(info.online_defaults).get(o.name, o.default),
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
