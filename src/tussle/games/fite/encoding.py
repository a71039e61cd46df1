"""FITE's integer action space and observation arrays, for the RL adapters (docs/ecosystem.md)."""

from __future__ import annotations

import itertools
import re
from collections.abc import Hashable
from typing import Any

from tussle.adapters.encoding import (
    ActionCodec,
    Features,
    FloatArray,
    GameEncoding,
    find,
    frac,
    hot,
)
from tussle.game import Game, State


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

    Under ``turn_dice=any`` a turn may name the opponent's dice too, and the
    space grows to hold them. They are numbered as the opponent's, whichever
    letter names them (a fighter's own dice are never written with its letter),
    so one number means the same for both seats; labels write ``their``:

    >>> wide = FiteCodec("any")
    >>> wide.num_actions, wide.encode("turn B def 6") == wide.encode("turn A def 6")
    (18013, True)
    >>> wide.label(wide.encode("move off>def 6 and turn off 1 B def 6"))
    'move off>def 6 and turn off 1 their def 6'
    """

    LOCATIONS = ("off", "def", "tac")
    #: Words before a pool that make it the opponent's: either letter, and ``their`` of the labels.
    THEIRS = ("A", "B", "their")
    PLACE, SWIFT, SPLIT, TACTIC = 0, 6, 10, 138

    def __init__(self, turn_dice: str = "own") -> None:
        super().__init__()
        # Multisets of one or two dice faces, written highest first.
        self._moved: list[tuple[int, ...]] = [(f,) for f in range(6, 0, -1)] + list(
            itertools.combinations_with_replacement(range(6, 0, -1), 2)
        )
        self._moved_index = {m: i for i, m in enumerate(self._moved)}
        # One or two (pool, face) dice to turn, in canonical order: off before def, faces high first;
        # under turn_dice=any then the opponent's (pools 2 and 3).
        pools = (0, 1, 2, 3) if turn_dice == "any" else (0, 1)
        dice = [(pool, face) for pool in pools for face in range(6, 0, -1)]
        self._turned: list[tuple[tuple[int, int], ...]] = [(d,) for d in dice]
        self._turned += itertools.combinations_with_replacement(dice, 2)
        self._turned_index = {t: i for i, t in enumerate(self._turned)}
        n_move = 2 * len(self._moved)  # 54
        n_turn = len(self._turned)  # 90 (324 under turn_dice=any)
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
                dice: list[tuple[int, int]] = []
                theirs = 0
                for word in part.split(" ")[1:]:
                    if word in self.THEIRS:
                        theirs = 2
                    elif word in ("off", "def"):
                        pool = ("off", "def").index(word) + theirs
                        theirs = 0
                    else:
                        dice += [(pool, f) for f in self._faces(word)]
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

    def action_key(self, player: int, action: Any) -> Hashable:
        # A fighter's action is written from the action, whose it is and the game's options.
        return (player, action)

    def chance_index(self, state: State, outcome: Any) -> int:
        # A roll's number is its faces' alone (the text adds only whose pool it is):
        # no text to write for each of a roll's up to 1,287 outcomes.
        index = self._roll_index.get(outcome) if isinstance(outcome, tuple) else None
        return super().chance_index(state, outcome) if index is None else index

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
        for pool in (0, 1, 2, 3):
            faces = [str(f) for p, f in dice if p == pool]
            if faces:
                groups.append(f"{'their ' if pool >= 2 else ''}{('off', 'def')[pool % 2]} {','.join(faces)}")
        return "turn " + " ".join(groups)

    def chance_label(self, index: int) -> str:
        return ",".join(map(str, self._rolls[index]))


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
            hot(out, base, f.get("dice"), 10)
            hot(out, base + 10, find(self.POWERS, f.get("power")), 7)
            out[base + 17] = 1.0 if f.get("power_used") else 0.0
            hot(out, base + 18, find(self.PLACES, f.get("location")), 4)
            face = f.get("face")
            hot(out, base + 22, face if isinstance(face, int) else 0, 7)
        hot(out, 58, find(self.PHASES, obs.get("phase")), 7)
        out[65] = frac(obs.get("turn"), self.turn_limit)
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
                    hot(out, 69 + 4 * k, find(self.PLACES, swift[p]), 4)
                if p < len(split) and split[p]:
                    out[77 + 3 * k] = 1.0
                    out[78 + 3 * k] = frac(split[p][0], 8)
                    out[79 + 3 * k] = frac(split[p][1], 8)
                if p < len(powers) and powers[p]:
                    out[83 + k] = 1.0
                if p < len(modifiers) and modifiers[p]:
                    for j, pool in enumerate(("off", "def")):
                        value = modifiers[p].get(pool, 0)
                        out[85 + 2 * k + j] = frac(value + 2, 5) if isinstance(value, int) else 0.0
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
                    hot(out, 117 + 3 * k, find(self.ENTITLED, entitled[p]), 3)
                if p < len(choices) and choices[p]:
                    out[123 + k] = 1.0
        rolling = obs.get("rolling")
        if rolling:
            fighter = find(("A", "B"), rolling.get("fighter"))
            rolled = find(("off", "def"), rolling.get("pool"))
            if fighter is not None and rolled is not None:
                relative = 0 if fighter == player else 1
                out[125 + 2 * relative + rolled] = 1.0
            out[129] = frac(rolling.get("dice"), 8)


def encoding(game: Game) -> GameEncoding:
    """The encoding of a FITE game (its ``GameInfo.hooks.encoding``)."""
    codec = FiteCodec(str(game.options["turn_dice"]))
    return GameEncoding(game, codec, FiteFeatures(int(game.options["turn_limit"] or 0)))
