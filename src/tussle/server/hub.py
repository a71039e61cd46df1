"""The server's games in play: the true states, who is watching, and what each of them is sent.

The hub is authoritative. It holds each live game's true state (rebuilt from
the stored events whenever a game is first needed, after a restart too),
checks every action by the rules, commits each event to the store before
anyone hears of it, then sends every connection of the game its own view:
a seat gets its player's observation and legal actions, a spectator the public
view (:data:`tussle.game.PUBLIC`). A view never holds the true state, another
seat's observation, or an event its receiver may not see:

- in a game of perfect information every event is shown to everybody;
- in a game of hidden information a seat is shown its own events only, and a
  spectator none: what the others did reaches them through their observation,
  which the rules keep to what they may know;
- at a simultaneous step, a seat learns *that* another has submitted (it
  leaves ``to_act``), never *what*, as at a table where a player puts the pen
  down.

Chance events are drawn by the server from the game's secret seed and the
event's number, so they are the same after a restart and unknown to players.
Computer seats choose in a pool of worker processes, off the event loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import random
import secrets
import time
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from tussle.agents import make_agent
from tussle.agents.base import PlayerView
from tussle.errors import ActionError, TussleError, shorten
from tussle.game import CHANCE, PUBLIC, Information, Result, State, Termination
from tussle.record import Record
from tussle.registry import load_game
from tussle.server import MOVE_TIME
from tussle.server.observe import Metrics
from tussle.server.store import WAITING_KINDS, EventClashError, GameRow, Seat, Store, StoreError, is_game_id
from tussle.server.story import StoryBook
from tussle.server.workers import WorkerDied, WorkerPool, WorkerTimeout

if TYPE_CHECKING:
    from tussle.server.chat import Chat

log = logging.getLogger("tussle.server")

#: Seconds a joined seat waits for its token's first use before it is given back.
JOIN_SECONDS = 60.0
#: Seconds without an event after which a game ends as abandoned (default: 7 days).
ABANDON_AFTER = 7 * 24 * 3600.0
#: Seconds a player must have been away (no connection to any server process) before an opponent
#: may claim the game.
CLAIM_AFTER = 60.0
#: Seconds a game may wait for a player to take a seat before it expires (called off).
EXPIRE_AFTER = 3600.0
#: Seconds between rounds of upkeep (unconfirmed joins, abandoned games, re-reading other processes').
MAINTAIN_EVERY = 5.0
#: Seconds a computer move's lease outlasts the move's cap.
LEASE_MARGIN = 10.0
#: The seat of a table's connection while its screen is covered: it is shown nobody's view.
COVERED = -100
#: A legal-action list longer than this is sent as a count only (a Robo Pigs program is one of 32,768).
#: How many of the latest events a view lists (the first view of a connection lists all).
LAST_EVENTS = 20
LEGAL_LIST_LIMIT = 1000

Send = Callable[[dict[str, Any]], Awaitable[None]]


class HubError(TussleError):
    """A request the hub refuses: its message is the one-line JSON error a client gets."""


class StaleMoveError(HubError):
    """A move chosen for a position the game has left."""


class UnknownGameError(HubError):
    """No game has that id (HTTP 404)."""


def clock_json(row: GameRow) -> dict[str, Any] | None:
    """A game's time control as clients read it (None: no clock): ``per_move`` says that ``base``
    is each move's time (a correspondence game, given again at each move), not the whole game's."""
    if row.clock is None:
        return None
    base, increment = row.clock
    return {"base": round(base, 3), "increment": round(increment, 3), "per_move": row.clock_per_move}


def token_hash(token: str) -> str:
    """What the store keeps of a seat's secret token: its SHA-256, never the token."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def new_token() -> str:
    return secrets.token_urlsafe(24)


def chance_rng(seed: str, number: int) -> random.Random:
    """The generator that draws event ``number``'s chance outcome: the same after any restart."""
    return random.Random(f"{seed}/{number}")


def choose(job: ChoiceJob) -> str:
    """A computer seat's choice, in a worker process: the agent asked, with the seat's own view only.

    The position travels whole (pickled, its game rebuilt from its options), not as
    events to replay: a move late in a long game costs no more than an early one.
    """
    agent = make_agent(job.spec, job.state.game, job.seat, seed=job.seed)
    return job.state.action_to_str(job.seat, agent.act(PlayerView(job.state, job.seat)))


@dataclass(frozen=True)
class ChoiceJob:
    """What a worker process needs to choose for a computer seat: the position, the seat, its agent."""

    state: State[Any]
    seat: int
    spec: str
    seed: int

    @classmethod
    def replayed(cls, record: Record, events: int, seat: int, spec: str, seed: int) -> ChoiceJob:
        """The job for the position after a record's first ``events`` events (to check a stored move)."""
        state = load_game(record.game, players=record.num_players, **record.options).new_initial_state()
        for player, text in record.events[:events]:
            state.apply_str(player, text)
        return cls(state, seat, spec, seed)


@dataclass(eq=False)
class Watcher:
    """One connection to a game: a seat's player, a spectator (seat :data:`PUBLIC`), or a table.

    A table is the one screen of a hot-seat game: its seat is :data:`COVERED`
    (it is sent only :meth:`Hub.cover`, nobody's view) until a player to act sits
    down (:meth:`Hub.sit`), and it is covered again as soon as that seat is no
    longer to act, so the next player never sees the last one's view.
    """

    seat: int
    send: Send
    table: bool = False
    #: Ends the connection (its client then connects again and gets the whole view): called when a
    #: send to it failed, since a connection left open but no longer sent views would wait for ever.
    close: Callable[[], None] | None = None


