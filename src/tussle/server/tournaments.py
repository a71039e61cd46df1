"""Tournaments online: FITE's single elimination and a Swiss system for every game, run by the server.

An account makes a tournament (a game, its kind, options, a live time control,
rated or casual, the most entrants, computer entrants, a start time or a start
by its maker); accounts (people and bots) register until it starts. Then the
server plays it round by round: it pairs a round (:mod:`tussle.pairing`), makes
each pairing's game with its seats bound to the entrants' accounts
(``seats.account_id``) or computer levels, and, once every game of the round has
finished, pairs the next, until a champion (elimination) or the last round
(Swiss). An entrant reaches its game through ``POST /api/games/{id}/seat``.

Everything is in the database (:data:`tournaments_table` and its two companions,
migration 0011), so a restart loses nothing and several server processes may
share one PostgreSQL: each step is one transaction that first locks the
tournament's row on the round it read (``round = :seen``), so only one process
pairs a round and the others find it paired. The steps are taken by
:meth:`Tournaments.run` (every process, every :data:`TICK` seconds, and at once
when a game finishes here) and by a maker's start.

Rulings (docs/server.md, *Tournaments*, says why):

- ``elimination`` is offered for every two-player game (FITE's rules describe it; the draw is
  generic); ``swiss`` for every game, played at two players.
- A drawn or aborted game of an elimination pairing is played again with the seats swapped; after
  :data:`MAX_REPLAYS` drawn games the winner is drawn by lot from the tournament's secret.
- A Swiss scores a win 1, a draw (an aborted game too) 1/2, a loss 0, a bye 1; ties are broken by
  Buchholz, then wins, then registration order.
- A tournament whose start time comes with fewer than two entrants is cancelled.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import random
import secrets
import time
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol

import sqlalchemy as sa
from pydantic import BaseModel, ConfigDict, Field

from tussle.errors import TussleError, shorten
from tussle.pairing import Game as SwissGame
from tussle.pairing import elimination_round, standings, swiss_round, swiss_rounds
from tussle.registry import game_ids, game_info, load_game
from tussle.server.hub import Hub, HubError, UnknownGameError
from tussle.server.models import MAX_OPTIONS, DisplayName, OptionName, OptionValue
from tussle.server.service import GameService, computer_agents
from tussle.server.store import Seat, games_table, metadata
from tussle.tournament import SEAT_OPTION, known_powers, seat_option

log = logging.getLogger("tussle.server.tournaments")

tournaments_table = sa.Table(
    "tournaments",
    metadata,
    sa.Column("id", sa.String(36), primary_key=True),
    sa.Column("game", sa.String(64), nullable=False),
    sa.Column("kind", sa.String(16), nullable=False),  # elimination, swiss
    sa.Column("name", sa.String(100), nullable=False),
    sa.Column("options", sa.Text, nullable=False),
    sa.Column("clock_base", sa.Float, nullable=False),
    sa.Column("clock_increment", sa.Float, nullable=False),
    sa.Column("rated", sa.Boolean, nullable=False),
    sa.Column("max_entrants", sa.Integer, nullable=False),
    sa.Column("rounds", sa.Integer, nullable=True),  # a Swiss's rounds (fixed at its start)
    sa.Column("starts_at", sa.Float, nullable=True),  # None: its maker starts it
    sa.Column("maker", sa.String(36), nullable=False),
    sa.Column("maker_name", sa.String(100), nullable=False),
    sa.Column("status", sa.String(16), nullable=False),  # registering, playing, finished
    sa.Column("round", sa.Integer, nullable=False),  # the round being played (0: none yet)
    sa.Column("seed", sa.String(64), nullable=False),  # the draws' secret; never sent to a client
    sa.Column("champion", sa.Integer, nullable=True),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("started", sa.Float, nullable=True),
    sa.Column("finished", sa.Float, nullable=True),
    sa.Index("ix_tournaments_status", "status"),
)

entrants_table = sa.Table(
    "tournament_entrants",
    metadata,
    sa.Column("tournament_id", sa.String(36), sa.ForeignKey("tournaments.id"), primary_key=True),
    sa.Column("number", sa.Integer, primary_key=True),  # registration order, from 1
    sa.Column("account_id", sa.String(36), nullable=True),  # None: a computer level
    sa.Column("agent", sa.String(64), nullable=True),
    sa.Column("name", sa.String(100), nullable=False),
    sa.Column("bot", sa.Boolean, nullable=False),
    sa.Column("power", sa.String(32), nullable=True),
    sa.Column("joined", sa.Float, nullable=False),
    sa.UniqueConstraint("tournament_id", "account_id", name="uq_tournament_entrants_account"),
)

pairings_table = sa.Table(
    "tournament_games",
    metadata,
    sa.Column("tournament_id", sa.String(36), sa.ForeignKey("tournaments.id"), primary_key=True),
    sa.Column("round", sa.Integer, primary_key=True),
    sa.Column("board", sa.Integer, primary_key=True),
    sa.Column("attempt", sa.Integer, primary_key=True),
    sa.Column("entrants", sa.Text, nullable=False),  # entrant numbers in seat order; one alone: a bye
    sa.Column("game_id", sa.String(36), sa.ForeignKey("games.id"), nullable=True),
    sa.Column("created", sa.Float, nullable=False),
    sa.Index("ix_tournament_games_game", "game_id"),
)

#: Seconds between two looks at the tournaments being played (a game finished here wakes it sooner).
TICK = 2.0
#: Drawn games an elimination pairing plays before its winner is drawn by lot.
MAX_REPLAYS = 10
#: The most entrants a tournament may have.
MAX_ENTRANTS = 64
#: The most tournaments listed per status.
LIST_LIMIT = 50
#: How far ahead a start time may be.
MAX_AHEAD = 30 * 86400.0

Kind = Literal["elimination", "swiss"]


class TournamentError(HubError):
    """A tournament request the rules refuse (400, one line)."""


class UnknownTournamentError(UnknownGameError):
    """No such tournament (404)."""


class AccountLike(Protocol):
    """What a tournament needs of an account (:class:`tussle.server.accounts.Account`)."""

    @property
    def id(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def bot(self) -> bool: ...


class TournamentClock(BaseModel):
    """A tournament's live clock: its games start by themselves and must end."""

    model_config = ConfigDict(extra="forbid")

    minutes: float = Field(gt=0, le=180, description="each player's time for the whole game")
    increment: float = Field(0.0, ge=0, le=60, description="seconds added after each of a player's moves")


