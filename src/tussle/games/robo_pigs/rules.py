"""Robo Battle Pigs: the rules.

Two pigs on an 8x8 board each secretly write a program of five commands; the
programs are revealed and run step by step. Within a step all movement is
resolved first (with the collision rules), then Fire and Hit from the new
squares, so two pigs can damage each other in the same step. A pig that has
taken damage must put one X (do nothing) in each later program per damage
point; a program of five R repairs one point. The game ends at once when a pig
reaches five damage (both in the same step: a draw).

Squares are numbered ``y * 8 + x`` with ``x`` the file (a..h, left to right as
the rule text draws the board) and ``y`` the rank minus one (rank 8 at the top,
where pig A starts). Facings are 0..3 for N, E, S, W; north is up the board.
A command and a program are small ints and tuples of five of them; the commands, a
program's notation and its structured form are in ``actions.py``.

The points the rule text leaves open are decided here and explained in the
game's documentation (docs/games/robo-pigs.md, "Rulings").

>>> state = RoboPigs().new_initial_state()
>>> state.apply_str(0, "F ^ TR v H")
(6, 0, 5, 1, 7)
>>> state.apply_str(1, "\\\\ \\\\ F ^ /")
(2, 2, 6, 0, 3)
>>> state.position()
'e7W0 d5N1 2'
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from itertools import chain, combinations, product
from operator import itemgetter
from typing import ClassVar, cast

from tussle.errors import OptionError, PositionError
from tussle.game import (
    JSON,
    PUBLIC,
    Actions,
    ChanceMode,
    Dynamics,
    Game,
    GameInfo,
    Hooks,
    Information,
    ListActions,
    Option,
    Result,
    State,
    Termination,
    document_hint,
)
from tussle.games.robo_pigs.actions import (
    BACK,
    DAMAGE,
    FIRE,
    FWD,
    FWD_LEFT,
    FWD_RIGHT,
    HIT,
    REPAIR,
    REPAIR_PROGRAM,
    STEPS,
    SYMBOLS,
    TURN_LEFT,
    TURN_RIGHT,
    Commands,
    Program,
    ProgramJSON,
    format_program,
    parse_program,
    repair_program,
)
from tussle.games.robo_pigs.boards import STANDARD_BOARD, Board, load_board
from tussle.games.robo_pigs.observation import LastRoundJSON, RoboPigsObservation, StepJSON
from tussle.games.robo_pigs.render import render_observation

SIZE = 8
LETHAL = 5
PIG_NAMES = ("A", "B")
FILES = "abcdefgh"

#: The eight commands a program may use freely (not R, not X).
FREE = (FWD, BACK, FWD_LEFT, FWD_RIGHT, TURN_LEFT, TURN_RIGHT, FIRE, HIT)
MOVES = frozenset((FWD, BACK, FWD_LEFT, FWD_RIGHT))

N, E, S, W = range(4)
FACING_LETTERS = "NESW"
_DELTA = ((0, 1), (1, 0), (0, -1), (-1, 0))

#: The start of the game as the rule text draws it: A on d8 facing south, B on
#: e1 facing north, each just to its own right of the centre line.
START_SQUARES = (59, 4)
START_FACINGS = (S, N)


def _step_target(square: int, facing: int, command: int) -> int:
    """Where move ``command`` would take a pig, or -1 if it would leave the board."""
    fx, fy = _DELTA[facing]
    lx, ly = _DELTA[(facing + 3) % 4]
    rx, ry = _DELTA[(facing + 1) % 4]
    if command == FWD:
        dx, dy = fx, fy
    elif command == BACK:
        dx, dy = -fx, -fy
    elif command == FWD_LEFT:
        dx, dy = fx + lx, fy + ly
    else:
        dx, dy = fx + rx, fy + ry
    x, y = square % SIZE + dx, square // SIZE + dy
    if 0 <= x < SIZE and 0 <= y < SIZE:
        return y * SIZE + x
    return -1


# Precomputed geometry. MOVE_TARGET[square][facing][move] is the square a move
# leads to (-1: off the board); LASER and FIST[square][facing] are the squares
# the attack reaches.
MOVE_TARGET: tuple[tuple[tuple[int, int, int, int], ...], ...] = tuple(
    tuple(
        (
            _step_target(sq, f, FWD),
            _step_target(sq, f, BACK),
            _step_target(sq, f, FWD_LEFT),
            _step_target(sq, f, FWD_RIGHT),
        )
        for f in range(4)
    )
    for sq in range(SIZE * SIZE)
)


def _ray(square: int, facing: int) -> frozenset[int]:
    out = []
    dx, dy = _DELTA[facing]
    x, y = square % SIZE + dx, square // SIZE + dy
    while 0 <= x < SIZE and 0 <= y < SIZE:
        out.append(y * SIZE + x)
        x, y = x + dx, y + dy
    return frozenset(out)


LASER: tuple[tuple[frozenset[int], ...], ...] = tuple(
    tuple(_ray(sq, f) for f in range(4)) for sq in range(SIZE * SIZE)
)
FIST: tuple[tuple[frozenset[int], ...], ...] = tuple(
    tuple(
        frozenset(t for t in (_step_target(sq, f, c) for c in (FWD, FWD_LEFT, FWD_RIGHT)) if t >= 0)
        for f in range(4)
    )
    for sq in range(SIZE * SIZE)
)


# The round loop reads each pig as one int, its pose ``square * 4 + facing``.
# POSE_AFTER[command][pose]: the pose a command leads to when nothing is in the way
# (a move off the board, and any command but a move or a turn, leaves it as it was);
# ATTACK_MASK[command][pose]: the squares Fire or Hit reach from there, as a bitmask.


def _pose_after(command: int, pose: int) -> int:
    square, facing = pose >> 2, pose & 3
    if command in MOVES:
        target = MOVE_TARGET[square][facing][command]
        return pose if target < 0 else target << 2 | facing
    if command == TURN_LEFT:
        return square << 2 | (facing + 3) % 4
    if command == TURN_RIGHT:
        return square << 2 | (facing + 1) % 4
    return pose


def _attack_mask(command: int, pose: int) -> int:
    square, facing = pose >> 2, pose & 3
    reach = LASER[square][facing] if command == FIRE else FIST[square][facing] if command == HIT else ()
    return sum(1 << t for t in reach)


POSE_AFTER: tuple[tuple[int, ...], ...] = tuple(
    tuple(_pose_after(c, pose) for pose in range(SIZE * SIZE * 4)) for c in range(len(SYMBOLS))
)
ATTACK_MASK: tuple[tuple[int, ...], ...] = tuple(
    tuple(_attack_mask(c, pose) for pose in range(SIZE * SIZE * 4)) for c in range(len(SYMBOLS))
)


@dataclass(frozen=True)
class Geometry:
    """The tables above for one board (see :mod:`tussle.games.robo_pigs.boards`), squares numbered alike.

    On the rules' board they are the tables above themselves; on another, a move
    onto a wall or off the board leaves the pig where it was, as the edge does,
    and a laser stops before a wall.
    """

    move_target: tuple[tuple[tuple[int, int, int, int], ...], ...]
    pose_after: tuple[tuple[int, ...], ...]
    attack_mask: tuple[tuple[int, ...], ...]


STANDARD_GEOMETRY = Geometry(MOVE_TARGET, POSE_AFTER, ATTACK_MASK)


@functools.lru_cache(maxsize=16)
def geometry(board: Board) -> Geometry:
    """The tables of ``board``: those above for the rules' board, else made for it."""
    if board == STANDARD_BOARD:
        return STANDARD_GEOMETRY
    return make_geometry(board)


