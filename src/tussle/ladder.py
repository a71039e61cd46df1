"""Rating ladders: a round robin between computer agents and a fitted rating for each.

Every pair of agents plays ``n`` games of a game at two players, the seats
swapping from one game to the next. Each game scores 1 for a win, 1/2 for a
draw (a shared first place) and 0 for a loss. The ratings come from a
Bradley-Terry fit on the Elo scale (:func:`fit_ratings`): the chance that an
agent rated ``r`` scores against one rated ``s`` is ``1 / (1 + 10 ** ((s - r) / 400))``,
so 200 points more means about 76% expected.

An agent is an agent spec (``rule``, ``mcts:iterations=2000``), or
``NAME=SPEC`` to show it under a name of its own (``easy=mcts:iterations=200``).
Each game's seeds are derived from the ladder's seed, the two agents' names
and specs, and the game's number, so the outcome does not depend on how many
processes play it (``jobs``) nor on which other agents are in the ladder.

>>> ladder = run_ladder("robo-pigs", ["random", "rule"], 2, seed=1)
>>> [row.agent for row in ladder.table()]
['rule', 'random']
>>> ladder.fit.rating(ladder.agents.index("random"))
0.0
"""

from __future__ import annotations

import hashlib
import itertools
import json
import math
import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tussle import __version__
from tussle.agents import make_agent
from tussle.agents.base import Agent, PlayerView
from tussle.agents.levels import LEVEL_NAMES, level_spec
from tussle.errors import AgentError, TussleError
from tussle.files import parse_json, read_text, write_text
from tussle.parallel import DEFAULT_CHUNK, Cluster, chunked, claim_folder, run_chunks
from tussle.record import Record, saved_game
from tussle.registry import game_info, load_game, simulation_options
from tussle.runner import play_game

#: Points on the Elo scale per unit of log-odds: 400 / ln 10.
ELO = 400.0 / math.log(10.0)
#: The two-sided 95% quantile of the normal distribution.
Z95 = 1.959963984540054
#: Virtual drawn games added to every pair that played (the prior; see :func:`fit_ratings`).
PRIOR_DRAWS = 1.0
#: The spec of the agent rated 0 when it takes part.
ANCHOR = "random"


# --- the fit ----------------------------------------------------------------------


@dataclass(frozen=True)
class Fit:
    """Fitted ratings on the Elo scale with their covariance.

    ``ratings[i]`` is agent ``i``'s rating, the anchor's being 0;
    ``covariance[i][j]`` is in Elo points squared, and relative to the anchor
    (whose row is all zero).
    """

    ratings: tuple[float, ...]
    covariance: tuple[tuple[float, ...], ...]
    anchor: int

    def rating(self, i: int) -> float:
        return self.ratings[i]

    def stderr(self, i: int) -> float:
        """The standard error of agent ``i``'s rating (relative to the anchor)."""
        return math.sqrt(max(self.covariance[i][i], 0.0))

    def interval(self, i: int) -> tuple[float, float]:
        """The 95% interval of agent ``i``'s rating (relative to the anchor)."""
        half = Z95 * self.stderr(i)
        return self.ratings[i] - half, self.ratings[i] + half

    def difference(self, i: int, j: int) -> tuple[float, float, float]:
        """Agent ``i``'s rating minus ``j``'s, with the 95% interval of that difference.

        The interval comes from the covariance of the two, so it is the right
        one for asking whether ``i`` is stronger than ``j`` (narrower than the
        two ratings' own intervals suggest when both are far from the anchor).
        """
        c = self.covariance
        sd = math.sqrt(max(c[i][i] + c[j][j] - 2.0 * c[i][j], 0.0))
        d = self.ratings[i] - self.ratings[j]
        return d, d - Z95 * sd, d + Z95 * sd


def _sigmoid(x: float) -> float:
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    e = math.exp(x)
    return e / (1.0 + e)


