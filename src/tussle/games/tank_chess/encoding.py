"""Tank Chess's integer action space and observation arrays, for the RL adapters (docs/ecosystem.md)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from tussle.adapters.encoding import (
    FACINGS,
    STEP_INDEX,
    ActionCodec,
    Features,
    FloatArray,
    GameEncoding,
    IndexSteps,
    board_index,
    find,
    frac,
    parse_square,
    sign,
    square_name,
)
from tussle.game import Game


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
    _TURN = re.compile(
        r"([LMHCDR])([a-t])(\d{1,2})-(?:(off)|([a-t])(\d{1,2})(NE|NW|SE|SW|N|E|S|W))(?: x([a-t])(\d{1,2}))?"
    )

    def __init__(self, size: int = 16) -> None:
        super().__init__()
        self.size = size
        self._per_square = 121 * 8 * len(self.SHOTS)
        self._off = size * size * self._per_square
        self.num_actions = self._off + size * size

    def _encode(self, text: str) -> int:
        match = self._TURN.fullmatch(text)
        if match is None:
            raise ValueError("not a Tank Chess turn")
        x, y = parse_square(match[2] + match[3], self.size)
        origin = y * self.size + x
        if match[4]:
            return self._off + origin
        u, v = parse_square(match[5] + match[6], self.size)
        dx, dy = u - x, v - y
        if not (-5 <= dx <= 5 and -5 <= dy <= 5):
            raise ValueError("a tank moves at most 5 squares")
        facing = FACINGS.index(match[7])
        shot = 0
        if match[8]:
            tx, ty = parse_square(match[8] + match[9], self.size)
            sx, sy = tx - u, ty - v
            distance = max(abs(sx), abs(sy))
            if distance == 0 or (sx and sy and abs(sx) != abs(sy)):
                raise ValueError("a shot goes along a line")
            turn = (STEP_INDEX[(sign(sx), sign(sy))] - facing) % 8
            if turn == 0:
                shot = 4 + distance - 3 if 3 <= distance <= 5 else 1
            elif turn == 7:
                shot = 2
            elif turn == 1:
                shot = 3
            else:
                raise ValueError("a tank shoots ahead or 45 degrees to either side")
        move = (dx + 5) * 11 + dy + 5
        return ((origin * 121 + move) * 8 + facing) * len(self.SHOTS) + shot

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


class TankChessSteps(IndexSteps):
    """A turn in three steps: the tank (its square), where it ends and faces, then its shot.

    Tokens: a square (``size * size`` of them) first; then the end square as an
    offset of up to 5 each way and the facing (968), or 968 for driving off the
    board (which ends the turn); then the shot as :class:`TankChessCodec`
    numbers them (0 none, 1 to 6).

    >>> steps = TankChessSteps(TankChessCodec(16))
    >>> steps.num_tokens, steps.split(TankChessCodec(16).encode("Lc3-d5NE xg8"))
    (969, (34, 585, 4))
    """

    OFF = 121 * 8

    def __init__(self, codec: TankChessCodec) -> None:
        self.codec = codec
        shots = len(codec.SHOTS)

        def split(index: int) -> tuple[int, ...]:
            if index >= codec._off:
                return (index - codec._off, self.OFF)
            rest, shot = divmod(index, shots)
            origin, move = divmod(rest, self.OFF)
            return (origin, move, shot)

        super().__init__(max(codec.size * codec.size, self.OFF + 1, shots), 3, split)

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


class TankChessFeatures(Features):
    """Planes over the board (obstacles, wrecks, own and enemy tanks by type, facings) and the turn."""

    TYPES = ("L", "M", "H", "C", "D", "R")

    def __init__(self, size: int, ply_limit: int) -> None:
        self.board = size
        self.ply_limit = ply_limit or 1000
        self.planes = 2 + 2 * len(self.TYPES) + 8
        self.size = self.planes * size * size + 6

    def write(self, obs: dict[str, Any], player: int, out: FloatArray) -> None:
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


def encoding(game: Game) -> GameEncoding:
    """The encoding of a Tank Chess game (its ``GameInfo.hooks.encoding``)."""
    size = int(game.options["size"])
    codec = TankChessCodec(size)
    return GameEncoding(
        game, codec, TankChessFeatures(size, int(game.options["ply_limit"] or 0)), TankChessSteps(codec)
    )
