"""A deliberately simple Tank Chess, written straight from the rules, to check the fast one.

Nothing here is shared with ``tussle.games.tank_chess``: it reads and writes the
same position and move notation, but keeps the board as a dict of squares,
tries every sequence of steps one by one, and walks every line of fire square
by square. It is slow and meant to be obviously right.
"""

from __future__ import annotations

from dataclasses import dataclass, field

FILES = "abcdefghijklmnopqrst"
FACINGS = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"]
VECTORS = {
    "N": (0, 1),
    "NE": (1, 1),
    "E": (1, 0),
    "SE": (1, -1),
    "S": (0, -1),
    "SW": (-1, -1),
    "W": (-1, 0),
    "NW": (-1, 1),
}
SPEED = {"L": 5, "M": 4, "H": 3, "C": 5, "D": 4, "R": 3}
GUN = {"L": 1, "M": 2, "H": 3, "C": 1, "D": 4, "R": 5}
FRONT = {"L": 1, "M": 2, "H": 3, "C": 1, "D": 2, "R": 1}
SIDE = {"L": 0, "M": 1, "H": 2, "C": 0, "D": 1, "R": 0}
REAR = {"L": 0, "M": 0, "H": 1, "C": 0, "D": 0, "R": 0}
FIXED_GUN = {"D", "R"}
#: The squares straight ahead the Heavy Mortar hits, nearest and farthest.
MORTAR_RANGE = (3, 5)


@dataclass(frozen=True)
class Tank:
    side: str  # "white" or "black"
    kind: str  # L M H C D R
    facing: str  # N NE ...


@dataclass
class Position:
    size: int
    turn: str
    ply: int
    obstacles: set[tuple[int, int]] = field(default_factory=set)
    wrecks: set[tuple[int, int]] = field(default_factory=set)
    tanks: dict[tuple[int, int], Tank] = field(default_factory=dict)


def name(sq: tuple[int, int]) -> str:
    return FILES[sq[0]] + str(sq[1] + 1)


def square(text: str) -> tuple[int, int]:
    return FILES.index(text[0]), int(text[1:]) - 1


def read(text: str) -> Position:
    """Read a canonical position (every field given, as the fast implementation writes it)."""
    fields = dict(word.split("=", 1) for word in text.split())
    pos = Position(int(fields["size"]), fields["turn"], int(fields["ply"]))
    for key, target in (("obstacles", pos.obstacles), ("wrecks", pos.wrecks)):
        if fields[key] != "-":
            target.update(square(s) for s in fields[key].split(","))
    for side in ("white", "black"):
        for item in fields[side].split(","):
            kind = item[0]
            rest = item[1:]
            digits_end = 1
            while rest[digits_end].isdigit():
                digits_end += 1
            pos.tanks[square(rest[:digits_end])] = Tank(side, kind, rest[digits_end:])
    return pos


def write(pos: Position) -> str:
    def order(sq: tuple[int, int]) -> tuple[int, int]:
        return sq[1], sq[0]

    def squares(items: set[tuple[int, int]]) -> str:
        return ",".join(name(s) for s in sorted(items, key=order)) or "-"

    def tanks(side: str) -> str:
        return (
            ",".join(
                t.kind + name(s) + t.facing
                for s, t in sorted(pos.tanks.items(), key=lambda i: order(i[0]))
                if t.side == side
            )
            or "-"
        )

    return (
        f"size={pos.size} turn={pos.turn} ply={pos.ply} obstacles={squares(pos.obstacles)} "
        f"wrecks={squares(pos.wrecks)} white={tanks('white')} black={tanks('black')}"
    )


def on_board(pos: Position, sq: tuple[int, int]) -> bool:
    return 0 <= sq[0] < pos.size and 0 <= sq[1] < pos.size


def is_empty(pos: Position, sq: tuple[int, int], moving_from: tuple[int, int]) -> bool:
    if sq == moving_from:
        return True  # the moving tank has left its square
    return sq not in pos.obstacles and sq not in pos.wrecks and sq not in pos.tanks


def turn(facing: str, by: int) -> str:
    return FACINGS[(FACINGS.index(facing) + by) % 8]


def escapes(pos: Position, tank: Tank, sq: tuple[int, int], direction: str) -> bool:
    """A step in ``direction`` from ``sq`` leaves the board over the opponent's edge, not via a corner."""
    dx, dy = VECTORS[direction]
    x, y = sq[0] + dx, sq[1] + dy
    if not 0 <= x < pos.size:
        return False  # off a side edge, or diagonally through a corner
    if tank.side == "white":
        return y == pos.size
    return y == -1


def movements(pos: Position, start: tuple[int, int]) -> tuple[set[tuple[tuple[int, int], str]], bool]:
    """Every (square, facing) the tank can end on, and whether it can escape.

    Tries every sequence of steps (left, right, forward) up to the tank's speed,
    extending each sequence one step at a time.
    """
    tank = pos.tanks[start]
    ends: set[tuple[tuple[int, int], str]] = set()
    escape = False

    def walk(sq: tuple[int, int], facing: str, steps_left: int) -> None:
        nonlocal escape
        ends.add((sq, facing))
        if steps_left == 0:
            return
        walk(sq, turn(facing, -1), steps_left - 1)
        walk(sq, turn(facing, 1), steps_left - 1)
        dx, dy = VECTORS[facing]
        nxt = (sq[0] + dx, sq[1] + dy)
        if not on_board(pos, nxt):
            if tank.kind == "C" and escapes(pos, tank, sq, facing):
                escape = True  # off the board ends the game, so no steps after it
        elif is_empty(pos, nxt, start):
            walk(nxt, facing, steps_left - 1)

    walk(start, tank.facing, SPEED[tank.kind])
    dx, dy = VECTORS[tank.facing]
    back = (start[0] - dx, start[1] - dy)
    if on_board(pos, back):
        if is_empty(pos, back, start):
            ends.add((back, tank.facing))
    elif tank.kind == "C" and escapes(pos, tank, start, turn(tank.facing, 4)):
        escape = True
    ends.discard((start, tank.facing))  # a turn must change something
    return ends, escape