def make_geometry(board: Board) -> Geometry:
    """The tables of ``board``, made from its size and walls (a test checks the rules' board's)."""

    def target(square: int, facing: int, command: int) -> int:
        fx, fy = _DELTA[facing]
        side = _DELTA[(facing + 3) % 4] if command == FWD_LEFT else _DELTA[(facing + 1) % 4]
        dx, dy = {FWD: (fx, fy), BACK: (-fx, -fy)}.get(command, (fx + side[0], fy + side[1]))
        x, y = square % SIZE + dx, square // SIZE + dy
        return y * SIZE + x if board.inside(x, y) else -1

    def ray(square: int, facing: int) -> frozenset[int]:
        out = []
        dx, dy = _DELTA[facing]
        x, y = square % SIZE + dx, square // SIZE + dy
        while board.inside(x, y):
            out.append(y * SIZE + x)
            x, y = x + dx, y + dy
        return frozenset(out)

    moves = tuple(
        tuple(
            (target(sq, f, FWD), target(sq, f, BACK), target(sq, f, FWD_LEFT), target(sq, f, FWD_RIGHT))
            for f in range(4)
        )
        for sq in range(SIZE * SIZE)
    )

    def after(command: int, pose: int) -> int:
        square, facing = pose >> 2, pose & 3
        if command in MOVES:
            to = moves[square][facing][command]
            return pose if to < 0 else to << 2 | facing
        if command == TURN_LEFT:
            return square << 2 | (facing + 3) % 4
        if command == TURN_RIGHT:
            return square << 2 | (facing + 1) % 4
        return pose

    def reach(command: int, pose: int) -> int:
        square, facing = pose >> 2, pose & 3
        if command == FIRE:
            return sum(1 << t for t in ray(square, facing))
        if command == HIT:
            fist = {moves[square][facing][c] for c in (FWD, FWD_LEFT, FWD_RIGHT)}
            return sum(1 << t for t in fist if t >= 0)
        return 0

    poses = range(SIZE * SIZE * 4)
    return Geometry(
        moves,
        tuple(tuple(after(c, pose) for pose in poses) for c in range(len(SYMBOLS))),
        tuple(tuple(reach(c, pose) for pose in poses) for c in range(len(SYMBOLS))),
    )


