"""Tank Chess: the rules.

Two players, White (player 0, moves first) and Black, each command a set of
tanks on a 16x16 or 20x20 board with obstacles. A turn moves one tank: up to
its speed in steps, each step a 45 degree turn or one square forward in its
facing, or instead exactly one square backward; it passes and ends only on
empty squares and must end on another square or with another facing. Then
that tank may shoot one enemy tank ahead or 45 degrees to either side (Tank
Destroyer and Heavy Mortar: straight ahead only), never an adjacent one, along
a clear line; the Heavy Mortar hits 3 to 5 squares straight ahead over
anything between. The target is destroyed, and stays as a wreck, when the gun
is strictly greater than the armour of the side that is hit. Destroying the
enemy Command tank, or driving one's own Command tank off the opponent's edge,
wins.

One action is one whole turn (see :mod:`.board` for how it is packed into an
int); two ways of driving to the same square and facing are the same action,
and only shots that destroy are listed (a shot that cannot pierce changes
nothing, so it is the same turn as not shooting). docs/games/tank-chess.md
gives every ruling with its reason.
"""

from __future__ import annotations

import bisect
import functools
import random
from collections.abc import Iterator, Mapping
from typing import cast

from tussle.errors import ActionError, OptionError, PositionError
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
from tussle.games.tank_chess.board import (
    ACTION_LIMIT,
    BLACK,
    COMMAND,
    ENEMY_TAG,
    ESCAPE,
    FACING_NAMES,
    GEOMETRY,
    KIND_LETTERS,
    KIND_NAMES,
    MORTAR,
    NO_TARGET,
    OBSTACLE,
    SIDE_KEYS,
    SIDE_MASK,
    SIDE_NAMES,
    SIZES,
    TANK,
    WHITE,
    WRECK,
    Geometry,
    code_facing,
    code_kind,
    code_side,
    decode,
    geometry,
    square_name,
    tank_code,
)
from tussle.games.tank_chess.notation import (
    Setup,
    Turn,
    TurnJSON,
    basic_setup,
    format_move,
    format_parts,
    format_position,
    parse_move,
    parse_position,
)
from tussle.games.tank_chess.observation import (
    Announced,
    FireLine,
    LastMove,
    TankChessObservation,
    TankData,
    TankView,
)
from tussle.games.tank_chess.tanks import STANDARD_TANKS, armour_side, load_tanks

# --- the tanks ------------------------------------------------------------------
# A game reads its tank types' figures and tables from its geometry (``geo.types``,
# .tanks.TankTypes): the rules' own, or those of a ``tanks`` document. Indexed by kind:
# Light, Medium, Heavy, Command, Tank Destroyer, Heavy Mortar. Here, the rules' own.

SPEED = STANDARD_TANKS.speed
GUN = STANDARD_TANKS.gun
#: (front, side, rear) armour.
ARMOUR = STANDARD_TANKS.armour
#: Whether the gun turns: a turret shoots ahead or 45 degrees to either side, a fixed gun only ahead.
TURRET = STANDARD_TANKS.turret
MORTAR_RANGE = STANDARD_TANKS.mortar_range
#: KILLS[gun][kind << 3 | facing]: bit ``d`` is set when that gun destroys such a
#: tank with a shot travelling in direction ``d``.
KILLS = STANDARD_TANKS.kills
#: ARC[kind][facing]: bit ``d`` is set when the tank can shoot in direction ``d``.
ARC = STANDARD_TANKS.arc
ROMAN = ("0", "I", "II", "III", "IV", "V")
ARMOUR_SIDES = ("front", "side", "rear")

# --- move generation (the hot path) ---------------------------------------------


def reach(geo: Geometry, board: list[int], square: int, code: int) -> tuple[list[int], bool]:
    """Every (square, facing) state the tank ``code`` on ``square`` can end its movement in.

    ``board[square]`` is taken as empty (the tank has left it). Returns the
    states other than the start, in the order found, and whether a Command tank
    can drive off the opponent's edge.
    """
    states, escape, _ = _search(geo, board, square, code)
    return states, escape


def _search(geo: Geometry, board: list[int], square: int, code: int) -> tuple[list[int], bool, int]:
    """:func:`reach`, and a bit mask of the squares whose contents it looked at.

    Nothing else can change the answer, which is what makes it safe to reuse
    while those squares stay as they are (see :func:`cached_reach`).
    """
    speed = geo.types.speed[code >> 3 & 7]
    steps = _STEPS[geo.size]
    bits = _BITS
    start = square << 3 | code & 7
    # Breadth first, one layer of steps at a time; ``seen[st] == mark`` for the
    # states reached and the off-board sentinel, so that one test stops both.
    # A list of ints marked with a number new to each search needs no clearing,
    # and lists index quicker than a bytearray. Each search takes a list of its
    # own from the pool (pop and append are atomic), so threads never share one.
    pool = _SEEN_POOL[geo.size]
    sentinel = geo.nsq << 3
    try:
        seen = pool.pop()
    except IndexError:
        seen = [0] * (sentinel + 1)
    mark = seen[sentinel] + 1
    if mark >= 1 << 30:  # past the ints that compare quickest: start afresh
        seen[:] = [0] * (sentinel + 1)
        mark = 1
    seen[sentinel] = mark
    seen[start] = mark
    frontier = [start]
    found: list[int] = []
    looked = 0
    for _ in range(speed):
        layer: list[int] = []
        push = layer.append
        for st in frontier:
            right, left, ahead = steps[st]
            if seen[right] != mark:
                seen[right] = mark
                push(right)
            if seen[left] != mark:
                seen[left] = mark
                push(left)
            if seen[ahead] != mark:
                to = ahead >> 3
                looked |= bits[to]
                if not board[to]:
                    seen[ahead] = mark
                    push(ahead)
        found += layer
        frontier = layer
    escape = False
    if code >> 3 & 7 == COMMAND:
        exits = _EXIT_STATES[geo.size][code >> 6 & 1]
        # From the start and the states found before the last step (the last
        # step's states took the whole speed), one more step can leave the board.
        escape = start in exits or not exits.isdisjoint(found[: len(found) - len(frontier)])
    # Instead: one square backward, keeping the facing (the opposite facing is ``^ 4``).
    back = geo.fwd[start ^ 4]
    if back >= 0:
        looked |= bits[back >> 3]
        if not board[back >> 3] and seen[back ^ 4] != mark:
            found.append(back ^ 4)
    elif code >> 3 & 7 == COMMAND and geo.exits[code >> 6 & 1][start ^ 4]:
        escape = True
    pool.append(seen)
    return found, escape, looked & ~bits[square]


