"""How fast the engines run: random playouts, legal-action listing and search.

Everything here goes through the core API (:class:`~tussle.game.State` and
agent specs), so it measures any registered game without knowing its rules.
Per game it times:

- random playouts from the start to the end, with the game's simulation
  options (:func:`tussle.registry.simulation_options`), so that every game
  ends. A *decision* is one player's choice (``legal_actions(p).sample`` then
  the checked ``apply``); a *chance event* is one drawn outcome. Both are
  counted, and reported apart: decisions per second is the figure set against
  the yardsticks, with the time spent on chance events included;
- legal-action listing: ``list(state.legal_actions(player))``, every legal
  action written out, for each acting player of positions taken from random
  play, on copies made outside the timed part, so that a state asked twice does
  not answer from its cache;
- search: a search agent (by default the game's ``medium`` level) choosing
  moves in positions from random play, at least :data:`MIN_SEARCH_MOVES` of
  them; its iterations (as it reports them in ``last_stats``) per CPU second of
  its ``act`` calls, as timed here.

With ``compare`` the yardsticks are timed in the same run: random chess
playouts with python-chess (a plain ``list(board.legal_moves)`` and ``push``
loop with the cheap end checks a game's state makes: no legal move, the
75-move rule, insufficient material, a ply limit) and, when OpenSpiel is
installed, random playouts of OpenSpiel's C++ games driven from Python
(:data:`OPENSPIEL_YARDSTICKS`). Playouts run in interleaved rounds (every game
and yardstick in turn, round after round), so that a change in the machine's
load touches them all alike; each rate is given as the min, median and max
over the rounds, and each game's rate against a yardstick is the ratio within
each round. Times are the CPU time of this process (steadier than wall-clock
time on a busy machine); a fixed seed makes every run play the same games.

>>> report = run_bench(["robo-pigs"], seconds=0.01, search=None)
>>> figures = report.games[0]
>>> figures.playout.games >= 1 and figures.playout.decisions > 0
True
>>> figures.legal.calls > 0 and figures.legal.actions >= figures.legal.calls
True
"""

from __future__ import annotations

import os
import platform
import random
import statistics
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from tussle.agents import make_agent
from tussle.agents.base import PlayerView
from tussle.errors import AgentError, TussleError
from tussle.game import CHANCE, Dynamics, Game, Information, State, draw_outcome
from tussle.registry import game_ids, game_info, load_game, simulation_options

#: The default CPU seconds of each measurement (the playouts share them out over the rounds).
DEFAULT_SECONDS = 2.0
#: The default seed: every run plays the same games.
DEFAULT_SEED = 1
#: The agent spec whose search speed is measured by default.
DEFAULT_SEARCH = "medium"
#: The default number of interleaved playout rounds.
DEFAULT_ROUNDS = 5
#: Search speed is taken over at least this many moves, so that one slow move does not decide it.
MIN_SEARCH_MOVES = 20
#: Chess playouts stop at this many plies, as a long game between programs would.
CHESS_PLY_LIMIT = 400
#: OpenSpiel's C++ games timed as a second yardstick with ``compare``, when OpenSpiel is installed.
OPENSPIEL_YARDSTICKS = ("breakthrough", "chess", "goofspiel")

#: Positions kept from random play for the legal-action and search measurements.
_POSITIONS = 240

_clock = time.process_time