def armour(target: Tank, shot: str) -> int:
    if shot == turn(target.facing, 4):
        return FRONT[target.kind]  # the shot comes from straight ahead of the target
    if shot == target.facing:
        return REAR[target.kind]
    return SIDE[target.kind]


def first_tank_in_line(
    pos: Position, start: tuple[int, int], sq: tuple[int, int], shot: str
) -> tuple[int, int] | None:
    """The tank a shot from ``sq`` in direction ``shot`` would meet, if the line up to it is clear.

    The square next to the shooter must be empty: no shot at an adjacent tank.
    """
    dx, dy = VECTORS[shot]
    distance = 1
    while True:
        t = (sq[0] + dx * distance, sq[1] + dy * distance)
        if not on_board(pos, t):
            return None
        if not is_empty(pos, t, start):
            if distance > 1 and t in pos.tanks and t != start:
                return t
            return None
        distance += 1


def targets(
    pos: Position,
    start: tuple[int, int],
    sq: tuple[int, int],
    facing: str,
    lines: dict[tuple[tuple[int, int], str], tuple[int, int] | None],
) -> list[tuple[int, int]]:
    """The enemy tanks the tank from ``start``, now on ``sq`` facing ``facing``, would destroy.

    ``lines`` remembers :func:`first_tank_in_line` for this tank's squares, which
    every facing on the same square shares.
    """
    tank = pos.tanks[start]
    out = []
    if tank.kind == "R":
        dx, dy = VECTORS[facing]
        for distance in range(MORTAR_RANGE[0], MORTAR_RANGE[1] + 1):
            t = (sq[0] + dx * distance, sq[1] + dy * distance)
            if (
                t in pos.tanks
                and t != start
                and pos.tanks[t].side != tank.side
                and GUN[tank.kind] > armour(pos.tanks[t], facing)  # always, with the rules' gun V
            ):
                out.append(t)
        return out
    directions = [facing] if tank.kind in FIXED_GUN else [turn(facing, -1), facing, turn(facing, 1)]
    for shot in directions:
        if (sq, shot) not in lines:
            lines[sq, shot] = first_tank_in_line(pos, start, sq, shot)
        hit = lines[sq, shot]
        if (
            hit is not None
            and pos.tanks[hit].side != tank.side
            and GUN[tank.kind] > armour(pos.tanks[hit], shot)
        ):
            out.append(hit)
    return out


def legal_moves(pos: Position, side: str | None = None) -> set[str]:
    """The notation of every legal turn of ``side`` (the side to move by default)."""
    side = side or pos.turn
    out = set()
    for start, tank in list(pos.tanks.items()):
        if tank.side != side:
            continue
        head = tank.kind + name(start)
        ends, escape = movements(pos, start)
        lines: dict[tuple[tuple[int, int], str], tuple[int, int] | None] = {}
        if escape:
            out.add(head + "-off")
        for sq, facing in ends:
            move = f"{head}-{name(sq)}{facing}"
            out.add(move)
            for t in targets(pos, start, sq, facing, lines):
                out.add(f"{move} x{name(t)}")
    return out


def play(pos: Position, move: str) -> tuple[Position, str | None]:
    """The position after ``move`` (a legal move's notation) and the winner, if it wins."""
    new = Position(pos.size, pos.turn, pos.ply, set(pos.obstacles), set(pos.wrecks), dict(pos.tanks))
    head, _, shot = move.partition(" x")
    start_text, _, rest = head[1:].partition("-")
    start = square(start_text)
    tank = new.tanks.pop(start)
    winner = None
    if rest == "off":
        winner = tank.side
    else:
        i = 1
        while rest[i].isdigit():
            i += 1
        new.tanks[square(rest[:i])] = Tank(tank.side, tank.kind, rest[i:])
    if shot:
        victim = new.tanks.pop(square(shot))
        new.wrecks.add(square(shot))
        if victim.kind == "C":
            winner = tank.side
    new.turn = "black" if pos.turn == "white" else "white"
    new.ply += 1
    return new, winner


def announcements(pos: Position, side: str) -> tuple[bool, bool]:
    """(check, escape) for ``side``, as if it were to move now."""
    moves = legal_moves(pos, side)
    enemy_command = next(name(s) for s, t in pos.tanks.items() if t.side != side and t.kind == "C")
    check = any(m.endswith(" x" + enemy_command) for m in moves)
    escape = any(m.endswith("-off") for m in moves)
    return check, escape


def perft(pos: Position, depth: int) -> int:
    if depth == 0:
        return 1
    moves = legal_moves(pos)
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        after, winner = play(pos, move)
        total += 1 if winner else perft(after, depth - 1)
    return total
