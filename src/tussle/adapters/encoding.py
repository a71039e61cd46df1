"""Fixed integer action spaces and observation arrays for every game, from the core API only.

Reinforcement-learning libraries want each game's actions numbered once and for
all (``0 .. num_actions - 1``), with a mask of the legal ones, and each
player's observation as a fixed-size array. tussle's actions are objects with
a canonical notation; this module numbers them *through that notation*: each
game has an :class:`ActionCodec` that reads a canonical text (never a game's
internal objects) and gives its index, so the same action always has the
same number. Chance outcomes are numbered in a space of their own
(``0 .. num_chance - 1``).

Observation arrays are built from :meth:`tussle.game.State.observation` (plain
data) by one :class:`Features` per game; every value lies in ``[0, 1]``.

>>> from tussle import load_game
>>> enc = encoding_for(load_game("fightopia"))
>>> enc.num_actions, enc.num_chance, enc.observation_shape
(11648, 2, (515,))
>>> state = enc.game.new_initial_state()
>>> [(enc.chance_label(i), p) for i, p, _ in enc.chance_outcomes(state)]
[('first white', 0.5), ('first black', 0.5)]
>>> _ = state.apply_str(-1, "first white")
>>> legal = enc.legal(state, 0)
>>> len(legal), enc.label(legal.indices[0])
(30, 'b1-b2')
>>> enc.index(state, 0, state.parse_action(0, "c3-c4"))
144

The numbering of each game is described in docs/ecosystem.md.
"""

from __future__ import annotations

import itertools
import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from tussle.errors import ActionError, TussleError
from tussle.game import CHANCE, Game, State

__all__ = [
    "ActionCodec",
    "EncodingError",
    "Features",
    "FightCodec",
    "FightopiaCodec",
    "FiteCodec",
    "GameEncoding",
    "LegalMap",
    "RoboPigsCodec",
    "TankChessCodec",
    "encoding_for",
    "fight_cards",
]

FloatArray = npt.NDArray[np.float32]
MaskArray = npt.NDArray[np.int8]
IndexArray = npt.NDArray[np.int64]


class EncodingError(TussleError):
    """A notation the action space cannot number (a bug in the codec, or a game whose notation changed)."""


# --- board coordinates shared by the codecs --------------------------------

_FILES = "abcdefghijklmnopqrst"
#: Facings clockwise from north, with their steps (file, rank).
_FACINGS = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
_STEPS = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))
_STEP_INDEX = {step: i for i, step in enumerate(_STEPS)}


def _square(text: str, size: int) -> tuple[int, int]:
    """``'c3'`` as (file, rank) counted from 0, checked against a ``size`` board."""
    file = _FILES.find(text[:1])
    rank = int(text[1:]) - 1 if text[1:].isdigit() else -1
    if not (0 <= file < size and 0 <= rank < size):
        raise ValueError(f"{text!r} is not a square of a {size}x{size} board")
    return file, rank


def _name(file: int, rank: int, size: int) -> str | None:
    """The name of a square, or None off the board."""
    if 0 <= file < size and 0 <= rank < size:
        return f"{_FILES[file]}{rank + 1}"
    return None


def _sign(n: int) -> int:
    return (n > 0) - (n < 0)


# --- action codecs ---------------------------------------------------------


class ActionCodec(ABC):
    """Numbers one game's actions (and chance outcomes) by their canonical notation.

    Subclasses set :attr:`num_actions` and :attr:`num_chance` and implement
    :meth:`_encode`, :meth:`_encode_chance` and the labels. The index of a
    text depends on the text alone, never on the state, so it is cached.
    """

    num_actions: int = 0
    num_chance: int = 0

    def __init__(self) -> None:
        self._cache: dict[str, int] = {}
        self._chance_cache: dict[str, int] = {}

    def encode(self, text: str) -> int:
        """The index of a player action written ``text`` (canonical notation)."""
        try:
            return self._cache[text]
        except KeyError:
            pass
        try:
            index = self._encode(text)
        except (ValueError, KeyError, IndexError) as exc:
            raise EncodingError(f"{type(self).__name__}: {text!r} has no index ({exc})") from None
        if not 0 <= index < self.num_actions:
            raise EncodingError(f"{type(self).__name__}: {text!r} got index {index} out of range")
        if len(self._cache) > 500_000:  # a long session: forget, rather than grow without end
            self._cache.clear()
        self._cache[text] = index
        return index

    def encode_chance(self, text: str) -> int:
        """The index of a chance outcome written ``text``."""
        try:
            return self._chance_cache[text]
        except KeyError:
            pass
        try:
            index = self._encode_chance(text)
        except (ValueError, KeyError, IndexError) as exc:
            raise EncodingError(f"{type(self).__name__}: chance {text!r} has no index ({exc})") from None
        if not 0 <= index < self.num_chance:
            raise EncodingError(f"{type(self).__name__}: chance {text!r} got index {index} out of range")
        self._chance_cache[text] = index
        return index

    @abstractmethod
    def _encode(self, text: str) -> int: ...

    def _encode_chance(self, text: str) -> int:
        raise ValueError("this game has no chance events")

    @abstractmethod
    def label(self, index: int) -> str:
        """What action number ``index`` stands for, in notation where the index alone says it."""

    def chance_label(self, index: int) -> str:
        """What chance outcome number ``index`` stands for."""
        raise ValueError("this game has no chance events")

    def decode(self, index: int) -> str | None:
        """The canonical notation of the action numbered ``index``, when the index alone says it; else None.

        Codecs with a :meth:`fast_legal` shortcut must give one: their legal
        actions are then never listed, only parsed from this text when chosen.
        """
        return None

    def fast_legal(self, state: State, player: int, legal: Sequence[Any]) -> IndexArray | None:
        """The sorted indices of ``legal`` without listing it, when the codec knows how; else None.

        The caller checks the count, and a few members, against ``legal``.
        """
        return None


