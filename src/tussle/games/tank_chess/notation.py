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
from dataclasses import dataclass
from importlib import resources

from tussle.errors import ActionError, PositionError
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
    rf"([lmhcdr])?({_SQUARE})(?:-({_SQUARE}|off))?(ne|nw|se|sw|n|e|s|w)?(?:x({_SQUARE}))?",
)
#: How a turn is written, for error messages: a format, as examples with squares may be illegal here.
MOVE_FORMAT = "write <tank><from>-<to><facing>, and x<target> if it shoots"


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
    if not isinstance(text, str):
        raise ActionError(f"{text!r} is not a move ({MOVE_FORMAT})")
    compact = "".join(text.split()).lower()
    match = _MOVE.fullmatch(compact)
    if match is None:
        raise ActionError(f"{text!r} is not a move ({MOVE_FORMAT})")
    letter, start_text, dest_text, facing_text, target_text = match.groups()
    try:
        start = parse_square(geo, start_text)
        dest = parse_square(geo, dest_text) if dest_text not in (None, "off") else start
        target = parse_square(geo, target_text) if target_text else NO_TARGET
    except ValueError as exc:
        raise ActionError(f"{text!r}: {exc}") from None
    code = board[start]
    if code < TANK:
        raise ActionError(f"{text!r}: there is no tank on {start_text}")
    kind = code_kind(code)
    if letter is not None and KIND_LETTERS.index(letter.upper()) != kind:
        raise ActionError(
            f"{text!r}: the tank on {start_text} is a {KIND_NAMES[kind]} tank ({KIND_LETTERS[kind]}), "
            f"not a {KIND_NAMES[KIND_LETTERS.index(letter.upper())]} tank"
        )
    if code_side(code) != side:
        raise ActionError(f"{text!r}: the tank on {start_text} is {SIDE_NAMES[code_side(code)]}'s")
    if dest_text == "off":
        if facing_text or target_text:
            raise ActionError(f"{text!r}: a tank that drives off the board takes no facing and no shot")
        return encode(start, ESCAPE)
    if dest_text is None and facing_text is None:
        raise ActionError(f"{text!r}: give a destination, a facing or both ({MOVE_FORMAT})")
    facing = FACING_NAMES.index(facing_text.upper()) if facing_text else code_facing(code)
    return encode(start, dest * 8 + facing, target)


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