_BITS = tuple(1 << square for square in range(max(SIZES) ** 2))

# No tank is fast enough to leave its square and come back to it within one
# turn (that takes six steps), so the search never has to treat its own
# square as empty; the tables below rely on it (a tanks document's speeds are
# bounded by .tanks.MAX_SPEED).
if max(SPEED) > 5:
    raise AssertionError("the movement search assumes a speed of at most 5")

#: Per board size, for every state index: the states after a 45 degree turn
#: right, after one to the left, and one step forward, where a step off the
#: board leads to the sentinel state ``nsq * 8``, which the search counts as seen.
_STEPS = {
    size: [
        (st & -8 | (st + 1) & 7, st & -8 | (st - 1) & 7, ahead if ahead >= 0 else size * size * 8)
        for st, ahead in enumerate(GEOMETRY[size].fwd)
    ]
    for size in SIZES
}
#: Marking lists for :func:`_search` not in use, per board size.
_SEEN_POOL: dict[int, list[list[int]]] = {size: [] for size in SIZES}
#: Per board size and side: the states from which one step forward takes a Command tank
#: off the opponent's edge.
_EXIT_STATES = {
    size: tuple(
        frozenset(st for st, out in enumerate(GEOMETRY[size].exits[side]) if out) for side in (WHITE, BLACK)
    )
    for size in SIZES
}

#: Movement found before, per geometry (``geo.reach``: a board size and the tank types,
#: whose speeds the answers depend on): ``square << 8 | code`` -> a few
#: ``(looked, occupied, states, escape)``, most recently found first, where
#: ``looked`` is the mask of squares the search looked at and ``occupied`` which
#: of them were not empty. The answer stands as long as those squares are as they
#: were, and from one turn to the next most tanks' surroundings are, so their
#: movement is looked up instead of searched again. Bounded: cleared when full,
#: and kept fairly small on purpose: in random play what pays is the latest entry
#: of the tanks now on the board. Measured, 1024 keys play random games about 5%
#: quicker than 4096 on either board size, search agents are no slower, and a few
#: hundred positions listed over and over still find their entries (512 keys
#: lose them, and list a third slower).
_REACH_CACHE_KEYS = 1 << 10
_REACH_CACHE_DEPTH = 4


def occupancy(board: list[int]) -> int:
    """A bit mask with bit ``s`` set for every square ``s`` that is not empty.

    >>> occupancy([0, 1, 0, 130])
    10
    """
    occ = 0
    for square, code in enumerate(board):
        if code:
            occ |= 1 << square
    return occ


def cached_reach(
    geo: Geometry, board: list[int], occ: int, square: int, code: int
) -> tuple[tuple[int, ...], bool]:
    """What :func:`reach` gives for the tank ``code`` standing on ``square`` of ``board``.

    ``occ`` is ``occupancy(board)``; ``board`` still holds the tank.
    """
    cache = geo.reach
    key = square << 8 | code
    entries = cache.get(key)
    if entries is None:
        if len(cache) >= _REACH_CACHE_KEYS:
            cache.clear()
        entries = cache[key] = []
    else:
        for looked, occupied, states, escape in entries:
            if occ & looked == occupied:
                return states, escape
    found, escape, looked = _search(geo, board, square, code)
    states = tuple(found)
    entries.insert(0, (looked, occ & looked, states, escape))
    del entries[_REACH_CACHE_DEPTH:]
    return states, escape


def fire_table(
    geo: Geometry, board: list[int], gun: int, enemies: tuple[int, ...] | list[int]
) -> tuple[dict[int, int], dict[int, int]]:
    """Where a turret or fixed gun of strength ``gun`` could destroy one of ``enemies`` from.

    Walks outward from each enemy along the lines on which it can be destroyed.
    Returns ``fire`` (square -> bit mask of shot directions that destroy
    something from there) and ``target`` (``square << 3 | direction`` -> the
    enemy's square). A shooter needs an empty square between, and a clear line.
    """
    fire: dict[int, int] = {}
    target: dict[int, int] = {}
    fwd = geo.fwd
    far = geo.far
    kills = geo.types.kills[gun]
    for e in enemies:
        mask = kills[board[e] & 63]
        while mask:
            low = mask & -mask
            mask ^= low
            d = low.bit_length() - 1
            back = e << 3 | d ^ 4  # looking from the target towards the shooter
            adjacent = fwd[back]
            if adjacent < 0 or board[adjacent >> 3]:
                continue
            for r in far[back]:
                if board[r]:
                    break
                fire[r] = fire.get(r, 0) | low
                target[r << 3 | d] = e
    return fire, target


#: ``(fire, target, stops)``: :func:`fire_table`'s two tables for the tanks of
#: every gun at once, where ``fire`` has bit ``8 * gun + direction`` set for each
#: gun that destroys something shooting in that direction (see ``TankTypes.lanes``), and
#: ``stops``: square -> the lines ``(enemy, direction, state looking back from
#: the enemy)`` that end on that square, not empty.
FireTables = tuple[dict[int, int], dict[int, int], dict[int, list[tuple[int, int, int]]]]

#: The directions of the bits set in a direction mask, lowest first.
_DIRECTIONS = tuple(tuple(d for d in range(8) if mask >> d & 1) for mask in range(256))


def fire_tables(geo: Geometry, board: list[int], gun: int, enemies: tuple[int, ...]) -> FireTables:
    """:func:`fire_table` on ``board`` as it is for every gun up to ``gun``, noting where each line stops.

    A tank that moves leaves its square empty, which may open a line that its
    own square stopped: :func:`lift` opens those for one tank.
    """
    fire: dict[int, int] = {}
    target: dict[int, int] = {}
    stops: dict[int, list[tuple[int, int, int]]] = {}
    fwd = geo.fwd
    far = geo.far
    kills = geo.types.kills[gun]  # a stronger gun destroys whatever a weaker one does
    all_lanes = geo.types.lanes
    directions = _DIRECTIONS
    for e in enemies:
        kf = board[e] & 63
        lanes = all_lanes[kf]
        for d in directions[kills[kf]]:
            back = e << 3 | d ^ 4  # looking from the target towards the shooter
            adjacent = fwd[back]
            if adjacent < 0:
                continue
            if board[adjacent >> 3]:
                stops.setdefault(adjacent >> 3, []).append((e, d, back))
                continue
            lane = lanes[d]
            for r in far[back]:
                if board[r]:
                    stops.setdefault(r, []).append((e, d, back))
                    break
                fire[r] = fire.get(r, 0) | lane
                target[r << 3 | d] = e
    return fire, target, stops


