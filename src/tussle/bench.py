"""How fast the engines run: random playouts, legal-action generation and search.

Everything here goes through the core API (:class:`~tussle.game.State` and
agent specs), so it measures any registered game without knowing its rules.
Per game it times, each for a budget of CPU seconds:

- random playouts from the start to the end, with the game's simulation
  options (:func:`tussle.registry.simulation_options`), so that every game
  ends: events (actions and chance outcomes applied) per second and whole
  games per second;
- legal-action generation: ``len(state.legal_actions(player))`` for each
  acting player of positions taken from random play, on copies made outside
  the timed part, so that a state asked twice does not answer from its cache
  (a game that lists the legal actions while it applies a move would answer
  from that list: its figure would be the cost of a lookup);
- search: a search agent (by default the game's ``medium`` level) choosing
  moves in positions from random play; the agent reports ``last_stats``
  (``iterations`` and ``seconds``, by its own clock) after each choice.

With ``compare`` it also times random playouts of chess with python-chess in
the same run, as a yardstick, and sets each game's playout rate against it
(:func:`targets`, which each game declares). Times are the CPU time of this process, which is steadier
than wall-clock time on a busy machine; a fixed seed makes every run play the
same games.

>>> report = run_bench(["robo-pigs"], seconds=0.01, search=None)
>>> figures = report.games[0]
>>> figures.playout.games >= 1 and figures.playout.events > 0
True
>>> figures.legal.calls > 0
True
"""

from __future__ import annotations

import os
import platform
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from tussle.agents import make_agent
from tussle.agents.base import PlayerView
from tussle.errors import AgentError, TussleError
from tussle.game import CHANCE, Dynamics, Game, Information, State
from tussle.registry import game_ids, game_info, load_game, simulation_options

#: The default CPU seconds of each measurement.
DEFAULT_SECONDS = 2.0
#: The default seed: every run plays the same games.
DEFAULT_SEED = 1
#: The agent spec whose search speed is measured by default.
DEFAULT_SEARCH = "medium"


def targets() -> dict[str, float]:
    """Random-playout steps per second each game should reach, as a multiple of chess's in the same run.

    Each game declares its own (``GameInfo.hooks.bench_target``).

    >>> targets()["fightopia"]
    1.0
    """
    return {
        game_id: target
        for game_id in game_ids()
        if (target := game_info(game_id).hooks.bench_target) is not None
    }


def openspiel_games() -> list[str]:
    """The games OpenSpiel's MCTSBot can search through the adapter: sequential, of perfect information."""
    return [
        game_id
        for game_id in game_ids()
        if game_info(game_id).dynamics == Dynamics.SEQUENTIAL
        and game_info(game_id).information == Information.PERFECT
    ]


#: Positions kept from random play for the legal-action and search measurements.
_POSITIONS = 240
#: Chess playouts stop at this many plies, as a long game between programs would.
CHESS_PLY_LIMIT = 400

_clock = time.process_time


@dataclass(frozen=True)
class Playout:
    """Random playouts: ``events`` applied in ``games`` whole games in ``seconds`` of CPU time."""

    events: int
    games: int
    seconds: float

    @property
    def steps_per_s(self) -> float:
        return self.events / self.seconds if self.seconds > 0 else 0.0

    @property
    def games_per_s(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else 0.0

    @property
    def mean_length(self) -> float:
        return self.events / self.games if self.games else 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "steps_per_s": round(self.steps_per_s, 1),
            "games_per_s": round(self.games_per_s, 3),
            "events": self.events,
            "games": self.games,
            "mean_length": round(self.mean_length, 1),
            "seconds": round(self.seconds, 4),
        }


@dataclass(frozen=True)
class Legal:
    """``calls`` of legal_actions and len in ``seconds``; ``actions`` legal actions counted in all."""

    calls: int
    actions: int
    seconds: float

    @property
    def calls_per_s(self) -> float:
        return self.calls / self.seconds if self.seconds > 0 else 0.0

    @property
    def mean_actions(self) -> float:
        return self.actions / self.calls if self.calls else 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "calls_per_s": round(self.calls_per_s, 1),
            "calls": self.calls,
            "mean_actions": round(self.mean_actions, 1),
            "seconds": round(self.seconds, 4),
        }


