"""Fightopia notation: actions and positions as text.

Actions name the acting piece, then ``-`` and where it goes, or ``x`` and what
it kills. A Pawn is named by its square, a Giant by ``G`` and its corner (the
square nearest a1), a Tank by ``T`` and both its squares (nearest a1 first):

=============  ======================  =========================================
action         example                 meaning
=============  ======================  =========================================
pawn step      ``c3-c4``               the Pawn on c3 steps to c4
giant step     ``Gd1-d2``              the Giant on d1-e2 steps north, to d2-e3
giant kill     ``Gd4xTc4c5``           the Giant on d4-e5 kills the Tank on c4-c5
tank move      ``Ta1a2-a3a4``          the Tank on a1-a2 moves two squares north
tank pivot     ``Ta1a2-a2b2``          the same Tank turns about a2 (its a1 end swings to b2)
tank shot      ``Ta1a2xa6``            it shoots the enemy Pawn on a6
chance         ``first white``         White moves first (or ``first black``)
=============  ======================  =========================================

A position is the board rank 8 to rank 1 (``/`` between ranks, digits for runs
of empty squares, White in capitals), the side to move (``w``, ``b``, or ``-``
before the first player is drawn) and the number of plies played. Each square
of a piece holds its letter: ``P`` Pawn, ``G`` Giant, ``V`` a Tank standing
along a file (vertical), ``H`` a Tank lying along a rank (horizontal).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal, Self, TypeAlias, TypedDict, cast

from tussle.errors import ActionError, PositionError, shorten
from tussle.games.fightopia.board import (
    BLACK,
    COLOR_NAMES,
    GIANT_KILL,
    GIANT_MASK,
    GIANT_STEP,
    PAWN_STEP,
    SIZE,
    TANK_MOVE,
    TANK_SHOT,
    WHITE,
    decode,
    encode,
    parse_square,
    square_name,
    tank_code,
    tank_ok,
    tank_squares,
)

FIRST = ("first white", "first black")


def tank_name(code: int) -> str:
    """Both squares of a Tank, nearest a1 first.

    >>> tank_name(1)
    'a1a2'
    """
    low, high = tank_squares(code)
    return square_name(low) + square_name(high)


def format_action(action: int) -> str:
    """The canonical notation of a player's action.

    >>> format_action(encode(PAWN_STEP, 18, 26)), format_action(encode(TANK_MOVE, 1, 33))
    ('c3-c4', 'Ta1a2-a3a4')
    """
    kind, a, b = decode(action) if isinstance(action, int) and action >= 0 else (-1, 0, 0)
    squares_ok = a < SIZE * SIZE and b < SIZE * SIZE
    if kind == PAWN_STEP and squares_ok:
        return f"{square_name(a)}-{square_name(b)}"
    if kind == GIANT_STEP and squares_ok:
        return f"G{square_name(a)}-{square_name(b)}"
    if kind == GIANT_KILL and a < SIZE * SIZE and tank_ok(b):
        return f"G{square_name(a)}xT{tank_name(b)}"
    if kind == TANK_MOVE and tank_ok(a) and tank_ok(b):
        return f"T{tank_name(a)}-{tank_name(b)}"
    if kind == TANK_SHOT and tank_ok(a) and b < SIZE * SIZE:
        return f"T{tank_name(a)}x{square_name(b)}"
    raise ActionError(f"{action!r} is not a Fightopia action")


_SQ = "[a-h][1-8]"
_ACTION = re.compile(rf"(?P<piece>[pgt]?)(?P<src>(?:{_SQ})+)(?P<op>[-x])(?P<mark>[pgt]?)(?P<dst>(?:{_SQ})+)")
_HINT = "e.g. c3-c4, Gd1-d2, Gd4xTc4c5, Ta1a2-a3a4, Ta1a2xa6"


def _squares(text: str) -> list[int]:
    return [parse_square(text[i : i + 2]) for i in range(0, len(text), 2)]


def _tank(original: str, squares: list[int]) -> int:
    names = "".join(square_name(s) for s in squares)
    if len(squares) != 2:
        raise ActionError(f"{original!r}: a Tank is named by its two squares, not {names!r}")
    try:
        return tank_code(squares[0], squares[1])
    except ValueError:
        raise ActionError(f"{original!r}: {names} are not two neighbouring squares of one Tank") from None


def parse_action(text: str, giant: int) -> int:
    """Read a player's action; ``giant`` is the corner of that player's Giant.

    Letters may be in either case, spaces are ignored, a Tank's squares may come
    in either order, a Pawn may carry a ``P`` and the target Tank of a kill may
    leave out its ``T``.

    >>> format_action(parse_action("T a2a1 - b2 a2", 3))
    'Ta1a2-a2b2'
    >>> format_action(parse_action("gd1xa2a1", 3))
    'Gd1xTa1a2'
    """
    action = read_action(text)
    kind, corner, _ = decode(action)
    if kind in (GIANT_STEP, GIANT_KILL) and corner != giant:
        # Only the corner names the Giant, so that a text means one action wherever it stands.
        raise ActionError(
            f"{text!r}: your Giant stands on {giant_name(giant)}; name it by its corner "
            f"{square_name(giant)} (the square nearest a1)"
        )
    return action


_DASHLESS = re.compile(rf"(?P<piece>[pgt]?)(?P<squares>(?:{_SQ})+)")


def _with_dash(compact: str) -> str:
    """``compact`` with the dash put in where a move leaves it out (``e3e4``, ``ta1a2a3a4``): a Pawn or
    a Giant names one square and goes to one, a Tank names two and goes to two, so the split is certain.

    >>> _with_dash("e3e4"), _with_dash("gd1d2"), _with_dash("ta1a2a3a4"), _with_dash("e3e4e5")
    ('e3-e4', 'gd1-d2', 'ta1a2-a3a4', 'e3e4e5')
    """
    match = _DASHLESS.fullmatch(compact)
    if match is None:
        return compact
    named = 4 if match["piece"] == "t" else 2  # characters of the squares that name the piece
    if len(match["squares"]) != 2 * named:
        return compact
    cut = len(match["piece"]) + named
    return compact[:cut] + "-" + compact[cut:]


def read_action(text: str) -> int:
    """Read a player's action from its text alone, as :func:`parse_action` does, wherever the
    Giant stands (a Giant's action names its corner); ActionError if the text names none.

    >>> format_action(read_action("Gc5-c6"))
    'Gc5-c6'
    """
    if not isinstance(text, str):
        raise ActionError(f"{text!r} is not a Fightopia action ({_HINT})")
    match = _ACTION.fullmatch(_with_dash("".join(text.split()).lower()))
    if match is None:
        raise ActionError(f"{text!r} is not a Fightopia action ({_HINT})")
    piece, op, mark = match["piece"], match["op"], match["mark"]
    src, dst = _squares(match["src"]), _squares(match["dst"])
    if piece in ("", "p"):
        if len(src) != 1 or len(dst) != 1 or op != "-" or mark not in ("", "p"):
            raise ActionError(f"{text!r}: a Pawn only steps, written like c3-c4 (Pawns kill nothing)")
        return encode(PAWN_STEP, src[0], dst[0])
    if piece == "g":
        if len(src) != 1:
            raise ActionError(f"{text!r}: name the Giant by one square, its corner, e.g. Gd1-d2")
        if op == "x":
            if mark not in ("", "t"):
                raise ActionError(f"{text!r}: a Giant kills only Tanks (Giants cannot kill Pawns)")
            return encode(GIANT_KILL, src[0], _tank(text, dst))
        if len(dst) != 1 or mark not in ("", "g"):
            raise ActionError(f"{text!r}: a Giant step is written corner to corner, e.g. Gd1-d2")
        return encode(GIANT_STEP, src[0], dst[0])
    tank = _tank(text, src)
    if op == "-":
        if mark not in ("", "t"):
            raise ActionError(f"{text!r}: a Tank moves to two squares, e.g. Ta1a2-a3a4")
        return encode(TANK_MOVE, tank, _tank(text, dst))
    if len(dst) != 1 or mark not in ("", "p"):
        raise ActionError(f"{text!r}: a Tank shoots only Pawns, written like Ta1a2xa6")
    return encode(TANK_SHOT, tank, dst[0])


def giant_name(corner: int) -> str:
    """The Giant's squares as a range, corner first.

    >>> giant_name(3)
    'd1-e2'
    """
    return f"{square_name(corner)}-{square_name(corner + SIZE + 1)}"


def format_chance(outcome: int) -> str:
    """``first white`` or ``first black``."""
    return FIRST[outcome]


def parse_chance(text: str) -> int:
    """Read who moves first.

    >>> parse_chance("First Black")
    1
    """
    words = " ".join(text.lower().split()) if isinstance(text, str) else ""
    if words in ("first white", "first w"):
        return WHITE
    if words in ("first black", "first b"):
        return BLACK
    raise ActionError(f"{text!r} is not a chance outcome (first white, first black)")


# --- structured actions -----------------------------------------------------------

MoveKind = Literal["pawn step", "giant step", "giant kill", "tank move", "tank shot"]
#: The ``kind`` of each action kind of :mod:`board`, by its number there.
MOVE_KINDS: tuple[MoveKind, ...] = ("pawn step", "giant step", "giant kill", "tank move", "tank shot")
_KIND_NUMBERS: dict[str, int] = {name: number for number, name in enumerate(MOVE_KINDS)}

#: A square's name (``"c3"``) and a Tank's two squares (nearest a1 first).
SquareName: TypeAlias = str
TankSquares: TypeAlias = list[str]

# ``from`` is a keyword, so these forms are spelled out in the functional syntax.
PawnStepJSON = TypedDict("PawnStepJSON", {"kind": Literal["pawn step"], "from": SquareName, "to": SquareName})
GiantStepJSON = TypedDict(
    "GiantStepJSON", {"kind": Literal["giant step"], "from": SquareName, "to": SquareName}
)
GiantKillJSON = TypedDict(
    "GiantKillJSON", {"kind": Literal["giant kill"], "from": SquareName, "kill": TankSquares}
)
TankMoveJSON = TypedDict(
    "TankMoveJSON", {"kind": Literal["tank move"], "from": TankSquares, "to": TankSquares}
)
TankShotJSON = TypedDict(
    "TankShotJSON", {"kind": Literal["tank shot"], "from": TankSquares, "kill": SquareName}
)
#: A player's action as plain data: one shape per kind.
MoveJSON: TypeAlias = PawnStepJSON | GiantStepJSON | GiantKillJSON | TankMoveJSON | TankShotJSON


class FirstJSON(TypedDict):
    """The chance outcome as plain data: who moves first."""

    kind: Literal["first"]
    color: Literal["white", "black"]


# Per kind: whether ``from`` and the second field name a Tank (two squares), and that field's name.
_SHAPES: tuple[tuple[bool, str, bool], ...] = (
    (False, "to", False),  # pawn step: a square to a square
    (False, "to", False),  # giant step: corner to corner
    (False, "kill", True),  # giant kill: the corner, and the Tank it kills
    (True, "to", True),  # tank move: a Tank to where it goes (along its length, or pivoted)
    (True, "kill", False),  # tank shot: the Tank, and the Pawn it shoots
)
_MOVE_HINT = "e.g. {'kind': 'pawn step', 'from': 'c3', 'to': 'c4'}"


def _form_error(data: object, why: str) -> ActionError:
    return ActionError(f"{shorten(data)} is not a Fightopia move: {why}")


def _read_square(data: object, key: str, value: object) -> int:
    if type(value) is not str or len(value) != 2:
        raise _form_error(data, f"{key!r} must be a square name such as 'c3', not {shorten(value)}")
    try:
        return parse_square(value)
    except ValueError:
        raise _form_error(data, f"{key!r} must be a square a1 to h8, not {shorten(value)}") from None


def _read_tank(data: object, key: str, value: object) -> int:
    if type(value) is not list or len(value) != 2:
        raise _form_error(
            data, f"{key!r} must be a Tank's two squares, such as ['a1', 'a2'], not {shorten(value)}"
        )
    first, second = (_read_square(data, key, v) for v in value)
    try:
        return tank_code(first, second)
    except ValueError:
        raise _form_error(
            data, f"{key!r}: {value[0]} and {value[1]} are not two neighbouring squares"
        ) from None


def _tank_json(code: int) -> TankSquares:
    low, high = tank_squares(code)
    return [square_name(low), square_name(high)]


@dataclass(frozen=True, slots=True)
class Move:
    """A player's action as a value: what acts, and where it goes or what it destroys.

    The engine's action is the int ``kind << 16 | piece << 8 | target`` (see
    :mod:`tussle.games.fightopia.board`); a ``Move`` names its parts. ``piece`` is
    a Pawn's square, the Giant's corner or a Tank's code; ``target`` is the square
    or corner it steps to, the Tank's new code, or what it destroys (a Tank's
    code, a Pawn's square). Its plain-data form (:meth:`to_json`) names squares
    as the notation does:

    >>> move = Move.of(parse_action("Ta1a2-a2b2", 3))
    >>> move.to_json()
    {'kind': 'tank move', 'from': ['a1', 'a2'], 'to': ['a2', 'b2']}
    >>> format_action(Move.from_json(move.to_json()).action)
    'Ta1a2-a2b2'
    """

    kind: int
    piece: int
    target: int

    @classmethod
    def of(cls, action: int) -> Move:
        """The move an engine action (an int) stands for."""
        return cls(action >> 16, (action >> 8) & 255, action & 255)

    @property
    def action(self) -> int:
        """The engine's action: one int."""
        return self.kind << 16 | self.piece << 8 | self.target

    def to_json(self) -> MoveJSON:
        tank_from, second, tank_second = _SHAPES[self.kind]
        piece: SquareName | TankSquares = _tank_json(self.piece) if tank_from else square_name(self.piece)
        target: SquareName | TankSquares = (
            _tank_json(self.target) if tank_second else square_name(self.target)
        )
        return cast(MoveJSON, {"kind": MOVE_KINDS[self.kind], "from": piece, second: target})

    @classmethod
    def from_json(cls, data: object) -> Self:
        """Read a move's plain-data form, strictly: ActionError in one line if it is not one.

        >>> Move.from_json({"kind": "giant kill", "from": "d4", "kill": ["c4", "c5"]}).to_json()["kill"]
        ['c4', 'c5']
        >>> Move.from_json({"kind": "pawn step", "from": "c3", "to": "c9"})  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        tussle.errors.ActionError: ... is not a Fightopia move: 'to' must be a square a1 to h8, not 'c9'
        """
        if type(data) is not dict:
            raise _form_error(data, f"a move is an object, {_MOVE_HINT}")
        name = data.get("kind")
        kind = _KIND_NUMBERS.get(name, -1) if type(name) is str else -1
        if kind < 0:
            names = ", ".join(map(repr, MOVE_KINDS))
            raise _form_error(data, f"'kind' must be one of {names}, not {shorten(name)}")
        tank_from, second, tank_second = _SHAPES[kind]
        keys = {"kind", "from", second}
        if set(data) != keys:
            missing, extra = sorted(keys - set(data)), [k for k in data if k not in keys]
            named = missing or extra
            why = ("missing " if missing else "unknown ") + ", ".join(shorten(k) for k in named)
            raise _form_error(data, f"a {MOVE_KINDS[kind]} has 'kind', 'from' and {second!r}: {why}")
        read_from = _read_tank if tank_from else _read_square
        read_second = _read_tank if tank_second else _read_square
        return cls(kind, read_from(data, "from", data["from"]), read_second(data, second, data[second]))


