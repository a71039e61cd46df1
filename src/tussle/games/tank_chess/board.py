"""Tank Chess board geometry: squares, facings, piece codes and precomputed tables.

A board is ``size`` by ``size`` (16 or 20). Squares are numbered
``rank * size + file`` from 0 (``a1``, White's left corner) upwards; files are
letters ``a`` to ``p`` (or ``t``), ranks 1 to ``size`` with rank 1 nearest
White. A *state index* ``square * 8 + facing`` names a tank's square and
facing together; move generation works on state indices only.

Facings are 0 to 7 clockwise from north (``N``, towards Black's edge): ``N NE
E SE S SW W NW``.

Every table here is computed once per board size at import, so that move
generation is list lookups and no arithmetic on coordinates.

>>> geo = GEOMETRY[16]
>>> square_name(geo, 0), square_name(geo, 255)
('a1', 'p16')
>>> square_name(geo, geo.fwd[parse_square(geo, "h1") * 8 + N] >> 3)
'h2'
"""

from __future__ import annotations

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

LIGHT, MEDIUM, HEAVY, COMMAND, DESTROYER, MORTAR = range(6)
KIND_LETTERS = "LMHCDR"
KIND_NAMES = ("Light", "Medium", "Heavy", "Command", "Tank Destroyer", "Heavy Mortar")

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
    """Precomputed tables for one board size.

    * ``fwd[st]``: the state index one step forward from state ``st`` (same
      facing), or -1 where that step leaves the board;
    * ``rays[st]``: the squares in the direction of ``st``'s facing, nearest first;
    * ``far[st]``: ``rays[st]`` without its first (adjacent) square;
    * ``mortar[st]``: the squares 3 to 5 steps ahead;
    * ``exits[side][st]``: 1 where the step from ``st`` leaves the board over the
      opponent's edge without passing through a corner (how a Command tank escapes).
    * ``names[sq]``, ``ends[st]``, ``targets[sq]``: the pieces of move notation
      (``c3``; ``-d4NE``; `` xg5``), made once because search agents format
      every legal move to order them.
    """

    __slots__ = ("ends", "exits", "far", "fwd", "mortar", "names", "nsq", "rays", "size", "targets")

    def __init__(self, size: int) -> None:
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
        self.mortar = [ray[2:5] for ray in rays]
        self.exits = (bytes(exits[0]), bytes(exits[1]))
        self.names = tuple(FILES[sq % size] + str(sq // size + 1) for sq in range(self.nsq))
        self.ends = tuple(f"-{self.names[st >> 3]}{FACING_NAMES[st & 7]}" for st in range(self.nsq * 8))
        self.targets = tuple(" x" + name for name in self.names)

    def __repr__(self) -> str:
        return f"<Geometry {self.size}x{self.size}>"


GEOMETRY: dict[int, Geometry] = {size: Geometry(size) for size in SIZES}
