"""Ratings: each account's rating at each game, on the same scale as the computer levels' ladders.

**The model** is openskill's Plackett-Luce model (Weng and Lin's Bayesian approximation), which
rates 2 to 6 players by their places: a rating is a skill ``mu`` and an uncertainty ``sigma``, a
new account starts at the model's default (``mu`` 25, ``sigma`` 25/3, about 390 points of the
displayed scale) and every rated game moves each account by the model's rule.

**The computer levels** (``random``, ``rule``, ``easy``, ``medium``, ``hard``) carry fixed ratings
on that scale, fitted from the ladders (docs/strength.md, docs/ladders/): a ladder's Elo ratings say
that a player rated ``r`` scores ``E = 1 / (1 + 10^((s - r) / 400))`` against one rated ``s``, and the
model predicts ``P = Phi((mu_a - mu_b) / sqrt(2 beta^2 + sigma_a^2 + sigma_b^2))`` (``Phi``: the normal
distribution; openskill's ``predict_win``). A level's rating is known (``sigma`` 0), so an Elo gap
``d`` becomes the model gap ``sqrt(2) * beta * Phi^-1(E(d))``, and ``P`` between two levels is then
exactly the ladder's ``E``. Logistic and normal curves differ, so no one set of ``mu`` matches every
pair at once: the levels are fitted as a chain, each on the one below it in its ladder exactly
(neighbours are the pairs a player meets while climbing); the pairs further apart then agree with
the ladder within two percentage points (the test measures it). The chain is placed so that
``easy``, the level for learning a game, sits at the model's default: a new account is first taken
to be as strong as ``easy``.

**The displayed rating** is ``1500 + scale * (mu - 25)``, the same formula for accounts and levels,
with ``scale`` (about 47 points a unit of ``mu``) chosen so that small gaps read as Elo gaps do: the
slope of ``P`` at an even game, between two known ratings, equals that of Elo's ``E``. So ``easy`` is
1500 in every game, and 100 points more is about 64% expected, as in the ladders. An account is
*provisional* (shown with ``?``) until it has played :data:`PROVISIONAL_GAMES` rated games.

**Placement**: a rated game against a computer level rates the account against the level's fixed
rating (the level never moves), so a new account's first games against the computer put it on the
levels' scale; ``about <level>`` names the level nearest a rating.

**What counts**: a finished rated game with at least two seats that are accounts or rated computer
levels, at least one of them an account, is rated by its result's places (a win, a draw, shared
places, a resignation, a time-out, a claim or an abandonment alike); an aborted game is not. A seat
that is neither (a guest) is left out, the others rated by their places among themselves.
:func:`rate_finished` is the store's finish hook: the ratings change in the very transaction that
stores the result, or not at all.

The levels' ladder ratings are kept, as the package ships them, in ``levels.json`` beside this
module, made from the ladders by ``python -m tussle.server.ratings`` (a test checks that it agrees
with them).
"""

from __future__ import annotations

import itertools
import json
import math
import re
import sys
import time
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from statistics import NormalDist
from typing import Any

import sqlalchemy as sa
from openskill.models import PlackettLuce, PlackettLuceRating
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from tussle.agents.levels import LEVEL_NAMES, level_spec
from tussle.registry import game_ids, game_info
from tussle.server.service import computer_agents
from tussle.server.store import (
    GameRow,
    Seat,
    accounts_table,
    rating_history_table,
    ratings_table,
)

#: openskill's Plackett-Luce model with its defaults: mu 25, sigma 25/3, beta 25/6, tau 25/300.
MODEL = PlackettLuce()
DEFAULT_MU = MODEL.mu
DEFAULT_SIGMA = MODEL.sigma
#: A computer level's sigma: its rating is a constant (measured over hundreds of games), never moved.
LEVEL_SIGMA = 0.0
#: Rated games an account plays before its rating is shown without a ``?``: a new account's first
#: game against a level of its own rating moves it by 160 points, the sixth by about 100 (a step
#: between neighbouring levels), so from then on the number says which level a player is near.
PROVISIONAL_GAMES = 5
#: The displayed rating of the model's default ``mu`` (and of ``easy``).
DISPLAY_BASE = 1500.0
#: Displayed points per unit of ``mu``: the slope of Elo's expectation at an even game
#: (ln 10 / 1600 a point) equals the model's between two known ratings (1 / (sqrt(2 pi) sqrt(2) beta)).
DISPLAY_SCALE = 1600.0 / (math.log(10) * math.sqrt(2 * math.pi) * math.sqrt(2) * MODEL.beta)
#: The level placed at the model's default mu.
ANCHOR = "easy"
#: The computer players the ladders rate (the server's levels, and random and rule).
COMPUTERS = ("random", "rule", *LEVEL_NAMES)

