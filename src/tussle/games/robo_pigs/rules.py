"""Robo Battle Pigs: the rules.

Two pigs on an 8x8 board each secretly write a program of five commands; the
programs are revealed and run step by step. Within a step all movement is
resolved first (with the collision rules), then Fire and Hit from the new
squares. A pig that has taken damage must put one X in each later program per
damage point; a program of five R repairs one point. The game ends at once when
a pig reaches five damage (both at once: a draw).

Squares are numbered ``y * 8 + x`` with ``x`` the file (a..h, left to right as
the rule text draws the board) and ``y`` the rank minus one (rank 8 at the top,
where pig A starts). Facings are 0..3 for N, E, S, W.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from itertools import combinations
from math import comb
from typing import Any

from tussle.errors import ActionError, PositionError
from tussle.game import (
    Actions,
    ChanceMode,
    Dynamics,
    Game,
    GameInfo,
    Information,
    ListActions,
    Option,
    Result,
    State,
)

SIZE = 8
STEPS = 5
LETHAL = 5
PIG_NAMES = ("A", "B")

# Commands, in the order the rule text lists them.
FWD, BACK, FWD_LEFT, FWD_RIGHT, TURN_LEFT, TURN_RIGHT, FIRE, HIT, REPAIR, DAMAGE = range(10)
SYMBOLS = ("^", "v", "\\", "/", "TL", "TR", "F", "H", "R", "X")
COMMAND_NAMES = (
    "forward",
    "backward",
    "forward left",
    "forward right",
    "turn left",
    "turn right",
    "fire",
    "hit",
    "repair",
    "damage",
)
#: The eight commands a program may use freely (not R, not X).
FREE = (FWD, BACK, FWD_LEFT, FWD_RIGHT, TURN_LEFT, TURN_RIGHT, FIRE, HIT)
MOVES = frozenset((FWD, BACK, FWD_LEFT, FWD_RIGHT))

N, E, S, W = range(4)
FACING_LETTERS = "NESW"
_DELTA = ((0, 1), (1, 0), (0, -1), (-1, 0))

Program = tuple[int, int, int, int, int]
REPAIR_PROGRAM: Program = (REPAIR,) * STEPS


def _step_target(square: int, facing: int, command: int) -> int:
    """Where ``command`` would take a pig, or -1 if it would leave the board."""
    fx, fy = _DELTA[facing]
    lx, ly = _DELTA[(facing + 3) % 4]
    rx, ry = _DELTA[(facing + 1) % 4]
    if command == FWD:
        dx, dy = fx, fy
    elif command == BACK:
        dx, dy = -fx, -fy
    elif command == FWD_LEFT:
        dx, dy = fx + lx, fy + ly
    else:
        dx, dy = fx + rx, fy + ry
    x, y = square % SIZE + dx, square // SIZE + dy
    if 0 <= x < SIZE and 0 <= y < SIZE:
        return y * SIZE + x
    return -1


# Precomputed geometry: MOVE_TARGET[square][facing][command] for the four moves,
# LASER[square][facing] and FIST[square][facing] as sets of squares hit.
MOVE_TARGET: tuple[tuple[dict[int, int], ...], ...] = tuple(
    tuple({c: _step_target(sq, f, c) for c in MOVES} for f in range(4)) for sq in range(SIZE * SIZE)
)


def _ray(square: int, facing: int) -> frozenset[int]:
    out = []
    x, y = square % SIZE, square // SIZE
    dx, dy = _DELTA[facing]
    x, y = x + dx, y + dy
    while 0 <= x < SIZE and 0 <= y < SIZE:
        out.append(y * SIZE + x)
        x, y = x + dx, y + dy
    return frozenset(out)


LASER: tuple[tuple[frozenset[int], ...], ...] = tuple(
    tuple(_ray(sq, f) for f in range(4)) for sq in range(SIZE * SIZE)
)
FIST: tuple[tuple[frozenset[int], ...], ...] = tuple(
    tuple(
        frozenset(
            t for t in (_step_target(sq, f, c) for c in (FWD, FWD_LEFT, FWD_RIGHT)) if t >= 0
        )
        for f in range(4)
    )
    for sq in range(SIZE * SIZE)
)


def square_name(square: int) -> str:
    """``0`` is ``a1``; ``63`` is ``h8``.

    >>> square_name(59)
    'd8'
    """
    return "abcdefgh"[square % SIZE] + str(square // SIZE + 1)


def parse_square(text: str) -> int:
    if len(text) != 2 or text[0] not in "abcdefgh" or text[1] not in "12345678":
        raise ValueError(text)
    return (int(text[1]) - 1) * SIZE + "abcdefgh".index(text[0])


def format_program(program: Program) -> str:
    """The canonical notation of a program: the text's symbols, space-separated.

    >>> format_program((FIRE, FWD, TURN_RIGHT, BACK, HIT))
    'F ^ TR v H'
    """
    return " ".join(SYMBOLS[c] for c in program)


_TOKENS = {s.upper(): i for i, s in enumerate(SYMBOLS)}


def parse_program(text: str) -> Program:
    """Read a program; separators are spaces or commas, letters in any case.

    >>> parse_program("f ^ tr V h") == (FIRE, FWD, TURN_RIGHT, BACK, HIT)
    True
    """
    if not isinstance(text, str):
        raise ActionError(f"{text!r} is not a program")
    tokens = text.replace(",", " ").split()
    commands = []
    for token in tokens:
        command = _TOKENS.get(token.upper())
        if command is None:
            raise ActionError(
                f"{text!r}: unknown command {token!r} (commands: {' '.join(SYMBOLS)})"
            )
        commands.append(command)
    if len(commands) != STEPS:
        raise ActionError(f"{text!r}: a program has {STEPS} commands, not {len(commands)}")
    return (commands[0], commands[1], commands[2], commands[3], commands[4])


def program_problem(program: Program, damage: int, extra_x: bool) -> str | None:
    """Why ``program`` is not legal for a pig with ``damage``, or None if it is."""
    if program == REPAIR_PROGRAM:
        return None if damage > 0 else "only a damaged pig may repair"
    if REPAIR in program:
        return "repair is R R R R R, the whole program"
    xs = program.count(DAMAGE)
    if xs < damage:
        return f"a pig with {damage} damage must play {damage} X"
    if xs > damage and not extra_x:
        return f"a pig with {damage} damage plays exactly {damage} X (option extra_x allows more)"
    return None


class Programs(Actions[Program]):
    """Every legal program for one pig, computed on demand, never listed.

    Programs are ordered by number of X, then by where the X stand, then by the
    other commands in base 8.

    >>> len(Programs(0, False)), len(Programs(1, False)), len(Programs(1, True))
    (32768, 20481, 26866)
    """

    __slots__ = ("_blocks", "_damage", "_extra_x", "_repair", "_size")

    def __init__(self, damage: int, extra_x: bool) -> None:
        self._damage = damage
        self._extra_x = extra_x
        counts = range(damage, STEPS + 1) if extra_x else range(damage, damage + 1)
        self._blocks: list[tuple[int, tuple[tuple[int, ...], ...], int]] = []
        total = 0
        for xs in counts:
            spots = tuple(combinations(range(STEPS), xs))
            size = len(spots) * len(FREE) ** (STEPS - xs)
            self._blocks.append((xs, spots, size))
            total += size
        self._repair = damage > 0
        self._size = total + (1 if self._repair else 0)

    def __len__(self) -> int:
        return self._size

    def __getitem__(self, index: int) -> Program:  # type: ignore[override]
        if index < 0:
            index += self._size
        if not 0 <= index < self._size:
            raise IndexError(index)
        for xs, spots, size in self._blocks:
            if index < size:
                per = len(FREE) ** (STEPS - xs)
                where, rest = divmod(index, per)
                x_spots = spots[where]
                out = []
                for i in range(STEPS):
                    if i in x_spots:
                        out.append(DAMAGE)
                    else:
                        rest, digit = divmod(rest, len(FREE))
                        out.append(FREE[digit])
                return (out[0], out[1], out[2], out[3], out[4])
            index -= size
        return REPAIR_PROGRAM

    def __iter__(self) -> Any:
        for i in range(self._size):
            yield self[i]

    def __contains__(self, item: object) -> bool:
        if not (isinstance(item, tuple) and len(item) == STEPS):
            return False
        if not all(isinstance(c, int) and 0 <= c < len(SYMBOLS) for c in item):
            return False
        return program_problem(item, self._damage, self._extra_x) is None  # type: ignore[arg-type]

    def __repr__(self) -> str:
        return f"Programs(damage={self._damage}, extra_x={self._extra_x}, count={self._size})"


def count_programs(damage: int, extra_x: bool) -> int:
    """How many programs a pig with ``damage`` may write."""
    counts = range(damage, STEPS + 1) if extra_x else (damage,)
    total = sum(comb(STEPS, k) * len(FREE) ** (STEPS - k) for k in counts)
    return total + (1 if damage > 0 else 0)


@dataclass(frozen=True)
class Step:
    """What one step of a round did: the commands, where the pigs ended, who was hit."""

    commands: tuple[int, int]
    squares: tuple[int, int]
    facings: tuple[int, int]
    damage: tuple[int, int]
    hits: tuple[bool, bool]  # hits[p]: pig p was damaged in this step
    moved: tuple[bool, bool]

    def to_json(self) -> dict[str, Any]:
        return {
            "commands": [SYMBOLS[c] for c in self.commands],
            "squares": [square_name(s) for s in self.squares],
            "facings": [FACING_LETTERS[f] for f in self.facings],
            "damage": list(self.damage),
            "hit": list(self.hits),
            "moved": list(self.moved),
        }


def resolve_moves(
    squares: tuple[int, int], facings: tuple[int, int], commands: tuple[int, int]
) -> tuple[int, int]:
    """The squares after one step's movement, by the five collision rules.

    A move off the board leaves the pig where it is (ruling), and such a pig
    counts as not moving for the other pig's collision.
    """
    targets = [squares[p] for p in (0, 1)]
    moving = [False, False]
    for p in (0, 1):
        if commands[p] in MOVES:
            t = MOVE_TARGET[squares[p]][facings[p]][commands[p]]
            if t >= 0:
                targets[p] = t
                moving[p] = True
    a, b = squares
    ta, tb = targets
    if moving[0] and moving[1]:
        if ta == tb:  # onto the same square: neither moves
            return a, b
        if ta == b and tb == a:  # through each other: neither moves
            return a, b
        # crossing diagonally side to side, or one moving where the other leaves
        return ta, tb
    if moving[0]:
        return (a if ta == b else ta), b  # onto a pig that stays: the mover stays
    if moving[1]:
        return a, (b if tb == a else tb)
    return a, b


class RoboPigs(Game):
    """Robo Battle Pigs for two players.

    >>> game = RoboPigs()
    >>> game.new_initial_state().position()
    'd8S0 e1N0 1'
    """

    info = GameInfo(
        id="robo-pigs",
        name="Robo Battle Pigs",
        description="Two robot pigs write secret five-command programs, then fight them out on an 8x8 board.",
        min_players=2,
        max_players=2,
        dynamics=Dynamics.SIMULTANEOUS,
        chance=ChanceMode.DETERMINISTIC,
        information=Information.IMPERFECT,
        options=(
            Option(
                "repair_at",
                "choice",
                "end",
                "when a repair round takes off its damage point: after its five steps, or before them",
                choices=("end", "start"),
            ),
            Option(
                "extra_x",
                "bool",
                False,
                "allow more X (do-nothing) commands than the pig's damage",
            ),
            Option(
                "round_limit",
                "int",
                100,
                "end the game as a draw after this many rounds (0: no limit)",
                minimum=0,
            ),
        ),
        has_position=True,
    )

    def new_initial_state(self) -> RoboPigsState:
        # The text's diagram: A on d8 facing south, B on e1 facing north.
        return RoboPigsState(self, (59, 4), (S, N), (0, 0), 1)

    def state_from_position(self, text: str) -> RoboPigsState:
        """Read ``<A> <B> <round>``, each pig as square, facing letter, damage: ``d8S0 e1N0 1``."""
        parts = text.split() if isinstance(text, str) else []
        if len(parts) != 3:
            raise PositionError(f"{text!r}: a position is '<pig A> <pig B> <round>', e.g. 'd8S0 e1N0 1'")
        squares, facings, damage = [], [], []
        for name, part in zip(PIG_NAMES, parts[:2], strict=True):
            if len(part) < 4 or part[2] not in FACING_LETTERS or not part[3:].isdigit():
                raise PositionError(f"{text!r}: pig {name} {part!r} is not square, facing (NESW), damage")
            try:
                squares.append(parse_square(part[:2]))
            except ValueError:
                raise PositionError(f"{text!r}: pig {name} is on {part[:2]!r}, not a square a1..h8") from None
            facings.append(FACING_LETTERS.index(part[2]))
            dmg = int(part[3:])
            if dmg >= LETHAL:
                raise PositionError(f"{text!r}: pig {name} has {dmg} damage; {LETHAL} ends the game")
            damage.append(dmg)
        if squares[0] == squares[1]:
            raise PositionError(f"{text!r}: both pigs are on {square_name(squares[0])}")
        if not parts[2].isdigit() or int(parts[2]) < 1:
            raise PositionError(f"{text!r}: the round {parts[2]!r} is not a number from 1")
        return RoboPigsState(
            self, (squares[0], squares[1]), (facings[0], facings[1]), (damage[0], damage[1]), int(parts[2])
        )


class RoboPigsState(State):
    """A round about to be programmed, or half programmed (one pig has submitted)."""

    __slots__ = (
        "_pending",
        "_result",
        "damage",
        "facings",
        "game",
        "last_programs",
        "last_steps",
        "round",
        "squares",
    )

    def __init__(
        self,
        game: RoboPigs,
        squares: tuple[int, int],
        facings: tuple[int, int],
        damage: tuple[int, int],
        round_number: int,
    ) -> None:
        self.game = game
        self.squares = squares
        self.facings = facings
        self.damage = damage
        self.round = round_number
        self._pending: list[Program | None] = [None, None]
        #: The programs and steps of the round just played (public once revealed).
        self.last_programs: tuple[Program, Program] | None = None
        self.last_steps: tuple[Step, ...] = ()
        self._result: Result | None = None

    # --- turn structure -----------------------------------------------------

    def to_act(self) -> tuple[int, ...]:
        if self._result is not None:
            return ()
        return tuple(p for p in (0, 1) if self._pending[p] is None)

    def player_name(self, player: int) -> str:
        return f"pig {PIG_NAMES[player]}" if player in (0, 1) else super().player_name(player)

    def legal_actions(self, player: int) -> Actions[Program]:
        if player not in self.to_act():
            return _NO_PROGRAMS
        return Programs(self.damage[player], bool(self.game.options["extra_x"]))

    def _why_illegal(self, player: int, action: Any) -> str:
        problem = program_problem(action, self.damage[player], bool(self.game.options["extra_x"]))
        return f": {problem}" if problem else ""

    def _apply(self, player: int, action: Any) -> None:
        self._pending[player] = action
        if self._pending[0] is not None and self._pending[1] is not None:
            self._run_round(self._pending[0], self._pending[1])

    def _run_round(self, prog_a: Program, prog_b: Program) -> None:
        programs = (prog_a, prog_b)
        squares = self.squares
        facings = self.facings
        damage = list(self.damage)
        repairing = [prog == REPAIR_PROGRAM for prog in programs]
        repair_at_start = self.game.options["repair_at"] == "start"
        if repair_at_start:
            for p in (0, 1):
                if repairing[p]:
                    damage[p] -= 1
        steps = []
        for i in range(STEPS):
            ca, cb = prog_a[i], prog_b[i]
            before = squares
            squares = resolve_moves(squares, facings, (ca, cb))
            fa, fb = facings
            if ca == TURN_LEFT:
                fa = (fa + 3) % 4
            elif ca == TURN_RIGHT:
                fa = (fa + 1) % 4
            if cb == TURN_LEFT:
                fb = (fb + 3) % 4
            elif cb == TURN_RIGHT:
                fb = (fb + 1) % 4
            facings = (fa, fb)
            # Attacks come after all movement, from the new squares.
            hit_b = (ca == FIRE and squares[1] in LASER[squares[0]][fa]) or (
                ca == HIT and squares[1] in FIST[squares[0]][fa]
            )
            hit_a = (cb == FIRE and squares[0] in LASER[squares[1]][fb]) or (
                cb == HIT and squares[0] in FIST[squares[1]][fb]
            )
            if hit_a:
                damage[0] += 1
            if hit_b:
                damage[1] += 1
            steps.append(
                Step(
                    (ca, cb),
                    squares,
                    facings,
                    (damage[0], damage[1]),
                    (hit_a, hit_b),
                    (squares[0] != before[0], squares[1] != before[1]),
                )
            )
            if damage[0] >= LETHAL or damage[1] >= LETHAL:
                break
        if not repair_at_start and damage[0] < LETHAL and damage[1] < LETHAL:
            for p in (0, 1):
                if repairing[p]:
                    damage[p] -= 1
        self.squares = squares
        self.facings = facings
        self.damage = (damage[0], damage[1])
        self.last_programs = programs
        self.last_steps = tuple(steps)
        self._pending = [None, None]
        self.round += 1
        dead = [damage[p] >= LETHAL for p in (0, 1)]
        if dead[0] and dead[1]:
            self._result = Result.draw(2, "both pigs reached 5 damage in the same step")
        elif dead[0] or dead[1]:
            winner = 1 if dead[0] else 0
            self._result = Result.win(winner, 2, f"pig {PIG_NAMES[1 - winner]} reached 5 damage")
        else:
            limit = self.game.options["round_limit"]
            if limit and self.round > limit:
                self._result = Result.draw(2, f"round limit of {limit} reached")

    def result(self) -> Result | None:
        return self._result

    # --- notation -----------------------------------------------------------

    def action_to_str(self, player: int, action: Any) -> str:
        return format_program(action)

    def _parse_action(self, player: int, text: str) -> Program:
        return parse_program(text)

    def position(self) -> str:
        if self._pending != [None, None]:
            raise PositionError("a position is written between rounds, not while programs are pending")
        return " ".join(
            f"{square_name(self.squares[p])}{FACING_LETTERS[self.facings[p]]}{self.damage[p]}" for p in (0, 1)
        ) + f" {self.round}"

    # --- copies and views ---------------------------------------------------

    def clone(self) -> RoboPigsState:
        other = RoboPigsState.__new__(RoboPigsState)
        other.game = self.game
        other.squares = self.squares
        other.facings = self.facings
        other.damage = self.damage
        other.round = self.round
        other._pending = list(self._pending)
        other.last_programs = self.last_programs
        other.last_steps = self.last_steps
        other._result = self._result
        return other

    def resample(self, player: int, rng: random.Random) -> RoboPigsState:
        other = self.clone()
        if player in (0, 1):
            opp = 1 - player
            if other._pending[opp] is not None:
                # The opponent's submitted program is secret: draw another legal one.
                other._pending[opp] = Programs(self.damage[opp], bool(self.game.options["extra_x"])).sample(rng)
        return other

    def observation(self, player: int) -> dict[str, Any]:
        """Everything public, plus ``player``'s own submitted program.

        >>> obs = RoboPigs().new_initial_state().observation(0)
        >>> obs["pigs"][0]
        {'name': 'A', 'square': 'd8', 'facing': 'S', 'damage': 0}
        """
        obs: dict[str, Any] = {
            "game": "robo-pigs",
            "player": player,
            "round": self.round,
            "pigs": [
                {
                    "name": PIG_NAMES[p],
                    "square": square_name(self.squares[p]),
                    "facing": FACING_LETTERS[self.facings[p]],
                    "damage": self.damage[p],
                }
                for p in (0, 1)
            ],
            "to_act": list(self.to_act()),
            "my_program": (
                format_program(prog)
                if player in (0, 1) and (prog := self._pending[player]) is not None
                else None
            ),
            "last_round": None,
            "result": self._result.to_json() if self._result else None,
        }
        if self.last_programs is not None:
            obs["last_round"] = {
                "programs": [format_program(p) for p in self.last_programs],
                "steps": [s.to_json() for s in self.last_steps],
            }
        return obs

    def observation_text(self, player: int) -> str:
        from tussle.games.robo_pigs.render import render_observation

        return render_observation(self.observation(player))

    def render(self) -> str:
        from tussle.games.robo_pigs.render import render_observation

        obs = self.observation(-2)
        obs["pending"] = [format_program(p) if p is not None else None for p in self._pending]
        return render_observation(obs)


_NO_PROGRAMS: ListActions[Program] = ListActions(())
