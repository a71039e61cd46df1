"""Fightopia's integer action space and observation arrays, for the RL adapters (docs/ecosystem.md)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import numpy as np

from tussle.adapters.encoding import (
    STEP_INDEX,
    STEPS,
    ActionCodec,
    Features,
    FloatArray,
    GameEncoding,
    board_index,
    frac,
    parse_square,
    square_name,
)
from tussle.game import Game, State
from tussle.games.fightopia.board import BLACK, GIANT_MASK, TANK_MASK, WHITE
from tussle.games.fightopia.rules import FightopiaState

#: A Giant's squares on its plane (the second of a side's four 64-square planes), by corner.
_GIANT_BITS = tuple(mask << 64 for mask in GIANT_MASK)
#: A Tank's squares on its plane, by code: the third plane along a file (code & 1), the fourth along a rank.
_TANK_BITS = tuple(mask << (128 if code & 1 else 192) for code, mask in enumerate(TANK_MASK))


class FightopiaCodec(ActionCodec):
    """Pawn and Giant steps, Giant kills, Tank moves and shots, each by the squares they name.

    A Tank is its square nearest a1 and its direction (along a file, or a
    rank); the other parts are offsets from it.

    >>> codec = FightopiaCodec()
    >>> [codec.encode(t) for t in ("c3-c4", "Gd1-d2", "Gd4xTc4c5", "Ta1a2-a2a3", "Ta1a2xa6")]
    [144, 536, 2388, 4250, 10629]
    >>> codec.label(2388), codec.chance_label(1)
    ('Gd4xTc4c5', 'first black')
    """

    PAWN, GIANT, KILL, TANK, SHOT = 0, 512, 1024, 4224, 10624
    CHANCE_TEXTS = ("first white", "first black")

    def __init__(self) -> None:
        super().__init__()
        self.num_actions = self.SHOT + 128 * 8
        self.num_chance = 2
        self.numbered_by = "action"  # a move (an int) is written from the move alone

    @staticmethod
    def _sq(text: str) -> tuple[int, int]:
        return parse_square(text, 8)

    @staticmethod
    def _tank(a: str, b: str) -> tuple[int, int, int]:
        """A Tank on squares ``a`` and ``b`` (nearest a1 first): its first square and direction."""
        (x1, y1), (x2, y2) = parse_square(a, 8), parse_square(b, 8)
        if (x2, y2) == (x1, y1 + 1):
            return x1, y1, 0
        if (x2, y2) == (x1 + 1, y1):
            return x1, y1, 1
        raise ValueError(f"{a}{b} is not a Tank")

    def _encode(self, text: str) -> int:
        sq = "[a-h][1-8]"
        if match := re.fullmatch(f"({sq})-({sq})", text):
            (x, y), (u, v) = self._sq(match[1]), self._sq(match[2])
            return self.PAWN + (y * 8 + x) * 8 + STEP_INDEX[(u - x, v - y)]
        if match := re.fullmatch(f"G({sq})-({sq})", text):
            (x, y), (u, v) = self._sq(match[1]), self._sq(match[2])
            return self.GIANT + (y * 8 + x) * 8 + STEP_INDEX[(u - x, v - y)]
        if match := re.fullmatch(f"G({sq})xT({sq})({sq})", text):
            (x, y) = self._sq(match[1])
            tx, ty, orient = self._tank(match[2], match[3])
            return self.KILL + (y * 8 + x) * 50 + self._offset(tx - x, ty - y) * 2 + orient
        if match := re.fullmatch(f"T({sq})({sq})-({sq})({sq})", text):
            x, y, orient = self._tank(match[1], match[2])
            u, v, new = self._tank(match[3], match[4])
            return self.TANK + ((y * 8 + x) * 2 + orient) * 50 + self._offset(u - x, v - y) * 2 + new
        if match := re.fullmatch(f"T({sq})({sq})x({sq})", text):
            x, y, orient = self._tank(match[1], match[2])
            u, v = self._sq(match[3])
            if (u if orient == 0 else v) != (x if orient == 0 else y):
                raise ValueError("a Tank shoots along its length")
            return self.SHOT + ((y * 8 + x) * 2 + orient) * 8 + (v if orient == 0 else u)
        raise ValueError("not a Fightopia action")

    @staticmethod
    def _offset(dx: int, dy: int) -> int:
        if not (-2 <= dx <= 2 and -2 <= dy <= 2):
            raise ValueError("too far")
        return (dx + 2) * 5 + dy + 2

    def _encode_chance(self, text: str) -> int:
        return self.CHANCE_TEXTS.index(text)

    def chance_label(self, index: int) -> str:
        return self.CHANCE_TEXTS[index]

    def label(self, index: int) -> str:
        """The notation the index stands for, or ``unused`` for an index no position can use."""
        text = self._label(index)
        return text if text is not None else "unused"

    def _label(self, index: int) -> str | None:
        if index < self.KILL:
            giant = index >= self.GIANT
            square, step = divmod(index - (self.GIANT if giant else self.PAWN), 8)
            y, x = divmod(square, 8)
            dx, dy = STEPS[step]
            a, b = square_name(x, y, 8), square_name(x + dx, y + dy, 8)
            if a is None or b is None:
                return None
            return f"G{a}-{b}" if giant else f"{a}-{b}"
        if index < self.TANK:
            square, rest = divmod(index - self.KILL, 50)
            y, x = divmod(square, 8)
            offset, orient = divmod(rest, 2)
            dx, dy = divmod(offset, 5)
            tank = self._tank_at(x + dx - 2, y + dy - 2, orient)
            corner = square_name(x, y, 8)
            return f"G{corner}xT{tank}" if tank is not None and corner is not None else None
        if index < self.SHOT:
            placement, rest = divmod(index - self.TANK, 50)
            square, orient = divmod(placement, 2)
            y, x = divmod(square, 8)
            offset, turned = divmod(rest, 2)
            dx, dy = divmod(offset, 5)
            old, new = self._tank_at(x, y, orient), self._tank_at(x + dx - 2, y + dy - 2, turned)
            return f"T{old}-{new}" if old is not None and new is not None else None
        placement, along = divmod(index - self.SHOT, 8)
        square, orient = divmod(placement, 2)
        y, x = divmod(square, 8)
        old = self._tank_at(x, y, orient)
        target = square_name(x, along, 8) if orient == 0 else square_name(along, y, 8)
        return f"T{old}x{target}" if old is not None and target is not None else None

    @staticmethod
    def _tank_at(x: int, y: int, orient: int) -> str | None:
        """A Tank's squares from its first square and direction (0: along a file); None off the board."""
        a = square_name(x, y, 8)
        b = square_name(x, y + 1, 8) if orient == 0 else square_name(x + 1, y, 8)
        return f"{a}{b}" if a is not None and b is not None else None

    def decode(self, index: int) -> str | None:
        return self._label(index)