class ComputerEntrant(BaseModel):
    model_config = ConfigDict(extra="forbid")

    level: str = Field(max_length=20, description="a computer level as the catalog lists it (or random)")
    power: str | None = Field(None, max_length=32, description="FITE: the entrant's super power")


class TournamentRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    game: str = Field(max_length=64, description="a game id, as the catalog lists them")
    kind: Kind = Field(description="elimination (FITE's single elimination; two-player games) or swiss")
    name: DisplayName = Field("", description="the tournament's name (default: the game's and the kind's)")
    options: dict[OptionName, OptionValue] = Field(default_factory=dict, max_length=MAX_OPTIONS)
    clock: TournamentClock
    rated: bool = Field(False, description="its games change the accounts' ratings")
    max_entrants: int = Field(16, ge=2, le=MAX_ENTRANTS)
    rounds: int | None = Field(None, ge=1, le=20, description="a Swiss's rounds (default ceil(log2 n))")
    computers: list[ComputerEntrant] = Field(default_factory=list, max_length=MAX_ENTRANTS)
    starts_at: float | None = Field(
        None, description="when it starts by itself (epoch seconds); none: its maker starts it"
    )


class JoinTournamentRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    power: str | None = Field(None, max_length=32, description="FITE: the entrant's super power")


@dataclass(frozen=True)
class Entrant:
    number: int
    name: str
    account: str | None
    agent: str | None
    bot: bool
    power: str | None

    def to_json(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "name": self.name,
            "computer": self.agent,
            "bot": self.bot,
            "power": self.power,
        }


