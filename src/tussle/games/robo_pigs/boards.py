"""Robo Battle Pigs' boards as data: the size, the walls and where the pigs start.

The ``board`` option takes a document (TOML, or JSON) such as::

    size = [6, 6]            # files a.. across, ranks 1.. up: 4 to 8 each
    walls = ["c3", "d4"]     # squares no pig enters and no laser crosses
    a = "c6S"                # pig A's start: square and facing (N, E, S, W)
    b = "d1N"

The rules' board is the shipped document ``standard`` (``board.toml`` here).
Squares keep the numbers of the 8x8 board (``y * 8 + x``) on every board, so a
smaller board is the part of it from a1 up to its far corner, and positions,
programs and records read as they do on the rules' board. docs/games/robo-pigs.md
("Custom boards") has the format and its rulings.

>>> board = load_board('size = [5, 4]\\nwalls = ["c2"]\\na = "a4E"\\nb = "e1W"', "option board")
>>> board.width, board.height, sorted(board.walls), board.starts
(5, 4, [10], ((24, 1), (4, 3)))
>>> load_board('size = [5, 4]\\na = "a4E"\\nb = "e5W"', "option board")
Traceback (most recent call last):
...
tussle.errors.OptionError: option board: pig B's start e5 is off the 5x4 board (a1 to e4)
"""

from __future__ import annotations

import functools
from collections import deque
from dataclasses import dataclass
from importlib import resources

from tussle.errors import OptionError, shorten
from tussle.game import document_table, read_document

#: The numbering of the squares: that of the largest board, 8x8 (``y * GRID + x``).
GRID = 8
#: The smallest board side: room for the pigs to move and aim.
MIN_SIDE = 4
FILES = "abcdefgh"
FACINGS = "NESW"
#: The keys of a board document.
KEYS = ("size", "walls", "a", "b")


@dataclass(frozen=True)
class Board:
    """A board: its width (files) and height (ranks), its wall squares and the pigs' start poses."""

    width: int
    height: int
    walls: frozenset[int]
    #: (square, facing) of pig A and of pig B.
    starts: tuple[tuple[int, int], tuple[int, int]]

    def inside(self, x: int, y: int) -> bool:
        """Whether a pig may stand on the square at file ``x``, rank ``y + 1``."""
        return 0 <= x < self.width and 0 <= y < self.height and y * GRID + x not in self.walls

    def on_board(self, square: int) -> bool:
        """Whether ``square`` is a square of this board a pig may stand on (not a wall)."""
        return 0 <= square < GRID * GRID and self.inside(square % GRID, square // GRID)

    def corner(self) -> str:
        """The far corner's name (``h8`` on the rules' board)."""
        return FILES[self.width - 1] + str(self.height)


#: The rules' board: 8x8, no walls, A on d8 facing south and B on e1 facing north.
STANDARD_BOARD = Board(8, 8, frozenset(), ((59, 2), (4, 0)))


def standard_text() -> str:
    """The shipped ``standard`` document: the rules' board."""
    return resources.files("tussle.games.robo_pigs").joinpath("board.toml").read_text(encoding="utf-8")


@functools.lru_cache(maxsize=16)
def load_board(text: str, where: str) -> Board:
    """The board a document's text describes; a one-line OptionError starting with ``where``."""
    data = document_table(read_document(text, where), where, KEYS)
    size = data.get("size", [GRID, GRID])
    if (
        not isinstance(size, list)
        or len(size) != 2
        or not all(type(side) is int and MIN_SIDE <= side <= GRID for side in size)
    ):
        raise OptionError(
            f"{where}: size is {shorten(size)}, not [width, height] of {MIN_SIDE} to {GRID} squares each"
        )
    width, height = size
    shape = Board(width, height, frozenset(), ((0, 0), (0, 0)))
    span = f"the {width}x{height} board (a1 to {shape.corner()})"
    walls = data.get("walls", [])
    if not isinstance(walls, list):
        raise OptionError(f'{where}: walls is {shorten(walls)}, not a list of squares like "d4"')
    wall_squares: set[int] = set()
    for name in walls:
        square = _square(name, f"{where}: the wall", span, shape)
        if square in wall_squares:
            raise OptionError(f"{where}: the wall {name} is listed twice")
        wall_squares.add(square)
    starts = []
    for key, pig in (("a", "A"), ("b", "B")):
        if key not in data:
            raise OptionError(f'{where}: it gives no start for pig {pig} (like {key} = "d8S")')
        value = data[key]
        if not isinstance(value, str) or len(value) < 3 or value[-1].upper() not in FACINGS:
            raise OptionError(
                f'{where}: pig {pig}\'s start is {shorten(value)}, not a square and a facing like "d8S"'
            )
        square = _square(value[:-1], f"{where}: pig {pig}'s start", span, shape)
        if square in wall_squares:
            raise OptionError(f"{where}: pig {pig} starts on the wall {value[:-1]}")
        starts.append((square, FACINGS.index(value[-1].upper())))
    if starts[0][0] == starts[1][0]:
        square = starts[0][0]
        raise OptionError(f"{where}: both pigs start on {FILES[square % GRID]}{square // GRID + 1}")
    board = Board(width, height, frozenset(wall_squares), (starts[0], starts[1]))
    if not _connected(board):
        raise OptionError(f"{where}: the walls shut the pigs apart: neither can ever reach the other")
    return board


def _square(name: object, what: str, span: str, shape: Board) -> int:
    """The number of the square ``name`` (``d4``) on a board of ``shape``'s size."""
    text = name.strip().lower() if isinstance(name, str) else ""
    if len(text) != 2 or text[0] not in FILES or text[1] not in "12345678":
        raise OptionError(f"{what} {shorten(name)} is not a square like d4")
    x, y = FILES.index(text[0]), int(text[1]) - 1
    if not shape.inside(x, y):
        raise OptionError(f"{what} {text} is off {span}")
    return y * GRID + x


def _connected(board: Board) -> bool:
    """Whether pig A could walk to pig B's square (orthogonal steps, around the walls)."""
    start, goal = board.starts[0][0], board.starts[1][0]
    seen = {start}
    queue = deque([start])
    while queue:
        square = queue.popleft()
        if square == goal:
            return True
        x, y = square % GRID, square // GRID
        for nx, ny in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if board.inside(nx, ny) and ny * GRID + nx not in seen:
                seen.add(ny * GRID + nx)
                queue.append(ny * GRID + nx)
    return False
