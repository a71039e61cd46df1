"""Tank Chess board geometry: squares, facings, piece codes and precomputed tables.

A board is ``size`` by ``size`` (16 or 20). Squares are numbered
``rank * size + file`` from 0 (``a1``, White's left corner) upwards; files are
letters ``a`` to ``p`` (or ``t``), ranks 1 to ``size`` with rank 1 nearest
White. A *state index* ``square * 8 + facing`` names a tank's square and
facing together; move generation works on state indices only.

Facings are 0 to 7 clockwise from north (``N``, towards Black's edge): ``N NE
E SE S SW W NW``.

Every table here is computed once per board size at import (and the few that
depend on the tank types once per distinct table of types, :func:`geometry`),
so that move generation is list lookups and no arithmetic on coordinates.

>>> geo = GEOMETRY[16]
>>> square_name(geo, 0), square_name(geo, 255)
('a1', 'p16')
>>> square_name(geo, geo.fwd[parse_square(geo, "h1") * 8 + N] >> 3)
'h2'
"""

from __future__ import annotations

from tussle.games.tank_chess import tanks
from tussle.games.tank_chess.tanks import STANDARD_TANKS, TankTypes

SIZES = (16, 20)
FILES = "abcdefghijklmnopqrst"

WHITE, BLACK = 0, 1
SIDE_NAMES = ("White", "Black")
SIDE_KEYS = ("white", "black")

N, NE, E, SE, S, SW, W, NW = range(8)
FACING_NAMES = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
#: Step of each facing as (file, rank) deltas.
DELTAS = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))

# --- piece codes on the board --------------------------------------------------
#
# ``board[square]`` is 0 for an empty square, OBSTACLE or WRECK, or a tank code
# ``TANK | side << 6 | kind << 3 | facing``: one list lookup tells whether a square
# is free and, for a tank, everything about it.

EMPTY = 0
OBSTACLE = 1
WRECK = 2
TANK = 128

# The kinds, their letters and names: those of the tank types (.tanks), named here too for
# what reads board codes.
LIGHT, MEDIUM, HEAVY, COMMAND, DESTROYER, MORTAR = (
    tanks.LIGHT,
    tanks.MEDIUM,
    tanks.HEAVY,
    tanks.COMMAND,
    tanks.DESTROYER,
    tanks.MORTAR,
)
KIND_LETTERS = tanks.KIND_LETTERS
KIND_NAMES = tanks.KIND_NAMES

#: ``code & SIDE_MASK == ENEMY_TAG[side]`` exactly when ``code`` is a tank of the other side.
SIDE_MASK = 0xC0
ENEMY_TAG = (0xC0, 0x80)


def tank_code(side: int, kind: int, facing: int) -> int:
    """The board code of a tank.

    >>> tank_code(BLACK, COMMAND, S) == TANK | 64 | 3 << 3 | 4
    True
    """
    return TANK | side << 6 | kind << 3 | facing


def code_side(code: int) -> int:
    return code >> 6 & 1


def code_kind(code: int) -> int:
    return code >> 3 & 7


def code_facing(code: int) -> int:
    return code & 7


# --- actions -------------------------------------------------------------------
#
# An action (one whole turn) is the int ``start | end << 9 | target << 21``:
# ``start`` is the square of the tank that moves, ``end`` its state index
# afterwards (square * 8 + facing), or ESCAPE when a Command tank leaves the
# board, and ``target`` the square of the enemy tank it destroys, or NO_TARGET.

ESCAPE = 4095
NO_TARGET = 511
ACTION_LIMIT = 1 << 30


def encode(start: int, end: int, target: int = NO_TARGET) -> int:
    """Pack a turn into one int.

    >>> decode(encode(34, 66 * 8 + NE, 130))
    (34, 529, 130)
    """
    return start | end << 9 | target << 21


def decode(action: int) -> tuple[int, int, int]:
    """Unpack an action into ``(start square, end state index or ESCAPE, target square or NO_TARGET)``."""
    return action & 511, action >> 9 & 4095, action >> 21


# --- squares -------------------------------------------------------------------


def square_name(geo: Geometry, square: int) -> str:
    """The name of ``square`` on the board of ``geo``.

    >>> square_name(GEOMETRY[20], 399)
    't20'
    """
    return geo.names[square]


def parse_square(geo: Geometry, text: str) -> int:
    """The square ``text`` names (``c3``), or ValueError naming why not.

    >>> parse_square(GEOMETRY[16], "c3")
    34
    >>> parse_square(GEOMETRY[16], "q3")
    Traceback (most recent call last):
    ...
    ValueError: q3 is off the 16x16 board (files a-p, ranks 1-16)
    """
    size = geo.size
    digits = text[1:]
    if (
        len(text) < 2
        or text[0] not in FILES
        or not (digits.isascii() and digits.isdigit())
        or digits[0] == "0"
    ):
        raise ValueError(f"{text!r} is not a square (a file letter and a rank number, like c3)")
    file = FILES.index(text[0])
    rank = int(digits)
    if file >= size or rank > size:
        raise ValueError(f"{text} is off the {size}x{size} board (files a-{FILES[size - 1]}, ranks 1-{size})")
    return (rank - 1) * size + file


# --- geometry tables -------------------------------------------------------------


