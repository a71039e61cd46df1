"""Fightopia: the rules.

Two players, White (player 0) and Black (player 1), each with ten Pawns, two
Tanks (1x2) and one Giant (2x2) on a chessboard. A chance event decides who
moves first; then players alternate, one action per turn:

* a Pawn steps one square in any of the eight directions, into an empty square;
* a Giant steps one square in any of the eight directions, when every square of
  its new place is clear (those it leaves count as clear), or, instead, kills an
  enemy Tank that shares at least one edge with it;
* a Tank moves 1 or 2 squares along its length, pivots a quarter turn about
  either end (the square its other end swings to must be clear; with the option
  ``pivot_sweep`` also the square it sweeps through), or shoots the nearest
  enemy Pawn along its length, out of either end, with nothing in between.

Nothing ever moves into an occupied square. A player wins at once when their
Giant touches the opponent's back rank, or when they kill the second enemy Tank.
A player with no legal action on their turn ends the game as a draw (the chess
stalemate), and the option ``ply_limit`` ends it as a draw after that many plies
(with ``limit_result=material``, a win for the side ahead on material).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping
from functools import partial

from tussle.errors import ActionError, OptionError, PositionError
from tussle.game import (
    CHANCE,
    JSON,
    PUBLIC,
    Actions,
    ChanceMode,
    Dynamics,
    Game,
    GameInfo,
    Hooks,
    Information,
    ListActions,
    Option,
    Result,
    State,
    Termination,
    document_hint,
)
from tussle.games.fightopia.board import (
    BLACK,
    COLOR_NAMES,
    GIANT_EDGE,
    GIANT_KILL,
    GIANT_MASK,
    GIANT_STEP,
    GIANT_STEPS,
    GOAL_CORNER_RANK,
    KING_NEIGHBORS,
    PAWN_STEP,
    SIZE,
    TANK_CODES,
    TANK_MASK,
    TANK_MOVE,
    TANK_MOVES,
    TANK_PIVOTS,
    TANK_RAY_DOWN,
    TANK_RAY_UP,
    TANK_SHOT,
    WHITE,
    decode,
    square_name,
    tank_ok,
    tank_squares,
)
from tussle.games.fightopia.notation import (
    COLOR_KEYS,
    Board,
    FightopiaObservation,
    First,
    FirstJSON,
    LastJSON,
    Move,
    MoveJSON,
    PieceJSON,
    format_action,
    format_chance,
    format_position,
    giant_name,
    parse_action,
    parse_chance,
    parse_position,
    tank_name,
)
from tussle.games.fightopia.setups import setup_position

LIMIT = Termination.LIMIT

#: The starting setup, before the first player is drawn.
START = "vppggppv/v1pggp1v/2pppp2/8/8/2PPPP2/V1PGGP1V/VPPGGPPV - 0"

#: The ply limit simulations use: far beyond any game between people, yet it ends
#: every game (random play averages about 800 plies and can in principle go on
#: forever). People playing have no limit unless they set one.
DEFAULT_PLY_LIMIT = 2000

# Pivot tables without and with the swept square, as (new code, must be clear).
_PIVOTS_PLAIN: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    tuple((new, need) for new, need, _ in row) for row in TANK_PIVOTS
)
_PIVOTS_SWEPT: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    tuple((new, need | swept) for new, need, swept in row) for row in TANK_PIVOTS
)


TABLE_LIMIT = 1024


class _MoveTable(dict[int, tuple[int, ...]]):
    """One piece's actions from one place, by the occupancy of the squares those actions need.

    Move generation is most of a random playout; a lookup here replaces a loop over
    directions and the sort after it. Each table is filled as positions come up; keys
    with the same actions share one tuple (at most 2**8 of them). A Giant's or a
    sweeping Tank's table could reach 2**12 keys, so a table that grows past
    :data:`TABLE_LIMIT` starts again empty, which keeps memory to a few MB.
    """

    __slots__ = ("_make", "_shared")

    def __init__(self, make: Callable[[int], tuple[int, ...]]) -> None:
        super().__init__()
        self._make = make
        self._shared: dict[tuple[int, ...], tuple[int, ...]] = {}

    def __missing__(self, occ: int) -> tuple[int, ...]:
        if len(self) >= TABLE_LIMIT:
            self.clear()
        actions = self._make(occ)
        actions = self[occ] = self._shared.setdefault(actions, actions)
        return actions


def _pawn_steps(square: int, occ: int) -> tuple[int, ...]:
    around = KING_NEIGHBORS[square]
    return tuple(
        PAWN_STEP << 16 | square << 8 | to
        for to in range(SIZE * SIZE)
        if around >> to & 1 and not occ >> to & 1
    )


def _giant_steps(corner: int, occ: int) -> tuple[int, ...]:
    return tuple(
        sorted(GIANT_STEP << 16 | corner << 8 | new for new, need in GIANT_STEPS[corner] if not need & occ)
    )


def _tank_moves(code: int, pivots: tuple[tuple[int, int], ...], occ: int) -> tuple[int, ...]:
    return tuple(
        sorted(TANK_MOVE << 16 | code << 8 | new for new, need in TANK_MOVES[code] + pivots if not need & occ)
    )


def _needs(moves: tuple[tuple[int, int], ...]) -> int:
    out = 0
    for _, need in moves:
        out |= need
    return out


# Pawn steps and the Giant's steps by square; each table is keyed by ``occupied & needs``.
_PAWN_TABLES = tuple(_MoveTable(partial(_pawn_steps, s)) for s in range(SIZE * SIZE))
_GIANT_TABLES = tuple(_MoveTable(partial(_giant_steps, c)) for c in range(SIZE * SIZE))
_GIANT_NEEDS = tuple(_needs(steps) for steps in GIANT_STEPS)

TankTables = tuple[tuple[_MoveTable, ...], tuple[int, ...]]


def _tank_tables(pivots: tuple[tuple[tuple[int, int], ...], ...]) -> TankTables:
    tables = tuple(_MoveTable(partial(_tank_moves, code, pivots[code])) for code in range(TANK_CODES))
    return tables, tuple(_needs(TANK_MOVES[code] + pivots[code]) for code in range(TANK_CODES))


# Tank moves and pivots by Tank code, without and with ``pivot_sweep``.
_TANK_TABLES_PLAIN = _tank_tables(_PIVOTS_PLAIN)
_TANK_TABLES_SWEPT = _tank_tables(_PIVOTS_SWEPT)

# What to_act answers, by ``side`` (-1, before the first player is drawn, reads the last).
_ACTING: tuple[tuple[int, ...], ...] = ((WHITE,), (BLACK,), (CHANCE,))


class FightopiaActions(ListActions[int]):
    """The legal actions of a turn: ints, so anything else is simply not a member."""

    __slots__ = ()

    def __contains__(self, item: object) -> bool:
        # A few dozen ints: scanning the tuple is quicker than building the set to look up.
        return type(item) is int and item in self._items

    def sample(self, rng: random.Random) -> int:
        # The same draw as Actions.sample, without two more calls per decision.
        items = self._items
        return items[rng.randrange(len(items))]


_NONE = FightopiaActions(())
_ACTION_TEXT: dict[int, str] = {}  # every player's action named so far: a few thousand at most


def _action_text(action: int) -> str:
    # Searches name every action they play and order; a name depends on the action alone.
    text = _ACTION_TEXT.get(action)
    if text is None:
        text = _ACTION_TEXT[action] = format_action(action)
    return text


class Fightopia(Game):
    """Fightopia for two players.

    >>> state = Fightopia().new_initial_state()
    >>> state.to_act(), [text for _, text in state.chance_texts()]
    ((-1,), ['first white', 'first black'])
    >>> state.apply_str(-1, "first white")
    0
    >>> len(state.legal_actions(0))
    30
    """

    info = GameInfo(
        id="fightopia",
        name="Fightopia",
        description=(
            "Pawns, Tanks and Giants on a chessboard: walk your Giant across the board "
            "or kill both enemy Tanks."
        ),
        min_players=2,
        max_players=2,
        dynamics=Dynamics.SEQUENTIAL,
        chance=ChanceMode.EXPLICIT,
        information=Information.PERFECT,
        options=(
            Option(
                "ply_limit",
                "int",
                0,
                "end the game as a draw after this many plies (0: no limit; simulations use 2000)",
                minimum=0,
            ),
            Option(
                "limit_result",
                "choice",
                "draw",
                "who wins at the ply limit: nobody (draw), or the side with more Tanks, "
                "then more Pawns (material)",
                choices=("draw", "material"),
            ),
            Option(
                "pivot_sweep",
                "bool",
                False,
                "a pivoting Tank also needs the square it sweeps through to be clear",
            ),
            Option(
                "setup",
                "document",
                "",
                "the starting position: the board in position notation, on one line or a rank a line "
                "(docs/games/fightopia.md); empty or standard: the rules' setup",
                documents=("standard",),
            ),
        ),
        has_position=True,
        notation=(
            "name the piece, then - and where it goes, or x and what it destroys. A Pawn is its "
            "square, a Giant G and its corner nearest a1, a Tank T and both its squares: c3-c4 "
            "(a Pawn steps), Gd1-d2 (the Giant steps), Gd4xTc4c5 (the Giant kills a Tank), "
            "Ta1a2-a3a4 (a Tank moves), Ta1a2-a2b2 (a Tank pivots about a2), Ta1a2xa6 (a Tank shoots)"
        ),
        simulation_defaults=(("ply_limit", DEFAULT_PLY_LIMIT),),
        # Online a game must end (nobody holds the others for ever): 200 turns each, unless its maker
        # sets a limit.
        online_defaults=(("ply_limit", 400),),
        hooks=Hooks(
            style=".style:style",
            rule_agent=".rule_agent:FightopiaRuleAgent",
            search=".search:FightopiaPolicy",
            encoding=".encoding:encoding",
            rules="rules.md",
            balance=".balance:measures",
            web="web.js",
            # Chosen by measurement: docs/strength.md has the ladders.
            levels=(
                ("easy", "alphabeta:iterations=300"),
                ("medium", "alphabeta:iterations=2500"),
                ("hard", "alphabeta:iterations=10000"),
            ),
            bench_target=4.0,
        ),
    )

    def _check_options(self) -> None:
        # Read on every action: the options are fixed, so they are looked up once here.
        self._ply_limit = int(self.options["ply_limit"])
        self._tank_tables = _TANK_TABLES_SWEPT if self.options["pivot_sweep"] else _TANK_TABLES_PLAIN
        text = self.str_option("setup")
        if text in ("", "standard"):
            self._start = START
            return
        try:
            self._start = setup_position(text)
            self.state_from_position(self._start)
        except PositionError as exc:
            # A board on one line is a word with slashes, as a file's name is: no hint for that.
            hint = "" if text.count("/") >= SIZE - 1 else document_hint(self.id, "setup", text)
            raise OptionError(f"option setup: {exc}{hint}") from None

    def length_bound(self) -> tuple[int, int] | None:
        # One chance event: who moves first.
        limit = int(self.options["ply_limit"])
        return (limit, 1) if limit > 0 else None

    def new_initial_state(self) -> FightopiaState:
        return self.state_from_position(self._start)

    def state_from_position(self, text: str) -> FightopiaState:
        """Read a position (see :mod:`tussle.games.fightopia.notation`).

        >>> Fightopia().state_from_position("4gg2/4gg2/8/8/8/8/V2GG3/V2GG3 w 0")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        tussle.errors.PositionError: '...': ... no Tanks left, so White has won, yet White is to move
        """
        board = parse_position(text)
        state = FightopiaState(self, board)
        side = board.side
        for color in (WHITE, BLACK):
            why = state.win_reason(color)
            if why is None:
                continue
            if side < 0:
                raise PositionError(f"{text!r}: the game is already over ({why}) before anybody has moved")
            if color == side:
                raise PositionError(
                    f"{text!r}: the game is already over: {why}, so {COLOR_NAMES[color]} has won, "
                    f"yet {COLOR_NAMES[color]} is to move"
                )
        state.settle()
        return state


class FightopiaState(State[int]):
    """One moment of a game of Fightopia.

    ``side`` is the color to move (-1 before the first player is drawn),
    ``ply`` the number of player actions so far.
    """

    __slots__ = ("_last", "_legal", "_occ", "_result", "game", "giants", "pawns", "ply", "side", "tanks")

    game: Fightopia

    def __init__(self, game: Fightopia, board: Board) -> None:
        self.game = game
        self.pawns = list(board.pawns)
        self.giants = list(board.giants)
        self.tanks = [tuple(sorted(board.tanks[0])), tuple(sorted(board.tanks[1]))]
        self.side = board.side
        self.ply = board.ply
        self._last: tuple[int, int] | None = None
        self._result: Result | None = None
        self._legal: FightopiaActions | None = None
        occ = self.pawns[0] | self.pawns[1] | GIANT_MASK[self.giants[0]] | GIANT_MASK[self.giants[1]]
        for code in self.tanks[0] + self.tanks[1]:
            occ |= TANK_MASK[code]
        # Every occupied square, kept up to date by _apply (the generator needs it every turn).
        self._occ = occ

    @property
    def last(self) -> tuple[int, str] | None:
        """The last event, as ``(player, notation)``."""
        if self._last is None:
            return None
        player, action = self._last
        # Named only when asked: a playout never reads it.
        return (player, format_chance(action) if player == CHANCE else _action_text(action))

    # --- winning --------------------------------------------------------------

    def win_reason(self, color: int) -> str | None:
        """Why ``color`` has won in this position, or None.

        >>> Fightopia().new_initial_state().win_reason(0) is None
        True
        """
        if self.giants[color] >> 3 == GOAL_CORNER_RANK[color]:
            return f"{COLOR_NAMES[color]}'s Giant reached rank {8 if color == WHITE else 1}"
        if not self.tanks[1 - color]:
            return f"{COLOR_NAMES[1 - color]} has no Tanks left"
        return None

    def limit_result(self, limit: int) -> Result:
        """The result at the ply limit: a draw, or with ``limit_result=material`` a win on material.

        The side with more Tanks wins; with as many Tanks, the side with more Pawns.

        >>> game = Fightopia(ply_limit=20, limit_result="material")
        >>> result = game.state_from_position("8/8/2gg3v/2gg3v/8/8/V2GG1pV/V2GG1pV b 20").result()
        >>> result.winner, result.reason
        (0, 'ply limit of 20 reached; White is ahead on material: 2 Tanks and 0 Pawns to 1 Tank and 2 Pawns')
        """
        reason = f"ply limit of {limit} reached"
        if self.game.options["limit_result"] == "draw":
            return Result.draw(2, reason, LIMIT)
        material = [(len(self.tanks[c]), self.pawns[c].bit_count()) for c in (WHITE, BLACK)]
        if material[WHITE] == material[BLACK]:
            return Result.draw(2, f"{reason}; material is even", LIMIT)
        ahead = WHITE if material[WHITE] > material[BLACK] else BLACK
        counts = [f"{_count(tanks, 'Tank')} and {_count(pawns, 'Pawn')}" for tanks, pawns in material]
        return Result.win(
            ahead,
            2,
            f"{reason}; {COLOR_NAMES[ahead]} is ahead on material: {counts[ahead]} to {counts[1 - ahead]}",
            LIMIT,
        )

    def settle(self) -> None:
        """Decide whether the game is over now (the legal actions are listed when first asked for)."""
        self._legal = None
        self._result = None
        side = self.side
        if side < 0:
            return
        mover = 1 - side
        won = self.win_reason(mover)
        if won is not None:
            self._result = Result.win(mover, 2, won)
            return
        limit = self.game._ply_limit
        if limit and self.ply >= limit:
            self._result = self.limit_result(limit)
            return
        # The list itself waits for legal_actions (a search's leaves never ask for it), unless
        # the Giant is boxed in: then the whole list is the quickest way to tell.
        corner = self.giants[side]
        if _GIANT_TABLES[corner][self._occ & _GIANT_NEEDS[corner]]:
            return
        legal = self._legal = FightopiaActions(self._actions(side))
        if not legal:
            self._result = Result.draw(2, f"{COLOR_NAMES[side]} has no legal action")

    # --- move generation --------------------------------------------------------

    def occupied(self) -> int:
        """Every occupied square, as a bitboard."""
        return self._occ

    def generate(self, color: int) -> Iterator[int]:
        """Every legal action of ``color`` in this position (whoever is to move), in increasing order."""
        return iter(self._actions(color))

    def _actions(self, color: int) -> list[int]:
        # The order falls out of the encoding (kind, then piece, then target) and of the
        # tables, which are sorted: pieces are visited by kind and in increasing square or code.
        occ = self._occ
        out: list[int] = []
        pawns = self.pawns[color]
        while pawns:
            low = pawns & -pawns
            square = low.bit_length() - 1
            out += _PAWN_TABLES[square][occ & KING_NEIGHBORS[square]]
            pawns ^= low
        corner = self.giants[color]
        out += _GIANT_TABLES[corner][occ & _GIANT_NEEDS[corner]]
        edge = GIANT_EDGE[corner]
        for code in self.tanks[1 - color]:
            if TANK_MASK[code] & edge:
                out.append(GIANT_KILL << 16 | corner << 8 | code)
        tanks = self.tanks[color]
        tables, needs = self.game._tank_tables
        for code in tanks:
            out += tables[code][occ & needs[code]]
        enemy_pawns = self.pawns[1 - color]
        for code in tanks:
            # The nearest piece out of each end is the only possible target; the near end's
            # square is the lower one, so it comes first.
            behind = TANK_RAY_DOWN[code] & occ
            if behind:
                square = behind.bit_length() - 1
                if enemy_pawns >> square & 1:
                    out.append(TANK_SHOT << 16 | code << 8 | square)
            ahead = TANK_RAY_UP[code] & occ
            if ahead:
                bit = ahead & -ahead
                if bit & enemy_pawns:
                    out.append(TANK_SHOT << 16 | code << 8 | (bit.bit_length() - 1))
        return out

    # --- turns ------------------------------------------------------------------

    def to_act(self) -> tuple[int, ...]:
        if self._result is not None:
            return ()
        return _ACTING[self.side]

    def player_name(self, player: int) -> str:
        return COLOR_NAMES[player] if player in (WHITE, BLACK) else super().player_name(player)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.side >= 0 or self._result is not None:
            return []
        return [(WHITE, 0.5), (BLACK, 0.5)]

    def chance_texts(self) -> list[tuple[int, str]]:
        """The chance outcomes now with their notation (empty once the first player is drawn)."""
        return [(o, format_chance(o)) for o, _ in self.chance_outcomes()]

    def legal_actions(self, player: int) -> Actions[int]:
        if self._result is not None or player != self.side or player < 0:
            return _NONE
        legal = self._legal
        if legal is None:
            legal = self._legal = FightopiaActions(self._actions(player))
        return legal

    def is_legal(self, player: int, action: int) -> bool:
        # Only ints are actions here: anything else is refused before it reaches a set lookup.
        if type(action) is not int or self._result is not None or player != self.side:
            return False
        if player == CHANCE:
            return action in (WHITE, BLACK)  # who moves first
        legal = self._legal
        if legal is None:
            legal = self._legal = FightopiaActions(self._actions(player))
        return action in legal._items

    def _apply(self, player: int, action: int) -> None:
        self._last = (player, action)
        if player == CHANCE:
            self.side = action
            self.settle()
            return
        kind, a, b = action >> 16, (action >> 8) & 255, action & 255
        if kind == PAWN_STEP:
            moved = 1 << a | 1 << b
            self.pawns[player] ^= moved
            self._occ ^= moved
        elif kind == GIANT_STEP:
            self.giants[player] = b
            self._occ ^= GIANT_MASK[a] ^ GIANT_MASK[b]
        elif kind == GIANT_KILL:
            self.tanks[1 - player] = tuple(c for c in self.tanks[1 - player] if c != b)
            self._occ ^= TANK_MASK[b]
        elif kind == TANK_MOVE:
            tanks = self.tanks[player]
            if len(tanks) == 1:
                self.tanks[player] = (b,)
            else:
                other = tanks[1] if tanks[0] == a else tanks[0]
                self.tanks[player] = (b, other) if b < other else (other, b)
            self._occ ^= TANK_MASK[a] ^ TANK_MASK[b]
        else:
            self.pawns[1 - player] ^= 1 << b
            self._occ ^= 1 << b
        self.ply += 1
        self.side = 1 - player
        self.settle()

    def result(self) -> Result | None:
        return self._result

    # --- notation ---------------------------------------------------------------

    def action_to_str(self, player: int, action: int) -> str:
        if type(action) is not int:
            raise ActionError(f"{action!r} is not a Fightopia action")
        if player == CHANCE:
            if action not in (WHITE, BLACK):
                raise ActionError(f"{action!r} is not a chance outcome of Fightopia")
            return format_chance(action)
        return _action_text(action)

    def _parse_action(self, player: int, text: str) -> int:
        if player == CHANCE:
            return parse_chance(text)
        return parse_action(text, self.giants[player])

    def action_to_json(self, player: int, action: int) -> MoveJSON | FirstJSON:
        """The structured form of an action (see :class:`~tussle.games.fightopia.notation.Move`).

        >>> state = Fightopia().new_initial_state()
        >>> state.action_to_json(CHANCE, 1)
        {'kind': 'first', 'color': 'black'}
        >>> state.apply(CHANCE, 1)
        >>> state.action_to_json(1, state.parse_action(1, "c6-c5"))
        {'kind': 'pawn step', 'from': 'c6', 'to': 'c5'}
        """
        self.action_to_str(player, action)  # the same checks: an int, and an action of this game
        if player == CHANCE:
            return First(action).to_json()
        return Move.of(action).to_json()

    def _action_from_json(self, player: int, data: dict[str, object]) -> int:
        if player == CHANCE:
            return First.from_json(data).color
        return Move.from_json(data).action

    def _why_illegal(self, player: int, action: int) -> str:
        reason = self.explain(player, action)
        return f": {reason}" if reason else ""

    def explain(self, player: int, action: int) -> str:
        """Why ``player``'s action is not legal now, in words ('' if it is legal, or not ``player``'s turn).

        :meth:`is_legal` alone decides; this only names the reason, looking the action
        up in the tables the move generator reads.

        >>> state = Fightopia().state_from_position(START.replace(" - ", " w "))
        >>> state.explain(0, state.parse_action(0, "Ta1a2-a3a4")), state.explain(0, 0 << 16 | 18 << 8 | 34)
        ('', 'a Pawn steps one square')
        """
        if player != self.side or self._result is not None or self.is_legal(player, action):
            return ""
        try:
            _action_text(action)  # an action of this game at all, its squares on the board
        except ActionError:
            return ""
        occ = self._occ
        kind, a, b = decode(action)
        if kind == PAWN_STEP:
            if not self.pawns[player] >> a & 1:
                return f"you have no Pawn on {square_name(a)}"
            return f"{_names(1 << b)} occupied" if KING_NEIGHBORS[a] >> b & 1 else "a Pawn steps one square"
        if kind in (GIANT_STEP, GIANT_KILL) and a != self.giants[player]:
            # Text names the Giant by its corner and is refused on parsing; a structured form may not.
            return f"your Giant stands on {giant_name(self.giants[player])}"
        if kind == GIANT_STEP:
            need = dict(GIANT_STEPS[a]).get(b)
            if need is not None:
                return f"{_names(need & occ)} occupied"
            return (
                "the Giant would leave the board"
                if KING_NEIGHBORS[a] >> b & 1
                else "a Giant steps one square"
            )
        if kind == GIANT_KILL:
            if b not in self.tanks[1 - player]:
                return f"there is no enemy Tank on {tank_name(b)}"
            return "that Tank shares no edge with your Giant"
        if a not in self.tanks[player]:
            return f"you have no Tank on {tank_name(a)}"
        if kind == TANK_MOVE:
            if not tank_ok(b):
                return "that is off the board"
            need = dict(TANK_MOVES[a]).get(b)
            if need is not None:
                return f"{_names(need & occ)} in the way"
            for new, square, swept in TANK_PIVOTS[a]:
                if new == b:
                    if square & occ:
                        return f"{_names(square)} occupied"
                    return f"{_names(swept)} occupied (the pivot sweeps through it)"
            return "a Tank moves 1 or 2 squares along its length, or pivots a quarter turn about one end"
        if not (TANK_RAY_UP[a] | TANK_RAY_DOWN[a]) >> b & 1:
            return f"{square_name(b)} is not in line with the Tank's length"
        if not self.pawns[1 - player] >> b & 1:
            return f"there is no enemy Pawn on {square_name(b)} (Tanks shoot only Pawns)"
        # The enemy Pawn is in line and not the nearest piece that way: what stands between.
        up = b > a >> 1
        ray = TANK_RAY_UP[a] if up else TANK_RAY_DOWN[a]
        between = ray & occ & ((1 << b) - 1 if up else ~((1 << (b + 1)) - 1))
        return f"{_names(between)} in the way"

    def position(self) -> str:
        """The position notation of this state.

        >>> Fightopia().new_initial_state().position()
        'vppggppv/v1pggp1v/2pppp2/8/8/2PPPP2/V1PGGP1V/VPPGGPPV - 0'
        """
        return format_position(
            Board(
                (self.pawns[0], self.pawns[1]),
                (self.giants[0], self.giants[1]),
                (self.tanks[0], self.tanks[1]),
                self.side,
                self.ply,
            )
        )

    # --- copies and views -------------------------------------------------------

    def clone(self) -> FightopiaState:
        other = FightopiaState.__new__(FightopiaState)
        other.game = self.game
        other.pawns = self.pawns[:]
        other.giants = self.giants[:]
        other.tanks = self.tanks[:]
        other.side = self.side
        other.ply = self.ply
        other._last = self._last
        other._occ = self._occ
        other._result = self._result
        other._legal = self._legal  # immutable, and replaced (never changed) by _apply
        return other

    def pieces(self) -> list[PieceJSON]:
        """Every piece as plain data: color, kind and squares (nearest a1 first)."""
        out: list[PieceJSON] = []
        for color in (WHITE, BLACK):
            name = COLOR_KEYS[color]
            corner = self.giants[color]
            squares = (corner, corner + 1, corner + SIZE, corner + SIZE + 1)
            out.append({"color": name, "kind": "giant", "squares": [square_name(s) for s in squares]})
            for code in self.tanks[color]:
                out.append(
                    {"color": name, "kind": "tank", "squares": [square_name(s) for s in tank_squares(code)]}
                )
            pawns = self.pawns[color]
            while pawns:
                bit = pawns & -pawns
                out.append({"color": name, "kind": "pawn", "squares": [square_name(bit.bit_length() - 1)]})
                pawns ^= bit
        return out

    def observation(self, player: int) -> FightopiaObservation:
        """Everything (the game has no secrets), as plain data.

        >>> obs = Fightopia().new_initial_state().observation(0)
        >>> obs["to_move"], obs["pieces"][0]
        (None, {'color': 'white', 'kind': 'giant', 'squares': ['d1', 'e1', 'd2', 'e2']})
        """
        last: LastJSON | None = None
        if self._last is not None:
            # The notation to show, and the structured form to draw from (a client never parses text).
            mover, action = self._last
            if mover == CHANCE:
                last = {"player": "chance", "action": format_chance(action), "move": First(action).to_json()}
            else:
                last = {
                    "player": COLOR_KEYS[mover],
                    "action": _action_text(action),
                    "move": Move.of(action).to_json(),
                }
        result = self._result
        return {
            "game": "fightopia",
            "player": player,
            "colors": list(COLOR_KEYS),
            "to_move": COLOR_KEYS[self.side] if self.side >= 0 and result is None else None,
            "to_act": list(self.to_act()),
            "ply": self.ply,
            "ply_limit": self.game._ply_limit,
            "limit_result": str(self.game.options["limit_result"]),
            "position": self.position(),
            "pieces": self.pieces(),
            "last": last,
            "result": result.to_json() if result else None,
        }

    def observation_to_text(self, observation: Mapping[str, JSON], player: int) -> str:
        from tussle.games.fightopia.render import render_observation

        return render_observation(observation, flip=player == BLACK)

    def render(self) -> str:
        from tussle.games.fightopia.render import render_observation

        return render_observation(self.observation(PUBLIC))


def _names(mask: int) -> str:
    squares = [square_name(s) for s in range(SIZE * SIZE) if mask >> s & 1]
    return (" and ".join(squares) + (" are" if len(squares) > 1 else " is")) if squares else ""


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "s")


def perft(state: FightopiaState, depth: int) -> int:
    """How many action sequences of length ``depth`` the side to move can play from ``state``.

    A finished game has no continuations. Used to check move generation.

    >>> s = Fightopia(ply_limit=0).state_from_position(START.replace(" - ", " w "))
    >>> perft(s, 1), perft(s, 2)
    (30, 900)
    """
    if depth == 0:
        return 1
    player = state.side
    legal = state.legal_actions(player) if player >= 0 else ()
    if depth == 1:
        return len(legal)
    total = 0
    for action in legal:
        child = state.clone()
        child._apply(player, action)
        total += perft(child, depth - 1)
    return total


__all__ = ["DEFAULT_PLY_LIMIT", "START", "Fightopia", "FightopiaActions", "FightopiaState", "perft"]
