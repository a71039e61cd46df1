"""Tank Chess's tank types as data: each type's speed, gun, armour and how it shoots.

The six types keep their letters (``L M H C D R``: setups, positions and the
notation name tanks by them), and the ``tanks`` option takes a document (TOML,
or JSON) that changes their figures, a table per type letter::

    [H]                    # the Heavy
    speed = 3              # steps a turn: 1 to 5
    gun = 3                # 1 to 5 (I to V)
    armour = [3, 2, 1]     # front, side, rear: 0 to 5 each
    turret = true          # true: ahead or 45 degrees to either side; false: straight ahead only

    [R]                    # the Heavy Mortar: a range instead of a turret
    range = [3, 5]         # the squares straight ahead it hits, over anything: 2 to 5

A type or a key left out keeps the rules' figure. The rules' six types are the
shipped document ``standard`` (``tanks.toml`` here). A game reads its types
from its geometry (``Geometry.types``, :func:`.board.geometry`), one per board
size and distinct table, so the move generator's lookups stay tuple indexing.
docs/games/tank-chess.md ("Custom tank types") has the format and its rulings.

>>> types = load_tanks("[L]\\ngun = 5\\n[R]\\nrange = [2, 4]", "option tanks")
>>> types.gun, types.mortar_range, types.speed == STANDARD_TANKS.speed
((5, 2, 3, 1, 4, 5), (2, 4), True)
>>> load_tanks("[H]\\narmour = [3, 2]", "option tanks")
Traceback (most recent call last):
...
tussle.errors.OptionError: option tanks: type H: armour is [3, 2], not [front, side, rear] of 0 to 5 each
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from tussle.errors import OptionError, shorten
from tussle.game import document_bool, document_int, document_table, read_document

# --- the kinds --------------------------------------------------------------------
# A tank's kind is a number (three bits of its board code, see .board); the letters
# name them in setups, positions, the notation and the tanks document.

LIGHT, MEDIUM, HEAVY, COMMAND, DESTROYER, MORTAR = range(6)
KIND_LETTERS = "LMHCDR"
KIND_NAMES = ("Light", "Medium", "Heavy", "Command", "Tank Destroyer", "Heavy Mortar")
KINDS = len(KIND_LETTERS)

#: The fastest a tank may be. The movement search takes a tank's own square as
#: taken (it cannot leave it and come back within a turn, which takes six steps),
#: and the RL encodings number a move by an offset of up to 5 squares each way.
MAX_SPEED = 5
#: The strongest gun (V), and the thickest armour: armour V stops every gun.
MAX_GUN = 5
MAX_ARMOUR = 5
#: The Heavy Mortar's range: never an adjacent square (no gun shoots one), and at
#: most 5, the farthest shot the RL encodings number apart from a gun's.
MORTAR_SPAN = (2, 5)
#: The keys of a type's table: the Heavy Mortar's has ``range`` where the others have ``turret``.
GUN_KEYS = ("speed", "gun", "armour", "turret")
MORTAR_KEYS = ("speed", "gun", "armour", "range")


def armour_side(facing: int, direction: int) -> int:
    """Which armour (0 front, 1 side, 2 rear) a shot travelling in ``direction`` hits.

    The front is hit only by a shot coming from straight ahead of the target
    (travelling against its facing), the rear only from straight behind; the
    six other directions hit the side, for a diagonal facing too. Facings and
    directions are 0 to 7 clockwise from north.

    >>> N, NE, S, SW = 0, 1, 4, 5
    >>> armour_side(N, S), armour_side(N, N), armour_side(NE, SW), armour_side(NE, S)
    (0, 2, 0, 1)
    """
    if direction == facing ^ 4:
        return 0
    if direction == facing:
        return 2
    return 1


@dataclass(frozen=True, slots=True)
class TankTypes:
    """The figures of the six kinds, indexed by kind, and the move generator's tables made from them.

    Two tables with the same figures are equal (and hash alike), whatever
    document they were read from; the tables made from them take no part.
    """

    speed: tuple[int, ...]
    gun: tuple[int, ...]
    #: (front, side, rear) armour.
    armour: tuple[tuple[int, int, int], ...]
    #: Whether the gun turns: a turret shoots ahead or 45 degrees to either side, a fixed gun
    #: only ahead (the Heavy Mortar's is fixed: it shoots by range).
    turret: tuple[bool, ...]
    #: The nearest and farthest squares straight ahead that the Heavy Mortar hits.
    mortar_range: tuple[int, int]
    #: ``kills[gun][kind << 3 | facing]``: bit ``d`` is set when that gun destroys such a
    #: tank with a shot travelling in direction ``d``.
    kills: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)
    #: ``arc[kind][facing]``: bit ``d`` is set when the tank can shoot in direction ``d``.
    arc: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)
    #: ``lanes[kind << 3 | facing][direction]``: bit ``8 * gun + direction`` set for every
    #: gun that destroys such a tank with a shot travelling in that direction, so that one
    #: walk along a line serves the tanks of every gun.
    lanes: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)
    #: Shots tried per movement state when sampling, by kind: the three directions of a
    #: turret, the one of a fixed gun, the Heavy Mortar's ranges.
    shot_slots: tuple[int, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        armour = self.armour
        kills = tuple(
            tuple(
                sum(1 << d for d in range(8) if gun > armour[kf >> 3][armour_side(kf & 7, d)])
                if kf >> 3 < KINDS
                else 0
                for kf in range(64)
            )
            for gun in range(MAX_GUN + 1)
        )
        object.__setattr__(self, "kills", kills)
        object.__setattr__(
            self,
            "arc",
            tuple(
                tuple(
                    (1 << f | 1 << ((f + 1) & 7) | 1 << ((f - 1) & 7)) if self.turret[kind] else 1 << f
                    for f in range(8)
                )
                for kind in range(KINDS)
            ),
        )
        object.__setattr__(
            self,
            "lanes",
            tuple(
                tuple(
                    sum(1 << (8 * gun + d) for gun in range(1, MAX_GUN + 1) if kills[gun][kf] >> d & 1)
                    for d in range(8)
                )
                for kf in range(64)
            ),
        )
        near, far = self.mortar_range
        object.__setattr__(
            self,
            "shot_slots",
            tuple(
                3 if self.turret[kind] else far - near + 1 if kind == MORTAR else 1 for kind in range(KINDS)
            ),
        )

    def figures(self, kind: int) -> dict[str, Any]:
        """The figures of ``kind`` as its table in a document writes them.

        >>> STANDARD_TANKS.figures(MORTAR)
        {'speed': 3, 'gun': 5, 'armour': [1, 0, 0], 'range': [3, 5]}
        """
        out: dict[str, Any] = {
            "speed": self.speed[kind],
            "gun": self.gun[kind],
            "armour": [*self.armour[kind]],
        }
        if kind == MORTAR:
            out["range"] = [*self.mortar_range]
        else:
            out["turret"] = self.turret[kind]
        return out


#: The rules' six types (docs/games/tank-chess.md, the rules' table of tanks).
STANDARD_TANKS = TankTypes(
    speed=(5, 4, 3, 5, 4, 3),
    gun=(1, 2, 3, 1, 4, 5),
    armour=((1, 0, 0), (2, 1, 0), (3, 2, 1), (1, 0, 0), (2, 1, 0), (1, 0, 0)),
    turret=(True, True, True, True, False, False),
    mortar_range=(3, 5),
)


def standard_text() -> str:
    """The shipped ``standard`` document: the rules' six types."""
    return resources.files("tussle.games.tank_chess").joinpath("tanks.toml").read_text(encoding="utf-8")