def _solve(matrix: list[list[float]], rhs: list[list[float]]) -> list[list[float]]:
    """``matrix^-1 @ rhs`` by Gauss-Jordan elimination with partial pivoting (small systems only)."""
    n = len(matrix)
    a = [row[:] + extra[:] for row, extra in zip(matrix, rhs, strict=True)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        if abs(a[pivot][col]) < 1e-300:
            raise ArithmeticError("singular matrix")
        a[col], a[pivot] = a[pivot], a[col]
        inv = 1.0 / a[col][col]
        a[col] = [v * inv for v in a[col]]
        for r in range(n):
            if r != col and a[r][col] != 0.0:
                f = a[r][col]
                a[r] = [v - f * w for v, w in zip(a[r], a[col], strict=True)]
    return [row[n:] for row in a]


def _check_connected(games: Sequence[Sequence[float]]) -> None:
    k = len(games)
    seen = {0}
    todo = [0]
    while todo:
        i = todo.pop()
        for j in range(k):
            if j not in seen and games[i][j] > 0:
                seen.add(j)
                todo.append(j)
    if len(seen) < k:
        lone = min(set(range(k)) - seen)
        raise TussleError(f"ratings cannot be fitted: agent {lone} is not linked by games to agent 0")


def fit_ratings(
    score: Sequence[Sequence[float]],
    games: Sequence[Sequence[float]],
    *,
    anchor: int = 0,
    prior: float = PRIOR_DRAWS,
) -> Fit:
    """Fit Bradley-Terry ratings (Elo scale) to a round robin's results.

    ``score[i][j]`` is what agent ``i`` scored against ``j`` in ``games[i][j]``
    games (a draw counts half), so ``score[i][j] + score[j][i] == games[i][j]``.

    The fit maximises the likelihood of the scores, a draw counting as half a
    win and half a loss, with ``prior`` virtual drawn games added to every
    pair that played: a weak prior that keeps a perfect record finite (10-0
    becomes 10.5-0.5, about +530) and shrinks little once there are tens of
    games. Newton's method on the log-odds (the log-likelihood is concave)
    finds it; the anchor's rating is held at 0. The covariance is the inverse
    of the curvature at the optimum (the Fisher information). It treats every
    game as a full win or loss, so with many draws the intervals come out
    wider than they need to be: cautious, not optimistic.

    >>> fit = fit_ratings([[0, 15], [5, 0]], [[0, 20], [20, 0]])
    >>> round(fit.rating(1)), round(fit.stderr(1))
    (-180, 86)
    >>> fit_ratings([[0, 4], [4, 0]], [[0, 8], [8, 0]]).ratings
    (0.0, 0.0)
    """
    k = len(score)
    if k < 2 or len(games) != k or any(len(r) != k for r in (*score, *games)):
        raise TussleError(f"ratings need a square score and games table of 2 or more agents, not {k}")
    if not 0 <= anchor < k:
        raise TussleError(f"anchor {anchor} is not one of the {k} agents")
    if not prior > 0:
        raise TussleError(f"the prior must be more than 0 virtual draws, not {prior}")
    for i in range(k):
        for j in range(k):
            n = games[i][j]
            if n < 0 or games[j][i] != n or not 0 <= score[i][j] <= n:
                raise TussleError(f"agents {i} and {j}: a score of {score[i][j]} in {n} games is impossible")
            if abs(score[i][j] + score[j][i] - n) > 1e-9:
                raise TussleError(f"agents {i} and {j}: the scores do not add up to the {n} games played")
    _check_connected(games)
    # Every pair that played gets `prior` virtual draws: half a win each way.
    w = [[score[i][j] + prior / 2 if games[i][j] > 0 else 0.0 for j in range(k)] for i in range(k)]
    m = [[games[i][j] + prior if games[i][j] > 0 else 0.0 for j in range(k)] for i in range(k)]
    free = [i for i in range(k) if i != anchor]
    theta = [0.0] * k

    def loglik(t: Sequence[float]) -> float:
        total = 0.0
        for i in range(k):
            for j in range(k):
                if w[i][j]:
                    total += w[i][j] * math.log(_sigmoid(t[i] - t[j]))
        return total

    def curvature(t: Sequence[float]) -> tuple[list[float], list[list[float]]]:
        """The gradient and the negated Hessian, over the free agents."""
        grad = [0.0] * k
        info = [[0.0] * k for _ in range(k)]
        for i in range(k):
            for j in range(k):
                if m[i][j]:
                    p = _sigmoid(t[i] - t[j])
                    grad[i] += w[i][j] - m[i][j] * p
                    info[i][i] += m[i][j] * p * (1.0 - p)
                    info[i][j] -= m[i][j] * p * (1.0 - p)
        return [grad[i] for i in free], [[info[i][j] for j in free] for i in free]

    current = loglik(theta)
    for _ in range(200):
        grad, info = curvature(theta)
        step = [row[0] for row in _solve(info, [[g] for g in grad])]
        scale = 1.0
        while True:  # Newton with step halving: never go downhill
            trial = theta[:]
            for idx, i in enumerate(free):
                trial[i] += scale * step[idx]
            value = loglik(trial)
            if value >= current - 1e-12 or scale < 1e-6:
                break
            scale /= 2
        theta, current = trial, value
        if max(abs(s) for s in step) * scale < 1e-10:
            break
    _, info = curvature(theta)
    identity = [[1.0 if r == c else 0.0 for c in range(len(free))] for r in range(len(free))]
    inverse = _solve(info, identity)
    cov = [[0.0] * k for _ in range(k)]
    for a, i in enumerate(free):
        for b, j in enumerate(free):
            cov[i][j] = inverse[a][b] * ELO * ELO
    ratings = tuple(0.0 if i == anchor else theta[i] * ELO for i in range(k))
    return Fit(ratings, tuple(tuple(row) for row in cov), anchor)


# --- the round robin --------------------------------------------------------------


@dataclass(frozen=True)
class PairResult:
    """The games between agents ``a`` and ``b`` (indices into the ladder's agents)."""

    a: int
    b: int
    a_wins: int
    draws: int
    b_wins: int
    events: int  # over all the pair's games
    distinct: int = 0  # how many of the games differ from every other one (0: not counted)
    points: str = ""  # a's result in each game, in order: 1 won, = drew, 0 lost ("" if not kept)

    @property
    def games(self) -> int:
        return self.a_wins + self.draws + self.b_wins

    @property
    def a_score(self) -> float:
        return self.a_wins + self.draws / 2


def score_tables(k: int, pairs: Sequence[PairResult]) -> tuple[list[list[float]], list[list[float]]]:
    """The ``score`` and ``games`` tables that :func:`fit_ratings` takes, for ``k`` agents.

    >>> score_tables(2, [PairResult(0, 1, 3, 2, 1, 90)])
    ([[0.0, 4.0], [2.0, 0.0]], [[0.0, 6.0], [6.0, 0.0]])
    """
    score = [[0.0] * k for _ in range(k)]
    games = [[0.0] * k for _ in range(k)]
    for p in pairs:
        score[p.a][p.b] += p.a_score
        score[p.b][p.a] += p.games - p.a_score
        games[p.a][p.b] += p.games
        games[p.b][p.a] += p.games
    return score, games


@dataclass(frozen=True)
class Row:
    """One line of the ladder's table, best first."""

    agent: str
    rating: float
    low: float
    high: float
    stderr: float
    games: int
    score: float  # the fraction of the points it took

    def to_json(self) -> dict[str, Any]:
        return {
            "agent": self.agent,
            "rating": round(self.rating, 1),
            "low": round(self.low, 1),
            "high": round(self.high, 1),
            "stderr": round(self.stderr, 1),
            "games": self.games,
            "score": round(self.score, 4),
        }


@dataclass(frozen=True)
class Margin:
    """How far one agent of the table is above the next one down, with the 95% interval."""

    upper: str
    lower: str
    difference: float
    low: float
    high: float

    @property
    def separated(self) -> bool:
        """Whether the whole interval is above 0: the upper agent is stronger, at 95%."""
        return self.low > 0

    def to_json(self) -> dict[str, Any]:
        return {
            "upper": self.upper,
            "lower": self.lower,
            "difference": round(self.difference, 1),
            "low": round(self.low, 1),
            "high": round(self.high, 1),
            "separated": self.separated,
        }


@dataclass(frozen=True)
class Ladder:
    """A played round robin and its fit."""

    game: str
    options: dict[str, Any]
    agents: tuple[str, ...]  # their names
    specs: tuple[str, ...]  # the agent spec of each
    games_per_pair: int
    seed: int
    pairs: tuple[PairResult, ...]
    fit: Fit
    openings: int = 0  # random moves of each player at the start of every game
    resumed: int = field(default=0, compare=False)  # games taken from a stopped run's records

    def score_table(self) -> tuple[list[list[float]], list[list[float]]]:
        """``(score, games)`` as square tables by agent index."""
        return score_tables(len(self.agents), self.pairs)

    def order(self) -> list[int]:
        """Agent indices, highest rating first (ties in the order given)."""
        return sorted(range(len(self.agents)), key=lambda i: (-self.fit.ratings[i], i))

    def table(self) -> list[Row]:
        score, games = self.score_table()
        rows = []
        for i in self.order():
            played = int(sum(games[i]))
            low, high = self.fit.interval(i)
            rows.append(
                Row(
                    self.agents[i],
                    self.fit.ratings[i],
                    low,
                    high,
                    self.fit.stderr(i),
                    played,
                    sum(score[i]) / played if played else 0.0,
                )
            )
        return rows

    def margins(self) -> list[Margin]:
        """Each agent of the table against the next one down."""
        order = self.order()
        out = []
        for upper, lower in itertools.pairwise(order):
            d, low, high = self.fit.difference(upper, lower)
            out.append(Margin(self.agents[upper], self.agents[lower], d, low, high))
        return out

    def repeated(self) -> list[PairResult]:
        """The pairs that played some game more than once, move for move (whose results count it twice)."""
        return [p for p in self.pairs if 0 < p.distinct < p.games]

    def matrix(self) -> list[list[float | None]]:
        """``matrix[r][c]``: the fraction of points the r-th agent of the table took from the c-th."""
        score, games = self.score_table()
        order = self.order()
        return [[score[i][j] / games[i][j] if games[i][j] else None for j in order] for i in order]

    def to_json(self) -> dict[str, Any]:
        order = self.order()
        return {
            "game": self.game,
            "options": self.options,
            "agents": list(self.agents),
            "specs": list(self.specs),
            "plays": [plays(self.game, spec) for spec in self.specs],
            "version": __version__,
            "games_per_pair": self.games_per_pair,
            "seed": self.seed,
            "openings": self.openings,
            "scale": "elo",
            "anchor": self.agents[self.fit.anchor],
            "prior_draws": PRIOR_DRAWS,
            "ratings": [row.to_json() for row in self.table()],
            "margins": [m.to_json() for m in self.margins()],
            "matrix": {
                "agents": [self.agents[i] for i in order],
                "score": [[None if v is None else round(v, 4) for v in row] for row in self.matrix()],
            },
            "pairs": [
                {
                    "a": self.agents[p.a],
                    "b": self.agents[p.b],
                    "games": p.games,
                    "a_wins": p.a_wins,
                    "draws": p.draws,
                    "b_wins": p.b_wins,
                    "distinct": p.distinct,
                    "mean_length": round(p.events / p.games, 2) if p.games else 0.0,
                    "points": p.points,
                }
                for p in self.pairs
            ],
        }


@dataclass(frozen=True)
class _Job:
    game_id: str
    options: tuple[tuple[str, Any], ...]
    pair: int
    entries: tuple[tuple[str, str], tuple[str, str]]  # the pair's agents, a then b: (name, spec)
    index: int  # the game's number within the pair
    seed: int
    openings: int
    records: bool = False  # send the game's record back to be saved


@dataclass(frozen=True)
class _Outcome:
    pair: int
    index: int
    points: float  # a's score
    events: int
    digest: str  # the seats and every event: equal digests, equal games


def _seed(*parts: object) -> int:
    # A string seed is hashed the same way in every process, whatever PYTHONHASHSEED.
    return random.Random("/".join(map(str, parts))).getrandbits(63)


class _Opening(Agent):
    """Plays its first ``moves`` decisions at random, then lets ``inner`` play."""

    def __init__(self, inner: Agent, moves: int, seed: int) -> None:
        super().__init__(inner.game, inner.player, seed, inner.spec)
        self.inner = inner
        self.left = moves

    def act(self, view: PlayerView) -> Any:
        if self.left > 0:
            self.left -= 1
            return view.legal_actions().sample(self.rng)
        return self.inner.act(view)


def _play(job: _Job) -> tuple[_Outcome, Record]:
    """Play one game of a pair."""
    game = load_game(job.game_id, players=2, **dict(job.options))
    # Even games put a in the first seat, odd ones b: every pair plays both ways round.
    seated = job.entries if job.index % 2 == 0 else job.entries[::-1]
    key = (job.seed, *job.entries[0], *job.entries[1])
    agents = [
        make_agent(spec, game, s, seed=_seed(*key, job.index, s + 1)) for s, (_, spec) in enumerate(seated)
    ]
    # Games 2i and 2i+1 share their chance seed and random opening, seats swapped:
    # each deal and each opening is played from both sides.
    deal = job.index // 2
    if job.openings:
        agents = [
            _Opening(agent, job.openings, _seed(*key, deal, "opening", s)) for s, agent in enumerate(agents)
        ]
    state, record = play_game(game, agents, seed=_seed(*key, deal, 0))
    result = state.result()
    assert result is not None
    return _outcome(job, result.ranking, record.events), record


def _outcome(job: _Job, ranking: Sequence[int], events: list[tuple[int, str]]) -> _Outcome:
    a_seat = 0 if job.index % 2 == 0 else 1
    mine, theirs = ranking[a_seat], ranking[1 - a_seat]
    points = 1.0 if mine < theirs else 0.5 if mine == theirs else 0.0
    digest = hashlib.sha256(json.dumps([a_seat, events]).encode()).hexdigest()[:16]
    return _Outcome(job.pair, job.index, points, len(events), digest)


def _play_chunk(jobs: list[_Job]) -> list[tuple[_Outcome, str | None]]:
    """Play a chunk of games: each one's outcome and, if asked, its record as text."""
    played = []
    for job in jobs:
        outcome, record = _play(job)
        played.append((outcome, record.dumps() if job.records else None))
    return played


def _stored(job: _Job, path: Path, players: list[str], options: Any) -> _Outcome | None:
    """A game's outcome from its record already saved at ``path``, if it is this game's."""
    saved = saved_game(path, job.game_id, options, players)
    if saved is None or len(saved[1].ranking) != 2:
        return None  # missing, or not this game after all: played again
    record, result = saved
    return _outcome(job, result.ranking, record.events)


def record_name(a: str, b: str, index: int) -> str:
    """The file name of game ``index`` (from 0) of the pair of agents named ``a`` and ``b``.

    Characters that are not safe in a file name become ``_``.

    >>> record_name("hard", "alphabeta:iterations=500", 0)
    'hard-vs-alphabeta_iterations_500-game01.json'
    """
    return f"{_file_safe(a)}-vs-{_file_safe(b)}-game{index + 1:02d}.json"


def _file_safe(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9._+-]+", "_", name)


def parse_agent(text: str) -> tuple[str, str]:
    """An agent of a ladder as ``(name, spec)``: ``SPEC`` names itself, ``NAME=SPEC`` is shown as NAME.

    The text is ``NAME=SPEC`` when an ``=`` comes before any ``:`` (a spec's own
    parameters follow a ``:``).

    >>> parse_agent("rule"), parse_agent("mcts:time=0.5")
    (('rule', 'rule'), ('mcts:time=0.5', 'mcts:time=0.5'))
    >>> parse_agent("easy = mcts:iterations=200")
    ('easy', 'mcts:iterations=200')
    """
    text = text.strip()
    head, eq, rest = text.partition("=")
    if not eq or ":" in head:
        if not text:
            raise AgentError("an empty agent spec (give e.g. random or rule)")
        return text, text
    name, spec = head.strip(), rest.strip()
    if not name or not spec:
        raise AgentError(f"agent {text!r} is not SPEC or NAME=SPEC (e.g. easy=mcts:iterations=200)")
    return name, spec


def check_ladder(game_id: str, agents: Sequence[str], n: int, options: dict[str, Any] | None = None) -> None:
    """Check a ladder's input before any game, with one-line errors.

    >>> check_ladder("robo-pigs", ["rule", "rule"], 10)
    Traceback (most recent call last):
    tussle.errors.AgentError: agent 'rule' is given twice; a ladder needs different agents (or NAME=SPEC)
    """
    info = game_info(game_id)
    if info.min_players > 2 or info.max_players < 2:
        raise TussleError(f"ladders are played at two players; {game_id} is not a two-player game")
    entries = [parse_agent(text) for text in agents]
    if len(entries) < 2:
        raise AgentError(f"a ladder needs at least 2 agents, not {len(entries)}")
    names = [name for name, _ in entries]
    twice = [name for i, name in enumerate(names) if name in names[:i]]
    if twice:
        raise AgentError(f"agent {twice[0]!r} is given twice; a ladder needs different agents (or NAME=SPEC)")
    if n < 2 or n % 2:
        # Games 2i and 2i + 1 are the same opening with the seats swapped: an odd count
        # would leave one pair's last game unanswered and favour one seat.
        raise TussleError(f"a ladder plays an even number of games per pair (both ways round), not {n}")
    for name in options or {}:
        info.option(name)  # an unknown name is a one-line OptionError
    game = load_game(game_id, players=2, **simulation_options(game_id, options))
    for seat, (_, spec) in enumerate(entries):
        if make_agent(spec, game, seat % 2, seed=0).interactive:
            raise AgentError(f"{spec!r} needs a person at the terminal; ladders are for computer agents")


#: Called after each game with (games done, games in all).
ProgressHook = Callable[[int, int], None]


def run_ladder(
    game_id: str,
    agents: Sequence[str],
    n: int,
    *,
    seed: int = 0,
    jobs: int = 1,
    options: dict[str, Any] | None = None,
    openings: int = 0,
    on_game: ProgressHook | None = None,
    reuse: dict[tuple[str, str], tuple[str, float]] | None = None,
    record_dir: str | None = None,
    cluster: Cluster | None = None,
    chunk: int = DEFAULT_CHUNK,
) -> Ladder:
    """Play a round robin of ``n`` games per pair and fit the ratings.

    Each of ``agents`` is ``SPEC`` or ``NAME=SPEC`` (see :func:`parse_agent`).
    The anchor (rated 0) is the first agent whose spec is ``random``, else
    the first agent. The result depends only on ``seed``, never on ``jobs``.
    With ``openings`` each player's first that many decisions are random
    moves, the same in games ``2i`` and ``2i + 1`` (seats swapped): agents
    that never vary (a search with a fixed budget, in a game without dice)
    would otherwise play the same two games over and over. ``reuse`` (from
    :func:`reusable_games`) gives pairs' games already played, which are
    counted, not played again. With ``record_dir`` every game played (not
    those reused) is saved there as a record, named by :func:`record_name`,
    as it comes back; a ladder stopped and started again with the same
    settings and folder takes the games saved there instead of playing them
    again. Games are played in chunks of ``chunk`` on ``jobs`` processes or
    on a Ray ``cluster`` (:mod:`tussle.parallel`).
    """
    if openings < 0:
        raise TussleError(f"the random opening cannot be {openings} moves long")
    check_ladder(game_id, agents, n, options)
    entries = [parse_agent(text) for text in agents]
    names = tuple(name for name, _ in entries)
    specs = tuple(spec for _, spec in entries)
    # Games between programs take the game's simulation defaults so that they end.
    used = simulation_options(game_id, options)
    game = load_game(game_id, players=2, **used)
    pair_list = [(a, b) for a in range(len(specs)) for b in range(a + 1, len(specs))]
    frozen = tuple(sorted(game.options.items()))
    earlier = [(reuse or {}).get((names[a], names[b]), ("", 0.0)) for a, b in pair_list]
    kept = [points[:n] for points, _ in earlier]
    job_list = [
        _Job(game_id, frozen, p, (entries[a], entries[b]), g, seed, openings, record_dir is not None)
        for p, (a, b) in enumerate(pair_list)
        for g in range(len(kept[p]), n)
    ]
    outcomes: dict[tuple[int, int], _Outcome] = {}
    paths: dict[tuple[int, int], Path] = {}
    if record_dir is not None:
        folder = Path(record_dir)
        first: dict[str, str] = {}  # a name's file-safe form -> the first name that has it
        for name in names:
            other = first.setdefault(_file_safe(name), name)
            if other != name:
                raise TussleError(
                    f"agent names {other!r} and {name!r} make the same record file names; rename one"
                )
        used = json.loads(json.dumps(game.non_default_options()))
        identity = {"command": "ladder", "game": game_id, "options": used, "seed": seed, "openings": openings}
        resume = claim_folder(folder, identity, "record directory")
        shown = [make_agent(spec, game, 0, seed=0).spec for spec in specs]  # as records name them
        for job in job_list:
            a, b = pair_list[job.pair]
            paths[job.pair, job.index] = path = folder / record_name(names[a], names[b], job.index)
            players = [shown[a], shown[b]] if job.index % 2 == 0 else [shown[b], shown[a]]
            stored = _stored(job, path, players, used) if resume else None
            if stored is not None:
                outcomes[job.pair, job.index] = stored
    resumed = len(outcomes)
    todo = [job for job in job_list if (job.pair, job.index) not in outcomes]
    for _ in range(resumed):
        if on_game:
            on_game(len(outcomes), len(job_list))
    for _, played in run_chunks(_play_chunk, chunked(todo, chunk), jobs=jobs, cluster=cluster):
        for result, text in played:
            if text is not None:
                path = paths[result.pair, result.index]
                write_text(path, text + "\n")
            outcomes[result.pair, result.index] = result
            if on_game:
                on_game(len(outcomes), len(job_list))
    pairs = []
    for p, (a, b) in enumerate(pair_list):
        results = [outcomes[p, g] for g in range(len(kept[p]), n)]
        points = kept[p] + "".join(_POINTS[r.points] for r in results)
        # Of the games kept only the results and their mean length are known.
        events = sum(r.events for r in results) + round(earlier[p][1] * len(kept[p]))
        pairs.append(
            PairResult(
                a,
                b,
                points.count("1"),
                points.count("="),
                points.count("0"),
                events,
                0 if kept[p] else len({r.digest for r in results}),
                points,
            )
        )
    anchor = specs.index(ANCHOR) if ANCHOR in specs else 0
    fit = fit_ratings(*score_tables(len(specs), pairs), anchor=anchor)
    return Ladder(
        game_id,
        dict(game.non_default_options()),
        names,
        specs,
        n,
        seed,
        tuple(pairs),
        fit,
        openings,
        resumed,
    )


def plays(game_id: str, spec: str) -> str:
    """The agent spec a ladder entry plays: a level's own spec (from the level table), else ``spec``.

    >>> plays("tank-chess", "medium"), plays("tank-chess", "rule")
    ('alphabeta:iterations=2500', 'rule')
    """
    return level_spec(game_id, spec) if spec in LEVEL_NAMES else spec


_POINTS = {1.0: "1", 0.5: "=", 0.0: "0"}
_NOT_A_LADDER = "the earlier ladder is not the JSON of `tussle ladder --json`"


def read_ladder(path: str | Path) -> Any:
    """An earlier ladder's ``--json`` output, read from ``path`` (for :func:`reusable_games`).

    A file that cannot be read or is not JSON raises a one-line :class:`TussleError`.
    """
    text = read_text(path)
    try:
        return parse_json(text)
    except TussleError as exc:
        raise TussleError(f"{path}: {exc}") from None


def reusable_games(
    previous: Any,
    game_id: str,
    agents: Sequence[str],
    *,
    options: dict[str, Any] | None = None,
    seed: int = 0,
    openings: int = 0,
) -> dict[tuple[str, str], tuple[str, float]]:
    """The games of an earlier ladder (its ``--json``) that this one would play again, by pair.

    A game depends only on the seed, the game and its options, the random
    openings, the two agents (names and what they play) and its number in
    the pair, so those must all agree, and the tussle version too. Returns the
    kept points and mean length of every pair that can be taken over, by ``(a, b)`` names;
    an earlier ladder that does not fit raises a one-line :class:`TussleError`.
    """
    if not isinstance(previous, dict) or not isinstance(previous.get("pairs"), list):
        raise TussleError(_NOT_A_LADDER)
    used = load_game(game_id, players=2, **simulation_options(game_id, options)).non_default_options()
    for key, want in (("game", game_id), ("version", __version__), ("seed", seed), ("openings", openings)):
        if previous.get(key) != want:
            raise TussleError(
                f"the earlier ladder has {key} {previous.get(key)!r}, this one {want!r}: its games differ"
            )
    if previous.get("options") != json.loads(json.dumps(used)):
        raise TussleError(f"the earlier ladder has options {previous.get('options')!r}, this one {used!r}")
    try:
        theirs = dict(
            zip(previous["agents"], zip(previous["specs"], previous["plays"], strict=True), strict=True)
        )
        kept = {}
        for pair in previous["pairs"]:
            points = pair["points"]
            if (
                not isinstance(points, str)
                or set(points) - set(_POINTS.values())
                or len(points) != pair["games"]
            ):
                raise TussleError(f"{_NOT_A_LADDER} (pair {pair['a']}-{pair['b']}: bad points)")
            length = float(pair["mean_length"])
            kept[pair["a"], pair["b"]] = (theirs[pair["a"]], theirs[pair["b"]], (points, length))
    except (KeyError, TypeError, ValueError) as exc:
        raise TussleError(f"{_NOT_A_LADDER} ({type(exc).__name__}: {exc})") from None
    mine = {name: (spec, plays(game_id, spec)) for name, spec in map(parse_agent, agents)}
    return {
        (a, b): games
        for (a, b), (was_a, was_b, games) in kept.items()
        if mine.get(a) == tuple(was_a) and mine.get(b) == tuple(was_b)
    }


def interval_text(row: Row) -> str:
    """The interval of a table row as text (just the rating for the anchor).

    >>> interval_text(Row("rule", 312.4, 240.0, 384.9, 36.9, 20, 0.95))
    '240..385'
    """
    if row.high - row.low < 0.5:
        return "anchor"
    return f"{row.low:.0f}..{row.high:.0f}"
