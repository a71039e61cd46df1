"""Playing games between agents: one game (:func:`play_game`) or many (:func:`run_match`).

The runner is the only place that holds the true state while agents play; each
agent is handed a :class:`~tussle.agents.base.PlayerView` of its own seat. At a
simultaneous step every acting agent chooses before any choice is applied, so no
agent can react to another's submission.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from tussle.agents import make_agent
from tussle.agents.base import Agent, PlayerView
from tussle.errors import TussleError
from tussle.files import write_text
from tussle.game import CHANCE, Game, Result, State, Termination
from tussle.parallel import DEFAULT_CHUNK, Cluster, chunked, claim_folder, run_chunks
from tussle.record import Record, saved_game
from tussle.registry import load_game, simulation_options

EventHook = Callable[[State[Any], int, str], None]


def play_game(
    game: Game,
    agents: Sequence[Agent],
    *,
    seed: int | None = None,
    names: Sequence[str] | None = None,
    state: State[Any] | None = None,
    on_event: EventHook | None = None,
    max_events: int | None = None,
    record: Record | None = None,
) -> tuple[State[Any], Record]:
    """Play one game to its end and return the final state and its record.

    ``seed`` drives the chance events only; agents carry their own seeds.
    ``on_event(state, player, notation)`` is called after every event.
    ``record`` goes on with a record whose events led to ``state`` (a game resumed, or
    taken back): the events are added to it as they are played, so it holds them even
    when an agent stops the game by raising.
    """
    if len(agents) != game.num_players:
        raise TussleError(
            f"{game.info.id} with {game.num_players} players needs {game.num_players} agents, "
            f"got {len(agents)}"
        )
    chance_rng = random.Random(seed)
    if record is not None:
        if state is None:
            raise TussleError("play_game: a record to go on with needs the state its events lead to")
    elif state is None:
        state = game.new_initial_state()
        record = Record.start(game, list(names or [a.spec for a in agents]))
    else:
        record = Record.start(game, list(names or [a.spec for a in agents]), position=state.position())
    count = 0
    while True:
        acting = state.to_act()
        if not acting:
            break
        if max_events is not None and count >= max_events:
            raise TussleError(f"the game did not end within {max_events} events")
        if acting == (CHANCE,):
            outcome = state.sample_chance(chance_rng)
            text = state.action_to_str(CHANCE, outcome)
            state.apply(CHANCE, outcome)
            record.add(CHANCE, text)
            count += 1
            if on_event:
                on_event(state, CHANCE, text)
            continue
        # Everybody acting now chooses before anything is applied.
        chosen = [(p, agents[p].act(PlayerView(state, p))) for p in acting]
        for player, action in chosen:
            text = state.action_to_str(player, action)
            state.apply(player, action)
            record.add(player, text)
            count += 1
            if on_event:
                on_event(state, player, text)
    result = state.result()
    record.finish(result)
    return state, record


@dataclass(frozen=True)
class GameSummary:
    """One game of a match, by agent index (not seat)."""

    index: int
    seats: tuple[int, ...]  # seats[s] = index of the agent in seat s
    ranking: tuple[int, ...]  # by agent index
    returns: tuple[float, ...]  # by agent index
    length: int
    record_path: str | None
    stored_before: bool = False  # taken from a record an earlier, stopped run saved
    termination: str = "rules"  # how it ended: the rules, or a limit of the options (Termination)


@dataclass
class MatchSummary:
    """Totals over a match, per agent (in the order given)."""

    game: str
    agents: list[str]
    options: dict[str, Any]
    games: int = 0
    wins: list[int] = field(default_factory=list)
    draws: int = 0
    total_length: int = 0
    returns: list[float] = field(default_factory=list)
    #: Games a limit of the options ended (Termination.LIMIT), not the rules: a draw or a win on
    #: the limit's terms, counted apart so that a table of wins does not pass them off as the rules'.
    cut_by_limit: int = 0

    def add(self, g: GameSummary) -> None:
        if not self.wins:
            self.wins = [0] * len(self.agents)
            self.returns = [0.0] * len(self.agents)
        self.games += 1
        if g.termination == Termination.LIMIT:
            self.cut_by_limit += 1
        self.total_length += g.length
        firsts = [a for a, place in enumerate(g.ranking) if place == 1]
        if len(firsts) == 1:
            self.wins[firsts[0]] += 1
        else:
            self.draws += 1
        for a, r in enumerate(g.returns):
            self.returns[a] += r

    @property
    def mean_length(self) -> float:
        return self.total_length / self.games if self.games else 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "options": self.options,
            "agents": self.agents,
            "games": self.games,
            "wins": {f"{i}:{a}": w for i, (a, w) in enumerate(zip(self.agents, self.wins, strict=True))},
            "wins_by_agent": self.wins,
            "draws": self.draws,
            "cut_by_limit": self.cut_by_limit,
            "mean_length": round(self.mean_length, 3),
            "mean_returns": [round(r / self.games, 4) if self.games else 0.0 for r in self.returns],
        }


def _game_seed(seed: int, index: int, part: int) -> int:
    # Derived per game so that a game's outcome does not depend on which
    # process plays it or in what order: --jobs gives the same results.
    return random.Random(f"{seed}/{index}/{part}").getrandbits(63)


def play_indexed(
    game: Game, specs: Sequence[str], seed: int, index: int
) -> tuple[tuple[int, ...], State[Any], Record]:
    """Game ``index`` of a match (:func:`run_match`): the agents' seats, the final state and the record.

    Seats rotate with the index (seat ``s`` plays agent ``seats[s]``), and the agents'
    and chance's seeds come from ``seed`` and the index alone, so any process plays the
    same game.
    """
    k = len(specs)
    seats = tuple((s + index) % k for s in range(k))
    agents = [make_agent(specs[seats[s]], game, s, seed=_game_seed(seed, index, s + 1)) for s in range(k)]
    state, record = play_game(game, agents, seed=_game_seed(seed, index, 0))
    return seats, state, record


@dataclass(frozen=True)
class _Chunk:
    """Consecutive games of a match, as handed to a worker."""

    game_id: str
    players: int
    options: dict[str, Any]
    specs: tuple[str, ...]
    seed: int
    indices: tuple[int, ...]
    records: bool  # send each game's record back to be saved


def _summary(
    index: int, seats: tuple[int, ...], result: Result, length: int, path: str | None
) -> GameSummary:
    """A game's summary by agent (not seat) from its result by seat."""
    ranking = [0] * len(seats)
    returns = [0.0] * len(seats)
    for s, agent in enumerate(seats):
        ranking[agent] = result.ranking[s]
        returns[agent] = result.returns[s]
    return GameSummary(
        index, seats, tuple(ranking), tuple(returns), length, path, termination=str(result.termination)
    )