@functools.lru_cache(maxsize=16)
def load_tanks(text: str, where: str) -> TankTypes:
    """The types a document's text gives; a one-line OptionError starting with ``where``.

    Read once per distinct text: a server or a pool of workers builds the game
    anew for every computer move.
    """
    data = document_table(read_document(text, where), where, KIND_LETTERS)
    base = STANDARD_TANKS
    speed, gun, armour, turret = [*base.speed], [*base.gun], [*base.armour], [*base.turret]
    mortar_range = base.mortar_range
    for kind, letter in enumerate(KIND_LETTERS):
        if letter not in data:
            continue
        here = f"{where}: type {letter}"
        table = document_table(data[letter], here, MORTAR_KEYS if kind == MORTAR else GUN_KEYS)
        speed[kind] = document_int(table, "speed", here, (1, MAX_SPEED), speed[kind])
        gun[kind] = document_int(table, "gun", here, (1, MAX_GUN), gun[kind])
        if "armour" in table:
            armour[kind] = _armour(table["armour"], here)
        if kind == MORTAR:
            if "range" in table:
                mortar_range = _range(table["range"], here)
        else:
            turret[kind] = document_bool(table, "turret", here, turret[kind])
    return TankTypes(tuple(speed), tuple(gun), tuple(armour), tuple(turret), mortar_range)


def _armour(value: object, where: str) -> tuple[int, int, int]:
    if (
        not isinstance(value, list)
        or len(value) != 3
        or not all(type(v) is int and 0 <= v <= MAX_ARMOUR for v in value)
    ):
        raise OptionError(
            f"{where}: armour is {shorten(value)}, not [front, side, rear] of 0 to {MAX_ARMOUR} each"
        )
    return value[0], value[1], value[2]


def _range(value: object, where: str) -> tuple[int, int]:
    low, high = MORTAR_SPAN
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(type(v) is int for v in value)
        or not low <= value[0] <= value[1] <= high
    ):
        raise OptionError(
            f"{where}: range is {shorten(value)}, not [nearest, farthest] squares ahead "
            f"from {low} to {high}, nearest first"
        )
    return value[0], value[1]