@dataclass(frozen=True, slots=True)
class First:
    """The chance outcome as a value: ``color`` (0 White, 1 Black, the engine's outcome) moves first.

    >>> First(1).to_json(), First.from_json({"kind": "first", "color": "white"}).color
    ({'kind': 'first', 'color': 'black'}, 0)
    """

    color: int

    def to_json(self) -> FirstJSON:
        return {"kind": "first", "color": COLOR_KEYS[self.color]}

    @classmethod
    def from_json(cls, data: object) -> Self:
        """Read the chance outcome's plain-data form, strictly (ActionError in one line)."""
        hint = "{'kind': 'first', 'color': 'white'} or 'black'"
        if type(data) is not dict or set(data) != {"kind", "color"} or data["kind"] != "first":
            raise ActionError(f"{shorten(data)} is not a chance outcome of Fightopia ({hint})")
        color = data["color"]
        if type(color) is not str or color not in COLOR_KEYS:
            raise ActionError(f"{shorten(data)}: 'color' is 'white' or 'black', not {shorten(color)}")
        return cls(COLOR_KEYS.index(color))


# --- the observation ----------------------------------------------------------------

ColorName: TypeAlias = Literal["white", "black"]
#: Each color's name in plain data, by player.
COLOR_KEYS: tuple[ColorName, ColorName] = ("white", "black")