@dataclass
class Clocks:
    """The players' clocks of a game with a time control, kept from the stored events' times.

    A player's clock runs while it is to act (at a simultaneous step, every
    player who has not submitted yet), from the moment play began or the
    event that made it to act; each of its moves adds the increment. The
    times come from the store, so a restarted server finds the same clocks;
    they run on in real time while a server is down.

    >>> clocks = Clocks(60.0, 2.0, 2)
    >>> clocks.start((0,), 100.0)
    >>> clocks.moved(0, (1,), 130.0)
    >>> round(clocks.remaining(0, 150.0), 1), round(clocks.remaining(1, 150.0), 1)
    (32.0, 40.0)

    A correspondence clock (``per_move``) gives a player its whole ``base`` again at
    each of its turns: what it used on earlier moves is not carried over.

    >>> day = 86400.0
    >>> mail = Clocks(3 * day, 0.0, 2, per_move=True)
    >>> mail.start((0,), 0.0)
    >>> mail.moved(0, (1,), 2 * day)
    >>> mail.remaining(0, 2.5 * day) / day, mail.remaining(1, 2.5 * day) / day
    (3.0, 2.5)
    >>> mail.moved(1, (0,), 2.9 * day)
    >>> player, when = mail.first_out(3.0 * day) or (None, 0.0)
    >>> round(mail.remaining(0, 3.0 * day) / day, 6), player, round(when / day, 6)
    (2.9, 0, 5.9)
    """

    base: float
    increment: float
    players: int
    #: The base is each move's time, not the whole game's (days a move).
    per_move: bool = False
    used: list[float] = field(default_factory=list)
    moves: list[int] = field(default_factory=list)
    since: dict[int, float] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.used = [0.0] * self.players
        self.moves = [0] * self.players

    def start(self, acting: tuple[int, ...], at: float) -> None:
        self.since = {p: at for p in acting if p >= 0}

    def moved(self, player: int, acting: tuple[int, ...], at: float) -> None:
        """``player`` acted at ``at`` (a chance event: ``player`` CHANCE); ``acting`` are now to act."""
        if player >= 0 and player in self.since:
            self.used[player] += at - self.since.pop(player)
            self.moves[player] += 1
        for p in acting:
            if p >= 0 and p not in self.since:
                self.since[p] = at
        for p in list(self.since):
            if p not in acting:
                del self.since[p]

    def remaining(self, player: int, now: float) -> float:
        running = now - self.since[player] if player in self.since else 0.0
        if self.per_move:
            return self.base - running
        return self.base + self.increment * self.moves[player] - self.used[player] - running

    def first_out(self, now: float) -> tuple[int, float] | None:
        """The running clock that will reach zero first, and when (None if none runs)."""
        if not self.since:
            return None
        player = min(self.since, key=lambda p: self.remaining(p, now))
        return player, now + self.remaining(player, now)


@dataclass(eq=False)
class LiveGame:
    row: GameRow
    seats: list[Seat]
    state: State[Any]
    events: list[tuple[int, str]]
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    watchers: list[Watcher] = field(default_factory=list)
    thinking: set[int] = field(default_factory=set)
    #: When each computer seat of ``thinking`` began to think (time.time()), for the views' counter.
    thinking_since: dict[int, float] = field(default_factory=dict)
    clocks: Clocks | None = None
    #: The result of a game that the rules did not end (a clock, a resignation, an abort,
    #: abandonment): its events stop short of an end, and this says how it ended.
    ended: dict[str, Any] | None = None
    timer: asyncio.TimerHandle | None = None
    #: The ids of the game's latest chat messages that this process has sent its connections
    #: (None until a connection arrives); see :mod:`tussle.server.chat`.
    chat_seen: set[int] | None = None
    chat_lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    #: The game's story for each viewer, told when a view first needs it (tussle.server.story).
    story: StoryBook | None = None
    #: Events that every connection has been sent a view of: a view's story starts no later, so
    #: that a burst of events (a deal of 30 cards) reaches a page whole, not its latest 20 only.
    story_floor: int = 0
    #: When each person seat's last connection to this process closed (time.time()), for claims.
    left: dict[int, float] = field(default_factory=dict)
    #: The id of this finished game's rematch, once one is made: its spectators follow it there.
    rematch: str | None = None

    def result_json(self) -> dict[str, Any] | None:
        result = self.state.result()
        return result.to_json() if result is not None else self.ended

    def applied(self, new: list[tuple[int, str]], states: list[tuple[int, ...]], at: float) -> None:
        """Note on the clocks events just applied (``states``: who was to act after each)."""
        if self.clocks is not None:
            for (player, _), acting in zip(new, states, strict=True):
                self.clocks.moved(player, acting, at)

    @property
    def perfect(self) -> bool:
        return self.state.game.info.information == Information.PERFECT


