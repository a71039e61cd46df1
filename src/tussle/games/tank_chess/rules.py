"""Tank Chess: the rules.

Two players, White (player 0, moves first) and Black, each command a set of
tanks on a 16x16 or 20x20 board with obstacles. A turn moves one tank: up to
its speed in steps, each step a 45 degree turn or one square forward in its
facing, or instead exactly one square backward; it passes and ends only on
empty squares and must end on another square or with another facing. Then
that tank may shoot one enemy tank ahead or 45 degrees to either side (Tank
Destroyer and Heavy Mortar: straight ahead only), never an adjacent one, along
a clear line; the Heavy Mortar hits 3 to 5 squares straight ahead over
anything between. The target is destroyed, and stays as a wreck, when the gun
is strictly greater than the armour of the side that is hit. Destroying the
enemy Command tank, or driving one's own Command tank off the opponent's edge,
wins.

One action is one whole turn (see :mod:`.board` for how it is packed into an
int); two ways of driving to the same square and facing are the same action,
and only shots that destroy are listed (a shot that cannot pierce changes
nothing, so it is the same turn as not shooting). docs/games/tank-chess.md
gives every ruling with its reason.
"""

from __future__ import annotations

import bisect
import random
from pathlib import Path
from typing import Any

from tussle.errors import ActionError, OptionError, PositionError, TussleError
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
from tussle.games.tank_chess.board import (
    ACTION_LIMIT,
    BLACK,
    COMMAND,
    DELTAS,
    ENEMY_TAG,
    ESCAPE,
    FACING_NAMES,
    GEOMETRY,
    KIND_LETTERS,
    KIND_NAMES,
    MORTAR,
    NO_TARGET,
    OBSTACLE,
    SIDE_KEYS,
    SIDE_MASK,
    SIDE_NAMES,
    TANK,
    WHITE,
    WRECK,
    Geometry,
    code_facing,
    code_kind,
    code_side,
    decode,
    square_name,
    tank_code,
)
from tussle.games.tank_chess.notation import (
    Setup,
    basic_setup,
    format_move,
    format_position,
    parse_move,
    parse_position,
)

# --- the tanks ------------------------------------------------------------------
# Indexed by kind: Light, Medium, Heavy, Command, Tank Destroyer, Heavy Mortar.

SPEED = (5, 4, 3, 5, 4, 3)
GUN = (1, 2, 3, 1, 4, 5)
#: (front, side, rear) armour.
ARMOUR = ((1, 0, 0), (2, 1, 0), (3, 2, 1), (1, 0, 0), (2, 1, 0), (1, 0, 0))
#: Whether the gun turns: a turret shoots ahead or 45 degrees to either side, a fixed gun only ahead.
TURRET = (True, True, True, True, False, False)
MORTAR_RANGE = (3, 5)
ROMAN = ("0", "I", "II", "III", "IV", "V")
ARMOUR_SIDES = ("front", "side", "rear")


def armour_side(facing: int, direction: int) -> int:
    """Which armour (0 front, 1 side, 2 rear) a shot travelling in ``direction`` hits.

    The front is hit only by a shot coming from straight ahead of the target
    (travelling against its facing), the rear only from straight behind; the
    six other directions hit the side, for a diagonal facing too.

    >>> from tussle.games.tank_chess.board import N, NE, S, SW
    >>> armour_side(N, S), armour_side(N, N), armour_side(NE, SW), armour_side(NE, S)
    (0, 2, 0, 1)
    """
    if direction == facing ^ 4:
        return 0
    if direction == facing:
        return 2
    return 1


#: KILLS[gun][kind << 3 | facing]: bit ``d`` is set when that gun destroys such a
#: tank with a shot travelling in direction ``d``.
KILLS: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        sum(1 << d for d in range(8) if gun > ARMOUR[kf >> 3][armour_side(kf & 7, d)]) if kf >> 3 < 6 else 0
        for kf in range(64)
    )
    for gun in range(6)
)

#: ARC[kind][facing]: bit ``d`` is set when the tank can shoot in direction ``d``.
ARC: tuple[tuple[int, ...], ...] = tuple(
    tuple((1 << f | 1 << ((f + 1) & 7) | 1 << ((f - 1) & 7)) if TURRET[kind] else 1 << f for f in range(8))
    for kind in range(6)
)

# --- move generation (the hot path) ---------------------------------------------


