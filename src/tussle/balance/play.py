"""Playing a balance run's games and storing what each one showed, in Parquet files, resumably.

A run is a game, its options, one or more *variants* (``--vary``: the options
that change) and one or more *pairings* (the agents of each seat). Every
variant is played by every pairing, N games each, seats rotating, in chunks of
:data:`CHUNK` games: each chunk is written as two Parquet files once all its
games are played, so a run stopped in the middle starts again at its first
unwritten chunk and, since each game's seeds depend only on the run's seed and
the game's number, ends with the same figures as a run never stopped.
"""

from __future__ import annotations

import functools
import hashlib
import json
import math
import os
import tempfile
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import duckdb

from tussle.balance import feel
from tussle.balance.measures import Measures
from tussle.errors import TussleError
from tussle.game import Game, State
from tussle.parallel import Cluster, run_chunks
from tussle.record import Record
from tussle.registry import game_info, load_game, simulation_options
from tussle.runner import play_indexed

#: Games per stored chunk: what a stopped run may have to play again.
CHUNK = 100
#: How far apart two players' values must be for one of them to lead (lead changes).
LEAD_MARGIN = 0.05

GAME_COLUMNS = {
    "variant": "VARCHAR",
    "pairing": "VARCHAR",
    "game": "BIGINT",
    "seat": "INTEGER",
    "agent": "VARCHAR",
    "rank": "INTEGER",
    "ret": "DOUBLE",
    "won": "BOOLEAN",
    "draw": "BOOLEAN",
    "length": "INTEGER",
    "limited": "BOOLEAN",
    "lead_changes": "INTEGER",
    "decisive_at": "DOUBLE",
    "signature": "VARCHAR",  # a digest of the game (game_signature): equal for a repeated game
    **feel.FEEL_COLUMNS,  # branching factor, drama, repetition... (feel.per_game)
}
EVENT_COLUMNS = {
    "variant": "VARCHAR",
    "pairing": "VARCHAR",
    "game": "BIGINT",
    "seat": "INTEGER",
    "kind": "VARCHAR",
    "component": "VARCHAR",
    "value": "DOUBLE",
}


def create_tables(connection: duckdb.DuckDBPyConnection) -> None:
    """The empty tables ``games`` and ``events``, as a run stores them (to fill by hand in tests, say)."""
    for table, columns in (("games", GAME_COLUMNS), ("events", EVENT_COLUMNS)):
        _create(connection, table, columns)


def _create(connection: duckdb.DuckDBPyConnection, table: str, columns: dict[str, str]) -> None:
    spec = ", ".join(f"{name} {kind}" for name, kind in columns.items())
    connection.execute(f"CREATE TABLE {table} ({spec})")


class BalanceError(TussleError):
    """A balance run that cannot go on as asked (a folder holding another run, say)."""


@dataclass(frozen=True)
class Slice:
    """One variant played by one pairing."""

    variant: str  # "default", or "key=value" of --vary
    options: dict[str, Any]
    pairing: str  # the agents, comma separated
    agents: tuple[str, ...]
    varied: dict[str, str] = field(default_factory=dict)  # the --vary values of this variant


@dataclass
class Plan:
    """Everything that decides a run's games: the same plan always plays the same games."""

    game: str
    players: int
    n: int
    seed: int
    slices: list[Slice] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "players": self.players,
            "n": self.n,
            "seed": self.seed,
            "slices": [asdict(s) for s in self.slices],
        }


def make_plan(
    game_id: str,
    pairings: Sequence[Sequence[str]],
    n: int,
    *,
    seed: int,
    options: dict[str, Any],
    vary: Sequence[tuple[str, list[str]]] = (),
) -> Plan:
    """The run's slices: each variant (every combination of the ``vary`` values) with each pairing."""
    players = {len(p) for p in pairings}
    if len(players) != 1:
        raise BalanceError("every pairing needs the same number of agents (one per seat)")
    plan = Plan(game_id, players.pop(), n, seed)
    variants: list[tuple[str, dict[str, Any], dict[str, str]]] = [("default", dict(options), {})]
    keys = [key for key, _ in vary]
    if len(set(keys)) != len(keys):
        raise BalanceError("an option may be varied once (--vary KEY=V1,V2,...)")
    for key, values in vary:
        if key in options:
            raise BalanceError(f"option {key} is both set (-o) and varied (--vary); choose one")
        variants = [
            (
                f"{key}={value}" if label == "default" else f"{label} {key}={value}",
                {**opts, key: value},
                {**varied, key: value},
            )
            for label, opts, varied in variants
            for value in values
        ]
    for label, opts, varied in variants:
        full = simulation_options(game_id, opts)
        game = load_game(game_id, players=plan.players, **full)  # a bad option fails here, at once
        used = dict(game.non_default_options())
        for agents in pairings:
            _check_agents(game, agents)
            plan.slices.append(Slice(label, used, ",".join(agents), tuple(agents), varied))
    return plan


