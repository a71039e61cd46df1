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

import dataclasses
import functools
import hashlib
import json
import math
import os
import random
import re
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import duckdb

from tussle.balance import feel
from tussle.balance.measures import Measures
from tussle.errors import TussleError
from tussle.game import Game, State
from tussle.parallel import Cluster, ray_module, run_chunks, tick
from tussle.record import Record
from tussle.registry import game_info, load_game, simulation_options
from tussle.runner import _game_seed, play_game, play_indexed

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
    #: Each player's first ``openings`` decisions are random (:data:`AUTO_OPENINGS` for
    #: agents that would otherwise replay the same few games).
    openings: int = 0
    #: "scalar", or "batch": the agents' batched forms on the game's batched engine (:func:`_play_batch`).
    engine: str = "scalar"

    def to_json(self) -> dict[str, Any]:
        held = {
            "game": self.game,
            "players": self.players,
            "n": self.n,
            "seed": self.seed,
            "openings": self.openings,
            "slices": [asdict(s) for s in self.slices],
        }
        # Named only when batched, so that a folder played before engines could be chosen still matches.
        return held | {"engine": self.engine} if self.engine != "scalar" else held


def make_plan(
    game_id: str,
    pairings: Sequence[Sequence[str]],
    n: int,
    *,
    seed: int,
    options: dict[str, Any],
    vary: Sequence[tuple[str, list[str]]] = (),
    openings: int | None = 0,
    compare: Sequence[tuple[str, dict[str, Any]]] = (),
    documents: Mapping[tuple[str, str], str] | None = None,
    engine: str = "scalar",
) -> Plan:
    """The run's slices: each variant (every combination of the ``vary`` values) with each pairing.

    ``compare`` gives the variants instead, as (label, options) pairs laid over
    ``options`` (an A/B run: :mod:`tussle.balance.compare`). ``openings`` None is
    :func:`default_openings`. ``documents`` maps a varied (option, value) that names a
    file to the file's text: the option gets the text, the variant's label the name.
    ``engine`` "batch" plays the games on the game's batched engine (agents with a batched form).
    """
    players = {len(p) for p in pairings}
    if len(players) != 1:
        raise BalanceError("every pairing needs the same number of agents (one per seat)")
    if openings is None:
        openings = default_openings(pairings)
    if engine not in ENGINES:
        raise BalanceError(f"--engine {engine!r}: choose {' or '.join(ENGINES)}")
    if engine == "batch":
        batched = batch_engine(game_id, simulation_options(game_id, options))  # jax, and a batched engine
        from tussle.batch.playout import check_agents

        check_agents(batched, [spec for agents in pairings for spec in agents])
    plan = Plan(game_id, players.pop(), n, seed, openings=openings, engine=engine)
    variants: list[tuple[str, dict[str, Any], dict[str, str]]] = [("default", dict(options), {})]
    if compare:
        if vary:
            raise BalanceError("--compare and --vary do not go together; compare two option files")
        changed = sorted({k for _, opts in compare for k in opts if opts.get(k) != compare[0][1].get(k)})
        variants = [
            (label, {**options, **opts}, {k: str(opts.get(k, options.get(k, ""))) for k in changed})
            for label, opts in compare
        ]
    keys = [key for key, _ in vary]
    if len(set(keys)) != len(keys):
        raise BalanceError("an option may be varied once (--vary KEY=V1,V2,...)")
    for key, values in vary:
        if key in options:
            raise BalanceError(f"option {key} is both set (-o) and varied (--vary); choose one")
        variants = [
            (
                f"{key}={value}" if label == "default" else f"{label} {key}={value}",
                {**opts, key: (documents or {}).get((key, value), value)},
                {**varied, key: value},
            )
            for label, opts, varied in variants
            for value in values
        ]
    for label, opts, varied in variants:
        full = simulation_options(game_id, opts)
        game = load_game(game_id, players=plan.players, **full)  # a bad option fails here, at once
        used = dict(game.non_default_options())
        if engine == "batch":
            batch_engine(game_id, full)  # a game without one, or an option it does not take: here, at once
        for agents in pairings:
            _check_agents(game, agents)
            plan.slices.append(Slice(label, used, ",".join(agents), tuple(agents), varied))
    return plan