def reach(geo: Geometry, board: list[int], square: int, code: int) -> tuple[list[int], bool]:
    """Every (square, facing) state the tank ``code`` on ``square`` can end its movement in.

    ``board[square]`` must already be empty (the tank has left it). Returns the
    states other than the start, in the order found, and whether a Command tank
    can drive off the opponent's edge.
    """
    kind = code >> 3 & 7
    fwd = geo.fwd
    exits = geo.exits[code >> 6 & 1] if kind == COMMAND else None
    start = square << 3 | code & 7
    seen = bytearray(geo.nsq << 3)
    seen[start] = 1
    frontier = [start]
    found: list[int] = []
    escape = False
    for _ in range(SPEED[kind]):
        nxt: list[int] = []
        for st in frontier:
            f = st & 7
            base = st ^ f
            ns = base | (f + 1) & 7
            if not seen[ns]:
                seen[ns] = 1
                nxt.append(ns)
            ns = base | (f - 1) & 7
            if not seen[ns]:
                seen[ns] = 1
                nxt.append(ns)
            ns = fwd[st]
            if ns >= 0:
                if not seen[ns] and not board[ns >> 3]:
                    seen[ns] = 1
                    nxt.append(ns)
            elif exits is not None and exits[st]:
                escape = True
        found += nxt
        frontier = nxt
    # Instead: one square backward, keeping the facing (the opposite facing is ``^ 4``).
    back = fwd[start ^ 4]
    if back >= 0:
        if not board[back >> 3] and not seen[back ^ 4]:
            found.append(back ^ 4)
    elif exits is not None and exits[start ^ 4]:
        escape = True
    return found, escape


def fire_table(
    geo: Geometry, board: list[int], gun: int, enemies: tuple[int, ...] | list[int]
) -> tuple[dict[int, int], dict[int, int]]:
    """Where a turret or fixed gun of strength ``gun`` could destroy one of ``enemies`` from.

    Walks outward from each enemy along the lines on which it can be destroyed.
    Returns ``fire`` (square -> bit mask of shot directions that destroy
    something from there) and ``target`` (``square << 3 | direction`` -> the
    enemy's square). A shooter needs an empty square between, and a clear line.
    """
    fire: dict[int, int] = {}
    target: dict[int, int] = {}
    fwd = geo.fwd
    far = geo.far
    kills = KILLS[gun]
    for e in enemies:
        mask = kills[board[e] & 63]
        while mask:
            low = mask & -mask
            mask ^= low
            d = low.bit_length() - 1
            back = e << 3 | d ^ 4  # looking from the target towards the shooter
            adjacent = fwd[back]
            if adjacent < 0 or board[adjacent >> 3]:
                continue
            for r in far[back]:
                if board[r]:
                    break
                fire[r] = fire.get(r, 0) | low
                target[r << 3 | d] = e
    return fire, target


def tank_moves(
    geo: Geometry, board: list[int], square: int, enemies: tuple[int, ...], out: list[int]
) -> None:
    """Append every turn of the tank on ``square`` to ``out``.

    ``board`` is a private copy: it is changed while the tank is lifted off and
    restored before returning.
    """
    code = board[square]
    kind = code >> 3 & 7
    board[square] = 0
    states, escape = reach(geo, board, square, code)
    base = square | NO_TARGET << 21
    if escape:
        out.append(square | ESCAPE << 9 | NO_TARGET << 21)
    if kind == MORTAR:
        tag = ENEMY_TAG[code >> 6 & 1]
        mortar = geo.mortar
        for st in states:
            out.append(base | st << 9)
            for r in mortar[st]:
                if board[r] & SIDE_MASK == tag:
                    out.append(square | st << 9 | r << 21)
    else:
        fire, target = fire_table(geo, board, GUN[kind], enemies)
        if not fire:
            out.extend([base | st << 9 for st in states])
        else:
            arc = ARC[kind]
            for st in states:
                out.append(base | st << 9)
                m = fire.get(st >> 3)
                if m:
                    m &= arc[st & 7]
                    while m:
                        low = m & -m
                        m ^= low
                        out.append(square | st << 9 | target[(st & -8) | (low.bit_length() - 1)] << 21)
    board[square] = code


def can_destroy(geo: Geometry, board: list[int], mine: tuple[int, ...], victim: int) -> bool:
    """Whether one of the tanks on ``mine`` could destroy the tank on ``victim`` this turn."""
    b = list(board)
    mortar = geo.mortar
    for square in mine:
        code = b[square]
        kind = code >> 3 & 7
        b[square] = 0
        if kind == MORTAR:
            states, _ = reach(geo, b, square, code)
            if any(victim in mortar[st] for st in states):
                return True
        else:
            fire, _ = fire_table(geo, b, GUN[kind], (victim,))
            if fire:
                arc = ARC[kind]
                states, _ = reach(geo, b, square, code)
                for st in states:
                    m = fire.get(st >> 3)
                    if m and m & arc[st & 7]:
                        return True
        b[square] = code
    return False


