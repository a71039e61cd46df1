"""FITE's integer action space and observation arrays, for the RL adapters (docs/ecosystem.md)."""

from __future__ import annotations

import itertools
from collections.abc import Hashable, Mapping, Sequence
from typing import Any, cast

import numpy as np

from tussle.adapters.encoding import (
    ActionCodec,
    Features,
    FloatArray,
    GameEncoding,
    bits,
    find,
    frac,
    hot,
)
from tussle.game import Game, State
from tussle.games.fite.notation import (
    DEF,
    MAX_POOL,
    OFF,
    PASS,
    POWERS,
    STAY,
    TAC,
    THEIR_DEF,
    THEIR_OFF,
    THEIR_WORDS,
    PlaceAction,
    PlayerAction,
    Roll,
    SplitAction,
    SwiftAction,
    TacticAction,
    Turned,
    faces_text,
    format_place,
    format_roll,
    format_split,
    format_swift,
    format_tactic,
)
from tussle.games.fite.rules import PLACE, ROLL, ROLL_ORDER, SETUP, FiteState, turns_theirs


class FiteCodec(ActionCodec):
    """FITE's steps one after another: placement, Swift, split, tactical choice; rolls by their faces.

    Each number stands for one value of the rules' actions (:meth:`value`), and
    an action is numbered by its value, never by reading its text. A text is
    numbered by finding it among those the notation writes for the values, so
    the codec holds no reader of the notation of its own.

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

    PLACE, SWIFT, SPLIT, TACTIC = 0, 6, 10, 138

    def __init__(self, turn_dice: str = "own") -> None:
        super().__init__()
        # A number stands for one value of the rules' actions, whoever plays it (a turned die's
        # pools 2 and 3 are the opponent's, for either fighter).
        self.numbered_by = "action"
        faces = range(6, 0, -1)
        # Multisets of one or two dice faces, highest first; from the offensive pool, then the defensive.
        moved = [(f,) for f in faces] + list(itertools.combinations_with_replacement(faces, 2))
        moves = [(source, m) for source in (OFF, DEF) for m in moved]
        # One or two (pool, face) dice to turn, in canonical order: off before def, faces high first;
        # under turn_dice=any then the opponent's (pools 2 and 3).
        pools = (OFF, DEF, THEIR_OFF, THEIR_DEF) if turn_dice == "any" else (OFF, DEF)
        dice = [(pool, face) for pool in pools for face in faces]
        turned: list[Turned] = [(d,) for d in dice]
        turned += itertools.combinations_with_replacement(dice, 2)
        values: list[PlayerAction] = [("place", face) for face in range(1, 7)]
        values += [("swift", to) for to in (STAY, OFF, DEF, TAC)]
        values += [
            ("split", off, dfn, declare)
            for declare in (False, True)
            for off in range(1, MAX_POOL + 1)
            for dfn in range(1, MAX_POOL + 1)
        ]
        values.append(PASS)
        values += [("tactic", source, m, ()) for source, m in moves]
        values += [("tactic", -1, (), t) for t in turned]
        values += [("tactic", source, m, t) for source, m in moves for t in turned]
        self._values = values
        self._index: dict[Hashable, int] = {value: i for i, value in enumerate(values)}
        self.num_actions = len(values)
        self._rolls: list[Roll] = [
            roll for k in range(1, MAX_POOL + 1) for roll in itertools.combinations_with_replacement(faces, k)
        ]
        self._roll_index = {r: i for i, r in enumerate(self._rolls)}
        self.num_chance = len(self._rolls)
        # Every text the notation writes for a number, made when a text is first numbered.
        self._texts: dict[str, int] | None = None
        self._chance_texts: dict[str, int] | None = None

    def value(self, index: int) -> PlayerAction:
        """The rules' action that number ``index`` stands for (IndexError out of the space)."""
        if not 0 <= index < self.num_actions:
            raise IndexError(f"action {index} is not in 0..{self.num_actions - 1}")
        return self._values[index]

    def action_index(self, state: State[Any], player: int, action: Any) -> int:
        try:
            index = self._index.get(action)
        except TypeError:  # not hashable: none of FITE's actions; its text says what it is
            index = None
        return self.encode(state.action_to_str(player, action)) if index is None else index

    def kept_numbers(self, player: int) -> dict[Hashable, int]:
        # Every value is numbered from the start, the same for both fighters.
        return self._index

    def _encode(self, text: str) -> int:
        if self._texts is None:
            self._texts = self._written()
        return self._texts[text]

    def _written(self) -> dict[str, int]:
        """Each number by every text of its action (a power by any name, the opponent's dice by any word)."""
        texts: dict[str, int] = {}
        for index, value in enumerate(self._values):
            tag = value[0]
            if tag == "place":
                texts[format_place(cast(PlaceAction, value))] = index
            elif tag == "swift":
                texts[format_swift(cast(SwiftAction, value))] = index
            elif tag == "split":
                split = cast(SplitAction, value)
                for power in (*POWERS, "power") if split[3] else (None,):
                    texts[format_split(split, power)] = index
            else:
                choice = cast(TacticAction, value)
                if turns_theirs(choice):
                    for player in (0, 1):
                        texts[format_tactic(choice, player)] = index
                texts[format_tactic(choice, opponent=THEIR_WORDS[0])] = index
        return texts

    def _encode_chance(self, text: str) -> int:
        if self._chance_texts is None:
            texts = {faces_text(roll): i for i, roll in enumerate(self._rolls)}
            for fighter, pool in ROLL_ORDER:
                texts.update((format_roll(fighter, pool, roll), i) for i, roll in enumerate(self._rolls))
            self._chance_texts = texts
        return self._chance_texts[text]

    def chance_index(self, state: State[Any], outcome: Any) -> int:
        # A roll's number is its faces' alone (the text adds only whose pool it is):
        # no text to write for each of a roll's up to 1,287 outcomes.
        index = self._roll_index.get(outcome) if isinstance(outcome, tuple) else None
        return super().chance_index(state, outcome) if index is None else index

    def label(self, index: int) -> str:
        value = self.value(index)
        tag = value[0]
        if tag == "place":
            return format_place(cast(PlaceAction, value))
        if tag == "swift":
            return format_swift(cast(SwiftAction, value))
        if tag == "split":
            return format_split(cast(SplitAction, value), "power")
        return format_tactic(cast(TacticAction, value), opponent=THEIR_WORDS[0])

    def chance_label(self, index: int) -> str:
        return faces_text(self._rolls[index])