class PieceJSON(TypedDict):
    """One piece of an observation: its color, kind and squares (nearest a1 first)."""

    color: ColorName
    kind: Literal["pawn", "giant", "tank"]
    squares: list[SquareName]


class LastJSON(TypedDict):
    """The last event of an observation: who, its notation (to show) and its structured form (to draw)."""

    player: Literal["white", "black", "chance"]
    action: str
    move: MoveJSON | FirstJSON


class FightopiaObservation(TypedDict):
    """What a player (or a spectator) sees: everything, as Fightopia has no secrets."""

    game: Literal["fightopia"]
    player: int
    colors: list[ColorName]
    to_move: ColorName | None
    to_act: list[int]
    ply: int
    ply_limit: int
    limit_result: str
    position: str
    pieces: list[PieceJSON]
    last: LastJSON | None
    result: dict[str, object] | None


# --- positions -----------------------------------------------------------------

_PIECE_LETTERS = "PGVH"


class Board:
    """The pieces of a position, as read from or written to notation (no rule checks beyond shape)."""

    __slots__ = ("giants", "pawns", "ply", "side", "tanks")

    def __init__(
        self,
        pawns: tuple[int, int],
        giants: tuple[int, int],
        tanks: tuple[tuple[int, ...], tuple[int, ...]],
        side: int,
        ply: int,
    ) -> None:
        self.pawns = pawns
        self.giants = giants
        self.tanks = tanks
        self.side = side
        self.ply = ply