def can_escape(geo: Geometry, board: list[int], command: int) -> bool:
    """Whether the Command tank on ``command`` could drive off the opponent's edge this turn."""
    b = list(board)
    code = b[command]
    b[command] = 0
    return reach(geo, b, command, code)[1]


class TankActions(Actions[int]):
    """The legal turns of one side, listed on first need.

    ``in`` checks one action by generating only the moved tank's turns, so that
    applying a chosen action does not list every other tank's.
    """

    __slots__ = ("_board", "_enemies", "_geo", "_list", "_mine", "_per_tank", "_set")

    def __init__(
        self, geo: Geometry, board: list[int], mine: tuple[int, ...], enemies: tuple[int, ...]
    ) -> None:
        self._geo = geo
        self._board = board  # never changed in place: states copy before they change it
        self._mine = mine
        self._enemies = enemies
        self._list: list[int] | None = None
        self._set: frozenset[int] | None = None
        self._per_tank: dict[int, frozenset[int]] = {}

    def _all(self) -> list[int]:
        if self._list is None:
            board = list(self._board)
            out: list[int] = []
            for square in self._mine:
                tank_moves(self._geo, board, square, self._enemies, out)
            self._list = out
        return self._list

    def __len__(self) -> int:
        return len(self._all())

    def __getitem__(self, index: int) -> int:  # type: ignore[override]
        return self._all()[index]

    def __iter__(self) -> Any:
        return iter(self._all())

    def __contains__(self, item: object) -> bool:
        if type(item) is not int or not 0 <= item < ACTION_LIMIT:
            return False
        if self._list is not None:
            if self._set is None:
                self._set = frozenset(self._list)
            return item in self._set
        square = item & 511
        if square not in self._mine:
            return False
        moves = self._per_tank.get(square)
        if moves is None:
            out: list[int] = []
            tank_moves(self._geo, list(self._board), square, self._enemies, out)
            moves = self._per_tank[square] = frozenset(out)
        return item in moves

    def __repr__(self) -> str:
        return f"<TankActions of {len(self._mine)} tanks>"


_NO_ACTIONS: ListActions[int] = ListActions(())

# --- explaining an illegal turn ----------------------------------------------------


def explain(geo: Geometry, board: list[int], side: int, action: int) -> str:
    """Why a well-formed ``action`` is not legal for ``side``, in a few words ('' if it is)."""
    start, end, target = decode(action)
    code = board[start]
    if code < TANK or code_side(code) != side:
        return f"there is no {SIDE_NAMES[side]} tank on {square_name(geo, start)}"
    kind = code_kind(code)
    name = f"the {KIND_NAMES[kind]} tank on {square_name(geo, start)}"
    lifted = list(board)
    lifted[start] = 0
    states, escape = reach(geo, lifted, start, code)
    if end == ESCAPE:
        if kind != COMMAND:
            return "only a Command tank may drive off the board"
        if not escape:
            return (
                f"{name} cannot drive off the opponent's edge within {SPEED[kind]} steps "
                "(and never diagonally through a corner)"
            )
        return ""
    if end == start << 3 | code_facing(code):
        return "a turn must change the tank's square or facing"
    to, facing = end >> 3, end & 7
    if end not in states:
        if lifted[to]:
            return f"{square_name(geo, to)} is not empty"
        return (
            f"{name} cannot reach {square_name(geo, to)} facing {FACING_NAMES[facing]} "
            f"in {SPEED[kind]} steps over empty squares, nor by one step backward"
        )
    if target == NO_TARGET:
        return ""
    victim = lifted[target]
    if victim < TANK or code_side(victim) == side:
        return f"there is no enemy tank on {square_name(geo, target)}"
    size = geo.size
    dx = target % size - to % size
    dy = target // size - to // size
    distance = max(abs(dx), abs(dy))
    if dx and dy and abs(dx) != abs(dy):
        return f"{square_name(geo, target)} is not on a straight or diagonal line from {square_name(geo, to)}"
    direction = DELTAS.index(((dx > 0) - (dx < 0), (dy > 0) - (dy < 0)))
    if kind == MORTAR:
        if direction != facing:
            return "a Heavy Mortar shoots straight ahead only"
        return (
            f"a Heavy Mortar hits only {MORTAR_RANGE[0]} to {MORTAR_RANGE[1]} squares ahead, not {distance}"
        )
    if not ARC[kind][facing] >> direction & 1:
        where = "straight ahead only" if not TURRET[kind] else "ahead or 45 degrees to either side only"
        return f"a {KIND_NAMES[kind]} tank shoots {where}"
    if distance == 1:
        return "a tank cannot shoot an adjacent tank"
    for r in geo.rays[end][: distance - 1]:
        if lifted[r]:
            return f"the line of fire is blocked on {square_name(geo, r)}"
    side_hit = armour_side(code_facing(victim), direction)
    armour = ARMOUR[code_kind(victim)][side_hit]
    return (
        f"gun {ROMAN[GUN[kind]]} does not pierce the {ARMOUR_SIDES[side_hit]} armour {ROMAN[armour]} "
        f"of the {KIND_NAMES[code_kind(victim)]} tank on {square_name(geo, target)}"
    )