#: The engines a run may play on.
ENGINES = ("scalar", "batch")


def batch_engine(game_id: str, options: dict[str, Any]) -> Any:
    """The game's batched engine (:func:`tussle.batch.shared`; it needs the jax extra)."""
    from tussle.batch import shared

    return shared(game_id, options)


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
    openings: int = 0


#: Random decisions of each player at the start of every game, by default, when an agent other
#: than ``random`` plays: agents that choose alike from alike positions would otherwise replay
#: the same few games (docs/balance.md, "Openings").
AUTO_OPENINGS = 2


def default_openings(pairings: Sequence[Sequence[str]]) -> int:
    """:data:`AUTO_OPENINGS` when any agent is not ``random`` (whose games all differ anyway), else 0.

    >>> default_openings([["random", "random"]]), default_openings([["rule", "random"]])
    (0, 2)
    """
    every = {spec.partition(":")[0].strip() for agents in pairings for spec in agents}
    return 0 if every <= {"random"} else AUTO_OPENINGS


def _play_opened(game: Game, job: _Job) -> tuple[tuple[int, ...], State[Any], Record]:
    """Game ``job.index`` as :func:`~tussle.runner.play_indexed` plays it, after its random opening.

    The opening's moves are drawn from seeds of the run's seed, the game's number and
    the seat alone, so game i of two variants (an A/B run) opens alike where the
    same moves are legal.
    """
    if not job.openings:
        return play_indexed(game, job.agents, job.seed, job.index)
    from tussle.agents import make_agent
    from tussle.ladder import _Opening

    k = len(job.agents)
    seats = tuple((s + job.index) % k for s in range(k))
    agents = [
        _Opening(
            make_agent(job.agents[seats[s]], game, s, seed=_game_seed(job.seed, job.index, s + 1)),
            job.openings,
            random.Random(f"{job.seed}/{job.index}/opening/{s}").getrandbits(63),
        )
        for s in range(k)
    ]
    state, record = play_game(game, agents, seed=_game_seed(job.seed, job.index, 0))
    return seats, state, record


def _play(job: _Job) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """One game: its rows of ``games`` and of ``events``."""
    game = load_game(job.game, players=job.players, **job.options)
    seats, state, record = _play_opened(game, job)
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


#: Why a batched run takes no cluster.
BATCH_HERE = "--engine batch plays on this machine's batched engine: give no --cluster"
#: Games a stored chunk holds when they are played on a batched engine (thousands a second).
BATCH_CHUNK = 16384


def _play_batch(plan: Plan, i: int, first: int, last: int) -> list[tuple[Any, ...]]:
    """Games ``first`` to ``last - 1`` of slice ``i`` on the batched engine: their rows of ``games``.

    The agents play their batched forms, and the rows are those :func:`_play` stores but for
    what only a walk through each game's record gives: lead changes, drama,
    uncertainty and repetition are left empty, and there are no component events.
    The signature is the engine's digest of the game's events: equal for a repeated game.
    """
    from tussle.batch.playout import play_games

    part = plan.slices[i]
    engine = batch_engine(plan.game, simulation_options(plan.game, part.options))
    games = play_games(engine, plan.seed, first, last - first, part.agents, openings=plan.openings)
    rankings, winners = games.rankings(), games.winners()
    k = plan.players
    rows = []
    for g in range(len(games)):
        index = first + g
        decisions = int(games.decisions[g])
        branching = int(games.choices[g]) / decisions if decisions else math.nan
        choosing = int(games.choosing[g]) / decisions if decisions else math.nan
        signature = "".join(f"{int(word):08x}" for word in games.digest[g])
        winner = int(winners[g])
        for s in range(k):
            rows.append(
                (
                    part.variant,
                    part.pairing,
                    index,
                    s,
                    part.agents[(s + index) % k],
                    int(rankings[g, s]),
                    float(games.returns[g, s]),
                    winner == s,
                    winner < 0,
                    int(games.events[g]),
                    bool(games.truncated[g]),
                    None,
                    math.nan,
                    signature,
                    decisions,
                    branching,
                    choosing,
                    math.nan,
                    math.nan,
                    math.nan,
                )
            )
    return rows


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
        tick()  # the progress moves a game at a time, whatever the chunk's size
    return games, events


