"""Tank Chess notation: moves, positions (setups) and the built-in setup files.

A **move** is one whole turn: the tank, where it ends and how it faces, and the
enemy tank it destroys, if any::

    Mh3-h6N          the Medium tank on h3 ends on h6 facing north
    Lc3-d5NE xg8     the Light tank on c3 ends on d5 facing north-east and destroys g8
    Hm1-m1NW         the Heavy tank on m1 turns to face north-west without moving
    Ch16-off         the Command tank on h16 escapes over the far edge

Reading is lenient: letters in any case, spaces anywhere, the type letter may
be left out, a missing facing keeps the tank's facing, and a missing
destination keeps its square (``c3NE`` turns in place).

A **position** is ``field=value`` words in any order, separated by spaces or
new lines; ``#`` starts a comment (for setup files). Lists are comma-separated
and ``-`` is an empty list. A tank is its type letter (L M H C D R), square and
facing::

    size=16 turn=white ply=0 obstacles=d8,e8 wrecks=- white=Ch1N,Lc3N black=Ci16S,Lg14S

``obstacles=basic`` stands for the obstacles of the basic side of the board.
The canonical form lists every field in the order above, squares in board
order.
"""

from __future__ import annotations

import functools
import re
from abc import ABC, abstractmethod
from dataclasses import dataclass
from importlib import resources
from typing import Literal, TypeAlias, TypedDict

from tussle.errors import ActionError, PositionError, shorten
from tussle.games.tank_chess.board import (
    BLACK,
    COMMAND,
    ESCAPE,
    FACING_NAMES,
    GEOMETRY,
    KIND_LETTERS,
    KIND_NAMES,
    NO_TARGET,
    SIDE_KEYS,
    SIDE_NAMES,
    SIZES,
    TANK,
    WHITE,
    Geometry,
    code_facing,
    code_kind,
    code_side,
    decode,
    encode,
    parse_square,
    square_name,
)

# --- moves ----------------------------------------------------------------------


def format_move(geo: Geometry, board: list[int], action: int) -> str:
    """The canonical notation of ``action`` on ``board`` (before the move).

    >>> from tussle.games.tank_chess.board import tank_code, HEAVY, N, NE
    >>> geo = GEOMETRY[16]
    >>> board = [0] * geo.nsq
    >>> board[2] = tank_code(WHITE, HEAVY, N)
    >>> format_move(geo, board, encode(2, 19 * 8 + NE, 70))
    'Hc1-d2NE xg5'
    """
    start, end, target = decode(action)
    return format_parts(geo, board, start, end, target)


def format_parts(geo: Geometry, board: list[int], start: int, end: int, target: int) -> str:
    """:func:`format_move` of an action already unpacked by ``decode``."""
    head = KIND_LETTERS[code_kind(board[start])] + geo.names[start]
    if end == ESCAPE:
        return head + "-off"
    if target != NO_TARGET:
        return head + geo.ends[end] + geo.targets[target]
    return head + geo.ends[end]


_SQUARE = r"[a-t][0-9]+"
_MOVE = re.compile(
    # The dash before a destination square may be left out (c1c2n): a square is a letter and its
    # digits, so where one ends and the next begins is certain.
    rf"([lmhcdr])?({_SQUARE})(?:-?({_SQUARE})|-(off))?(ne|nw|se|sw|n|e|s|w)?(?:x({_SQUARE}))?",
)
#: How a turn is written, for error messages: a format, as examples with squares may be illegal here.
MOVE_FORMAT = "write <tank><from>-<to><facing>, and x<target> if it shoots"


@dataclass(frozen=True, slots=True)
class Written:
    """A turn as its text says it, before the board is read: what :func:`read_move` finds.

    ``letter`` (the type, 0 to 5) and ``facing`` are None where the text leaves
    them out; ``dest`` is None where it gives no destination (the tank stays),
    ``target`` is NO_TARGET without a shot.
    """

    letter: int | None
    start: int
    dest: int | None
    facing: int | None
    target: int
    off: bool


