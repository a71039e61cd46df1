"""Solving FITE: a model of the game small enough to solve exactly, and its solver.

The model (every simplification is listed in docs/fite-solver.md):

* A **state** is what the fighters carry from turn to turn: the dice of fighter
  A and of fighter B (2 to 9 each; fewer ends the game) and each fighter's
  *unused* super power (``none`` once it is used). From a state a turn plays
  the placement, Swift, the split with the power's declaration, the rolls and
  the tactical option, and leads to the next state or to the end.
* The **placement** is a simultaneous 3x3 game over the locations (the two
  faces of a location are the same choice). **Swift** is a choice of the
  fighters whose Swift is unused, after the reveal: stay, or move and spend
  it (a 3x3 game when both have it). The **split** is a simultaneous game over
  (offensive dice, declare the power or not, tactical plan).
* The **tactical option** is modelled as a *plan* picked with the split:
  turn up to two of the fighter's own dice showing 1 to 3 to their opposite
  faces, the lowest first, ``k`` of them in the offensive pool and ``2 - k``
  in the defensive pool. A plan decides by each pool's own roll, which keeps
  the four pools independent and the fight's odds exactly computable; moves,
  and Cunning's second option at the tactical location, are not modelled
  (the agent plays the real tactical step; see :mod:`tussle.games.fite.solved`).
* Payoff: +1 when A wins, -1 when B wins, 0 for a draw; the turn limit of
  simulations is left out (the model's game may last for ever, at 0).

Every fight's outcome is computed exactly: the number of uncancelled
offensive dice against a defence is ``max(0, max_m(O(m) - D(m - edge)))``
(:func:`uncancelled_by_counts`), where ``O(m)`` counts offensive dice showing
``m`` or more and ``D(t)`` defensive dice showing ``t`` or more, and its
distribution follows from the pools' face counts by multinomial enumeration
and a table of joint tail counts (:func:`hit_chances`), all in integers.

Each state is solved once the states it can lead to are (fewer dice or fewer
unused powers); the only loop is a fight in which nothing happens, so a
state's value is the fixed point ``V = f(V)`` of its turn's games, found by a
safeguarded Newton iteration (:func:`fixed_point`). Each matrix game is
solved exactly (:func:`solve_matrix_game`: a pure saddle point, or a double
oracle over small linear programs solved by the simplex method).

>>> solve_matrix_game([[1.0, -1.0], [-1.0, 1.0]]).value
0.0
>>> hit_chances(1, 0, 1, 0, 0)  # a die gets through a die of equal modifiers 15 times in 36
(0.5833333333333334, 0.4166666666666667)
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import combinations_with_replacement
from typing import Any, NamedTuple

from tussle.errors import TussleError

# --- the rules' numbers (docs/games/fite.md) ------------------------------------------

START_DICE = 9
#: A pool holds 1 to this many dice.
MAX_POOL = 8
#: The tactical location turns up to this many dice.
TURNS = 2
#: The super powers as the game options spell them; ``none`` also stands for a used one.
POWERS = ("none", "swift", "cunning", "aggressive", "brutal", "fast", "tough")
#: The powers declared with the split (Swift acts at the placement).
DECLARABLE = frozenset({"cunning", "aggressive", "brutal", "fast", "tough"})
LOCATIONS = ("off", "def", "tac")
OFF, DEF, TAC = 0, 1, 2

#: A state: (A's dice, B's dice, A's unused power, B's unused power).
StateKey = tuple[int, int, str, str]


class SolverError(TussleError):
    """A matrix game or model input the solver cannot take."""


# --- matrix games ---------------------------------------------------------------------

#: Payoff differences below this count as equal.
TOLERANCE = 1e-11


@dataclass(frozen=True)
class MatrixSolution:
    """An equilibrium of a zero-sum matrix game: the value and both mixed strategies."""

    value: float
    row: tuple[float, ...]
    col: tuple[float, ...]


def _check_matrix(payoff: Sequence[Sequence[float]]) -> tuple[int, int]:
    rows = len(payoff)
    cols = len(payoff[0]) if rows else 0
    if rows == 0 or cols == 0:
        raise SolverError("a matrix game needs at least one row and one column")
    for i, row in enumerate(payoff):
        if len(row) != cols:
            raise SolverError(f"matrix row {i} has {len(row)} entries, row 0 has {cols}")
        for value in row:
            if not math.isfinite(value):
                raise SolverError(f"matrix row {i} holds {value!r}, not a finite payoff")
    return rows, cols


def _simplex(payoff: Sequence[Sequence[float]]) -> tuple[float, list[float], list[float]]:
    """An equilibrium of a small game by the simplex method (Bland's rule, so it cannot cycle).

    With every payoff shifted to at least 1, the column player's problem is
    ``maximise sum(y)`` subject to ``A y <= 1``, ``y >= 0``: then the value is
    ``1 / sum(y)``, the column strategy ``y`` scaled to sum 1, and the row
    strategy the scaled dual prices, read from the final objective row.
    """
    m, n = len(payoff), len(payoff[0])
    shift = 1.0 - min(min(row) for row in payoff)
    width = n + m + 1
    table = [
        [payoff[i][j] + shift for j in range(n)] + [1.0 if k == i else 0.0 for k in range(m)] + [1.0]
        for i in range(m)
    ]
    objective = [-1.0] * n + [0.0] * (m + 1)
    basis = [n + i for i in range(m)]
    while True:
        enter = next((j for j in range(n + m) if objective[j] < -TOLERANCE), -1)
        if enter < 0:
            break
        leave, best = -1, 0.0
        for i in range(m):
            coef = table[i][enter]
            if coef > TOLERANCE:
                ratio = table[i][-1] / coef
                if (
                    leave < 0
                    or ratio < best - TOLERANCE
                    or (ratio <= best + TOLERANCE and basis[i] < basis[leave])
                ):
                    leave, best = i, ratio
        # The shifted payoffs are positive, so every column has a positive entry: never unbounded.
        pivot_row = table[leave]
        pivot = pivot_row[enter]
        for k in range(width):
            pivot_row[k] /= pivot
        for row in (*table, objective):
            if row is pivot_row:
                continue
            factor = row[enter]
            if factor != 0.0:
                for k in range(width):
                    row[k] -= factor * pivot_row[k]
        basis[leave] = enter
    total = objective[-1]
    y = [0.0] * n
    for i, var in enumerate(basis):
        if var < n:
            y[var] = table[i][-1]
    x = [max(0.0, objective[n + i]) for i in range(m)]
    return 1.0 / total - shift, _normalised(x), _normalised(y)


def _normalised(weights: list[float]) -> list[float]:
    cleaned = [w if w > TOLERANCE else 0.0 for w in weights]
    total = sum(cleaned)
    return [w / total for w in cleaned]


def solve_matrix_game(payoff: Sequence[Sequence[float]]) -> MatrixSolution:
    """An exact equilibrium of the zero-sum game ``payoff[row][col]`` (the row player maximises).

    A pure saddle point is taken when there is one. Otherwise a double oracle:
    solve the game restricted to a few rows and columns by the simplex method,
    add each side's best reply in the full game when it beats the restricted
    value, and stop when neither side can gain; the restricted equilibrium is
    then one of the full game. Equilibria of these games have small supports,
    so the linear programs stay small.

    >>> rps = [[0, -1, 1], [1, 0, -1], [-1, 1, 0]]
    >>> sol = solve_matrix_game(rps)
    >>> round(sol.value, 9), [round(p, 9) for p in sol.row]
    (0.0, [0.333333333, 0.333333333, 0.333333333])
    >>> solve_matrix_game([[2, 3], [1, 0]])  # a saddle point
    MatrixSolution(value=2.0, row=(1.0, 0.0), col=(1.0, 0.0))
    """
    m, n = _check_matrix(payoff)
    row_mins = [min(row) for row in payoff]
    col_maxs = [max(payoff[i][j] for i in range(m)) for j in range(n)]
    i0 = max(range(m), key=row_mins.__getitem__)
    j0 = min(range(n), key=col_maxs.__getitem__)
    if col_maxs[j0] - row_mins[i0] <= TOLERANCE:
        return MatrixSolution(float(payoff[i0][j0]), _unit(m, i0), _unit(n, j0))
    rows, cols = [i0], [j0]
    while True:
        value, p, q = _simplex([[payoff[i][j] for j in cols] for i in rows])
        row_values = [sum(qk * payoff[i][j] for qk, j in zip(q, cols, strict=True)) for i in range(m)]
        col_values = [sum(pk * payoff[i][j] for pk, i in zip(p, rows, strict=True)) for j in range(n)]
        best_row = max(range(m), key=row_values.__getitem__)
        best_col = min(range(n), key=col_values.__getitem__)
        grew = False
        if row_values[best_row] > value + TOLERANCE and best_row not in rows:
            rows.append(best_row)
            grew = True
        if col_values[best_col] < value - TOLERANCE and best_col not in cols:
            cols.append(best_col)
            grew = True
        if not grew:
            break
    row = [0.0] * m
    col = [0.0] * n
    for pk, i in zip(p, rows, strict=True):
        row[i] = pk
    for qk, j in zip(q, cols, strict=True):
        col[j] = qk
    return MatrixSolution(value, tuple(row), tuple(col))


def _unit(size: int, index: int) -> tuple[float, ...]:
    return tuple(1.0 if k == index else 0.0 for k in range(size))


def best_reply_gap(payoff: Sequence[Sequence[float]], row: Sequence[float], col: Sequence[float]) -> float:
    """How much the better of the two players gains by switching to a best reply (0 at an equilibrium).

    >>> best_reply_gap([[1, -1], [-1, 1]], [1, 0], [0.5, 0.5])  # the column player takes the 2nd column
    1.0
    """
    m, n = _check_matrix(payoff)
    value = sum(row[i] * col[j] * payoff[i][j] for i in range(m) for j in range(n))
    row_best = max(sum(col[j] * payoff[i][j] for j in range(n)) for i in range(m))
    col_best = min(sum(row[i] * payoff[i][j] for i in range(m)) for j in range(n))
    return max(row_best - value, value - col_best)


def fixed_point(
    step: Callable[[float], tuple[float, float, float]], low: float = -1.0, high: float = 1.0
) -> float:
    """The root of ``f(v) = v`` in ``[low, high]`` for a turn whose only loop is back to itself.

    ``step(v)`` returns ``f(v)`` with the line ``c + p * v`` that the strategies
    chosen at ``v`` give (``p`` < 1: the chance that the turn comes back).
    ``f(v) - v`` falls strictly, so a bracket always holds the root; the next
    guess is the line's own fixed point ``c / (1 - p)`` (a Newton step) when it
    lies in the bracket, else the middle.

    >>> fixed_point(lambda v: (0.25 + 0.5 * v, 0.25, 0.5))  # v = 1/4 + v/2
    0.5
    """
    guess = 0.0 if low < 0.0 < high else (low + high) / 2
    for _ in range(200):
        value, constant, slope = step(guess)
        gap = value - guess
        if abs(gap) <= TOLERANCE:
            return guess
        if gap > 0:
            low = guess
        else:
            high = guess
        if high - low <= TOLERANCE:
            return (low + high) / 2
        newton = constant / (1.0 - slope) if slope < 1.0 else math.inf
        guess = newton if low < newton < high else (low + high) / 2
    raise SolverError("the fixed point did not converge")


# --- the fight's arithmetic -------------------------------------------------------------


def uncancelled(offence: Iterable[int], defence: Iterable[int]) -> int:
    """How many offensive values stay uncancelled when each defensive value cancels one of at most its own.

    The rules take the largest cancellation; walking the defence from its
    lowest value up, each value cancels the smallest offensive value left that
    it covers, which reaches it.

    >>> uncancelled([6, 5, 4, 2, 2], [6, 6, 3, 2, 1, 1])  # the rules' example: 1 hit on B...
    1
    >>> uncancelled([5, 4, 2], [5, 3, 1, 1])  # ...and 1 on A
    1
    """
    off = sorted(offence)
    top = len(off)
    i = 0
    for value in sorted(defence):
        if i < top and off[i] <= value:
            i += 1
    return top - i


def uncancelled_by_counts(offence: Sequence[int], defence: Sequence[int], edge: int) -> int:
    """The same count from tail counts: ``offence[m]`` dice show ``m`` or more, likewise ``defence[t]``.

    Both lists run over faces 0..7 (index 0 and 1 count every die, index 7
    none). ``edge`` is the defence's modifiers minus the offence's: a face
    ``t`` defends against faces up to ``t + edge``. By Hall's theorem the
    dice left over are the worst excess of offensive dice showing ``m`` or
    more over the defensive dice that can reach them, those showing
    ``m - edge`` or more.

    >>> tails = lambda faces: [sum(f >= m for f in faces) for m in range(8)]
    >>> uncancelled_by_counts(tails([6, 5, 4, 2, 2]), tails([6, 6, 3, 2, 1, 1]), 0)
    1
    """
    worst = 0
    for m in range(1, 7):
        t = m - edge
        reach = defence[0] if t <= 1 else (0 if t >= 7 else defence[t])
        worst = max(worst, offence[m] - reach)
    return worst


def modifiers(location: int, declared: str | None, opposing: str | None) -> tuple[int, int]:
    """What is added to each of a fighter's offensive and defensive dice.

    ``declared`` is the power the fighter declared this turn, ``opposing`` the
    other fighter's (None: none).

    >>> modifiers(OFF, "brutal", "fast")  # +1 location, +1 Brutal; -1 on the defence from Fast
    (2, -1)
    """
    off = (location == OFF) + (declared == "brutal") - (opposing == "aggressive")
    dfn = (location == DEF) + (declared == "tough") - (opposing == "fast")
    return off, dfn


def turn_lowest(faces: Iterable[int], count: int) -> tuple[int, ...]:
    """A plan's turns: the ``count`` lowest faces showing 1 to 3 turned to ``7 - face``, highest first.

    >>> turn_lowest((6, 3, 1, 1), 2), turn_lowest((6, 5, 3), 2)
    ((6, 6, 6, 3), (6, 5, 4))
    """
    out = sorted(faces)
    for k in range(min(count, len(out))):
        if out[k] > 3:
            break
        out[k] = 7 - out[k]
    return tuple(sorted(out, reverse=True))


def fight_hits(
    pools: Sequence[tuple[Sequence[int], Sequence[int]]], mods: Sequence[tuple[int, int]]
) -> tuple[int, int]:
    """The dice each fighter loses: ``pools[p]`` = (offensive faces, defensive faces), ``mods[p]`` likewise.

    >>> fight_hits([((6, 5, 4, 2, 2), (5, 3, 1, 1)), ((5, 4, 2), (6, 6, 3, 2, 1, 1))], [(0, 0), (0, 0)])
    (1, 1)
    """
    values = [([f + mods[p][0] for f in pools[p][0]], [f + mods[p][1] for f in pools[p][1]]) for p in (0, 1)]
    return (uncancelled(values[1][0], values[0][1]), uncancelled(values[0][0], values[1][1]))


def next_value(dice_a: int, dice_b: int) -> float | None:
    """A's payoff when the fight leaves these dice and the game ends; None when it goes on.

    No dice: out (both out: a draw); one die: finished off (both: a draw); out
    beats finished off.

    >>> next_value(0, 1), next_value(1, 1), next_value(1, 4), next_value(3, 2)
    (-1.0, 0.0, -1.0, None)
    """
    if dice_a >= 2 and dice_b >= 2:
        return None
    if dice_a == 0 or dice_b == 0:
        return 0.0 if dice_a == dice_b else (-1.0 if dice_a == 0 else 1.0)
    if dice_a == dice_b:
        return 0.0
    return -1.0 if dice_a == 1 else 1.0


# --- exact odds -----------------------------------------------------------------------


@functools.cache
def pool_tails(size: int, turns: int) -> tuple[tuple[tuple[int, ...], int], ...]:
    """The outcomes of rolling ``size`` dice and turning ``turns`` by the plan, in ways out of ``6**size``.

    Each outcome is its tail counts (dice showing ``m`` or more, ``m`` = 0..7)
    with the number of ordered rolls that give it.

    >>> pool_tails(1, 0)[0]
    ((1, 1, 0, 0, 0, 0, 0, 0), 1)
    >>> sum(ways for _, ways in pool_tails(3, 2)) == 6**3
    True
    """
    counts: dict[tuple[int, ...], int] = {}
    for faces in combinations_with_replacement(range(1, 7), size):
        ways = math.factorial(size)
        for face in set(faces):
            ways //= math.factorial(faces.count(face))
        final = turn_lowest(faces, turns)
        tails = tuple(sum(f >= m for f in final) for m in range(8))
        counts[tails] = counts.get(tails, 0) + ways
    return tuple(sorted(counts.items()))


@functools.cache
def _defence_table(size: int, turns: int) -> tuple[int, ...]:
    """``table[index(r)]``: the ways that the defence shows ``t`` or more on at least ``r[t]`` dice, t = 2..6.

    The five tail counts index a ``(size + 1)**5`` array; summing the point
    counts from the top along each axis in turn gives every joint tail.
    """
    base = size + 1
    table = [0] * base**5
    for tails, ways in pool_tails(size, turns):
        table[_index(tails[2:7], base)] += ways
    for axis in range(5):
        stride = base**axis
        for index in range(len(table) - 1, -1, -1):
            if (index // stride) % base < size:
                table[index] += table[index + stride]
    return tuple(table)


def _index(tails: Sequence[int], base: int) -> int:
    return sum(t * base**axis for axis, t in enumerate(tails))


@functools.cache
def hit_chances(
    attack: int, attack_turns: int, defence: int, defence_turns: int, edge: int
) -> tuple[float, ...]:
    """The chances of 0, 1, ..., ``attack`` hits of ``attack`` offensive dice on ``defence`` defensive dice.

    Each pool is rolled and its plan's turns applied (``*_turns`` dice, see
    :func:`turn_lowest`); ``edge`` is the defence's modifiers minus the
    offence's. Exact: counts of the ways out of ``6**(attack + defence)``.

    >>> [round(p, 4) for p in hit_chances(2, 0, 1, 0, 0)]  # both get through 55 times in 216
    [0.0, 0.7454, 0.2546]
    """
    base = defence + 1
    table = _defence_table(defence, defence_turns)
    below = [0] * (attack + 1)  # below[u]: ways with at most u hits
    for tails, ways in pool_tails(attack, attack_turns):
        for u in range(attack + 1):
            need = [0] * 5
            possible = True
            for m in range(1, 7):
                excess = tails[m] - u
                if excess <= 0:
                    continue
                t = m - edge
                if t <= 1:
                    possible = excess <= defence
                elif t >= 7:
                    possible = False
                else:
                    need[t - 2] = max(need[t - 2], excess)
                    possible = excess <= defence
                if not possible:
                    break
            if possible:
                below[u] += ways * table[_index(need, base)]
    total = 6 ** (attack + defence)
    chances = [Fraction(below[0], total)] + [
        Fraction(below[u] - below[u - 1], total) for u in range(1, attack + 1)
    ]
    return tuple(float(c) for c in chances)


# --- the model's choices -------------------------------------------------------------


class SplitOption(NamedTuple):
    """One split choice of the model: offensive dice, the power declared or not, and the plan.

    ``plan`` is how many of the two turns go to the offensive pool (the rest to
    the defensive pool), None when the fighter has no tactical option.
    """

    off: int
    declare: bool
    plan: int | None

    @property
    def code(self) -> str:
        """``5`` (five offensive dice), ``5+`` (and the power), ``5@2`` (plan: both turns offensive).

        >>> SplitOption(5, True, 1).code
        '5+@1'
        """
        return f"{self.off}{'+' if self.declare else ''}{'' if self.plan is None else f'@{self.plan}'}"

    def turns(self) -> tuple[int, int]:
        """The dice turned in the (offensive, defensive) pool."""
        return (0, 0) if self.plan is None else (self.plan, TURNS - self.plan)


def split_options(dice: int, power: str, location: int, tactical: bool = True) -> tuple[SplitOption, ...]:
    """A fighter's split choices in the model (``tactical`` False: the variant without the tactical step).

    >>> [o.code for o in split_options(3, "cunning", OFF)]
    ['1', '2', '1+@2', '1+@1', '1+@0', '2+@2', '2+@1', '2+@0']
    """
    offs = range(max(1, dice - MAX_POOL), min(MAX_POOL, dice - 1) + 1)
    out = []
    for declare in (False, True) if power in DECLARABLE else (False,):
        entitled = tactical and (location == TAC or (declare and power == "cunning"))
        for off in offs:
            for plan in (2, 1, 0) if entitled else (None,):
                out.append(SplitOption(off, declare, plan))
    return tuple(out)


def swift_options(location: int, power: str) -> tuple[tuple[str, int, str], ...]:
    """(label, location, unused power after) for each Swift choice: stay, or move and spend Swift.

    >>> swift_options(TAC, "swift")
    (('stay', 2, 'swift'), ('off', 0, 'none'), ('def', 1, 'none'))
    >>> swift_options(TAC, "none")
    (('stay', 2, 'none'),)
    """
    stay = ("stay", location, power)
    if power != "swift":
        return (stay,)
    return (stay, *((LOCATIONS[to], to, "none") for to in (OFF, DEF, TAC) if to != location))


def state_keys() -> list[StateKey]:
    """Every state, each after the states it can lead to (fewer dice, or fewer unused powers).

    >>> keys = state_keys()
    >>> len(keys), keys[0]
    (3136, (2, 2, 'none', 'none'))
    """
    powered = sorted(
        ((pa, pb) for pa in POWERS for pb in POWERS),
        key=lambda pair: (pair[0] != "none") + (pair[1] != "none"),
    )
    return [
        (a, b, pa, pb)
        for a in range(2, START_DICE + 1)
        for b in range(2, START_DICE + 1)
        for pa, pb in powered
    ]


def mirror(key: StateKey) -> StateKey:
    """The same state seen from fighter B's seat.

    >>> mirror((9, 4, "brutal", "none"))
    (4, 9, 'none', 'brutal')
    """
    return (key[1], key[0], key[3], key[2])


# --- the solution -----------------------------------------------------------------------

#: A mixed strategy by choice label.
Mix = dict[str, float]


@dataclass
class StateStrategy:
    """Fighter A's strategy (the row player's) and the value of one state.

    ``split`` and ``swift`` are keyed by the locations ``(A's, B's)``;
    ``swift`` is empty unless A's unused power is Swift.
    """

    value: float
    place: tuple[float, float, float]
    split: dict[tuple[int, int], Mix] = field(default_factory=dict)
    swift: dict[tuple[int, int], Mix] = field(default_factory=dict)


class _Lines:
    """The split games of one state: for each pair of locations, the payoffs ``C + P * v``."""

    __slots__ = ("cols", "constant", "loop", "rows")

    def __init__(
        self,
        rows: tuple[SplitOption, ...],
        cols: tuple[SplitOption, ...],
        constant: list[list[float]],
        loop: list[list[float]],
    ) -> None:
        self.rows = rows
        self.cols = cols
        self.constant = constant
        self.loop = loop

    def at(self, value: float) -> list[list[float]]:
        return [
            [c + p * value for c, p in zip(cr, pr, strict=True)]
            for cr, pr in zip(self.constant, self.loop, strict=True)
        ]

    def line(self, row: Sequence[float], col: Sequence[float]) -> tuple[float, float]:
        """The payoff of mixed strategies as ``(c, p)`` in ``c + p * v``."""
        c = p = 0.0
        for x, cr, pr in zip(row, self.constant, self.loop, strict=True):
            if x:
                c += x * sum(y * e for y, e in zip(col, cr, strict=True))
                p += x * sum(y * e for y, e in zip(col, pr, strict=True))
        return c, p


class Solver:
    """Solves every state of the model in order, for equilibrium play or a best reply.

    With ``fixed`` (A's strategies, as solved or as shipped) it computes
    instead the values B gets by answering them as well as it can: the
    exploitability of A's strategy is then ``value - reply value``.

    >>> solver = Solver()
    >>> solver.solve([(2, 2, "none", "none"), (2, 2, "none", "brutal")])
    >>> solver.values[(2, 2, "none", "brutal")]  # 1 die against 1, Brutal's +1 at the right time
    -0.3333333333333333
    >>> solver.strategies[(2, 2, "none", "none")].split[(TAC, TAC)]  # 1/1, plan: one turn each
    {'1@1': 1.0}
    """

    def __init__(
        self,
        fixed: dict[StateKey, StateStrategy] | None = None,
        tactical: bool = True,
        before: dict[StateKey, float] | None = None,
    ) -> None:
        self.fixed = fixed
        #: Whether fighters get the tactical option (False: FITE's variant ``tactical=false``).
        self.tactical = tactical
        #: For a game cut after some turns (:func:`cut_values`): the values with one turn fewer.
        self.before = before
        self.values: dict[StateKey, float] = {}
        self.split_values: dict[tuple[StateKey, int, int], float] = {}
        self.strategies: dict[StateKey, StateStrategy] = {}

    # --- values ----------------------------------------------------------------

    def value(self, dice_a: int, dice_b: int, pa: str, pb: str) -> float:
        """The value for A of the fight leaving these dice (the end's, or a solved state's)."""
        end = next_value(max(0, dice_a), max(0, dice_b))
        values = self.values if self.before is None else self.before
        return end if end is not None else values[(dice_a, dice_b, pa, pb)]

    def _stage(
        self,
        stage: str,
        key: StateKey,
        locs: tuple[int, int],
        matrix: Sequence[Sequence[float]],
        labels: Sequence[str],
    ) -> MatrixSolution:
        if self.fixed is None:
            return solve_matrix_game(matrix)
        # A plays its given mix; B takes the best column against it.
        mine = self.fixed[key]
        if len(labels) == 1:
            row = [1.0]
        elif stage == "place":
            row = list(mine.place)
        else:
            mix = (mine.split if stage == "split" else mine.swift).get(locs, {})
            row = [mix.get(label, 0.0) for label in labels]
        total = sum(row)
        if total <= 0:
            raise SolverError(
                f"state {key}: the given {stage} strategy at {locs} covers none of {list(labels)}"
            )
        row = [r / total for r in row]
        cols = len(matrix[0])
        col_values = [sum(r * matrix[i][j] for i, r in enumerate(row) if r) for j in range(cols)]
        best = min(range(cols), key=col_values.__getitem__)
        return MatrixSolution(col_values[best], tuple(row), _unit(cols, best))

    # --- one state ----------------------------------------------------------------

    def _lines(self, key: StateKey, la: int, lb: int) -> _Lines:
        a, b, pa, pb = key
        rows = split_options(a, pa, la, self.tactical)
        cols = split_options(b, pb, lb, self.tactical)
        futures: dict[tuple[str, str], list[list[float]]] = {}
        # A's attack against B's defence, answered by its expected value for each count of hits on A.
        replies: dict[tuple[Any, ...], tuple[list[float], float]] = {}
        constant: list[list[float]] = []
        loop: list[list[float]] = []
        for r in rows:
            c_row: list[float] = []
            p_row: list[float] = []
            for c in cols:
                declared_a = pa if r.declare else None
                declared_b = pb if c.declare else None
                off_a, def_a = modifiers(la, declared_a, declared_b)
                off_b, def_b = modifiers(lb, declared_b, declared_a)
                turns_a, turns_b = r.turns(), c.turns()
                on_a = hit_chances(c.off, turns_b[0], a - r.off, turns_a[1], def_a - off_b)
                after = ("none" if r.declare else pa, "none" if c.declare else pb)
                # Nothing declared: a fight without hits comes back to this very state.
                same = not r.declare and not c.declare
                grid = futures.get(after)
                if grid is None:
                    grid = futures[after] = [
                        [
                            0.0 if same and i == 0 and j == 0 else self.value(a - i, b - j, *after)
                            for j in range(MAX_POOL + 1)
                        ]
                        for i in range(MAX_POOL + 1)
                    ]
                b_key = (r.off, turns_a[0], b - c.off, turns_b[1], def_b - off_a, after)
                reply = replies.get(b_key)
                if reply is None:
                    on_b = hit_chances(r.off, turns_a[0], b - c.off, turns_b[1], def_b - off_a)
                    reply = replies[b_key] = (
                        [sum(pj * grid[i][j] for j, pj in enumerate(on_b)) for i in range(MAX_POOL + 1)],
                        on_b[0],
                    )
                expected, quiet = reply
                c_row.append(sum(pi * ui for pi, ui in zip(on_a, expected, strict=False)))
                p_row.append(on_a[0] * quiet if same else 0.0)
            constant.append(c_row)
            loop.append(p_row)
        return _Lines(rows, cols, constant, loop)

    def solve_state(self, key: StateKey, again: float | None = None) -> None:
        """Solve ``key``; every state it can lead to must be solved already.

        ``again``: the value of a fight that comes back to this very state, for a
        game cut after some turns (:func:`cut_values`); by default the fixed point.
        """
        pa, pb = key[2], key[3]
        lines = {(la, lb): self._lines(key, la, lb) for la in range(3) for lb in range(3)}
        swift_a = {la: swift_options(la, pa) for la in range(3)}
        swift_b = {lb: swift_options(lb, pb) for lb in range(3)}
        found: dict[str, Any] = {}

        def step(v: float) -> tuple[float, float, float]:
            splits: dict[tuple[int, int], tuple[float, float, float, MatrixSolution]] = {}
            for locs, game in lines.items():
                sol = self._stage("split", key, locs, game.at(v), [o.code for o in game.rows])
                c, p = game.line(sol.row, sol.col)
                splits[locs] = (sol.value, c, p, sol)
            place_values: list[list[float]] = []
            place_lines: list[list[tuple[float, float]]] = []
            swifts: dict[tuple[int, int], MatrixSolution] = {}
            for la in range(3):
                v_row: list[float] = []
                l_row: list[tuple[float, float]] = []
                for lb in range(3):
                    entries = [
                        [
                            self._after_swift(key, (pa2, pb2), (la2, lb2), splits)
                            for _, lb2, pb2 in swift_b[lb]
                        ]
                        for _, la2, pa2 in swift_a[la]
                    ]
                    if len(entries) == 1 and len(entries[0]) == 1:
                        value, c, p = entries[0][0]
                    else:
                        sol = self._stage(
                            "swift",
                            key,
                            (la, lb),
                            [[e[0] for e in r] for r in entries],
                            [o[0] for o in swift_a[la]],
                        )
                        swifts[(la, lb)] = sol
                        value = sol.value
                        c = sum(
                            x * y * e[1]
                            for x, r in zip(sol.row, entries, strict=True)
                            for y, e in zip(sol.col, r, strict=True)
                        )
                        p = sum(
                            x * y * e[2]
                            for x, r in zip(sol.row, entries, strict=True)
                            for y, e in zip(sol.col, r, strict=True)
                        )
                    v_row.append(value)
                    l_row.append((c, p))
                place_values.append(v_row)
                place_lines.append(l_row)
            place = self._stage("place", key, (-1, -1), place_values, LOCATIONS)
            c = sum(
                x * y * place_lines[i][j][0] for i, x in enumerate(place.row) for j, y in enumerate(place.col)
            )
            p = sum(
                x * y * place_lines[i][j][1] for i, x in enumerate(place.row) for j, y in enumerate(place.col)
            )
            found.update(splits=splits, swifts=swifts, place=place)
            return place.value, c, p

        value = fixed_point(step) if again is None else step(again)[0]
        step(value if again is None else again)  # the strategies at the value itself
        self.values[key] = value
        strategy = StateStrategy(value, (found["place"].row[0], found["place"].row[1], found["place"].row[2]))
        for locs, (split_value, _, _, sol) in found["splits"].items():
            self.split_values[(key, *locs)] = split_value
            strategy.split[locs] = _mix([o.code for o in lines[locs].rows], sol.row)
        for locs, sol in found["swifts"].items():
            if pa == "swift":
                strategy.swift[locs] = _mix([o[0] for o in swift_a[locs[0]]], sol.row)
        self.strategies[key] = strategy

    def _after_swift(
        self,
        key: StateKey,
        powers: tuple[str, str],
        locs: tuple[int, int],
        splits: dict[tuple[int, int], tuple[float, float, float, MatrixSolution]],
    ) -> tuple[float, float, float]:
        """(value, c, p) of the split game after the Swift step: this state's own, or a solved one's."""
        if powers == (key[2], key[3]):
            value, c, p, _ = splits[locs]
            return value, c, p
        value = self.split_values[((key[0], key[1], *powers), *locs)]
        return value, value, 0.0

    def solve(self, keys: Iterable[StateKey] | None = None) -> None:
        """Solve ``keys`` in order (every state by default, in :func:`state_keys` order)."""
        for key in state_keys() if keys is None else keys:
            self.solve_state(key)


def _mix(labels: Sequence[str], weights: Sequence[float]) -> Mix:
    """The non-zero weights by label (plans with the same label are added)."""
    out: Mix = {}
    for label, weight in zip(labels, weights, strict=True):
        if weight > 0.0:
            out[label] = out.get(label, 0.0) + weight
    return out


# --- the shipped data ------------------------------------------------------------------

#: The format tag of the strategy file.
FORMAT = "tussle-fite-strategy/1"
#: The nine location pairs (A's, B's) in the order the file lists them.
LOCATION_PAIRS = tuple((la, lb) for la in range(3) for lb in range(3))
#: Decimals kept of each probability in the file.
DECIMALS = 6


def key_text(key: StateKey) -> str:
    """A state's name in the file.

    >>> key_text((9, 7, "brutal", "none"))
    '9,7,brutal,none'
    """
    return ",".join(str(part) for part in key)


def _mix_json(mix: Mix) -> str | dict[str, float]:
    kept = {label: round(p, DECIMALS) for label, p in mix.items() if round(p, DECIMALS) > 0}
    if len(kept) == 1:
        return next(iter(kept))
    return kept


def _mix_from_json(data: Any, where: str) -> Mix:
    if isinstance(data, str):
        return {data: 1.0}
    if not isinstance(data, dict) or not data:
        raise SolverError(f"{where}: a mix is a choice or an object of choices and weights, not {data!r}")
    weights = {str(k): float(v) for k, v in data.items()}
    total = sum(weights.values())
    if total <= 0 or min(weights.values()) < 0:
        raise SolverError(f"{where}: the weights {data!r} are not a distribution")
    return {k: w / total for k, w in weights.items()}


def strategy_to_json(strategies: dict[StateKey, StateStrategy]) -> dict[str, Any]:
    """The solved strategies as the file stores them (probabilities to ``DECIMALS`` places).

    Each state holds its value, the placement mix over (off, def, tac), and the
    split (and Swift) mixes for the nine location pairs in ``LOCATION_PAIRS``
    order; a pure mix is written as its choice alone.
    """
    states: dict[str, Any] = {}
    for key in state_keys():
        st = strategies[key]
        entry: dict[str, Any] = {
            "value": round(st.value, DECIMALS),
            "place": [round(p, DECIMALS) for p in st.place],
            "split": [_mix_json(st.split[locs]) for locs in LOCATION_PAIRS],
        }
        if st.swift:
            entry["swift"] = [_mix_json(st.swift[locs]) for locs in LOCATION_PAIRS]
        states[key_text(key)] = entry
    return {"format": FORMAT, "powers": list(POWERS), "locations": list(LOCATIONS), "states": states}


def strategy_from_json(data: Any) -> dict[StateKey, StateStrategy]:
    """Read what :func:`strategy_to_json` wrote; a file that does not fit gives a :class:`SolverError`."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise SolverError(f"not a FITE strategy file (format {FORMAT!r} expected)")
    states = data.get("states")
    if not isinstance(states, dict):
        raise SolverError("the FITE strategy file has no states")
    out: dict[StateKey, StateStrategy] = {}
    for key in state_keys():
        name = key_text(key)
        entry = states.get(name)
        if not isinstance(entry, dict):
            raise SolverError(f"the FITE strategy file lacks state {name}")
        place = _mix_from_json(dict(zip(LOCATIONS, entry["place"], strict=True)), f"state {name} place")
        st = StateStrategy(
            float(entry["value"]), (place.get("off", 0.0), place.get("def", 0.0), place.get("tac", 0.0))
        )
        for part, target in (("split", st.split), ("swift", st.swift)):
            if part not in entry:
                continue
            mixes = entry[part]
            if not isinstance(mixes, list) or len(mixes) != len(LOCATION_PAIRS):
                raise SolverError(f"state {name}: {part} needs {len(LOCATION_PAIRS)} mixes")
            for locs, mix in zip(LOCATION_PAIRS, mixes, strict=True):
                target[locs] = _mix_from_json(
                    mix, f"state {name} {part} {LOCATIONS[locs[0]]},{LOCATIONS[locs[1]]}"
                )
        if key[2] == "swift" and not st.swift:
            raise SolverError(f"state {name}: fighter A has Swift but no Swift mixes")
        out[key] = st
    return out


def solve_all() -> Solver:
    """Solve every state (about two minutes).

    The strategies are in ``solver.strategies``, the values in ``solver.values``.
    """
    solver = Solver()
    solver.solve()
    return solver


def cut_values(keys: Sequence[StateKey], turns: int, tactical: bool = True) -> dict[StateKey, float]:
    """The values of ``keys`` in a game that ends as a draw after ``turns`` more turns.

    FITE's ``turn_limit`` cuts the game so; the model's own game has no limit
    (:class:`Solver`). Turn by turn, from a draw: each turn's values read the
    states a fight leads to, and a fight that comes back to the same state,
    with one turn fewer. ``keys`` must hold every state they lead to, in
    :func:`state_keys` order; ``tactical`` False is the variant without the
    tactical step.

    >>> keys = [(2, 2, "none", "none"), (2, 2, "none", "brutal")]
    >>> values = cut_values(keys, 1, tactical=False)
    >>> round(values[(2, 2, "none", "brutal")], 6)  # one turn, 1 die against 1, Brutal
    -0.152778
    """
    values = {key: 0.0 for key in keys}  # no turn left: a draw
    for _ in range(turns):
        solver = Solver(tactical=tactical, before=values)
        for key in keys:
            solver.solve_state(key, again=values[key])
        values = {key: solver.values[key] for key in keys}
    return values


def exploitability(
    strategies: dict[StateKey, StateStrategy],
    values: dict[StateKey, float],
    keys: Sequence[StateKey] | None = None,
) -> dict[StateKey, float]:
    """How much B gains in each state by answering A's ``strategies`` as well as it can.

    ``values`` are the states' equilibrium values; the result is ``value -
    value against the best reply``, 0 for an exact equilibrium. The agent in
    seat B plays the mirrored state's strategy, so the figures cover both
    seats. ``keys``: only these states (closed under the game's moves).

    >>> solver = Solver()
    >>> keys = [(2, 2, "none", "none"), (2, 2, "none", "fast")]
    >>> solver.solve(keys)
    >>> gains = exploitability(solver.strategies, solver.values, keys)
    >>> max(abs(g) for g in gains.values()) < 1e-9
    True
    """
    keys = state_keys() if keys is None else keys
    reply = Solver(fixed=strategies)
    reply.solve(keys)
    return {key: values[key] - reply.values[key] for key in keys}