@dataclass(frozen=True)
class Pairing:
    """One row of ``tournament_games`` with its game's status and result (None for a bye)."""

    round: int
    board: int
    attempt: int
    entrants: tuple[int, ...]
    game_id: str | None
    status: str | None
    result: dict[str, Any] | None

    @property
    def bye(self) -> bool:
        return self.game_id is None

    @property
    def done(self) -> bool:
        return self.bye or self.status == "finished"

    def points(self) -> tuple[float, ...] | None:
        """Each seat's points (1, 1/2, 0) once finished: a lone winner takes 1; a draw, a shared
        first place or an aborted game 1/2 each (two players)."""
        if self.bye or self.status != "finished":
            return None
        winner = (self.result or {}).get("winner")
        if isinstance(winner, int) and 0 <= winner < len(self.entrants):
            return tuple(1.0 if s == winner else 0.0 for s in range(len(self.entrants)))
        return tuple(0.5 for _ in self.entrants)

    def winner(self) -> int | None:
        """The entrant who won this game (None: not over, a bye, or drawn)."""
        points = self.points()
        if points is None or 1.0 not in points:
            return None
        return self.entrants[points.index(1.0)]


@dataclass(frozen=True)
class State:
    """A tournament as the database holds it, read in one transaction."""

    row: Any
    entrants: list[Entrant]
    pairings: list[Pairing]

    def of_round(self, number: int) -> list[Pairing]:
        return [p for p in self.pairings if p.round == number]

    def latest(self, number: int) -> list[Pairing]:
        """Each board's latest attempt in round ``number``, by board."""
        out: dict[int, Pairing] = {}
        for p in self.of_round(number):
            if p.board not in out or p.attempt > out[p.board].attempt:
                out[p.board] = p
        return [out[b] for b in sorted(out)]


def _read(db: sa.Connection, tournament_id: str) -> State | None:
    t = tournaments_table.c
    row = db.execute(sa.select(tournaments_table).where(t.id == tournament_id)).first()
    if row is None:
        return None
    e = entrants_table.c
    entrants = [
        Entrant(r.number, r.name, r.account_id, r.agent, bool(r.bot), r.power)
        for r in db.execute(
            sa.select(entrants_table).where(e.tournament_id == tournament_id).order_by(e.number)
        ).all()
    ]
    p, g = pairings_table.c, games_table.c
    rows = db.execute(
        sa.select(p.round, p.board, p.attempt, p.entrants, p.game_id, g.status, g.result)
        .select_from(pairings_table.outerjoin(games_table, g.id == p.game_id))
        .where(p.tournament_id == tournament_id)
        .order_by(p.round, p.board, p.attempt)
    ).all()
    pairings = [
        Pairing(
            r.round,
            r.board,
            r.attempt,
            tuple(json.loads(r.entrants)),
            r.game_id,
            r.status,
            json.loads(r.result) if r.result else None,
        )
        for r in rows
    ]
    return State(row, entrants, pairings)


def _lock(db: sa.Connection, tournament_id: str, **where: Any) -> bool:
    """Lock the tournament's row for this transaction, if it still matches ``where`` (a write that
    changes nothing: PostgreSQL's row lock, SQLite's write lock); False if it no longer does."""
    t = tournaments_table.c
    conditions = [t.id == tournament_id, *(getattr(t, k) == v for k, v in where.items())]
    done = db.execute(tournaments_table.update().where(*conditions).values(round=t.round)).rowcount
    return bool(done)


