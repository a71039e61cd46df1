"""RoboPigs's integer action space and observation arrays, for the RL adapters (docs/ecosystem.md)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from tussle.adapters.encoding import (
    ActionCodec,
    Features,
    FloatArray,
    GameEncoding,
    IndexArray,
    StepCodec,
    board_index,
    find,
    frac,
    hot,
)
from tussle.errors import ActionError
from tussle.game import Game, State
from tussle.games.robo_pigs.actions import (
    BACK,
    DAMAGE,
    FIRE,
    FWD,
    FWD_LEFT,
    FWD_RIGHT,
    HIT,
    REPAIR,
    STEPS,
    SYMBOLS,
    TURN_LEFT,
    TURN_RIGHT,
    Commands,
    format_program,
    parse_program,
    repair_program,
)
from tussle.games.robo_pigs.rules import RoboPigsState

#: The commands a program's number is written in, as base-9 digits (R has no digit: the repair
#: program has a number of its own). Also the step-by-step tokens, with R after them.
_DIGITS = (FWD, BACK, FWD_LEFT, FWD_RIGHT, TURN_LEFT, TURN_RIGHT, FIRE, HIT, DAMAGE)
#: Each command of the rules (their numbering) as its digit; R has none (-1).
_DIGIT_OF = tuple(_DIGITS.index(c) if c in _DIGITS else -1 for c in range(len(SYMBOLS)))
#: The step-by-step tokens, and the columns of a program's steps in the observation array.
_TOKENS = (*_DIGITS, REPAIR)
_TOKEN_OF = tuple(map(_TOKENS.index, range(len(SYMBOLS))))


def _program_tables(steps: int = STEPS) -> tuple[IndexArray, IndexArray]:
    """For every Robo Battle Pigs program index: its number of X, and whether it is in range."""
    idx = np.arange(9**steps, dtype=np.int64)
    x_count = np.zeros(idx.shape, dtype=np.int64)
    for k in range(steps):
        x_count += (idx // 9**k) % 9 == 8
    return idx, x_count


class RoboPigsCodec(ActionCodec):
    """A program of five commands, each one of nine, as a base-9 number; then ``R R R R R``.

    With ``steps`` (the ``program_length`` variant) a program of that many
    commands: 9^steps numbers, then the repair program.

    >>> codec = RoboPigsCodec()
    >>> codec.encode("^ ^ ^ ^ ^"), codec.encode("F ^ TR v H"), codec.encode("R R R R R")
    (0, 39787, 59049)
    >>> codec.label(39787)
    'F ^ TR v H'
    """

    COMMANDS = tuple(SYMBOLS[c] for c in _DIGITS)
    REPAIR = 9**5

    def __init__(self, extra_x: bool = False, steps: int = STEPS) -> None:
        super().__init__()
        self.steps = steps
        if steps != STEPS:  # the variant's numbers; the rules' program keeps the class's
            self.REPAIR = 9**steps
        self._repair_program = repair_program(steps)
        self.num_actions = self.REPAIR + 1
        self._extra_x = extra_x
        self._tables: dict[int, IndexArray] = {}

    def number(self, program: Commands) -> int:
        """A program's index, read off its commands (the engine's action).

        >>> RoboPigsCodec().number((FIRE, FWD, TURN_RIGHT, BACK, HIT))
        39787
        """
        if program == self._repair_program:
            return self.REPAIR
        if len(program) != self.steps:
            raise ValueError(f"a program has {self.steps} commands")
        index = 0
        for command in program:
            digit = _DIGIT_OF[command]
            if digit < 0:
                raise ValueError("R is the whole program R R R R R or nothing")
            index = index * 9 + digit
        return index

    def program(self, index: int) -> Commands:
        """The program (the engine's action) numbered ``index``, which must be in range."""
        if index == self.REPAIR:
            return self._repair_program
        digits = []
        for _ in range(self.steps):
            index, digit = divmod(index, 9)
            digits.append(_DIGITS[digit])
        return tuple(reversed(digits))

    def action_index(self, state: State[Any], player: int, action: Any) -> int:
        # Read off the program itself: nothing is written out, nothing is kept.
        try:
            index = self.number(action)
        except (TypeError, ValueError, IndexError):  # not a program: its text says what it is
            return self.encode(state.action_to_str(player, action))
        return index

    def _encode(self, text: str) -> int:
        # Text reaches a codec only from the game: read by the game's own notation.
        try:
            return self.number(parse_program(text, self.steps))
        except ActionError as error:
            raise ValueError(str(error)) from None

    def label(self, index: int) -> str:
        return format_program(self.program(index))

    def decode(self, index: int) -> str | None:
        return self.label(index)

    def fast_legal(self, state: State[Any], player: int, legal: Sequence[Any]) -> IndexArray | None:
        # A pig writes exactly one X per point of damage (at least that many with
        # extra_x), or repairs when damaged: the docs' count. The caller checks it.
        if isinstance(state, RoboPigsState):  # public: read without making the whole observation
            damage: Any = state.damage[player] if player in (0, 1) else None
        else:
            pigs = state.observation(player).get("pigs")
            if not isinstance(pigs, list) or not 0 <= player < len(pigs):
                return None
            damage = pigs[player].get("damage")
        if not isinstance(damage, int) or not 0 <= damage <= 5:
            return None
        table = self._tables.get(damage)
        if table is None:
            idx, x_count = _program_tables(self.steps)
            owed = min(damage, self.steps)  # a short program owes an X per step at most
            keep = x_count >= owed if self._extra_x else x_count == owed
            chosen = idx[keep]
            if damage > 0:
                chosen = np.append(chosen, np.int64(self.REPAIR))
            table = self._tables[damage] = chosen
        return table


class RoboPigsFeatures(Features):
    """Both pigs (own first): square, facing, damage; the round; the own program; last round's programs."""

    FACINGS = ("N", "E", "S", "W")
    COMMANDS = tuple(SYMBOLS[c] for c in _TOKENS)
    size = 64 * 2 + 4 * 2 + 6 * 2 + 2 + 3 * 50

    def __init__(self, round_limit: int) -> None:
        self.round_limit = round_limit or 100

    def _program(self, out: FloatArray, offset: int, move: Any) -> None:
        # A program's structured form: its commands by symbol.
        if isinstance(move, Mapping) and isinstance(commands := move.get("commands"), list):
            for step, command in enumerate(commands[:STEPS]):
                hot(out, offset + step * 10, find(self.COMMANDS, command), 10)

    def write(self, obs: Mapping[str, Any], player: int, out: FloatArray) -> None:
        pigs = obs.get("pigs") or []
        order = [player, 1 - player] if player in (0, 1) else [0, 1]
        for k, p in enumerate(order):
            if p >= len(pigs):
                continue
            pig = pigs[p]
            hot(out, 64 * k, board_index(pig.get("square"), 8), 64)
            hot(out, 128 + 4 * k, find(self.FACINGS, pig.get("facing")), 4)
            hot(out, 136 + 6 * k, pig.get("damage"), 6)
        out[148] = frac(obs.get("round"), self.round_limit)
        mine = obs.get("my_move")
        out[149] = 1.0 if mine else 0.0
        self._program(out, 150, mine)
        last = obs.get("last_round") or {}
        moves = last.get("moves") or []
        for k, p in enumerate(order):
            if p < len(moves):
                self._program(out, 200 + 50 * k, moves[p])

    #: Each command of the rules (their numbering) as its place in :attr:`COMMANDS`.
    _COLUMN = _TOKEN_OF

    def write_state(self, state: State[Any], player: int, out: FloatArray) -> None:
        """:meth:`write` read straight from the state, without making its observation.

        The same array exactly (tests compare the two): the squares, facings,
        damage and round everyone sees, the player's own pending program, and
        the programs of the round just played, which are public once played.
        """
        if not isinstance(state, RoboPigsState):
            super().write_state(state, player, out)
            return
        order = (player, 1 - player) if player in (0, 1) else (0, 1)
        column = self._COLUMN
        for k, p in enumerate(order):
            out[64 * k + state.squares[p]] = 1.0
            out[128 + 4 * k + state.facings[p]] = 1.0
            hot(out, 136 + 6 * k, state.damage[p], 6)
        out[148] = frac(state.round, self.round_limit)
        mine = state._pending[player] if player in (0, 1) else None
        if mine is not None:
            out[149] = 1.0
            for step, command in enumerate(mine):
                out[150 + step * 10 + column[command]] = 1.0
        if state.last_programs is not None:
            for k, p in enumerate(order):
                for step, command in enumerate(state.last_programs[p]):
                    out[200 + 50 * k + step * 10 + column[command]] = 1.0

    #: Each pig's pending program (seat order): whether it is in, then its five commands.
    hidden_size = 2 * 51

    def write_hidden(self, state: State[Any], codec: ActionCodec, out: FloatArray) -> None:
        """Both pigs' secret programs of the round under way, as seat 0's array writes its own."""
        assert isinstance(state, RoboPigsState)
        for p in (0, 1):
            program = state._pending[p]
            if program is not None:
                out[51 * p] = 1.0
                for step, command in enumerate(program):
                    out[51 * p + 1 + step * 10 + self._COLUMN[command]] = 1.0


class RoboPigsSteps(StepCodec):
    """A program a command at a time: five steps, each one of ten tokens (nine commands and R).

    The rules' constraints, read forward: a pig with ``d`` damage plays exactly
    ``d`` X (at least ``d`` with ``extra_x``), so a command other than X is legal
    while the X still owed fit in the steps left, and X while the X played stay
    within what is allowed; R starts the repair program R R R R R of a damaged
    pig and is then the only token.

    >>> from tussle import load_game
    >>> steps = RoboPigsSteps(extra_x=False)
    >>> damage = steps.start(load_game("robo-pigs").new_initial_state(), 0)
    >>> steps.legal_tokens(damage, [])  # undamaged: no X, no repair
    [0, 1, 2, 3, 4, 5, 6, 7]
    >>> steps.complete(damage, [6, 0, 5, 1, 7])
    'F ^ TR v H'
    """

    labels = tuple(SYMBOLS[c] for c in _TOKENS)
    num_tokens = len(labels)
    max_steps = 5
    X = _TOKEN_OF[DAMAGE]
    R = _TOKEN_OF[REPAIR]

    def __init__(self, extra_x: bool, steps: int = STEPS) -> None:
        self.extra_x = extra_x
        #: The commands of a program (five, or the program_length variant's).
        self.max_steps = steps
        self._known: dict[tuple[int, int, int, bool], list[int]] = {}

    def token_label(self, prefix: Sequence[int], token: int) -> str:
        return self.labels[token] if 0 <= token < len(self.labels) else str(token)

    def tokens_of(self, text: str) -> list[int] | None:
        """A program's commands as tokens; the repair program is R and then R four times.

        >>> RoboPigsSteps(extra_x=False).tokens_of("F ^ TR v H")
        [6, 0, 5, 1, 7]
        """
        try:
            return [_TOKEN_OF[command] for command in parse_program(text, self.max_steps)]
        except ActionError:
            return None

    def start(self, state: State[Any], player: int) -> int:
        """The pig's damage: all that its legal programs depend on (with ``extra_x``)."""
        if isinstance(state, RoboPigsState):  # public: read without making the whole observation
            return state.damage[player]
        return int(state.observation(player)["pigs"][player]["damage"])

    def legal_tokens(self, context: Any, prefix: Sequence[int]) -> list[int]:
        # What is legal next depends on the damage, the steps taken, the X among them and
        # whether the program is a repair: few cases, each worked out once.
        key = (int(context), len(prefix), prefix.count(self.X), bool(prefix) and prefix[0] == self.R)
        tokens = self._known.get(key)
        if tokens is None:
            tokens = self._known[key] = self._legal_tokens(int(context), prefix)
        return list(tokens)

    def _legal_tokens(self, damage: int, prefix: Sequence[int]) -> list[int]:
        damage = min(damage, self.max_steps)  # a short program owes an X per step at most
        if prefix and prefix[0] == self.R:
            return [self.R] if len(prefix) < self.max_steps else []
        if len(prefix) >= self.max_steps:
            return []
        xs = sum(1 for token in prefix if token == self.X)
        left = self.max_steps - len(prefix) - 1  # steps after this one
        most = self.max_steps if self.extra_x else damage
        tokens = [t for t in range(self.X) if xs + left >= damage]
        if xs + 1 <= most:
            tokens.append(self.X)
        if not prefix and damage > 0:
            tokens.append(self.R)
        return tokens

    def complete(self, context: Any, prefix: Sequence[int]) -> str | None:
        if len(prefix) < self.max_steps:
            return None
        return format_program(tuple(_TOKENS[token] for token in prefix))

    def action(self, state: State[Any], player: int, tokens: Sequence[int], text: str) -> Any:
        # The program straight from its tokens, not its text read back (a fifth of a step's
        # time); one the state would not take is parsed as the text is, for its message.
        program = tuple(_TOKENS[token] for token in tokens)
        if state.is_legal(player, program):
            return program
        return state.parse_action(player, text)


def encoding(game: Game) -> GameEncoding:
    """The encoding of a RoboPigs game (its ``GameInfo.hooks.encoding``)."""
    steps = int(game.options["program_length"])
    return GameEncoding(
        game,
        RoboPigsCodec(bool(game.options["extra_x"]), steps),
        RoboPigsFeatures(int(game.options["round_limit"] or 0)),
        RoboPigsSteps(bool(game.options["extra_x"]), steps),
    )
