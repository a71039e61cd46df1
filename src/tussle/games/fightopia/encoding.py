"""Fightopia's integer action space and observation arrays, for the RL adapters (docs/ecosystem.md)."""

from __future__ import annotations

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
)
from tussle.errors import ActionError
from tussle.game import Game, State
from tussle.games.fightopia.board import (
    BLACK,
    GIANT_KILL,
    GIANT_MASK,
    GIANT_STEP,
    PAWN_STEP,
    TANK_MASK,
    TANK_MOVE,
    TANK_SHOT,
    WHITE,
    decode,
    encode,
    tank_ok,
)
from tussle.games.fightopia.notation import format_action, format_chance, parse_chance, read_action
from tussle.games.fightopia.rules import FightopiaState

#: A Giant's squares on its plane (the second of a side's four 64-square planes), by corner.
_GIANT_BITS = tuple(mask << 64 for mask in GIANT_MASK)
#: A Tank's squares on its plane, by code: the third plane along a file (code & 1), the fourth along a rank.
_TANK_BITS = tuple(mask << (128 if code & 1 else 192) for code, mask in enumerate(TANK_MASK))


class FightopiaCodec(ActionCodec):
    """Pawn and Giant steps, Giant kills, Tank moves and shots, each by the squares they name.

    A Tank is its square nearest a1 and its direction (along a file, or a
    rank); the other parts are offsets from it. A number is read off the
    action's parts (the engine's int); text is read by the game's notation.

    >>> codec = FightopiaCodec()
    >>> [codec.encode(t) for t in ("c3-c4", "Gd1-d2", "Gd4xTc4c5", "Ta1a2-a2a3", "Ta1a2xa6")]
    [144, 536, 2388, 4250, 10629]
    >>> codec.label(2388), codec.chance_label(1)
    ('Gd4xTc4c5', 'first black')
    """

    PAWN, GIANT, KILL, TANK, SHOT = 0, 512, 1024, 4224, 10624

    def __init__(self) -> None:
        super().__init__()
        self.num_actions = self.SHOT + 128 * 8
        self.num_chance = 2
        self.numbered_by = "action"  # a move (an int) is written from the move alone

    def _encode(self, text: str) -> int:
        try:
            return self.number(read_action(text))
        except ActionError as exc:
            raise ValueError(str(exc)) from None

    def number(self, action: int) -> int:
        """The index of a player's action (the engine's int); ValueError or KeyError if it has none."""
        kind, a, b = decode(action)
        if kind in (PAWN_STEP, GIANT_STEP):
            base = self.PAWN if kind == PAWN_STEP else self.GIANT
            return base + a * 8 + STEP_INDEX[((b & 7) - (a & 7), (b >> 3) - (a >> 3))]
        if kind == GIANT_KILL:
            tank = b >> 1
            return self.KILL + a * 50 + _offset(tank, a) * 2 + _direction(b)
        if kind == TANK_MOVE:
            low = a >> 1
            return self.TANK + (low * 2 + _direction(a)) * 50 + _offset(b >> 1, low) * 2 + _direction(b)
        if kind == TANK_SHOT:
            low = a >> 1
            along_file = a & 1
            if (b & 7 if along_file else b >> 3) != (low & 7 if along_file else low >> 3):
                raise ValueError("a Tank shoots along its length")
            return self.SHOT + (low * 2 + _direction(a)) * 8 + (b >> 3 if along_file else b & 7)
        raise ValueError("not a Fightopia action")

    def _encode_chance(self, text: str) -> int:
        try:
            return parse_chance(text)
        except ActionError as exc:
            raise ValueError(str(exc)) from None

    def chance_label(self, index: int) -> str:
        return format_chance(index)

    def label(self, index: int) -> str:
        """The notation the index stands for, or ``unused`` for an index no position can use."""
        action = self.action(index)
        return format_action(action) if action is not None else "unused"

    def action(self, index: int) -> int | None:
        """The action (the engine's int) numbered ``index``, or None where its squares leave the board."""
        if index < self.KILL:
            giant = index >= self.GIANT
            square, step = divmod(index - (self.GIANT if giant else self.PAWN), 8)
            dx, dy = STEPS[step]
            to = _square((square & 7) + dx, (square >> 3) + dy)
            return None if to is None else encode(GIANT_STEP if giant else PAWN_STEP, square, to)
        if index < self.TANK:
            corner, rest = divmod(index - self.KILL, 50)
            offset, direction = divmod(rest, 2)
            dx, dy = divmod(offset, 5)
            tank = _tank((corner & 7) + dx - 2, (corner >> 3) + dy - 2, direction)
            return None if tank is None else encode(GIANT_KILL, corner, tank)
        if index < self.SHOT:
            placement, rest = divmod(index - self.TANK, 50)
            offset, direction = divmod(rest, 2)
            dx, dy = divmod(offset, 5)
            low = placement >> 1
            old = _tank(low & 7, low >> 3, placement & 1)
            new = _tank((low & 7) + dx - 2, (low >> 3) + dy - 2, direction)
            return None if old is None or new is None else encode(TANK_MOVE, old, new)
        placement, along = divmod(index - self.SHOT, 8)
        low = placement >> 1
        old = _tank(low & 7, low >> 3, placement & 1)
        # Along a file (direction 0) the target is on the Tank's file, else on its rank.
        target = along * 8 + (low & 7) if placement & 1 == 0 else (low & ~7) + along
        return None if old is None else encode(TANK_SHOT, old, target)

    def decode(self, index: int) -> str | None:
        action = self.action(index)
        return format_action(action) if action is not None else None


def _direction(code: int) -> int:
    """The codec's direction of a Tank (0: along a file), from its code (1 there: along a file)."""
    return 1 - (code & 1)


def _offset(square: int, origin: int) -> int:
    """The codec's number of ``square``'s offset from ``origin``, each at most 2 files and ranks away."""
    dx, dy = (square & 7) - (origin & 7), (square >> 3) - (origin >> 3)
    if not (-2 <= dx <= 2 and -2 <= dy <= 2):
        raise ValueError("too far")
    return (dx + 2) * 5 + dy + 2


def _square(x: int, y: int) -> int | None:
    return y * 8 + x if 0 <= x < 8 and 0 <= y < 8 else None


def _tank(x: int, y: int, direction: int) -> int | None:
    """The Tank with its square nearest a1 on ``(x, y)`` and the codec's ``direction``; None off the board."""
    low = _square(x, y)
    code = None if low is None else low * 2 + 1 - direction
    return code if code is not None and tank_ok(code) else None


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
