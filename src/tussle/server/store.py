"""Where the server keeps its games: SQLite by default, PostgreSQL by URL, through SQLAlchemy.

Every game is a row of ``games`` (what it is: game id, options, players,
status, result), a row of ``seats`` per seat (who sits there: a person, a
computer agent or nobody yet, and the hash of the seat's secret token), and a
row of ``events`` per event, in order. The events are the game: a state is
rebuilt by replaying them through the rules, so nothing else needs storing, and
an event is committed before anybody hears of it (nothing acknowledged is lost
when the server is killed).

The schema is versioned by Alembic migrations (``tussle/server/migrations``);
opening a store upgrades an older database to the current schema.

>>> store = Store.open("sqlite://")
>>> seats = [Seat(0, "person", None, "Ann", "h0"), Seat(1, "open", None, "", None)]
>>> game = store.create_game("fite", {}, 2, seats, seed="s")
>>> store.add_events(game, 0, [(0, "tac 5")])
>>> [e.action for e in store.events(game)]
['tac 5']
"""

from __future__ import annotations

import contextlib
import datetime
import json
import re
import secrets
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from tussle.errors import TussleError

metadata = sa.MetaData()


#: An account's id: a UUID (native on PostgreSQL, 32 hex digits on SQLite).
GUID = sa.Uuid


class AccountBase(DeclarativeBase):
    """The accounts' tables, mapped for fastapi-users (which reads and writes them as objects), in
    the same schema as the games' tables. Their columns are those fastapi-users' SQLAlchemy adapter
    reads, declared here so that the store (and the service above it) import no web framework."""

    metadata = metadata


class AccountRow(AccountBase):
    """An account: the columns fastapi-users manages (email, Argon2 hash, flags) and tussle's own."""

    __tablename__ = "accounts"

    if TYPE_CHECKING:  # as fastapi-users' protocol of a user reads them (plain attributes)
        id: uuid.UUID
        email: str
        hashed_password: str
        is_active: bool
        is_superuser: bool
        is_verified: bool
    else:
        id: Mapped[uuid.UUID] = mapped_column(sa.Uuid, primary_key=True, default=uuid.uuid4)
        email: Mapped[str] = mapped_column(sa.String(320), unique=True, index=True, nullable=False)
        hashed_password: Mapped[str] = mapped_column(sa.String(1024), nullable=False)
        is_active: Mapped[bool] = mapped_column(sa.Boolean, default=True, nullable=False)
        is_superuser: Mapped[bool] = mapped_column(sa.Boolean, default=False, nullable=False)
        is_verified: Mapped[bool] = mapped_column(sa.Boolean, default=False, nullable=False)

    name: Mapped[str] = mapped_column(sa.String(20), nullable=False)
    """The display name, as its owner spelled it."""
    name_key: Mapped[str] = mapped_column(sa.String(20), nullable=False, unique=True, index=True)
    """The name in lower case: no two accounts have names that differ only in case."""
    bot: Mapped[bool] = mapped_column(sa.Boolean, nullable=False, default=False)
    """A program's account, marked as such wherever its name is shown."""
    created: Mapped[float] = mapped_column(sa.Float, nullable=False, default=time.time)


def _utc_now() -> datetime.datetime:
    return datetime.datetime.now(datetime.UTC)


class SessionRow(AccountBase):
    """A browser's sign-in (the session cookie's token, hashed)."""

    __tablename__ = "sessions"

    # The SHA-256 of the token (64 hex digits), never the token itself.
    token: Mapped[str] = mapped_column(sa.String(64), primary_key=True)
    created_at: Mapped[datetime.datetime] = mapped_column(
        sa.DateTime(timezone=True), index=True, nullable=False, default=_utc_now
    )
    user_id: Mapped[uuid.UUID] = mapped_column(
        sa.Uuid, sa.ForeignKey("accounts.id", ondelete="cascade"), nullable=False, index=True
    )


class ApiTokenRow(AccountBase):
    """A program's API token (hashed), sent as ``Authorization: Bearer <token>``."""

    __tablename__ = "api_tokens"

    token: Mapped[str] = mapped_column(sa.String(64), primary_key=True)
    created_at: Mapped[datetime.datetime] = mapped_column(
        sa.DateTime(timezone=True), index=True, nullable=False, default=_utc_now
    )
    user_id: Mapped[uuid.UUID] = mapped_column(
        sa.Uuid, sa.ForeignKey("accounts.id", ondelete="cascade"), nullable=False, index=True
    )


server_keys_table = sa.Table(
    "server_keys",
    metadata,
    sa.Column("name", sa.String(32), primary_key=True),
    sa.Column("value", sa.String(128), nullable=False),  # never sent to a client
)

accounts_table: sa.Table = AccountRow.__table__  # type: ignore[assignment]

ratings_table = sa.Table(
    "ratings",
    metadata,
    sa.Column("account_id", GUID(), sa.ForeignKey("accounts.id"), primary_key=True),
    sa.Column("game", sa.String(64), primary_key=True),
    sa.Column("mu", sa.Float, nullable=False),  # openskill's estimate of the account's skill
    sa.Column("sigma", sa.Float, nullable=False),  # and its uncertainty
    sa.Column("games", sa.Integer, nullable=False),  # rated games played at this game
    sa.Column("updated", sa.Float, nullable=False),
    sa.Index("ix_ratings_game_mu", "game", "mu"),
)

rating_history_table = sa.Table(
    "rating_history",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("account_id", GUID(), sa.ForeignKey("accounts.id"), nullable=False),
    sa.Column("game", sa.String(64), nullable=False),
    sa.Column("game_id", sa.String(36), sa.ForeignKey("games.id"), nullable=False),
    sa.Column("mu", sa.Float, nullable=False),  # after that game
    sa.Column("sigma", sa.Float, nullable=False),
    sa.Column("at", sa.Float, nullable=False),
    sa.Index("ix_rating_history_account_game", "account_id", "game", "id"),
)