def _check_agents(game: Game, agents: Sequence[str]) -> None:
    from tussle.agents import make_agent

    for seat, spec in enumerate(agents):
        if make_agent(spec, game, seat, seed=0).interactive:
            raise BalanceError(f"{spec!r} needs a person at the terminal; balance plays computer agents")


@functools.cache
def measures_of(game_id: str) -> Measures:
    """The game's declared measures (its ``balance`` hook), or the generic ones alone."""
    target = game_info(game_id).hooks.balance
    if not target:
        return Measures()
    measures: Measures = load_game(game_id).hook(target)
    return measures


@dataclass(frozen=True)
class _Job:
    game: str
    players: int
    options: dict[str, Any]
    slice_index: int
    variant: str
    pairing: str
    agents: tuple[str, ...]
    seed: int
    index: int


def _play(job: _Job) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """One game: its rows of ``games`` and of ``events``."""
    game = load_game(job.game, players=job.players, **job.options)
    seats, state, record = play_indexed(game, job.agents, job.seed, job.index)
    result = state.result()
    assert result is not None
    measures = measures_of(job.game)
    limited = state.cut_by_limit()
    changes, decisive = _lead(game, record, result.winner)
    winner = result.winner
    length = len(record.events)
    signature = game_signature(record, [job.agents[seats[s]] for s in range(job.players)])
    feel_values = feel.per_game(game, record, winner)
    games = [
        (
            job.variant,
            job.pairing,
            job.index,
            s,
            job.agents[seats[s]],
            result.ranking[s],
            result.returns[s],
            winner == s,
            winner is None,
            length,
            limited,
            changes,
            decisive,
            signature,
            *feel_values,
        )
        for s in range(job.players)
    ]
    events = [
        (job.variant, job.pairing, job.index, row.seat, row.kind, row.component, float(row.value))
        for row in measures.events(game, record)
    ]
    return games, events


def game_signature(record: Record, agents: Sequence[str]) -> str:
    """A digest of what makes two played games one game: the start, the agent in each seat, every event.

    >>> a = Record("coin", events=[(0, "go"), (-1, "heads")])
    >>> game_signature(a, ["rule", "rule"]) == game_signature(a, ["rule", "rule"])
    True
    >>> game_signature(a, ["rule", "rule"]) == game_signature(a, ["medium", "rule"])
    False
    """
    text = json.dumps(
        [record.game, record.options, record.position, list(agents), record.events], default=str
    )
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def _lead(game: Game, record: Record, winner: int | None) -> tuple[int | None, float]:
    """Lead changes along the game, and the share of it played before its winner led for good.

    Each state after a player's event is valued by the game's search evaluation
    (its ``search`` hook); a player leads when its value is above every other's
    by :data:`LEAD_MARGIN`. Without an evaluation: (None, NaN).
    """
    target = game.info.hooks.search
    if not target:
        return None, math.nan
    policy = game.hook(target)(game)
    leaders: list[int | None] = []
    for state in _after_moves(record):
        values = policy.values(state)
        best = max(range(len(values)), key=values.__getitem__)
        margin = min((values[best] - v for p, v in enumerate(values) if p != best), default=0.0)
        leaders.append(best if margin > LEAD_MARGIN else None)
    changes = 0
    last = None
    for leader in leaders:
        if leader is not None:
            if last is not None and leader != last:
                changes += 1
            last = leader
    if winner is None or not leaders:
        return changes, math.nan
    decided = len(leaders)
    for i in range(len(leaders) - 1, -1, -1):
        if leaders[i] != winner:
            break
        decided = i
    return changes, decided / len(leaders)


def _after_moves(record: Record) -> Iterator[State[Any]]:
    """The state after each player's (not chance's) event, the last one included."""
    events = iter([None, *record.events])
    for state in record.walk():
        event = next(events)
        if event is not None and event[0] >= 0:
            yield state