# --- what a run's folder holds, and whether it is this run's ------------------------------------

#: A stored chunk's files: the slice, then the games from the first to before the last.
_STORED = re.compile(r"games-(\d+)-(\d+)-(\d+)\.parquet")


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def describe_agent(game: Game, spec: str) -> dict[str, Any]:
    """What an agent spec plays: its class and every parameter (defaults too); a level, what it plays."""
    from tussle.agents import make_agent
    from tussle.agents.levels import LevelAgent

    agent = make_agent(spec, game, 0, seed=0)
    about: dict[str, Any] = {"class": f"{type(agent).__module__}.{type(agent).__qualname__}"}
    about["params"] = json.loads(json.dumps(agent.params, default=str))
    if isinstance(agent, LevelAgent):
        about["plays"] = describe_agent(game, agent.plays) | {"spec": agent.plays}
    return about


def _qualified(chooser: Any) -> str:
    """The dotted name of a batched agent: its class, or its engine's class and method."""
    owner = getattr(chooser, "__self__", None)
    if owner is not None:
        return f"{type(owner).__module__}.{type(owner).__qualname__}.{chooser.__name__}"
    return f"{type(chooser).__module__}.{type(chooser).__qualname__}"


def provenance(plan: Plan, sources: dict[str, str] | None = None) -> dict[str, Any]:
    """What a run's games depend on beyond its plan: tussle's version, the agents, the content files.

    ``content`` has one entry per document option (a deck, a layout) of each variant:
    the SHA-256 digest of its text and, from ``sources`` (digest -> the file it was
    read from), the file's name.
    """
    from tussle import __version__

    game = load_game(plan.game, players=plan.players, **simulation_options(plan.game, plan.slices[0].options))
    agents = {spec: describe_agent(game, spec) for part in plan.slices for spec in part.agents}
    if plan.engine == "batch":
        # What played each agent's games: its batched form (the scalar agent's parameters).
        engine = batch_engine(plan.game, simulation_options(plan.game, plan.slices[0].options))
        for spec, about in agents.items():
            about["batched"] = _qualified(engine.agent_one(spec))
    documents = {o.name for o in game_info(plan.game).options if o.kind == "document"}
    content = []
    for part in dict((s.variant, s) for s in plan.slices).values():
        for name, value in part.options.items():
            if name in documents:
                digest = _digest(str(value))
                entry = {"variant": part.variant, "option": name, "sha256": digest, "chars": len(str(value))}
                content.append(entry | {"file": (sources or {}).get(digest, "")})
    return {"tussle": __version__, "agents": agents, "content": content}