_RANKS: dict[str, str] = {}  # a rank with "." for each empty square -> its written form
_EMPTY_RUN = re.compile(r"\.+")


def format_position(board: Board) -> str:
    """Write a position.

    >>> b = Board((1 << 18, 1 << 45), (3, 51), ((1,), (97,)), 0, 7)
    >>> format_position(b)
    'v2gg3/v2gg3/5p2/8/8/2P5/V2GG3/V2GG3 w 7'
    """
    grid = ["."] * (SIZE * SIZE)
    for color in (WHITE, BLACK):
        pawn, giant, standing, lying = ("P", "G", "V", "H") if color == WHITE else ("p", "g", "v", "h")
        pawns = board.pawns[color]
        while pawns:
            bit = pawns & -pawns
            grid[bit.bit_length() - 1] = pawn
            pawns ^= bit
        corner = board.giants[color]
        for s in (corner, corner + 1, corner + SIZE, corner + SIZE + 1):
            grid[s] = giant
        for code in board.tanks[color]:
            for s in tank_squares(code):
                grid[s] = standing if code & 1 else lying
    rows = []
    for start in range(SIZE * (SIZE - 1), -1, -SIZE):
        row = "".join(grid[start : start + SIZE])
        # Searches write a position at every node, and a board has few distinct ranks.
        text = _RANKS.get(row)
        if text is None:
            if len(_RANKS) > 100_000:
                _RANKS.clear()
            text = _RANKS[row] = _EMPTY_RUN.sub(lambda m: str(len(m.group())), row)
        rows.append(text)
    side = "-" if board.side < 0 else "wb"[board.side]
    return f"{'/'.join(rows)} {side} {board.ply}"