# --- storing ---------------------------------------------------------------------------


def _write(rows: list[tuple[Any, ...]], columns: dict[str, str], path: Path) -> None:
    """Rows as a Parquet file, written whole or not at all (a temporary file renamed)."""
    connection = duckdb.connect()
    try:
        _create(connection, "t", columns)
        with tempfile.NamedTemporaryFile("w", suffix=".jsonl", dir=path.parent, delete=False) as handle:
            names = list(columns)
            for row in rows:
                values = [None if isinstance(v, float) and math.isnan(v) else v for v in row]
                handle.write(json.dumps(dict(zip(names, values, strict=True))))
                handle.write("\n")
            scratch = handle.name
        try:
            if rows:
                types = "{" + ", ".join(f"'{n}': '{k}'" for n, k in columns.items()) + "}"
                connection.execute(f"INSERT INTO t SELECT * FROM read_json('{scratch}', columns = {types})")
            partial = path.with_suffix(".partial")
            connection.execute(f"COPY t TO '{partial}' (FORMAT parquet)")
            os.replace(partial, path)
        finally:
            os.unlink(scratch)
    finally:
        connection.close()


def _play_chunk(chunk: list[_Job]) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """A chunk's games: the rows of ``games`` and of ``events`` of all of them."""
    games: list[tuple[Any, ...]] = []
    events: list[tuple[Any, ...]] = []
    for job in chunk:
        game_rows, event_rows = _play(job)
        games.extend(game_rows)
        events.extend(event_rows)
    return games, events


def run(
    plan: Plan,
    out: Path,
    jobs: int,
    advance: Callable[[], None] | None = None,
    cluster: Cluster | None = None,
) -> Path:
    """Play what ``plan`` still lacks in ``out``; return the folder of its data.

    ``out`` holds ``plan.json`` and ``data/``; a folder holding another plan is refused.
    Each chunk of :data:`CHUNK` games is a task on one of ``jobs`` processes or on a
    Ray ``cluster``, and its two files are written as soon as it comes back.
    """
    data = out / "data"
    data.mkdir(parents=True, exist_ok=True)
    plan_file = out / "plan.json"
    wanted = json.loads(json.dumps(plan.to_json()))  # as it reads back: tuples become lists
    if plan_file.exists():
        try:
            held = json.loads(plan_file.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            held = None
        if held != wanted:
            raise BalanceError(
                f"{out} holds a run with other settings; give another --out, or remove it to start afresh"
            )
    else:
        plan_file.write_text(json.dumps(wanted, indent=1) + "\n", encoding="utf-8")
    todo: list[tuple[Path, Path, list[_Job]]] = []
    for i, part in enumerate(plan.slices):
        full = simulation_options(plan.game, part.options)
        for start in range(0, plan.n, CHUNK):
            stem = f"{i:02d}-{start // CHUNK:05d}"
            games_path, events_path = data / f"games-{stem}.parquet", data / f"events-{stem}.parquet"
            count = min(CHUNK, plan.n - start)
            if games_path.exists() and events_path.exists():
                for _ in range(count):
                    if advance:
                        advance()
                continue
            chunk = [
                _Job(
                    plan.game,
                    plan.players,
                    full,
                    i,
                    part.variant,
                    part.pairing,
                    part.agents,
                    plan.seed,
                    k,
                )
                for k in range(start, start + count)
            ]
            todo.append((games_path, events_path, chunk))
    chunks = [chunk for _, _, chunk in todo]
    for k, (games, events) in run_chunks(_play_chunk, chunks, jobs=jobs, cluster=cluster):
        games_path, events_path, chunk = todo[k]
        _write(events, EVENT_COLUMNS, events_path)
        _write(games, GAME_COLUMNS, games_path)  # last: a chunk counts as done once both exist
        for _ in chunk:
            if advance:
                advance()
    return data


def open_data(data: Path) -> duckdb.DuckDBPyConnection:
    """A DuckDB connection with the views ``games`` and ``events`` over a run's Parquet files."""
    connection = duckdb.connect()
    for table in ("games", "events"):
        files = str(data / f"{table}-*.parquet").replace("'", "''")
        # By name: chunks stored before the ``signature`` column read it as NULL.
        connection.execute(
            f"CREATE VIEW {table} AS SELECT * FROM read_parquet('{files}', union_by_name = true)"
        )
    return connection


def total_games(plan: Plan) -> int:
    return plan.n * len(plan.slices)