class Tournaments:
    """The tournaments of one server process's database, over its hub and game service."""

    def __init__(self, hub: Hub, service: GameService) -> None:
        self.hub = hub
        self.service = service
        self.store = hub.store
        self._wake = asyncio.Event()
        # A game finished here wakes the tournaments at once (the others' are found by the tick).
        self.store.finish_hooks.append(lambda _db, _row, _seats, _result: self.game_finished())

    # --- making and registering --------------------------------------------------------------

    async def create(self, request: TournamentRequest, maker: AccountLike) -> dict[str, Any]:
        """A new tournament, registering; the maker is not an entrant until it joins."""
        options = self._check(request)
        now = time.time()
        if request.starts_at is not None and not now < request.starts_at <= now + MAX_AHEAD:
            raise TournamentError("starts_at must be a time in the next 30 days (epoch seconds), or none")
        if len(request.computers) > request.max_entrants:
            raise TournamentError(
                f"{len(request.computers)} computer entrants but at most {request.max_entrants} entrants"
            )
        tournament_id = str(uuid.uuid4())
        name = request.name or f"{game_info(request.game).name} {request.kind}"
        powers = known_powers(request.game)

        def write() -> None:
            with self.store.engine.begin() as db:
                db.execute(
                    tournaments_table.insert().values(
                        id=tournament_id,
                        game=request.game,
                        kind=request.kind,
                        name=name,
                        options=json.dumps(options, sort_keys=True),
                        clock_base=request.clock.minutes * 60.0,
                        clock_increment=request.clock.increment,
                        rated=request.rated,
                        max_entrants=request.max_entrants,
                        rounds=request.rounds,
                        starts_at=request.starts_at,
                        maker=maker.id,
                        maker_name=maker.name,
                        status="registering",
                        round=0,
                        seed=secrets.token_hex(16),
                        champion=None,
                        created=now,
                    )
                )
                for number, c in enumerate(request.computers, 1):
                    db.execute(
                        entrants_table.insert().values(
                            tournament_id=tournament_id,
                            number=number,
                            account_id=None,
                            agent=c.level,
                            name=f"computer {number} ({c.level})",
                            bot=False,
                            power=_power(c.power, powers, request.game),
                            joined=now,
                        )
                    )

        await asyncio.to_thread(write)
        self._wake.set()
        return await self.view(tournament_id)

    def _check(self, request: TournamentRequest) -> dict[str, Any]:
        """The tournament's game options, once the request is found within the rules (else one line)."""
        if request.game not in game_ids():
            raise TournamentError(f"unknown game {shorten(request.game)} (games: {', '.join(game_ids())})")
        info = game_info(request.game)
        if not info.min_players <= 2 <= info.max_players:
            raise TournamentError(f"tournaments here are played at two players; {request.game} is not")
        powers = known_powers(request.game)
        known = {o.name for o in info.options}
        for name in request.options:
            if name not in known:
                raise TournamentError(
                    f"{request.game} has no option {shorten(name)} (options: {', '.join(sorted(known))})"
                )
            if powers and name.startswith(SEAT_OPTION + "_"):
                raise TournamentError(f"option {name} is each entrant's (its power), not the tournament's")
        allowed = computer_agents(info)
        for c in request.computers:
            if c.level not in allowed:
                raise TournamentError(
                    f"a computer entrant plays one of {', '.join(allowed)}, not {shorten(c.level)}"
                )
            _power(c.power, powers, request.game)
        options = self.service._options(request.game, request.options)
        try:
            game = load_game(request.game, players=2, **options)
        except TussleError as exc:
            raise TournamentError(str(exc)) from None
        non_default: dict[str, Any] = game.non_default_options()
        return non_default

    async def join(
        self, tournament_id: str, account: AccountLike, power: str | None = None
    ) -> dict[str, Any]:
        """Register ``account`` (a person or a bot) while the tournament registers."""
        e = entrants_table.c

        def write() -> None:
            with self.store.engine.begin() as db:
                state = self._registering(db, tournament_id)
                if any(x.account == account.id for x in state.entrants):
                    raise TournamentError("you are registered already")
                if len(state.entrants) >= state.row.max_entrants:
                    raise TournamentError(f"the tournament is full ({state.row.max_entrants} entrants)")
                number = 1 + (
                    db.execute(
                        sa.select(sa.func.max(e.number)).where(e.tournament_id == tournament_id)
                    ).scalar()
                    or 0
                )
                db.execute(
                    entrants_table.insert().values(
                        tournament_id=tournament_id,
                        number=number,
                        account_id=account.id,
                        agent=None,
                        name=account.name,
                        bot=account.bot,
                        power=_power(power, known_powers(state.row.game), state.row.game),
                        joined=time.time(),
                    )
                )

        await asyncio.to_thread(write)
        return await self.view(tournament_id, account)

    async def leave(self, tournament_id: str, account: AccountLike) -> dict[str, Any]:
        """Withdraw ``account`` while the tournament registers."""
        e = entrants_table.c

        def write() -> None:
            with self.store.engine.begin() as db:
                self._registering(db, tournament_id)
                gone = db.execute(
                    entrants_table.delete().where(
                        e.tournament_id == tournament_id, e.account_id == account.id
                    )
                ).rowcount
                if not gone:
                    raise TournamentError("you are not registered in this tournament")

        await asyncio.to_thread(write)
        return await self.view(tournament_id, account)

    def _registering(self, db: sa.Connection, tournament_id: str) -> State:
        """The tournament, locked, if it still registers (else one line)."""
        if not _lock(db, tournament_id, status="registering"):
            if _read(db, tournament_id) is None:
                raise UnknownTournamentError(f"no tournament {shorten(tournament_id)}")
            raise TournamentError("the tournament has started: registration is closed")
        state = _read(db, tournament_id)
        assert state is not None
        return state

    async def start(self, tournament_id: str, account: AccountLike) -> dict[str, Any]:
        """Its maker starts the tournament: registration closes and the first round is paired."""
        row = await asyncio.to_thread(self._row, tournament_id)
        if row.maker != account.id:
            raise TournamentError("only the tournament's maker may start it")
        if row.status != "registering":
            raise TournamentError("the tournament has started already")
        state = await asyncio.to_thread(self._state, tournament_id)
        if state is None or len(state.entrants) < 2:
            raise TournamentError("a tournament needs at least 2 entrants to start")
        made = await asyncio.to_thread(self._step, tournament_id, 0, True)
        if made is None:
            raise TournamentError("the tournament has started already")
        await self._start_games(made)
        return await self.view(tournament_id, account)

    def _row(self, tournament_id: str) -> Any:
        with self.store.engine.connect() as db:
            row = db.execute(
                sa.select(tournaments_table).where(tournaments_table.c.id == tournament_id)
            ).first()
        if row is None:
            raise UnknownTournamentError(f"no tournament {shorten(tournament_id)}")
        return row

    # --- playing -----------------------------------------------------------------------------

    def _step(self, tournament_id: str, seen: int, starting: bool = False) -> list[str] | None:
        """One step of a tournament at round ``seen``, in one transaction: start it (``starting``),
        replay a drawn elimination game, pair the next round, or finish it. The ids of the games
        made (to start), or None if another process took the step first."""
        with self.store.engine.begin() as db:
            status = "registering" if starting else "playing"
            if not _lock(db, tournament_id, round=seen, status=status):
                return None
            state = _read(db, tournament_id)
            assert state is not None
            row = state.row
            now = time.time()
            if starting:
                if len(state.entrants) < 2:
                    db.execute(
                        tournaments_table.update()
                        .where(tournaments_table.c.id == tournament_id)
                        .values(status="finished", started=now, finished=now)
                    )
                    log.info("tournament %s: cancelled, fewer than 2 entrants", tournament_id)
                    return []
                rounds = row.rounds or min(swiss_rounds(len(state.entrants)), len(state.entrants) - 1) or 1
                db.execute(
                    tournaments_table.update()
                    .where(tournaments_table.c.id == tournament_id)
                    .values(
                        status="playing",
                        started=now,
                        rounds=rounds if row.kind == "swiss" else None,
                    )
                )
            elif row.kind == "elimination":
                replays = self._replays(db, state)
                if replays is not None:
                    return replays
            latest = state.latest(seen)
            if not all(p.done for p in latest):
                return []
            return self._next_round(db, state, seen)

    def _replays(self, db: sa.Connection, state: State) -> list[str] | None:
        """The replays of the round's drawn elimination games (seats swapped), if any is due."""
        made: list[str] = []
        row = state.row
        for p in state.latest(row.round):
            if p.done and not p.bye and p.winner() is None and p.attempt < MAX_REPLAYS:
                a, b = p.entrants
                # Seats swapped from the drawn game: neither entrant keeps the first seat.
                made.append(
                    self._make(db, state, (b, a), number=p.round, board=p.board, attempt=p.attempt + 1)
                )
        return made or None

    def _next_round(self, db: sa.Connection, state: State, seen: int) -> list[str]:
        """Pair round ``seen + 1``, or finish the tournament; the ids of the games made."""
        row = state.row
        number = seen + 1
        pairs: list[tuple[int, int]]
        bye: int | None
        if row.kind == "elimination":
            alive = self._alive(state, seen)
            if len(alive) == 1:
                return self._finish(db, state, alive[0])
            pairs, bye = elimination_round(alive, random.Random(f"{row.seed}/{number}"))
        else:
            if seen >= (row.rounds or 1):
                table = standings(*self._history(state))
                return self._finish(db, state, table[0].key if table else None)
            pairs, bye = swiss_round(*self._history(state))
        db.execute(tournaments_table.update().where(tournaments_table.c.id == row.id).values(round=number))
        made = [
            self._make(db, state, pair, number=number, board=board, attempt=1)
            for board, pair in enumerate(pairs, 1)
        ]
        if bye is not None:
            db.execute(
                pairings_table.insert().values(
                    tournament_id=row.id,
                    round=number,
                    board=len(pairs) + 1,
                    attempt=1,
                    entrants=json.dumps([bye]),
                    game_id=None,
                    created=time.time(),
                )
            )
        log.info("tournament %s: round %d paired (%d games)", row.id, number, len(made))
        return made

    def _alive(self, state: State, seen: int) -> list[int]:
        """The entrants still in after round ``seen`` of an elimination, by number."""
        if seen == 0:
            return [e.number for e in state.entrants]
        alive = []
        for p in state.latest(seen):
            if p.bye:
                alive.append(p.entrants[0])
            else:
                winner = p.winner()
                if winner is None:  # drawn MAX_REPLAYS times: the lot decides
                    winner = random.Random(f"{state.row.seed}/{seen}/{p.board}/lot").choice(p.entrants)
                alive.append(winner)
        return sorted(alive)

    @staticmethod
    def _history(state: State) -> tuple[list[int], list[SwissGame[int]], list[int]]:
        """A Swiss's entrants, finished games and byes, for :mod:`tussle.pairing`."""
        games: list[SwissGame[int]] = []
        byes: list[int] = []
        for p in state.pairings:
            if p.bye:
                byes.append(p.entrants[0])
                continue
            points = p.points()
            if points is not None:
                games.append(SwissGame(p.entrants[0], p.entrants[1], points[0]))
        return [e.number for e in state.entrants], games, byes

    def _finish(self, db: sa.Connection, state: State, champion: int | None) -> list[str]:
        db.execute(
            tournaments_table.update()
            .where(tournaments_table.c.id == state.row.id)
            .values(status="finished", champion=champion, finished=time.time())
        )
        log.info("tournament %s: finished, champion entrant %s", state.row.id, champion)
        return []

    def _make(
        self, db: sa.Connection, state: State, pair: Sequence[int], *, number: int, board: int, attempt: int
    ) -> str:
        """Make one pairing's game, in the step's transaction, and note it; its id."""
        row = state.row
        by_number = {e.number: e for e in state.entrants}
        seated = [by_number[n] for n in pair]
        options = dict(json.loads(row.options))
        for seat, e in enumerate(seated):
            if e.power is not None:
                options[seat_option(seat)] = e.power
        game = load_game(row.game, players=2, **options)
        seats = [
            Seat(s, "computer", e.agent, e.name, None)
            if e.account is None
            else Seat(s, "person", None, e.name, None, account=e.account)
            for s, e in enumerate(seated)
        ]
        game_id = self.store.create_game(
            row.game,
            game.non_default_options(),
            2,
            seats,
            seed=secrets.token_hex(16),
            clock=(row.clock_base, row.clock_increment),
            creator=f"tournament {row.id}"[:64],
            listed=True,
            rated=bool(row.rated),
            within=db,
        )
        db.execute(
            pairings_table.insert().values(
                tournament_id=row.id,
                round=number,
                board=board,
                attempt=attempt,
                entrants=json.dumps(list(pair)),
                game_id=game_id,
                created=time.time(),
            )
        )
        return game_id

    async def _start_games(self, game_ids_: Sequence[str]) -> None:
        """Let the games just made begin here: their chance dealt, computers woken, clocks armed."""
        for game_id in game_ids_:
            try:
                await self.hub.start(game_id)
            except HubError as exc:
                log.warning("tournament game %s: %s", game_id, exc)
        if game_ids_:
            self.service.feed.poke()

    def due(self) -> list[tuple[str, int, bool]]:
        """The tournaments with a step to take: (id, round, starting), and the unfinished games of
        the rounds being played (to hold here: a process that made them may have gone)."""
        t = tournaments_table.c
        now = time.time()
        with self.store.engine.connect() as db:
            rows = db.execute(
                sa.select(t.id, t.round, t.status, t.kind).where(
                    sa.or_(t.status == "playing", sa.and_(t.status == "registering", t.starts_at <= now))
                )
            ).all()
            out: list[tuple[str, int, bool]] = []
            for r in rows:
                if r.status == "registering":
                    out.append((r.id, 0, True))
                    continue
                state = _read(db, r.id)
                if state is None:
                    continue
                latest = state.latest(r.round)
                drawn = r.kind == "elimination" and any(
                    p.done and not p.bye and p.winner() is None and p.attempt < MAX_REPLAYS for p in latest
                )
                if drawn or all(p.done for p in latest):
                    out.append((r.id, r.round, False))
        return out

    def _unfinished(self) -> list[str]:
        p, g, t = pairings_table.c, games_table.c, tournaments_table.c
        with self.store.engine.connect() as db:
            rows = db.execute(
                sa.select(p.game_id)
                .select_from(
                    pairings_table.join(tournaments_table, t.id == p.tournament_id).join(
                        games_table, g.id == p.game_id
                    )
                )
                .where(t.status == "playing", p.round == t.round, g.status != "finished")
            ).all()
        return [str(r.game_id) for r in rows]

    async def tick(self) -> None:
        """Take every step that is due, and hold every unfinished game of a round being played."""
        for tournament_id, seen, starting in await asyncio.to_thread(self.due):
            made = await asyncio.to_thread(self._step, tournament_id, seen, starting)
            if made:
                await self._start_games(made)
        for game_id in await asyncio.to_thread(self._unfinished):
            if game_id not in self.hub.live:
                # Made by a process that went away before it began it (or before a restart).
                await self._start_games([game_id])

    def game_finished(self) -> None:
        """Called (from any thread) when a game finishes here: look at the tournaments soon."""
        loop = self._loop
        if loop is not None:
            # The hook runs inside the finishing transaction: look a moment later, once it has committed.
            loop.call_soon_threadsafe(loop.call_later, 0.2, self._wake.set)

    _loop: asyncio.AbstractEventLoop | None = None

    async def run(self, every: float = TICK) -> None:
        """Forever: take the tournaments' due steps, every ``every`` seconds or when woken."""
        self._loop = asyncio.get_running_loop()
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), every)
            self._wake.clear()
            try:
                await self.tick()
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # the database went away a moment: try again next time
                log.warning("tournaments: %s", exc)

    # --- reading -----------------------------------------------------------------------------

    def _state(self, tournament_id: str) -> State | None:
        with self.store.engine.connect() as db:
            return _read(db, tournament_id)

    async def listing(self) -> dict[str, Any]:
        """The tournaments registering, being played and finished (the latest first, each list bounded)."""
        return await asyncio.to_thread(self._listing)

    def _listing(self) -> dict[str, Any]:
        t, e = tournaments_table.c, entrants_table.c
        counts = sa.select(e.tournament_id, sa.func.count().label("n")).group_by(e.tournament_id).subquery()
        out: dict[str, Any] = {}
        with self.store.engine.connect() as db:
            for status in ("registering", "playing", "finished"):
                rows = db.execute(
                    sa.select(tournaments_table, sa.func.coalesce(counts.c.n, 0).label("entrants"))
                    .outerjoin(counts, counts.c.tournament_id == t.id)
                    .where(t.status == status)
                    .order_by(t.created.desc())
                    .limit(LIST_LIMIT)
                ).all()
                out[status] = [{**_summary(r), "entrants": int(r.entrants)} for r in rows]
        return out

    async def view(self, tournament_id: str, account: AccountLike | None = None) -> dict[str, Any]:
        """A tournament whole: entrants, rounds with their games and results, standings or bracket,
        the champion; and, for a signed-in account, its entrant and its game in progress."""
        state = await asyncio.to_thread(self._state, tournament_id) if len(tournament_id) <= 36 else None
        if state is None:
            raise UnknownTournamentError(f"no tournament {shorten(tournament_id)}")
        return describe(state, account.id if account is not None else None)