@dataclass(frozen=True)
class Search:
    """A search agent's ``iterations`` over ``moves`` choices taking ``seconds`` (as it reports them)."""

    agent: str
    iterations: int
    moves: int
    seconds: float

    @property
    def iterations_per_s(self) -> float:
        return self.iterations / self.seconds if self.seconds > 0 else 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "agent": self.agent,
            "iterations_per_s": round(self.iterations_per_s, 1),
            "iterations": self.iterations,
            "moves": self.moves,
            "seconds": round(self.seconds, 4),
        }


@dataclass
class GameFigures:
    """Every figure of one game; ``search`` is None with ``search_note`` saying why."""

    game: str
    players: int
    options: dict[str, Any]
    playout: Playout
    legal: Legal
    search: Search | None
    search_note: str = ""
    target: float | None = None
    ratio: float | None = None

    @property
    def target_met(self) -> bool | None:
        """Whether the playout rate reaches its target against chess (None: not compared)."""
        if self.target is None or self.ratio is None:
            return None
        return self.ratio >= self.target

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "players": self.players,
            "options": self.options,
            "playout": self.playout.to_json(),
            "legal": self.legal.to_json(),
            "search": self.search.to_json() if self.search is not None else None,
            "search_note": self.search_note or None,
            "ratio_to_chess": round(self.ratio, 3) if self.ratio is not None else None,
            "target": self.target,
            "target_met": self.target_met,
        }


@dataclass
class BenchReport:
    """The figures of one run, with what they were measured on."""

    seconds: float
    seed: int
    games: list[GameFigures] = field(default_factory=list)
    chess: Playout | None = None
    chess_version: str | None = None

    @property
    def targets_met(self) -> bool | None:
        """Whether every compared game meets its target (None without a comparison)."""
        verdicts = [g.target_met for g in self.games if g.target_met is not None]
        return all(verdicts) if verdicts else None

    def to_json(self) -> dict[str, Any]:
        return {
            "seconds_per_measurement": self.seconds,
            "seed": self.seed,
            "clock": "CPU time of the benchmarking process",
            "machine": machine(),
            "chess": (
                dict(self.chess.to_json(), version=self.chess_version, ply_limit=CHESS_PLY_LIMIT)
                if self.chess is not None
                else None
            ),
            "games": [g.to_json() for g in self.games],
            "targets_met": self.targets_met,
        }


def machine() -> dict[str, Any]:
    """What the figures were measured on.

    >>> sorted(machine())
    ['cpus', 'machine', 'python', 'system']
    """
    return {
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "system": platform.system(),
        "machine": platform.machine(),
        "cpus": os.cpu_count(),
    }


# --- measurements -------------------------------------------------------------


def bench_game(game_id: str) -> Game:
    """``game_id`` with its fewest players and its simulation options.

    >>> bench_game("robo-pigs").options["round_limit"]
    100
    """
    return load_game(game_id, **simulation_options(game_id))


def _play_out(state: State, rng: random.Random) -> int:
    """Play ``state`` to its end with uniformly random actions; return the events applied."""
    events = 0
    acting = state.to_act()
    while acting:
        if acting[0] == CHANCE:
            state.apply(CHANCE, state.sample_chance(rng))
            events += 1
        elif len(acting) == 1:
            player = acting[0]
            state.apply(player, state.legal_actions(player).sample(rng))
            events += 1
        else:
            # Everybody at a simultaneous step chooses before anything is applied.
            chosen = [(p, state.legal_actions(p).sample(rng)) for p in acting]
            for player, action in chosen:
                state.apply(player, action)
            events += len(chosen)
        acting = state.to_act()
    return events