games_table = sa.Table(
    "games",
    metadata,
    sa.Column("id", sa.String(36), primary_key=True),
    sa.Column("game", sa.String(64), nullable=False),
    sa.Column("options", sa.Text, nullable=False),
    sa.Column("players", sa.Integer, nullable=False),
    sa.Column("status", sa.String(16), nullable=False),  # waiting, playing, finished
    sa.Column("result", sa.Text, nullable=True),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("rematch_of", sa.String(36), nullable=True),
    sa.Column("seed", sa.String(64), nullable=False),
    sa.Column("clock_base", sa.Float, nullable=True),  # seconds each player has, or None: no clock
    sa.Column("clock_increment", sa.Float, nullable=True),  # seconds added after each of a player's moves
    # True: clock_base is the time each move may take (a correspondence game), given again at each move.
    sa.Column("clock_per_move", sa.Boolean, nullable=True),
    sa.Column("started", sa.Float, nullable=True),  # when the last seat was taken and play began
    sa.Column("creator", sa.String(64), nullable=True),  # the client that made it (its address)
    # A hot-seat game's table handle (its SHA-256): it opens, at one screen, the person seat to act.
    sa.Column("table_hash", sa.String(64), nullable=True),
    # A standing draw offer: its seat, and the number of events when it was made (it lapses once
    # the other player acts after it).
    sa.Column("offer_seat", sa.Integer, nullable=True),
    sa.Column("offer_events", sa.Integer, nullable=True),
    # Made for anyone (an open seat, "play anyone now"): listed among the games being played, to watch.
    sa.Column("listed", sa.Boolean, nullable=True),
    # A rated game: its result changes its accounts' ratings (None or false: casual).
    sa.Column("rated", sa.Boolean, nullable=True),
    sa.Index("ix_games_creator_status", "creator", "status"),
    sa.Index("ix_games_table_hash", "table_hash"),
)