def parse_position(text: str) -> Board:
    """Read a position, checking its shape: every piece whole, one Giant a side, at most
    two Tanks and ten Pawns a side. Raises :class:`PositionError` naming the problem.

    >>> b = parse_position("v2gg3/v2gg3/5p2/8/8/2P5/V2GG3/V2GG3 w 7")
    >>> b.giants, b.tanks, b.side, b.ply
    ((3, 51), ((1,), (97,)), 0, 7)
    """
    example = "e.g. 'vppggppv/v1pggp1v/2pppp2/8/8/2PPPP2/V1PGGP1V/VPPGGPPV - 0'"
    parts = text.split() if isinstance(text, str) else []
    if len(parts) != 3:
        raise PositionError(f"{text!r}: a position is '<board> <side to move> <plies>', {example}")
    rows = parts[0].split("/")
    if len(rows) != SIZE:
        raise PositionError(f"{text!r}: the board needs {SIZE} ranks separated by '/', not {len(rows)}")
    grid: dict[int, str] = {}
    for i, row in enumerate(rows):
        rank = SIZE - 1 - i
        f = 0
        for ch in row:
            if ch in "0123456789":
                f += int(ch)
            elif ch.upper() in _PIECE_LETTERS:
                if f < SIZE:
                    grid[rank * SIZE + f] = ch
                f += 1
            else:
                raise PositionError(f"{text!r}: rank {rank + 1} has {ch!r}, not a digit or one of PGVH pgvh")
        if f != SIZE:
            raise PositionError(f"{text!r}: rank {rank + 1} covers {f} squares, not {SIZE}")
    pawns = [0, 0]
    giants = [0, 0]
    tanks: list[list[int]] = [[], []]
    for color, case in ((WHITE, str.upper), (BLACK, str.lower)):
        name = COLOR_NAMES[color]
        mine = {s: ch.upper() for s, ch in grid.items() if ch == case(ch)}
        for s, ch in mine.items():
            if ch == "P":
                pawns[color] |= 1 << s
        giant = sorted(s for s, ch in mine.items() if ch == "G")
        if len(giant) != 4 or GIANT_MASK[giant[0]] != sum(1 << s for s in giant):
            raise PositionError(
                f"{text!r}: {name} needs exactly one Giant, four {case('G')} in a 2x2 block "
                f"(Giants are never removed), found {len(giant)} {case('G')}"
            )
        giants[color] = giant[0]
        for letter, step in (("V", SIZE), ("H", 1)):
            halves = {s for s, ch in mine.items() if ch == letter}
            # Scanning upwards (or rightwards), the lowest half left must pair with
            # the square beyond it, so a run of halves splits into Tanks in one way.
            for s in sorted(halves):
                if s not in halves:
                    continue
                other = s + step
                if other not in halves or (step == 1 and s & 7 == SIZE - 1):
                    raise PositionError(
                        f"{text!r}: {name} has half a Tank on {square_name(s)} "
                        f"({case(letter)} needs its other half {'above' if step == SIZE else 'to its right'})"
                    )
                halves -= {s, other}
                tanks[color].append(tank_code(s, other))
        if len(tanks[color]) > 2:
            raise PositionError(f"{text!r}: {name} has {len(tanks[color])} Tanks; a side has at most 2")
        count = pawns[color].bit_count()
        if count > 10:
            raise PositionError(f"{text!r}: {name} has {count} Pawns; a side has at most 10")
    side_text, ply_text = parts[1], parts[2]
    if side_text not in ("w", "b", "-"):
        raise PositionError(f"{text!r}: the side to move is w, b or - (not drawn yet), not {side_text!r}")
    if not (ply_text.isascii() and ply_text.isdigit()):
        raise PositionError(f"{text!r}: the ply count {ply_text!r} is not a whole number")
    ply = int(ply_text)
    side = "wb-".index(side_text)
    if side == 2:
        if ply:
            raise PositionError(
                f"{text!r}: the first player is drawn before the first ply, so '-' needs 0 plies"
            )
        side = -1
    return Board(
        (pawns[0], pawns[1]),
        (giants[0], giants[1]),
        (tuple(tanks[0]), tuple(tanks[1])),
        side,
        ply,
    )