def lift(
    geo: Geometry, board: list[int], tables: FireTables, square: int
) -> tuple[dict[int, int], dict[int, int]]:
    """The fire and target tables of :func:`fire_tables` with ``square`` taken as empty."""
    fire, target, stops = tables
    lines = stops.get(square)
    if not lines:
        return fire, target
    fire = dict(fire)
    target = dict(target)
    fwd = geo.fwd
    far = geo.far
    lanes = geo.types.lanes
    for e, d, back in lines:
        adjacent = fwd[back] >> 3
        if board[adjacent] and adjacent != square:
            continue
        lane = lanes[board[e] & 63][d]
        for r in far[back]:
            if board[r] and r != square:
                break
            fire[r] = fire.get(r, 0) | lane
            target[r << 3 | d] = e
    return fire, target


def tank_moves(
    geo: Geometry,
    board: list[int],
    occ: int,
    square: int,
    fire: tuple[dict[int, int], dict[int, int]] | None,
    *,
    out: list[int],
) -> None:
    """Append every turn of the tank on ``square`` to ``out``.

    ``occ`` is the :func:`occupancy` of ``board``; ``fire`` is a :func:`lift`
    pair for the tank's square, for at least its gun (None for a Heavy Mortar).
    """
    code = board[square]
    kind = code >> 3 & 7
    states, escape = cached_reach(geo, board, occ, square, code)
    base = square | NO_TARGET << 21
    if escape:
        out.append(square | ESCAPE << 9 | NO_TARGET << 21)
    types = geo.types
    if kind == MORTAR or fire is None:
        tag = ENEMY_TAG[code >> 6 & 1]
        mortar = geo.mortar
        kills = types.kills[types.gun[kind]]
        for st in states:
            out.append(base | st << 9)
            for r in mortar[st]:
                # Never the mortar's own square: that is no enemy. It shoots along its facing.
                if board[r] & SIDE_MASK == tag and kills[board[r] & 63] >> (st & 7) & 1:
                    out.append(square | st << 9 | r << 21)
        return
    squares, target = fire
    if not squares:
        out.extend([base | st << 9 for st in states])
        return
    arc = types.arc[kind]
    lane = 8 * types.gun[kind]
    for st in states:
        out.append(base | st << 9)
        m = squares.get(st >> 3)
        if m:
            m = m >> lane & arc[st & 7]
            while m:
                low = m & -m
                m ^= low
                out.append(square | st << 9 | target[(st & -8) | (low.bit_length() - 1)] << 21)


def lines_of_fire(geo: Geometry, board: list[int], square: int) -> list[FireLine]:
    """The lines of fire of the tank on ``square`` as it stands, for display.

    One line per direction its gun can shoot (to the left of its facing, ahead,
    to the right; a fixed gun only ahead): ``squares``, the squares the shot
    passes over, nearest first, up to and including the first one that is not
    empty (the Heavy Mortar's: the squares 3 to 5 ahead, over anything), and
    ``hits``, the enemy tanks on it that the shot would destroy. A turn moves
    before it shoots, so these show what the tank covers now, not a turn.

    >>> state = TankChess().state_from_position("obstacles=b3 white=Ch1N,Hc2N black=Ch16S,Lc4S")
    >>> heavy = state.observation(0)["tanks"][1]  # the Heavy on c2, facing N: b3 blocks its NW line
    >>> [(line["direction"], line["squares"], line["hits"]) for line in heavy["fire"]][:2]
    [('NW', ['b3'], []), ('N', ['c3', 'c4'], ['c4'])]
    """
    code = board[square]
    kind = code_kind(code)
    facing = code_facing(code)
    enemy = ENEMY_TAG[code_side(code)]
    types = geo.types
    kills = types.kills[types.gun[kind]]
    names = geo.names
    lines: list[FireLine] = []
    for d in ((facing - 1) & 7, facing, (facing + 1) & 7):
        if not types.arc[kind][facing] >> d & 1:
            continue
        ray = geo.rays[square << 3 | d]
        if kind == MORTAR:
            passed = list(geo.mortar[square << 3 | d])
            hits = [r for r in passed if board[r] & SIDE_MASK == enemy and kills[board[r] & 63] >> d & 1]
        else:
            passed = []
            for r in ray:
                passed.append(r)
                if board[r]:
                    break
            last = passed[-1] if passed else -1
            hit = len(passed) > 1 and board[last] & SIDE_MASK == enemy and kills[board[last] & 63] >> d & 1
            hits = [last] if hit else []
        if passed:
            lines.append(
                {
                    "direction": FACING_NAMES[d],
                    "squares": [names[r] for r in passed],
                    "hits": [names[r] for r in hits],
                }
            )
    return lines


def can_destroy(geo: Geometry, board: list[int], occ: int, mine: tuple[int, ...], victim: int) -> bool:
    """Whether one of the tanks on ``mine`` could destroy the tank on ``victim`` this turn."""
    lines = _lines_to(geo, board, mine, victim)
    return any(_could_destroy(geo, board, occ, square, victim, lines=lines) for square in mine)


def destroyers(geo: Geometry, board: list[int], occ: int, mine: tuple[int, ...], victim: int) -> list[int]:
    """The squares of the tanks on ``mine`` that could destroy the tank on ``victim`` this turn, in order."""
    lines = _lines_to(geo, board, mine, victim)
    return [square for square in mine if _could_destroy(geo, board, occ, square, victim, lines=lines)]


#: :func:`fire_tables` of one target, and the bits of its ``fire`` table all together.
TargetLines = tuple[FireTables, int]