def targets() -> dict[str, float]:
    """Decisions per second each game should reach, as a multiple of the chess yardstick's in the same run.

    Each game declares its own (``GameInfo.hooks.bench_target``).

    >>> targets()["fightopia"] > 0
    True
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


# --- figures ------------------------------------------------------------------


@dataclass(frozen=True)
class Spread:
    """The min, median and max of one figure over the rounds of a run.

    >>> Spread.of([3.0, 1.0, 2.0])
    Spread(min=1.0, median=2.0, max=3.0)
    """

    min: float
    median: float
    max: float

    @classmethod
    def of(cls, values: Iterable[float]) -> Spread:
        items = sorted(values)
        if not items:
            return cls(0.0, 0.0, 0.0)
        return cls(items[0], statistics.median(items), items[-1])

    def to_json(self, digits: int = 1) -> dict[str, float]:
        return {
            "min": round(self.min, digits),
            "median": round(self.median, digits),
            "max": round(self.max, digits),
        }


@dataclass(frozen=True)
class Round:
    """One round of random playouts: ``games`` whole games, their decisions and chance events, CPU time."""

    decisions: int
    chance: int
    games: int
    seconds: float

    def rate(self, count: int) -> float:
        return count / self.seconds if self.seconds > 0 else 0.0


@dataclass(frozen=True)
class Playout:
    """Random playouts in rounds; the rates are spreads over the rounds."""

    rounds: tuple[Round, ...]

    @property
    def decisions(self) -> int:
        return sum(r.decisions for r in self.rounds)

    @property
    def chance(self) -> int:
        return sum(r.chance for r in self.rounds)

    @property
    def games(self) -> int:
        return sum(r.games for r in self.rounds)

    @property
    def seconds(self) -> float:
        return sum(r.seconds for r in self.rounds)

    @property
    def decisions_per_s(self) -> Spread:
        return Spread.of(r.rate(r.decisions) for r in self.rounds)

    @property
    def chance_per_s(self) -> Spread:
        return Spread.of(r.rate(r.chance) for r in self.rounds)

    @property
    def games_per_s(self) -> Spread:
        return Spread.of(r.rate(r.games) for r in self.rounds)

    def to_json(self) -> dict[str, Any]:
        return {
            "decisions_per_s": self.decisions_per_s.to_json(),
            "chance_events_per_s": self.chance_per_s.to_json(),
            "games_per_s": self.games_per_s.to_json(3),
            "decisions": self.decisions,
            "chance_events": self.chance,
            "games": self.games,
            "decisions_per_game": round(self.decisions / self.games, 1) if self.games else 0.0,
            "chance_events_per_game": round(self.chance / self.games, 1) if self.games else 0.0,
            "rounds": len(self.rounds),
            "seconds": round(self.seconds, 4),
        }


def ratios(game: Playout, yardstick: Playout) -> Spread:
    """``game``'s decisions per second over ``yardstick``'s, round by round (both timed in each round)."""
    return Spread.of(
        g.rate(g.decisions) / y.rate(y.decisions)
        for g, y in zip(game.rounds, yardstick.rounds, strict=True)
        if y.rate(y.decisions) > 0
    )


@dataclass(frozen=True)
class Legal:
    """``calls`` of ``list(legal_actions)`` in ``seconds``, listing ``actions`` legal actions in all."""

    calls: int
    actions: int
    seconds: float

    @property
    def calls_per_s(self) -> float:
        return self.calls / self.seconds if self.seconds > 0 else 0.0

    @property
    def actions_per_s(self) -> float:
        return self.actions / self.seconds if self.seconds > 0 else 0.0

    @property
    def mean_actions(self) -> float:
        return self.actions / self.calls if self.calls else 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "calls_per_s": round(self.calls_per_s, 1),
            "actions_per_s": round(self.actions_per_s, 1),
            "calls": self.calls,
            "mean_actions": round(self.mean_actions, 1),
            "seconds": round(self.seconds, 4),
        }


@dataclass(frozen=True)
class Search:
    """A search agent's ``iterations`` over ``moves`` choices taking ``seconds`` of CPU time (timed here).

    ``agent_seconds`` is what the agent reported by its own (wall-clock) measure.
    """

    agent: str
    iterations: int
    moves: int
    seconds: float
    agent_seconds: float = 0.0

    @property
    def iterations_per_s(self) -> float:
        return self.iterations / self.seconds if self.seconds > 0 else 0.0

    @property
    def seconds_per_move(self) -> float:
        return self.seconds / self.moves if self.moves else 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "agent": self.agent,
            "iterations_per_s": round(self.iterations_per_s, 1),
            "seconds_per_move": round(self.seconds_per_move, 4),
            "iterations": self.iterations,
            "moves": self.moves,
            "seconds": round(self.seconds, 4),
            "clock": "CPU time of the agent's act calls",
            "agent_seconds": round(self.agent_seconds, 4),
        }


@dataclass
class Yardstick:
    """A game of another library timed beside tussle's: its name, the library and version, its playouts."""

    name: str
    label: str
    version: str
    playout: Playout
    legal: Legal | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "label": self.label,
            "version": self.version,
            "playout": self.playout.to_json(),
            "legal": self.legal.to_json() if self.legal is not None else None,
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
    #: Decisions per second against each yardstick's (by its name), round by round.
    ratios: dict[str, Spread] = field(default_factory=dict)

    @property
    def ratio(self) -> Spread | None:
        """Against the chess yardstick (None: not compared)."""
        return self.ratios.get("chess")

    @property
    def target_met(self) -> bool | None:
        """Whether the median ratio to chess reaches the target (None: not compared)."""
        if self.target is None or self.ratio is None:
            return None
        return self.ratio.median >= self.target

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "players": self.players,
            "options": self.options,
            "playout": self.playout.to_json(),
            "legal": self.legal.to_json(),
            "search": self.search.to_json() if self.search is not None else None,
            "search_note": self.search_note or None,
            "ratio_to_chess": self.ratio.to_json(3) if self.ratio is not None else None,
            "ratios": {name: spread.to_json(3) for name, spread in self.ratios.items()},
            "target": self.target,
            "target_met": self.target_met,
        }