def _program_tables() -> tuple[IndexArray, IndexArray]:
    """For every Robo Battle Pigs program index: its number of X, and whether it is in range."""
    idx = np.arange(9**5, dtype=np.int64)
    x_count = np.zeros(idx.shape, dtype=np.int64)
    for k in range(5):
        x_count += (idx // 9**k) % 9 == 8
    return idx, x_count


class RoboPigsCodec(ActionCodec):
    """A program of five commands, each one of nine, as a base-9 number; then ``R R R R R``.

    >>> codec = RoboPigsCodec()
    >>> codec.encode("^ ^ ^ ^ ^"), codec.encode("F ^ TR v H"), codec.encode("R R R R R")
    (0, 39787, 59049)
    >>> codec.label(39787)
    'F ^ TR v H'
    """

    COMMANDS = ("^", "v", "\\", "/", "TL", "TR", "F", "H", "X")
    REPAIR = 9**5

    def __init__(self, extra_x: bool = False) -> None:
        super().__init__()
        self.num_actions = self.REPAIR + 1
        self._digit = {c: i for i, c in enumerate(self.COMMANDS)}
        self._extra_x = extra_x
        self._tables: dict[int, IndexArray] = {}

    def _encode(self, text: str) -> int:
        tokens = text.split(" ")
        if tokens == ["R"] * 5:
            return self.REPAIR
        if len(tokens) != 5:
            raise ValueError("a program has five commands")
        index = 0
        for token in tokens:
            index = index * 9 + self._digit[token]
        return index

    def label(self, index: int) -> str:
        if index == self.REPAIR:
            return "R R R R R"
        digits = []
        for _ in range(5):
            index, d = divmod(index, 9)
            digits.append(self.COMMANDS[d])
        return " ".join(reversed(digits))

    def decode(self, index: int) -> str | None:
        return self.label(index)

    def fast_legal(self, state: State, player: int, legal: Sequence[Any]) -> IndexArray | None:
        # A pig writes exactly one X per point of damage (at least that many with
        # extra_x), or repairs when damaged: the docs' count. The caller checks it.
        pigs = state.observation(player).get("pigs")
        if not isinstance(pigs, list) or not 0 <= player < len(pigs):
            return None
        damage = pigs[player].get("damage")
        if not isinstance(damage, int) or not 0 <= damage <= 5:
            return None
        table = self._tables.get(damage)
        if table is None:
            idx, x_count = _program_tables()
            keep = x_count >= damage if self._extra_x else x_count == damage
            chosen = idx[keep]
            if damage > 0:
                chosen = np.append(chosen, np.int64(self.REPAIR))
            table = self._tables[damage] = chosen
        return table


class FiteCodec(ActionCodec):
    """FITE's steps one after another: placement, Swift, split, tactical choice; rolls by their faces.

    >>> codec = FiteCodec()
    >>> [codec.encode(t) for t in ("off 1", "tac 6", "stay", "swift def", "5/4", "5/4 +brutal")]
    [0, 5, 6, 8, 45, 109]
    >>> codec.encode("pass"), codec.encode("move off>def 6,5"), codec.encode("turn off 6 def 1")
    (138, 146, 216)
    >>> codec.label(codec.encode("move def>off 2 and turn def 1,1"))
    'move def>off 2 and turn def 1,1'
    >>> codec.encode_chance("A off 6,5,4,2,2"), codec.chance_label(0), codec.num_chance
    (287, '6', 3002)
    """

    LOCATIONS = ("off", "def", "tac")
    PLACE, SWIFT, SPLIT, TACTIC = 0, 6, 10, 138

    def __init__(self) -> None:
        super().__init__()
        # Multisets of one or two dice faces, written highest first.
        self._moved: list[tuple[int, ...]] = [(f,) for f in range(6, 0, -1)] + list(
            itertools.combinations_with_replacement(range(6, 0, -1), 2)
        )
        self._moved_index = {m: i for i, m in enumerate(self._moved)}
        # One or two (pool, face) dice to turn, in canonical order: off before def, faces high first.
        dice = [(pool, face) for pool in (0, 1) for face in range(6, 0, -1)]
        self._turned: list[tuple[tuple[int, int], ...]] = [(d,) for d in dice]
        self._turned += itertools.combinations_with_replacement(dice, 2)
        self._turned_index = {t: i for i, t in enumerate(self._turned)}
        n_move = 2 * len(self._moved)  # 54
        n_turn = len(self._turned)  # 90
        self._n_move, self._n_turn = n_move, n_turn
        self.num_actions = self.TACTIC + 1 + n_move + n_turn + n_move * n_turn
        self._rolls = [
            roll for k in range(1, 9) for roll in itertools.combinations_with_replacement(range(6, 0, -1), k)
        ]
        self._roll_index = {r: i for i, r in enumerate(self._rolls)}
        self.num_chance = len(self._rolls)

    @staticmethod
    def _faces(text: str) -> tuple[int, ...]:
        faces = tuple(int(f) for f in text.split(","))
        if not all(1 <= f <= 6 for f in faces):
            raise ValueError("die faces run from 1 to 6")
        return faces

    def _encode(self, text: str) -> int:
        words = text.split(" ")
        if len(words) == 2 and words[0] in self.LOCATIONS and words[1].isdigit():
            return self.PLACE + int(words[1]) - 1
        if text == "stay":
            return self.SWIFT
        if len(words) == 2 and words[0] == "swift":
            return self.SWIFT + 1 + self.LOCATIONS.index(words[1])
        if match := re.fullmatch(r"([1-8])/([1-8])( \+\S+)?", text):
            off, dfn = int(match[1]), int(match[2])
            return self.SPLIT + (64 if match[3] else 0) + (off - 1) * 8 + dfn - 1
        return self.TACTIC + self._tactic(text)

    def _tactic(self, text: str) -> int:
        if text == "pass":
            return 0
        move = turn = None
        for part in text.split(" and "):
            if match := re.fullmatch(r"move (off|def)>(off|def) ([1-6](?:,[1-6])?)", part):
                source = ("off", "def").index(match[1])
                move = source * len(self._moved) + self._moved_index[self._faces(match[3])]
            elif part.startswith("turn "):
                words = part.split(" ")[1:]
                dice: list[tuple[int, int]] = []
                for pool, faces in zip(words[::2], words[1::2], strict=True):
                    dice += [(("off", "def").index(pool), f) for f in self._faces(faces)]
                turn = self._turned_index[tuple(dice)]
            else:
                raise ValueError(f"unknown part {part!r}")
        if move is not None and turn is not None:
            return 1 + self._n_move + self._n_turn + move * self._n_turn + turn
        if move is not None:
            return 1 + move
        if turn is not None:
            return 1 + self._n_move + turn
        raise ValueError("empty tactical choice")

    def _encode_chance(self, text: str) -> int:
        return self._roll_index[self._faces(text.rsplit(" ", maxsplit=1)[-1])]

    def label(self, index: int) -> str:
        if index < self.SWIFT:
            face = index + 1
            return f"{self.LOCATIONS[(face - 1) // 2]} {face}"
        if index < self.SPLIT:
            return "stay" if index == self.SWIFT else f"swift {self.LOCATIONS[index - self.SWIFT - 1]}"
        if index < self.TACTIC:
            power, rest = divmod(index - self.SPLIT, 64)
            off, dfn = divmod(rest, 8)
            return f"{off + 1}/{dfn + 1}" + (" +power" if power else "")
        t = index - self.TACTIC
        if t == 0:
            return "pass"
        t -= 1
        if t < self._n_move:
            return self._move_label(t)
        t -= self._n_move
        if t < self._n_turn:
            return self._turn_label(t)
        move, turn = divmod(t - self._n_turn, self._n_turn)
        return f"{self._move_label(move)} and {self._turn_label(turn)}"

    def _move_label(self, move: int) -> str:
        source, m = divmod(move, len(self._moved))
        pools = ("off", "def")
        faces = ",".join(map(str, self._moved[m]))
        return f"move {pools[source]}>{pools[1 - source]} {faces}"

    def _turn_label(self, turn: int) -> str:
        dice = self._turned[turn]
        groups = []
        for pool in (0, 1):
            faces = [str(f) for p, f in dice if p == pool]
            if faces:
                groups.append(f"{('off', 'def')[pool]} {','.join(faces)}")
        return "turn " + " ".join(groups)

    def chance_label(self, index: int) -> str:
        return ",".join(map(str, self._rolls[index]))


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

    @staticmethod
    def _sq(text: str) -> tuple[int, int]:
        return _square(text, 8)

    @staticmethod
    def _tank(a: str, b: str) -> tuple[int, int, int]:
        """A Tank on squares ``a`` and ``b`` (nearest a1 first): its first square and direction."""
        (x1, y1), (x2, y2) = _square(a, 8), _square(b, 8)
        if (x2, y2) == (x1, y1 + 1):
            return x1, y1, 0
        if (x2, y2) == (x1 + 1, y1):
            return x1, y1, 1
        raise ValueError(f"{a}{b} is not a Tank")

    def _encode(self, text: str) -> int:
        sq = "[a-h][1-8]"
        if match := re.fullmatch(f"({sq})-({sq})", text):
            (x, y), (u, v) = self._sq(match[1]), self._sq(match[2])
            return self.PAWN + (y * 8 + x) * 8 + _STEP_INDEX[(u - x, v - y)]
        if match := re.fullmatch(f"G({sq})-({sq})", text):
            (x, y), (u, v) = self._sq(match[1]), self._sq(match[2])
            return self.GIANT + (y * 8 + x) * 8 + _STEP_INDEX[(u - x, v - y)]
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
            dx, dy = _STEPS[step]
            a, b = _name(x, y, 8), _name(x + dx, y + dy, 8)
            if a is None or b is None:
                return None
            return f"G{a}-{b}" if giant else f"{a}-{b}"
        if index < self.TANK:
            square, rest = divmod(index - self.KILL, 50)
            y, x = divmod(square, 8)
            offset, orient = divmod(rest, 2)
            dx, dy = divmod(offset, 5)
            tank = self._tank_at(x + dx - 2, y + dy - 2, orient)
            corner = _name(x, y, 8)
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
        target = _name(x, along, 8) if orient == 0 else _name(along, y, 8)
        return f"T{old}x{target}" if old is not None and target is not None else None

    @staticmethod
    def _tank_at(x: int, y: int, orient: int) -> str | None:
        """A Tank's squares from its first square and direction (0: along a file); None off the board."""
        a = _name(x, y, 8)
        b = _name(x, y + 1, 8) if orient == 0 else _name(x + 1, y, 8)
        return f"{a}{b}" if a is not None and b is not None else None

    def decode(self, index: int) -> str | None:
        return self._label(index)


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
        x, y = _square(match[2] + match[3], self.size)
        origin = y * self.size + x
        if match[4]:
            return self._off + origin
        u, v = _square(match[5] + match[6], self.size)
        dx, dy = u - x, v - y
        if not (-5 <= dx <= 5 and -5 <= dy <= 5):
            raise ValueError("a tank moves at most 5 squares")
        facing = _FACINGS.index(match[7])
        shot = 0
        if match[8]:
            tx, ty = _square(match[8] + match[9], self.size)
            sx, sy = tx - u, ty - v
            distance = max(abs(sx), abs(sy))
            if distance == 0 or (sx and sy and abs(sx) != abs(sy)):
                raise ValueError("a shot goes along a line")
            turn = (_STEP_INDEX[(_sign(sx), _sign(sy))] - facing) % 8
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
            return f"{_name(x, y, self.size)}-off"
        rest, shot = divmod(index, len(self.SHOTS))
        rest, facing = divmod(rest, 8)
        origin, move = divmod(rest, 121)
        y, x = divmod(origin, self.size)
        dx, dy = divmod(move, 11)
        dest = _name(x + dx - 5, y + dy - 5, self.size) or "off-board"
        text = f"{_name(x, y, self.size)}-{dest}{_FACINGS[facing]}"
        return f"{text} shot {self.SHOTS[shot]}" if shot else text


class FightCodec(ActionCodec):
    """Fight!'s actions and chance outcomes by the names of its cards (read from the deck in play).

    >>> codec = FightCodec(["Grizzle", "Blip", "Imp"], ["Sunset Pit"], players=3)
    >>> [codec.encode(t) for t in ("main Grizzle boost Blip", "main Imp", "activate", "activate p2", "score")]
    [1, 11, 12, 15, 16]
    >>> [codec.encode_chance(t) for t in ("draw Imp", "top Alien", "arena Sunset Pit")]
    [2, 7, 8]
    >>> codec.label(1), codec.chance_label(7)
    ('main Grizzle boost Blip', 'top Alien')
    """

    FAMILIES = ("Human", "Animal", "Robot", "Demon", "Alien")

    def __init__(self, warriors: Sequence[str], arenas: Sequence[str], players: int) -> None:
        super().__init__()
        self.warriors = tuple(warriors)
        self.arenas = tuple(arenas)
        self.players = players
        self._warrior = {name: i for i, name in enumerate(self.warriors)}
        self._arena = {name: i for i, name in enumerate(self.arenas)}
        n = len(self.warriors)
        self._single = n * n
        self._activate = n * n + n
        self._score = self._activate + 1 + players
        self.num_actions = self._score + 1
        self.num_chance = n + len(self.FAMILIES) + len(self.arenas)

    def _encode(self, text: str) -> int:
        if text == "activate":
            return self._activate
        if text == "score":
            return self._score
        if text.startswith("activate p"):
            seat = int(text[len("activate p") :])
            if not 0 <= seat < self.players:
                raise ValueError(f"no seat {seat}")
            return self._activate + 1 + seat
        if text.startswith("main "):
            main, sep, boost = text[len("main ") :].partition(" boost ")
            if not sep:
                return self._single + self._warrior[main]
            return self._warrior[main] * len(self.warriors) + self._warrior[boost]
        raise ValueError("not a Fight! action")

    def _encode_chance(self, text: str) -> int:
        kind, _, name = text.partition(" ")
        n = len(self.warriors)
        if kind == "draw":
            return self._warrior[name]
        if kind == "top":
            return n + self.FAMILIES.index(name)
        if kind == "arena":
            return n + len(self.FAMILIES) + self._arena[name]
        raise ValueError("not a Fight! chance event")

    def label(self, index: int) -> str:
        n = len(self.warriors)
        if index < self._single:
            main, boost = divmod(index, n)
            return f"main {self.warriors[main]} boost {self.warriors[boost]}"
        if index < self._activate:
            return f"main {self.warriors[index - self._single]}"
        if index == self._activate:
            return "activate"
        if index < self._score:
            return f"activate p{index - self._activate - 1}"
        return "score"

    def decode(self, index: int) -> str | None:
        return self.label(index)

    def chance_label(self, index: int) -> str:
        n = len(self.warriors)
        if index < n:
            return f"draw {self.warriors[index]}"
        if index < n + len(self.FAMILIES):
            return f"top {self.FAMILIES[index - n]}"
        return f"arena {self.arenas[index - n - len(self.FAMILIES)]}"


def fight_cards(game: Game, limit: int = 10_000) -> tuple[list[str], list[str]]:
    """The Warriors and Arenas of the deck a Fight! game plays with, read through the core API.

    The deal draws from the whole deck and the first Arena from all Arenas, so
    the chance outcomes of the first events name every card. Events are
    applied (first outcome, first legal action) until an Arena is drawn.

    >>> from tussle import load_game
    >>> warriors, arenas = fight_cards(load_game("fight"))
    >>> len(warriors), len(arenas), warriors[0], arenas[0]
    (60, 12, 'Stray Cadet', 'Sunset Pit')
    """
    state = game.new_initial_state()
    warriors: dict[str, None] = {}
    for _ in range(limit):
        acting = state.to_act()
        if not acting:
            break
        if acting == (CHANCE,):
            outcomes = state.chance_outcomes()
            texts = [state.action_to_str(CHANCE, o) for o, _ in outcomes]
            arenas = [t[len("arena ") :] for t in texts if t.startswith("arena ")]
            if arenas:
                return list(warriors), arenas
            for t in texts:
                if t.startswith("draw "):
                    warriors.setdefault(t[len("draw ") :])
            state.apply(CHANCE, outcomes[0][0])
        else:
            for p in acting:
                state.apply(p, state.legal_actions(p)[0])
    raise EncodingError("fight: no Arena was drawn in the first events, so the deck's cards are unknown")


# --- observation arrays ----------------------------------------------------


class Features(ABC):
    """Turns one game's observation data into a flat float32 array with values in ``[0, 1]``."""

    size: int = 0

    def array(self, obs: dict[str, Any], player: int) -> FloatArray:
        """A fresh array for ``obs``, the observation of ``player``."""
        out = np.zeros(self.size, dtype=np.float32)
        self.write(obs, player, out)
        return out

    @abstractmethod
    def write(self, obs: dict[str, Any], player: int, out: FloatArray) -> None:
        """Fill ``out`` (zeros on entry) from ``obs``."""


def _hot(out: FloatArray, offset: int, index: int | None, width: int) -> None:
    """Set position ``index`` of the one-hot block at ``offset`` (nothing for None or out of range)."""
    if index is not None and 0 <= index < width:
        out[offset + index] = 1.0


def _frac(value: Any, scale: float) -> float:
    """``value / scale`` clipped to [0, 1]; non-numbers count as 0."""
    if isinstance(value, bool) or not isinstance(value, int | float) or scale <= 0:
        return 0.0
    return float(min(1.0, max(0.0, value / scale)))


def _find(seq: Sequence[Any], item: Any) -> int | None:
    try:
        return seq.index(item)
    except ValueError:
        return None


def _board_index(text: Any, size: int) -> int | None:
    if not isinstance(text, str):
        return None
    try:
        x, y = _square(text, size)
    except ValueError:
        return None
    return y * size + x


class RoboPigsFeatures(Features):
    """Both pigs (own first): square, facing, damage; the round; the own program; last round's programs."""

    FACINGS = ("N", "E", "S", "W")
    COMMANDS = ("^", "v", "\\", "/", "TL", "TR", "F", "H", "X", "R")
    size = 64 * 2 + 4 * 2 + 6 * 2 + 2 + 3 * 50

    def __init__(self, round_limit: int) -> None:
        self.round_limit = round_limit or 100

    def _program(self, out: FloatArray, offset: int, text: Any) -> None:
        if isinstance(text, str):
            for step, command in enumerate(text.split(" ")[:5]):
                _hot(out, offset + step * 10, _find(self.COMMANDS, command), 10)

    def write(self, obs: dict[str, Any], player: int, out: FloatArray) -> None:
        pigs = obs.get("pigs") or []
        order = [player, 1 - player] if player in (0, 1) else [0, 1]
        for k, p in enumerate(order):
            if p >= len(pigs):
                continue
            pig = pigs[p]
            _hot(out, 64 * k, _board_index(pig.get("square"), 8), 64)
            _hot(out, 128 + 4 * k, _find(self.FACINGS, pig.get("facing")), 4)
            _hot(out, 136 + 6 * k, pig.get("damage"), 6)
        out[148] = _frac(obs.get("round"), self.round_limit)
        mine = obs.get("my_program")
        out[149] = 1.0 if mine else 0.0
        self._program(out, 150, mine)
        last = obs.get("last_round") or {}
        programs = last.get("programs") or []
        for k, p in enumerate(order):
            if p < len(programs):
                self._program(out, 200 + 50 * k, programs[p])


class FiteFeatures(Features):
    """Both fighters (own first), the step, the public part of the turn and the roll under way."""

    POWERS = (None, "aggressive", "brutal", "cunning", "fast", "swift", "tough")
    PLACES = (None, "off", "def", "tac")
    PHASES = ("setup", "place", "swift", "split", "roll", "tactical", "over")
    ENTITLED = ("none", "one", "both")
    size = 130

    def __init__(self, turn_limit: int) -> None:
        self.turn_limit = turn_limit or 100

    def write(self, obs: dict[str, Any], player: int, out: FloatArray) -> None:
        fighters = obs.get("fighters") or []
        order = [player, 1 - player] if player in (0, 1) else [0, 1]
        for k, p in enumerate(order):
            if p >= len(fighters):
                continue
            f, base = fighters[p], 29 * k
            _hot(out, base, f.get("dice"), 10)
            _hot(out, base + 10, _find(self.POWERS, f.get("power")), 7)
            out[base + 17] = 1.0 if f.get("power_used") else 0.0
            _hot(out, base + 18, _find(self.PLACES, f.get("location")), 4)
            face = f.get("face")
            _hot(out, base + 22, face if isinstance(face, int) else 0, 7)
        _hot(out, 58, _find(self.PHASES, obs.get("phase")), 7)
        out[65] = _frac(obs.get("turn"), self.turn_limit)
        out[66] = 1.0 if obs.get("to_move") else 0.0
        out[67] = 1.0 if obs.get("mine") else 0.0
        fight = obs.get("fight")
        if fight:
            out[68] = 1.0
            swift = fight.get("swift") or []
            split = fight.get("split") or []
            powers = fight.get("powers") or []
            modifiers = fight.get("modifiers") or []
            rolls = fight.get("rolls") or []
            tactical = fight.get("tactical") or {}
            entitled = tactical.get("entitled") or []
            choices = tactical.get("choices") or []
            for k, p in enumerate(order):
                if p < len(swift):
                    _hot(out, 69 + 4 * k, _find(self.PLACES, swift[p]), 4)
                if p < len(split) and split[p]:
                    out[77 + 3 * k] = 1.0
                    out[78 + 3 * k] = _frac(split[p][0], 8)
                    out[79 + 3 * k] = _frac(split[p][1], 8)
                if p < len(powers) and powers[p]:
                    out[83 + k] = 1.0
                if p < len(modifiers) and modifiers[p]:
                    for j, pool in enumerate(("off", "def")):
                        value = modifiers[p].get(pool, 0)
                        out[85 + 2 * k + j] = _frac(value + 2, 5) if isinstance(value, int) else 0.0
                if p < len(rolls) and rolls[p]:
                    for j, pool in enumerate(("off", "def")):
                        faces = rolls[p].get(pool)
                        if faces:
                            base = 89 + 14 * k + 7 * j
                            out[base] = 1.0
                            for face in faces:
                                if isinstance(face, int) and 1 <= face <= 6:
                                    out[base + face] += 1.0 / 8
                if p < len(entitled):
                    _hot(out, 117 + 3 * k, _find(self.ENTITLED, entitled[p]), 3)
                if p < len(choices) and choices[p]:
                    out[123 + k] = 1.0
        rolling = obs.get("rolling")
        if rolling:
            fighter = _find(("A", "B"), rolling.get("fighter"))
            rolled = _find(("off", "def"), rolling.get("pool"))
            if fighter is not None and rolled is not None:
                relative = 0 if fighter == player else 1
                out[125 + 2 * relative + rolled] = 1.0
            out[129] = _frac(rolling.get("dice"), 8)


class FightopiaFeatures(Features):
    """Eight 8x8 planes (own and enemy Pawns, Giant, Tanks along a file, Tanks along a rank) and the turn."""

    KINDS = ("pawn", "giant", "tank")
    size = 8 * 64 + 3

    def __init__(self, ply_limit: int) -> None:
        self.ply_limit = ply_limit or 2000

    def write(self, obs: dict[str, Any], player: int, out: FloatArray) -> None:
        colors = obs.get("colors") or ["white", "black"]
        mine = colors[player] if 0 <= player < len(colors) else None
        for piece in obs.get("pieces") or []:
            squares = [_board_index(s, 8) for s in piece.get("squares") or []]
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
        out[514] = _frac(obs.get("ply"), self.ply_limit)


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
                s = _board_index(square, self.board)
                if s is not None:
                    out[plane * n + s] = 1.0
        for tank in obs.get("tanks") or []:
            s = _board_index(tank.get("square"), self.board)
            kind = _find(self.TYPES, tank.get("type"))
            if s is None or kind is None:
                continue
            own = tank.get("side") == side
            out[(2 + kind + (0 if own else len(self.TYPES))) * n + s] = 1.0
            facing = _find(_FACINGS, tank.get("facing"))
            if facing is not None:
                out[(2 + 2 * len(self.TYPES) + facing) * n + s] = 1.0
        extra = self.planes * n
        out[extra] = 1.0 if obs.get("to_move") == side and not obs.get("result") else 0.0
        out[extra + 1] = _frac(obs.get("ply"), self.ply_limit)
        announced = obs.get("announced") or {}
        k = 0 if announced.get("by") == side else 2
        out[extra + 2 + k] = 1.0 if announced.get("check") else 0.0
        out[extra + 3 + k] = 1.0 if announced.get("escape") else 0.0


class FightFeatures(Features):
    """Fight! from one seat: own hand by name, every seat (from the own one on) by what is public.

    Per seat: the families in hand, the Main Warrior and its power, the Boost
    (family, and name when known), the scored Warriors, Arenas and Glory.
    Then the Graveyard, the Warriors drawn and killed, the Arenas, the
    Reserves, the stage, the 1st player and the leader.
    """

    FAMILIES = FightCodec.FAMILIES
    STAGES = ("setup", "play", "resolve", "ability", "draw", "over")

    def __init__(self, warriors: Sequence[str], arenas: Sequence[str], players: int) -> None:
        self.warrior = {name: i for i, name in enumerate(warriors)}
        self.arena = {name: i for i, name in enumerate(arenas)}
        self.players = players
        n, a = len(warriors), len(arenas)
        self.n, self.a = n, a
        self.seat_size = 3 * n + 23
        self.tail = 3 * n + 2 * a + 5 + 1 + 5 + len(self.STAGES) + 1 + players + (players + 1) + 1
        self.size = n + players * self.seat_size + self.tail

    def _cards(self, out: FloatArray, offset: int, cards: Iterable[Any]) -> None:
        for card in cards:
            name = card.get("name") if isinstance(card, dict) else card
            _hot(out, offset, self.warrior.get(name) if isinstance(name, str) else None, self.n)

    def _families(self, out: FloatArray, offset: int, cards: Iterable[Any], scale: float) -> None:
        for card in cards:
            family = _find(self.FAMILIES, card.get("family")) if isinstance(card, dict) else None
            if family is not None:
                out[offset + family] = min(1.0, out[offset + family] + 1.0 / scale)

    def write(self, obs: dict[str, Any], player: int, out: FloatArray) -> None:
        n, players = self.n, self.players
        me = player if 0 <= player < players else 0
        seats = obs.get("seats") or []
        if me < len(seats):
            self._cards(out, 0, seats[me].get("hand") or [])
        for k in range(players):
            q = (me + k) % players
            if q >= len(seats):
                continue
            seat, base = seats[q], n + k * self.seat_size
            hand = seat.get("hand") or []
            self._families(out, base, hand, 10)
            out[base + 5] = _frac(len(hand), 10)
            main = seat.get("main")
            if main:
                out[base + 6] = 1.0
                self._cards(out, base + 7, [main])
                out[base + 7 + n] = _frac(main.get("current_power"), 60)
            boost = seat.get("boost")
            b = base + 8 + n
            if boost:
                out[b] = 1.0
                out[b + 1] = 1.0 if boost.get("activated") else 0.0
                self._families(out, b + 2, [boost], 1)
                self._cards(out, b + 7, [boost])
            s = b + 7 + n
            scored = seat.get("scored") or []
            out[s] = _frac(len(scored), 20)
            self._families(out, s + 1, scored, 10)
            self._cards(out, s + 6, scored)
            out[s + 6 + n] = _frac(len(seat.get("arenas") or []), 7)
            out[s + 7 + n] = _frac(seat.get("glory"), 60)
        t = n + players * self.seat_size
        self._cards(out, t, obs.get("graveyard") or [])
        self._cards(out, t + n, obs.get("drawn") or [])
        self._cards(out, t + 2 * n, obs.get("killed") or [])
        t += 3 * n
        arena = obs.get("arena")
        if arena:
            _hot(out, t, self.arena.get(arena.get("name")), self.a)
        for upcoming in obs.get("upcoming_arenas") or []:
            _hot(out, t + self.a, self.arena.get(upcoming.get("name")), self.a)
        t += 2 * self.a
        _hot(out, t, _find(self.FAMILIES, obs.get("last_main_family")), 5)
        reserves = obs.get("reserves") or {}
        out[t + 5] = _frac(reserves.get("count"), max(1, n))
        _hot(out, t + 6, _find(self.FAMILIES, reserves.get("top_family")), 5)
        t += 11
        _hot(out, t, _find(self.STAGES, obs.get("stage")), len(self.STAGES))
        t += len(self.STAGES)
        out[t] = _frac(obs.get("fight"), 7)
        t += 1
        first = obs.get("first_player")
        if isinstance(first, int):
            _hot(out, t, (first - me) % players, players)
        t += players
        leader = obs.get("leader")
        _hot(out, t, (leader - me) % players if isinstance(leader, int) else players, players + 1)
        t += players + 1
        out[t] = 1.0 if me in (obs.get("to_act") or []) else 0.0


# --- one game's encoding ---------------------------------------------------


class LegalMap:
    """The legal actions of one player at one moment, by index.

    ``indices`` is sorted. :meth:`action` gives the action an index stands
    for in the state the map was made from (or an identical copy of it).
    """

    __slots__ = ("_actions", "_decode", "_player", "_set", "indices")

    def __init__(
        self,
        indices: Sequence[int],
        player: int,
        actions: dict[int, Any] | None = None,
        decode: Callable[[int], str | None] | None = None,
    ) -> None:
        self.indices: list[int] = list(indices)
        self._player = player
        self._actions = actions
        self._decode = decode
        self._set: frozenset[int] | None = None

    def __len__(self) -> int:
        return len(self.indices)

    def __contains__(self, index: object) -> bool:
        if self._actions is not None:
            return index in self._actions
        if self._set is None:
            self._set = frozenset(self.indices)
        return index in self._set

    def text(self, state: State, index: int) -> str | None:
        """The canonical notation of the legal action numbered ``index``, or None if it is not legal."""
        if self._actions is not None:
            action = self._actions.get(index)
            return state.action_to_str(self._player, action) if action is not None else None
        if index in self and self._decode is not None:
            return self._decode(index)
        return None

    def action(self, state: State, index: int) -> Any:
        """The legal action numbered ``index``; :class:`ActionError` if there is none."""
        index = int(index)
        if self._actions is not None:
            try:
                return self._actions[index]
            except KeyError:
                pass
        elif index in self and self._decode is not None:
            text = self._decode(index)
            if text is not None:
                return state.parse_action(self._player, text)
        who = state.player_name(self._player)
        raise ActionError(f"action {index} is not one of the {len(self)} legal actions of {who} now")


class GameEncoding:
    """One game's integer action space and observation arrays (see the module docs)."""

    def __init__(self, game: Game, codec: ActionCodec, features: Features) -> None:
        self.game = game
        self.codec = codec
        self.features = features
        self.num_actions = codec.num_actions
        self.num_chance = codec.num_chance
        self.observation_shape: tuple[int, ...] = (features.size,)

    def label(self, index: int) -> str:
        """What action number ``index`` stands for (see :meth:`ActionCodec.label`)."""
        return self.codec.label(index)

    def chance_label(self, index: int) -> str:
        return self.codec.chance_label(index)

    def index(self, state: State, player: int, action: Any) -> int:
        """The index of ``action`` by ``player`` (or a chance outcome with ``player=CHANCE``) in ``state``."""
        text = state.action_to_str(player, action)
        return self.codec.encode_chance(text) if player == CHANCE else self.codec.encode(text)

    def legal(self, state: State, player: int) -> LegalMap:
        """``player``'s legal actions in ``state`` by index (empty when it is not to act)."""
        actions = state.legal_actions(player)
        if len(actions) > 1024:
            fast = self.codec.fast_legal(state, player, actions)
            if fast is not None and self._agrees(state, player, actions, fast):
                return LegalMap(fast.tolist(), player, decode=self.codec.decode)
        by_index: dict[int, Any] = {}
        encode, fmt = self.codec.encode, state.action_to_str
        for action in actions:
            index = encode(fmt(player, action))
            if index in by_index:
                raise EncodingError(
                    f"{self.game.info.id}: {fmt(player, action)!r} and {fmt(player, by_index[index])!r} "
                    f"share action index {index}"
                )
            by_index[index] = action
        return LegalMap(sorted(by_index), player, actions=by_index)

    def _agrees(self, state: State, player: int, actions: Sequence[Any], fast: IndexArray) -> bool:
        """Whether a codec's shortcut matches the game: the same count, and sampled members inside."""
        if len(fast) != len(actions):
            return False
        picks = {0, len(actions) // 3, len(actions) // 2, len(actions) - 1}
        for i in picks:
            index = self.codec.encode(state.action_to_str(player, actions[i]))
            at = int(np.searchsorted(fast, index))
            if at >= len(fast) or int(fast[at]) != index:
                return False
        return True

    def mask(self, legal: LegalMap) -> MaskArray:
        """A fresh 0/1 array over the whole action space, 1 at the legal indices."""
        out = np.zeros(self.num_actions, dtype=np.int8)
        if legal.indices:
            out[np.asarray(legal.indices, dtype=np.int64)] = 1
        return out

    def chance_outcomes(self, state: State) -> list[tuple[int, float, Any]]:
        """The pending chance event's outcomes as (index, probability, outcome), by index."""
        out = [
            (self.codec.encode_chance(state.action_to_str(CHANCE, outcome)), prob, outcome)
            for outcome, prob in state.chance_outcomes()
            if prob > 0
        ]
        out.sort(key=lambda item: item[0])
        return out

    def observation(self, state: State, player: int) -> FloatArray:
        """``player``'s observation of ``state`` as a fresh float32 array of :attr:`observation_shape`."""
        return self.features.array(state.observation(player), player)


def _build(game: Game) -> GameEncoding:
    gid, opts = game.info.id, game.options
    if gid == "robo-pigs":
        return GameEncoding(
            game,
            RoboPigsCodec(bool(opts.get("extra_x"))),
            RoboPigsFeatures(int(opts.get("round_limit") or 0)),
        )
    if gid == "fite":
        return GameEncoding(game, FiteCodec(), FiteFeatures(int(opts.get("turn_limit") or 0)))
    if gid == "fightopia":
        return GameEncoding(game, FightopiaCodec(), FightopiaFeatures(int(opts.get("ply_limit") or 0)))
    if gid == "tank-chess":
        size = int(opts.get("size") or 16)
        return GameEncoding(
            game, TankChessCodec(size), TankChessFeatures(size, int(opts.get("ply_limit") or 0))
        )
    if gid == "fight":
        warriors, arenas = fight_cards(game)
        return GameEncoding(
            game,
            FightCodec(warriors, arenas, game.num_players),
            FightFeatures(warriors, arenas, game.num_players),
        )
    raise EncodingError(f"no integer encoding for the game {gid!r} yet")


_ENCODINGS: dict[tuple[str, int, tuple[tuple[str, Any], ...]], GameEncoding] = {}


def encoding_for(game: Game) -> GameEncoding:
    """The encoding of ``game`` (one per game id, player count and options; built once).

    >>> from tussle import load_game
    >>> encoding_for(load_game("tank-chess", size=20)).num_actions
    2710800
    """
    key = (game.info.id, game.num_players, tuple(sorted(game.options.items())))
    encoding = _ENCODINGS.get(key)
    if encoding is None:
        encoding = _ENCODINGS[key] = _build(game)
    return encoding