def _lines_to(geo: Geometry, board: list[int], mine: tuple[int, ...], victim: int) -> TargetLines | None:
    """:func:`fire_tables` of ``victim`` for the guns of ``mine`` (None if they are all Heavy Mortars).

    Walked once for all the tanks, each of which then only lifts itself off the
    board: the announcements are asked for at every observation.
    """
    guns = geo.types.gun
    gun = max((guns[board[s] >> 3 & 7] for s in mine if board[s] >> 3 & 7 != MORTAR), default=0)
    if not gun:
        return None
    tables = fire_tables(geo, board, gun, (victim,))
    bits = 0
    for m in tables[0].values():
        bits |= m
    return tables, bits


def _could_destroy(
    geo: Geometry, board: list[int], occ: int, square: int, victim: int, *, lines: TargetLines | None
) -> bool:
    """Whether the tank on ``square`` could destroy the one on ``victim`` (``lines``: :func:`_lines_to`)."""
    code = board[square]
    kind = code >> 3 & 7
    types = geo.types
    if kind == MORTAR or lines is None:
        states, _ = cached_reach(geo, board, occ, square, code)
        kills = types.kills[types.gun[kind]][board[victim] & 63]  # by the direction of the shot
        return any(victim in geo.mortar[st] and kills >> (st & 7) & 1 for st in states)
    tables, bits = lines
    fire, _ = lift(geo, board, tables, square)
    if fire is not tables[0]:  # lines that the tank's own square stopped go on
        for more in fire.values():
            bits |= more
    lane = 8 * types.gun[kind]
    if not bits >> lane & 255:  # no square from which this gun destroys the victim
        return False
    arc = types.arc[kind]
    states, _ = cached_reach(geo, board, occ, square, code)
    for st in states:
        m = fire.get(st >> 3)
        if m and m >> lane & arc[st & 7]:
            return True
    return False


def can_escape(geo: Geometry, board: list[int], occ: int, command: int) -> bool:
    """Whether the Command tank on ``command`` could drive off the opponent's edge this turn."""
    return cached_reach(geo, board, occ, command, board[command])[1]


class TankActions(Actions[int]):
    """The legal turns of one side, listed on first need.

    ``in`` checks one action from the moved tank's movement alone, and
    :meth:`sample` draws one from the tanks' movements without listing their
    shots, so that a random turn is found and applied without listing every
    tank's turns. Movements come from :func:`cached_reach`.
    """

    __slots__ = ("_blocks", "_board", "_enemies", "_geo", "_list", "_mine", "_occ", "_picked", "_total")

    def __init__(
        self, geo: Geometry, board: list[int], occ: int, mine: tuple[int, ...], enemies: tuple[int, ...]
    ) -> None:
        self._geo = geo
        self._board = board  # never changed in place: states copy before they change it
        self._occ = occ
        self._mine = mine
        self._enemies = enemies
        self._list: list[int] | None = None
        self._blocks: list[tuple[int, int, int, tuple[int, ...], bool, int]] | None = None
        self._total = 0
        self._picked: int | None = None  # the last action sample() returned: legal, so `in` needs no check

    def _all(self) -> list[int]:
        if self._list is None:
            geo, board = self._geo, self._board
            gun = geo.types.gun
            guns = [gun[board[square] >> 3 & 7] for square in self._mine if board[square] >> 3 & 7 != MORTAR]
            tables = fire_tables(geo, board, max(guns), self._enemies) if guns else None
            out: list[int] = []
            for square in self._mine:
                fire = None
                if tables is not None and board[square] >> 3 & 7 != MORTAR:
                    fire = lift(geo, board, tables, square)
                tank_moves(geo, board, self._occ, square, fire, out=out)
            self._list = out
        return self._list

    def __len__(self) -> int:
        return len(self._all())

    def __getitem__(self, index: int) -> int:  # type: ignore[override]
        return self._all()[index]

    def __iter__(self) -> Iterator[int]:
        return iter(self._all())

    def _shot(self, square: int, code: int, st: int, slot: int) -> int:
        """The enemy square that the tank from ``square``, ending in state ``st``, destroys
        with its shot number ``slot`` (see ``TankTypes.shot_slots``), or -1 if that shot destroys nothing.
        """
        board = self._board
        geo = self._geo
        types = geo.types
        kind = code >> 3 & 7
        tag = ENEMY_TAG[code >> 6 & 1]
        if kind == MORTAR:
            mortar = geo.mortar[st]
            if (
                slot < len(mortar)
                and board[mortar[slot]] & SIDE_MASK == tag
                and types.kills[types.gun[kind]][board[mortar[slot]] & 63] >> (st & 7) & 1
            ):
                return mortar[slot]
            return -1
        direction = (st + slot - 1) & 7 if types.turret[kind] else st & 7
        line = (st & -8) | direction
        adjacent = geo.fwd[line]
        if adjacent < 0 or (board[adjacent >> 3] and adjacent >> 3 != square):
            return -1  # off the board, or an adjacent tank or obstacle: no shot along this line
        for r in geo.far[line]:
            victim = board[r]
            if victim and r != square:  # the shooter's own start square is empty now
                if victim & SIDE_MASK == tag and types.kills[types.gun[kind]][victim & 63] >> direction & 1:
                    return r
                return -1
        return -1

    def _sampling_blocks(self) -> list[tuple[int, int, int, tuple[int, ...], bool, int]]:
        # One block per tank: (size, square, code, states, escape, slots), its
        # escape and then each movement state with each of its possible shots: a
        # superset of its turns that is quick to index. It depends on the
        # position alone, so a seed draws the same turns however full the cache is.
        if self._blocks is None:
            geo, board, occ = self._geo, self._board, self._occ
            cache = geo.reach
            slots_of = geo.slots
            blocks = []
            total = 0
            for square in self._mine:
                code = board[square]
                slots = slots_of[code]
                # cached_reach, with the usual case (the latest entry holds) inline.
                entries = cache.get(square << 8 | code)
                if entries and occ & entries[0][0] == entries[0][1]:
                    states = entries[0][2]
                    escape = entries[0][3]
                else:
                    states, escape = cached_reach(geo, board, occ, square, code)
                size = len(states) * slots + escape
                blocks.append((size, square, code, states, escape, slots))
                total += size
            self._blocks = blocks
            self._total = total
        return self._blocks

    def sample(self, rng: random.Random) -> int:
        """A uniformly random legal turn, without listing them all.

        Draws uniformly from a superset (every movement state with each of its
        possible shots) until the draw is a legal turn. Every legal turn is in
        the superset exactly once, so each is equally likely; at least one draw
        in four is a plain movement, which is always legal.
        """
        blocks = self._blocks
        if blocks is None:
            blocks = self._sampling_blocks()
        total = self._total
        if not total:
            raise IndexError("no legal turn to sample")
        draw = rng.random
        while True:
            # A float draw is uniform to within 2**-53 over far fewer than 2**20
            # items, and much quicker than randrange.
            u = int(draw() * total)
            for block in blocks:
                size = block[0]
                if u < size:
                    break
                u -= size
            _, square, code, states, escape, slots = block
            if escape:
                if not u:
                    picked = self._picked = square | ESCAPE << 9 | NO_TARGET << 21
                    return picked
                u -= 1
            index, slot = divmod(u, slots)
            st = states[index]
            if not slot:
                picked = self._picked = square | st << 9 | NO_TARGET << 21
                return picked
            target = self._shot(square, code, st, slot - 1)
            if target >= 0:
                picked = self._picked = square | st << 9 | target << 21
                return picked

    # --- a turn a piece at a time, for step-by-step encodings ---------------------------

    @property
    def tanks(self) -> tuple[int, ...]:
        """The squares of the tanks that may move, in board order."""
        return self._mine

    def movements(self, square: int) -> tuple[tuple[int, ...], bool]:
        """The end states (``square * 8 + facing``) of the tank on ``square``, and whether it can drive off.

        Every end state is a legal turn without a shot; asking for one tank's
        movements lists no other tank's turns.
        """
        return cached_reach(self._geo, self._board, self._occ, square, self._board[square])

    def targets(self, square: int, end: int) -> list[int]:
        """The squares of the enemy tanks that the tank on ``square`` destroys after moving to state ``end``.

        ``end`` must be one of its :meth:`movements`; each target makes one legal turn.
        """
        code = self._board[square]
        found = []
        for slot in range(self._geo.types.shot_slots[code >> 3 & 7]):
            target = self._shot(square, code, end, slot)
            if target >= 0:
                found.append(target)
        return found

    def __contains__(self, item: object) -> bool:
        if type(item) is not int or not 0 <= item < ACTION_LIMIT:
            return False
        if item == self._picked:
            return True
        square = item & 511
        if square not in self._mine:
            return False
        end = item >> 9 & 4095
        target = item >> 21
        code = self._board[square]
        states, escape = cached_reach(self._geo, self._board, self._occ, square, code)
        if end == ESCAPE:
            return escape and target == NO_TARGET
        if end not in states:
            return False
        if target == NO_TARGET:
            return True
        slots = self._geo.types.shot_slots[code >> 3 & 7]
        return any(self._shot(square, code, end, slot) == target for slot in range(slots))

    def __repr__(self) -> str:
        return f"<TankActions of {len(self._mine)} tanks>"