def _refusal(out: Path, held_plan: Any, held_about: Any, plan: dict[str, Any], about: dict[str, Any]) -> str:
    """Why the run held in ``out`` is not this one, in a line; empty when it is."""
    if not isinstance(held_plan, dict) or not isinstance(held_about, dict):
        return f"{out} holds a run with other settings (or one of an older tussle)"
    held_content = {(c.get("variant"), c.get("option")): c for c in held_about.get("content", [])}
    for entry in about["content"]:
        then = held_content.get((entry["variant"], entry["option"]))
        if then is not None and then.get("sha256") != entry["sha256"]:
            what = f"{entry['option']} ({entry['file'] or then.get('file') or 'given inline'})"
            return (
                f"the {what} of {entry['variant']} changed since {out} was played "
                f"(SHA-256 {str(then.get('sha256'))[:12]} then, {entry['sha256'][:12]} now)"
            )
    if held_about.get("tussle") != about["tussle"]:
        return f"{out} was played by tussle {held_about.get('tussle')}, this is tussle {about['tussle']}"
    engines = [str(p.get("engine", "scalar")) for p in (held_plan, plan)]
    if engines[0] != engines[1]:
        return (
            f"{out} holds games played on the {engines[0]} engine, this run plays on the {engines[1]} engine"
        )
    for spec, now in about["agents"].items():
        then = held_about.get("agents", {}).get(spec)
        if then is not None and then != now:
            return f"agent {spec} plays otherwise than when {out} was played ({then} then, {now} now)"
    held_slices, slices = held_plan.get("slices") or [], plan["slices"]
    if len(held_slices) == len(slices):
        for then, now in zip(held_slices, slices, strict=True):
            if isinstance(then, dict) and then.get("options") != now["options"]:
                before, after = then.get("options") or {}, now["options"]
                name = next(k for k in dict.fromkeys([*before, *after]) if before.get(k) != after.get(k))
                values = [str(o.get(name, "its default"))[:40] for o in (before, after)]
                return f"{out} holds a run with other options ({name}: {values[0]} then, {values[1]} now)"
    for key, value in plan.items():
        if key != "n" and held_plan.get(key) != value:
            shown = held_plan.get(key) if key != "slices" else "other variants, options or agents"
            return f"{out} holds a run with other settings (its {key}: {shown})"[:300]
    return ""