def read_move(geo: Geometry, text: str) -> Written:
    """What ``text`` says of a turn on the board of ``geo``; ActionError if it is garbled.

    The one reader of move notation: :func:`parse_move` reads the board after
    it, and the RL codec numbers canonical notation with it.

    >>> read_move(GEOMETRY[16], "c1-d2 ne x g5")
    Written(letter=None, start=2, dest=19, facing=1, target=70, off=False)
    """
    if not isinstance(text, str):
        raise ActionError(f"{text!r} is not a move ({MOVE_FORMAT})")
    compact = "".join(text.split()).lower()
    match = _MOVE.fullmatch(compact)
    if match is None:
        raise ActionError(f"{text!r} is not a move ({MOVE_FORMAT})")
    letter_text, start_text, dest_text, off_text, facing_text, target_text = match.groups()
    dest_text = dest_text or off_text
    try:
        start = parse_square(geo, start_text)
        dest = parse_square(geo, dest_text) if dest_text not in (None, "off") else None
        target = parse_square(geo, target_text) if target_text else NO_TARGET
    except ValueError as exc:
        raise ActionError(f"{text!r}: {exc}") from None
    return Written(
        KIND_LETTERS.index(letter_text.upper()) if letter_text else None,
        start,
        dest,
        FACING_NAMES.index(facing_text.upper()) if facing_text else None,
        target,
        dest_text == "off",
    )


def parse_move(geo: Geometry, board: list[int], side: int, text: str) -> int:
    """The action that ``text`` names for ``side`` on ``board``; ActionError if it is garbled.

    Whether the move is legal is checked elsewhere; this only reads it.

    >>> from tussle.games.tank_chess.board import tank_code, HEAVY, N, NE
    >>> geo = GEOMETRY[16]
    >>> board = [0] * geo.nsq
    >>> board[2] = tank_code(WHITE, HEAVY, N)
    >>> parse_move(geo, board, WHITE, "c1-d2 ne x g5") == encode(2, 19 * 8 + NE, 70)
    True
    >>> parse_move(geo, board, WHITE, "c1ne") == encode(2, 2 * 8 + NE)
    True
    """
    written = read_move(geo, text)
    try:
        code = mover(geo, board, side, written.start, written.letter)
    except ValueError as exc:
        raise ActionError(f"{text!r}: {exc}") from None
    if written.off:
        if written.facing is not None or written.target != NO_TARGET:
            raise ActionError(f"{text!r}: a tank that drives off the board takes no facing and no shot")
        return encode(written.start, ESCAPE)
    if written.dest is None and written.facing is None:
        raise ActionError(f"{text!r}: give a destination, a facing or both ({MOVE_FORMAT})")
    dest = written.start if written.dest is None else written.dest
    facing = code_facing(code) if written.facing is None else written.facing
    return encode(written.start, dest * 8 + facing, written.target)


def mover(geo: Geometry, board: list[int], side: int, start: int, kind: int | None) -> int:
    """The code of ``side``'s tank on ``start``, of type ``kind`` where one is named; else ValueError why not.

    What any written form of a turn (its notation, its structured form) must
    say right about the tank that moves, before the rules judge the turn.
    """
    code = board[start]
    name = geo.names[start]
    if code < TANK:
        raise ValueError(f"there is no tank on {name}")
    have = code_kind(code)
    if kind is not None and kind != have:
        raise ValueError(
            f"the tank on {name} is a {KIND_NAMES[have]} tank ({KIND_LETTERS[have]}), "
            f"not a {KIND_NAMES[kind]} tank"
        )
    if code_side(code) != side:
        raise ValueError(f"the tank on {name} is {SIDE_NAMES[code_side(code)]}'s")
    return code


# --- the structured form of a turn ------------------------------------------------
#
# What a client (the web page, a bot) reads and sends instead of notation: plain
# JSON naming the tank by its type letter and squares by their names.

MoveJSON = TypedDict(
    "MoveJSON",
    {"kind": Literal["move"], "tank": str, "from": str, "to": str, "facing": str, "target": str | None},
)
EscapeJSON = TypedDict("EscapeJSON", {"kind": Literal["escape"], "tank": str, "from": str})
#: A turn's structured form: a move (which may end with a shot) or a Command tank's escape.
TurnJSON: TypeAlias = MoveJSON | EscapeJSON

_KEYS = {"move": ("kind", "tank", "from", "to", "facing", "target"), "escape": ("kind", "tank", "from")}
#: The largest board: a square name on none of the boards is refused before a board is known.
_WIDEST = GEOMETRY[max(SIZES)]