def _power(power: str | None, powers: Sequence[str], game: str) -> str | None:
    """An entrant's power as stored (None for none), or a one-line refusal."""
    if power is None or power == "none":
        return None
    if power not in powers:
        known = f" (powers: {', '.join(powers)})" if powers else ""
        raise TournamentError(f"{shorten(power)} is not a power of {game}{known}")
    return power


def _summary(row: Any) -> dict[str, Any]:
    return {
        "id": row.id,
        "name": row.name,
        "game": row.game,
        "game_name": game_info(row.game).name if row.game in game_ids() else row.game,
        "kind": row.kind,
        "status": row.status,
        "round": row.round,
        "rounds": row.rounds,
        "clock": {"minutes": row.clock_base / 60.0, "increment": row.clock_increment},
        "rated": bool(row.rated),
        "max_entrants": row.max_entrants,
        "starts_at": row.starts_at,
        "maker": row.maker_name,
        "created": round(row.created, 3),
        "started": row.started,
        "finished": row.finished,
    }


def describe(state: State, account: str | None = None) -> dict[str, Any]:
    """The tournament's JSON (``GET /api/tournaments/{id}``)."""
    row = state.row
    rounds: list[dict[str, Any]] = []
    for number in range(1, row.round + 1):
        boards: dict[int, list[Pairing]] = {}
        for p in state.of_round(number):
            boards.setdefault(p.board, []).append(p)
        rounds.append(
            {
                "round": number,
                "boards": [
                    {
                        "board": board,
                        "entrants": list(games[-1].entrants),
                        "bye": games[-1].bye,
                        "winner": _board_winner(state, games),
                        "games": [
                            {
                                "attempt": g.attempt,
                                "id": g.game_id,
                                "seats": list(g.entrants),
                                "status": g.status,
                                "points": list(g.points() or []) or None,
                                "reason": (g.result or {}).get("reason"),
                                "termination": (g.result or {}).get("termination"),
                            }
                            for g in games
                            if not g.bye
                        ],
                    }
                    for board, games in sorted(boards.items())
                ],
            }
        )
    out = _summary(row)
    n = len(state.entrants)
    if row.kind == "elimination" and out["rounds"] is None and n >= 2:
        out["rounds"] = math.ceil(math.log2(n))
    out.update(
        entrants=[e.to_json() for e in state.entrants],
        rounds_played=rounds,
        champion=row.champion,
        cancelled=row.status == "finished" and row.round == 0,
        options=json.loads(row.options),
        powers=list(known_powers(row.game)),
    )
    if row.kind == "swiss":
        table = standings(*Tournaments._history(state))
        out["standings"] = [
            {
                "entrant": s.key,
                "rank": s.rank,
                "points": s.points,
                "buchholz": s.buchholz,
                "wins": s.wins,
                "byes": s.byes,
                "opponents": list(s.opponents),
            }
            for s in table
        ]
        out["tiebreak"] = "buchholz, then wins, then registration order"
    if account is not None:
        mine = next((e.number for e in state.entrants if e.account == account), None)
        playing = None
        if mine is not None:
            playing = next(
                (
                    p.game_id
                    for p in state.latest(row.round)
                    if mine in p.entrants and not p.bye and p.status != "finished"
                ),
                None,
            )
        out["you"] = {"entrant": mine, "game": playing, "maker": row.maker == account}
    return out


def _board_winner(state: State, games: list[Pairing]) -> int | None:
    last = games[-1]
    if last.bye:
        return last.entrants[0]
    if state.row.kind == "swiss":
        return last.winner()
    winner = last.winner()
    if winner is None and last.done and last.attempt >= MAX_REPLAYS:
        return random.Random(f"{state.row.seed}/{last.round}/{last.board}/lot").choice(last.entrants)
    return winner
