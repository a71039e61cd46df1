"""Players' public pages as data: an account's profile, its games, its archive, and the leaderboards.

Everything here is public: an account's name, whether it is a bot, when it was made, its ratings
and their history, its record against the computer levels and its games (their seats, results and
links). Nothing secret is ever read into an answer: no email, token, token hash or seed.

Each function takes the store's engine and is meant for a thread (:func:`asyncio.to_thread`).
:class:`NotFoundError` is an unknown account or game (HTTP 404).
"""

from __future__ import annotations

import io
import json
import time
import zipfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa

from tussle.errors import TussleError, shorten
from tussle.record import Record
from tussle.registry import game_ids
from tussle.server import ratings
from tussle.server.accounts import NAME
from tussle.server.store import accounts_table, events_table, games_table, seats_table

#: The most games one list answers, and the most records one archive holds (its newest games;
#: ``before`` reaches the older ones).
MAX_LIST = 100
MAX_ARCHIVE = 1000
#: An archive stops taking records once its zip is this large (the next part has the older games).
MAX_ARCHIVE_BYTES = 32 * 2**20


class NotFoundError(TussleError):
    """No account has that name, or no game that id."""


def account_of(db: sa.Connection, name: str) -> Any:
    """The account named ``name`` (whatever its case): its id, name, bot flag and creation time."""
    if not NAME.fullmatch(name):
        raise NotFoundError(f"no player is named {shorten(name)}")
    a = accounts_table.c
    row = db.execute(
        sa.select(a.id, a.name, a.bot, a.created).where(a.name_key == name.lower(), a.is_active.is_(True))
    ).first()
    if row is None:
        raise NotFoundError(f"no player is named {shorten(name)}")
    return row


def check_game(game: str) -> None:
    """Raise :class:`NotFoundError` unless ``game`` is one the server offers."""
    if game not in game_ids():
        raise NotFoundError(f"unknown game {shorten(game)} (games: {', '.join(game_ids())})")


# --- a profile ---------------------------------------------------------------------------------


def profile(engine: sa.Engine, name: str) -> dict[str, Any]:
    """An account's profile: name, bot, created; its ratings per game with their history; its record
    against each computer level per game; how many games it has, by status."""
    with engine.connect() as db:
        account = account_of(db, name)
        own = str(account.id)
        rated = ratings.ratings_of(db, own)
        history = ratings.history_of(db, own)
        for entry in rated:
            entry["history"] = history.get(entry["game"], [])
        g, s = games_table.c, seats_table.c
        by_status = db.execute(
            sa.select(g.status, sa.func.count())
            .select_from(games_table.join(seats_table, s.game_id == g.id))
            .where(s.account_id == ratings.account_key(own))
            .group_by(g.status)
        ).all()
        record = record_against_levels(db, own)
    counts = {status: 0 for status in ("waiting", "playing", "finished")}
    counts.update({str(status): int(n) for status, n in by_status})
    return {
        "name": account.name,
        "bot": bool(account.bot),
        "created": round(account.created, 3),
        "ratings": rated,
        "record": record,
        "games": {**counts, "total": sum(counts.values())},
        "links": {
            "games": f"/api/players/{account.name}/games",
            "archive": f"/api/players/{account.name}/archive",
        },
    }


def record_against_levels(db: sa.Connection, account: str) -> list[dict[str, Any]]:
    """An account's wins, draws and losses against each computer player, per game: every finished
    game it played (rated or not, but not aborted) with a computer seat, counted against each such
    seat by their places (a better place is a win, the same a draw)."""
    g, s = games_table.c, seats_table.c
    mine = (
        sa.select(s.game_id, s.seat)
        .join(games_table, g.id == s.game_id)
        .where(s.account_id == ratings.account_key(account), g.status == "finished")
        .subquery()
    )
    rows = db.execute(
        sa.select(g.game, g.result, mine.c.seat, s.seat.label("computer"), s.agent)
        .select_from(mine)
        .join(games_table, g.id == mine.c.game_id)
        .join(seats_table, s.game_id == mine.c.game_id)
        .where(s.kind == "computer")
    ).all()
    tally: dict[tuple[str, str], dict[str, int]] = {}
    for row in rows:
        result = _result(row.result)
        if result is None or not ratings.counts(result) or row.agent is None:
            continue
        places = result["ranking"]
        if max(row.seat, row.computer) >= len(places):
            continue
        mine_place, theirs = places[row.seat], places[row.computer]
        outcome = "won" if mine_place < theirs else "drawn" if mine_place == theirs else "lost"
        counts = tally.setdefault((row.game, row.agent), {"won": 0, "drawn": 0, "lost": 0})
        counts[outcome] += 1
    out = []
    for (game, level), counts in sorted(tally.items()):
        known = ratings.levels_of(game).levels.get(level) if game in game_ids() else None
        out.append(
            {
                "game": game,
                "level": level,
                "level_rating": known.rating if known is not None else None,
                **counts,
            }
        )
    return out


