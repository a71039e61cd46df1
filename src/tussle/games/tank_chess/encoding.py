"""Tank Chess's integer action space and observation arrays, for the RL adapters (docs/ecosystem.md)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from tussle.adapters.encoding import (
    FACINGS,
    STEP_INDEX,
    ActionCodec,
    EncodingError,
    Features,
    FloatArray,
    GameEncoding,
    IndexArray,
    LegalMap,
    StepCodec,
    board_index,
    find,
    frac,
    sign,
    square_name,
)
from tussle.errors import ActionError
from tussle.game import Game, State
from tussle.games.tank_chess.board import (
    BLACK,
    ESCAPE,
    GEOMETRY,
    NO_TARGET,
    OBSTACLE,
    TANK,
    WHITE,
    WRECK,
    decode,
    encode,
)
from tussle.games.tank_chess.notation import read_move
from tussle.games.tank_chess.rules import TankActions, TankChessState


class TankChessCodec(ActionCodec):
    """A turn as the tank's square, where it ends (an offset of up to 5 each way), its facing and its shot.

    A shot is numbered by where it goes from the tank's new square and
    facing: 45 degrees left, 45 degrees right, or straight ahead, and straight
    ahead at 3, 4 or 5 squares has a number of its own (the Heavy Mortar picks
    its target by range; every other gun hits the first tank on its line).
    Driving off the board is one more number per square.

    >>> codec = TankChessCodec(16)
    >>> codec.num_actions
    1734912
    >>> [codec.encode(t) for t in ("Mh3-h6N", "Lc3-d5NE xg8", "Ch16-off")]
    [267792, 234483, 1734903]
    >>> codec.label(234483), codec.label(1734903)
    ('c3-d5NE shot ahead 3', 'h16-off')
    """

    SHOTS = ("", "ahead", "left", "right", "ahead 3", "ahead 4", "ahead 5")

    def __init__(self, size: int = 16) -> None:
        super().__init__()
        self.size = size
        self._geo = GEOMETRY[size]
        self._per_square = 121 * 8 * len(self.SHOTS)
        self._off = size * size * self._per_square
        self.num_actions = self._off + size * size
        self._squares = size * size
        self._states = size * size * 8
        # A turn's move and facing, ((dx + 5) * 11 + dy + 5) * 8 + facing, is
        # _end_key[end state] - _start_key[square]: one subtraction from the game's numbers.
        self._end_key = [
            ((st >> 3) % size * 11 + (st >> 3) // size) * 8 + (st & 7) for st in range(size * size * 8)
        ]
        self._start_key = [(square % size * 11 + square // size - 60) * 8 for square in range(size * size)]
        # A turn without a shot from each square is numbered (_from_array[square] + _end_key[end
        # state]) * 7, worked out for a whole list at once; an escape's end (ESCAPE) gets 0.
        self._from_array = np.array(
            [square * 121 * 8 - key for square, key in enumerate(self._start_key)], dtype=np.int64
        )
        self._end_array = np.zeros(ESCAPE + 1, dtype=np.int64)
        self._end_array[: len(self._end_key)] = self._end_key

    def action_index(self, state: State[Any], player: int, action: Any) -> int:
        """The number of ``player``'s legal turn ``action``, worked out from the game's int for it.

        The environments number every legal turn at every decision; writing each
        one's notation to read its number back cost several times the game's own
        turn. The int holds all the number depends on (squares, facing, target), and
        notation is numbered through it too (:meth:`_encode`). Anything but a turn on
        the board goes the base class's way, through its text.
        """
        if type(action) is int:
            start = action & 511
            end = action >> 9 & 4095
            escape = end == ESCAPE and action >> 21 == NO_TARGET
            if start < self._squares and (escape or end < self._states):
                return int(self.numbers([action])[0])  # a turn on the board: numbered as lists are
        return super().action_index(state, player, action)

    def _encode(self, text: str) -> int:
        """The number of a turn in canonical notation: read by the game's own reader, then numbered
        from the game's int for it (no board is needed: the text names every square and the facing).
        """
        try:
            written = read_move(self._geo, text)
        except ActionError as exc:
            raise ValueError(str(exc)) from None
        if written.off:
            if written.facing is not None or written.target != NO_TARGET:
                raise ValueError("a tank that drives off the board takes no facing and no shot")
            return self.number(encode(written.start, ESCAPE))
        if written.dest is None or written.facing is None:
            raise ValueError("a turn's number needs where it ends and its facing")
        return self.number(encode(written.start, written.dest * 8 + written.facing, written.target))

    def number(self, action: int) -> int:
        """:meth:`numbers` of one turn (the game's int), refusing one that no tank could make."""
        start, end, _ = decode(action)
        if end != ESCAPE:
            size = self.size
            here = end >> 3
            if abs(here % size - start % size) > 5 or abs(here // size - start // size) > 5:
                raise ValueError("a tank moves at most 5 squares")
        return int(self.numbers([action])[0])

    def numbers(self, actions: Sequence[int]) -> IndexArray:
        """:meth:`action_index` of each of a list of legal turns (the game's ints), worked out at once."""
        turns = np.array(actions, dtype=np.int64)
        start = turns & 511
        end = turns >> 9 & 4095
        target = turns >> 21
        numbers = np.where(
            end == ESCAPE,
            self._off + start,
            (self._from_array[start] + self._end_array[end]) * len(self.SHOTS),
        )
        shots = np.flatnonzero(target != NO_TARGET)
        if len(shots):
            for i, e, t in zip(shots.tolist(), end[shots].tolist(), target[shots].tolist(), strict=True):
                numbers[i] += self.shot(e, t)
        return numbers

    def shot(self, end: int, target: int) -> int:
        """The shot number of a turn that ends in the game's state ``end`` and destroys ``target``."""
        size = self.size
        here = end >> 3
        return shot_number(target % size - here % size, target // size - here // size, end & 7)

    def label(self, index: int) -> str:
        """The turn's squares and facing, and which way it shoots (the target is not named)."""
        if index >= self._off:
            y, x = divmod(index - self._off, self.size)
            return f"{square_name(x, y, self.size)}-off"
        rest, shot = divmod(index, len(self.SHOTS))
        rest, facing = divmod(rest, 8)
        origin, move = divmod(rest, 121)
        y, x = divmod(origin, self.size)
        dx, dy = divmod(move, 11)
        dest = square_name(x + dx - 5, y + dy - 5, self.size) or "off-board"
        text = f"{square_name(x, y, self.size)}-{dest}{FACINGS[facing]}"
        return f"{text} shot {self.SHOTS[shot]}" if shot else text


def shot_number(sx: int, sy: int, facing: int) -> int:
    """The number (1 to 6) of a shot ``(sx, sy)`` squares away from a tank facing ``facing``."""
    distance = max(abs(sx), abs(sy))
    if distance == 0 or (sx and sy and abs(sx) != abs(sy)):
        raise ValueError("a shot goes along a line")
    turn = (STEP_INDEX[(sign(sx), sign(sy))] - facing) % 8
    if turn == 0:
        return 4 + distance - 3 if 3 <= distance <= 5 else 1
    if turn == 7:
        return 2
    if turn == 1:
        return 3
    raise ValueError("a tank shoots ahead or 45 degrees to either side")


class TankChessSteps(StepCodec):
    """A turn in three steps: the tank (its square), where it ends and faces, then its shot.

    Tokens: a square (``size * size`` of them) first; then the end square as an
    offset of up to 5 each way and the facing (968), or 968 for driving off the
    board (which ends the turn); then the shot as :class:`TankChessCodec`
    numbers them (0 none, 1 to 6). Each step asks the game for just what it
    offers (the tanks; one tank's movements; the shots from one end state), so
    a decision never lists every legal turn.

    >>> steps = TankChessSteps(TankChessCodec(16))
    >>> steps.num_tokens, steps.split(TankChessCodec(16).encode("Lc3-d5NE xg8"))
    (969, (34, 585, 4))
    """

    OFF = 121 * 8

    def __init__(self, codec: TankChessCodec) -> None:
        self.codec = codec
        self.num_tokens = max(codec.size * codec.size, self.OFF + 1, len(codec.SHOTS))
        self.max_steps = 3

    def split(self, index: int) -> tuple[int, ...]:
        """The tokens of the turn numbered ``index`` in the flat space, first to last."""
        codec = self.codec
        if index >= codec._off:
            return (index - codec._off, self.OFF)
        rest, shot = divmod(index, len(codec.SHOTS))
        origin, move = divmod(rest, self.OFF)
        return (origin, move, shot)

    def tokens_of(self, text: str) -> list[int] | None:
        """A turn's tokens, from its number in the flat space.

        >>> TankChessSteps(TankChessCodec(16)).tokens_of("Lc3-d5NE xg8")
        [34, 585, 4]
        """
        try:
            return list(self.split(self.codec.encode(text)))
        except EncodingError:
            return None

    def start(self, state: State[Any], player: int) -> _Choice:
        return _Choice(self.codec, state, player)

    def legal_tokens(self, context: _Choice, prefix: Sequence[int]) -> list[int]:
        if not prefix:
            return context.tank_tokens
        ends = context.ends(prefix[0])
        if ends is None:
            return []
        if len(prefix) == 1:
            return ends[0]
        if len(prefix) == 2:
            shots = context.shots(prefix[0], prefix[1], ends[1])
            if shots is not None:
                return shots[0]
        return []

    def complete(self, context: _Choice, prefix: Sequence[int]) -> str | None:
        ends = context.ends(prefix[0]) if prefix else None
        if ends is None:
            return None
        square = prefix[0]
        if len(prefix) == 2 and prefix[1] == self.OFF and self.OFF in ends[1]:
            return context.text(square | ESCAPE << 9 | NO_TARGET << 21)
        if len(prefix) == 3:
            shots = context.shots(square, prefix[1], ends[1])
            target = shots[1].get(prefix[2]) if shots is not None else None
            if target is not None:
                return context.text(square | ends[1][prefix[1]] << 9 | target << 21)
        return None

    def token_label(self, prefix: Sequence[int], token: int) -> str:
        size = self.codec.size
        if not prefix:
            y, x = divmod(token, size)
            return square_name(x, y, size) or str(token)
        if len(prefix) == 1:
            if token == self.OFF:
                return "off"
            move, facing = divmod(token, 8)
            dx, dy = divmod(move, 11)
            return f"{dx - 5:+d}{dy - 5:+d}{FACINGS[facing]}"
        return self.codec.SHOTS[token] or "no shot" if 0 <= token < len(self.codec.SHOTS) else str(token)


#: One tank's second-step tokens, sorted, and each token's end state (ESCAPE for driving off).
Ends = tuple[list[int], dict[int, int]]
#: The third-step tokens after one end state, sorted, and each token's target (NO_TARGET for none).
Shots = tuple[list[int], dict[int, int]]


class _Choice:
    """One decision of :class:`TankChessSteps`: what each step offers, asked of the game when first needed.

    Every tank can turn in place (a 45 degree turn needs no empty square), so
    every tank has a turn and the first step offers them all without looking
    at their movements.
    """

    __slots__ = ("_ends", "_shots", "actions", "codec", "player", "state", "tank_tokens")

    def __init__(self, codec: TankChessCodec, state: State[Any], player: int) -> None:
        self.codec = codec
        self.state = state
        self.player = player
        actions = state.legal_actions(player)
        self.actions = actions if isinstance(actions, TankActions) else None
        self.tank_tokens: list[int] = list(self.actions.tanks) if self.actions is not None else []
        self._ends: dict[int, Ends | None] = {}
        self._shots: dict[tuple[int, int], Shots | None] = {}

    def ends(self, square: int) -> Ends | None:
        """The tank on ``square``'s second step (None if it is no tank of the player to move)."""
        try:
            return self._ends[square]
        except KeyError:
            pass
        found: Ends | None = None
        if self.actions is not None and square in self.actions.tanks:
            states, escape = self.actions.movements(square)
            key = self.codec._end_key
            base = self.codec._start_key[square]
            by_token = {key[st] - base: st for st in states}
            if escape:
                by_token[TankChessSteps.OFF] = ESCAPE
            found = (sorted(by_token), by_token)
        self._ends[square] = found
        return found

    def shots(self, square: int, token: int, by_token: dict[int, int]) -> Shots | None:
        """The third step once the tank on ``square`` took the end ``token`` (None if that ends the turn)."""
        try:
            return self._shots[square, token]
        except KeyError:
            pass
        found: Shots | None = None
        end = by_token.get(token)
        if end is not None and end != ESCAPE and self.actions is not None:
            targets = {0: NO_TARGET}
            for target in self.actions.targets(square, end):
                targets[self.codec.shot(end, target)] = target
            found = (sorted(targets), targets)
        self._shots[square, token] = found
        return found

    def text(self, action: int) -> str:
        return self.state.action_to_str(self.player, action)


class TankChessFeatures(Features):
    """Planes over the board (obstacles, wrecks, own and enemy tanks by type, facings) and the turn."""

    TYPES = ("L", "M", "H", "C", "D", "R")

    def __init__(self, size: int, ply_limit: int) -> None:
        self.board = size
        self.ply_limit = ply_limit or 1000
        self.planes = 2 + 2 * len(self.TYPES) + 8
        self.size = self.planes * size * size + 6
        # For write_state: where a square's board code puts its 1 (plane * n), seen by White,
        # by Black and by anyone else (whose tanks are all the enemy's), and a tank's facing.
        n = size * size
        types = len(self.TYPES)
        codes = np.arange(256)
        kind_plane = 2 + (codes >> 3 & 7)
        self._piece = [
            np.where(
                codes == OBSTACLE,
                0,
                np.where(codes == WRECK, n, (kind_plane + np.where(codes >> 6 & 1 == view, 0, types)) * n),
            )
            for view in (WHITE, BLACK, -1)
        ]
        self._facing = (2 + 2 * types + (codes & 7)) * n

    def write(self, obs: Mapping[str, Any], player: int, out: FloatArray) -> None:
        n = self.board * self.board
        side = ("white", "black")[player] if player in (0, 1) else None
        for plane, key in ((0, "obstacles"), (1, "wrecks")):
            for square in obs.get(key) or []:
                s = board_index(square, self.board)
                if s is not None:
                    out[plane * n + s] = 1.0
        for tank in obs.get("tanks") or []:
            s = board_index(tank.get("square"), self.board)
            kind = find(self.TYPES, tank.get("type"))
            if s is None or kind is None:
                continue
            own = tank.get("side") == side
            out[(2 + kind + (0 if own else len(self.TYPES))) * n + s] = 1.0
            facing = find(FACINGS, tank.get("facing"))
            if facing is not None:
                out[(2 + 2 * len(self.TYPES) + facing) * n + s] = 1.0
        extra = self.planes * n
        out[extra] = 1.0 if obs.get("to_move") == side and not obs.get("result") else 0.0
        out[extra + 1] = frac(obs.get("ply"), self.ply_limit)
        announced = obs.get("announced") or {}
        k = 0 if announced.get("by") == side else 2
        out[extra + 2 + k] = 1.0 if announced.get("check") else 0.0
        out[extra + 3 + k] = 1.0 if announced.get("escape") else 0.0

    def write_state(self, state: State[Any], player: int, out: FloatArray) -> None:
        """:meth:`write` of ``state.observation(player)``, read straight off the board.

        It exists for speed: the observation also holds every tank's lines of fire,
        the last move and who threatens what, in words, which cost several times the
        game's own turn, and the environments build an array at every decision. The
        array is exactly :meth:`write`'s (tests compare the two on many positions).
        """
        if not isinstance(state, TankChessState) or state.geo.size != self.board:
            super().write_state(state, player, out)
            return
        board = np.array(state.board)
        squares = np.flatnonzero(board)
        codes = board[squares]
        out[self._piece[player if player in (WHITE, BLACK) else 2][codes] + squares] = 1.0
        tanks = codes >= TANK
        out[self._facing[codes[tanks]] + squares[tanks]] = 1.0
        extra = self.planes * self.board * self.board
        over = state.result() is not None
        out[extra] = 1.0 if player == state.turn and not over else 0.0
        out[extra + 1] = frac(state.ply, self.ply_limit)
        if state.ply and not over:
            check, escape = state.announcements()
            k = 0 if player == 1 - state.turn else 2
            out[extra + 2 + k] = 1.0 if check else 0.0
            out[extra + 3 + k] = 1.0 if escape else 0.0


class TankChessEncoding(GameEncoding):
    """:class:`GameEncoding` with a quicker :meth:`legal`: the environments ask for it at every decision."""

    codec: TankChessCodec

    def legal(self, state: State[Any], player: int) -> LegalMap:
        """As :meth:`GameEncoding.legal` gives it, with the turns numbered all at once.

        Numbering about 400 turns one call at a time cost more than listing them.
        Two turns on one number (a codec's bug) are left to the general way, which names them.
        """
        actions = state.legal_actions(player)
        if not isinstance(actions, TankActions):
            return super().legal(state, player)
        turns = list(actions)
        numbers = self.codec.numbers(turns)
        by_index = dict(zip(numbers.tolist(), turns, strict=True))
        if len(by_index) != len(turns):
            return super().legal(state, player)
        return LegalMap(np.sort(numbers).tolist(), player, actions=by_index)


def encoding(game: Game) -> GameEncoding:
    """The encoding of a Tank Chess game (its ``GameInfo.hooks.encoding``)."""
    size = int(game.options["size"])
    codec = TankChessCodec(size)
    return TankChessEncoding(
        game, codec, TankChessFeatures(size, int(game.options["ply_limit"] or 0)), TankChessSteps(codec)
    )