_NO_ACTIONS: ListActions[int] = ListActions(())

# --- explaining an illegal turn ----------------------------------------------------


def explain(geo: Geometry, board: list[int], side: int, action: int) -> str:
    """Why ``side`` may not play ``action``, a turn of squares on the board, in a few words ('' if it may).

    Words only: it reads the tables the generator reads (the movement search,
    the rays, arcs and kill table), so it names the rule that the turn breaks
    and never judges a turn otherwise than :class:`TankActions` does (a test holds
    the two together).
    """
    start, end, target = decode(action)
    code = board[start]
    if code < TANK or code_side(code) != side:
        return f"there is no {SIDE_NAMES[side]} tank on {square_name(geo, start)}"
    types = geo.types
    kind = code_kind(code)
    name = f"the {KIND_NAMES[kind]} tank on {square_name(geo, start)}"
    lifted = list(board)
    lifted[start] = 0
    states, escape = reach(geo, lifted, start, code)
    if end == ESCAPE:
        if kind != COMMAND:
            return "only a Command tank may drive off the board"
        if not escape:
            return (
                f"{name} cannot drive off the opponent's edge within {types.speed[kind]} steps "
                "(and never diagonally through a corner)"
            )
        return "a tank that drives off the board takes no shot" if target != NO_TARGET else ""
    if end == start << 3 | code_facing(code):
        return "a turn must change the tank's square or facing"
    to, facing = end >> 3, end & 7
    if end not in states:
        if lifted[to]:
            return f"{square_name(geo, to)} is not empty"
        return (
            f"{name} cannot reach {square_name(geo, to)} facing {FACING_NAMES[facing]} "
            f"in {types.speed[kind]} steps over empty squares, nor by one step backward"
        )
    if target == NO_TARGET:
        return ""
    victim = lifted[target]
    if victim < TANK or code_side(victim) == side:
        return f"there is no enemy tank on {square_name(geo, target)}"
    for direction in range(8):
        ray = geo.rays[to << 3 | direction]
        if target in ray:
            distance = ray.index(target) + 1
            break
    else:
        return f"{square_name(geo, target)} is not on a straight or diagonal line from {square_name(geo, to)}"
    if kind == MORTAR:
        if direction != facing:
            return "a Heavy Mortar shoots straight ahead only"
        near, far = types.mortar_range
        if not near <= distance <= far:
            return f"a Heavy Mortar hits only {near} to {far} squares ahead, not {distance}"
    else:
        if not types.arc[kind][facing] >> direction & 1:
            where = (
                "straight ahead only" if not types.turret[kind] else "ahead or 45 degrees to either side only"
            )
            return f"a {KIND_NAMES[kind]} tank shoots {where}"
        if distance == 1:
            return "a tank cannot shoot an adjacent tank"
        for r in ray[: distance - 1]:
            if lifted[r]:
                return f"the line of fire is blocked on {square_name(geo, r)}"
    if types.kills[types.gun[kind]][victim & 63] >> direction & 1:
        return ""
    side_hit = armour_side(code_facing(victim), direction)
    armour = types.armour[code_kind(victim)][side_hit]
    return (
        f"gun {ROMAN[types.gun[kind]]} does not pierce the {ARMOUR_SIDES[side_hit]} armour {ROMAN[armour]} "
        f"of the {KIND_NAMES[code_kind(victim)]} tank on {square_name(geo, target)}"
    )