class FightopiaFeatures(Features):
    """Eight 8x8 planes (own and enemy Pawns, Giant, Tanks along a file, Tanks along a rank) and the turn."""

    KINDS = ("pawn", "giant", "tank")
    size = 8 * 64 + 3

    def __init__(self, ply_limit: int) -> None:
        self.ply_limit = ply_limit or 2000

    def write(self, obs: Mapping[str, Any], player: int, out: FloatArray) -> None:
        colors = obs.get("colors") or ["white", "black"]
        mine = colors[player] if 0 <= player < len(colors) else None
        for piece in obs.get("pieces") or []:
            squares = [board_index(s, 8) for s in piece.get("squares") or []]
            kind = piece.get("kind")
            plane = 0 if kind == "pawn" else 1 if kind == "giant" else None
            if kind == "tank" and len(squares) == 2 and None not in squares:
                a, b = sorted(s for s in squares if s is not None)
                plane = 2 if b - a == 8 else 3
            if plane is None:
                continue
            if piece.get("color") != mine:
                plane += 4
            for s in squares:
                if s is not None:
                    out[plane * 64 + s] = 1.0
        out[512] = 1.0 if player in (obs.get("to_act") or []) else 0.0
        out[513] = 1.0 if obs.get("to_move") is None and not obs.get("result") else 0.0
        out[514] = frac(obs.get("ply"), self.ply_limit)

    def write_state(self, state: State[Any], player: int, out: FloatArray) -> None:
        """:meth:`write` of ``state.observation(player)``, read straight off the state's bitboards.

        It exists for speed: the observation's dict, its position text and its square
        names cost several times the game's own step, and the RL environments build
        an array at every decision. The array is exactly :meth:`write`'s (tests compare
        the two for every player at every step of many games).
        """
        if not isinstance(state, FightopiaState):
            super().write_state(state, player, out)
            return
        # Each side's planes as one 256-bit int (Pawns, Giant, Tanks along a file, along a rank);
        # the player's own side first, the other's 256 bits above. A non-player (such as the
        # public view) owns nothing: every piece is then on the enemy planes.
        pawns, giants, tanks = state.pawns, state.giants, state.tanks
        white = pawns[WHITE] | _GIANT_BITS[giants[WHITE]]
        for code in tanks[WHITE]:
            white |= _TANK_BITS[code]
        black = pawns[BLACK] | _GIANT_BITS[giants[BLACK]]
        for code in tanks[BLACK]:
            black |= _TANK_BITS[code]
        if player == WHITE:
            bits = white | black << 256
        elif player == BLACK:
            bits = black | white << 256
        else:
            bits = (white | black) << 256
        out[:512] = np.unpackbits(np.frombuffer(bits.to_bytes(64, "little"), np.uint8), bitorder="little")
        out[512] = 1.0 if player in state.to_act() else 0.0
        out[513] = 1.0 if state.side < 0 and state.result() is None else 0.0
        out[514] = min(1.0, max(0.0, state.ply / self.ply_limit))


def encoding(game: Game) -> GameEncoding:
    """The encoding of a Fightopia game (its ``GameInfo.hooks.encoding``)."""
    features = FightopiaFeatures(int(game.options["ply_limit"] or 0))
    return GameEncoding(game, FightopiaCodec(), features)
