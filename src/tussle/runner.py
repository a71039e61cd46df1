"""Playing games between agents: one game (:func:`play_game`) or many (:func:`run_match`).

The runner is the only place that holds the true state while agents play; each
agent is handed a :class:`~tussle.agents.base.PlayerView` of its own seat. At a
simultaneous step every acting agent chooses before any choice is applied, so no
agent can react to another's submission.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tussle.agents import make_agent
from tussle.agents.base import Agent, PlayerView
from tussle.errors import TussleError
from tussle.game import CHANCE, Game, State
from tussle.record import Record
from tussle.registry import load_game, simulation_options

EventHook = Callable[[State, int, str], None]


def play_game(
    game: Game,
    agents: Sequence[Agent],
    *,
    seed: int | None = None,
    names: Sequence[str] | None = None,
    state: State | None = None,
    on_event: EventHook | None = None,
    max_events: int | None = None,
) -> tuple[State, Record]:
    """Play one game to its end and return the final state and its record.

    ``seed`` drives the chance events only; agents carry their own seeds.
    ``on_event(state, player, notation)`` is called after every event.
    """
    if len(agents) != game.num_players:
        raise TussleError(
            f"{game.info.id} with {game.num_players} players needs {game.num_players} agents, "
            f"got {len(agents)}"
        )
    chance_rng = random.Random(seed)
    if state is None:
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
    record.result = result.to_json() if result is not None else None
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

    def add(self, g: GameSummary) -> None:
        if not self.wins:
            self.wins = [0] * len(self.agents)
            self.returns = [0.0] * len(self.agents)
        self.games += 1
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
            "mean_length": round(self.mean_length, 3),
            "mean_returns": [round(r / self.games, 4) if self.games else 0.0 for r in self.returns],
        }


@dataclass(frozen=True)
class _Job:
    game_id: str
    players: int
    options: dict[str, Any]
    specs: tuple[str, ...]
    seed: int
    index: int
    record_dir: str | None


def _game_seed(seed: int, index: int, part: int) -> int:
    # Derived per game so that a game's outcome does not depend on which
    # process plays it or in what order: --jobs gives the same results.
    return random.Random(f"{seed}/{index}/{part}").getrandbits(63)


def play_indexed(
    game: Game, specs: Sequence[str], seed: int, index: int
) -> tuple[tuple[int, ...], State, Record]:
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


def _play_job(job: _Job) -> GameSummary:
    game = load_game(job.game_id, players=job.players, **job.options)
    k = len(job.specs)
    seats, state, record = play_indexed(game, job.specs, job.seed, job.index)
    result = state.result()
    assert result is not None
    ranking = [0] * k
    returns = [0.0] * k
    for s in range(k):
        ranking[seats[s]] = result.ranking[s]
        returns[seats[s]] = result.returns[s]
    path = None
    if job.record_dir is not None:
        path = str(Path(job.record_dir) / f"{job.game_id}-{job.index:05d}.json")
        record.save(path)
    return GameSummary(job.index, seats, tuple(ranking), tuple(returns), len(record.events), path)


def run_match(
    game_id: str,
    specs: Sequence[str],
    n: int,
    *,
    seed: int = 0,
    jobs: int = 1,
    options: dict[str, Any] | None = None,
    record_dir: str | None = None,
) -> Iterator[GameSummary]:
    """Play ``n`` games, seats rotating, and yield each game's summary in order.

    Results depend only on ``seed``, not on ``jobs``.
    """
    # Every simulated game must end: take the game's simulation defaults
    # (a ply limit, say) for the options not given.
    options = simulation_options(game_id, options)
    game = load_game(game_id, players=len(specs), **options)
    for s, spec in enumerate(specs):  # fail early, in this process, on a bad spec
        make_agent(spec, game, s, seed=0)
    if record_dir is not None:
        Path(record_dir).mkdir(parents=True, exist_ok=True)
    job_list = [_Job(game_id, len(specs), options, tuple(specs), seed, i, record_dir) for i in range(n)]
    if jobs <= 1 or n <= 1:
        for job in job_list:
            yield _play_job(job)
        return
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        yield from pool.map(_play_job, job_list, chunksize=max(1, min(16, n // (jobs * 8) or 1)))