def square_name(square: int) -> str:
    """``0`` is ``a1``; ``63`` is ``h8``.

    >>> square_name(59)
    'd8'
    """
    return FILES[square % SIZE] + str(square // SIZE + 1)


def parse_square(text: str) -> int:
    """The number of a square named like ``d8``; ValueError if it is not one.

    >>> parse_square("e1")
    4
    """
    if len(text) != 2 or text[0] not in FILES or text[1] not in "12345678":
        raise ValueError(text)
    return (int(text[1]) - 1) * SIZE + FILES.index(text[0])


def program_problem(program: Commands, damage: int, extra_x: bool, steps: int = STEPS) -> str | None:
    """Why ``program`` is not legal for a pig with ``damage``, or None if it is.

    With ``steps`` (the ``program_length`` variant) below five, a pig owes an X per
    point of damage only up to the program's length.

    >>> program_problem((FIRE,) * 5, 2, False)
    'a pig with 2 damage must play exactly 2 X'
    >>> program_problem(REPAIR_PROGRAM, 4, False) is None
    True
    >>> program_problem((FIRE,), 2, False, steps=1)
    'a pig with 2 damage must play exactly 1 X'
    """
    repair = repair_program(steps)
    if program == repair:
        return None if damage > 0 else "only a damaged pig may repair"
    if REPAIR in program:
        return f"repair is {format_program(repair)}, the whole program"
    xs = program.count(DAMAGE)
    owed = min(damage, steps)
    if (steps < STEPS and xs == owed) or (extra_x and xs > owed):
        return None
    if steps < STEPS:
        return f"a pig with {damage} damage must play {'at least' if extra_x else 'exactly'} {owed} X"
    if xs == damage or (extra_x and xs > damage):
        return None
    if extra_x:
        return f"a pig with {damage} damage must play at least {damage} X"
    if damage == 0:
        return "an undamaged pig plays no X (option extra_x allows them)"
    return f"a pig with {damage} damage must play exactly {damage} X"


_Spots = tuple[tuple[int, ...], ...]
#: Reads a program off the free commands in step order followed by an X (an itemgetter).
_Picker = Callable[[tuple[int, ...]], Commands]

# The free commands of three and of two steps by their base-8 number, lowest digit first;
# the second also with an X after, at _X_DIGIT of the five digits and that X.
_LOW_DIGITS = tuple((FREE[i & 7], FREE[i >> 3 & 7], FREE[i >> 6]) for i in range(8**3))
_HIGH_DIGITS = tuple((FREE[i & 7], FREE[i >> 3]) for i in range(8**2))
_HIGH_DIGITS_X = tuple((FREE[i & 7], FREE[i >> 3], DAMAGE) for i in range(8**2))
_X_DIGIT = STEPS


class Programs(Actions[Commands]):
    """Every legal program of one pig, computed on demand, never listed.

    Programs are ordered by number of X, then by where the X stand (in the
    order of :func:`itertools.combinations`), then by the other commands read
    as a base-8 number whose lowest digit is the first free step; the repair
    program R R R R R, legal only for a damaged pig, comes last.

    >>> len(Programs(0, False)), len(Programs(1, False)), len(Programs(1, True))
    (32768, 20481, 26282)
    >>> programs = Programs(1, False)
    >>> format_program(programs[0]), format_program(programs[-1])
    ('X ^ ^ ^ ^', 'R R R R R')
    """

    __slots__ = ("_blocks", "_damage", "_extra_x", "_repair", "_sampled", "_size")

    def __init__(self, damage: int, extra_x: bool) -> None:
        self._damage = damage
        self._extra_x = extra_x
        counts = range(damage, STEPS + 1) if extra_x else range(damage, damage + 1)
        # One block per number of X: (X count, X placements, programs in the block,
        # programs per placement, a picker per placement). A picker reads a program off
        # the free commands in step order followed by X: see _at.
        self._blocks: list[tuple[int, _Spots, int, int, tuple[_Picker, ...]]] = []
        total = 0
        for xs in counts:
            spots = tuple(combinations(range(STEPS), xs))
            per_spot = len(FREE) ** (STEPS - xs)
            pickers = []
            for x_spots in spots:
                free = [i for i in range(STEPS) if i not in x_spots]
                order = [_X_DIGIT if i in x_spots else free.index(i) for i in range(STEPS)]
                pickers.append(itemgetter(*order))
            self._blocks.append((xs, spots, len(spots) * per_spot, per_spot, tuple(pickers)))
            total += len(spots) * per_spot
        self._repair = damage > 0
        self._size = total + (1 if self._repair else 0)
        #: The program sample() drew last: apply() knows it is legal without reading it.
        self._sampled: Commands | None = None

    def __len__(self) -> int:
        return self._size

    def __getitem__(self, index: int) -> Commands:  # type: ignore[override]
        if type(index) is not int:
            if not isinstance(index, int):
                raise TypeError(f"program indices are integers, not {type(index).__name__}")
            index = int(index)
        if index < 0:
            index += self._size
        if not 0 <= index < self._size:
            raise IndexError(f"program index out of range (there are {self._size})")
        return self._at(index)

    def sample(self, rng: random.Random) -> Commands:
        # The same draw as Actions.sample; the program is remembered for apply().
        program = self._sampled = self._at(rng.randrange(self._size))
        return program

    def _at(self, index: int) -> Commands:
        """The program at ``index``, which must be in range."""
        for xs, _spots, size, per_spot, pickers in self._blocks:
            if index < size:
                where, rest = divmod(index, per_spot)
                # The free commands are base-8 digits of ``rest``, lowest first, read three
                # and two at a time from tables (sampling makes a program per decision).
                if not xs:
                    program: Commands = _LOW_DIGITS[rest & 511] + _HIGH_DIGITS[rest >> 9]
                    return program
                # With X, the digits (high ones past the free steps are unused) and an X.
                program = pickers[where](_LOW_DIGITS[rest & 511] + _HIGH_DIGITS_X[rest >> 9])
                return program
            index -= size
        return REPAIR_PROGRAM

    def __iter__(self) -> Iterator[Commands]:
        # In index order, as _at reads them, made by comprehensions and chained in C:
        # listing every program is what a search's expansion does.
        parts: list[Iterable[Commands]] = []
        for xs, _spots, _size, per_spot, pickers in self._blocks:
            if not xs:
                parts.append([low + high for high in _HIGH_DIGITS for low in _LOW_DIGITS])
                continue
            digits = [_LOW_DIGITS[rest & 511] + _HIGH_DIGITS_X[rest >> 9] for rest in range(per_spot)]
            parts.extend(map(pick, digits) for pick in pickers)
        if self._repair:
            parts.append((REPAIR_PROGRAM,))
        return chain.from_iterable(parts)

    def __contains__(self, item: object) -> bool:
        # program_problem's rules, written out: every action applied is checked here.
        if not isinstance(item, tuple) or len(item) != STEPS:
            return False
        a, b, c, d, e = item
        if not (type(a) is type(b) is type(c) is type(d) is type(e) is int and _COMMAND_SET.issuperset(item)):
            return False
        xs = item.count(DAMAGE)
        damage = self._damage
        if xs == damage or (self._extra_x and xs > damage):
            return REPAIR not in item
        return damage > 0 and item == REPAIR_PROGRAM

    def __repr__(self) -> str:
        return f"Programs(damage={self._damage}, extra_x={self._extra_x}, count={self._size})"


class ShortPrograms(ListActions[Commands]):
    """Every legal program of one pig when programs are shorter than five (``program_length``).

    A few thousand at most (8^4 for four commands), so they are listed: by number
    of X, then where the X stand, then the free commands in
    :func:`itertools.product` order; the repair program last, for a damaged pig.

    >>> programs = ShortPrograms(1, False, 2)
    >>> len(programs), format_program(programs[0]), format_program(programs[-1])
    (17, 'X ^', 'R R')
    """

    __slots__ = ()
    #: Programs.sample's remembered draw, for is_legal: ListActions' membership test has its own.
    _sampled: ClassVar[object] = object()

    def __init__(self, damage: int, extra_x: bool, steps: int) -> None:
        owed = min(damage, steps)
        programs: list[Commands] = []
        for xs in range(owed, steps + 1) if extra_x else (owed,):
            for x_spots in combinations(range(steps), xs):
                for free in product(FREE, repeat=steps - xs):
                    rest = iter(free)
                    programs.append(tuple(DAMAGE if i in x_spots else next(rest) for i in range(steps)))
        if damage > 0:
            programs.append(repair_program(steps))
        super().__init__(programs)


_COMMANDS = len(SYMBOLS)
_COMMAND_SET = frozenset(range(_COMMANDS))
# Programs per (damage, extra_x, steps): immutable, so every state shares them.
_PROGRAMS: dict[tuple[int, bool, int], Programs | ShortPrograms] = {}


def programs_for(damage: int, extra_x: bool, steps: int = STEPS) -> Programs | ShortPrograms:
    """The legal programs of a pig with ``damage`` (made once, then shared).

    >>> programs_for(2, False) is programs_for(2, False)
    True
    """
    found = _PROGRAMS.get((damage, extra_x, steps))
    if found is None:
        made = Programs(damage, extra_x) if steps == STEPS else ShortPrograms(damage, extra_x, steps)
        found = _PROGRAMS[damage, extra_x, steps] = made
    return found


@dataclass(frozen=True)
class Step:
    """What one step of a round did: the commands, where the pigs ended, who was hit.

    ``blocked[p]`` says why pig ``p``'s move did not happen: ``"edge"`` (it
    would have left the board), ``"pig"`` (a collision), or ``""``.
    """

    commands: tuple[int, int]
    squares: tuple[int, int]
    facings: tuple[int, int]
    damage: tuple[int, int]
    hits: tuple[bool, bool]  # hits[p]: pig p was damaged in this step
    moved: tuple[bool, bool]
    blocked: tuple[str, str] = ("", "")

    def to_json(self) -> StepJSON:
        return {
            "commands": [SYMBOLS[c] for c in self.commands],
            "squares": [square_name(s) for s in self.squares],
            "facings": [FACING_LETTERS[f] for f in self.facings],
            "damage": list(self.damage),
            "hit": list(self.hits),
            "moved": list(self.moved),
            "blocked": [b or None for b in self.blocked],
        }


#: One step of a round as plain numbers: commands, poses before, poses after, damage
#: after, hits (see :class:`Step`).
_RawStep = tuple[int, int, int, int, int, int, int, int, int, int]


def play_steps(
    start: tuple[int, int, int, int],
    prog_a: Commands,
    prog_b: Commands,
    record: list[_RawStep] | None = None,
    tables: Geometry = STANDARD_GEOMETRY,
    *,
    lethal: int = LETHAL,
) -> tuple[int, int, int, int]:
    """Run two programs from ``start``, the pigs' poses and damage: the poses and damage after.

    Within a step all movement comes first, then Fire and Hit from the new squares; the
    round stops at once when a pig reaches five damage. ``record`` gets one
    :data:`_RawStep` per step played. The collision rules: two pigs that would end on
    one square, or pass through each other, both stay; a pig moving onto a pig that
    does not move (a move off the board is no move) stays; anything else happens
    (tests/games/robo_pigs_reference.py writes them out one case at a time).

    A pig on e8 facing south fires five times while the other walks up from e1 to e6:

    >>> pose_a, pose_b, dmg_a, dmg_b = play_steps((60 << 2 | S, 4 << 2 | N, 0, 0), (FIRE,) * 5, (FWD,) * 5)
    >>> square_name(pose_a >> 2), square_name(pose_b >> 2), dmg_a, dmg_b
    ('e8', 'e6', 0, 5)
    """
    pose_a, pose_b, dmg_a, dmg_b = start
    after, attack = tables.pose_after, tables.attack_mask
    for ca, cb in zip(prog_a, prog_b, strict=True):
        old_a, old_b = pose_a >> 2, pose_b >> 2
        new_a, new_b = after[ca][pose_a], after[cb][pose_b]
        sa, sb = new_a >> 2, new_b >> 2
        if sa != old_a:
            if sb != old_b:
                if sa == sb or (sa == old_b and sb == old_a):  # onto one square, or through each other
                    new_a, new_b, sa, sb = pose_a, pose_b, old_a, old_b
            elif sa == old_b:  # onto a pig that stays
                new_a, sa = pose_a, old_a
        elif sb != old_b and sb == old_a:
            new_b, sb = pose_b, old_b
        hit_b = attack[ca][new_a] >> sb & 1
        hit_a = attack[cb][new_b] >> sa & 1
        dmg_a += hit_a
        dmg_b += hit_b
        if record is not None:
            record.append((ca, cb, pose_a, pose_b, new_a, new_b, dmg_a, dmg_b, hit_a, hit_b))
        pose_a, pose_b = new_a, new_b
        if dmg_a >= lethal or dmg_b >= lethal:
            break  # the game ends at once: the rest of the round is not played
    return pose_a, pose_b, dmg_a, dmg_b


class RoboPigs(Game):
    """Robo Battle Pigs for two players.

    >>> game = RoboPigs()
    >>> game.new_initial_state().position()
    'd8S0 e1N0 1'
    >>> RoboPigs(repair_at="start").options["repair_at"]
    'start'
    """

    info = GameInfo(
        id="robo-pigs",
        name="Robo Battle Pigs",
        description="Two robot pigs write secret five-command programs, then fight them out on an 8x8 board.",
        min_players=2,
        max_players=2,
        dynamics=Dynamics.SIMULTANEOUS,
        chance=ChanceMode.DETERMINISTIC,
        information=Information.IMPERFECT,
        options=(
            Option(
                "repair_at",
                "choice",
                "end",
                "when a repair round takes off its damage point: after its five steps, or before them",
                choices=("end", "start"),
            ),
            Option(
                "extra_x",
                "bool",
                False,
                "allow more X (do-nothing) commands than the pig's damage",
            ),
            Option(
                "round_limit",
                "int",
                0,
                "end the game as a draw after this many rounds (0: no limit; simulations use 100)",
                minimum=0,
            ),
            Option(
                "board",
                "document",
                "",
                "the board: size, walls and the pigs' starts (TOML or JSON, docs/games/robo-pigs.md); "
                "empty or standard: the rules' 8x8 board",
                documents=("standard",),
            ),
            # Variants, not the rules: shorter programs and a lower damage limit make games
            # small enough to solve exactly (docs/ecosystem.md).
            Option(
                "program_length",
                "int",
                STEPS,
                "the commands in a program (a variant: the rules give 5; 1 to 5)",
                minimum=1,
                maximum=STEPS,
            ),
            Option(
                "damage_limit",
                "int",
                LETHAL,
                "the damage at which a pig loses (a variant: the rules give 5; 1 to 5)",
                minimum=1,
                maximum=LETHAL,
            ),
        ),
        has_position=True,
        notation=(
            "a program is five commands, in order, separated by spaces: ^ forward, v back, "
            "\\ forward-left, / forward-right, TL turn left, TR turn right, F fire the laser "
            "(straight ahead, any range), H hit with the fist (the three squares in front), "
            "X do nothing (one per point of damage, and no more); or R R R R R to repair a point. "
            "For example F ^ TR v H"
        ),
        simulation_defaults=(("round_limit", 100),),
        hooks=Hooks(
            style=".style:style",
            rule_agent=".rule_agent:RoboPigsRuleAgent",
            search=".search:RoboPigsPolicy",
            encoding=".encoding:encoding",
            batch=".batch:batch",
            rules="rules.md",
            balance=".balance:measures",
            web="web.js",
            story=".story:story",
            # Chosen by measurement: docs/strength.md has the ladders.
            levels=(
                ("easy", "smmcts:iterations=1000"),
                ("medium", "smmcts:iterations=8000"),
                ("hard", "smmcts:iterations=32000"),
            ),
            bench_target=12.0,
        ),
    )

    #: The board played on, and its tables (the rules' own without the board option).
    board: Board
    tables: Geometry

    def _check_options(self) -> None:
        text = self.str_option("board")
        if text in ("", "standard"):
            self.board = STANDARD_BOARD
        else:
            try:
                self.board = load_board(text, "option board")
            except OptionError as exc:
                raise OptionError(f"{exc}{document_hint(self.id, 'board', text)}") from None
        self.tables = geometry(self.board)

    def __init__(self, /, players: int | None = None, **options: object) -> None:
        super().__init__(players, **options)
        # Read every round: the options are fixed, so they are looked up once here.
        self._round_limit = int(self.options["round_limit"])
        self._repair_at_start = self.options["repair_at"] == "start"
        extra_x = bool(self.options["extra_x"])
        #: The commands in a program, the damage that ends the game, and the repair program.
        self._steps = int(self.options["program_length"])
        self._lethal = int(self.options["damage_limit"])
        self._repair = repair_program(self._steps)
        #: The legal programs by damage (a pig at the damage limit has ended the game).
        self._programs = tuple(programs_for(damage, extra_x, self._steps) for damage in range(self._lethal))

    def length_bound(self) -> tuple[int, int] | None:
        limit = int(self.options["round_limit"])
        return (limit, 0) if limit > 0 else None

    def new_initial_state(self) -> RoboPigsState:
        (square_a, facing_a), (square_b, facing_b) = self.board.starts
        return RoboPigsState(self, (square_a, square_b), (facing_a, facing_b), (0, 0), 1)

    def state_from_position(self, text: str) -> RoboPigsState:
        """Read ``<pig A> <pig B> <round>``, each pig as square, facing letter and damage.

        A position may be a finished game (a pig at 5 damage, or the round
        after the round limit), so that every position written between rounds
        reads back.

        >>> RoboPigs().state_from_position("e7W0 d5N1 2").damage
        (0, 1)
        >>> RoboPigs().state_from_position("e7W0 e7N1 2")
        Traceback (most recent call last):
        tussle.errors.PositionError: 'e7W0 e7N1 2': both pigs are on e7
        """
        example = "e.g. 'd8S0 e1N0 1'"
        parts = text.split() if isinstance(text, str) else []
        if len(parts) != 3:
            raise PositionError(f"{text!r}: a position is '<pig A> <pig B> <round>', {example}")
        squares, facings, damage = [], [], []
        for name, part in zip(PIG_NAMES, parts[:2], strict=True):
            if (
                len(part) < 4
                or part[2] not in FACING_LETTERS
                or not (part[3:].isascii() and part[3:].isdigit())
            ):
                raise PositionError(
                    f"{text!r}: pig {name} {part!r} is not square, facing (N, E, S, W), damage; {example}"
                )
            try:
                squares.append(parse_square(part[:2]))
            except ValueError:
                raise PositionError(f"{text!r}: pig {name} is on {part[:2]!r}, not a square a1..h8") from None
            facings.append(FACING_LETTERS.index(part[2]))
            dmg = int(part[3:])
            if dmg > self._lethal:
                raise PositionError(f"{text!r}: pig {name} has {dmg} damage; the game ends at {self._lethal}")
            damage.append(dmg)
        if squares[0] == squares[1]:
            raise PositionError(f"{text!r}: both pigs are on {square_name(squares[0])}")
        board = self.board
        for name, square in zip(PIG_NAMES, squares, strict=True):
            if not board.on_board(square):
                where = "a wall" if square in board.walls else f"off the {board.width}x{board.height} board"
                raise PositionError(f"{text!r}: pig {name} is on {square_name(square)}, {where}")
        if not (parts[2].isascii() and parts[2].isdigit()) or int(parts[2]) < 1:
            raise PositionError(f"{text!r}: the round {parts[2]!r} is not a number from 1")
        round_number = int(parts[2])
        limit = int(self.options["round_limit"])
        if limit and round_number > limit + 1:
            raise PositionError(f"{text!r}: round {round_number} is past the round limit of {limit}")
        state = RoboPigsState(
            self, (squares[0], squares[1]), (facings[0], facings[1]), (damage[0], damage[1]), round_number
        )
        state._result = state._outcome()
        return state


class RoboPigsState(State[Commands]):
    """A round about to be programmed, or half programmed (one pig has submitted)."""

    __slots__ = (
        "_last_start",
        "_pending",
        "_result",
        "damage",
        "facings",
        "game",
        "last_damage",
        "last_programs",
        "last_repaired",
        "round",
        "squares",
    )

    game: RoboPigs

    def __init__(
        self,
        game: RoboPigs,
        squares: tuple[int, int],
        facings: tuple[int, int],
        damage: tuple[int, int],
        round_number: int,
    ) -> None:
        self.game = game
        self.squares = squares
        self.facings = facings
        self.damage = damage
        self.round = round_number
        self._pending: list[Commands | None] = [None, None]
        #: The programs and steps of the round just played (public once revealed),
        #: the damage the pigs had before it and whether each pig's repair counted.
        self.last_programs: tuple[Commands, Commands] | None = None
        # The pigs' poses and damage as the round just played began its steps: last_steps
        # replays it from there, so a round records nothing while it is played.
        self._last_start: tuple[int, int, int, int] = (0, 0, 0, 0)
        self.last_damage: tuple[int, int] = damage
        self.last_repaired: tuple[bool, bool] = (False, False)
        self._result: Result | None = None

    # --- turn structure -----------------------------------------------------

    def to_act(self) -> tuple[int, ...]:
        if self._result is not None:
            return ()
        pending = self._pending
        if pending[0] is None:
            return _BOTH if pending[1] is None else _ONLY_A
        return _ONLY_B if pending[1] is None else ()

    def player_name(self, player: int) -> str:
        return f"pig {PIG_NAMES[player]}" if player in (0, 1) else super().player_name(player)

    def legal_actions(self, player: int) -> Actions[Commands]:
        # A pig acts while the game goes on and its program is not in yet.
        if self._result is not None or player not in _BOTH or self._pending[player] is not None:
            return _NO_PROGRAMS
        return self.game._programs[self.damage[player]]

    def is_legal(self, player: int, action: Commands) -> bool:
        # An acting pig submits a legal program, most often the very one its programs just
        # sampled (legal without reading it). Robo Battle Pigs has no chance events.
        if self._result is not None or player not in _BOTH or self._pending[player] is not None:
            return False
        programs = self.game._programs[self.damage[player]]
        try:
            return action is programs._sampled or action in programs
        except TypeError:  # unhashable: no program
            return False

    def _why_illegal(self, player: int, action: Commands) -> str:
        game = self.game
        problem = program_problem(action, self.damage[player], bool(game.options["extra_x"]), game._steps)
        return f": {problem}" if problem else ""

    def _apply(self, player: int, action: Commands) -> None:
        self._pending[player] = action
        prog_a, prog_b = self._pending
        if prog_a is not None and prog_b is not None:
            self._run_round(prog_a, prog_b)

    def _run_round(self, prog_a: Commands, prog_b: Commands) -> None:
        before = self.damage
        dmg_a, dmg_b = before
        game = self.game
        repair = game._repair
        lethal = game._lethal
        repair_a = prog_a == repair
        repair_b = prog_b == repair
        (sa, sb), (fa, fb) = self.squares, self.facings
        if game._repair_at_start:
            start = (sa << 2 | fa, sb << 2 | fb, dmg_a - repair_a, dmg_b - repair_b)
            pose_a, pose_b, dmg_a, dmg_b = play_steps(start, prog_a, prog_b, None, game.tables, lethal=lethal)
            repaired = (repair_a, repair_b)
        else:
            start = (sa << 2 | fa, sb << 2 | fb, dmg_a, dmg_b)
            pose_a, pose_b, dmg_a, dmg_b = play_steps(start, prog_a, prog_b, None, game.tables, lethal=lethal)
            repaired = _NOT_REPAIRED
            # A repair at the end counts only if the game goes on.
            if dmg_a < lethal and dmg_b < lethal:
                dmg_a -= repair_a
                dmg_b -= repair_b
                repaired = (repair_a, repair_b)
        self._last_start = start
        self.squares = (pose_a >> 2, pose_b >> 2)
        self.facings = (pose_a & 3, pose_b & 3)
        self.damage = (dmg_a, dmg_b)
        self.last_programs = (prog_a, prog_b)
        self.last_damage = before
        self.last_repaired = repaired
        self._pending = [None, None]
        self.round += 1
        limit = game._round_limit
        if dmg_a >= lethal or dmg_b >= lethal or (limit and self.round > limit):
            self._result = self._outcome()

    @property
    def last_steps(self) -> tuple[Step, ...]:
        """The steps of the round just played, in order (empty before the first round ends)."""
        if self.last_programs is None:
            return ()
        raw: list[_RawStep] = []
        board = self.game.board
        play_steps(self._last_start, *self.last_programs, raw, self.game.tables, lethal=self.game._lethal)
        return tuple(
            Step(
                (ca, cb),
                (new_a >> 2, new_b >> 2),
                (new_a & 3, new_b & 3),
                (da, db),
                (bool(hit_a), bool(hit_b)),
                (new_a >> 2 != old_a >> 2, new_b >> 2 != old_b >> 2),
                (
                    _blocked(board, old_a >> 2, old_a & 3, ca, new_a >> 2),
                    _blocked(board, old_b >> 2, old_b & 3, cb, new_b >> 2),
                ),
            )
            for ca, cb, old_a, old_b, new_a, new_b, da, db, hit_a, hit_b in raw
        )

    def _outcome(self) -> Result | None:
        """The result if the game is over now (between rounds), else None."""
        lethal = self.game._lethal
        dead_a, dead_b = (d >= lethal for d in self.damage)
        if dead_a and dead_b:
            return Result.draw(2, f"both pigs reached {lethal} damage in the same step")
        if dead_a or dead_b:
            winner = 1 if dead_a else 0
            return Result.win(winner, 2, f"pig {PIG_NAMES[1 - winner]} reached {lethal} damage")
        limit = self.game._round_limit
        if limit and self.round > limit:
            return Result.draw(2, f"round limit of {limit} reached", Termination.LIMIT)
        return None

    def result(self) -> Result | None:
        return self._result

    # --- notation -----------------------------------------------------------

    def action_to_str(self, player: int, action: Commands) -> str:
        return format_program(action)

    def _parse_action(self, player: int, text: str) -> Commands:
        return parse_program(text, self.game._steps)

    def action_to_json(self, player: int, action: Commands) -> ProgramJSON:
        """The structured form of a program (see :class:`~tussle.games.robo_pigs.actions.Program`).

        >>> RoboPigs().new_initial_state().action_to_json(0, (6, 0, 5, 1, 7))
        {'commands': ['F', '^', 'TR', 'v', 'H']}
        """
        return Program(action).to_json()

    def _action_from_json(self, player: int, data: dict[str, object]) -> Commands:
        return Program.from_json(data, self.game._steps).commands

    def position(self) -> str:
        """``<pig A> <pig B> <round>``; each pig is square, facing and damage.

        >>> RoboPigs().new_initial_state().position()
        'd8S0 e1N0 1'
        """
        if self._pending != [None, None]:
            raise PositionError("a position is written between rounds, not while programs are pending")
        pigs = " ".join(
            f"{square_name(self.squares[p])}{FACING_LETTERS[self.facings[p]]}{self.damage[p]}" for p in (0, 1)
        )
        return f"{pigs} {self.round}"

    # --- copies and views ---------------------------------------------------

    def clone(self) -> RoboPigsState:
        other = RoboPigsState.__new__(RoboPigsState)
        other.game = self.game
        other.squares = self.squares
        other.facings = self.facings
        other.damage = self.damage
        other.round = self.round
        other._pending = list(self._pending)
        other.last_programs = self.last_programs
        other._last_start = self._last_start
        other.last_damage = self.last_damage
        other.last_repaired = self.last_repaired
        other._result = self._result
        return other

    def resample(self, player: int, rng: random.Random) -> RoboPigsState:
        """A copy in which every submitted program that ``player`` cannot see (the
        opponent's; for a spectator, both) is redrawn at random among its legal programs.
        """
        other = self.clone()
        programs = self.game._programs
        for p in (0, 1):
            if p != player and other._pending[p] is not None:
                other._pending[p] = programs[self.damage[p]].sample(rng)
        return other

    def observation(self, player: int) -> RoboPigsObservation:
        """Everything public, plus ``player``'s own submitted program.

        Whether the other pig has submitted is left out: a submission must not
        change what the other player sees.

        >>> obs = RoboPigs().new_initial_state().observation(0)
        >>> obs["pigs"][0]
        {'name': 'A', 'square': 'd8', 'facing': 'S', 'damage': 0}
        """
        options = self.game.options
        mine = self._pending[player] if player in _BOTH else None
        last: LastRoundJSON | None = None
        if self.last_programs is not None:
            last = {
                "round": self.round - 1,
                "programs": [format_program(p) for p in self.last_programs],
                "moves": [Program(p).to_json() for p in self.last_programs],
                "damage_before": list(self.last_damage),
                "repaired": list(self.last_repaired),
                "steps": [s.to_json() for s in self.last_steps],
            }
        view: RoboPigsObservation = {
            "game": "robo-pigs",
            "player": player,
            "round": self.round,
            "options": {
                "repair_at": str(options["repair_at"]),
                "extra_x": bool(options["extra_x"]),
                "round_limit": int(options["round_limit"]),
            },
            "pigs": [
                {
                    "name": PIG_NAMES[p],
                    "square": square_name(self.squares[p]),
                    "facing": FACING_LETTERS[self.facings[p]],
                    "damage": self.damage[p],
                }
                for p in (0, 1)
            ],
            "my_program": format_program(mine) if mine is not None else None,
            "my_move": Program(mine).to_json() if mine is not None else None,
            "last_round": last,
            "result": self._result.to_json() if self._result else None,
        }
        game = self.game
        if game._steps != STEPS or game._lethal != LETHAL:
            # Only in the variants: the standard game's views stay as they were.
            view["options"]["program_length"] = game._steps
            view["options"]["damage_limit"] = game._lethal
        board = game.board
        if board != STANDARD_BOARD:
            # Only off the rules' board: the views of the rules' board stay as they were.
            walls = [square_name(square) for square in sorted(board.walls)]
            view["board"] = {"width": board.width, "height": board.height, "walls": walls}
        return view

    def observation_to_text(self, observation: Mapping[str, JSON], player: int) -> str:
        return render_observation(cast(RoboPigsObservation, observation))  # a view this game made

    def render(self) -> str:
        pending = [format_program(p) if p is not None else None for p in self._pending]
        return render_observation(self.observation(PUBLIC), pending)  # the public view, and the secrets


def _blocked(board: Board, square: int, facing: int, command: int, now: int) -> str:
    """Why a pig that was told to move is still on ``square`` ('' if it moved or did not try)."""
    if command not in MOVES or now != square:
        return ""
    target = MOVE_TARGET[square][facing][command]
    if target < 0 or not board.on_board(target):
        # Off the rules' board or off a smaller one: the edge; onto a square of the board: a wall.
        off = target < 0 or not (target % SIZE < board.width and target // SIZE < board.height)
        return "edge" if off else "wall"
    return "pig"


_NO_PROGRAMS: ListActions[Commands] = ListActions(())
_BOTH, _ONLY_A, _ONLY_B = (0, 1), (0,), (1,)
_NOT_REPAIRED = (False, False)

# The notation moved to actions.py; code written against the rules still finds it here.
__all__ = ["RoboPigs", "RoboPigsState", "format_program"]