def claim(plan: Plan, out: Path, *, fresh: bool = False, sources: dict[str, str] | None = None) -> None:
    """Make ``out`` the folder of ``plan``'s run, keeping the games of this run stored there.

    ``plan.json`` and ``provenance.json`` say what the stored games are; a folder
    holding games of another plan, agents, tussle version or content file (its
    digest changed) is refused in one line, or with ``fresh`` emptied of them.
    The number of games is not part of it: a run grows (or is read in part).
    """
    data = out / "data"
    plan_file, about_file = out / "plan.json", out / "provenance.json"
    wanted = json.loads(json.dumps(plan.to_json()))  # as it reads back: tuples become lists
    about = provenance(plan, sources)
    if plan_file.exists() and not fresh:
        try:
            held_plan = json.loads(plan_file.read_text(encoding="utf-8"))
            held_about = json.loads(about_file.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            held_plan = held_about = None
        why = _refusal(out, held_plan, held_about, wanted, about)
        if why:
            raise BalanceError(f"{why}; give another --out, or --fresh to play it again")
    elif fresh and data.is_dir():
        for path in data.iterdir():
            if path.suffix in (".parquet", ".partial", ".jsonl") and path.name.startswith(
                ("games-", "events-")
            ):
                path.unlink()
    data.mkdir(parents=True, exist_ok=True)
    plan_file.write_text(json.dumps(wanted, indent=1) + "\n", encoding="utf-8")
    about_file.write_text(json.dumps(about, indent=1) + "\n", encoding="utf-8")


def stored(data: Path) -> dict[int, list[tuple[int, int]]]:
    """The games each slice has stored in ``data``: (first, past the last) ranges, in order."""
    held: dict[int, list[tuple[int, int]]] = {}
    for path in data.glob("games-*.parquet"):
        match = _STORED.fullmatch(path.name)
        if match and (data / path.name.replace("games-", "events-", 1)).exists():
            i, a, b = map(int, match.groups())
            held.setdefault(i, []).append((a, b))
    return {i: sorted(ranges) for i, ranges in held.items()}


def _missing(ranges: list[tuple[int, int]], n: int) -> list[tuple[int, int]]:
    """The ranges of 0..n not covered by ``ranges`` (sorted, not overlapping)."""
    out, at = [], 0
    for a, b in ranges:
        if a > at:
            out.append((at, min(a, n)))
        at = max(at, b)
    if at < n:
        out.append((at, n))
    return [(a, b) for a, b in out if a < b]


#: Seconds of play a chunk is cut to (with :data:`CHUNK` games at most): a stopped run plays
#: again no more than that a process, and slow games are spread over every process.
CHUNK_SECONDS = 20.0
#: Chunks each process gets at least, when a run has games enough: no process sits idle at the end.
CHUNKS_PER_WORKER = 4


def chunk_size(games: int, workers: int, seconds_per_game: float) -> int:
    """Games per chunk: :data:`CHUNK` at most, so that each of ``workers`` gets several and none is long.

    >>> chunk_size(10_000, 2, 0.01), chunk_size(100, 2, 0.01), chunk_size(100, 2, 8.0), chunk_size(3, 4, 1.0)
    (100, 13, 2, 1)
    """
    by_count = math.ceil(games / (max(1, workers) * CHUNKS_PER_WORKER))
    by_time = math.floor(CHUNK_SECONDS / seconds_per_game) if seconds_per_game > 0 else CHUNK
    return max(1, min(CHUNK, by_count, by_time))


def _workers(jobs: int, cluster: Cluster | None) -> int:
    if cluster is None:
        return jobs
    if cluster.cpus:
        return cluster.cpus
    try:
        ray = ray_module()
        if ray.is_initialized():
            return int(ray.cluster_resources().get("CPU", 1))
    except Exception:  # no Ray here, or not reachable yet: count this machine's cores
        pass
    return os.cpu_count() or 1


def run(
    plan: Plan,
    out: Path,
    jobs: int,
    advance: Callable[[], None] | None = None,
    cluster: Cluster | None = None,
    *,
    fresh: bool = False,
    sources: dict[str, str] | None = None,
) -> Path:
    """Play what ``plan`` still lacks in ``out``; return the folder of its data.

    ``out`` holds ``plan.json``, ``provenance.json`` and ``data/`` (:func:`claim`).
    The games a slice lacks are played in chunks (:func:`chunk_size`, from the time
    the first game of each pairing took, played here) on ``jobs`` processes or a Ray
    ``cluster``, and each chunk's two files are written as soon as it comes back.
    A game's seeds depend on the run's seed and its number only: how the games are
    cut into chunks, where and in what order they are played changes nothing.
    """
    data = out / "data"
    claim(plan, out, fresh=fresh, sources=sources)
    step = advance or (lambda: None)
    have = stored(data)
    todo: list[tuple[int, int, int]] = []  # slice, first game, past the last
    for i in range(len(plan.slices)):
        lacking = _missing(have.get(i, []), plan.n)
        todo.extend((i, a, b) for a, b in lacking)
        for _ in range(plan.n - sum(b - a for a, b in lacking)):
            step()

    def jobs_of(i: int, a: int, b: int) -> list[_Job]:
        part = plan.slices[i]
        full = simulation_options(plan.game, part.options)
        return [
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
                plan.openings,
            )
            for k in range(a, b)
        ]

    def store(i: int, a: int, b: int, rows: tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]) -> None:
        stem = f"{i:02d}-{a:07d}-{b:07d}"
        _write(rows[1], EVENT_COLUMNS, data / f"events-{stem}.parquet")
        _write(rows[0], GAME_COLUMNS, data / f"games-{stem}.parquet")  # last: done once both exist

    if plan.engine == "batch":
        if cluster is not None:
            raise BalanceError(BATCH_HERE)
        for i, a, b in todo:
            for k in range(a, b, BATCH_CHUNK):
                last = min(b, k + BATCH_CHUNK)
                store(i, k, last, (_play_batch(plan, i, k, last), []))
                for _ in range(k, last):
                    step()
        return data
    # The first game of each pairing is played here, timed: how many games make a chunk.
    speed: dict[str, float] = {}
    for pos, (i, a, b) in enumerate(todo):
        pairing = plan.slices[i].pairing
        if pairing in speed:
            continue
        started = time.perf_counter()
        store(i, a, a + 1, _play_chunk(jobs_of(i, a, a + 1)))
        speed[pairing] = time.perf_counter() - started
        step()
        todo[pos] = (i, a + 1, b)
    workers = _workers(jobs, cluster)
    total = sum(b - a for _, a, b in todo)
    chunks: list[tuple[int, int, int]] = []
    for i, a, b in todo:
        size = chunk_size(total, workers, speed[plan.slices[i].pairing])
        chunks.extend((i, k, min(b, k + size)) for k in range(a, b, size))
    ticked: dict[int, int] = {}

    def on_tick(k: int) -> None:
        # A tick after its chunk's result is counted already; one past its games, from a chunk
        # played again (its worker died), is none.
        if k in ticked and ticked[k] < len(work[k]):
            ticked[k] += 1
            step()

    work = [jobs_of(*c) for c in chunks]
    ticked.update(dict.fromkeys(range(len(chunks)), 0))
    for k, rows in run_chunks(_play_chunk, work, jobs=jobs, cluster=cluster, on_tick=on_tick):
        store(*chunks[k], rows)
        for _ in range(len(work[k]) - ticked.pop(k)):
            step()
    return data