# --- games ----------------------------------------------------------------------------------------


def games_of(
    engine: sa.Engine,
    name: str,
    *,
    game: str | None = None,
    limit: int = 50,
    before: float | None = None,
) -> dict[str, Any]:
    """An account's games, newest first: ``limit`` at most (up to :data:`MAX_LIST`), of ``game`` only
    if given, made before ``before`` (a ``created`` time: the next page starts at the answer's
    ``next``). A finished game links its replay page and its record."""
    if game is not None:
        check_game(game)
    limit = max(1, min(limit, MAX_LIST))
    with engine.connect() as db:
        account = account_of(db, name)
        rows = _games(db, str(account.id), game=game, before=before, limit=limit + 1, finished=False)
        seats = _seats(db, [row.id for row in rows[:limit]])
    games = [_game_json(row, seats.get(row.id, []), str(account.id)) for row in rows[:limit]]
    return {
        "name": account.name,
        "games": games,
        # Exact (not rounded), so that the next page starts right after this one's last game.
        "next": rows[limit - 1].created if len(rows) > limit else None,
    }


def _games(
    db: sa.Connection, account: str, *, game: str | None, before: float | None, limit: int, finished: bool
) -> list[Any]:
    g, s = games_table.c, seats_table.c
    query = (
        sa.select(g.id, g.game, g.status, g.rated, g.created, g.started, g.result, g.players, g.options)
        .where(g.id.in_(sa.select(s.game_id).where(s.account_id == ratings.account_key(account))))
        .order_by(g.created.desc(), g.id.desc())
        .limit(limit)
    )
    if game is not None:
        query = query.where(g.game == game)
    if before is not None:
        query = query.where(g.created < before)
    if finished:
        query = query.where(g.status == "finished")
    return list(db.execute(query).all())


def _seats(db: sa.Connection, game_ids_: Sequence[str]) -> dict[str, list[Any]]:
    """The seats of the games, with the names of their accounts, by game (no token hashes)."""
    if not game_ids_:
        return {}
    s, a = seats_table.c, accounts_table.c
    rows = db.execute(
        sa.select(s.game_id, s.seat, s.kind, s.agent, s.name, s.account_id, a.name.label("account"), a.bot)
        .select_from(seats_table.outerjoin(accounts_table, a.id == s.account_id))
        .where(s.game_id.in_(list(game_ids_)))
        .order_by(s.game_id, s.seat)
    ).all()
    out: dict[str, list[Any]] = {}
    for row in rows:
        out.setdefault(str(row.game_id), []).append(row)
    return out


def _game_json(row: Any, seats: list[Any], account: str) -> dict[str, Any]:
    result = _result(row.result)
    mine = [seat.seat for seat in seats if seat.account_id is not None and str(seat.account_id) == account]
    entry: dict[str, Any] = {
        "id": row.id,
        "game": row.game,
        "status": row.status,
        "rated": bool(row.rated),
        "created": round(row.created, 3),
        "seat": mine[0] if mine else None,
        "seats": [_seat_json(seat) for seat in seats],
        "result": result,
        "outcome": _outcome(result, mine[0]) if mine and result is not None else None,
    }
    if row.status == "finished":
        entry["replay"] = f"/replay/{row.id}"
        entry["record"] = f"/api/games/{row.id}/record"
    else:
        entry["watch"] = f"/api/games/{row.id}"
    return entry


def _seat_json(seat: Any) -> dict[str, Any]:
    entry: dict[str, Any] = {"seat": seat.seat, "kind": seat.kind, "name": seat.name}
    if seat.account is not None:
        entry["player"] = seat.account
        entry["bot"] = bool(seat.bot)
    if seat.kind == "computer":
        entry["agent"] = seat.agent
    return entry