LEVELS_FILE = Path(__file__).with_name("levels.json")
_NORMAL = NormalDist()


# --- the scale -------------------------------------------------------------------------------


def elo_expectation(gap: float) -> float:
    """What a ladder expects a player ``gap`` Elo points above another to score.

    >>> round(elo_expectation(200), 3)
    0.76
    """
    return 1.0 / (1.0 + math.pow(10.0, -gap / 400.0))


def model_gap(elo_gap: float) -> float:
    """The gap of ``mu`` between two levels (sigma :data:`LEVEL_SIGMA`) that makes the model predict
    what the ladder expects of ``elo_gap``."""
    expected = min(max(elo_expectation(elo_gap), 1e-12), 1.0 - 1e-12)
    return math.sqrt(2 * MODEL.beta**2 + 2 * LEVEL_SIGMA**2) * _NORMAL.inv_cdf(expected)


def win_probability(mu_a: float, sigma_a: float, mu_b: float, sigma_b: float) -> float:
    """The model's chance that a player (``mu_a``, ``sigma_a``) beats another (openskill's predict_win)."""
    return float(MODEL.predict_win([[_rating(mu_a, sigma_a)], [_rating(mu_b, sigma_b)]])[0])


def displayed(mu: float) -> int:
    """The rating players read, for an account or a level.

    >>> displayed(DEFAULT_MU), displayed(DEFAULT_MU + 1)
    (1500, 1547)
    """
    return round(DISPLAY_BASE + DISPLAY_SCALE * (mu - DEFAULT_MU))


def provisional(games: int) -> bool:
    """Whether a rating of ``games`` rated games is still shown with a ``?``."""
    return games < PROVISIONAL_GAMES


