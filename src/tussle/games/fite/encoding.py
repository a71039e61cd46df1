"""FITE's integer action space and observation arrays, for the RL adapters (docs/ecosystem.md)."""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping, Sequence
from typing import Any, cast

import numpy as np

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
from tussle.games.fite.rules import PLACE, ROLL, ROLL_ORDER, SETUP, FiteState


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
        # A fighter's action is written from the action, whose it is and the game's options.
        self.numbered_by = "player"
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

    def chance_index(self, state: State[Any], outcome: Any) -> int:
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
        self._power_index = {power: i for i, power in enumerate(self.POWERS)}

    def write_state(self, state: State[Any], player: int, out: FloatArray) -> None:
        """:meth:`write` of ``state.observation(player)``, read straight off the state's fields.

        It exists for speed: the RL adapters write an array at every decision,
        and making the observation's dict (the last fight's record above all)
        costs several times the array. It reads only what the observation
        shows (of the choices not yet revealed, only whether ``player`` has
        made its own), and a test compares it with :meth:`write` at every
        state of random games under several options: the arrays are equal.
        """
        m = cast("memoryview[float]", out.data)
        if m.format != "f" or m.ndim != 1 or not isinstance(state, FiteState):
            super().write_state(state, player, out)
            return
        # Through a memoryview an item costs a fraction of numpy's item assignment.
        mine = player in (0, 1)
        order = (player, 1 - player) if mine else (0, 1)
        dice, used, location, face = state.dice, state.used, state.location, state.face
        powers, power_index = state.powers, self._power_index
        for k in (0, 1):
            p = order[k]
            base = 29 * k
            if 0 <= dice[p] < 10:
                m[base + dice[p]] = 1.0
            power = power_index.get(powers[p])
            if power is not None:
                m[base + 10 + power] = 1.0
            if used[p]:
                m[base + 17] = 1.0
            m[base + 19 + location[p]] = 1.0  # -1 (no location yet) is the block's first place
            m[base + 22 + face[p]] = 1.0  # 0 (no face yet) likewise
        phase = state.phase
        m[58 + phase] = 1.0
        m[65] = _clip(state.turn / self.turn_limit)
        if mine:
            if player in state._to_act:
                m[66] = 1.0
            if state.pending[player] is not None:
                m[67] = 1.0
        if state._result is not None or phase in (SETUP, PLACE):
            return
        # The turn so far, as far as it is revealed.
        m[68] = 1.0
        swift_to, split, declared, rolls = state.swift_to, state.split, state.declared, state.rolls
        for k in (0, 1):
            p = order[k]
            m[70 + 4 * k + swift_to[p]] = 1.0  # -1 (no Swift move) is the block's first place
            pools = split[p]
            if pools is not None:
                m[77 + 3 * k] = 1.0
                m[78 + 3 * k] = _EIGHTHS[pools[0]]
                m[79 + 3 * k] = _EIGHTHS[pools[1]]
            if declared[p]:
                m[83 + k] = 1.0
            off, dfn = rolls[p]
            if off:
                m[89 + 14 * k : 96 + 14 * k] = _roll_block(off)
            if dfn:
                m[96 + 14 * k : 103 + 14 * k] = _roll_block(dfn)
        if split[0] is not None:  # the modifiers show with the splits
            for k in (0, 1):
                to_off, to_def = state.modifiers(order[k])
                m[85 + 2 * k] = _clip((to_off + 2) / 5)
                m[86 + 2 * k] = _clip((to_def + 2) / 5)
        if state.roll_index == len(ROLL_ORDER):  # the tactical step
            entitled, tactics = state.entitled, state.tactics
            for k in (0, 1):
                p = order[k]
                m[117 + 3 * k + entitled[p]] = 1.0
                if tactics[p] is not None:
                    m[123 + k] = 1.0
        elif phase == ROLL:
            fighter, pool = ROLL_ORDER[state.roll_index]
            m[125 + 2 * (0 if fighter == player else 1) + pool] = 1.0
            m[129] = _clip(state._size / 8)

    def write(self, obs: Mapping[str, Any], player: int, out: FloatArray) -> None:
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


def _clip(value: float) -> float:
    """``value`` clipped to [0, 1], as :func:`frac` clips it (quicker than min and max)."""
    return 1.0 if value > 1.0 else value if value > 0.0 else 0.0


#: _EIGHTHS[n]: a pool of n dice, as :func:`frac` writes it.
_EIGHTHS = tuple(frac(n, 8) for n in range(9))
_ROLL_BLOCKS: dict[tuple[int, ...], memoryview[float]] = {}


def _roll_block(faces: tuple[int, ...]) -> memoryview[float]:
    """A rolled pool's seven places as :meth:`FiteFeatures.write` writes them: 1, then each count / 8."""
    block = _ROLL_BLOCKS.get(faces)
    if block is None:
        values = np.zeros(7, dtype=np.float32)
        values[0] = 1.0
        for face in faces:
            if isinstance(face, int) and 1 <= face <= 6:
                values[face] += 1.0 / 8
        block = cast("memoryview[float]", values.data)
        if len(_ROLL_BLOCKS) < 4096:  # every roll of 1 to 8 dice fits (3,002)
            _ROLL_BLOCKS[faces] = block
    return block


#: A roll's outcomes (index, probability, outcome) and the same as (index, probability) pairs.
_Roll = tuple[tuple[tuple[int, float, Any], ...], tuple[tuple[int, float], ...]]


class FiteEncoding(GameEncoding):
    """FITE's encoding, its roll outcomes listed once for each pool size.

    A roll of up to 8 dice has up to 1,287 outcomes, and numbering them all at
    every roll cost OpenSpiel more than the rest of the game: a roll's
    outcomes depend on its pool size alone, so the list made for a size
    (by :meth:`GameEncoding.chance_outcomes`) serves every later roll of it.
    A test compares the two at every roll of random games.
    """

    keeps_pairs = True

    def __init__(self, game: Game, codec: FiteCodec, features: FiteFeatures) -> None:
        super().__init__(game, codec, features)
        # Each pool size's roll: its outcomes, and the same as OpenSpiel's pairs.
        self._rolls: dict[int, _Roll] = {}

    def _roll(self, state: State[Any]) -> _Roll | None:
        """The pending roll's outcomes and pairs, made once per pool size; None for any other chance event."""
        if not isinstance(state, FiteState) or state.phase != ROLL or state._result is not None:
            return None
        kept = self._rolls.get(state._size)
        if kept is None:
            outcomes = tuple(super().chance_outcomes(state))
            kept = self._rolls[state._size] = (outcomes, tuple((i, p) for i, p, _ in outcomes))
        return kept

    def chance_outcomes(self, state: State[Any]) -> list[tuple[int, float, Any]]:
        kept = self._roll(state)
        return super().chance_outcomes(state) if kept is None else list(kept[0])

    def chance_pairs(self, state: State[Any]) -> Sequence[tuple[int, float]]:
        kept = self._roll(state)
        return super().chance_pairs(state) if kept is None else kept[1]


def encoding(game: Game) -> GameEncoding:
    """The encoding of a FITE game (its ``GameInfo.hooks.encoding``)."""
    codec = FiteCodec(str(game.options["turn_dice"]))
    return FiteEncoding(game, codec, FiteFeatures(int(game.options["turn_limit"] or 0)))