def _outcome(result: dict[str, Any], seat: int) -> str | None:
    """How a finished game went for ``seat``: won (first alone), drawn (first, shared), lost, or
    aborted."""
    if result.get("termination") == "aborted":
        return "aborted"
    places = result.get("ranking")
    if not isinstance(places, list) or seat >= len(places):
        return None
    if places[seat] != 1:
        return "lost"
    return "won" if places.count(1) == 1 else "drawn"


def _result(text: str | None) -> dict[str, Any] | None:
    if not text:
        return None
    value = json.loads(text)
    return value if isinstance(value, dict) else None


# --- the archive -----------------------------------------------------------------------------------


def record_of(row: Any, seats: Sequence[Any], events: Iterable[tuple[int, str]]) -> Record:
    """A finished game as a tussle record, as the server's ``/api/games/<id>/record`` gives it: the
    rules' result, or (a clock, a resignation, an abort) how it ended."""
    record = Record(
        game=row.game,
        options=json.loads(row.options),
        num_players=row.players,
        players=[seat.name or seat.agent or seat.kind for seat in seats],
    )
    for player, action in events:
        record.add(player, action)
    result = _result(row.result)
    if result is not None and result.get("termination") in ("rules", "limit"):
        record.result = {k: v for k, v in result.items() if k != "termination"}
    else:
        record.ended = result
    return record


@dataclass(frozen=True)
class Archive:
    """An archive's zip, how many records it holds, how many finished games there are in all (before
    the ``before`` asked), and the ``before`` of the next, older part (None: this is the last)."""

    name: str
    data: bytes
    records: int
    total: int
    next: float | None


def archive(engine: sa.Engine, name: str, *, before: float | None = None) -> Archive:
    """Every finished game of an account as one zip of tussle records (one JSON file a game, named
    ``<date>-<time>.<ms>-<game>-<id>.json`` in UTC, so they sort by date): the newest :data:`MAX_ARCHIVE`
    made before ``before`` (if given), fewer if the zip reaches :data:`MAX_ARCHIVE_BYTES` first;
    ``next`` is then the ``before`` of the older ones."""
    with engine.connect() as db:
        account = account_of(db, name)
        own = str(account.id)
        rows = _games(db, own, game=None, before=before, limit=MAX_ARCHIVE, finished=True)
        g, s = games_table.c, seats_table.c
        total = db.execute(
            sa.select(sa.func.count())
            .select_from(games_table)
            .where(
                g.id.in_(sa.select(s.game_id).where(s.account_id == ratings.account_key(own))),
                g.status == "finished",
                *([g.created < before] if before is not None else []),
            )
        ).scalar_one()
        seats = _seats(db, [row.id for row in rows])
        buffer = io.BytesIO()
        kept = 0
        with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as zipped:
            for row in rows:  # newest first: a zip cut short by its size keeps the newest games
                if buffer.tell() > MAX_ARCHIVE_BYTES:
                    break
                kept += 1
                e = events_table.c
                events = db.execute(
                    sa.select(e.player, e.action).where(e.game_id == row.id).order_by(e.number)
                ).all()
                record = record_of(row, seats.get(row.id, []), [(ev.player, ev.action) for ev in events])
                # To the millisecond, so that games made in one second still sort as they were made.
                millis = int(row.created * 1000)
                stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime(millis // 1000)) + f".{millis % 1000:03d}"
                info = zipfile.ZipInfo(f"{stamp}-{row.game}-{row.id}.json", time.gmtime(millis // 1000)[:6])
                info.compress_type = zipfile.ZIP_DEFLATED
                zipped.writestr(info, record.dumps())
    older = rows[kept - 1].created if kept and total > kept else None
    return Archive(account.name, buffer.getvalue(), kept, int(total), older)


# --- leaderboards and levels -----------------------------------------------------------------------


def leaderboard(engine: sa.Engine, game: str) -> dict[str, Any]:
    """The top :data:`MAX_LIST` accounts of ``game`` with the computer levels on the same scale."""
    check_game(game)
    with engine.connect() as db:
        return ratings.leaderboard(db, game, MAX_LIST)