class FiteFeatures(Features):
    """Both fighters (own first), the step, the public part of the turn and the roll under way."""

    POWERS = (None, "aggressive", "brutal", "cunning", "fast", "swift", "tough")
    PLACES = (None, "off", "def", "tac")
    PHASES = ("setup", "place", "swift", "split", "roll", "tactical", "over")
    ENTITLED = ("none", "one", "both")
    size = 130

    def __init__(self, turn_limit: int, num_actions: int = 5143) -> None:
        self.turn_limit = turn_limit or 100
        self._power_index = {power: i for i, power in enumerate(self.POWERS)}
        # The hidden block: each fighter's secret choice at the step under way, whether it has
        # one, then its action number in binary (the arrays show only that a choice is in).
        self._choice_bits = num_actions.bit_length()
        self.hidden_size = 2 * (1 + self._choice_bits)

    def write_hidden(self, state: State[Any], codec: ActionCodec, out: FloatArray) -> None:
        """Both fighters' submitted, still secret choices (fighter A first)."""
        assert isinstance(state, FiteState)
        width = 1 + self._choice_bits
        for p, action in enumerate(state.pending):
            if action is not None:
                out[width * p] = 1.0
                bits(out, width * p + 1, codec.action_index(state, p, action), self._choice_bits)

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
    return FiteEncoding(game, codec, FiteFeatures(int(game.options["turn_limit"] or 0), codec.num_actions))