def measure_playouts(game: Game, seconds: float, seed: int = DEFAULT_SEED) -> Playout:
    """Random playouts of whole games until ``seconds`` of CPU time are spent (at least one game).

    >>> measure_playouts(bench_game("robo-pigs"), 0.0).games
    1
    """
    rng = random.Random(seed)
    events = games = 0
    start = _clock()
    spent = 0.0
    while games == 0 or spent < seconds:
        events += _play_out(game.new_initial_state(), rng)
        games += 1
        spent = _clock() - start
    return Playout(events, games, spent)


def sample_positions(
    game: Game, count: int = _POSITIONS, seed: int = DEFAULT_SEED
) -> list[tuple[State, int]]:
    """Up to ``count`` (state, acting player) pairs met in random play, spread over several games.

    Chance events are skipped; at a simultaneous step each acting player gives a pair.

    >>> pairs = sample_positions(bench_game("robo-pigs"), 10)
    >>> len(pairs), pairs[0][1] in (0, 1)
    (10, True)
    """
    rng = random.Random(seed)
    out: list[tuple[State, int]] = []
    # Keep each position with a probability that spreads the sample over the
    # games instead of filling it from the opening of the first one.
    keep = 0.25
    for _ in range(1000):
        state = game.new_initial_state()
        acting = state.to_act()
        while acting and len(out) < count:
            if acting[0] == CHANCE:
                state.apply(CHANCE, state.sample_chance(rng))
            else:
                if rng.random() < keep:
                    snapshot = state.clone()
                    out.extend((snapshot, p) for p in acting)
                chosen = [(p, state.legal_actions(p).sample(rng)) for p in acting]
                for player, action in chosen:
                    state.apply(player, action)
            acting = state.to_act()
        if len(out) >= count:
            break
    return out[:count]


def measure_legal(
    game: Game, seconds: float, seed: int = DEFAULT_SEED, positions: list[tuple[State, int]] | None = None
) -> Legal:
    """Calls of ``len(state.legal_actions(player))`` on ``positions`` (default: from random play).

    Each pass works on fresh copies made outside the timed part, so a state
    that caches its legal actions gains nothing from being asked again. The
    copying counts against ``seconds`` (so that the measurement takes that
    long), not in the rate.

    >>> measure_legal(bench_game("robo-pigs"), 0.0).mean_actions > 1000
    True
    """
    if positions is None:
        positions = sample_positions(game, seed=seed)
    if not positions:
        raise TussleError(f"{game.info.id}: random play met no decision to measure")
    calls = actions = 0
    spent = 0.0
    begun = _clock()
    while calls == 0 or _clock() - begun < seconds:
        batch = [(state.clone(), player) for state, player in positions]
        start = _clock()
        for state, player in batch:
            actions += len(state.legal_actions(player))
        spent += _clock() - start
        calls += len(batch)
    return Legal(calls, actions, spent)


def measure_search(
    game: Game,
    spec: str,
    seconds: float,
    seed: int = DEFAULT_SEED,
    positions: list[tuple[State, int]] | None = None,
) -> Search:
    """Iterations per second of the agent ``spec``, over its choices in positions from random play.

    The agent must report ``last_stats`` with ``iterations`` and ``seconds``
    after each choice, and the rate is theirs (the agent's own clock). Raises
    :class:`~tussle.errors.AgentError` if the agent is unknown for this game or
    reports no such figures.
    """
    if make_agent(spec, game, 0, seed=seed).interactive:  # an unknown spec fails here too
        raise AgentError(f"agent {spec!r} needs a person at the terminal, not a benchmark")
    positions = list(positions if positions is not None else sample_positions(game, seed=seed))
    random.Random(seed).shuffle(positions)
    iterations = moves = 0
    spent = 0.0
    for state, player in positions:
        # The budget counts the agent's own seconds: it searches for a time it
        # measures itself, so this is what a move costs it.
        if moves and spent >= seconds:
            break
        agent = make_agent(spec, game, player, seed=seed + moves)
        agent.act(PlayerView(state.clone(), player))
        stats = getattr(agent, "last_stats", None)
        if not isinstance(stats, dict) or "iterations" not in stats or "seconds" not in stats:
            raise AgentError(f"agent {spec!r} reports no search statistics (last_stats)")
        iterations += int(stats["iterations"])
        spent += float(stats["seconds"])
        moves += 1
    return Search(spec, iterations, moves, spent)


