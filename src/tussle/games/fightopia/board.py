"""Fightopia's board: squares, pieces, actions as small ints, and precomputed geometry.

Squares are numbered ``rank * 8 + file`` from 0 (``a1``) to 63 (``h8``); a set
of squares is a bitboard, an int whose bit ``s`` stands for square ``s``.
White (player 0) starts on ranks 1 to 3 and Black (player 1) on ranks 6 to 8.

Pieces are stored by their lowest square:

* a Pawn by its square;
* a Giant (2x2) by its *corner*, the square nearest a1 (so a Giant on
  ``d1 e1 d2 e2`` has corner ``d1``);
* a Tank (1x2) by its *code* ``low * 2 + vertical``: ``low`` is its square
  nearest a1 and ``vertical`` is 1 when it stands along a file, 0 when it lies
  along a rank.

Every table below is computed once at import, so move generation is a few
bitwise operations per piece.
"""

from __future__ import annotations

SIZE = 8
FILES = "abcdefgh"
FULL = (1 << 64) - 1
WHITE, BLACK = 0, 1
COLOR_NAMES = ("White", "Black")

# Action kinds. An action is the int ``kind << 16 | a << 8 | b``:
PAWN_STEP = 0  # a: from square, b: to square
GIANT_STEP = 1  # a: from corner, b: to corner
GIANT_KILL = 2  # a: Giant corner, b: code of the enemy Tank it kills
TANK_MOVE = 3  # a: old Tank code, b: new Tank code (a move along the axis, or a pivot)
TANK_SHOT = 4  # a: Tank code, b: square of the enemy Pawn shot
KIND_NAMES = ("pawn step", "giant step", "giant kill", "tank move", "tank shot")


def encode(kind: int, a: int, b: int) -> int:
    """Pack an action into one int.

    >>> decode(encode(TANK_SHOT, 1, 32))
    (4, 1, 32)
    """
    return kind << 16 | a << 8 | b


def decode(action: int) -> tuple[int, int, int]:
    """Unpack an action into ``(kind, a, b)``."""
    return action >> 16, (action >> 8) & 255, action & 255


SQUARE_NAMES = tuple(FILES[s & 7] + str((s >> 3) + 1) for s in range(SIZE * SIZE))


def square_name(square: int) -> str:
    """The name of a square.

    >>> square_name(0), square_name(11), square_name(63)
    ('a1', 'd2', 'h8')
    """
    return SQUARE_NAMES[square]


def parse_square(text: str) -> int:
    """The square that ``text`` names, or ValueError.

    >>> parse_square("d2")
    11
    """
    if len(text) != 2 or text[0] not in FILES or text[1] not in "12345678":
        raise ValueError(text)
    return (int(text[1]) - 1) * SIZE + FILES.index(text[0])


def _on_board(f: int, r: int) -> bool:
    return 0 <= f < SIZE and 0 <= r < SIZE


def _bit(f: int, r: int) -> int:
    return 1 << (r * SIZE + f)


_KING_DIRS = ((1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1))
_ORTHO_DIRS = ((1, 0), (0, 1), (-1, 0), (0, -1))

_FILE_A = sum(_bit(0, r) for r in range(SIZE))
_FILE_H = sum(_bit(7, r) for r in range(SIZE))

#: Pawn steps as bitboard shifts: ``(shift, sources)`` per direction; ``sources``
#: leaves out the file a step would wrap around from (ranks fall off by themselves).
PAWN_SHIFTS: tuple[tuple[int, int], ...] = tuple(
    (dr * SIZE + df, FULL & ~(_FILE_H if df == 1 else _FILE_A if df == -1 else 0)) for df, dr in _KING_DIRS
)

#: KING_NEIGHBORS[square]: the squares one step away in any of the eight directions.
KING_NEIGHBORS: tuple[int, ...] = tuple(
    sum(_bit((s & 7) + df, (s >> 3) + dr) for df, dr in _KING_DIRS if _on_board((s & 7) + df, (s >> 3) + dr))
    for s in range(SIZE * SIZE)
)

# --- Giants -------------------------------------------------------------------


def _giant_ok(corner: int) -> bool:
    return (corner & 7) < SIZE - 1 and (corner >> 3) < SIZE - 1


def _giant_mask(corner: int) -> int:
    if not _giant_ok(corner):
        return 0
    return (0b11 | 0b11 << SIZE) << corner


#: GIANT_MASK[corner]: the four squares of a Giant with that corner (0 off the board).
GIANT_MASK: tuple[int, ...] = tuple(_giant_mask(c) for c in range(SIZE * SIZE))


def _giant_steps(corner: int) -> tuple[tuple[int, int], ...]:
    if not _giant_ok(corner):
        return ()
    f, r = corner & 7, corner >> 3
    out = []
    for df, dr in _KING_DIRS:
        nf, nr = f + df, r + dr
        new = nr * SIZE + nf
        if _on_board(nf, nr) and _giant_ok(new):
            # Only the squares it does not already stand on must be clear.
            out.append((new, GIANT_MASK[new] & ~GIANT_MASK[corner]))
    return tuple(out)


#: GIANT_STEPS[corner]: ``(new corner, squares that must be clear)`` per legal direction.
GIANT_STEPS: tuple[tuple[tuple[int, int], ...], ...] = tuple(_giant_steps(c) for c in range(SIZE * SIZE))