@dataclass(frozen=True, slots=True)
class Turn(ABC):
    """One whole turn in its structured form, either kind: a :class:`Move` or an :class:`Escape`.

    ``tank`` is the type letter of the tank that moves and ``from_`` its square
    (``"from"`` in JSON). The game's own value is the packed int of
    :mod:`.board`: :meth:`of_action` and :meth:`action` convert.

    >>> from tussle.games.tank_chess.board import tank_code, LIGHT, N
    >>> geo = GEOMETRY[16]
    >>> board = [0] * geo.nsq
    >>> board[34] = tank_code(WHITE, LIGHT, N)
    >>> turn = Turn.of_action(geo, board, encode(34, 51 * 8 + 1, 102))
    >>> turn
    Move(tank='L', from_='c3', to='d4', facing='NE', target='g7')
    >>> turn.to_json()
    {'kind': 'move', 'tank': 'L', 'from': 'c3', 'to': 'd4', 'facing': 'NE', 'target': 'g7'}
    >>> Turn.from_json(turn.to_json()) == turn and turn.action(geo, board, WHITE) == encode(34, 409, 102)
    True
    """

    tank: str
    from_: str

    @abstractmethod
    def to_json(self) -> TurnJSON:
        """The structured form as plain JSON data."""

    @staticmethod
    def of_action(geo: Geometry, board: list[int], action: int) -> Turn:
        """The structured form of the packed turn ``action`` on ``board`` (before the turn)."""
        return Turn.of_parts(geo, board, *decode(action))

    @staticmethod
    def of_parts(geo: Geometry, board: list[int], start: int, end: int, target: int) -> Turn:
        """:meth:`of_action` of an action already unpacked by ``decode``."""
        names = geo.names
        tank = KIND_LETTERS[code_kind(board[start])]
        if end == ESCAPE:
            return Escape(tank, names[start])
        return Move(
            tank,
            names[start],
            names[end >> 3],
            FACING_NAMES[end & 7],
            None if target == NO_TARGET else names[target],
        )

    @classmethod
    def from_json(cls, data: object) -> Turn:
        """The turn whose structured form is ``data``, of either kind; ActionError naming what is wrong.

        Strict, as it is a program's input: exactly the keys of its kind, names
        as :meth:`to_json` writes them (upper-case letters, square names of a board).

        >>> Turn.from_json({"kind": "escape", "tank": "C", "from": "h16"})
        Escape(tank='C', from_='h16')
        >>> try:
        ...     Turn.from_json({"kind": "escape", "tank": "C", "from": "h16", "to": "h17"})
        ... except ActionError as exc:
        ...     print(exc)
        {'kind': 'escape', 'tank': 'C', 'from': 'h16', 'to': 'h17'} is not a Tank Chess turn: unknown key 'to'
        """
        try:
            return _turn_from_json(data)
        except ValueError as exc:
            raise ActionError(f"{shorten(data, 100)} is not a Tank Chess turn: {exc}") from None

    @abstractmethod
    def action(self, geo: Geometry, board: list[int], side: int) -> int:
        """The packed turn for ``side`` on ``board``; ActionError if the tank or a square is not there.

        Whether the turn is legal is for the rules to say.
        """


@dataclass(frozen=True, slots=True)
class Move(Turn):
    """A tank drives and turns to end on ``to`` facing ``facing``, then destroys ``target``, if any.

    ``to`` is its own square where it only turns.
    """

    to: str
    facing: str
    target: str | None = None

    def to_json(self) -> MoveJSON:
        return {
            "kind": "move",
            "tank": self.tank,
            "from": self.from_,
            "to": self.to,
            "facing": self.facing,
            "target": self.target,
        }

    def action(self, geo: Geometry, board: list[int], side: int) -> int:
        try:
            start = parse_square(geo, self.from_)
            dest = parse_square(geo, self.to)
            facing = FACING_NAMES.index(self.facing)
            target = NO_TARGET if self.target is None else parse_square(geo, self.target)
            mover(geo, board, side, start, KIND_LETTERS.index(self.tank))
        except ValueError as exc:
            raise ActionError(f"{shorten(self.to_json(), 100)}: {exc}") from None
        return encode(start, dest * 8 + facing, target)


@dataclass(frozen=True, slots=True)
class Escape(Turn):
    """A Command tank drives off the board over the opponent's edge."""

    def to_json(self) -> EscapeJSON:
        return {"kind": "escape", "tank": self.tank, "from": self.from_}

    def action(self, geo: Geometry, board: list[int], side: int) -> int:
        try:
            start = parse_square(geo, self.from_)
            mover(geo, board, side, start, KIND_LETTERS.index(self.tank))
        except ValueError as exc:
            raise ActionError(f"{shorten(self.to_json(), 100)}: {exc}") from None
        return encode(start, ESCAPE)