@dataclass
class BenchReport:
    """The figures of one run, with what they were measured on."""

    seconds: float
    seed: int
    rounds: int = DEFAULT_ROUNDS
    games: list[GameFigures] = field(default_factory=list)
    yardsticks: list[Yardstick] = field(default_factory=list)
    #: Why a yardstick asked for is missing (OpenSpiel not installed), or empty.
    yardstick_note: str = ""

    @property
    def chess(self) -> Yardstick | None:
        return next((y for y in self.yardsticks if y.name == "chess"), None)

    @property
    def targets_met(self) -> bool | None:
        """Whether every compared game meets its target (None without a comparison)."""
        verdicts = [g.target_met for g in self.games if g.target_met is not None]
        return all(verdicts) if verdicts else None

    def to_json(self) -> dict[str, Any]:
        chess = self.chess
        return {
            "seconds_per_measurement": self.seconds,
            "rounds": self.rounds,
            "seed": self.seed,
            "clock": "CPU time of the benchmarking process",
            "machine": machine(),
            "chess": dict(chess.to_json(), ply_limit=CHESS_PLY_LIMIT) if chess is not None else None,
            "yardsticks": [y.to_json() for y in self.yardsticks if y.name != "chess"],
            "yardstick_note": self.yardstick_note or None,
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


# --- playouts -------------------------------------------------------------------

#: One whole random game: returns (decisions, chance events).
PlayOne = Callable[[], tuple[int, int]]


def bench_game(game_id: str) -> Game:
    """``game_id`` with its fewest players and its simulation options.

    >>> bench_game("robo-pigs").options["round_limit"]
    100
    """
    return load_game(game_id, **simulation_options(game_id))


def play_out(state: State[Any], rng: random.Random) -> tuple[int, int]:
    """Play ``state`` to its end with uniformly random actions; return (decisions, chance events).

    >>> play_out(bench_game("fite").new_initial_state(), random.Random(1))[1] > 0
    True
    """
    decisions = chance = 0
    acting = state.to_act()
    while acting:
        if acting[0] == CHANCE:
            state.apply(CHANCE, state.sample_chance(rng))
            chance += 1
        elif len(acting) == 1:
            player = acting[0]
            state.apply(player, state.legal_actions(player).sample(rng))
            decisions += 1
        else:
            # Everybody at a simultaneous step chooses before anything is applied.
            chosen = [(p, state.legal_actions(p).sample(rng)) for p in acting]
            for player, action in chosen:
                state.apply(player, action)
            decisions += len(chosen)
        acting = state.to_act()
    return decisions, chance


def game_player(game: Game, seed: int = DEFAULT_SEED) -> PlayOne:
    """Random games of ``game``, one per call, from one seeded generator."""
    rng = random.Random(seed)
    return lambda: play_out(game.new_initial_state(), rng)


def chess_player(seed: int = DEFAULT_SEED) -> tuple[PlayOne, str]:
    """Random chess games with python-chess, one per call, and its version: the yardstick.

    Each ply lists the legal moves and pushes one picked uniformly; a game ends
    with no legal move (mate or stalemate), at the 75-move rule, with
    insufficient material or after :data:`CHESS_PLY_LIMIT` plies. These are the
    cheap checks a game's state makes as it moves; repetitions are not looked
    for (python-chess's ``is_game_over`` lists the moves again and scans the
    move stack for them, which made the old yardstick 1.5 times slower).
    """
    try:
        import chess
    except ImportError:
        raise TussleError(
            "--compare needs the python-chess package (install tussle with the bench extra)"
        ) from None
    choice = random.Random(seed).choice

    def play() -> tuple[int, int]:
        board = chess.Board()
        plies = 0
        while plies < CHESS_PLY_LIMIT:
            moves = list(board.legal_moves)
            if not moves or board.halfmove_clock >= 150 or board.is_insufficient_material():
                break
            board.push(choice(moves))
            plies += 1
        return plies, 0

    return play, str(chess.__version__)


def openspiel_player(name: str, seed: int = DEFAULT_SEED) -> PlayOne:
    """Random games of OpenSpiel's C++ game ``name``, driven from Python as a Python user drives it.

    Each decision lists the legal actions and applies one picked uniformly; a
    chance node draws its outcome by the probabilities; at a simultaneous node
    every player picks and the joint action is applied (each player's pick is a
    decision).
    """
    import pyspiel  # type: ignore[import-not-found]

    game = pyspiel.load_game(name)
    rng = random.Random(seed)
    choice, draw = rng.choice, rng.random

    def play() -> tuple[int, int]:
        state = game.new_initial_state()
        decisions = chance = 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(draw_outcome(state.chance_outcomes(), draw()))
                chance += 1
            elif state.is_simultaneous_node():
                joint = [choice(state.legal_actions(p)) for p in range(game.num_players())]
                state.apply_actions(joint)
                decisions += len(joint)
            else:
                state.apply_action(choice(state.legal_actions()))
                decisions += 1
        return decisions, chance

    return play


def _round(play: PlayOne, seconds: float) -> Round:
    """Whole games from ``play`` until ``seconds`` of CPU time are spent (at least one game)."""
    decisions = chance = games = 0
    start = _clock()
    spent = 0.0
    while games == 0 or spent < seconds:
        d, c = play()
        decisions += d
        chance += c
        games += 1
        spent = _clock() - start
    return Round(decisions, chance, games, spent)


def measure_rounds(
    players: dict[str, PlayOne],
    seconds: float,
    rounds: int = DEFAULT_ROUNDS,
    on_round: Callable[[str], None] | None = None,
) -> dict[str, Playout]:
    """Random playouts of every entry of ``players``, interleaved: ``rounds`` rounds of ``seconds / rounds``.

    One untimed game of each comes first, to warm what a game keeps between games.

    >>> out = measure_rounds({"fite": game_player(bench_game("fite"))}, 0.0, rounds=3)
    >>> len(out["fite"].rounds), out["fite"].games
    (3, 3)
    """
    if rounds < 1:
        raise TussleError(f"rounds must be at least 1, not {rounds}")
    done: dict[str, list[Round]] = {name: [] for name in players}
    # One untimed game each first: the tables a game fills as positions come up
    # (move tables, movement caches) would otherwise count against its first round only.
    for play in players.values():
        play()
    for _ in range(rounds):
        for name, play in players.items():
            done[name].append(_round(play, seconds / rounds))
            if on_round is not None:
                on_round(name)
    return {name: Playout(tuple(items)) for name, items in done.items()}


def measure_playouts(game: Game, seconds: float, seed: int = DEFAULT_SEED, rounds: int = 1) -> Playout:
    """Random playouts of ``game`` alone for ``seconds`` of CPU time, in ``rounds``.

    >>> measure_playouts(bench_game("robo-pigs"), 0.0).games
    1
    """
    return measure_rounds({"game": game_player(game, seed)}, seconds, rounds)["game"]


# --- legal actions and search --------------------------------------------------


def sample_positions(
    game: Game, count: int = _POSITIONS, seed: int = DEFAULT_SEED
) -> list[tuple[State[Any], int]]:
    """Up to ``count`` (state, acting player) pairs met in random play, spread over several games.

    Chance events are skipped; at a simultaneous step each acting player gives a pair.

    >>> pairs = sample_positions(bench_game("robo-pigs"), 10)
    >>> len(pairs), pairs[0][1] in (0, 1)
    (10, True)
    """
    rng = random.Random(seed)
    out: list[tuple[State[Any], int]] = []
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
    game: Game,
    seconds: float,
    seed: int = DEFAULT_SEED,
    positions: list[tuple[State[Any], int]] | None = None,
) -> Legal:
    """Calls of ``list(state.legal_actions(player))`` on ``positions`` (default: from random play).

    Every legal action is written out, in every game alike (a game that could
    answer ``len`` or ``sample`` without listing gains nothing here). Each pass
    works on fresh copies made outside the timed part, so a state that caches
    its legal actions gains nothing from being asked again. The copying counts
    against ``seconds`` (so that the measurement takes that long), not in the
    rate.

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
            actions += len(list(state.legal_actions(player)))
        spent += _clock() - start
        calls += len(batch)
    return Legal(calls, actions, spent)


def chess_legal(seconds: float, seed: int = DEFAULT_SEED) -> Legal:
    """``list(board.legal_moves)`` on chess positions from random play, timed as in :func:`measure_legal`."""
    import chess

    rng = random.Random(seed)
    boards: list[Any] = []
    while len(boards) < _POSITIONS:
        board = chess.Board()
        while len(boards) < _POSITIONS:
            moves = list(board.legal_moves)
            if not moves or board.ply() >= CHESS_PLY_LIMIT:
                break
            if rng.random() < 0.25:
                boards.append(board.copy(stack=False))
            board.push(rng.choice(moves))
    calls = actions = 0
    spent = 0.0
    begun = _clock()
    while calls == 0 or _clock() - begun < seconds:
        batch = [board.copy(stack=False) for board in boards]
        start = _clock()
        for board in batch:
            actions += len(list(board.legal_moves))
        spent += _clock() - start
        calls += len(batch)
    return Legal(calls, actions, spent)


def measure_search(  # noqa: PLR0917 (the measurements share their first four arguments)
    game: Game,
    spec: str,
    seconds: float,
    seed: int = DEFAULT_SEED,
    positions: list[tuple[State[Any], int]] | None = None,
    min_moves: int = MIN_SEARCH_MOVES,
) -> Search:
    """Iterations per CPU second of the agent ``spec``, over its choices in positions from random play.

    It searches at least ``min_moves`` positions and until ``seconds`` of CPU
    time are spent. The iterations are the agent's own count (``last_stats``
    after each choice); the time is the CPU time of its ``act`` calls, timed
    here. Raises :class:`~tussle.errors.AgentError` if the agent is unknown for
    this game or reports no such figures.
    """
    if make_agent(spec, game, 0, seed=seed).interactive:  # an unknown spec fails here too
        raise AgentError(f"agent {spec!r} needs a person at the terminal, not a benchmark")
    positions = list(positions if positions is not None else sample_positions(game, seed=seed))
    random.Random(seed).shuffle(positions)
    iterations = moves = 0
    spent = reported = 0.0
    for state, player in positions:
        if moves >= min_moves and spent >= seconds:
            break
        agent = make_agent(spec, game, player, seed=seed + moves)
        view = PlayerView(state.clone(), player)
        start = _clock()
        agent.act(view)
        spent += _clock() - start
        stats = getattr(agent, "last_stats", None)
        if not isinstance(stats, dict) or "iterations" not in stats or "seconds" not in stats:
            raise AgentError(f"agent {spec!r} reports no search statistics (last_stats)")
        iterations += int(stats["iterations"])
        reported += float(stats["seconds"])
        moves += 1
    return Search(spec, iterations, moves, spent, reported)


# --- a whole run --------------------------------------------------------------------


def _openspiel_version() -> str | None:
    """OpenSpiel's version, or None when it is not installed."""
    try:
        import pyspiel
    except ImportError:
        return None
    return str(getattr(pyspiel, "__version__", ""))