class Geometry:
    """Precomputed tables for one board size and one table of tank types.

    * ``fwd[st]``: the state index one step forward from state ``st`` (same
      facing), or -1 where that step leaves the board;
    * ``rays[st]``: the squares in the direction of ``st``'s facing, nearest first;
    * ``far[st]``: ``rays[st]`` without its first (adjacent) square;
    * ``mortar[st]``: the squares the Heavy Mortar hits from ``st`` (3 to 5 steps ahead in the rules);
    * ``exits[side][st]``: 1 where the step from ``st`` leaves the board over the
      opponent's edge without passing through a corner (how a Command tank escapes).
    * ``names[sq]``, ``ends[st]``, ``targets[sq]``: the pieces of move notation
      (``c3``; ``-d4NE``; `` xg5``), made once because search agents format
      every legal move to order them.
    * ``types``: the tank types (:class:`.tanks.TankTypes`) whose figures the rules read;
      ``slots[code]``: for a tank's board code, 1 + the shots that sampling tries from
      each of its movement states (``types.shot_slots`` of its kind; 0 for no tank);
      ``reach``: the movement found before (``rules.cached_reach``), which depends on
      the types' speeds and so is kept per geometry.

    One geometry per board size plays the rules' types (:data:`GEOMETRY`); a game
    with other types gets its own from :func:`geometry`, sharing the board's tables.
    """

    __slots__ = (
        "ends",
        "exits",
        "far",
        "fwd",
        "mortar",
        "names",
        "nsq",
        "rays",
        "reach",
        "size",
        "slots",
        "targets",
        "types",
    )

    def __init__(self, size: int, types: TankTypes = STANDARD_TANKS) -> None:
        self.size = size
        self.nsq = size * size
        fwd: list[int] = []
        rays: list[tuple[int, ...]] = []
        exits = (bytearray(self.nsq * 8), bytearray(self.nsq * 8))
        for square in range(self.nsq):
            rank, file = divmod(square, size)
            for facing, (df, dr) in enumerate(DELTAS):
                f, r = file + df, rank + dr
                inside = 0 <= f < size and 0 <= r < size
                fwd.append((r * size + f) * 8 + facing if inside else -1)
                ray = []
                while 0 <= f < size and 0 <= r < size:
                    ray.append(r * size + f)
                    f, r = f + df, r + dr
                rays.append(tuple(ray))
                # Over the far edge, but not diagonally through a corner: the
                # file the tank would move to must still be on the board.
                st = square * 8 + facing
                if 0 <= file + df < size:
                    if rank == size - 1 and dr == 1:
                        exits[WHITE][st] = 1
                    if rank == 0 and dr == -1:
                        exits[BLACK][st] = 1
        self.fwd = fwd
        self.rays = rays
        self.far = [ray[1:] for ray in rays]
        self.exits = (bytes(exits[0]), bytes(exits[1]))
        self.names = tuple(FILES[sq % size] + str(sq // size + 1) for sq in range(self.nsq))
        self.ends = tuple(f"-{self.names[st >> 3]}{FACING_NAMES[st & 7]}" for st in range(self.nsq * 8))
        self.targets = tuple(" x" + name for name in self.names)
        self._arm(types)

    def _arm(self, types: TankTypes) -> None:
        """Set the tables that depend on the tank types."""
        self.types = types
        near, far = types.mortar_range
        self.mortar = [ray[near - 1 : far] for ray in self.rays]
        shots = types.shot_slots
        self.slots = tuple(
            1 + shots[code >> 3 & 7] if code >= TANK and code >> 3 & 7 < len(shots) else 0
            for code in range(256)
        )
        self.reach: dict[int, list[tuple[int, int, tuple[int, ...], bool]]] = {}

    def with_types(self, types: TankTypes) -> Geometry:
        """This board's geometry for other tank types: the board's tables shared, an empty ``reach``."""
        other = Geometry.__new__(Geometry)
        for name in ("ends", "exits", "far", "fwd", "names", "nsq", "rays", "size", "targets"):
            setattr(other, name, getattr(self, name))
        other._arm(types)
        return other

    def __repr__(self) -> str:
        return f"<Geometry {self.size}x{self.size}>"


#: The geometry of each board size for the rules' tank types.
GEOMETRY: dict[int, Geometry] = {size: Geometry(size) for size in SIZES}
#: The geometries made for other tank types, by board size and types (equal figures: one geometry,
#: so games of one document share their movement cache). Bounded: a server may see many documents,
#: and a game keeps its own geometry however the cache is cleared.
_OTHER_GEOMETRY: dict[tuple[int, TankTypes], Geometry] = {}
_OTHER_GEOMETRY_LIMIT = 32


def geometry(size: int, types: TankTypes) -> Geometry:
    """The geometry of a ``size`` board whose tanks have ``types``' figures.

    >>> from tussle.games.tank_chess.tanks import load_tanks
    >>> geometry(16, STANDARD_TANKS) is GEOMETRY[16]
    True
    >>> fast = load_tanks("[H]\\nspeed = 5", "option tanks")
    >>> geometry(16, fast) is geometry(16, load_tanks("[H]\\nspeed = 5 # the same", "option tanks"))
    True
    """
    if types == STANDARD_TANKS:
        return GEOMETRY[size]
    key = (size, types)
    geo = _OTHER_GEOMETRY.get(key)
    if geo is None:
        if len(_OTHER_GEOMETRY) >= _OTHER_GEOMETRY_LIMIT:
            _OTHER_GEOMETRY.clear()
        geo = _OTHER_GEOMETRY[key] = GEOMETRY[size].with_types(types)
    return geo