def _play_chunk(chunk: _Chunk) -> list[tuple[GameSummary, str | None]]:
    """Play a chunk's games: each one's summary and, if asked, its record as text."""
    game = load_game(chunk.game_id, players=chunk.players, **chunk.options)
    played = []
    for index in chunk.indices:
        seats, state, record = play_indexed(game, chunk.specs, chunk.seed, index)
        result = state.result()
        assert result is not None
        summary = _summary(index, seats, result, len(record.events), None)
        played.append((summary, record.dumps() if chunk.records else None))
    return played


def record_path(record_dir: str | Path, game_id: str, index: int) -> Path:
    """Where :func:`run_match` saves game ``index``'s record.

    >>> record_path("games", "fite", 7).as_posix()
    'games/fite-00007.json'
    """
    return Path(record_dir) / f"{game_id}-{index:05d}.json"


def _stored(
    game_id: str, names: Sequence[str], record_dir: str, index: int, used: dict[str, Any]
) -> GameSummary | None:
    """Game ``index``'s summary from its record already in ``record_dir``, if there is a sound one."""
    path = record_path(record_dir, game_id, index)
    seats = tuple((s + index) % len(names) for s in range(len(names)))
    saved = saved_game(path, game_id, used, [names[a] for a in seats])
    if saved is None:
        return None  # missing, or not a game of this match after all: played again
    record, result = saved
    return _summary(index, seats, result, len(record.events), str(path))


def run_match(
    game_id: str,
    specs: Sequence[str],
    n: int,
    *,
    seed: int = 0,
    jobs: int = 1,
    options: dict[str, Any] | None = None,
    record_dir: str | None = None,
    cluster: Cluster | None = None,
    chunk: int = DEFAULT_CHUNK,
) -> Iterator[GameSummary]:
    """Play ``n`` games, seats rotating, and yield each game's summary in order.

    Games are played in chunks of ``chunk``, on ``jobs`` processes or on a Ray
    ``cluster`` (:mod:`tussle.parallel`); the results depend only on ``seed``.
    With ``record_dir`` every game's record is saved there as it comes back, and
    a match started again with the same settings and folder takes the games
    already there (their summaries say ``stored_before``) instead of playing them again.

    >>> [g.ranking for g in run_match("fite", ["random", "random"], 2, seed=1)]
    [(1, 2), (2, 1)]
    """
    # Every simulated game must end: take the game's simulation defaults
    # (a ply limit, say) for the options not given.
    options = simulation_options(game_id, options)
    game = load_game(game_id, players=len(specs), **options)
    # Fail early, in this process, on a bad spec; the names are those records give the agents.
    names = [make_agent(spec, game, s, seed=0).spec for s, spec in enumerate(specs)]
    ready: dict[int, GameSummary] = {}
    if record_dir is not None:
        used = dict(game.non_default_options())
        identity = {"command": "match", "game": game_id, "options": used, "agents": list(specs), "seed": seed}
        if claim_folder(Path(record_dir), identity, "record directory"):
            as_saved = json.loads(json.dumps(used))  # as a record reads back
            for index in range(n):
                stored = _stored(game_id, names, record_dir, index, as_saved)
                if stored is not None:
                    ready[index] = replace(stored, stored_before=True)
    missing = [i for i in range(n) if i not in ready]
    chunks = [
        _Chunk(game_id, len(specs), options, tuple(specs), seed, tuple(part), record_dir is not None)
        for part in chunked(missing, chunk)
    ]
    upto = 0
    # The games an earlier run saved come first: a rerun of a finished match has no chunk to wait for.
    while upto in ready:
        yield ready.pop(upto)
        upto += 1
    for _, played in run_chunks(_play_chunk, chunks, jobs=jobs, cluster=cluster):
        for summary, text in played:
            if record_dir is not None and text is not None:
                path = record_path(record_dir, game_id, summary.index)
                write_text(path, text + "\n")
                summary = replace(summary, record_path=str(path))
            ready[summary.index] = summary
        while upto in ready:  # in order, whatever order the chunks came back in
            yield ready.pop(upto)
            upto += 1
