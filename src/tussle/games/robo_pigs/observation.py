"""What a seat of Robo Battle Pigs sees: the shape of ``RoboPigsState.observation``, declared once.

The dict, its text (``render.py``), the browser drawing (``web.js``) and the RL
arrays (``encoding.py``) all read this shape. A program appears twice where one is
shown: in notation, for people, and in its structured form
(:class:`~tussle.games.robo_pigs.actions.Program`), for programs that draw it.
"""

from __future__ import annotations

from typing import NotRequired, TypedDict

from tussle.game import JSON
from tussle.games.robo_pigs.actions import ProgramJSON


class PigJSON(TypedDict):
    """One pig: its letter, square (``d8``), facing (``N``, ``E``, ``S``, ``W``) and damage."""

    name: str
    square: str
    facing: str
    damage: int


class OptionsJSON(TypedDict):
    """The options that change what a pig may write or when a repair counts."""

    repair_at: str
    extra_x: bool
    round_limit: int
    #: Only in the variants with shorter programs or a lower damage limit (5 and 5 otherwise).
    program_length: NotRequired[int]
    damage_limit: NotRequired[int]


class StepJSON(TypedDict):
    """One step of a revealed round, both pigs' parts index for index (pig A first)."""

    commands: list[str]
    squares: list[str]
    facings: list[str]
    damage: list[int]
    hit: list[bool]
    moved: list[bool]
    blocked: list[str | None]


class LastRoundJSON(TypedDict):
    """The round just played, public once both programs are revealed."""

    round: int
    programs: list[str]
    moves: list[ProgramJSON]
    damage_before: list[int]
    repaired: list[bool]
    steps: list[StepJSON]


class BoardJSON(TypedDict):
    """A board other than the rules' (the board option): its size and its walls' squares."""

    width: int
    height: int
    walls: list[str]


class RoboPigsObservation(TypedDict):
    """Everything public, plus the seat's own program once sent (never the other pig's)."""

    game: str
    player: int
    round: int
    options: OptionsJSON
    pigs: list[PigJSON]
    my_program: str | None
    my_move: ProgramJSON | None
    last_round: LastRoundJSON | None
    result: JSON
    board: NotRequired[BoardJSON]
    """Only on a board other than the rules' (the views of the rules' board stay as they were)."""