def _turn_from_json(data: object) -> Turn:
    """:meth:`Turn.from_json`, raising ValueError with the reason alone."""
    if not isinstance(data, dict):
        raise ValueError("a turn is an object with kind, tank, from and, to move, to, facing and target")
    kind = data.get("kind")
    if not isinstance(kind, str) or kind not in _KEYS:
        raise ValueError(f"kind {shorten(kind)} is neither 'move' nor 'escape'")
    keys = _KEYS[kind]
    for key in data:
        if key not in keys:
            raise ValueError(f"unknown key {shorten(key)}")
    for key in keys:
        if key not in data:
            article = "a move" if kind == "move" else "an escape"
            raise ValueError(f"missing key {key!r} ({article} has {', '.join(keys)})")
    tank = data["tank"]
    if not isinstance(tank, str) or len(tank) != 1 or tank not in KIND_LETTERS:
        raise ValueError(f"tank {shorten(tank)} is not a type letter ({' '.join(KIND_LETTERS)})")
    from_ = _square(data, "from")
    if kind == "escape":
        return Escape(tank, from_)
    facing = data["facing"]
    if not isinstance(facing, str) or facing not in FACING_NAMES:
        raise ValueError(f"facing {shorten(facing)} is not one of {' '.join(FACING_NAMES)}")
    target = None if data["target"] is None else _square(data, "target")
    return Move(tank, from_, _square(data, "to"), facing, target)


def _square(data: dict[object, object], key: str) -> str:
    value = data[key]
    if not isinstance(value, str):
        raise ValueError(f"{key} {shorten(value)} is not a square name (like c3)")
    try:
        parse_square(_WIDEST, value)
    except ValueError as exc:
        raise ValueError(f"{key}: {exc}") from None
    return value


# --- positions ------------------------------------------------------------------


@dataclass(frozen=True)
class Setup:
    """A position as plain data: what a setup file or position notation says.

    ``tanks`` holds ``(side, kind, square, facing)`` in board order.
    """

    size: int
    turn: int
    ply: int
    obstacles: frozenset[int]
    wrecks: frozenset[int]
    tanks: tuple[tuple[int, int, int, int], ...]


FIELDS = ("size", "turn", "ply", "obstacles", "wrecks", "white", "black")
_TANK = re.compile(r"([A-Za-z])([a-t][0-9]+)(ne|nw|se|sw|n|e|s|w)", re.IGNORECASE)
_MAX_TEXT = 100_000
# Spaces around '=' and ',' are allowed (so that long lists may wrap in a file),
# except that a value is never the next field ("wrecks= white=..." is an empty list).
_GLUE = re.compile(r"\s*(=)\s*(?!\S*=)|\s*(=)|\s*(,)\s*")


def _squares(geo: Geometry, field: str, value: str) -> list[int]:
    if value in ("-", ""):
        return []
    out = []
    for item in value.split(","):
        try:
            out.append(parse_square(geo, item))
        except ValueError as exc:
            raise PositionError(f"{field}: {exc}") from None
    return out


