"""Fightopia's setups as documents: the starting position a game begins from.

The ``setup`` option takes the text of a position before anybody has moved: the
board as the position notation writes it (:mod:`tussle.games.fightopia.notation`),
one line per rank from rank 8 down or the ranks joined by ``/``, optionally
followed by ``- 0`` (the first player not yet drawn, no plies played). Lines that
start with ``#`` and blank lines are left out. The rules' own setup is the
shipped document ``standard`` (``setup.txt`` here). docs/games/fightopia.md
("Custom setups") has the format and its rulings.

>>> setup_position("# two Tanks each\\n4gg2/v3gg2/v7/8/8/7V/2GG3V/2GG4")
'4gg2/v3gg2/v7/8/8/7V/2GG3V/2GG4 - 0'
>>> setup_position("8/8/8/8/8/8/8/8 w 0")
Traceback (most recent call last):
...
tussle.errors.PositionError: a setup is a position before the first player is drawn: '- 0', not 'w 0'
"""

from __future__ import annotations

from importlib import resources

from tussle.errors import PositionError, shorten
from tussle.games.fightopia.board import SIZE

#: The longest line a setup may have: a rank of the board, or the whole position.
MAX_LINE = 200


def setup_position(text: str) -> str:
    """The position notation of the setup ``text`` (a PositionError, in one line, if it is not one).

    Only the form is read here: the game checks the pieces (:meth:`Fightopia.state_from_position`).
    """
    lines = [line.strip() for line in text.splitlines()]
    lines = [line for line in lines if line and not line.startswith("#")]
    if not lines:
        raise PositionError("the setup holds no board (only comments or blank lines)")
    for line in lines:
        if len(line) > MAX_LINE:
            raise PositionError(f"a line of {len(line):,} characters is too long for a setup")
    if len(lines) == 1:
        board, _, rest = lines[0].partition(" ")
    elif len(lines) in (SIZE, SIZE + 1):
        if any(" " in line for line in lines[:SIZE]):
            raise PositionError(f"a setup written a rank a line has {SIZE} lines of squares, without spaces")
        board, rest = "/".join(lines[:SIZE]), (lines[SIZE] if len(lines) > SIZE else "")
    else:
        raise PositionError(
            f"a setup is the board on one line, or {SIZE} lines of a rank each, not {len(lines)} lines"
        )
    rest = " ".join(rest.split()) or "- 0"
    if rest != "- 0":
        raise PositionError(
            f"a setup is a position before the first player is drawn: '- 0', not {shorten(rest)}"
        )
    return f"{board} - 0"


def standard_text() -> str:
    """The shipped ``standard`` document: the rules' own setup."""
    return resources.files("tussle.games.fightopia").joinpath("setup.txt").read_text(encoding="utf-8")
