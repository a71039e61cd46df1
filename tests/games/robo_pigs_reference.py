"""A deliberately simple second Robo Battle Pigs, for tests only.

It shares no code with ``tussle.games.robo_pigs``: squares are ``(file, rank)``
pairs counted from 0 (``a1`` is ``(0, 0)``), facings the letters N, E, S, W,
commands the rule text's symbols, and every rule is written out the way the rule
text and the game's rulings (docs/games/robo-pigs.md) say it, one case at a time.
Slow and obvious on purpose: when it and the game's tables agree, both are very
likely right.
"""

from __future__ import annotations

from itertools import product
from math import comb

Square = tuple[int, int]

LETTERS = "abcdefgh"
FACINGS = "NESW"
STEP = {"N": (0, 1), "E": (1, 0), "S": (0, -1), "W": (-1, 0)}
LEFT_OF = {"N": "W", "E": "N", "S": "E", "W": "S"}
RIGHT_OF = {"N": "E", "E": "S", "S": "W", "W": "N"}
MOVES = ("^", "v", "\\", "/")
#: The commands a program may use freely, and the two that the damage and the repair ask for.
FREE = ("^", "v", "\\", "/", "TL", "TR", "F", "H")
LETHAL = 5


def name(sq: Square) -> str:
    return LETTERS[sq[0]] + str(sq[1] + 1)


def square(text: str) -> Square:
    return LETTERS.index(text[0]), int(text[1]) - 1


def on_board(sq: Square) -> bool:
    return 0 <= sq[0] < 8 and 0 <= sq[1] < 8


def add(sq: Square, *deltas: tuple[int, int]) -> Square:
    return sq[0] + sum(d[0] for d in deltas), sq[1] + sum(d[1] for d in deltas)


def destination(sq: Square, facing: str, command: str) -> Square | None:
    """Where a move would take a pig (off the board or not); None if the command is no move."""
    ahead, left, right = STEP[facing], STEP[LEFT_OF[facing]], STEP[RIGHT_OF[facing]]
    if command == "^":
        return add(sq, ahead)
    if command == "v":
        return add(sq, (-ahead[0], -ahead[1]))
    if command == "\\":
        return add(sq, ahead, left)
    if command == "/":
        return add(sq, ahead, right)
    return None


def resolve_moves(squares: list[Square], facings: list[str], commands: list[str]) -> list[Square]:
    """Where the pigs stand after one step's movement, by the collision rules.

    A move off the board is no move at all (the pig stays, and counts as not
    moving for the other pig); two pigs that would end on one square, or pass
    through each other, both stay; a pig moving onto a pig that does not move
    stays; anything else happens.
    """
    wanted: list[Square | None] = []
    for p in (0, 1):
        target = destination(squares[p], facings[p], commands[p])
        wanted.append(target if target is not None and on_board(target) else None)
    a, b = wanted
    if a is not None and b is not None:
        if a == b or (a == squares[1] and b == squares[0]):
            return list(squares)
        return [a, b]
    if a is not None:
        return [squares[0] if a == squares[1] else a, squares[1]]
    if b is not None:
        return [squares[0], squares[1] if b == squares[0] else b]
    return list(squares)


def turned(facing: str, command: str) -> str:
    if command == "TL":
        return LEFT_OF[facing]
    if command == "TR":
        return RIGHT_OF[facing]
    return facing


def reach(sq: Square, facing: str, command: str) -> set[Square]:
    """The squares a Fire (any range straight ahead) or a Hit (the three in front) reaches."""
    if command == "F":
        out = set()
        here = add(sq, STEP[facing])
        while on_board(here):
            out.add(here)
            here = add(here, STEP[facing])
        return out
    if command == "H":
        fronts = (destination(sq, facing, c) for c in ("^", "\\", "/"))
        return {t for t in fronts if t is not None and on_board(t)}
    return set()


def play_round(
    squares: list[Square], facings: list[str], damage: list[int], programs: list[list[str]]
) -> list[tuple[list[Square], list[str], list[int]]]:
    """Each step's squares, facings and damage, in order; the round stops when a pig reaches five.

    Within a step, movement and turns first, then Fire and Hit from where the pigs
    now stand. R and X do nothing during the steps (a repair counts between rounds).
    """
    squares, facings, damage = list(squares), list(facings), list(damage)
    steps = []
    for commands in zip(*programs, strict=True):
        squares = resolve_moves(squares, facings, list(commands))
        facings = [turned(facings[p], commands[p]) for p in (0, 1)]
        hits = [squares[1 - p] in reach(squares[p], facings[p], commands[p]) for p in (0, 1)]
        damage = [damage[p] + hits[1 - p] for p in (0, 1)]
        steps.append((squares, facings, damage))
        if max(damage) >= LETHAL:
            break
    return steps


def program_allowed(commands: list[str], damage: int, extra_x: bool) -> bool:
    """Whether a pig with ``damage`` may send ``commands``, by the rule text.

    One X per point of damage, and no more (at least that many with ``extra_x``);
    or R R R R R, for a damaged pig only; R nowhere else.
    """
    if len(commands) != 5 or any(c not in (*FREE, "X", "R") for c in commands):
        return False
    if commands == ["R"] * 5:
        return damage > 0
    if "R" in commands:
        return False
    xs = commands.count("X")
    return xs == damage or (extra_x and xs > damage)


def count_programs(damage: int, extra_x: bool) -> int:
    """How many programs a pig with ``damage`` may send, by formula.

    With exactly ``k`` X: choose their steps, then one of the eight free commands
    for each other step; plus R R R R R when damaged.
    """
    counts = range(damage, 6) if extra_x else [damage]
    return int(sum(comb(5, k) * pow(len(FREE), 5 - k) for k in counts)) + (1 if damage > 0 else 0)


def every_program(damage: int, extra_x: bool) -> list[list[str]]:
    """Every allowed program, found by trying every five commands (slow: for the small cases)."""
    return [
        list(p) for p in product((*FREE, "X", "R"), repeat=5) if program_allowed(list(p), damage, extra_x)
    ]