# --- the game ---------------------------------------------------------------------------


class TankChess(Game):
    """Tank Chess for two players: White (player 0) and Black (player 1).

    >>> game = TankChess()
    >>> state = game.new_initial_state()
    >>> state.to_act(), len(state.legal_actions(0))
    ((0,), 549)
    >>> TankChess(size=20).new_initial_state().geo.size
    20
    """

    info = GameInfo(
        id="tank-chess",
        name="Tank Chess",
        description=(
            "Tanks with speed, turret and directional armour on a 16x16 or 20x20 board with obstacles: "
            "destroy the enemy Command tank or drive your own off the far edge."
        ),
        min_players=2,
        max_players=2,
        dynamics=Dynamics.SEQUENTIAL,
        chance=ChanceMode.DETERMINISTIC,
        information=Information.PERFECT,
        options=(
            Option(
                "size",
                "choice",
                "16",
                "board size: 16 (basic game) or 20 (with Tank Destroyers and Heavy Mortars)",
                choices=("16", "20"),
            ),
            Option(
                "ply_limit",
                "int",
                0,
                "end the game as a draw after this many turns in all (0: no limit; simulations use 1000)",
                minimum=0,
            ),
            Option(
                "setup",
                "str",
                "",
                "a setup file (position notation) to start from instead of the basic setup",
            ),
        ),
        has_position=True,
        simulation_defaults=(("ply_limit", 1000),),
        notation=(
            "A turn is the tank's square, where it ends and its facing, and the enemy it destroys if any: "
            "Mh3-h6N, Lc3-d5NE xg8, Hm1-m1NW (turn in place), Ch16-off (escape). "
            "Case and spaces do not matter; the type letter may be left out, "
            "and a missing facing or destination stays as it is."
        ),
    )

    def _check_options(self) -> None:
        self.size = int(self.options["size"])
        self.geo = GEOMETRY[self.size]
        path = self.options["setup"]
        if path in ("", "basic"):
            self.setup = basic_setup(self.size)
            return
        try:
            file = Path(path)
            if not file.is_file():
                raise OptionError(f"option setup: {path!r} is not a file")
            if file.stat().st_size > 1_000_000:
                raise OptionError(f"option setup: {path!r} is too large for a setup file")
            text = file.read_text(encoding="utf-8")
        except OSError as exc:
            raise OptionError(f"option setup: cannot read {path!r}: {exc.strerror or exc}") from None
        except ValueError as exc:  # a NUL in the name, or a file that is not UTF-8
            raise OptionError(f"option setup: cannot read {path!r}: {exc}") from None
        try:
            self.setup = self._fits(parse_position(text))
        except TussleError as exc:
            raise OptionError(f"option setup: {path!r}: {exc}") from None

    def _fits(self, setup: Setup) -> Setup:
        if setup.size != self.size:
            raise PositionError(
                f"the position is {setup.size}x{setup.size} but the game is {self.size}x{self.size} "
                f"(set the option size={setup.size})"
            )
        return setup

    def new_initial_state(self) -> TankChessState:
        return TankChessState.from_setup(self, self.setup)

    def state_from_position(self, text: str) -> TankChessState:
        """A state from position notation (see :mod:`.notation`); PositionError names what is wrong."""
        return TankChessState.from_setup(self, self._fits(parse_position(text)))