def _giant_edge(corner: int) -> int:
    if not _giant_ok(corner):
        return 0
    mask = GIANT_MASK[corner]
    out = 0
    for s in range(SIZE * SIZE):
        if mask >> s & 1:
            f, r = s & 7, s >> 3
            for df, dr in _ORTHO_DIRS:
                if _on_board(f + df, r + dr):
                    out |= _bit(f + df, r + dr)
    return out & ~mask


#: GIANT_EDGE[corner]: the squares sharing an edge with the Giant (a Tank on one can be killed).
GIANT_EDGE: tuple[int, ...] = tuple(_giant_edge(c) for c in range(SIZE * SIZE))

# --- Tanks --------------------------------------------------------------------

TANK_CODES = SIZE * SIZE * 2


def tank_ok(code: int) -> bool:
    """Whether ``code`` is a Tank that fits on the board."""
    if not 0 <= code < TANK_CODES:
        return False
    low, vertical = code >> 1, code & 1
    return (low >> 3) < SIZE - 1 if vertical else (low & 7) < SIZE - 1


def tank_squares(code: int) -> tuple[int, int]:
    """The two squares of a Tank, nearest a1 first.

    >>> [square_name(s) for s in tank_squares(tank_code(0, 8))]
    ['a1', 'a2']
    """
    low = code >> 1
    return low, low + (SIZE if code & 1 else 1)


def tank_code(first: int, second: int) -> int:
    """The code of the Tank on two squares (either order), or ValueError if they are not adjacent.

    >>> tank_code(1, 0), tank_code(0, 8)
    (0, 1)
    """
    low, high = min(first, second), max(first, second)
    if high - low == SIZE:
        return low * 2 + 1
    if high - low == 1 and (low & 7) < SIZE - 1:
        return low * 2
    raise ValueError((first, second))


def _tank_mask(code: int) -> int:
    if not tank_ok(code):
        return 0
    low, high = tank_squares(code)
    return 1 << low | 1 << high


#: TANK_MASK[code]: the two squares of the Tank (0 if the code does not fit).
TANK_MASK: tuple[int, ...] = tuple(_tank_mask(c) for c in range(TANK_CODES))


def _tank_moves(code: int) -> tuple[tuple[int, int], ...]:
    if not tank_ok(code):
        return ()
    low = code >> 1
    f, r = low & 7, low >> 3
    df, dr = (0, 1) if code & 1 else (1, 0)
    out = []
    for dist in (1, 2, -1, -2):
        nf, nr = f + df * dist, r + dr * dist
        ef, er = nf + df, nr + dr
        if not (_on_board(nf, nr) and _on_board(ef, er)):
            continue
        new = (nr * SIZE + nf) * 2 + (code & 1)
        out.append((new, TANK_MASK[new] & ~TANK_MASK[code]))
    return tuple(out)


#: TANK_MOVES[code]: ``(new code, squares that must be clear)`` for 1 or 2 squares along the axis.
TANK_MOVES: tuple[tuple[tuple[int, int], ...], ...] = tuple(_tank_moves(c) for c in range(TANK_CODES))


def _tank_pivots(code: int) -> tuple[tuple[int, int, int], ...]:
    if not tank_ok(code):
        return ()
    low, high = tank_squares(code)
    out = []
    for anchor, swing in ((low, high), (high, low)):
        af, ar = anchor & 7, anchor >> 3
        sf, sr = swing & 7, swing >> 3
        vf, vr = sf - af, sr - ar
        for nvf, nvr in ((-vr, vf), (vr, -vf)):  # a quarter turn either way
            nf, nr = af + nvf, ar + nvr
            if not _on_board(nf, nr):
                continue
            new_square = nr * SIZE + nf
            new = tank_code(anchor, new_square)
            # The corner of the 2x2 block the swinging end sweeps through.
            swept = _bit(sf + nvf, sr + nvr)
            out.append((new, 1 << new_square, swept))
    return tuple(out)


#: TANK_PIVOTS[code]: ``(new code, new square, swept corner square)`` for each quarter turn
#: about either end.
TANK_PIVOTS: tuple[tuple[tuple[int, int, int], ...], ...] = tuple(_tank_pivots(c) for c in range(TANK_CODES))


def _ray(square: int, df: int, dr: int) -> int:
    f, r = (square & 7) + df, (square >> 3) + dr
    out = 0
    while _on_board(f, r):
        out |= _bit(f, r)
        f, r = f + df, r + dr
    return out


#: TANK_RAY_UP[code]: the squares out of the Tank's far end (north or east), nearest first
#: in increasing square order; TANK_RAY_DOWN[code]: out of its near end (south or west).
TANK_RAY_UP: tuple[int, ...] = tuple(
    _ray(tank_squares(c)[1], *((0, 1) if c & 1 else (1, 0))) if tank_ok(c) else 0 for c in range(TANK_CODES)
)
TANK_RAY_DOWN: tuple[int, ...] = tuple(
    _ray(tank_squares(c)[0], *((0, -1) if c & 1 else (-1, 0))) if tank_ok(c) else 0 for c in range(TANK_CODES)
)

#: The rank (0-based) a Giant's corner stands on when it touches the far side, per color.
GOAL_CORNER_RANK = (SIZE - 2, 0)