# --- the game ---------------------------------------------------------------------------


class TankChess(Game):
    """Tank Chess for two players: White (player 0) and Black (player 1).

    >>> game = TankChess()
    >>> state = game.new_initial_state()
    >>> state.to_act(), len(state.legal_actions(0))
    ((0,), 549)
    >>> TankChess(size=20).new_initial_state().geo.size
    20
    """

    info = GameInfo(
        id="tank-chess",
        name="Tank Chess",
        description=(
            "Tanks with speed, turret and directional armour on a 16x16 or 20x20 board with obstacles: "
            "destroy the enemy Command tank or drive your own off the far edge."
        ),
        min_players=2,
        max_players=2,
        dynamics=Dynamics.SEQUENTIAL,
        chance=ChanceMode.DETERMINISTIC,
        information=Information.PERFECT,
        options=(
            Option(
                "size",
                "choice",
                "16",
                "board size: 16 (basic game) or 20 (with Tank Destroyers and Heavy Mortars)",
                choices=("16", "20"),
            ),
            Option(
                "ply_limit",
                "int",
                0,
                "end the game as a draw after this many turns in all (0: no limit; simulations use 1000)",
                minimum=0,
            ),
            Option(
                "setup",
                "document",
                "",
                "the position to start from, in position notation (a layout of your own), "
                "or basic; empty: the basic setup of the board size",
                documents=("basic",),
            ),
            Option(
                "tanks",
                "document",
                "",
                "the tank types' figures: speed, gun, armour, turret, the Heavy Mortar's range "
                "(TOML or JSON, docs/games/tank-chess.md); empty or standard: the rules' six types",
                documents=("standard",),
            ),
        ),
        has_position=True,
        simulation_defaults=(("ply_limit", 1000),),
        # Online a game must end (nobody holds the others for ever): 200 turns each, unless its maker
        # sets a limit.
        online_defaults=(("ply_limit", 400),),
        # A format, not examples: examples with squares would be illegal in most positions
        # (the prompt's help lists real ones, drawn from the legal turns).
        notation=(
            "A turn is written <tank><from>-<to><facing> [x<target>]: the tank's type letter "
            "(L M H C D R) and its square, a dash, the square where it ends and the way it then "
            "faces (N NE E SE S SW W NW), and, if it shoots, x and the square of the enemy tank it "
            "destroys. <from>-<from><facing> turns a tank in place; a Command tank leaves the board "
            "with <from>-off. Case and spaces do not matter; the type letter may be left out, "
            "and a missing facing or destination stays as it is."
        ),
        hooks=Hooks(
            style=".style:style",
            rule_agent=".rule_agent:TankChessRuleAgent",
            search=".search:TankChessPolicy",
            encoding=".encoding:encoding",
            rules="rules.md",
            balance=".balance:measures",
            web="web.js",
            # Chosen by measurement: docs/strength.md has the ladders.
            levels=(
                ("easy", "alphabeta:iterations=400"),
                ("medium", "alphabeta:iterations=2500"),
                ("hard", "alphabeta:iterations=10000,width=10"),
            ),
            bench_target=2.0,
        ),
    )

    def _check_options(self) -> None:
        self.size = int(self.options["size"])
        tanks = self.str_option("tanks")
        if tanks in ("", "standard"):
            self.geo = GEOMETRY[self.size]
        else:
            try:
                types = load_tanks(tanks, "option tanks")
            except OptionError as exc:
                raise OptionError(f"{exc}{document_hint(self.id, 'tanks', tanks)}") from None
            # One geometry per distinct table: the games of one document share its movement cache.
            self.geo = geometry(self.size, types)
        text = self.str_option("setup")
        if text in ("", "basic"):
            self.setup = basic_setup(self.size)
            return
        try:
            self.setup = self._fits(_read_setup(text))
        except PositionError as exc:
            raise OptionError(f"option setup: {exc}{document_hint(self.id, 'setup', text)}") from None

    def _fits(self, setup: Setup) -> Setup:
        if setup.size != self.size:
            raise PositionError(
                f"the position is {setup.size}x{setup.size} but the game is {self.size}x{self.size} "
                f"(set the option size={setup.size})"
            )
        return setup

    def length_bound(self) -> tuple[int, int] | None:
        limit = self.int_option("ply_limit")
        return (limit, 0) if limit > 0 else None

    def new_initial_state(self) -> TankChessState:
        return TankChessState.from_setup(self, self.setup)

    def state_from_position(self, text: str) -> TankChessState:
        """A state from position notation (see :mod:`.notation`); PositionError names what is wrong."""
        return TankChessState.from_setup(self, self._fits(parse_position(text)))


@functools.lru_cache(maxsize=32)
def _read_setup(text: str) -> Setup:
    # A server or a pool of workers builds the game anew for every computer move: read once.
    return parse_position(text)