def seat_intervals(data: Path, n: int) -> list[tuple[str, str, float, float, float]]:
    """Each slice's first seat: (variant, pairing, win rate, low, high) over its first ``n`` games."""
    from tussle.balance.stats import wilson

    connection = open_data(data, n)
    try:
        rows = connection.execute(
            "SELECT variant, pairing, count(*), count(*) FILTER (WHERE won) FROM games "
            "WHERE seat = 0 GROUP BY ALL ORDER BY ALL"
        ).fetchall()
    finally:
        connection.close()
    return [(v, p, *wilson(int(w), int(g))) for v, p, g, w in rows]


#: Games per slice a run ``--until`` plays first, before it knows how many it needs.
UNTIL_FIRST = 200


def run_until(
    plan: Plan,
    out: Path,
    jobs: int,
    half_width: float,
    *,
    advance: Callable[[], None] | None = None,
    cluster: Cluster | None = None,
    fresh: bool = False,
    sources: dict[str, str] | None = None,
) -> Plan:
    """Play in rounds until every slice's first-seat win rate has an interval of +-``half_width``.

    ``plan.n`` is the cap. Each round grows the run to the games the last round's
    rates need: a Wilson interval's half-width falls as 1/sqrt(n), so n grows by
    (its half-width / ``half_width``) squared (10% more, at least 50 games).
    Returns the plan with the games played.
    """
    n = min(plan.n, UNTIL_FIRST)
    while True:
        grown = dataclasses.replace(plan, n=n)
        run(grown, out, jobs, advance, cluster, fresh=fresh, sources=sources)
        fresh = False
        widest = max(((hi - lo) / 2 for _, _, _, lo, hi in seat_intervals(out / "data", n)), default=0.0)
        if widest <= half_width or n >= plan.n:
            return grown
        n = min(plan.n, max(n + 50, math.ceil(n * (widest / half_width) ** 2 * 1.1)))


def open_data(data: Path, games: int | None = None) -> duckdb.DuckDBPyConnection:
    """A DuckDB connection with the tables ``games`` and ``events`` read from a run's Parquet files.

    With ``games``, only each slice's first that many games (a folder may hold more).
    """
    connection = duckdb.connect()
    first = f" WHERE game < {int(games)}" if games is not None else ""
    for table in ("games", "events"):
        files = str(data / f"{table}-*.parquet").replace("'", "''")
        # Read once into DuckDB's own columnar table: a view would open every chunk's file again for
        # each of the report's queries (a 98-slice run: hundreds of files, thousands of queries).
        # By name: chunks stored before the ``signature`` column read it as NULL.
        connection.execute(
            f"CREATE TABLE {table} AS SELECT * FROM read_parquet('{files}', union_by_name = true){first}"
        )
    return connection


def total_games(plan: Plan) -> int:
    return plan.n * len(plan.slices)