def fit_levels(elo: dict[str, float]) -> dict[str, float]:
    """The levels' ``mu`` from their ladder ratings (Elo): each exactly on its neighbour below, the
    chain placed with :data:`ANCHOR` (else the middle level) at the model's default.

    >>> mu = fit_levels({"random": 0.0, "easy": 200.0, "hard": 500.0})
    >>> mu["easy"] == DEFAULT_MU, round(win_probability(mu["hard"], 0, mu["easy"], 0), 4)
    (True, 0.849)
    >>> round(elo_expectation(300), 4)
    0.849
    """
    if not elo:
        return {}
    order = sorted(elo, key=lambda name: (elo[name], name))
    mu = {order[0]: 0.0}
    for low, high in itertools.pairwise(order):
        mu[high] = mu[low] + model_gap(elo[high] - elo[low])
    anchor = ANCHOR if ANCHOR in mu else order[len(order) // 2]
    shift = DEFAULT_MU - mu[anchor]
    return {name: value + shift for name, value in mu.items()}


# --- the levels ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Level:
    """A computer player's fixed rating at one game: its ladder's Elo (and standard error), the agent
    spec the ladder measured, and its ``mu`` on the model's scale."""

    name: str
    plays: str
    elo: float
    stderr: float
    mu: float

    @property
    def rating(self) -> int:
        return displayed(self.mu)

    def to_json(self) -> dict[str, Any]:
        return {
            "level": self.name,
            "rating": self.rating,
            "mu": round(self.mu, 4),
            "plays": self.plays,
            "ladder": {"elo": self.elo, "stderr": self.stderr},
        }


@dataclass(frozen=True)
class GameLevels:
    """The rated computer players of one game, and those the server offers without a rating (and why)."""

    game: str
    source: str
    levels: dict[str, Level]
    unrated: dict[str, str]

    def nearest(self, mu: float) -> str | None:
        """The level whose rating is nearest ``mu`` (None if the game has none rated)."""
        if not self.levels:
            return None
        return min(self.levels.values(), key=lambda level: (abs(level.mu - mu), level.mu)).name

    def to_json(self) -> dict[str, Any]:
        ordered = sorted(self.levels.values(), key=lambda level: -level.mu)
        return {
            "game": self.game,
            "source": self.source,
            "levels": [level.to_json() for level in ordered],
            "unrated": [{"level": name, "why": why} for name, why in sorted(self.unrated.items())],
        }


def current_spec(game: str, name: str) -> str:
    """The agent spec the server plays for the computer player ``name`` now."""
    return level_spec(game, name) if name in LEVEL_NAMES else name


@cache
def levels_of(game: str) -> GameLevels:
    """The computer players of ``game`` with their fixed ratings, from :data:`LEVELS_FILE`.

    A player the ladder did not measure, or measured playing another spec than the server's level
    plays now, has no rating (``unrated`` says why): its games rate only the accounts among themselves.
    """
    table = _levels_table().get(game)
    unrated: dict[str, str] = {}
    measured: dict[str, tuple[str, float, float]] = {}
    for name in computer_agents(game_info(game)):
        entry = (table or {}).get("agents", {}).get(name)
        if table is None:
            unrated[name] = f"no ladder of {game} is kept: rerun it (docs/strength.md) and the table"
        elif entry is None:
            unrated[name] = f"the ladder of {game} ({table['source']}) has no {name}"
        elif entry["plays"] != current_spec(game, name):
            unrated[name] = (
                f"the ladder measured {entry['plays']}, the server's {name} plays "
                f"{current_spec(game, name)}: rerun the ladder"
            )
        else:
            measured[name] = (entry["plays"], float(entry["elo"]), float(entry["stderr"]))
    mu = fit_levels({name: elo for name, (_, elo, _) in measured.items()})
    levels = {
        name: Level(name, plays, elo, stderr, mu[name]) for name, (plays, elo, stderr) in measured.items()
    }
    return GameLevels(game, table["source"] if table else "", levels, unrated)


@cache
def _levels_table() -> dict[str, Any]:
    games: dict[str, Any] = json.loads(LEVELS_FILE.read_text(encoding="utf-8"))["games"]
    return games


# --- the table, from the ladders ------------------------------------------------------------------

_ROW = re.compile(
    r"^\| (?P<agent>[\w-]+) \| `(?P<plays>[^`]+)` \| (?P<elo>-?\d+) \| "
    r"(?:(?P<low>-?\d+) to (?P<high>-?\d+)|anchor) \| \d+ \| [\d.]+% \|$"
)


def ladder_table(root: Path) -> dict[str, Any]:
    """The levels' table (what :data:`LEVELS_FILE` holds) from the ladders of the checkout at ``root``.

    A game's kept ladder (docs/ladders/<game>.json) gives each agent's Elo and standard error; a game
    without one, its table in docs/strength.md (ratings rounded there, the standard error from the
    95% interval: its width over 2 * 1.96).
    """
    strength = (root / "docs" / "strength.md").read_text(encoding="utf-8")
    games: dict[str, Any] = {}
    for game in game_ids():
        kept = root / "docs" / "ladders" / f"{game}.json"
        if kept.exists():
            ladder = json.loads(kept.read_text(encoding="utf-8"))
            plays = dict(zip(ladder["agents"], ladder["plays"], strict=True))
            agents = {
                row["agent"]: {"plays": plays[row["agent"]], "elo": row["rating"], "stderr": row["stderr"]}
                for row in ladder["ratings"]
            }
            games[game] = {
                "source": f"docs/ladders/{game}.json",
                "games_per_pair": ladder["games_per_pair"],
                "seed": ladder["seed"],
                "agents": agents,
            }
            continue
        marker = f"(`{game}`)\n"
        if marker not in strength:
            continue
        section = strength.split(marker, 1)[1].split("\n## ", 1)[0]
        header = re.search(r"(\d+) games per pair, seed (\d+)", section)
        agents = {}
        for line in section.splitlines():
            row = _ROW.match(line)
            if row is None or row["agent"] in agents:
                continue
            low, high = row["low"], row["high"]
            stderr = 0.0 if low is None else round((float(high) - float(low)) / (2 * 1.96), 1)
            agents[row["agent"]] = {"plays": row["plays"], "elo": float(row["elo"]), "stderr": stderr}
        if agents:
            games[game] = {
                "source": "docs/strength.md",
                "games_per_pair": int(header[1]) if header else None,
                "seed": int(header[2]) if header else None,
                "agents": agents,
            }
    return {
        "about": "The computer levels' ladder ratings (Elo, random at 0), made from the ladders by "
        "python -m tussle.server.ratings; tussle.server.ratings fits them to the rating model.",
        "games": games,
    }


def write_table(root: Path, path: Path = LEVELS_FILE) -> None:
    """Write the levels' table made from the ladders of the checkout at ``root`` to ``path``."""
    path.write_text(json.dumps(ladder_table(root), indent=2, sort_keys=True) + "\n", encoding="utf-8")


# --- rating a finished game --------------------------------------------------------------------


@dataclass(frozen=True)
class Entrant:
    """One rated seat of a game: an account (``account`` its id) or a computer level (``level``)."""

    seat: int
    mu: float
    sigma: float
    account: str | None = None
    level: str | None = None


def rate(entrants: Sequence[Entrant], ranks: Sequence[float]) -> list[tuple[float, float]]:
    """Each entrant's (mu, sigma) after a game in which entrant ``i`` took place ``ranks[i]`` (1 best,
    equal places shared), by openskill's rule; a level's is returned unchanged (it never moves)."""
    teams = [[_rating(e.mu, e.sigma)] for e in entrants]
    rated = MODEL.rate(teams, ranks=[float(r) for r in ranks])
    return [
        (e.mu, e.sigma) if e.level is not None else (float(team[0].mu), float(team[0].sigma))
        for e, team in zip(entrants, rated, strict=True)
    ]


def entrants_of(
    game: str, seats: Sequence[Seat], ratings: dict[str, tuple[float, float]]
) -> list[Entrant] | None:
    """The rated seats of a game (accounts at their ``ratings``, else the default; rated computer
    levels), or None if the game rates nobody: fewer than two of them, no account, or an account in
    two seats."""
    levels = levels_of(game)
    accounts = [s.account for s in seats if s.account is not None]
    if not accounts or len(set(accounts)) != len(accounts):
        return None
    out = []
    for seat in seats:
        if seat.account is not None:
            mu, sigma = ratings.get(seat.account, (DEFAULT_MU, DEFAULT_SIGMA))
            out.append(Entrant(seat.seat, mu, sigma, account=seat.account))
        elif seat.kind == "computer" and seat.agent in levels.levels:
            level = levels.levels[seat.agent]
            out.append(Entrant(seat.seat, level.mu, LEVEL_SIGMA, level=level.name))
    return out if len(out) >= 2 else None


def counts(result: dict[str, Any] | None) -> bool:
    """Whether a finished game's result rates its players: any ending but an abort."""
    return (
        isinstance(result, dict)
        and result.get("termination") != "aborted"
        and isinstance(result.get("ranking"), list)
    )


def rate_finished(db: sa.Connection, row: GameRow, seats: list[Seat], result: dict[str, Any]) -> None:
    """The store's finish hook: rate a finished rated game's accounts, in the transaction ``db`` that
    stores its result (one ``ratings`` row per account and game, one ``rating_history`` row per
    account and rated game)."""
    if not row.rated or not counts(result) or row.game not in game_ids():
        return
    ranking = result["ranking"]
    if len(ranking) != len(seats) or any(s.seat >= len(ranking) for s in seats):
        return
    if entrants_of(row.game, seats, {}) is None:
        return  # nothing to rate: nothing written, not even a new account's first row
    accounts = [s.account for s in seats if s.account is not None]
    current = _lock_ratings(db, row.game, accounts)
    entrants = entrants_of(row.game, seats, {a: (mu, sigma) for a, (mu, sigma, _) in current.items()})
    if entrants is None:
        return
    after = rate(entrants, [ranking[e.seat] for e in entrants])
    now = time.time()
    r, h = ratings_table.c, rating_history_table
    for entrant, (mu, sigma) in zip(entrants, after, strict=True):
        if entrant.account is None:
            continue
        played = current[entrant.account][2] + 1
        db.execute(
            ratings_table.update()
            .where(r.account_id == account_key(entrant.account), r.game == row.game)
            .values(mu=mu, sigma=sigma, games=played, updated=now)
        )
        db.execute(
            h.insert().values(
                account_id=account_key(entrant.account),
                game=row.game,
                game_id=row.id,
                mu=mu,
                sigma=sigma,
                at=now,
            )
        )


def _lock_ratings(db: sa.Connection, game: str, accounts: list[str]) -> dict[str, tuple[float, float, int]]:
    """The accounts' ratings at ``game`` (made at the default if new), locked until ``db`` commits, so
    that two games finishing at once for one account are rated one after the other."""
    now = time.time()
    fresh = [
        {
            "account_id": account_key(a),
            "game": game,
            "mu": DEFAULT_MU,
            "sigma": DEFAULT_SIGMA,
            "games": 0,
            "updated": now,
        }
        for a in accounts
    ]
    insert = postgresql_insert if db.dialect.name == "postgresql" else sqlite_insert
    # Made if missing, without failing when another transaction makes it first (it waits for that one).
    db.execute(insert(ratings_table).on_conflict_do_nothing(index_elements=["account_id", "game"]), fresh)
    r = ratings_table.c
    query = sa.select(r.account_id, r.mu, r.sigma, r.games).where(
        r.game == game, r.account_id.in_([account_key(a) for a in accounts])
    )
    if db.dialect.name == "postgresql":
        query = query.with_for_update()
    return {str(row.account_id): (row.mu, row.sigma, row.games) for row in db.execute(query)}


def account_key(account: str | uuid.UUID) -> uuid.UUID:
    """An account's id as the database's UUID columns take it (a seat gives it as text)."""
    return account if isinstance(account, uuid.UUID) else uuid.UUID(account)


def _rating(mu: float, sigma: float) -> PlackettLuceRating:
    return MODEL.rating(mu=mu, sigma=sigma)


# --- queries for the API -------------------------------------------------------------------------


def rating_json(game: str, mu: float, sigma: float, games: int) -> dict[str, Any]:
    """An account's rating at a game as the API shows it."""
    return {
        "game": game,
        "rating": displayed(mu),
        "provisional": provisional(games),
        "shown": f"{displayed(mu)}{'?' if provisional(games) else ''}",
        "deviation": round(DISPLAY_SCALE * sigma),
        "games": games,
        "about": levels_of(game).nearest(mu) if game in game_ids() else None,
        "mu": round(mu, 4),
        "sigma": round(sigma, 4),
    }


def ratings_of(db: sa.Connection, account: str | uuid.UUID) -> list[dict[str, Any]]:
    """An account's ratings, one per game it played rated, by game."""
    r = ratings_table.c
    rows = db.execute(
        sa.select(r.game, r.mu, r.sigma, r.games)
        .where(r.account_id == account_key(account), r.games > 0)
        .order_by(r.game)
    ).all()
    return [rating_json(row.game, row.mu, row.sigma, row.games) for row in rows]


def history_of(
    db: sa.Connection, account: str | uuid.UUID, game: str | None = None, limit: int = 1000
) -> dict[str, Any]:
    """An account's rating after each rated game (for a plot), by game, oldest first; the last
    ``limit`` of each game at most."""
    h = rating_history_table.c
    query = sa.select(h.game, h.game_id, h.mu, h.sigma, h.at, h.id).where(
        h.account_id == account_key(account)
    )
    if game is not None:
        query = query.where(h.game == game)
    out: dict[str, list[dict[str, Any]]] = {}
    for row in db.execute(query.order_by(h.game, h.id)):
        out.setdefault(row.game, []).append(
            {
                "game_id": row.game_id,
                "at": round(row.at, 3),
                "rating": displayed(row.mu),
                "deviation": round(DISPLAY_SCALE * row.sigma),
            }
        )
    return {name: points[-limit:] for name, points in out.items()}


def leaderboard(db: sa.Connection, game: str, limit: int = 100) -> dict[str, Any]:
    """The accounts with a rated game of ``game``, highest rating first (the top ``limit``), and the
    computer levels on the same scale."""
    r, a = ratings_table.c, accounts_table.c
    rows = db.execute(
        sa.select(a.name, a.bot, r.mu, r.sigma, r.games)
        .join(accounts_table, a.id == r.account_id)
        .where(r.game == game, r.games > 0, a.is_active.is_(True))
        .order_by(r.mu.desc(), a.name_key)
        .limit(limit)
    ).all()
    players = []
    for place, row in enumerate(rows, start=1):
        rating = rating_json(game, row.mu, row.sigma, row.games)
        players.append(
            {
                "place": place,
                "name": row.name,
                "bot": bool(row.bot),
                **{k: rating[k] for k in ("rating", "provisional", "shown", "games", "about")},
            }
        )
    levels = levels_of(game)
    return {
        "game": game,
        "players": players,
        "levels": levels.to_json()["levels"],
        "unrated": levels.to_json()["unrated"],
    }


def levels_json() -> dict[str, Any]:
    """Every game's computer players with their ratings on the displayed scale (``GET /api/levels``)."""
    return {
        "scale": {
            "base": DISPLAY_BASE,
            "points_per_mu": round(DISPLAY_SCALE, 4),
            "anchor": ANCHOR,
            "provisional_games": PROVISIONAL_GAMES,
            "model": "openskill Plackett-Luce",
            "default": {"mu": DEFAULT_MU, "sigma": round(DEFAULT_SIGMA, 4)},
        },
        "games": [levels_of(game).to_json() for game in game_ids()],
    }


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m tussle.server.ratings [ROOT]``: write the levels' table from the ladders of the
    checkout at ``ROOT`` (default: the one this module is in)."""
    args = list(sys.argv[1:] if argv is None else argv)
    root = Path(args[0]) if args else Path(__file__).resolve().parents[3]
    if not (root / "docs" / "strength.md").exists():
        print(f"no docs/strength.md under {root}: give the checkout's root", file=sys.stderr)
        return 2
    write_table(root)
    print(f"wrote {LEVELS_FILE.name} from the ladders under {root}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
