"""Robo Battle Pigs' action: a program of five commands, its notation and its structured form.

The engine's action is a tuple of five command ints (:data:`Commands`), which the
rules run and the legal lists hold. It is written two ways, both defined here:
its notation (``F ^ TR v H``, :func:`format_program` and :func:`parse_program`)
for people and records, and its structured form (:class:`Program`,
``{"commands": ["F", "^", "TR", "v", "H"]}``) for clients that draw and build
programs. The game has no chance events, so a program is its only action.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Self, TypeAlias, TypedDict

from tussle.errors import ActionError, shorten

STEPS = 5

# Commands, in the order the rule text lists them. The four moves come first so
# that a move's number indexes the rules' move table directly.
FWD, BACK, FWD_LEFT, FWD_RIGHT, TURN_LEFT, TURN_RIGHT, FIRE, HIT, REPAIR, DAMAGE = range(10)
#: Each command's symbol in the rule text: its notation, and its id in the structured form.
SYMBOLS = ("^", "v", "\\", "/", "TL", "TR", "F", "H", "R", "X")
COMMAND_NAMES = (
    "forward",
    "backward",
    "forward left",
    "forward right",
    "turn left",
    "turn right",
    "fire",
    "hit",
    "repair",
    "damage",
)

#: A program as the engine holds it: its command numbers, in step order (five, or the
#: ``program_length`` variant's number).
Commands: TypeAlias = tuple[int, ...]
REPAIR_PROGRAM: Commands = (REPAIR, REPAIR, REPAIR, REPAIR, REPAIR)


def repair_program(steps: int = STEPS) -> Commands:
    """The repair program of a program of ``steps`` commands: R in every step."""
    return (REPAIR,) * steps


# --- notation -------------------------------------------------------------------


def format_program(program: Commands) -> str:
    """The canonical notation of a program: the text's symbols, space-separated.

    >>> format_program((FIRE, FWD, TURN_RIGHT, BACK, HIT))
    'F ^ TR v H'
    """
    return " ".join(SYMBOLS[c] for c in program)


# Symbols in either case; TL and TR are checked (upper-cased) before single letters.
_EXAMPLE = ("F", "^", "TR", "v", "H")
_ONE_CHAR = {form: i for i, s in enumerate(SYMBOLS) if len(s) == 1 for form in (s.lower(), s.upper())}
_TWO_CHAR = {"TL": TURN_LEFT, "TR": TURN_RIGHT}


def _read_word(word: str, text: str) -> list[int]:
    """The commands in one word; symbols may run together (``F^TRvH``)."""
    if not word.isascii():
        raise ActionError(f"{text!r}: {word!r} is not a command (commands: {' '.join(SYMBOLS)})")
    out = []
    i = 0
    while i < len(word):
        two = word[i : i + 2].upper()
        if two in _TWO_CHAR:
            out.append(_TWO_CHAR[two])
            i += 2
        elif word[i] in _ONE_CHAR:
            out.append(_ONE_CHAR[word[i]])
            i += 1
        else:
            raise ActionError(f"{text!r}: unknown command {word!r} (commands: {' '.join(SYMBOLS)})")
    return out


def parse_program(text: object, steps: int = STEPS) -> Commands:
    """Read a program: the text's symbols, separated by spaces or commas or not at all,
    letters in either case.

    >>> parse_program("f ^ tr V h") == (FIRE, FWD, TURN_RIGHT, BACK, HIT)
    True
    >>> format_program(parse_program("F^TRvH"))
    'F ^ TR v H'
    >>> parse_program("F ^ TR")
    Traceback (most recent call last):
    tussle.errors.ActionError: 'F ^ TR': a program has 5 commands, not 3
    """
    if not isinstance(text, str):
        count = "five" if steps == STEPS else str(steps)
        example = " ".join(_EXAMPLE[:steps])
        raise ActionError(f"{text!r} is not a program ({count} commands such as {example!r})")
    commands: list[int] = []
    for word in text.replace(",", " ").split():
        commands.extend(_read_word(word, text))
    if len(commands) != steps:
        raise ActionError(f"{text!r}: a program has {steps} commands, not {len(commands)}")
    return tuple(commands)


# --- the structured form -----------------------------------------------------------


class ProgramJSON(TypedDict):
    """A program as plain data: its five commands by symbol, in step order."""

    commands: list[str]


_BY_SYMBOL = {symbol: command for command, symbol in enumerate(SYMBOLS)}
_PROGRAM_HINT = "a program is {'commands': [five of " + ", ".join(map(repr, SYMBOLS)) + "]}"


def _form_error(data: object, why: str) -> ActionError:
    return ActionError(f"{shorten(data)} is not a Robo Battle Pigs program: {why}")


@dataclass(frozen=True, slots=True)
class Program:
    """A program as a value: its five commands in step order, as the engine numbers them.

    ``commands`` is the engine's action itself (:data:`Commands`), so a program
    and its action convert at no cost: ``Program(action)`` and ``.commands``.
    Its plain-data form (:meth:`to_json`) names each command by its symbol, as
    the notation and the observation's steps do; the repair program is five R.

    >>> Program((FIRE, FWD, TURN_RIGHT, BACK, HIT)).to_json()
    {'commands': ['F', '^', 'TR', 'v', 'H']}
    >>> format_program(Program.from_json({"commands": ["R"] * 5}).commands)
    'R R R R R'
    """

    commands: Commands

    def to_json(self) -> ProgramJSON:
        return {"commands": [SYMBOLS[c] for c in self.commands]}

    @classmethod
    def from_json(cls, data: object, steps: int = STEPS) -> Self:
        """Read a program's plain-data form, strictly: ActionError in one line if it is not one.

        Any five commands are a program here; which of them a pig may send (the X its
        damage forces, the repair) is the rules' question, asked when it is applied.

        >>> Program.from_json({"commands": ["F", "^"]})  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        tussle.errors.ActionError: {'commands': ['F', '^']} is not a Robo Battle Pigs program: ...
        """
        if type(data) is not dict:
            raise _form_error(data, _PROGRAM_HINT)
        if set(data) != {"commands"}:
            extra = [k for k in data if k != "commands"]
            why = "unknown " + ", ".join(shorten(k) for k in extra) if extra else "missing 'commands'"
            raise _form_error(data, f"{why}; {_PROGRAM_HINT}")
        commands = data["commands"]
        if type(commands) is not list or len(commands) != steps:
            raise _form_error(data, f"'commands' must be a list of {steps} commands, not {shorten(commands)}")
        numbers = [_BY_SYMBOL.get(c, -1) if type(c) is str else -1 for c in commands]
        for step, (number, given) in enumerate(zip(numbers, commands, strict=True), 1):
            if number < 0:
                known = ", ".join(map(repr, SYMBOLS))
                raise _form_error(data, f"command {step} is {shorten(given)}, not one of {known}")
        return cls(tuple(numbers))