def parse_position(text: str) -> Setup:
    """Read a position (or a setup file's text); PositionError names the first problem.

    >>> setup = parse_position("size=16 white=Ch1N,Lc3NE black=Ci16S # a comment")
    >>> setup.turn, setup.ply, len(setup.tanks), setup.tanks[1]
    (0, 0, 3, (0, 0, 34, 1))
    >>> parse_position("size=16 white=Ch1N black=Lg14S")
    Traceback (most recent call last):
    ...
    tussle.errors.PositionError: black has no Command tank (each side has exactly one)
    """
    if not isinstance(text, str):
        raise PositionError(f"{text!r} is not a position")
    if len(text) > _MAX_TEXT:
        raise PositionError(f"a position of {len(text)} characters is too long")
    joined = " ".join(line.partition("#")[0] for line in text.splitlines())
    words = _GLUE.sub(lambda m: m.group(1) or m.group(2) or m.group(3), joined).split()
    if not words:
        raise PositionError("the position is empty (e.g. size=16 white=Ch1N black=Ci16S)")
    fields: dict[str, str] = {}
    for word in words:
        key, eq, value = word.partition("=")
        key = key.lower()
        if not eq:
            raise PositionError(f"{word!r} is not a field=value word (fields: {', '.join(FIELDS)})")
        if key not in FIELDS:
            raise PositionError(f"unknown field {key!r} (fields: {', '.join(FIELDS)})")
        if key in fields:
            raise PositionError(f"the field {key} is given twice")
        fields[key] = value
    size_text = fields.get("size", "16")
    if size_text not in ("16", "20"):
        raise PositionError(f"size {size_text!r}: the board is 16 or 20 squares a side")
    size = int(size_text)
    geo = GEOMETRY[size]
    turn_text = fields.get("turn", "white").lower()
    if turn_text not in ("white", "black", "w", "b"):
        raise PositionError(f"turn {fields['turn']!r}: it is white or black")
    turn = BLACK if turn_text[0] == "b" else WHITE
    ply_text = fields.get("ply", "0")
    if not (ply_text.isascii() and ply_text.isdigit()) or len(ply_text) > 9:
        raise PositionError(f"ply {ply_text!r}: it is a whole number from 0")
    ply = int(ply_text)
    what: dict[int, str] = {}

    def place(square: int, name: str) -> None:
        if square in what:
            raise PositionError(f"{square_name(geo, square)} holds both {what[square]} and {name}")
        what[square] = name

    obstacle_text = fields.get("obstacles", "-")
    if obstacle_text.lower() == "basic":
        obstacles = list(basic_setup(size).obstacles)
    else:
        obstacles = _squares(geo, "obstacles", obstacle_text)
    for square in obstacles:
        place(square, "an obstacle")
    wrecks = _squares(geo, "wrecks", fields.get("wrecks", "-"))
    for square in wrecks:
        place(square, "a wreck")
    tanks: list[tuple[int, int, int, int]] = []
    for side, key in enumerate(SIDE_KEYS):
        if key not in fields:
            example = ("Ch1N,Lc3N", "Ci16S,Ld14S")[side]
            raise PositionError(f"the position has no {key} tanks (e.g. {key}={example})")
        commands = 0
        value = fields[key]
        for item in [] if value in ("-", "") else value.split(","):
            match = _TANK.fullmatch(item)
            if match is None:
                raise PositionError(
                    f"{key} tank {item!r} is not type, square and facing (like Hc1N or Lc3NE)"
                )
            letter, square_text, facing_text = match.groups()
            if letter.upper() not in KIND_LETTERS:
                raise PositionError(
                    f"{key} tank {item!r}: unknown type {letter!r} (types: {' '.join(KIND_LETTERS)})"
                )
            try:
                square = parse_square(geo, square_text.lower())
            except ValueError as exc:
                raise PositionError(f"{key} tank {item!r}: {exc}") from None
            kind = KIND_LETTERS.index(letter.upper())
            place(square, f"a {key} {KIND_NAMES[kind]} tank")
            commands += kind == COMMAND
            tanks.append((side, kind, square, FACING_NAMES.index(facing_text.upper())))
        if commands != 1:
            have = "no" if commands == 0 else str(commands)
            raise PositionError(
                f"{key} has {have} Command tank{'s' if commands > 1 else ''} (each side has exactly one)"
            )
    tanks.sort(key=lambda t: t[2])
    return Setup(size, turn, ply, frozenset(obstacles), frozenset(wrecks), tuple(tanks))


def format_position(setup: Setup) -> str:
    """The canonical position notation of ``setup``.

    >>> format_position(parse_position("black=Ci16S white=Lc3ne,Ch1n ply=3"))
    'size=16 turn=white ply=3 obstacles=- wrecks=- white=Ch1N,Lc3NE black=Ci16S'
    """
    geo = GEOMETRY[setup.size]

    def squares(items: frozenset[int]) -> str:
        return ",".join(square_name(geo, s) for s in sorted(items)) or "-"

    def tanks(side: int) -> str:
        return (
            ",".join(
                KIND_LETTERS[kind] + square_name(geo, square) + FACING_NAMES[facing]
                for s, kind, square, facing in setup.tanks
                if s == side
            )
            or "-"
        )

    return (
        f"size={setup.size} turn={SIDE_KEYS[setup.turn]} ply={setup.ply} "
        f"obstacles={squares(setup.obstacles)} wrecks={squares(setup.wrecks)} "
        f"white={tanks(WHITE)} black={tanks(BLACK)}"
    )


@functools.cache
def basic_setup(size: int) -> Setup:
    """The start position of the basic side of the board of ``size``, from its setup file.

    >>> setup = basic_setup(16)
    >>> len(setup.obstacles), len(setup.tanks)
    (50, 20)
    >>> len(basic_setup(20).tanks)
    28
    """
    if size not in SIZES:
        raise PositionError(f"size {size}: the board is 16 or 20 squares a side")
    text = (
        resources.files("tussle.games.tank_chess").joinpath("setups", f"basic{size}.txt").read_text("utf-8")
    )
    return parse_position(text)