class TankChessState(State):
    """One moment of a game of Tank Chess.

    ``board`` is never changed in place (a turn copies it), so clones and
    listed actions may share it.
    """

    __slots__ = (
        "_announce",
        "_legal",
        "_result",
        "board",
        "commands",
        "game",
        "geo",
        "last",
        "ply",
        "tanks",
        "turn",
    )

    game: TankChess

    def __init__(
        self,
        game: TankChess,
        board: list[int],
        turn: int,
        ply: int,
    ) -> None:
        self.game = game
        self.geo = game.geo
        self.board = board
        tanks: tuple[list[int], list[int]] = ([], [])
        commands = [-1, -1]
        for square, code in enumerate(board):
            if code >= TANK:
                tanks[code_side(code)].append(square)
                if code_kind(code) == COMMAND:
                    commands[code_side(code)] = square
        #: The squares of each side's tanks, in board order.
        self.tanks = (tuple(tanks[0]), tuple(tanks[1]))
        #: Each side's Command tank's square (-1 once it is gone).
        self.commands = (commands[0], commands[1])
        self.turn = turn
        self.ply = ply
        #: The last turn and the code of the tank that made it, for display.
        self.last: tuple[int, int] | None = None
        self._result: Result | None = None
        self._legal: TankActions | None = None
        self._announce: tuple[bool, bool] | None = None
        limit = game.options["ply_limit"]
        if limit and ply >= limit:
            self._result = Result.draw(2, f"ply limit of {limit} reached")

    @classmethod
    def from_setup(cls, game: TankChess, setup: Setup) -> TankChessState:
        board = [0] * game.geo.nsq
        for square in setup.obstacles:
            board[square] = OBSTACLE
        for square in setup.wrecks:
            board[square] = WRECK
        for side, kind, square, facing in setup.tanks:
            board[square] = tank_code(side, kind, facing)
        return cls(game, board, setup.turn, setup.ply)

    # --- turn structure ------------------------------------------------------------

    def to_act(self) -> tuple[int, ...]:
        if self._result is not None:
            return ()
        return (self.turn,)

    def player_name(self, player: int) -> str:
        return SIDE_NAMES[player] if player in (WHITE, BLACK) else super().player_name(player)

    def legal_actions(self, player: int) -> Actions[int]:
        if self._result is not None or player != self.turn:
            return _NO_ACTIONS
        if self._legal is None:
            self._legal = TankActions(self.geo, self.board, self.tanks[player], self.tanks[1 - player])
        return self._legal

    def _why_illegal(self, player: int, action: Any) -> str:
        problem = explain(self.geo, self.board, player, action)
        return f": {problem}" if problem else ""

    def _apply(self, player: int, action: Any) -> None:
        start, end, target = decode(action)
        side = self.turn
        board = list(self.board)
        code = board[start]
        board[start] = 0
        mine = list(self.tanks[side])
        mine.remove(start)
        theirs = self.tanks[1 - side]
        commands = list(self.commands)
        result = None
        if end == ESCAPE:
            commands[side] = -1
            result = Result.win(side, 2, f"{SIDE_NAMES[side]}'s Command tank escaped")
        else:
            to = end >> 3
            board[to] = (code & ~7) | (end & 7)
            bisect.insort(mine, to)
            if commands[side] == start:
                commands[side] = to
        if target != NO_TARGET:
            board[target] = WRECK
            theirs = tuple(s for s in theirs if s != target)
            if target == commands[1 - side]:
                commands[1 - side] = -1
                result = Result.win(
                    side, 2, f"{SIDE_NAMES[side]} destroyed {SIDE_NAMES[1 - side]}'s Command tank"
                )
        self.board = board
        self.tanks = (tuple(mine), theirs) if side == WHITE else (theirs, tuple(mine))
        self.commands = (commands[0], commands[1])
        self.turn = 1 - side
        self.ply += 1
        self.last = (action, code)
        self._legal = None
        self._announce = None
        if result is None:
            limit = self.game.options["ply_limit"]
            if limit and self.ply >= limit:
                result = Result.draw(2, f"ply limit of {limit} reached")
        self._result = result

    def result(self) -> Result | None:
        return self._result

    # --- announcements ---------------------------------------------------------------

    def announcements(self) -> tuple[bool, bool]:
        """``(check, escape)`` for the player who moved last, as if it were to move again.

        Check: it could destroy the enemy Command tank; Escape: its own Command
        tank could drive off the far edge. Both are false before the first turn
        and once the game is over.

        >>> game = TankChess()
        >>> state = game.state_from_position("ply=1 turn=black obstacles=a15,b15,b16 white=Ch15N black=Ca16S")
        >>> state.announcements()
        (False, True)
        """
        if self._announce is None:
            mover = 1 - self.turn
            if self._result is not None or self.ply == 0:
                self._announce = (False, False)
            else:
                enemy = self.commands[self.turn]
                self._announce = (
                    can_destroy(self.geo, self.board, self.tanks[mover], enemy),
                    can_escape(self.geo, self.board, self.commands[mover]),
                )
        return self._announce

    # --- notation ----------------------------------------------------------------------

    def action_to_str(self, player: int, action: Any) -> str:
        nsq = self.geo.nsq
        if type(action) is int and 0 <= action < ACTION_LIMIT:
            start, end, target = decode(action)
            if (
                start < nsq
                and self.board[start] >= TANK
                and (end == ESCAPE or end >> 3 < nsq)
                and (target == NO_TARGET or target < nsq)
            ):
                return format_move(self.geo, self.board, action)
        raise ActionError(f"{action!r} is not a Tank Chess turn here")

    def _parse_action(self, player: int, text: str) -> int:
        return parse_move(self.geo, self.board, player, text)

    def position(self) -> str:
        """The position notation of this state (not of a game already won).

        >>> TankChess().new_initial_state().position()[:60]
        'size=16 turn=white ply=0 obstacles=k2,l2,o2,d3,e3,k3,l3,o3,l'
        """
        if -1 in self.commands:
            raise PositionError("the game is won: a Command tank is gone, which no position can show")
        return format_position(self.setup())

    def setup(self) -> Setup:
        """This position as plain data."""
        board = self.board
        return Setup(
            self.geo.size,
            self.turn,
            self.ply,
            frozenset(s for s, c in enumerate(board) if c == OBSTACLE),
            frozenset(s for s, c in enumerate(board) if c == WRECK),
            tuple((code_side(c), code_kind(c), s, code_facing(c)) for s, c in enumerate(board) if c >= TANK),
        )

    # --- copies and views ------------------------------------------------------------------

    def clone(self) -> TankChessState:
        other = TankChessState.__new__(TankChessState)
        other.game = self.game
        other.geo = self.geo
        other.board = self.board
        other.tanks = self.tanks
        other.commands = self.commands
        other.turn = self.turn
        other.ply = self.ply
        other.last = self.last
        other._result = self._result
        other._legal = self._legal
        other._announce = self._announce
        return other

    def resample(self, player: int, rng: random.Random) -> TankChessState:
        return self.clone()

    def observation(self, player: int) -> dict[str, Any]:
        """Everything on the board (the game has no hidden information).

        >>> obs = TankChess().new_initial_state().observation(0)
        >>> obs["size"], obs["to_move"], obs["tanks"][0]
        (16, 'white', {'square': 'c1', 'side': 'white', 'type': 'H', 'facing': 'N'})
        """
        geo = self.geo
        board = self.board
        tanks = [
            {
                "square": square_name(geo, s),
                "side": SIDE_KEYS[code_side(board[s])],
                "type": KIND_LETTERS[code_kind(board[s])],
                "facing": FACING_NAMES[code_facing(board[s])],
            }
            for side in (WHITE, BLACK)
            for s in self.tanks[side]
        ]
        last = None
        if self.last is not None:
            action, code = self.last
            before = list(board)
            before[action & 511] = code  # the notation names the tank by its square before the turn
            last = {"by": SIDE_KEYS[code_side(code)], "move": format_move(geo, before, action)}
        check, escape = self.announcements()
        return {
            "game": "tank-chess",
            "player": player,
            "size": geo.size,
            "ply": self.ply,
            "ply_limit": self.game.options["ply_limit"],
            "to_move": SIDE_KEYS[self.turn] if self._result is None else None,
            "obstacles": [square_name(geo, s) for s, c in enumerate(board) if c == OBSTACLE],
            "wrecks": [square_name(geo, s) for s, c in enumerate(board) if c == WRECK],
            "tanks": tanks,
            "last_move": last,
            "announced": {"by": SIDE_KEYS[1 - self.turn], "check": check, "escape": escape}
            if self.ply and self._result is None
            else None,
            "result": self._result.to_json() if self._result is not None else None,
        }

    def observation_text(self, player: int) -> str:
        from tussle.games.tank_chess.render import render_observation

        return render_observation(self.observation(player))

    def render(self) -> str:
        from tussle.games.tank_chess.render import render_observation

        return render_observation(self.observation(-1))
