"""The shape of a Tank Chess observation, declared once: what ``TankChessState.observation`` returns.

Plain JSON data (docs/games/tank-chess.md tells what each field means). The
game hides nothing, so every seat and a spectator get the same data but for
``player``. The text board (:mod:`.render`), the browser drawing (``web.js``)
and the RL arrays (:mod:`.encoding`) read it.
"""

from __future__ import annotations

from typing import TypedDict

from tussle.game import JSON


class Piece(TypedDict):
    """A tank as the announcements and a destroyed tank name it."""

    square: str
    side: str  # "white" or "black"
    type: str  # its type letter: L M H C D R


class TankData(Piece):
    """A tank where it stands: with its facing."""

    facing: str  # N NE E SE S SW W NW


class Armour(TypedDict):
    front: int
    side: int
    rear: int


class FireLine(TypedDict):
    """One direction a tank's gun can shoot as it stands (see ``rules.lines_of_fire``)."""

    direction: str
    squares: list[str]  # the squares a shot passes over, nearest first
    hits: list[str]  # the enemy tanks on them that the shot would destroy


class TankView(TankData):
    """An entry of ``tanks``: the tank with what the rules say of it, for drawings."""

    gun: int
    speed: int
    armour: Armour
    fire: list[FireLine]


#: The turn just played: by whom, in notation (``move``), the tank's type and where it went
#: (``to`` and ``facing`` None when a Command tank drove off), and the tank it destroyed.
LastMove = TypedDict(
    "LastMove",
    {
        "by": str,
        "move": str,
        "type": str,
        "from": str,
        "to": str | None,
        "facing": str | None,
        "destroyed": Piece | None,
    },
)


class Announced(TypedDict):
    """Check and Escape of the player who moved last, naming the tanks."""

    by: str
    check: bool
    escape: bool
    threats: list[TankData]
    target: TankData | None
    escaping: TankData | None


class TankChessObservation(TypedDict):
    game: str
    player: int
    size: int
    ply: int
    ply_limit: int
    to_move: str | None
    obstacles: list[str]
    wrecks: list[str]
    tanks: list[TankView]
    last_move: LastMove | None
    announced: Announced | None
    result: JSON  # Result.to_json(), or None while the game goes on