seats_table = sa.Table(
    "seats",
    metadata,
    sa.Column("game_id", sa.String(36), sa.ForeignKey("games.id"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    # person, computer, open (anyone's), invite (kept for whoever holds its invite secret, whose
    # hash token_hash holds until it is taken), reserved (for a player of the game it rematches)
    sa.Column("kind", sa.String(16), nullable=False),
    sa.Column("agent", sa.String(200), nullable=True),
    sa.Column("name", sa.String(100), nullable=False),
    sa.Column("token_hash", sa.String(64), nullable=True, index=True),
    # A seat a join took ("joining") until its token's first use: when, and what it was before.
    sa.Column("joined_at", sa.Float, nullable=True),
    sa.Column("prior_kind", sa.String(16), nullable=True),
    sa.Column("prior_hash", sa.String(64), nullable=True),
    # When a server process last held a connection of this seat's player (renewed while it lasts).
    sa.Column("seen_at", sa.Float, nullable=True),
    # The account that plays the seat (None: a guest, a computer, nobody yet).
    sa.Column("account_id", GUID(), sa.ForeignKey("accounts.id"), nullable=True, index=True),
)

leases_table = sa.Table(
    "leases",
    metadata,
    sa.Column("game_id", sa.String(36), sa.ForeignKey("games.id"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("number", sa.Integer, nullable=False),  # the position: the number of events it follows
    sa.Column("holder", sa.String(32), nullable=False),  # the process computing the move (its origin)
    sa.Column("until", sa.Float, nullable=False),
)

events_table = sa.Table(
    "events",
    metadata,
    sa.Column("game_id", sa.String(36), sa.ForeignKey("games.id"), primary_key=True),
    sa.Column("number", sa.Integer, primary_key=True),
    sa.Column("player", sa.Integer, nullable=False),  # -1: chance
    sa.Column("action", sa.Text, nullable=False),
    sa.Column("at", sa.Float, nullable=False),
)


chat_table = sa.Table(
    "chat",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),  # orders a game's messages
    sa.Column("game_id", sa.String(36), sa.ForeignKey("games.id"), nullable=False),
    sa.Column("room", sa.String(16), nullable=False),  # players or spectators
    sa.Column("seat", sa.Integer, nullable=True),  # the writer's seat; None: a spectator
    sa.Column("name", sa.String(100), nullable=False),
    sa.Column("at", sa.Float, nullable=False),
    sa.Column("text", sa.Text, nullable=False),
    sa.Index("ix_chat_game_room_id", "game_id", "room", "id"),
)

#: How many messages the store keeps of each game's room (the older ones are deleted).
CHAT_KEEP = 200

#: What a game's id looks like (a UUID, as :meth:`Store.create_game` makes them): anything else is no game.
GAME_ID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


def is_game_id(text: str) -> bool:
    """Whether ``text`` has the shape of a game id (so that a lookup of anything else costs nothing).

    >>> is_game_id(str(uuid.UUID(int=7))), is_game_id("../../etc/passwd"), is_game_id("x" * 64000)
    (True, False, False)
    """
    return len(text) == 36 and GAME_ID.fullmatch(text) is not None


#: The PostgreSQL channel on which a server process announces a game's new events to the others.
CHANNEL = "tussle_events"

#: The PostgreSQL advisory lock a seek holds while it pairs or makes a game ("seek" in ASCII).
SEEK_LOCK = 0x7365656B

#: Seats a game waits for before it starts: open to anyone, kept for whoever holds an invite,
#: kept for a player of the game it rematches, or taken by a join whose token was not used yet.
WAITING_KINDS = ("open", "invite", "reserved", "joining")


#: What :attr:`Store.finish_hooks` hold: called with the finishing transaction, the game's row,
#: its seats and its result.
FinishHook = Callable[[sa.Connection, "GameRow", list["Seat"], dict[str, Any]], None]


class StoreError(TussleError):
    """The database cannot be opened or refused a write."""


class EventClashError(StoreError):
    """An event was written for a place in a game that another write took first."""


@dataclass(frozen=True)
class Seat:
    seat: int
    kind: str
    agent: str | None
    name: str
    token_hash: str | None
    seen_at: float | None = field(default=None, compare=False)
    """When a server process last held a connection of this seat's player (None: never)."""
    account: str | None = field(default=None, compare=False)
    """The id of the account that plays the seat (None: a guest, a computer, nobody yet)."""
    bot: bool = field(default=False, compare=False)
    """The seat's account is a program's (marked as such wherever its name is shown)."""


@dataclass(frozen=True)
class GameRow:
    id: str
    game: str
    options: dict[str, Any]
    players: int
    status: str
    result: dict[str, Any] | None
    created: float
    rematch_of: str | None
    seed: str
    """Drives the game's chance events; never sent to a client."""
    clock: tuple[float, float] | None = None
    """Seconds each player has, and seconds added after each of their moves (None: no clock)."""
    started: float | None = None
    table: bool = False
    """A hot-seat game: its person seats are played at one screen, through the table handle."""
    clock_per_move: bool = False
    """The clock's base is the time each move may take, given again at each move (days a move)."""
    offer: tuple[int, int] | None = None
    """A standing draw offer: the seat that made it, and how many events the game had then."""
    listed: bool = False
    """Made for anyone (an open seat): listed among the games being played, for anyone to watch."""
    rated: bool = False
    """A rated game: its result changes its accounts' ratings."""


@dataclass(frozen=True)
class Event:
    number: int
    player: int
    action: str


@dataclass(frozen=True)
class ChatLine:
    """A chat message as stored: who wrote it (a seat and its name, or a spectator), when, and what."""

    id: int
    room: str
    seat: int | None
    name: str
    at: float
    text: str

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "seat": self.seat,
            "name": self.name,
            "at": round(self.at, 3),
            "text": self.text,
        }


def _row(row: Any) -> GameRow:
    return GameRow(
        row.id,
        row.game,
        json.loads(row.options),
        row.players,
        row.status,
        json.loads(row.result) if row.result else None,
        row.created,
        row.rematch_of,
        row.seed,
        (row.clock_base, row.clock_increment or 0.0) if row.clock_base is not None else None,
        row.started,
        row.table_hash is not None,
        clock_per_move=bool(row.clock_per_move),
        offer=(row.offer_seat, row.offer_events) if row.offer_seat is not None else None,
        listed=bool(row.listed),
        rated=bool(row.rated),
    )


def _seat(r: Any) -> Seat:
    return Seat(
        r.seat,
        r.kind,
        r.agent,
        r.name,
        r.token_hash,
        r.seen_at,
        str(r.account_id) if r.account_id is not None else None,
        bool(getattr(r, "bot", False)),
    )


def _seats_query() -> sa.Select[Any]:
    """Seats with whether their account is a program's."""
    return sa.select(seats_table, accounts_table.c.bot).outerjoin(
        accounts_table, accounts_table.c.id == seats_table.c.account_id
    )


class Store:
    """The games of one server, in one database (any SQLAlchemy URL; SQLite and PostgreSQL tested)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        #: Tells this store's own announcements from other processes' (see :data:`CHANNEL`).
        self.origin = uuid.uuid4().hex[:12]
        #: Called in the transaction that finishes a game, once per game, with its row, seats and
        #: result (the ratings' update): what they write commits with the result.
        self.finish_hooks: list[FinishHook] = []

    @classmethod
    def open(cls, url: str) -> Store:
        """Connect to ``url`` and bring its schema up to date (creating it in an empty database)."""
        try:
            engine = sa.create_engine(_driver(url), future=True)
            if engine.dialect.name == "sqlite":
                _sqlite_pragmas(engine)
            upgrade(engine)
        except sa.exc.SQLAlchemyError as exc:
            raise StoreError(f"cannot open the database {_safe_url(url)}: {_first_line(exc)}") from None
        return cls(engine)

    # --- games and seats -------------------------------------------------------------

    def create_game(
        self,
        game: str,
        options: dict[str, Any],
        players: int,
        seats: Sequence[Seat],
        *,
        seed: str,
        rematch_of: str | None = None,
        clock: tuple[float, float] | None = None,
        clock_per_move: bool = False,
        creator: str | None = None,
        table_hash: str | None = None,
        listed: bool = False,
        rated: bool = False,
        within: sa.Connection | None = None,
    ) -> str:
        """A new game with its seats; returns its id.

        ``creator``: the client that asked for it; ``table_hash``: a hot-seat game's table handle's hash;
        ``clock_per_move``: the clock's base is each move's time, not the whole game's; ``listed``:
        made for anyone, so listed among the games being played; ``rated``: its result changes its
        accounts' ratings; ``within``: a transaction to make it in (else one of its own).
        """
        game_id = str(uuid.uuid4())
        status = "waiting" if any(s.kind in WAITING_KINDS for s in seats) else "playing"
        with contextlib.nullcontext(within) if within is not None else self.engine.begin() as db:
            db.execute(
                games_table.insert().values(
                    id=game_id,
                    game=game,
                    options=json.dumps(options, sort_keys=True),
                    players=players,
                    status=status,
                    result=None,
                    created=time.time(),
                    rematch_of=rematch_of,
                    seed=seed,
                    clock_base=clock[0] if clock else None,
                    clock_increment=clock[1] if clock else None,
                    clock_per_move=bool(clock and clock_per_move),
                    started=None if status == "waiting" else time.time(),
                    creator=creator,
                    table_hash=table_hash,
                    listed=listed,
                    rated=rated,
                )
            )
            db.execute(
                seats_table.insert(),
                [
                    {
                        "game_id": game_id,
                        "seat": s.seat,
                        "kind": s.kind,
                        "agent": s.agent,
                        "name": s.name,
                        "token_hash": s.token_hash,
                        "account_id": _guid(s.account),
                    }
                    for s in seats
                ],
            )
        return game_id

    def game(self, game_id: str) -> GameRow | None:
        with self.engine.connect() as db:
            row = db.execute(sa.select(games_table).where(games_table.c.id == game_id)).first()
        return _row(row) if row is not None else None

    def seats(self, game_id: str) -> list[Seat]:
        with self.engine.connect() as db:
            rows = db.execute(
                _seats_query().where(seats_table.c.game_id == game_id).order_by(seats_table.c.seat)
            ).all()
        return [_seat(r) for r in rows]

    def seats_of_games(self, game_ids: Sequence[str]) -> dict[str, list[Seat]]:
        """The seats of several games, in one query, by game."""
        if not game_ids:
            return {}
        with self.engine.connect() as db:
            rows = db.execute(
                _seats_query()
                .where(seats_table.c.game_id.in_(list(game_ids)))
                .order_by(seats_table.c.game_id, seats_table.c.seat)
            ).all()
        out: dict[str, list[Seat]] = {}
        for r in rows:
            out.setdefault(str(r.game_id), []).append(_seat(r))
        return out

    def seat_of(self, token_hash: str) -> tuple[str, int] | None:
        """The game and person seat a token's hash opens, if any (an invite's secret opens none)."""
        with self.engine.connect() as db:
            row = db.execute(
                sa.select(seats_table.c.game_id, seats_table.c.seat).where(
                    seats_table.c.token_hash == token_hash, seats_table.c.kind.in_(("person", "joining"))
                )
            ).first()
        return (row.game_id, row.seat) if row is not None else None

    def table_of(self, table_hash: str) -> str | None:
        """The hot-seat game a table handle's hash opens, if any."""
        with self.engine.connect() as db:
            query = sa.select(games_table.c.id).where(games_table.c.table_hash == table_hash)
            row = db.execute(query).first()
        return row.id if row is not None else None

    def invited_seat(self, game_id: str, invite_hash: str) -> int | None:
        """The invite seat of ``game_id`` that an invite secret's hash keeps, if it is still to be taken."""
        with self.engine.connect() as db:
            row = db.execute(
                sa.select(seats_table.c.seat).where(
                    seats_table.c.game_id == game_id,
                    seats_table.c.kind == "invite",
                    seats_table.c.token_hash == invite_hash,
                )
            ).first()
        return row.seat if row is not None else None

    def take_seat(
        self,
        game_id: str,
        seat: int,
        name: str,
        token_hash: str,
        *,
        kind: str = "open",
        invite_hash: str | None = None,
        account: str | None = None,
    ) -> bool:
        """Give a seat of ``kind`` to a person; False if it is not that (or is taken already).

        ``kind``: open, reserved (for a rematch), or invite, taken only with the
        hash of its secret (``invite_hash``), which stops opening it once it is taken.
        The seat is ``joining`` until its token is first used (:meth:`confirm_seat`): a join
        whose answer was lost holds it only until :meth:`free_unconfirmed` gives it back.
        ``account``: the account that takes it (an open seat of a rated game: only one that has no
        other seat in the game).
        """
        with self.engine.begin() as db:
            update = seats_table.update().where(
                seats_table.c.game_id == game_id, seats_table.c.seat == seat, seats_table.c.kind == kind
            )
            if kind == "invite":
                update = update.where(seats_table.c.token_hash == invite_hash)
            if account is not None:
                update = update.where(~_has_seat(game_id, account))
            taken = db.execute(
                update.values(
                    kind="joining",
                    token_hash=token_hash,
                    joined_at=time.time(),
                    prior_kind=kind,
                    prior_hash=invite_hash,
                    **({"name": name} if kind in ("open", "invite") else {}),
                    **({"account_id": _guid(account)} if account is not None else {}),
                )
            ).rowcount
            if taken:
                self._notify(db, game_id)
        return bool(taken)

    def confirm_seat(self, token_hash: str) -> str | None:
        """A joining seat's token was used: the seat is its person's for good, and the game starts
        when no seat waits. The game's id, or None if the token opens no joining seat."""
        with self.engine.begin() as db:
            row = db.execute(
                sa.select(seats_table.c.game_id).where(
                    seats_table.c.token_hash == token_hash, seats_table.c.kind == "joining"
                )
            ).first()
            if row is None:
                return None
            db.execute(
                seats_table.update()
                .where(seats_table.c.token_hash == token_hash, seats_table.c.kind == "joining")
                .values(kind="person", joined_at=None, prior_kind=None, prior_hash=None)
            )
            self._start_if_full(db, row.game_id)
            self._notify(db, row.game_id)
        return str(row.game_id)

    def free_unconfirmed(self, before: float) -> list[str]:
        """Give back the seats joined before ``before`` whose token was never used; their games' ids."""
        with self.engine.begin() as db:
            rows = db.execute(
                sa.select(seats_table).where(
                    seats_table.c.kind == "joining", seats_table.c.joined_at < before
                )
            ).all()
            for row in rows:
                db.execute(
                    seats_table.update()
                    .where(
                        seats_table.c.game_id == row.game_id,
                        seats_table.c.seat == row.seat,
                        seats_table.c.kind == "joining",
                    )
                    .values(
                        kind=row.prior_kind or "open",
                        token_hash=row.prior_hash,
                        joined_at=None,
                        prior_kind=None,
                        prior_hash=None,
                        **({"name": ""} if (row.prior_kind or "open") == "open" else {}),
                        # A seat an account joined is nobody's again (a reserved one stays its player's).
                        **({"account_id": None} if row.prior_kind in ("open", "invite", None) else {}),
                    )
                )
                self._notify(db, row.game_id)
        return sorted({str(r.game_id) for r in rows})

    def _start_if_full(self, db: sa.Connection, game_id: str) -> None:
        still_waiting = db.execute(
            sa.select(sa.func.count())
            .select_from(seats_table)
            .where(seats_table.c.game_id == game_id, seats_table.c.kind.in_(WAITING_KINDS))
        ).scalar_one()
        if not still_waiting:
            db.execute(
                games_table.update()
                .where(games_table.c.id == game_id, games_table.c.status == "waiting")
                .values(status="playing", started=time.time())
            )

    def _notify(self, db: sa.Connection, game_id: str, what: str = "") -> None:
        """Tell the other server processes on this database that ``game_id`` changed (on commit);
        ``what``: ``chat`` for a new chat message (else its events, seats or row)."""
        if self.engine.dialect.name == "postgresql":
            payload = f"{game_id} {self.origin}" + (f" {what}" if what else "")
            db.execute(sa.select(sa.func.pg_notify(CHANNEL, payload)))

    # --- chat ---------------------------------------------------------------------------

    def add_chat(self, game_id: str, room: str, seat: int | None, name: str, text: str) -> int:
        """Store a chat message of ``room`` and keep only the room's last :data:`CHAT_KEEP`; its id.

        Every process on the database hears of it (see :meth:`_notify`). StoreError if the
        database refused it (nothing was stored).
        """
        try:
            return self._add_chat(game_id, room, seat, name, text)
        except sa.exc.DBAPIError as exc:
            why = _first_line(exc)
            raise StoreError(f"the server could not store the message ({why}); nothing was sent") from None

    def _add_chat(self, game_id: str, room: str, seat: int | None, name: str, text: str) -> int:
        with self.engine.begin() as db:
            inserted = db.execute(
                chat_table.insert().values(
                    game_id=game_id, room=room, seat=seat, name=name, at=time.time(), text=text
                )
            )
            key = inserted.inserted_primary_key
            assert key is not None
            oldest_kept = db.execute(
                sa.select(chat_table.c.id)
                .where(chat_table.c.game_id == game_id, chat_table.c.room == room)
                .order_by(chat_table.c.id.desc())
                .offset(CHAT_KEEP - 1)
                .limit(1)
            ).scalar()
            if oldest_kept is not None:
                db.execute(
                    chat_table.delete().where(
                        chat_table.c.game_id == game_id,
                        chat_table.c.room == room,
                        chat_table.c.id < oldest_kept,
                    )
                )
            self._notify(db, game_id, "chat")
        return int(key[0])

    def chat(self, game_id: str, room: str | None = None, limit: int = CHAT_KEEP) -> list[ChatLine]:
        """The last ``limit`` chat messages of a game's ``room`` (None: of both rooms), oldest first."""
        query = sa.select(chat_table).where(chat_table.c.game_id == game_id)
        if room is not None:
            query = query.where(chat_table.c.room == room)
        with self.engine.connect() as db:
            rows = db.execute(query.order_by(chat_table.c.id.desc()).limit(limit)).all()
        return [ChatLine(r.id, r.room, r.seat, r.name, r.at, r.text) for r in reversed(rows)]

    # --- computer moves -----------------------------------------------------------------

    def take_lease(self, game_id: str, seat: int, number: int, seconds: float) -> bool:
        """Whether this process may compute ``seat``'s move after event ``number`` (for ``seconds``).

        Exactly one process gets it: the lease is taken only if nobody holds it, its
        holder's time ran out (the process died), or it was for an earlier position. A
        process behind the store (an event after ``number`` is stored, or a lease is held
        for a later position) gets no lease: its move could only be thrown away.
        """
        now = time.time()
        with self.engine.connect() as db:
            moved_on = db.execute(
                sa.select(events_table.c.number)
                .where(events_table.c.game_id == game_id, events_table.c.number >= number)
                .limit(1)
            ).first()
        if moved_on is not None:
            return False
        values = {
            "game_id": game_id,
            "seat": seat,
            "number": number,
            "holder": self.origin,
            "until": now + seconds,
        }
        insert = (
            postgresql_insert(leases_table)
            if self.engine.dialect.name == "postgresql"
            else sqlite_insert(leases_table)
        )
        stale = sa.or_(leases_table.c.until < now, leases_table.c.number < number)
        statement = insert.values(**values).on_conflict_do_update(
            index_elements=["game_id", "seat"],
            set_={"number": number, "holder": self.origin, "until": now + seconds},
            where=stale,
        )
        with self.engine.begin() as db:
            db.execute(statement)
            holder = db.execute(
                sa.select(leases_table.c.holder, leases_table.c.number).where(
                    leases_table.c.game_id == game_id, leases_table.c.seat == seat
                )
            ).one()
        return bool(holder.holder == self.origin and holder.number == number)

    def open_games(self, limit: int = 100) -> list[GameRow]:
        """Games waiting for players, newest first."""
        with self.engine.connect() as db:
            rows = db.execute(
                sa.select(games_table)
                .where(games_table.c.status == "waiting")
                .order_by(games_table.c.created.desc())
                .limit(limit)
            ).all()
        return [_row(r) for r in rows]

    def seek(
        self,
        game: str,
        options: dict[str, Any],
        seats: Sequence[Seat],
        mine: int,
        *,
        seed: str,
        clock: tuple[float, float] | None = None,
        clock_per_move: bool = False,
        creator: str | None = None,
        name: str = "",
        rated: bool = False,
    ) -> tuple[str, int, bool]:
        """Play anyone now: take an open seat of the oldest lobby game of ``game`` with the same
        ``options``, number of seats and clock, or else make one with ``seats`` (``mine`` is the
        seeker's, holding its token's hash and account; the others open; ``name``: the seeker's, if it
        joins a game; ``rated``: only a rated game, which never pairs an account with itself).
        (game id, seat, whether it was made).

        One seek at a time on the whole database (a write lock on SQLite, an advisory lock on
        PostgreSQL, held until the seat is taken or the game made): two people who seek the same at
        once are paired, never left waiting in two games. A seat taken is ``joining``, as by
        :meth:`take_seat`.
        """
        g, c = games_table.c, seats_table.c
        clock_matches = (
            [g.clock_base.is_(None)]
            if clock is None
            else [
                g.clock_base == clock[0],
                sa.func.coalesce(g.clock_increment, 0.0) == clock[1],
                sa.func.coalesce(g.clock_per_move, False) == clock_per_move,
            ]
        )
        open_seat = (
            sa.select(sa.func.min(c.seat))
            .where(c.game_id == g.id, c.kind == "open")
            .correlate(games_table)
            .scalar_subquery()
        )
        oldest = (
            sa.select(g.id, open_seat.label("seat"))
            .where(
                g.status == "waiting",
                g.game == game,
                g.options == json.dumps(options, sort_keys=True),
                g.players == len(seats),
                g.table_hash.is_(None),
                open_seat.is_not(None),
                sa.func.coalesce(g.rated, False) == rated,
                *clock_matches,
                *([~_has_seat(g.id, seeker)] if (seeker := seats[mine].account) is not None else []),
            )
            .order_by(g.created, g.id)
            .limit(1)
        )
        with self.engine.begin() as db:
            if self.engine.dialect.name == "postgresql":
                db.execute(sa.select(sa.func.pg_advisory_xact_lock(SEEK_LOCK)))
            else:
                # A write that changes nothing takes SQLite's one write lock now, before the search
                # reads (a read first could not be upgraded once another seek has written).
                db.execute(games_table.update().where(g.id == "").values(status=g.status))
            found = db.execute(oldest).first()
            if found is None:
                made = self.create_game(
                    game,
                    options,
                    len(seats),
                    seats,
                    seed=seed,
                    clock=clock,
                    clock_per_move=clock_per_move,
                    creator=creator,
                    listed=True,
                    rated=rated,
                    within=db,
                )
                return made, mine, True
            db.execute(
                seats_table.update()
                .where(c.game_id == found.id, c.seat == found.seat, c.kind == "open")
                .values(
                    kind="joining",
                    token_hash=seats[mine].token_hash,
                    name=name or f"player {found.seat}",
                    joined_at=time.time(),
                    prior_kind="open",
                    prior_hash=None,
                    account_id=_guid(seats[mine].account),
                )
            )
            self._notify(db, found.id)
        return str(found.id), int(found.seat), False

    def games_in_play(self, limit: int = 20) -> list[GameRow]:
        """Listed games being played (made for anyone), the latest started first."""
        g = games_table.c
        with self.engine.connect() as db:
            rows = db.execute(
                sa.select(games_table)
                .where(g.status == "playing", g.listed.is_(True))
                .order_by(sa.func.coalesce(g.started, g.created).desc())
                .limit(limit)
            ).all()
        return [_row(r) for r in rows]

    def games_in_play_of(self, creator: str) -> int:
        """How many games ``creator`` made that are not finished (by every process on this database)."""
        with self.engine.connect() as db:
            count = db.execute(
                sa.select(sa.func.count())
                .select_from(games_table)
                .where(games_table.c.creator == creator, games_table.c.status != "finished")
            ).scalar_one()
        return int(count)

    def rematch_of(self, game_id: str) -> GameRow | None:
        """The rematch of a game, if one was asked for."""
        with self.engine.connect() as db:
            row = db.execute(sa.select(games_table).where(games_table.c.rematch_of == game_id)).first()
        return _row(row) if row is not None else None

    def unfinished_games(self) -> list[GameRow]:
        with self.engine.connect() as db:
            rows = db.execute(sa.select(games_table).where(games_table.c.status != "finished")).all()
        return [_row(r) for r in rows]

    # --- events ----------------------------------------------------------------------

    def finish(self, game_id: str, result: dict[str, Any]) -> bool:
        """End a game that the rules did not end (a clock, abandonment); False if it was over already.

        Every process on the database hears of it, as of an event.
        """
        with self.engine.begin() as db:
            done = db.execute(
                games_table.update()
                .where(games_table.c.id == game_id, games_table.c.status != "finished")
                .values(status="finished", result=json.dumps(result))
            ).rowcount
            if done:
                self._finished(db, game_id, result)
                self._notify(db, game_id)
        return bool(done)

    def _finished(self, db: sa.Connection, game_id: str, result: dict[str, Any]) -> None:
        """Tell the finish hooks, in the transaction that ends the game (it commits with what they
        write, or neither is kept)."""
        if not self.finish_hooks:
            return
        row = db.execute(sa.select(games_table).where(games_table.c.id == game_id)).first()
        seats = db.execute(
            _seats_query().where(seats_table.c.game_id == game_id).order_by(seats_table.c.seat)
        ).all()
        if row is None:
            return
        game, game_seats = _row(row), [_seat(r) for r in seats]
        for hook in self.finish_hooks:
            hook(db, game, game_seats, result)

    def offer_draw(self, game_id: str, seat: int | None, events: int, *, replaces: int | None) -> bool:
        """Make ``seat``'s draw offer the game's standing one (None: withdraw the standing one), made
        after ``events`` events; only if the standing offer is still ``replaces``'s (None: none) and
        the game is on. False if another process changed either first."""
        g = games_table.c
        standing = g.offer_seat.is_(None) if replaces is None else g.offer_seat == replaces
        with self.engine.begin() as db:
            done = db.execute(
                games_table.update()
                .where(g.id == game_id, g.status == "playing", standing)
                .values(offer_seat=seat, offer_events=events if seat is not None else None)
            ).rowcount
            if done:
                self._notify(db, game_id)
        return bool(done)

    def seen(self, seats: Sequence[tuple[str, int]], at: float) -> None:
        """Note that this process holds a connection of each (game, seat)'s player at ``at``."""
        if not seats:
            return
        c = seats_table.c
        with self.engine.begin() as db:
            for game_id, seat in seats:
                db.execute(
                    seats_table.update().where(c.game_id == game_id, c.seat == seat).values(seen_at=at)
                )

    def stale_waiting(self, before: float, limit: int = 500) -> list[GameRow]:
        """Games still waiting for a player that were made before ``before`` (they expire)."""
        with self.engine.connect() as db:
            rows = db.execute(
                sa.select(games_table)
                .where(games_table.c.status == "waiting", games_table.c.created < before)
                .limit(limit)
            ).all()
        return [_row(r) for r in rows]

    def idle_games(self, before: float, limit: int = 500) -> list[GameRow]:
        """Unfinished games nobody has touched since ``before``: no event, join or start after it.

        A correspondence game in play is never one: a move may take longer (up to 14 days), and its
        clock ends the game when a player's time is up.
        """
        last_event = (
            sa.select(events_table.c.game_id, sa.func.max(events_table.c.at).label("last"))
            .group_by(events_table.c.game_id)
            .subquery()
        )
        touched = sa.func.coalesce(last_event.c.last, games_table.c.started, games_table.c.created)
        with self.engine.connect() as db:
            rows = db.execute(
                sa.select(games_table)
                .outerjoin(last_event, last_event.c.game_id == games_table.c.id)
                .where(games_table.c.status != "finished", touched < before)
                .where(sa.or_(games_table.c.status != "playing", games_table.c.clock_per_move.is_not(True)))
                .limit(limit)
            ).all()
        return [_row(r) for r in rows]

    def progress(self, game_ids: Sequence[str]) -> dict[str, tuple[int, str]]:
        """Each game's number of events and status, in one query (a process checks that it is in step)."""
        if not game_ids:
            return {}
        counts = (
            sa.select(events_table.c.game_id, sa.func.count().label("n"))
            .where(events_table.c.game_id.in_(game_ids))
            .group_by(events_table.c.game_id)
            .subquery()
        )
        with self.engine.connect() as db:
            rows = db.execute(
                sa.select(games_table.c.id, games_table.c.status, sa.func.coalesce(counts.c.n, 0))
                .outerjoin(counts, counts.c.game_id == games_table.c.id)
                .where(games_table.c.id.in_(game_ids))
            ).all()
        return {str(r[0]): (int(r[2]), str(r[1])) for r in rows}

    def event_times(self, game_id: str) -> list[float]:
        """When each event of the game was stored, in order (for the clocks)."""
        with self.engine.connect() as db:
            rows = db.execute(
                sa.select(events_table.c.at)
                .where(events_table.c.game_id == game_id)
                .order_by(events_table.c.number)
            ).all()
        return [r.at for r in rows]

    def events(self, game_id: str, start: int = 0) -> list[Event]:
        """The game's events from number ``start`` on, in order."""
        with self.engine.connect() as db:
            rows = db.execute(
                sa.select(events_table.c.number, events_table.c.player, events_table.c.action)
                .where(events_table.c.game_id == game_id, events_table.c.number >= start)
                .order_by(events_table.c.number)
            ).all()
        return [Event(r.number, r.player, r.action) for r in rows]

    def add_events(
        self,
        game_id: str,
        first: int,
        events: Sequence[tuple[int, str]],
        result: dict[str, Any] | None = None,
        at: float | None = None,
    ) -> None:
        """Commit ``events`` as numbers ``first``, ``first + 1``, ... of the game, in one transaction.

        With ``result`` the game is marked finished in the same transaction. A
        number already taken (another server process wrote first) raises
        :class:`EventClashError` and writes nothing.
        """
        now = time.time() if at is None else at
        try:
            with self.engine.begin() as db:
                if events:
                    db.execute(
                        events_table.insert(),
                        [
                            {"game_id": game_id, "number": first + i, "player": p, "action": a, "at": now}
                            for i, (p, a) in enumerate(events)
                        ],
                    )
                if result is not None:
                    db.execute(
                        games_table.update()
                        .where(games_table.c.id == game_id)
                        .values(status="finished", result=json.dumps(result))
                    )
                    self._finished(db, game_id, result)
                # Other server processes on this database hear of it when it commits.
                self._notify(db, game_id)
        except sa.exc.IntegrityError:
            raise EventClashError(f"game {game_id}: event {first} was written by another process") from None
        except sa.exc.DBAPIError as exc:  # the disk is full, the database went away: nothing was written
            raise StoreError(f"the server could not store it ({_first_line(exc)}); nothing changed") from None

    # --- accounts' games -------------------------------------------------------------------

    def account_seat(self, game_id: str, account: str, token_hash: str) -> int | None:
        """Give ``account``'s seat of a game a new token (its hash); the seat, or None if it has none.

        The old token stops opening the seat (a connection open with it plays on)."""
        c = seats_table.c
        with self.engine.begin() as db:
            seat = db.execute(
                sa.select(c.seat).where(
                    c.game_id == game_id, c.account_id == _guid(account), c.kind.in_(("person", "joining"))
                )
            ).scalar()
            if seat is None:
                return None
            db.execute(
                seats_table.update()
                .where(c.game_id == game_id, c.seat == seat)
                .values(
                    token_hash=token_hash, kind="person", joined_at=None, prior_kind=None, prior_hash=None
                )
            )
            self._start_if_full(db, game_id)
            self._notify(db, game_id)
        return int(seat)

    def claim_seats(self, token_hashes: Sequence[str], account: str, name: str) -> list[str]:
        """Make the guest seats that these tokens open ``account``'s (seats of no account yet, in games
        the account has no other seat in); the games' ids."""
        c = seats_table.c
        claimed: list[str] = []
        with self.engine.begin() as db:
            rows = db.execute(
                sa.select(c.game_id, c.seat).where(
                    c.token_hash.in_(list(token_hashes)),
                    c.kind.in_(("person", "joining")),
                    c.account_id.is_(None),
                )
            ).all()
            for row in rows:
                done = db.execute(
                    seats_table.update()
                    .where(c.game_id == row.game_id, c.seat == row.seat, ~_has_seat(row.game_id, account))
                    .values(account_id=_guid(account), name=name)
                ).rowcount
                if done:
                    claimed.append(str(row.game_id))
                    self._notify(db, str(row.game_id))
        return claimed

    def games_of_account(
        self, account: str, *, status: str = "all", limit: int = 100, before: float | None = None
    ) -> list[GameRow]:
        """The games ``account`` has a seat in, newest first (``status``: playing, finished or all)."""
        g = games_table.c
        query = sa.select(games_table).where(
            g.id.in_(sa.select(seats_table.c.game_id).where(seats_table.c.account_id == _guid(account)))
        )
        if status == "finished":
            query = query.where(g.status == "finished")
        elif status == "playing":
            query = query.where(g.status != "finished")
        if before is not None:
            query = query.where(g.created < before)
        with self.engine.connect() as db:
            rows = db.execute(query.order_by(g.created.desc(), g.id).limit(limit)).all()
        return [_row(r) for r in rows]

    def forget_sessions(self, before: float) -> int:
        """Delete the browser sessions made before ``before`` (expired: they open nothing); how many."""
        cutoff = datetime.datetime.fromtimestamp(before, datetime.UTC)
        with self.engine.begin() as db:
            return int(db.execute(sa.delete(SessionRow).where(SessionRow.created_at < cutoff)).rowcount)

    def key(self, name: str) -> str:
        """The deployment's secret ``name`` (the CSRF check's signing key): drawn from the system's
        secret randomness by the first process that asks, the same for every process after."""
        insert = (postgresql_insert if self.engine.dialect.name == "postgresql" else sqlite_insert)(
            server_keys_table
        )
        with self.engine.begin() as db:
            db.execute(insert.values(name=name, value=secrets.token_urlsafe(48)).on_conflict_do_nothing())
            value = db.execute(
                sa.select(server_keys_table.c.value).where(server_keys_table.c.name == name)
            ).scalar_one()
        return str(value)

    def ping(self) -> None:
        """Raise if the database does not answer (a readiness check)."""
        with self.engine.connect() as db:
            db.execute(sa.select(1))

    def count_by_status(self) -> dict[str, int]:
        """How many games are waiting, playing and finished."""
        with self.engine.connect() as db:
            rows = db.execute(
                sa.select(games_table.c.status, sa.func.count()).group_by(games_table.c.status)
            ).all()
        return {str(row[0]): int(row[1]) for row in rows}

    def close(self) -> None:
        self.engine.dispose()


# --- opening and upgrading -------------------------------------------------------------


def _guid(account: str | None) -> uuid.UUID | None:
    """An account's id as the accounts' GUID column takes it."""
    return uuid.UUID(account) if account is not None else None


def _has_seat(game_id: Any, account: str) -> sa.ColumnElement[bool]:
    """Whether ``account`` plays a seat of the game (a column or an id)."""
    c = seats_table.c
    return sa.exists().where(c.game_id == game_id, c.account_id == _guid(account))


def _driver(url: str) -> str:
    # psycopg 3 is the PostgreSQL driver tussle installs; a plain postgresql:// URL means it.
    if url.startswith("postgresql://") or url.startswith("postgres://"):
        return "postgresql+psycopg://" + url.split("://", 1)[1]
    return url


def _safe_url(url: str) -> str:
    """``url`` without its password, for messages and logs."""
    try:
        return sa.engine.make_url(url).render_as_string(hide_password=True)
    except sa.exc.ArgumentError:
        return "(an unreadable database URL)"


def _first_line(exc: BaseException) -> str:
    text = str(getattr(exc, "orig", None) or exc)
    return text.strip().splitlines()[0] if text.strip() else type(exc).__name__


def _sqlite_pragmas(engine: Engine) -> None:
    @sa.event.listens_for(engine, "connect")
    def _pragmas(dbapi_connection: Any, _record: Any) -> None:
        cursor = dbapi_connection.cursor()
        # WAL: readers do not block the writer; FULL sync: a committed event survives a crash.
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=FULL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA busy_timeout=10000")
        cursor.close()


MIGRATIONS = Path(__file__).with_name("migrations")
#: The PostgreSQL advisory lock that one process at a time holds while it migrates ("tussle" in ASCII).
MIGRATION_LOCK = 0x747573736C65


def upgrade(engine: Engine) -> None:
    """Bring the database's schema to the newest version with Alembic (what the migrations say)."""
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        if engine.dialect.name == "postgresql":
            # Processes started at once on a new database: one migrates, the others wait for it and
            # then find nothing to do (else two create the same tables, and one fails).
            connection.execute(sa.select(sa.func.pg_advisory_xact_lock(MIGRATION_LOCK)))
        config.attributes["connection"] = connection
        command.upgrade(config, "head")


def schema_version(engine: Engine) -> str | None:
    """The Alembic revision the database is at (None for an empty one)."""
    from alembic.runtime.migration import MigrationContext

    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()