def _yardstick_players(seed: int, openspiel: bool) -> tuple[dict[str, tuple[PlayOne, str, str]], str]:
    """The yardsticks: name -> (player, library, version); and why OpenSpiel's are missing, if they are."""
    play, version = chess_player(seed)
    out = {"chess": (play, "python-chess", version)}
    if not openspiel:
        return out, ""
    spiel_version = _openspiel_version()
    if spiel_version is None:
        return out, "OpenSpiel's yardsticks need OpenSpiel (install tussle with the openspiel extra)"
    for name in OPENSPIEL_YARDSTICKS:
        out[f"openspiel:{name}"] = (openspiel_player(name, seed), "OpenSpiel C++", spiel_version)
    return out, ""


def run_bench(
    games: Sequence[str] = (),
    *,
    seconds: float = DEFAULT_SECONDS,
    seed: int = DEFAULT_SEED,
    compare: bool = False,
    openspiel: bool = True,
    search: str | None = DEFAULT_SEARCH,
    rounds: int = DEFAULT_ROUNDS,
    on_step: Callable[[str], None] | None = None,
) -> BenchReport:
    """Measure ``games`` (default: all), and with ``compare`` the yardsticks too, in the same rounds.

    ``openspiel=False`` leaves out OpenSpiel's yardsticks (they are timed with
    ``compare`` when OpenSpiel is installed). ``on_step(label)`` is called after
    each playout round of each entry and after each other measurement (for a
    progress display: :func:`steps` of them in all). Unknown game ids fail
    before anything is measured.
    """
    chosen = list(dict.fromkeys(games or game_ids()))
    for game_id in chosen:
        game_info(game_id)  # an unknown id is a one-line error now, not after minutes
    if seconds < 0:
        raise TussleError(f"seconds per measurement must not be negative, not {seconds}")
    if rounds < 1:
        raise TussleError(f"rounds must be at least 1, not {rounds}")
    report = BenchReport(seconds=seconds, seed=seed, rounds=rounds)
    loaded = {game_id: bench_game(game_id) for game_id in chosen}
    if search is not None:
        _check_search(search, list(loaded.values()))
    yardsticks: dict[str, tuple[PlayOne, str, str]] = {}
    if compare:
        yardsticks, report.yardstick_note = _yardstick_players(seed, openspiel)
    players: dict[str, PlayOne] = {name: entry[0] for name, entry in yardsticks.items()}
    players.update({game_id: game_player(game, seed) for game_id, game in loaded.items()})

    def step(what: str) -> None:
        if on_step is not None:
            on_step(what)

    playouts = measure_rounds(players, seconds, rounds, on_round=lambda name: step(f"{name}: playouts"))
    for name, (_, label, version) in yardsticks.items():
        legal = chess_legal(seconds, seed) if name == "chess" else None
        report.yardsticks.append(Yardstick(name, label, version, playouts[name], legal))
    if compare:
        step("chess: legal moves")
    for game_id, game in loaded.items():
        positions = sample_positions(game, seed=seed)
        legal = measure_legal(game, seconds, seed, positions)
        step(f"{game_id}: legal actions")
        found: Search | None = None
        note = ""
        if search is None:
            note = "not measured"
        else:
            try:
                found = measure_search(game, search, seconds, seed, positions)
            except TussleError as exc:  # an agent unknown here, or one that cannot play this game
                note = str(exc)
        step(f"{game_id}: search")
        figures = GameFigures(
            game=game_id,
            players=game.num_players,
            options=dict(game.non_default_options()),
            playout=playouts[game_id],
            legal=legal,
            search=found,
            search_note=note,
        )
        for yardstick in report.yardsticks:
            figures.ratios[yardstick.name] = ratios(figures.playout, yardstick.playout)
        if compare:
            figures.target = game_info(game_id).hooks.bench_target
        report.games.append(figures)
    return report


def _check_search(spec: str, games: Sequence[Game]) -> None:
    """Refuse, before anything is measured, a search agent that none of ``games`` has.

    One that only some have (``fite:solved``, a search for other kinds of game) is measured
    where it plays and noted where it does not.
    """
    failures: list[AgentError] = []
    for game in games:
        try:
            make_agent(spec, game, 0, seed=0)
        except AgentError as exc:
            failures.append(exc)
        else:
            return
    if failures:
        raise AgentError(f"--search: {failures[0]}")


def steps(games: int, *, compare: bool, openspiel: bool, rounds: int) -> int:
    """How many times :func:`run_bench` calls ``on_step`` for ``games`` games.

    >>> steps(2, compare=True, openspiel=False, rounds=5)
    20
    """
    entries = games
    if compare:
        entries += 1
        if openspiel and _openspiel_version() is not None:
            entries += len(OPENSPIEL_YARDSTICKS)
    return entries * rounds + 2 * games + (1 if compare else 0)