def chess_playouts(seconds: float, seed: int = DEFAULT_SEED) -> tuple[Playout, str]:
    """Random chess playouts with python-chess, the yardstick; also returns its version.

    Each ply lists the legal moves and picks one uniformly; a game ends when
    python-chess says it is over (mate, stalemate, insufficient material, the
    75-move rule, fivefold repetition) or after :data:`CHESS_PLY_LIMIT` plies.
    """
    try:
        import chess
    except ImportError:
        raise TussleError(
            "--compare needs the python-chess package (install tussle with the bench extra)"
        ) from None
    rng = random.Random(seed)
    choice = rng.choice
    events = games = 0
    start = _clock()
    spent = 0.0
    while games == 0 or spent < seconds:
        board = chess.Board()
        plies = 0
        while plies < CHESS_PLY_LIMIT and not board.is_game_over():
            board.push(choice(list(board.legal_moves)))
            plies += 1
        events += plies
        games += 1
        spent = _clock() - start
    return Playout(events, games, spent), str(chess.__version__)


def measure_game(
    game_id: str,
    seconds: float,
    *,
    seed: int = DEFAULT_SEED,
    search: str | None = DEFAULT_SEARCH,
    on_step: Callable[[str], None] | None = None,
) -> GameFigures:
    """Every figure of one game (``search=None`` skips the search measurement)."""
    game = bench_game(game_id)

    def step(what: str) -> None:
        if on_step is not None:
            on_step(f"{game_id}: {what}")

    playout = measure_playouts(game, seconds, seed)
    step("playouts")
    positions = sample_positions(game, seed=seed)
    legal = measure_legal(game, seconds, seed, positions)
    step("legal actions")
    found: Search | None = None
    note = ""
    if search is None:
        note = "not measured"
    else:
        try:
            found = measure_search(game, search, seconds, seed, positions)
        except TussleError as exc:  # an agent unknown here, or one that cannot play this game
            note = str(exc)
    step("search")
    return GameFigures(
        game=game_id,
        players=game.num_players,
        options=dict(game.non_default_options()),
        playout=playout,
        legal=legal,
        search=found,
        search_note=note,
    )


def run_bench(
    games: Sequence[str] = (),
    *,
    seconds: float = DEFAULT_SECONDS,
    seed: int = DEFAULT_SEED,
    compare: bool = False,
    search: str | None = DEFAULT_SEARCH,
    on_step: Callable[[str], None] | None = None,
) -> BenchReport:
    """Measure ``games`` (default: all), and with ``compare`` the chess yardstick too.

    ``on_step(label)`` is called after each measurement (for a progress display).
    Unknown game ids fail before anything is measured.
    """
    chosen = list(games) or game_ids()
    for game_id in chosen:
        game_info(game_id)  # an unknown id is a one-line error now, not after minutes
    if seconds < 0:
        raise TussleError(f"seconds per measurement must not be negative, not {seconds}")
    report = BenchReport(seconds=seconds, seed=seed)
    if compare:
        report.chess, report.chess_version = chess_playouts(seconds, seed)
        if on_step is not None:
            on_step("chess: playouts")
    for game_id in dict.fromkeys(chosen):
        figures = measure_game(game_id, seconds, seed=seed, search=search, on_step=on_step)
        if report.chess is not None and report.chess.steps_per_s > 0:
            figures.ratio = figures.playout.steps_per_s / report.chess.steps_per_s
            figures.target = game_info(game_id).hooks.bench_target
        report.games.append(figures)
    return report