class Hub:
    """Every live game of one server process, over one store."""

    def __init__(
        self,
        store: Store,
        pool: WorkerPool | None = None,
        *,
        move_time: float = MOVE_TIME,
        abandon_after: float = ABANDON_AFTER,
        join_wait: float = JOIN_SECONDS,
        claim_after: float = CLAIM_AFTER,
        expire_after: float = EXPIRE_AFTER,
        metrics: Metrics | None = None,
    ) -> None:
        self.store = store
        self.pool = pool
        #: The longest a computer seat may think over a move, in seconds, whatever its agent's budget.
        self.move_time = move_time
        #: Seconds without an event after which an unfinished game ends as abandoned (0: never).
        self.abandon_after = abandon_after
        #: Seconds a joined seat waits for its token's first use before it is given back.
        self.join_wait = join_wait
        #: Seconds a player must have been away before an opponent may claim the game.
        self.claim_after = claim_after
        #: Seconds a game may wait for a seat to be taken before it is called off (0: never).
        self.expire_after = expire_after
        #: Per game, the event count at each seat's last draw offer: it may offer again only after it
        #: has acted since (one offer per move). Kept per process.
        self._last_offer: dict[str, dict[int, int]] = {}
        self.live: dict[str, LiveGame] = {}
        self._loading: dict[str, asyncio.Lock] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        #: Whether this process hears the others' events (PostgreSQL's LISTEN connection is up).
        self.listening = store.engine.dialect.name != "postgresql"
        #: Whether every unfinished game was loaded after the start (in the background).
        self.resumed = False
        self.metrics = metrics or Metrics()
        from tussle.server.chat import Chat  # built on this module: imported once it is loaded

        #: The games' chat: what a connection says, what it is told, what it finds on arrival.
        self.chat: Chat = Chat(self)

    # --- loading -----------------------------------------------------------------------

    async def get(self, game_id: str) -> LiveGame:
        """The live game ``game_id``, rebuilt from the store the first time; HubError if none."""
        live = self.live.get(game_id)
        if live is not None:
            return live
        if not is_game_id(game_id):
            raise UnknownGameError(f"no game {shorten(game_id)}")
        lock = self._loading.setdefault(game_id, asyncio.Lock())
        try:
            async with lock:
                live = self.live.get(game_id)
                if live is None:
                    live = await asyncio.to_thread(self._load, game_id)
                    self.live[game_id] = live
                    # A clock that ran while no process held the game (a restart) is armed again.
                    self._arm_clock(live)
        finally:
            # Nothing is kept for a lookup, found or not: a stream of made-up ids costs no memory.
            if not lock.locked() and self._loading.get(game_id) is lock:
                del self._loading[game_id]
        return live

    def _load(self, game_id: str) -> LiveGame:
        row = self.store.game(game_id)
        if row is None:
            raise UnknownGameError(f"no game {game_id}")
        game = load_game(row.game, players=row.players, **row.options)
        state = game.new_initial_state()
        events = [(e.player, e.action) for e in self.store.events(game_id)]
        live = LiveGame(row, self.store.seats(game_id), state, events)
        times = self.store.event_times(game_id) if row.clock is not None else []
        if row.clock is not None:
            live.clocks = Clocks(row.clock[0], row.clock[1], row.players, per_move=row.clock_per_move)
            if row.started is not None:
                live.clocks.start(state.to_act(), row.started)
        for i, (player, text) in enumerate(events):
            state.apply_str(player, text)  # stored events were checked when they were played
            if live.clocks is not None and row.started is not None:
                live.clocks.moved(player, state.to_act(), times[i])
        if row.status == "finished" and state.result() is None:
            live.ended = row.result
        if row.status == "finished":
            rematch = self.store.rematch_of(game_id)
            live.rematch = rematch.id if rematch is not None else None
        return live

    async def refresh(self, game_id: str) -> LiveGame:
        """Read a game's row and seats again after a seat was taken, keeping its connections."""
        live = await self.get(game_id)
        async with live.lock:
            row = await asyncio.to_thread(self.store.game, game_id)
            live.seats = await asyncio.to_thread(self.store.seats, game_id)
            if row is not None:
                if live.clocks is not None and live.row.started is None and row.started is not None:
                    live.clocks.start(live.state.to_act(), row.started)  # play began: the clocks run
                live.row = row
        return live

    async def resume_all(self) -> None:
        """After a start, in the background: load every unfinished game and let it go on.

        Its computer seats play on, its opening chance is drawn if a kill came between
        the last seat and the deal, its clocks run again. The server answers meanwhile:
        a game asked for first is loaded then.
        """
        rows = await asyncio.to_thread(self.store.unfinished_games)
        for row in rows:
            try:
                live = await self.get(row.id)
            except HubError:
                continue
            self._wake_computers(live)
            await asyncio.sleep(0)  # let requests in between
        self.resumed = True

    async def confirm(self, token_hash_: str) -> None:
        """A joining seat's token was used: the seat is taken for good, and the game starts if it is full."""
        game_id = await asyncio.to_thread(self.store.confirm_seat, token_hash_)
        if game_id is None:
            return
        live = await self.refresh(game_id)
        if not any(s.kind in WAITING_KINDS for s in live.seats):
            await self.start(game_id)
        else:
            await self.broadcast(live)

    async def maintain(self, every: float = MAINTAIN_EVERY) -> None:
        """Forever: give back seats whose join was never confirmed, end abandoned games, and (with
        several processes) re-read the games this process follows, in case an announcement was lost."""
        last_abandon = 0.0
        while True:
            await asyncio.sleep(every)
            try:
                for game_id in await asyncio.to_thread(
                    self.store.free_unconfirmed, time.time() - self.join_wait
                ):
                    if game_id in self.live:
                        await self.catch_up(game_id, force=True)
                await self._renew_presence()
                # Sweeps of the whole store: once a minute, or sooner when the limits are that short.
                sweep = max(every, min(60.0, *(t / 2 for t in (self.abandon_after, self.expire_after) if t)))
                if time.monotonic() - last_abandon > sweep:
                    last_abandon = time.monotonic()
                    if self.abandon_after:
                        await self._abandon_idle()
                    if self.expire_after:
                        await self._expire_waiting()
                if self.store.engine.dialect.name == "postgresql":
                    await self._poll()
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # the database went away a moment: try again next time
                log.warning("upkeep: %s", exc)

    async def _poll(self) -> None:
        """Catch up every game held here that the database shows further on (a lost NOTIFY)."""
        ids = [g for g, live in self.live.items() if live.result_json() is None]
        for start in range(0, len(ids), 500):
            chunk = ids[start : start + 500]
            progress = await asyncio.to_thread(self.store.progress, chunk)
            for game_id in chunk:
                live = self.live.get(game_id)
                if live is None or game_id not in progress:
                    continue
                events, status = progress[game_id]
                if events != len(live.events) or status != live.row.status:
                    await self.catch_up(game_id, force=True)
                else:
                    # A computer move whose lease holder died before it moved, with nothing new
                    # since to wake anyone: this process tries the lease (it is free once run out).
                    self._wake_computers(live)

    async def _renew_presence(self) -> None:
        """Note in the store that the players connected here are still here (for claims elsewhere)."""
        here = [
            (game_id, seat)
            for game_id, live in list(self.live.items())
            if live.result_json() is None
            for seat in sorted(self._present(live))
            if live.seats[seat].kind == "person"
        ]
        await asyncio.to_thread(self.store.seen, here, time.time())

    async def _expire_waiting(self) -> None:
        """Call off the games whose seats nobody took in time (a lobby game whose maker left, say)."""
        minutes = self.expire_after / 60
        for row in await asyncio.to_thread(self.store.stale_waiting, time.time() - self.expire_after):
            reason = f"expired: no player took the waiting seat within {minutes:g} minutes"
            result = Result.draw(row.players, reason, Termination.ABORTED).to_json()
            if await asyncio.to_thread(self.store.finish, row.id, result):
                log.info("game %s: %s", row.id, reason)
                if row.id in self.live:
                    await self.catch_up(row.id, force=True)

    async def _abandon_idle(self) -> None:
        hours = self.abandon_after / 3600
        for row in await asyncio.to_thread(self.store.idle_games, time.time() - self.abandon_after):
            n = row.players
            reason = f"abandoned: nobody played for {hours:g} hours"
            result = Result.draw(n, reason, Termination.ABANDONMENT).to_json()
            if await asyncio.to_thread(self.store.finish, row.id, result):
                log.info("game %s: %s", row.id, reason)
                if row.id in self.live:
                    await self.catch_up(row.id, force=True)

    # --- acting ------------------------------------------------------------------------

    async def act(
        self, game_id: str, seat: int, text: str | dict[str, object], *, after: int | None = None
    ) -> None:
        """Apply ``seat``'s action, written ``text`` (its notation, or its structured form as a
        client read it from a view); HubError (the game unchanged) if it is refused.

        ``after``: the number of events the action was chosen after (a computer seat's);
        if the game has moved on since, StaleMoveError and nothing is applied.
        """
        arrived = time.perf_counter()
        live = await self.get(game_id)
        async with live.lock:
            before = len(live.events)
            for _ in range(3):
                try:
                    if after is not None and len(live.events) != after:
                        raise StaleMoveError(f"game {game_id} moved on after event {after}")
                    await self._act_locked(live, seat, text)
                    break
                except EventClashError:
                    # Another server process played here first: take its events, then try again.
                    await self._catch_up_locked(live)
            else:
                raise HubError("the game is moving on too fast elsewhere; try again")
            applied = live.events[before:]
        await self.broadcast(live)
        self.metrics.latency.observe(time.perf_counter() - arrived)
        by = "computer" if 0 <= seat < len(live.seats) and live.seats[seat].kind == "computer" else "person"
        self.metrics.actions.labels(by).inc()
        chance = sum(1 for player, _ in applied if player == CHANCE)
        if chance:
            self.metrics.actions.labels("chance").inc(chance)
        self._wake_computers(live)

    async def resign(self, game_id: str, seat: int) -> None:
        """``seat`` resigns: it loses, the others share the win (HubError if the game is not on)."""
        await self._end_by(game_id, seat, abort=False)

    async def abort(self, game_id: str, seat: int) -> None:
        """``seat`` calls the game off before every player has made a move: nobody wins or loses."""
        await self._end_by(game_id, seat, abort=True)

    async def _end_by(self, game_id: str, seat: int, *, abort: bool) -> None:
        live = await self.get(game_id)
        async with live.lock:
            await self._catch_up_locked(live)  # another process may have ended it, or moved on
            if live.result_json() is not None:
                raise HubError("the game is over")
            n = live.row.players
            if not 0 <= seat < n:
                raise HubError("a spectator cannot end a game")
            who = live.seats[seat].name or live.state.player_name(seat)
            waiting = any(s.kind in WAITING_KINDS for s in live.seats)
            if abort:
                if not self._abortable(live):
                    raise HubError("every player has moved: the game can only be resigned now")
                result = Result.draw(
                    n, f"aborted by {who} before every player had moved", Termination.ABORTED
                )
            else:
                if waiting:
                    raise HubError("the game has not started: abort it instead")
                result = Result.loss(seat, n, f"{who} resigned", Termination.RESIGNATION)
            if await asyncio.to_thread(self.store.finish, live.row.id, result.to_json()):
                live.ended = result.to_json()
                log.info("game %s: %s", live.row.id, result.reason)
            await self._catch_up_locked(live)  # either way: what the store holds now
        await self.broadcast(live)

    # --- agreement and absence ---------------------------------------------------------

    @staticmethod
    def _who(live: LiveGame, seat: int) -> str:
        return live.seats[seat].name or live.state.player_name(seat)

    @staticmethod
    def _standing_offer(live: LiveGame) -> int | None:
        """The seat whose draw offer stands: made, and the other player has not acted since."""
        if live.row.offer is None or live.result_json() is not None:
            return None
        by, at = live.row.offer
        if any(player == 1 - by for player, _ in live.events[at:]):
            return None  # the other player moved on: that declines it
        return by

    def _offer_problem(self, live: LiveGame, seat: int) -> str | None:
        """Why ``seat`` may not offer a draw now (None: it may)."""
        game = live.state.game.info
        if live.result_json() is not None:
            return "the game is over"
        if any(s.kind in WAITING_KINDS for s in live.seats):
            return "the game has not started"
        if live.row.players != 2:
            return "draw offers are for two-player games: resign, or claim when the others have gone"
        if not game.draws:
            return f"the rules of {game.name} have no draw"
        if live.row.table:
            return "at one screen there is nobody to send an offer to: resign, or agree and abort"
        if live.seats[1 - seat].kind != "person":
            return "a computer does not take draw offers"
        if self._standing_offer(live) == seat:
            return "your draw offer stands: the other player accepts it, declines it or moves on"
        last = self._last_offer.get(live.row.id, {}).get(seat)
        if last is not None and not any(player == seat for player, _ in live.events[last:]):
            return "one draw offer per move: offer again after your next move"
        return None

    async def offer_draw(self, game_id: str, seat: int) -> None:
        """``seat`` offers a draw, or accepts the other player's standing offer (the game is drawn)."""
        live = await self.get(game_id)
        async with live.lock:
            await self._catch_up_locked(live)
            if not 0 <= seat < live.row.players:
                raise HubError("a spectator cannot offer a draw")
            if self._standing_offer(live) == 1 - seat:
                names = f"{self._who(live, 0)} and {self._who(live, 1)}"
                result = Result.draw(2, f"{names} agreed to a draw", Termination.AGREEMENT)
                if await asyncio.to_thread(self.store.finish, live.row.id, result.to_json()):
                    live.ended = result.to_json()
                    log.info("game %s: %s", live.row.id, result.reason)
            else:
                problem = self._offer_problem(live, seat)
                if problem is not None:
                    raise HubError(problem)
                replaces = live.row.offer[0] if live.row.offer is not None else None
                made = await asyncio.to_thread(
                    self.store.offer_draw, live.row.id, seat, len(live.events), replaces=replaces
                )
                if not made:
                    await self._catch_up_locked(live)
                    raise HubError("the game changed as you offered: look again, and offer again")
                self._last_offer.setdefault(live.row.id, {})[seat] = len(live.events)
            await self._catch_up_locked(live)
        await self.broadcast(live)

    async def decline_draw(self, game_id: str, seat: int) -> None:
        """``seat`` declines the other player's standing draw offer."""
        live = await self.get(game_id)
        async with live.lock:
            await self._catch_up_locked(live)
            if not 0 <= seat < live.row.players or self._standing_offer(live) != 1 - seat:
                raise HubError("there is no draw offer to decline")
            await asyncio.to_thread(
                self.store.offer_draw, live.row.id, None, len(live.events), replaces=1 - seat
            )
            await self._catch_up_locked(live)
        await self.broadcast(live)

    def _away(self, live: LiveGame, seats: list[Seat], now: float) -> dict[int, float]:
        """How long each person seat's player has been away, in seconds (0: connected here)."""
        present = self._present(live)
        since = live.row.started or live.row.created
        away: dict[int, float] = {}
        for s in seats:
            if s.kind != "person":
                continue
            left_here = live.left.get(s.seat)
            if s.seat in present:
                away[s.seat] = 0.0
            elif left_here is not None and (s.seen_at is None or s.seen_at <= left_here):
                away[s.seat] = now - left_here  # this process saw them go, and nobody saw them since
            else:
                # Last seen by another process (or before this one held the game), which renews what
                # it sees every upkeep round: the player may be there still until two rounds pass.
                away[s.seat] = max(0.0, now - (s.seen_at or since) - 2 * MAINTAIN_EVERY)
        return away

    def _claim(self, live: LiveGame, seat: int, seats: list[Seat], now: float) -> tuple[float, bool] | None:
        """Whether ``seat`` may claim: in how many seconds, and whether the win (else only a draw);
        None when there is nothing to claim (no other person seat, a table, a game not on)."""
        if live.result_json() is not None or live.row.table:
            return None
        if any(s.kind in WAITING_KINDS for s in seats):
            return None
        away = self._away(live, seats, now)
        others = [p for p in away if p != seat]
        if not others or any(away[p] == 0.0 for p in others):
            return None
        wait = max(0.0, self.claim_after - min(away[p] for p in others))
        win = all(s.kind == "person" for s in seats)
        return wait, win

    async def claim(self, game_id: str, seat: int, *, win: bool) -> None:
        """``seat`` ends a game its opponents left: it wins (``win``), or the game is drawn."""
        live = await self.get(game_id)
        async with live.lock:
            await self._catch_up_locked(live)
            if not 0 <= seat < live.row.players:
                raise HubError("a spectator cannot claim a game")
            if live.result_json() is not None:
                raise HubError("the game is over")
            # The seats as the store holds them now: another process may have seen a player since.
            seats = await asyncio.to_thread(self.store.seats, live.row.id)
            claim = self._claim(live, seat, seats, time.time())
            if claim is None:
                raise HubError("nobody has left: a claim is for a game whose other players have gone")
            wait, may_win = claim
            if wait > 0:
                raise HubError(f"the others left only lately: you may claim in {wait:.0f} s")
            if win and not may_win:
                raise HubError("a computer plays on here: you may end the game as a draw, not claim the win")
            gone = " and ".join(
                self._who(live, s.seat) for s in seats if s.kind == "person" and s.seat != seat
            )
            n = live.row.players
            who = self._who(live, seat)
            result = (
                Result.win(seat, n, f"{gone} left the game; {who} claimed the win", Termination.ABANDONMENT)
                if win
                else Result.draw(
                    n, f"{gone} left the game; {who} ended it as a draw", Termination.ABANDONMENT
                )
            )
            if await asyncio.to_thread(self.store.finish, live.row.id, result.to_json()):
                live.ended = result.to_json()
                log.info("game %s: %s", live.row.id, result.reason)
            await self._catch_up_locked(live)
        await self.broadcast(live)

    @staticmethod
    def _abortable(live: LiveGame) -> bool:
        """Whether the game may still be aborted: on, and some player has not made a move yet."""
        if live.result_json() is not None:
            return False
        # Read until every player is seen: a few events into a game, not its whole length per view.
        players = live.row.players
        moved: set[int] = set()
        for player, _ in live.events:
            if player >= 0:
                moved.add(player)
                if len(moved) == players:
                    return False
        return True

    async def catch_up(self, game_id: str, *, force: bool = False) -> None:
        """Take what another server process stored for ``game_id`` (events, seats, its end) and tell
        this one's connections (``force``: tell them even if nothing seems changed)."""
        live = self.live.get(game_id)
        if live is None:
            return  # nobody here follows it; it is read whole when somebody does
        async with live.lock:
            changed = await self._catch_up_locked(live)
        if changed or force:
            await self.broadcast(live)
            self._wake_computers(live)

    async def _catch_up_locked(self, live: LiveGame) -> bool:
        # The row first, then the events: a game another process finished after this read has
        # all its events stored by then, so a result is never taken with a position short of it.
        row = await asyncio.to_thread(self.store.game, live.row.id)
        new = await asyncio.to_thread(self.store.events, live.row.id, len(live.events))
        seats = await asyncio.to_thread(self.store.seats, live.row.id)
        changed = bool(new) or seats != live.seats
        times = (
            await asyncio.to_thread(self.store.event_times, live.row.id) if live.clocks is not None else []
        )
        for event in new:
            live.state.apply_str(event.player, event.action)
            live.events.append((event.player, event.action))
            if live.clocks is not None:
                live.clocks.moved(event.player, live.state.to_act(), times[event.number])
        live.seats = seats
        # The row too: another process may have ended the game (a clock), or play began.
        if row is not None:
            if live.clocks is not None and live.row.started is None and row.started is not None:
                live.clocks.start(live.state.to_act(), row.started)
            changed = changed or row.status != live.row.status or row.offer != live.row.offer
            live.row = row
            if row.status == "finished" and live.state.result() is None and row.result is not None:
                live.ended = row.result
        return changed

    async def _act_locked(self, live: LiveGame, seat: int, text: str | dict[str, object]) -> None:
        if any(s.kind in WAITING_KINDS for s in live.seats):
            raise HubError("the game has not started: a seat is still to be taken")
        state = live.state
        if state.is_terminal() or live.ended is not None:
            raise HubError("the game is over")
        if (
            live.clocks is not None
            and seat in live.clocks.since
            and live.clocks.remaining(seat, time.time()) <= 0
        ):
            raise HubError(f"{state.player_name(seat)}'s time is up")
        if seat not in state.to_act():
            raise HubError(f"it is not {state.player_name(seat)}'s turn")
        after = state.clone()
        try:
            action = (
                after.parse_action(seat, text)
                if isinstance(text, str)
                else after.action_from_json(seat, text)
            )
            # Written before it is applied: a move's notation may name what it moves from.
            new = [(seat, after.action_to_str(seat, action))]
            after.apply(seat, action)
        except ActionError as exc:
            raise HubError(str(exc)) from None
        acting_after = [after.to_act()]
        self._draw_chance(live, after, new, acting_after)
        result = after.result()
        # Stored first: an EventClashError (another process wrote this event) leaves this copy as it was.
        now = time.time()
        try:
            await asyncio.to_thread(
                self.store.add_events,
                live.row.id,
                len(live.events),
                new,
                result.to_json() if result is not None else None,
                now,
            )
        except EventClashError:
            raise
        except StoreError as exc:  # a full disk: the player is told, and may send it again
            log.warning("game %s: %s", live.row.id, exc)
            raise HubError(str(exc)) from None
        live.state = after
        live.events.extend(new)
        live.applied(new, acting_after, now)
        if result is not None:
            row = await asyncio.to_thread(self.store.game, live.row.id)
            live.row = row or live.row

    @staticmethod
    def _draw_chance(
        live: LiveGame, after: State[Any], new: list[tuple[int, str]], acting_after: list[tuple[int, ...]]
    ) -> None:
        """Play on ``after`` the chance events that come next, drawn from the game's secret seed and each
        event's number; note each in ``new`` (written before it is applied: its notation may name what
        it changes) and who is to act after it."""
        while after.to_act() == (CHANCE,):
            outcome = after.sample_chance(chance_rng(live.row.seed, len(live.events) + len(new)))
            new.append((CHANCE, after.action_to_str(CHANCE, outcome)))
            after.apply(CHANCE, outcome)
            acting_after.append(after.to_act())

    async def start(self, game_id: str) -> None:
        """Play the chance events a game opens with, then let its computer seats begin."""
        live = await self.get(game_id)
        async with live.lock:
            new: list[tuple[int, str]] = []
            acting_after: list[tuple[int, ...]] = []
            after = live.state.clone()
            self._draw_chance(live, after, new, acting_after)
            if new:
                now = time.time()
                try:
                    await asyncio.to_thread(
                        self.store.add_events, live.row.id, len(live.events), new, None, now
                    )
                except EventClashError:
                    # Another process dealt first (it draws the same chance): take its events.
                    await self._catch_up_locked(live)
                else:
                    live.state = after
                    live.events.extend(new)
                    live.applied(new, acting_after, now)
        await self.broadcast(live)
        self._wake_computers(live)

    def _wake_computers(self, live: LiveGame) -> None:
        """Let whatever the server plays play: the chance a game opens with, the computer seats."""
        if live.result_json() is not None:
            return
        if (
            live.state.to_act() == (CHANCE,)
            and not any(s.kind in WAITING_KINDS for s in live.seats)
            and not live.lock.locked()
        ):
            # A game whose last seat was taken but whose deal was never stored (a kill between).
            self._spawn(self.start(live.row.id))
            return
        if self.pool is None:
            return
        for seat in live.state.to_act():
            info = live.seats[seat] if 0 <= seat < len(live.seats) else None
            if info is not None and info.kind == "computer" and seat not in live.thinking:
                live.thinking.add(seat)
                live.thinking_since[seat] = time.time()
                self._spawn(self._computer_turn(live, seat, info.agent or "random"))

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _computer_turn(self, live: LiveGame, seat: int, spec: str) -> None:
        # The position the move is chosen for, taken whole with its number of events, before any
        # await: catching up changes live.state in place, and may do so while the lease is taken.
        seen = len(live.events)
        position = live.state.clone()
        if seat not in position.to_act():
            live.thinking.discard(seat)
            return
        lease = self.move_time + LEASE_MARGIN
        try:
            # Exactly one process computes each computer move: the one that takes its lease.
            if not await asyncio.to_thread(self.store.take_lease, live.row.id, seat, seen, lease):
                live.thinking.discard(seat)
                if len(live.events) != seen:
                    # This process moved the game on while the store was asked (a person's move, stored
                    # meanwhile): its act found the seat thinking and woke nobody, so look again now.
                    self._wake_computers(live)
                    return
                # Another process thinks; if it dies, its lease runs out and this one takes over.
                loop = asyncio.get_running_loop()
                loop.call_later(lease + 1.0, self._wake_later, live.row.id)
                return
        except Exception as exc:
            live.thinking.discard(seat)
            log.warning("game %s: no lease for computer seat %d: %s", live.row.id, seat, exc)
            return
        try:
            try:
                text = await self._choose(live, position, seen, seat, spec)
            except StaleMoveError:  # no move in that position: whatever moved the game on wakes it
                return
            try:
                await self.act(live.row.id, seat, text, after=seen)
            except StaleMoveError:
                # The game moved on while it thought: it thinks again below, on the new position.
                self.metrics.computer_moves.labels("stale").inc()
            except HubError as exc:
                log.warning(
                    "game %s: computer seat %d (%s): its move %r was refused: %s",
                    live.row.id,
                    seat,
                    spec,
                    text,
                    exc,
                )
                now = len(live.events)
                fallback = self._random_move(live.state, seat, self._seed(live, now, seat))
                if fallback is not None:
                    with contextlib.suppress(HubError):
                        await self.act(live.row.id, seat, fallback, after=now)
        finally:
            live.thinking.discard(seat)
        self._wake_computers(live)

    def _wake_later(self, game_id: str) -> None:
        """Look again at a game whose computer move another process took on (it may have died)."""
        live = self.live.get(game_id)
        if live is not None:
            self._spawn(self.catch_up(game_id, force=True))

    async def _choose(self, live: LiveGame, position: State[Any], seen: int, seat: int, spec: str) -> str:
        """The computer seat's move, chosen in a worker within :attr:`move_time` seconds.

        A worker that does not answer in time is killed (and replaced), and the seat
        plays a random legal move instead, so that no agent's budget holds a game or
        a worker; so does a worker that dies twice, or an agent that fails.
        """
        assert self.pool is not None
        seed = self._seed(live, seen, seat)
        job = ChoiceJob(position, seat, spec, seed)
        why = ""
        for _ in range(2):
            try:
                move = await self.pool.run(choose, job, timeout=self.move_time)
                self.metrics.computer_moves.labels("chosen").inc()
                return move
            except WorkerTimeout:
                why = f"it thought longer than {self.move_time:g} s"
                self.metrics.computer_moves.labels("capped").inc()
                break
            except WorkerDied:
                why = "its worker died twice"
            except Exception as exc:  # the agent's own exception, raised again here
                # Whatever an agent raises, the seat still moves: no agent's bug may stick a game.
                first_line = str(exc).split("\n", 1)[0]  # the worker's traceback stays out of the log
                why = f"its agent failed: {type(exc).__name__}: {first_line}"
                self.metrics.computer_moves.labels("failed").inc()
                break
        log.warning("game %s: computer seat %d (%s) plays a random move: %s", live.row.id, seat, spec, why)
        fallback = self._random_move(position, seat, seed)
        if fallback is None:
            raise StaleMoveError("the seat has no move here")
        return fallback

    @staticmethod
    def _seed(live: LiveGame, seen: int, seat: int) -> int:
        return int.from_bytes(hashlib.sha256(f"{live.row.seed}/{seen}/{seat}".encode()).digest()[:8])

    @staticmethod
    def _random_move(position: State[Any], seat: int, seed: int) -> str | None:
        """A random legal move of ``seat`` in ``position`` (None if it has none there)."""
        if seat not in position.to_act():
            return None
        agent = make_agent("random", position.game, seat, seed=seed)
        return position.action_to_str(seat, agent.act(PlayerView(position, seat)))

    # --- watching ----------------------------------------------------------------------

    async def watch(
        self,
        game_id: str,
        seat: int,
        send: Send,
        *,
        table: bool = False,
        close: Callable[[], None] | None = None,
    ) -> Watcher:
        """Add a connection (a seat, a spectator with :data:`PUBLIC`, or a table) and send it its view.

        A table starts covered: it is sent :meth:`cover` until a player sits down. ``close`` ends the
        connection; the hub calls it when a send to the connection fails (:meth:`drop`).
        """
        live = await self.get(game_id)
        watcher = Watcher(COVERED if table else seat, send, table, close)
        arrived = seat != PUBLIC and not (self._present(live) >= self._arriving(live, watcher))
        live.watchers.append(watcher)
        # The whole view first: nothing awaited before it, so no later view overtakes it.
        try:
            await send(self.cover(live) if table else self.view(live, seat, history=True))
        except Exception as exc:
            self.drop(live, watcher, exc)
            raise
        if arrived:  # the others see that this seat's player is here
            for p in self._arriving(live, watcher):
                live.left.pop(p, None)
            await self._send_views(live, skip=watcher)
            await self._note_seen(live, self._arriving(live, watcher), time.time())
        return watcher

    async def sit(self, game_id: str, watcher: Watcher, seat: int) -> None:
        """Seat ``seat``'s player at a table (they pressed the cover): only a person seat to act now."""
        live = await self.get(game_id)
        if not watcher.table:
            raise HubError("only a table (a game at one screen) changes seats")
        info = live.seats[seat] if 0 <= seat < len(live.seats) else None
        if info is None or info.kind != "person":
            raise HubError(f"seat {seat} is no person seat of this table")
        if live.result_json() is not None or seat not in live.state.to_act():
            raise HubError(f"it is not {live.state.player_name(seat)}'s turn: the screen stays covered")
        watcher.seat = seat
        await watcher.send(self.view(live, seat, history=True))

    async def stand(self, game_id: str, watcher: Watcher) -> None:
        """Cover a table's screen (its player stood up) until the next player sits down."""
        live = await self.get(game_id)
        watcher.seat = COVERED
        await watcher.send(self.cover(live))

    async def unwatch(self, game_id: str, watcher: Watcher) -> None:
        live = self.live.get(game_id)
        if live is not None and watcher in live.watchers:
            live.watchers.remove(watcher)
            gone = set() if watcher.seat == PUBLIC else self._arriving(live, watcher) - self._present(live)
            if gone:
                now = time.time()
                for p in gone:
                    live.left[p] = now
                await self._note_seen(live, gone, now)
                await self._send_views(live)  # ... and that the player has gone
        self._forget_if_done(live)

    async def _note_seen(self, live: LiveGame, seats: set[int], at: float) -> None:
        """Write down that these seats' players are (or were, until now) here; a store fault is no
        reason to refuse or drop a connection: presence is renewed again by the upkeep."""
        if live.result_json() is not None:
            return
        try:
            people = [(live.row.id, p) for p in sorted(seats) if 0 <= p < len(live.seats)]
            await asyncio.to_thread(self.store.seen, people, at)
        except Exception as exc:
            log.warning("game %s: presence not noted: %s", live.row.id, exc)

    @staticmethod
    def _arriving(live: LiveGame, watcher: Watcher) -> set[int]:
        """The seats whose player a connection brings: its seat, or every person seat of a table."""
        if watcher.table:
            return {s.seat for s in live.seats if s.kind == "person"}
        return {watcher.seat}

    @staticmethod
    def spectators(live: LiveGame) -> int:
        """How many spectators' connections this process holds for the game (a table is a player)."""
        return sum(1 for w in live.watchers if w.seat == PUBLIC and not w.table)

    @staticmethod
    def _present(live: LiveGame) -> set[int]:
        """Who is here: a person with a connection to this process (a table: its every person), a computer."""
        here = {s.seat for s in live.seats if s.kind == "computer"}
        for w in live.watchers:
            here |= Hub._arriving(live, w)
        return here

    def cover(self, live: LiveGame) -> dict[str, Any]:
        """What a covered table shows: who is to act and the result, nothing any seat may keep to itself."""
        result_json = live.result_json()
        acting = live.state.to_act() if result_json is None else ()
        return {
            "type": "cover",
            "game": live.row.id,
            "game_id": live.row.game,
            "events": len(live.events),
            "status": live.row.status if result_json is None else "finished",
            "perfect": live.perfect,
            "seats": [{"seat": s.seat, "kind": s.kind, "name": s.name} for s in live.seats],
            "to_act": [p for p in acting if 0 <= p < len(live.seats) and live.seats[p].kind == "person"],
            "result": result_json,
        }

    async def _send_views(self, live: LiveGame, skip: Watcher | None = None) -> None:
        """Send every connection (but ``skip``) its seat's view; each seat's view is made once."""
        made: dict[int, dict[str, Any]] = {}
        seen = len(live.events)
        for watcher in list(live.watchers):
            if watcher is skip:
                continue
            if (
                watcher.table
                and watcher.seat != COVERED
                and (live.result_json() is not None or watcher.seat not in live.state.to_act())
            ):
                watcher.seat = COVERED  # its player is done: the next one must not see this view
            if watcher.seat not in made:
                made[watcher.seat] = (
                    self.cover(live) if watcher.seat == COVERED else self.view(live, watcher.seat)
                )
            try:
                await watcher.send(made[watcher.seat])
            except Exception as exc:
                self.drop(live, watcher, exc)
        live.story_floor = max(live.story_floor, seen)

    def drop(self, live: LiveGame, watcher: Watcher, exc: Exception) -> None:
        """Forget a connection that a send to failed, and close it.

        Usually it went away already. If it did not (a message that could not be sent), closing it
        is what lets its client know: it connects again and is sent the whole view, where a
        connection left open would never be sent another view, a game stuck from the client's side.
        """
        if watcher in live.watchers:
            live.watchers.remove(watcher)
        if not isinstance(exc, ConnectionError):  # not the connection gone: worth a line in the log
            log.warning("game %s: a connection was closed: a send to it failed: %s", live.row.id, exc)
        if watcher.close is not None:
            watcher.close()

    def _forget_if_done(self, live: LiveGame | None) -> None:
        """Drop a finished game nobody watches from memory; it is read again from the store if asked for."""
        if (
            live is not None
            and not live.watchers
            and live.result_json() is not None
            and not live.lock.locked()
        ):
            if live.timer is not None:
                live.timer.cancel()
            self.live.pop(live.row.id, None)

    async def broadcast_message(self, live: LiveGame, message: dict[str, Any]) -> None:
        """Send every connection of the game the same message (one that holds no secret)."""
        for watcher in list(live.watchers):
            try:
                await watcher.send(message)
            except Exception as exc:
                self.drop(live, watcher, exc)

    async def broadcast(self, live: LiveGame) -> None:
        self._arm_clock(live)
        await self._send_views(live)
        self._forget_if_done(live)

    def _arm_clock(self, live: LiveGame) -> None:
        """Wake up when the first running clock reaches zero (again after every event)."""
        if live.timer is not None:
            live.timer.cancel()
            live.timer = None
        if live.clocks is None or live.result_json() is not None:
            return
        first = live.clocks.first_out(time.time())
        if first is None:
            return
        loop = asyncio.get_running_loop()

        def check() -> None:
            task = loop.create_task(self._check_time(live))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

        live.timer = loop.call_later(max(0.0, first[1] - time.time()) + 0.01, check)

    async def _check_time(self, live: LiveGame) -> None:
        """End the game if a player's time is up: that player loses, the others share the win."""
        async with live.lock:
            # What another process stored first: a position this one has not heard of may have ended
            # the game or moved the clock on (its notification can be lost with its LISTEN connection).
            await self._catch_up_locked(live)
            clocks = live.clocks
            now = time.time()
            first = clocks.first_out(now) if clocks is not None and live.result_json() is None else None
            if clocks is not None and first is not None and clocks.remaining(first[0], now) <= 0:
                loser = first[0]
                reason = f"{live.state.player_name(loser)} ran out of time"
                result = Result.loss(loser, live.row.players, reason, Termination.TIME).to_json()
                if await asyncio.to_thread(self.store.finish, live.row.id, result):
                    live.ended = result
                # Read back either way: another process may have ended it first, by rule or clock.
                await self._catch_up_locked(live)
        await self.broadcast(live)

    def view(self, live: LiveGame, seat: int, history: bool = False) -> dict[str, Any]:
        """Everything ``seat`` (or a spectator, :data:`PUBLIC`) may see of the game now, as JSON data.

        ``last`` holds the latest events the seat may see; with ``history``, all of
        them (the first view of a connection, so that its move list is whole).
        """
        state = live.state
        present = self._present(live)
        result_json = live.result_json()
        # Nobody is to act before the game starts (a seat is still to be taken) or after it ends.
        waiting = any(s.kind in WAITING_KINDS for s in live.seats)
        acting = state.to_act() if result_json is None and not waiting else ()
        view: dict[str, Any] = {
            "type": "view",
            "game": live.row.id,
            "game_id": live.row.game,
            "seat": None if seat == PUBLIC else seat,
            "events": len(live.events),
            "status": live.row.status if result_json is None else "finished",
            "seats": [
                {
                    "seat": s.seat,
                    "kind": s.kind,
                    "name": s.name,
                    "connected": s.seat in present,
                    # Played by an account (its name is the seat's), and whether a program's.
                    **({"account": True, "bot": s.bot} if s.account is not None else {}),
                }
                for s in live.seats
            ],
            "rated": live.row.rated,
            "to_act": ["chance" if p == CHANCE else p for p in acting],
            "observation": state.observation(seat),
            "text": state.observation_text(seat),
            "last": self._visible_events(live, seat)[None if history else -LAST_EVENTS :],
            "story": self.story(live).entries(
                seat, 0 if history else min(live.story_floor, len(live.events) - LAST_EVENTS)
            ),
            "result": result_json,
            # The seat whose draw offer stands (everybody sees an offer, as across a real table).
            "draw_offer": self._standing_offer(live),
            # The finished game's rematch, once made (a spectator's page follows it there).
            "rematch": live.rematch,
        }
        if live.clocks is not None:
            now = time.time()
            view["clock"] = clock_json(live.row)
            view["clocks"] = [
                {
                    "seat": p,
                    "remaining": round(max(0.0, live.clocks.remaining(p, now)), 2),
                    "running": p in live.clocks.since and result_json is None,
                }
                for p in range(live.row.players)
            ]
        # The computer seats to act, with how long each has thought (0 until its worker starts): a
        # count since the view was made, so that the page's counter needs no clock of the server's.
        # Who is to act is in `to_act` already: this tells nothing more that the rules hide.
        now_thinking = time.time()
        view["thinking"] = [
            {
                "seat": p,
                "seconds": round(max(0.0, now_thinking - live.thinking_since.get(p, now_thinking)), 1)
                if p in live.thinking
                else 0.0,
            }
            for p in acting
            if p != CHANCE and 0 <= p < len(live.seats) and live.seats[p].kind == "computer"
        ]
        if seat != PUBLIC:
            legal = state.legal_actions(seat) if seat in acting else None
            count = len(legal) if legal is not None else 0
            view["your_turn"] = seat in acting
            # What the seat may do besides its move: abort before every player has moved, else resign.
            view["abortable"] = self._abortable(live)
            # A draw: the other player's standing offer to accept, or whether this seat may offer one.
            view["can_offer_draw"] = self._offer_problem(live, seat) is None
            # A claim: when every other person has gone (seconds until it may be made, and whether
            # the win may be claimed or only a draw); None while somebody is here.
            claim = self._claim(live, seat, live.seats, time.time())
            view["claim"] = None if claim is None else {"in": round(claim[0], 1), "win": claim[1]}
            listed = list(legal) if legal is not None and count <= LEGAL_LIST_LIMIT else None
            # Each legal action twice, as its notation (what a person reads, and may send) and as
            # its structured form (what a client reads to draw it: no client parses notation).
            view["legal"] = {
                "count": count,
                "actions": None if listed is None else [state.action_to_str(seat, a) for a in listed],
                "moves": None if listed is None else [state.action_to_json(seat, a) for a in listed],
            }
        return view

    @staticmethod
    def story(live: LiveGame) -> StoryBook:
        """The game's story, told up to its latest event."""
        if live.story is None:
            live.story = StoryBook(live.state.game)
            # Told first now: whoever watches is sent it whole (a view with history), not again.
            live.story_floor = len(live.events)
        live.story.follow(live.events)
        return live.story

    def look(self, live: LiveGame, seat: int, at: int) -> dict[str, Any]:
        """What ``seat`` (or a spectator) was shown after event ``at``: its observation and text then.

        Its cost is bounded whatever the game's length (at most a few dozen events replayed from a
        kept position); a position chance was to act in was shown to nobody, so the next one is given.
        """
        if seat == COVERED:
            raise HubError("the screen is covered: the player to act sits down first")
        if not live.events:
            raise HubError("nothing has been played yet: there is nothing to look back at")
        if not 0 <= at < len(live.events):
            raise HubError(f"look at an event from 0 to {len(live.events) - 1}, not {at}")
        book = self.story(live)
        shown, state = book.position(live.events, at)
        return {
            "type": "look",
            "game": live.row.id,
            "at": shown,
            "events": len(live.events),
            "seat": None if seat == PUBLIC else seat,
            "observation": state.observation(seat),
            "text": state.observation_text(seat),
            "story": book.entries(seat, shown, shown + 1)[0],
        }

    def _visible_events(self, live: LiveGame, seat: int) -> list[dict[str, Any]]:
        def shown(number: int, player: int, text: str) -> dict[str, Any]:
            return {"number": number, "player": "chance" if player == CHANCE else player, "action": text}

        if live.perfect:
            return [shown(i, p, t) for i, (p, t) in enumerate(live.events)]
        return [shown(i, p, t) for i, (p, t) in enumerate(live.events) if p == seat and seat != PUBLIC]

    # --- records -----------------------------------------------------------------------

    def record(self, live: LiveGame) -> Record:
        """The game as a tussle record (what ``tussle replay`` reads)."""
        game = live.state.game
        record = Record.start(game, [s.name or s.agent or s.kind for s in live.seats])
        for player, text in live.events:
            record.add(player, text)
        # A game a clock (or abandonment) ended is no result of the rules: its record stops where
        # play stopped, and says how it ended.
        result = live.state.result()
        record.finish(result)
        if result is None and live.ended is not None:
            record.ended = live.ended
        return record

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        if self.pool is not None:
            self.pool.close()