class TankChessState(State[int]):
    """One moment of a game of Tank Chess.

    ``board`` is never changed in place (a turn copies it), so clones and
    listed actions may share it.
    """

    __slots__ = (
        "_announce",
        "_legal",
        "_result",
        "board",
        "commands",
        "game",
        "geo",
        "last",
        "occ",
        "ply",
        "tanks",
        "turn",
    )

    game: TankChess

    def __init__(
        self,
        game: TankChess,
        board: list[int],
        turn: int,
        ply: int,
    ) -> None:
        self.game = game
        self.geo = game.geo
        self.board = board
        #: The squares that are not empty, as a bit mask (see :func:`occupancy`).
        self.occ = occupancy(board)
        tanks: tuple[list[int], list[int]] = ([], [])
        commands = [-1, -1]
        for square, code in enumerate(board):
            if code >= TANK:
                tanks[code_side(code)].append(square)
                if code_kind(code) == COMMAND:
                    commands[code_side(code)] = square
        #: The squares of each side's tanks, in board order.
        self.tanks = (tuple(tanks[0]), tuple(tanks[1]))
        #: Each side's Command tank's square (-1 once it is gone).
        self.commands = (commands[0], commands[1])
        self.turn = turn
        self.ply = ply
        #: The last turn and the code of the tank that made it, for display.
        #: The last turn: its action, the moving tank's code before it, and the code of the
        #: tank it destroyed (0 for none), so that the observation can tell it in words.
        self.last: tuple[int, int, int] | None = None
        self._result: Result | None = None
        self._legal: TankActions | None = None
        self._announce: tuple[bool, bool] | None = None
        limit = game.int_option("ply_limit")
        if limit and ply >= limit:
            self._result = Result.draw(2, f"ply limit of {limit} reached", Termination.LIMIT)

    @classmethod
    def from_setup(cls, game: TankChess, setup: Setup) -> TankChessState:
        board = [0] * game.geo.nsq
        for square in setup.obstacles:
            board[square] = OBSTACLE
        for square in setup.wrecks:
            board[square] = WRECK
        for side, kind, square, facing in setup.tanks:
            board[square] = tank_code(side, kind, facing)
        return cls(game, board, setup.turn, setup.ply)

    # --- turn structure ------------------------------------------------------------

    def to_act(self) -> tuple[int, ...]:
        if self._result is not None:
            return ()
        return (self.turn,)

    def player_name(self, player: int) -> str:
        return SIDE_NAMES[player] if player in (WHITE, BLACK) else super().player_name(player)

    def legal_actions(self, player: int) -> Actions[int]:
        if self._result is not None or player != self.turn:
            return _NO_ACTIONS
        if self._legal is None:
            self._legal = TankActions(
                self.geo, self.board, self.occ, self.tanks[player], self.tanks[1 - player]
            )
        return self._legal

    def is_legal(self, player: int, action: int) -> bool:
        legal = self._legal
        # The turn that sample() just drew from this very state is legal: checking it
        # again would cost about as much as the turn itself.
        if legal is not None and type(action) is int and action == legal._picked and player == self.turn:
            return True
        return super().is_legal(player, action)

    def _why_illegal(self, player: int, action: int) -> str:
        problem = explain(self.geo, self.board, player, action)
        return f": {problem}" if problem else ""

    def _apply(self, player: int, action: int) -> None:
        start = action & 511
        end = action >> 9 & 4095
        target = action >> 21
        side = self.turn
        board = self.board[:]
        code = board[start]
        board[start] = 0
        mine = list(self.tanks[side])
        mine.remove(start)
        theirs = self.tanks[1 - side]
        commands = self.commands
        occ = self.occ ^ 1 << start
        result = None
        if end == ESCAPE:
            commands = (-1, commands[1]) if side == WHITE else (commands[0], -1)
            result = Result.win(side, 2, f"{SIDE_NAMES[side]}'s Command tank escaped")
        else:
            to = end >> 3
            board[to] = (code & ~7) | (end & 7)
            occ |= 1 << to
            bisect.insort(mine, to)
            if commands[side] == start:
                commands = (to, commands[1]) if side == WHITE else (commands[0], to)
        victim = 0
        if target != NO_TARGET:
            victim = board[target]
            board[target] = WRECK
            rest = list(theirs)
            rest.remove(target)
            theirs = tuple(rest)
            if target == commands[1 - side]:
                commands = (commands[0], -1) if side == WHITE else (-1, commands[1])
                result = Result.win(
                    side, 2, f"{SIDE_NAMES[side]} destroyed {SIDE_NAMES[1 - side]}'s Command tank"
                )
        self.board = board
        self.occ = occ
        self.tanks = (tuple(mine), theirs) if side == WHITE else (theirs, tuple(mine))
        self.commands = commands
        self.turn = 1 - side
        self.ply += 1
        self.last = (action, code, victim)
        self._legal = None
        self._announce = None
        if result is None:
            limit = self.game.int_option("ply_limit")
            if limit and self.ply >= limit:
                result = Result.draw(2, f"ply limit of {limit} reached", Termination.LIMIT)
        self._result = result

    def result(self) -> Result | None:
        return self._result

    # --- announcements ---------------------------------------------------------------

    def announcements(self) -> tuple[bool, bool]:
        """``(check, escape)`` for the player who moved last, as if it were to move again.

        Check: it could destroy the enemy Command tank; Escape: its own Command
        tank could drive off the far edge. Both are false before the first turn
        and once the game is over.

        >>> game = TankChess()
        >>> state = game.state_from_position("ply=1 turn=black obstacles=a15,b15,b16 white=Ch15N black=Ca16S")
        >>> state.announcements()
        (False, True)
        """
        if self._announce is None:
            mover = 1 - self.turn
            if self._result is not None or self.ply == 0:
                self._announce = (False, False)
            else:
                enemy = self.commands[self.turn]
                self._announce = (
                    can_destroy(self.geo, self.board, self.occ, self.tanks[mover], enemy),
                    can_escape(self.geo, self.board, self.occ, self.commands[mover]),
                )
        return self._announce

    def threats(self) -> list[int]:
        """The squares of the mover's tanks that could destroy the enemy Command tank (empty without Check).

        >>> state = TankChess().state_from_position(
        ...     "ply=1 turn=black obstacles=o1,o2,p2 white=Ha1N,Lp1N,Ch2N black=Ch8S"
        ... )
        >>> [square_name(state.geo, s) for s in state.threats()]  # the Light on p1 is hemmed in
        ['a1', 'h2']
        """
        if not self.announcements()[0]:
            return []
        mover = 1 - self.turn
        return destroyers(self.geo, self.board, self.occ, self.tanks[mover], self.commands[self.turn])

    # --- notation ----------------------------------------------------------------------

    def action_to_str(self, player: int, action: object) -> str:
        return format_parts(self.geo, self.board, *self._unpacked(action))

    def _parse_action(self, player: int, text: str) -> int:
        return parse_move(self.geo, self.board, player, text)

    def action_to_json(self, player: int, action: object) -> TurnJSON:
        """The turn's structured form (:class:`.notation.Turn`): a move or an escape.

        >>> state = TankChess().new_initial_state()
        >>> state.action_to_json(0, state.parse_action(0, "Hc1-d2NE"))
        {'kind': 'move', 'tank': 'H', 'from': 'c1', 'to': 'd2', 'facing': 'NE', 'target': None}
        """
        start, end, target = self._unpacked(action)
        return Turn.of_parts(self.geo, self.board, start, end, target).to_json()

    def _action_from_json(self, player: int, data: dict[str, object]) -> int:
        return Turn.from_json(data).action(self.geo, self.board, player)

    def _unpacked(self, action: object) -> tuple[int, int, int]:
        """``decode(action)`` of a turn that names squares of this board and a tank on its start;
        ActionError for anything else (which no notation could name).
        """
        nsq = self.geo.nsq
        if type(action) is int and 0 <= action < ACTION_LIMIT:
            start, end, target = decode(action)
            if (
                start < nsq
                and self.board[start] >= TANK
                and (end == ESCAPE or end >> 3 < nsq)
                and (target == NO_TARGET or target < nsq)
            ):
                return start, end, target
        raise ActionError(f"{action!r} is not a Tank Chess turn here")

    def position(self) -> str:
        """The position notation of this state (not of a game already won).

        >>> TankChess().new_initial_state().position()[:60]
        'size=16 turn=white ply=0 obstacles=k2,l2,o2,d3,e3,k3,l3,o3,l'
        """
        if -1 in self.commands:
            raise PositionError("the game is won: a Command tank is gone, which no position can show")
        return format_position(self.setup())

    def setup(self) -> Setup:
        """This position as plain data."""
        board = self.board
        return Setup(
            self.geo.size,
            self.turn,
            self.ply,
            frozenset(s for s, c in enumerate(board) if c == OBSTACLE),
            frozenset(s for s, c in enumerate(board) if c == WRECK),
            tuple((code_side(c), code_kind(c), s, code_facing(c)) for s, c in enumerate(board) if c >= TANK),
        )

    # --- copies and views ------------------------------------------------------------------

    def clone(self) -> TankChessState:
        other = TankChessState.__new__(TankChessState)
        other.game = self.game
        other.geo = self.geo
        other.board = self.board
        other.occ = self.occ
        other.tanks = self.tanks
        other.commands = self.commands
        other.turn = self.turn
        other.ply = self.ply
        other.last = self.last
        other._result = self._result
        other._legal = self._legal
        other._announce = self._announce
        return other

    def resample(self, player: int, rng: random.Random) -> TankChessState:
        return self.clone()

    def observation(self, player: int) -> TankChessObservation:
        """Everything on the board (the game has no hidden information).

        >>> obs = TankChess().new_initial_state().observation(0)
        >>> obs["size"], obs["to_move"], obs["tanks"][0]["square"], obs["tanks"][0]["type"]
        (16, 'white', 'c1', 'H')
        >>> obs["tanks"][0]["gun"], obs["tanks"][0]["armour"]
        (3, {'front': 3, 'side': 2, 'rear': 1})
        """
        geo = self.geo
        board = self.board
        tanks = [self._tank_view(s) for side in (WHITE, BLACK) for s in self.tanks[side]]
        last: LastMove | None = None
        if self.last is not None:
            action, code, victim = self.last
            before = list(board)
            before[action & 511] = code  # the notation names the tank by its square before the turn
            start, end, target = decode(action)
            last = {
                "by": SIDE_KEYS[code_side(code)],
                "move": format_move(geo, before, action),
                "type": KIND_LETTERS[code_kind(code)],
                "from": square_name(geo, start),
                "to": None if end == ESCAPE else square_name(geo, end >> 3),
                "facing": None if end == ESCAPE else FACING_NAMES[end & 7],
                "destroyed": None
                if target == NO_TARGET
                else {
                    "square": square_name(geo, target),
                    "side": SIDE_KEYS[code_side(victim)],
                    "type": KIND_LETTERS[code_kind(victim)],
                },
            }
        announced: Announced | None = None
        if self.ply and self._result is None:
            check, escape = self.announcements()
            mover = 1 - self.turn
            announced = {
                "by": SIDE_KEYS[mover],
                "check": check,
                "escape": escape,
                # Who threatens what, all of it on the board for both players to see.
                "threats": [self._tank_data(s) for s in self.threats()],
                "target": self._tank_data(self.commands[self.turn]) if check else None,
                "escaping": self._tank_data(self.commands[mover]) if escape else None,
            }
        return {
            "game": "tank-chess",
            "player": player,
            "size": geo.size,
            "ply": self.ply,
            "ply_limit": self.game.int_option("ply_limit"),
            "to_move": SIDE_KEYS[self.turn] if self._result is None else None,
            "obstacles": [square_name(geo, s) for s, c in enumerate(board) if c == OBSTACLE],
            "wrecks": [square_name(geo, s) for s, c in enumerate(board) if c == WRECK],
            "tanks": tanks,
            "last_move": last,
            "announced": announced,
            "result": self._result.to_json() if self._result is not None else None,
        }

    def tank_types(self, side: int) -> dict[str, str]:
        """Each of ``side``'s tanks on the board: its square's name and its type's letter.

        >>> TankChess().new_initial_state().tank_types(0)["c1"]
        'H'
        """
        return {square_name(self.geo, s): KIND_LETTERS[code_kind(self.board[s])] for s in self.tanks[side]}

    def _tank_data(self, square: int) -> TankData:
        """The tank on ``square`` as observation data."""
        code = self.board[square]
        return {
            "square": square_name(self.geo, square),
            "side": SIDE_KEYS[code_side(code)],
            "type": KIND_LETTERS[code_kind(code)],
            "facing": FACING_NAMES[code_facing(code)],
        }

    def _tank_view(self, square: int) -> TankView:
        """The tank on ``square`` with its gun, speed, armour and lines of fire, for ``tanks``."""
        code = self.board[square]
        kind = code_kind(code)
        types = self.geo.types
        front, side, rear = types.armour[kind]
        return {
            "square": square_name(self.geo, square),
            "side": SIDE_KEYS[code_side(code)],
            "type": KIND_LETTERS[kind],
            "facing": FACING_NAMES[code_facing(code)],
            "gun": types.gun[kind],
            "speed": types.speed[kind],
            "armour": {"front": front, "side": side, "rear": rear},
            "fire": lines_of_fire(self.geo, self.board, square),
        }

    def observation_to_text(self, observation: Mapping[str, JSON], player: int) -> str:
        from tussle.games.tank_chess.render import render_observation

        return render_observation(cast(TankChessObservation, observation))  # a view this game made

    def render(self) -> str:
        from tussle.games.tank_chess.render import render_observation

        return render_observation(self.observation(PUBLIC))
