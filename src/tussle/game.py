"""The core model every game implements: :class:`Game`, :class:`State`, :class:`Result`.

A game declares what it is up front as data (:class:`GameInfo`): players,
dynamics, chance, information and options. A :class:`State` answers who must act
now (:meth:`State.to_act`), what they may do (:meth:`State.legal_actions`), and
applies one player's action at a time (:meth:`State.apply`). Chance is a player
(:data:`CHANCE`) whose outcomes come with probabilities. A simultaneous step is
several players in :meth:`State.to_act` at once; it resolves when the last of
them has submitted, and until then a submission changes nothing that another
player (or a spectator, :data:`PUBLIC`) can observe.

Actions are small immutable game-specific values. Each has one canonical
notation string per game (:meth:`State.action_to_str`, :meth:`State.parse_action`),
which is what records, the CLI and people use.

Observations are per seat: :meth:`State.observation` of a player shows what that
player sees, and of :data:`PUBLIC` (the seat of nobody) what every player and a
spectator may see, the public view.
"""

from __future__ import annotations

import difflib
import enum
import importlib
import json
import random
import re
import sys
import tomllib
from abc import ABC, abstractmethod
from collections.abc import Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any, ClassVar, Generic, Self, TypeVar, final

from tussle.errors import ActionError, OptionError, PositionError, shorten

#: The player id of chance (nature) in :meth:`State.to_act` and in records.
CHANCE = -1
#: The seat of nobody: what every player and a spectator may see. ``observation(PUBLIC)``
#: and ``observation_text(PUBLIC)`` are the public view; PUBLIC never acts.
PUBLIC = -2

Action = Hashable
A = TypeVar("A", bound=Hashable)
T = TypeVar("T")

JSON = Any  # plain data: dict, list, str, int, float, bool, None
#: An option's value, as Option.parse gives it (a bool, int or choice/str/document option).
OptionValue = bool | int | str

#: No game's action is one of these: True and 1.0 equal 1 and hash alike (a tuple, for a fast isinstance).
NOT_ACTIONS = (bool, float)


class Dynamics(enum.StrEnum):
    """How players take their turns."""

    SEQUENTIAL = "sequential"
    """Exactly one player acts at each decision."""
    SIMULTANEOUS = "simultaneous"
    """Some steps have several players choosing at once, in secret."""


class ChanceMode(enum.StrEnum):
    """Whether the game has chance events."""

    DETERMINISTIC = "deterministic"
    EXPLICIT = "explicit"
    """Chance is a player with listed outcomes and probabilities."""


class Information(enum.StrEnum):
    """Whether every player sees everything."""

    PERFECT = "perfect"
    IMPERFECT = "imperfect"


@dataclass(frozen=True)
class Option:
    """One game option: its name, type, default, help and allowed values.

    ``kind`` is one of ``bool``, ``int``, ``str``, ``choice`` or ``document``.
    Values given as strings (from the command line) are converted.

    A ``document`` option's value is a document's text itself (a position, a
    deck), at most :data:`MAX_DOCUMENT_CHARS` characters, or the name of one
    of the ``documents`` the game ships; empty is the game's own default. A
    game never opens a file that an option names: the local commands read a
    file given to them and pass its text on.

    >>> Option("ply_limit", "int", 0, "end as a draw after this many plies", minimum=0).parse("40")
    40
    >>> layout = Option("layout", "document", "", "the start position", documents=("basic",))
    >>> layout.parse(" Basic "), layout.parse("white=Ch1N black=Ci16S")
    ('basic', 'white=Ch1N black=Ci16S')
    """

    name: str
    kind: str
    default: OptionValue
    help: str
    choices: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    documents: tuple[str, ...] = ()
    """The names of the documents the game ships, for a ``document`` option (Tank Chess's ``basic``)."""

    KINDS: ClassVar[tuple[str, ...]] = ("bool", "int", "str", "choice", "document")

    def __post_init__(self) -> None:
        # A badly declared option is a bug in the game, caught when it is imported.
        if self.kind not in self.KINDS:
            raise ValueError(f"option {self.name}: kind {self.kind!r} is not one of {', '.join(self.KINDS)}")
        if self.kind == "choice" and not self.choices:
            raise ValueError(f"option {self.name}: a choice needs choices")
        if self.documents and self.kind != "document":
            raise ValueError(f"option {self.name}: only a document option ships documents")
        for name in self.documents:
            if not DOCUMENT_NAME.fullmatch(name):
                raise ValueError(f"option {self.name}: {name!r} is not a name ({DOCUMENT_NAME.pattern})")
        if self.kind == "document" and self.default not in ("", *self.documents):
            raise ValueError(f"option {self.name}: a document's default is empty or a name it ships")
        if not self.name.isidentifier() or self.name == "players":
            raise ValueError(f"option {self.name!r}: the name must be an identifier other than 'players'")
        try:
            self.parse(self.default)
        except OptionError as exc:
            raise ValueError(f"bad default: {exc}") from None

    def parse(self, value: object) -> OptionValue:
        """Return ``value`` converted and checked, or raise :class:`OptionError`.

        >>> Option("extra_x", "bool", False, "allow more X").parse("yes")
        True
        >>> Option("size", "int", 8, "board size", minimum=4).parse("3")
        Traceback (most recent call last):
        tussle.errors.OptionError: option size: 3 is below the minimum 4
        """
        where = f"option {self.name}"
        if self.kind == "bool":
            if isinstance(value, bool):
                return value
            text = str(value).strip().lower()
            if text in ("1", "true", "yes", "on"):
                return True
            if text in ("0", "false", "no", "off"):
                return False
            raise OptionError(f"{where}: {shorten(str(value))} is not a boolean (use true or false)")
        if self.kind == "int":
            number = _as_int(value)
            if number is None:
                raise OptionError(f"{where}: {shorten(value)} is not an integer{_too_long(value)}")
            if self.minimum is not None and number < self.minimum:
                raise OptionError(f"{where}: {number} is below the minimum {self.minimum}")
            if self.maximum is not None and number > self.maximum:
                raise OptionError(f"{where}: {number} is above the maximum {self.maximum}")
            return number
        if self.kind == "choice":
            # Read without regard to case or spaces around, like booleans; kept as declared.
            text = str(value).strip().lower()
            for choice in self.choices:
                if choice.lower() == text:
                    return choice
            raise OptionError(f"{where}: {shorten(str(value))} is not one of {', '.join(self.choices)}")
        if not isinstance(value, str):
            raise OptionError(f"{where}: {shorten(value)} is not a string")
        if self.kind == "document":
            if len(value) > MAX_DOCUMENT_CHARS:
                raise OptionError(
                    f"{where}: a document of {len(value):,} characters is too long "
                    f"(at most {MAX_DOCUMENT_CHARS:,})"
                )
            name = self.document_name(value)
            if name is not None:
                return name
            return "" if not value.strip() else value
        return value

    def document_name(self, value: str) -> str | None:
        """The shipped document that ``value`` names (in any case, spaces around), or None.

        >>> Option("deck", "document", "", "a deck", documents=("mini",)).document_name(" MINI")
        'mini'
        """
        text = value.strip().lower()
        return next((name for name in self.documents if name.lower() == text), None)


#: The longest document a ``document`` option takes (a deck, a layout); the built-in Fight! deck
#: is under 10,000 characters.
MAX_DOCUMENT_CHARS = 64 * 1024
#: What a document's name may be: a word of letters, digits, ``_``, ``-`` and ``.``, as a file's name is.
DOCUMENT_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")
# One word with a folder separator or a file name's ending, and nothing a document has (spaces, '='):
# what a person who meant a file gives.
_PATH_LIKE = re.compile(r"[^\s=]*[/\\][^\s=]*|[^\s=/\\]+\.[A-Za-z0-9]{1,5}")


def looks_like_path(value: str) -> bool:
    """Whether ``value`` reads as a file's name rather than as a document's text.

    >>> looks_like_path("/etc/passwd"), looks_like_path("duel.txt"), looks_like_path("white=Ch1N black=Ci16S")
    (True, True, False)
    """
    return bool(_PATH_LIKE.fullmatch(value.strip()))


def document_hint(game_id: str, option: str, value: str) -> str:
    """What to add to the error of a document option whose value is a file's name: games open no file.

    >>> print(document_hint("tank-chess", "setup", "duel.txt")[2:])
    a game reads no file: give the text itself (local commands read one: tussle play tank-chess -o setup=FILE)
    >>> document_hint("tank-chess", "setup", "size=16 white=Ch1N")
    ''
    """
    if not looks_like_path(value):
        return ""
    return (
        f"; a game reads no file: give the text itself "
        f"(local commands read one: tussle play {game_id} -o {option}=FILE)"
    )


# --- content documents: a document option's text read as a table (FITE's powers, a Robo Battle Pigs board)

#: How deep a content document may nest its tables and lists (the real ones: 3).
MAX_DOCUMENT_NESTING = 8


def read_document(text: str, where: str) -> dict[str, Any]:
    """The table a document's text holds: JSON when it starts with ``{`` (no TOML does), else TOML.

    Every problem is one OptionError line starting with ``where`` (``option powers``).

    >>> read_document('{"power": {"huge": {"attack": 2}}}', "option powers")
    {'power': {'huge': {'attack': 2}}}
    >>> read_document('"a" = 1', "option board")
    {'a': 1}
    >>> read_document("[1, 2]", "option board")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    tussle.errors.OptionError: option board: not valid TOML: Expected ']' at the end of a table ...
    """
    try:
        if text.lstrip().startswith("{"):
            try:
                data = json.loads(text)
            except json.JSONDecodeError as exc:
                raise OptionError(
                    f"{where}: not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}"
                ) from None
            except ValueError:  # an integer of thousands of digits
                raise OptionError(f"{where}: a number of thousands of digits (not valid JSON)") from None
        else:
            try:
                data = tomllib.loads(text)
            except tomllib.TOMLDecodeError as exc:
                raise OptionError(f"{where}: not valid TOML: {exc}") from None
            except ValueError:  # an integer of thousands of digits
                raise OptionError(f"{where}: a number of thousands of digits (not valid TOML)") from None
    except RecursionError:
        raise OptionError(f"{where}: nested too deeply") from None
    if not isinstance(data, dict):
        raise OptionError(f"{where}: the document must hold a table (TOML, or a JSON object)")
    if _depth(data) > MAX_DOCUMENT_NESTING:
        raise OptionError(f"{where}: nested more than {MAX_DOCUMENT_NESTING} levels deep (the limit)")
    return data


def _depth(value: object) -> int:
    if isinstance(value, dict):
        return 1 + max((_depth(v) for v in value.values()), default=0)
    if isinstance(value, list):
        return 1 + max((_depth(v) for v in value), default=0)
    return 0


def document_table(value: object, where: str, allowed: Iterable[str]) -> dict[str, Any]:
    """``value`` as a table whose keys are all ``allowed`` (a one-line OptionError naming the first other).

    >>> document_table({"reroll": 1}, "option powers: power huge", ("attack", "defence"))
    Traceback (most recent call last):
    tussle.errors.OptionError: option powers: power huge: unknown key 'reroll' (keys: attack, defence)
    """
    if not isinstance(value, dict):
        raise OptionError(f"{where}: {shorten(value)} is not a table")
    known = tuple(allowed)
    for key in value:
        if key not in known:
            raise OptionError(f"{where}: unknown key {shorten(key)} (keys: {', '.join(known)})")
    return value


def document_int(
    data: Mapping[str, Any], key: str, where: str, span: tuple[int, int], default: int = 0
) -> int:
    """``data[key]``, an integer from ``span[0]`` to ``span[1]`` (``default`` when it is not given).

    >>> document_int({"attack": 9}, "attack", "option powers: power huge", (-3, 3))
    Traceback (most recent call last):
    tussle.errors.OptionError: option powers: power huge: attack is 9, not -3 to 3
    """
    value: object = data.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int):
        raise OptionError(f"{where}: {key} is {shorten(value)}, not an integer")
    low, high = span
    if not low <= value <= high:
        raise OptionError(f"{where}: {key} is {value}, not {low} to {high}")
    return value


def document_bool(data: Mapping[str, Any], key: str, where: str, default: bool) -> bool:
    """``data[key]``, true or false (``default`` when it is not given)."""
    value = data.get(key, default)
    if not isinstance(value, bool):
        raise OptionError(f"{where}: {key} is {shorten(value)}, not true or false")
    return value


#: The longest action text any game reads; real ones are a few dozen characters.
MAX_ACTION_CHARS = 200
#: The most digits a number may have anywhere tussle reads one (options, notation, positions).
MAX_DIGITS = 18
#: The longest position text any game reads (a 20x20 Tank Chess position is under 1,000).
MAX_POSITION_CHARS = 10_000
_NUMBER = re.compile(r"\d+")


def check_position(text: str) -> None:
    """Refuse a position text no game can mean (too long, a huge number, other digits): PositionError.

    >>> check_position("1" * 20)
    Traceback (most recent call last):
    tussle.errors.PositionError: '11111111111111111111': a number of 20 digits is more than any game reads
    """
    if len(text) > MAX_POSITION_CHARS:
        raise PositionError(
            f"{shorten(text)} is too long for any position (at most {MAX_POSITION_CHARS:,} characters)"
        )
    try:
        _check_numbers(text)
    except ActionError as exc:
        raise PositionError(str(exc)) from None


def _check_numbers(text: str) -> None:
    for match in _NUMBER.finditer(text):
        number = match.group()
        if not number.isascii():
            raise ActionError(f"{shorten(text)}: only the digits 0-9 are read")
        if len(number) > MAX_DIGITS:
            raise ActionError(
                f"{shorten(text)}: a number of {len(number):,} digits is more than any game reads"
            )


def check_notation(text: str) -> None:
    """Refuse text no game's notation can mean, before a game's parser sees it: ActionError.

    Too long, a number of more than :data:`MAX_DIGITS` digits, or a digit
    other than 0-9 (Python's ``int`` reads other scripts' digits; notation
    does not).

    >>> check_notation("tac " + "9" * 20)
    Traceback (most recent call last):
    tussle.errors.ActionError: 'tac 99999999999999999999': a number of 20 digits is more than any game reads
    >>> check_notation("off ١")
    Traceback (most recent call last):
    tussle.errors.ActionError: 'off ١': only the digits 0-9 are read
    """
    if len(text) > MAX_ACTION_CHARS:
        raise ActionError(
            f"{shorten(text)} is too long for any action (at most {MAX_ACTION_CHARS} characters)"
        )
    _check_numbers(text)


def _too_long(value: object) -> str:
    """Why a number is not read when it has too many digits (``''`` otherwise)."""
    digits = str(value).strip().lstrip("+-") if isinstance(value, str) else ""
    if digits.isascii() and digits.isdigit() and len(digits) > MAX_DIGITS:
        return f" tussle reads: {len(digits):,} digits, at most {MAX_DIGITS}"
    return ""


def _as_int(value: object) -> int | None:
    """``value`` as an int if it is one (or a string or whole float naming one), else None.

    Numbers of more than :data:`MAX_DIGITS` digits are not read: no option needs
    one, and Python refuses to convert the longest of them at all.
    """
    if isinstance(value, bool):
        return None
    if isinstance(value, float):
        # A whole float is read as its int, within the same bound (1e18 would pass as a float
        # and then be refused when read back as the int it became).
        if not value.is_integer():
            return None
        value = int(value)
    if isinstance(value, int):
        return value if -(10**MAX_DIGITS) < value < 10**MAX_DIGITS else None
    if isinstance(value, str):
        text = value.strip()
        digits = text[1:] if text[:1] in "+-" else text
        # Only ASCII digits: int() would also take '1_000' and other scripts' digits.
        if digits.isascii() and digits.isdigit() and len(digits) <= MAX_DIGITS:
            return int(text)
    return None


@dataclass(frozen=True)
class AgentHook:
    """An agent that plays one game only, declared by that game: ``<game>:<name>`` in agent specs."""

    name: str
    target: str
    help: str


@dataclass(frozen=True)
class Hooks:
    """Where a game's optional parts live, as data: generic code reaches a game only through these.

    Each target is ``"module:attribute"``; a module starting with ``.`` is
    relative to the game's own package, so that a game's folder can move whole.
    Nothing is imported until it is used (:meth:`Game.hook`), which keeps
    ``import tussle`` and ``tussle games`` quick and numpy out of play.

    >>> Hooks(rule_agent=".rule_agent:DiceRule").rule_agent
    '.rule_agent:DiceRule'
    """

    rule_agent: str = ""
    """The rule-of-thumb agent class (the ``rule`` agent spec)."""
    search: str = ""
    """The search policy class (evaluation, playouts, move order) of the search agents."""
    encoding: str = ""
    """A function of a :class:`Game` that returns its integer action and array encoding (RL adapters)."""
    batch: str = ""
    """A function of a :class:`Game` that returns its batched JAX engine (:mod:`tussle.batch`)."""
    levels: tuple[tuple[str, str], ...] = ()
    """The agent spec behind each level (``easy``, ``medium``, ``hard``), chosen by measurement."""
    agents: tuple[AgentHook, ...] = ()
    """Agents for this game only (``fite:solved``)."""
    bench_target: float | None = None
    """Decisions a second in random play that ``tussle bench --compare`` expects, as a multiple of chess's."""
    rules: str = ""
    """A Markdown file of the game's folder: the rules in brief and the notation (``tussle rules``)."""
    balance: str = ""
    """The game's balance measures: a :class:`tussle.balance.measures.Measures` (``tussle balance``)."""
    commands: tuple[str, ...] = ()
    """Click commands of this game's own that ``tussle`` offers (FITE's ``tussle fite-odds``)."""
    web: str = ""
    """A JavaScript module of the game's folder that draws its observation in a browser (docs/web.md)."""
    story: str = ""
    """A function that tells one event in plain words as one seat (or :data:`PUBLIC`) may know it:
    ``story(before, player, action, after, viewer) -> list[str]``, the states either side of the
    event. A line may say only what ``viewer``'s observation shows by then (docs/server.md, "The
    story"); a game of perfect information needs none (the notation, with who played it)."""
    style: str = ""
    """A function that marks a view's text for a colour terminal, ``style(text, observation, player)
    -> iterable of (start, end, name)``: character spans of ``text`` with the names of
    :data:`tussle.colours.THEME` (a side's pieces, the last move). It reads only the text and the
    observation it was written from, so a colour shows nothing the view does not; a game without it
    is shown uncoloured."""


@dataclass(frozen=True)
class GameInfo:
    """What a game is, as data: read it without building a state."""

    id: str
    name: str
    description: str
    min_players: int
    max_players: int
    dynamics: Dynamics
    chance: ChanceMode
    information: Information
    options: tuple[Option, ...] = ()
    has_position: bool = False
    """Whether :meth:`Game.state_from_position` reads a position notation."""
    notation: str = ""
    """A one-paragraph hint on the action notation, shown to people typing moves."""
    simulation_defaults: tuple[tuple[str, OptionValue], ...] = ()
    """Option values that simulations use unless told otherwise.

    People playing keep the plain defaults (a ply limit off, say); matches,
    ladders, benchmarks and the conformance tests take these instead, so that
    every game between programs ends (see :func:`tussle.registry.simulation_options`).
    """
    online_defaults: tuple[tuple[str, OptionValue], ...] = ()
    """Option values that a game played on a server takes unless its maker chose otherwise.

    A game whose rules can go on forever (no ply limit by default) gets a sensible end
    online, where an absent or stubborn player must not hold others for ever; its rules
    page says so. People playing locally keep the plain defaults.
    """
    draws: bool = True
    """Whether the rules can end a game in a draw: two players may then agree to one online."""
    hooks: Hooks = Hooks()
    """The game's optional parts beyond its rules: computer players, encoding (see :class:`Hooks`)."""

    def __post_init__(self) -> None:
        # A badly declared game is a bug, caught when it is imported.
        if not 1 <= self.min_players <= self.max_players:
            raise ValueError(f"{self.id}: players from {self.min_players} to {self.max_players}?")
        names = [o.name for o in self.options]
        if len(set(names)) != len(names):
            raise ValueError(f"{self.id}: an option is declared twice: {names}")
        for name, value in self.simulation_defaults + self.online_defaults:
            if name not in names:
                raise ValueError(f"{self.id}: simulation default for unknown option {name!r}")
            self.option(name).parse(value)

    def option(self, name: str) -> Option:
        """The option called ``name``, or an :class:`OptionError` that lists the known ones."""
        for opt in self.options:
            if opt.name == name:
                return opt
        names = [o.name for o in self.options]
        close = difflib.get_close_matches(str(name), names, n=1)
        hint = f"; did you mean {close[0]}?" if close else ""
        raise OptionError(f"{self.id} has no option {name!r} (options: {', '.join(names) or 'none'}){hint}")


class Termination(enum.StrEnum):
    """How a game ended (python-chess's ``Outcome.termination``, widened to what a server sees)."""

    RULES = "rules"  #: the rules ended it
    LIMIT = "limit"  #: a ply, turn or round limit of the options cut it (truncated, not terminated)
    TIME = "time"  #: a player's clock ran out
    RESIGNATION = "resignation"  #: a player resigned
    AGREEMENT = "agreement"  #: the players agreed (a draw, or to abort)
    ABANDONMENT = "abandonment"  #: nobody played on
    ABORTED = "aborted"  #: called off before every player had moved: it counts for nobody


@dataclass(frozen=True)
class Result:
    """The outcome of a finished game.

    ``ranking[p]`` is player ``p``'s place (1 is best; tied players share a
    place); ``returns[p]`` is its payoff; ``winner`` is set when one player
    alone comes first; ``termination`` says how the game ended. Every shape of
    result is built by :meth:`shared` (:meth:`win`, :meth:`loss` and :meth:`draw`
    are its common cases), so that returns mean the same in every game: a lone
    winner gets 1, every player behind the first place ``-1/(players-1)``.
    """

    returns: tuple[float, ...]
    ranking: tuple[int, ...]
    reason: str = ""
    termination: Termination = Termination.RULES

    def __post_init__(self) -> None:
        # A malformed result is a bug in the game that made it.
        n = len(self.ranking)
        if n == 0 or len(self.returns) != n:
            raise ValueError(f"a result needs one return and one place per player: {self}")
        if min(self.ranking) != 1 or max(self.ranking) > n:
            raise ValueError(f"places run from 1 to the number of players: {self.ranking}")

    @property
    def winner(self) -> int | None:
        """The player alone in first place, or None (a draw, or a shared first place).

        >>> Result.win(0, 3).winner, Result.draw(3).winner
        (0, None)
        """
        firsts = [p for p, place in enumerate(self.ranking) if place == 1]
        return firsts[0] if len(firsts) == 1 else None

    @property
    def is_draw(self) -> bool:
        """Whether nobody came first alone."""
        return self.winner is None

    @classmethod
    def shared(
        cls,
        winners: Iterable[int],
        players: int,
        reason: str = "",
        termination: Termination = Termination.RULES,
        *,
        ranking: Sequence[int] | None = None,
    ) -> Result:
        """``winners`` share first place and its returns; the rest get ``-1/(players-1)`` each.

        Returns sum to zero. The places are 1 for the winners and 2 for the rest,
        unless ``ranking`` gives finer places (its first places must be the winners).
        Everybody winning is a draw: every return zero.

        >>> Result.shared({1, 2}, 3).returns, Result.shared({1, 2}, 3).ranking
        ((-0.5, 0.25, 0.25), (2, 1, 1))
        >>> Result.shared([0, 1], 2).is_draw
        True
        """
        firsts = set(winners)
        if not firsts or not firsts <= set(range(players)):
            raise ValueError(f"winners {sorted(firsts)} are not some of {players} players")
        places = tuple(1 if p in firsts else 2 for p in range(players)) if ranking is None else tuple(ranking)
        if {p for p in range(players) if places[p] == 1} != firsts:
            raise ValueError(f"the ranking {places} does not put exactly {sorted(firsts)} first")
        k = len(firsts)
        if k == players:
            returns = tuple(0.0 for _ in range(players))
        else:
            share = (players - k) / (k * (players - 1))
            loss = -1.0 / (players - 1)
            returns = tuple(share if p in firsts else loss for p in range(players))
        return cls(returns, places, reason, termination)

    @classmethod
    def win(
        cls, winner: int, players: int, reason: str = "", termination: Termination = Termination.RULES
    ) -> Result:
        """One winner, everybody else shares the last place.

        >>> Result.win(1, 2).returns
        (-1.0, 1.0)
        >>> Result.win(0, 3).ranking
        (1, 2, 2)
        """
        if not 0 <= winner < players:
            raise ValueError(f"winner {winner} is not one of {players} players")
        if players == 1:  # a solitaire won: no one to share a zero sum with
            return cls((1.0,), (1,), reason, termination)
        return cls.shared((winner,), players, reason, termination)

    @classmethod
    def loss(
        cls, loser: int, players: int, reason: str = "", termination: Termination = Termination.RULES
    ) -> Result:
        """One loser (out of time, resigned), everybody else shares the win.

        >>> Result.loss(0, 2, "out of time", Termination.TIME).winner
        1
        >>> Result.loss(0, 3).returns
        (-0.5, 0.25, 0.25)
        """
        if not 0 <= loser < players or players < 2:
            raise ValueError(f"loser {loser} is not one of {players} players (two or more)")
        return cls.shared((p for p in range(players) if p != loser), players, reason, termination)

    @classmethod
    def draw(cls, players: int, reason: str = "", termination: Termination = Termination.RULES) -> Result:
        """Everybody shares first place with a return of zero.

        >>> Result.draw(2, "both fell").is_draw
        True
        """
        return cls.shared(range(players), players, reason, termination)

    @classmethod
    def from_json(cls, data: Mapping[str, JSON]) -> Result:
        """The result that :meth:`to_json` wrote; KeyError, TypeError or ValueError if it is not one.

        >>> Result.from_json(Result.win(1, 2, "goal").to_json()) == Result.win(1, 2, "goal")
        True
        """
        return cls(
            tuple(float(r) for r in data["returns"]),
            tuple(int(p) for p in data["ranking"]),
            str(data.get("reason") or ""),
            Termination(data.get("termination") or Termination.RULES),
        )

    def to_json(self) -> JSON:
        return {
            "winner": self.winner,
            "draw": self.is_draw,
            "ranking": list(self.ranking),
            "returns": list(self.returns),
            "reason": self.reason,
            "termination": str(self.termination),
        }


def draw_outcome(outcomes: Sequence[tuple[T, float]], pick: float) -> T:
    """The outcome whose running total of probabilities first passes ``pick`` (a number in [0, 1)).

    The last outcome if rounding leaves the total at or below ``pick``. It is the
    draw of :meth:`State.sample_chance` unless a game draws its chance its own
    way, and of tussle's drivers of OpenSpiel games. The promise that a seed gives
    the same game wherever it is played rests on :meth:`State.sample_chance`, which
    every runner, search, server and adapter calls, not on this function: FITE
    rolls its dice one by one, Fight! finds its card without listing the table.

    >>> draw_outcome([("heads", 0.5), ("tails", 0.5)], 0.7)
    'tails'
    """
    total = 0.0
    for outcome, prob in outcomes:
        total += prob
        if pick < total:
            return outcome
    return outcomes[-1][0]


def _rebuild_game(cls: type[Game], players: int, options: dict[str, OptionValue]) -> Game:
    """A game made again from what :meth:`Game.__reduce__` kept of it."""
    return cls(players, **options)


class Actions(Sequence[A], Generic[A]):
    """A lazy, indexable collection of legal actions.

    Subclasses for large action sets compute ``len``, ``[i]`` and ``in``
    without building a list; :class:`ListActions` wraps a list.
    """

    def sample(self, rng: random.Random) -> A:
        """A uniformly random member."""
        return self[rng.randrange(len(self))]


class ListActions(Actions[A]):
    """Actions held in a tuple, with a membership set made when first asked.

    It remembers the action it drew last: a random playout samples an action
    and ``apply`` checks it at once, and that very object is known to be a
    member without hashing it. The draw is :meth:`Actions.sample`'s.

    >>> moves = ListActions([("place", 1), ("place", 2)])
    >>> ("place", 2) in moves, ["place", 2] in moves, len(moves)
    (True, False, 2)
    """

    __slots__ = ("_items", "_last", "_set")

    def __init__(self, items: Iterable[A]) -> None:
        self._items = tuple(items)
        self._set: frozenset[A] | None = None
        self._last: A | None = None

    def __len__(self) -> int:
        return len(self._items)

    def __getitem__(self, index: int) -> A:  # type: ignore[override]
        return self._items[index]

    def __iter__(self) -> Iterator[A]:
        return iter(self._items)

    def __contains__(self, item: object) -> bool:
        if item is self._last and item is not None:
            return True
        known = self._set
        if known is None:
            known = self._set = frozenset(self._items)
        try:
            return item in known
        except TypeError:  # unhashable, so not one of ours
            return False

    def sample(self, rng: random.Random) -> A:
        items = self._items
        drawn = self._last = items[rng.randrange(len(items))]
        return drawn

    def __repr__(self) -> str:
        return f"ListActions({list(self._items)!r})"


class Game(ABC):
    """A game with its options fixed; a factory of states.

    Subclasses set :attr:`info` and implement :meth:`new_initial_state`.
    """

    info: ClassVar[GameInfo]

    # ``self`` positional-only: an option named "self" (from a record or a client) is an unknown
    # option, not a clash of arguments.
    def __init__(self, /, players: int | None = None, **options: object) -> None:
        info = self.info
        span = (
            str(info.min_players)
            if info.min_players == info.max_players
            else f"{info.min_players} to {info.max_players}"
        )
        count = info.min_players if players is None else _as_int(players)
        if count is None:
            # A whole number too long to read is still a number: too many players, not a word.
            number = isinstance(players, (int, str)) and not isinstance(players, bool)
            digits = str(players).strip().lstrip("+-") if number else ""
            if digits.isascii() and digits.isdigit():
                raise OptionError(f"{info.id} is for {span} players, not a {len(digits)}-digit number")
            raise OptionError(f"{info.id}: the number of players {players!r} is not an integer")
        self.num_players = count
        if not info.min_players <= self.num_players <= info.max_players:
            raise OptionError(f"{info.id} is for {span} players, not {self.num_players}")
        values = {opt.name: opt.default for opt in info.options}
        for name, value in options.items():
            values[name] = info.option(name).parse(value)
        self.options: Mapping[str, OptionValue] = MappingProxyType(values)
        self._check_options()

    def __reduce__(self) -> tuple[object, ...]:
        # A game is its class, its players and its options: pickled as those, rebuilt by its own
        # checks (a state pickled to a worker process carries its game this way).
        return (_rebuild_game, (type(self), self.num_players, dict(self.options)))

    def _check_options(self) -> None:  # noqa: B027 (an optional hook, empty by default)
        """Hook for checks that involve several options; raise OptionError."""

    @property
    def id(self) -> str:
        return self.info.id

    def int_option(self, name: str) -> int:
        """The value of the int option ``name`` (typed: ``options`` holds every kind).

        >>> from tussle import load_game
        >>> load_game("fite", turn_limit=9).int_option("turn_limit")
        9
        """
        value = self.options[name]
        if type(value) is not int:
            raise TypeError(f"{self.info.id}: option {name} is not an int option")  # a bug in the game
        return value

    def str_option(self, name: str) -> str:
        """The value of the choice, str or document option ``name``."""
        value = self.options[name]
        if not isinstance(value, str):
            raise TypeError(f"{self.info.id}: option {name} is not a text option")  # a bug in the game
        return value

    def non_default_options(self) -> dict[str, OptionValue]:
        """The options that differ from their defaults (what a record stores)."""
        return {
            opt.name: self.options[opt.name]
            for opt in self.info.options
            if self.options[opt.name] != opt.default
        }

    @abstractmethod
    def new_initial_state(self) -> State[Any]:
        """The state before anybody has acted."""

    def state_from_position(self, text: str) -> State[Any]:
        """A state from position notation; games with :attr:`GameInfo.has_position` override it."""
        raise PositionError(f"{self.info.id} has no position notation")

    def length_bound(self) -> tuple[int, int] | None:
        """The most (player decisions, chance events) one game can take, or None if unbounded.

        Games whose length a limit option bounds override it; a limit that is
        off leaves the game unbounded.
        """
        return None

    @classmethod
    def rules_text(cls) -> str | None:
        """The rules in brief and the notation (the file ``info.hooks.rules`` names), or None.

        >>> from tussle import load_game
        >>> load_game("robo-pigs").rules_text().splitlines()[0]
        '# Robo Battle Pigs: the rules in brief'
        """
        return cls._folder_text(cls.info.hooks.rules)

    @classmethod
    def web_client(cls) -> str | None:
        """The module that draws the game in a browser (the file ``info.hooks.web`` names), or None.

        >>> from tussle import load_game
        >>> "export function draw" in load_game("fite").web_client()
        True
        """
        return cls._folder_text(cls.info.hooks.web)

    @classmethod
    def _folder_text(cls, name: str) -> str | None:
        if not name:
            return None
        module = sys.modules[cls.__module__]
        folder = Path(module.__file__ or ".").parent
        return (folder / name).read_text(encoding="utf-8")

    @classmethod
    def hook(cls, target: str) -> Any:
        """The object that a :class:`Hooks` target names, imported now (relative to this game's package).

        >>> from tussle import load_game
        >>> load_game("fite").hook(".rule_agent:FiteRuleAgent").__name__
        'FiteRuleAgent'
        """
        module_name, _, attribute = target.partition(":")
        package = sys.modules[cls.__module__].__package__
        return getattr(importlib.import_module(module_name, package), attribute)

    def __repr__(self) -> str:
        opts = "".join(f", {k}={v!r}" for k, v in self.non_default_options().items())
        return f"<{type(self).__name__} {self.info.id} players={self.num_players}{opts}>"


class State(ABC, Generic[A]):
    """One moment of one game.

    The public methods check their input and raise :class:`ActionError` without
    changing the state; subclasses implement the underscored hooks.

    ``observation(PUBLIC)`` and ``observation_text(PUBLIC)`` are the public view,
    for spectators: exactly what all players know, with nothing hidden from any
    one of them (no hand, no secret program, no face-down card, no unrevealed
    submission of a simultaneous step; at most that it was made, where the rules
    show that). :meth:`public_observation` is a shortcut.
    """

    game: Game

    # --- who acts -------------------------------------------------------

    @abstractmethod
    def to_act(self) -> tuple[int, ...]:
        """The players who must act now.

        One player at a sequential decision, several at a simultaneous step
        (those who have not yet submitted), ``(CHANCE,)`` at a chance event,
        and ``()`` once the game is over.
        """

    def is_terminal(self) -> bool:
        return not self.to_act()

    def is_chance(self) -> bool:
        return self.to_act() == (CHANCE,)

    @property
    def num_players(self) -> int:
        return self.game.num_players

    # --- actions --------------------------------------------------------

    @abstractmethod
    def legal_actions(self, player: int) -> Actions[A]:
        """The legal actions of ``player`` now (empty if it is not to act)."""

    def chance_outcomes(self) -> list[tuple[A, float]]:
        """The outcomes of the chance event now, with their probabilities."""
        return []

    def sample_chance(self, rng: random.Random) -> A:
        """One chance outcome drawn by its probability: the one chance draw of a state.

        Everything that draws chance (runners, searches, the server, the adapters)
        calls this, so that one seed plays one game everywhere. By default it is
        :func:`draw_outcome` over :meth:`chance_outcomes`; a game may draw another
        way (FITE's dice one by one) if the distribution is exactly
        :meth:`chance_outcomes`'s, which a test of that game checks.
        """
        outcomes = self.chance_outcomes()
        if not outcomes:
            raise ActionError("no chance event is pending")
        return draw_outcome(outcomes, rng.random())

    @final
    def apply(self, player: int, action: A) -> None:
        """Apply ``player``'s action (or a chance outcome with ``player=CHANCE``).

        Raises :class:`ActionError`, leaving the state unchanged, if it is not
        that player's turn or the action is not legal. The one check is
        :meth:`is_legal`; no game overrides this method.
        """
        if not self.is_legal(player, action):
            raise ActionError(self._refusal(player, action))
        self._apply(player, action)

    def is_legal(self, player: int, action: A) -> bool:
        """Whether ``player`` may apply ``action`` now: an acting player's legal action, or a
        possible chance outcome at a chance event (python-chess's ``Board.is_legal``).

        The one legality predicate of a game: :meth:`apply` and :meth:`parse_action`
        ask it. This version reads the lists; a game overrides it with a direct test,
        which the conformance tests hold to this one on every state they visit.

        >>> from tussle import load_game
        >>> state = load_game("fightopia").new_initial_state()
        >>> state.is_legal(CHANCE, 0), state.is_legal(0, 0)
        (True, False)
        """
        # True and 1.0 equal 1 and hash alike: no game's action is a bool or a float.
        if isinstance(action, NOT_ACTIONS):
            return False
        try:
            if player not in self.to_act():
                return False
            if player == CHANCE:
                return any(action == o for o, p in self.chance_outcomes() if p > 0)
            return action in self.legal_actions(player)
        except TypeError:  # an unhashable object is no game's action
            return False

    def _refusal(self, player: int, action: A) -> str:
        """Why :meth:`is_legal` refused ``action``, in one line."""
        acting = self.to_act()
        if player not in acting:
            return self._out_of_turn(player, acting)
        if player == CHANCE:
            return f"{self._describe(player, action)} is not a possible chance outcome"
        return f"{self._describe(player, action)} is not legal now"

    def apply_unchecked(self, player: int, action: A) -> None:
        """Apply an action that this very state offered, skipping :meth:`apply`'s checks.

        For search and simulation code that plays only what the state itself
        gave (one of ``legal_actions(player)`` for an acting ``player``, or an
        outcome of ``sample_chance``): in some games the checks cost as much as
        the move. Anything else may corrupt the state; use :meth:`apply`.

        >>> from tussle import load_game
        >>> state = load_game("fightopia").new_initial_state()
        >>> state.apply_unchecked(CHANCE, state.chance_outcomes()[0][0])
        >>> state.to_act()
        (0,)
        """
        self._apply(player, action)

    def apply_str(self, player: int, text: str) -> A:
        """Parse ``text`` as ``player``'s action, apply it and return the action."""
        action = self.parse_action(player, text)
        self.apply(player, action)
        return action

    @abstractmethod
    def _apply(self, player: int, action: A) -> None:
        """Apply an action already known to be legal."""

    # --- notation -------------------------------------------------------

    @abstractmethod
    def action_to_str(self, player: int, action: A) -> str:
        """The canonical notation of ``action`` by ``player`` (or CHANCE)."""

    def parse_action(self, player: int, text: str) -> A:
        """The action that ``text`` names for ``player`` now.

        Raises :class:`ActionError` naming the text and the reason if it is
        garbled, out of turn or illegal.
        """
        if not isinstance(text, str):
            raise ActionError(f"{shorten(text)} is not text")
        check_notation(text)
        acting = self.to_act()
        if player not in acting:
            raise ActionError(f"{shorten(text)}: {self._out_of_turn(player, acting)}")
        action = self._parse_action(player, text)
        if not self.is_legal(player, action):
            if player == CHANCE:
                raise ActionError(f"{shorten(text)} is not a possible chance outcome now")
            raise ActionError(f"{shorten(text)} is not legal now{self._why_illegal(player, action)}")
        return action

    @abstractmethod
    def _parse_action(self, player: int, text: str) -> A:
        """Read ``text`` into an action, raising ActionError if it is garbled."""

    # --- structured actions -----------------------------------------------

    @abstractmethod
    def action_to_json(self, player: int, action: A) -> Mapping[str, JSON]:
        """The structured form of ``action`` by ``player`` (or CHANCE), as plain data.

        Each game's action has one structured form, a small frozen value in its
        folder with ``to_json``/``from_json`` beside its notation (as python-chess's
        ``Move`` has ``uci()``): a web client and the codecs read it instead of
        parsing notation. Like :meth:`action_to_str`, it reads this state (the
        moment before the action).
        """

    def action_from_json(self, player: int, data: object) -> A:
        """The action whose structured form is ``data`` for ``player`` now.

        Raises :class:`ActionError` naming the reason if ``data`` is not one,
        or it is out of turn or illegal (as :meth:`parse_action` does for text).
        """
        acting = self.to_act()
        if player not in acting:
            raise ActionError(self._out_of_turn(player, acting))
        if not isinstance(data, dict) or not all(isinstance(k, str) for k in data):
            raise ActionError(f"{shorten(data)} is not a structured action (an object)")
        action = self._action_from_json(player, data)
        if not self.is_legal(player, action):
            raise ActionError(
                f"{self._describe(player, action)} is not legal now{self._why_illegal(player, action)}"
            )
        return action

    @abstractmethod
    def _action_from_json(self, player: int, data: dict[str, object]) -> A:
        """Read a structured form into an action, raising ActionError if it is not one."""

    def _why_illegal(self, player: int, action: A) -> str:
        """Optional ': reason' suffix explaining why a well-formed action is illegal."""
        return ""

    def player_name(self, player: int) -> str:
        """How messages name ``player``: a seat, chance, or the public view's spectator."""
        if player == CHANCE:
            return "chance"
        if player == PUBLIC:
            return "a spectator"
        return f"player {player}"

    def _out_of_turn(self, player: int, acting: tuple[int, ...]) -> str:
        if not acting:
            return "the game is over"
        who = ", ".join(self.player_name(p) for p in acting)
        if player == PUBLIC:
            return f"a spectator never acts (to act: {who})"
        return f"it is not {self.player_name(player)}'s turn (to act: {who})"

    def _describe(self, player: int, action: A) -> str:
        try:
            return repr(self.action_to_str(player, action))
        except Exception:  # an unknown object may not format; still name it
            return repr(action)

    # --- outcome --------------------------------------------------------

    @abstractmethod
    def result(self) -> Result | None:
        """The result once the game is over, else ``None``."""

    @final
    def cut_by_limit(self) -> bool:
        """Whether the game is over because a limit stopped it (a ply, turn or round limit of
        the options, there so that games between programs end) rather than by its rules:
        its result's termination is :attr:`Termination.LIMIT`.

        Environments report such an ending as truncated, not terminated; balance reports
        count such games apart. A game without limits is never cut.
        """
        result = self.result()
        return result is not None and result.termination == Termination.LIMIT

    # --- copies and views ----------------------------------------------

    @abstractmethod
    def clone(self) -> Self:
        """An independent copy."""

    @abstractmethod
    def observation(self, player: int) -> Mapping[str, JSON]:
        """What ``player`` sees now, as plain JSON-ready data; never leaks hidden information.

        ``player`` is a seat ``0..num_players-1``, or :data:`PUBLIC` for the
        public view: what every player and a spectator may see. Nothing any
        player cannot see is in it, so resampling for any player keeps it, and
        a submission at a simultaneous step leaves it as it was until the step
        resolves.
        """

    @final
    def observation_text(self, player: int) -> str:
        """What ``player`` sees now, as text for a terminal (:data:`PUBLIC`: the public view).

        One definition of a view: the text is :meth:`observation_to_text` of
        :meth:`observation`, so it shows nothing the observation does not (as the
        codecs' arrays are written from the observation too).
        """
        return self.observation_to_text(self.observation(player), player)

    @abstractmethod
    def observation_to_text(self, observation: Mapping[str, JSON], player: int) -> str:
        """``observation`` (``player``'s) written as text: the game's one renderer of a view.

        It reads its arguments and the game's options, never the state itself:
        the conformance test renders one state's observation from another state.
        """

    def public_observation(self) -> Mapping[str, JSON]:
        """The public view: ``observation(PUBLIC)``, what every player and a spectator may see.

        >>> from tussle import load_game
        >>> state = load_game("robo-pigs").new_initial_state()
        >>> _ = state.apply_str(0, "F F F F F")  # a secret program: not in the public view
        >>> state.public_observation() == state.observation(PUBLIC)
        True
        >>> state.public_observation()["my_program"] is None
        True
        """
        return self.observation(PUBLIC)

    @abstractmethod
    def render(self) -> str:
        """The whole truth as text (for logs and spectators of finished games)."""

    def resample(self, player: int, rng: random.Random) -> Self:
        """A random full state consistent with everything ``player`` has seen.

        Perfect-information games return a clone; games with hidden information
        override this to redraw what ``player`` cannot see. For :data:`PUBLIC`,
        everything outside the public view is redrawn. Whoever ``player`` is,
        the public view stays as it was.
        """
        return self.clone()

    def position(self) -> str:
        """The position notation of this state, for games that have one."""
        raise PositionError(f"{self.game.info.id} has no position notation")

    def __str__(self) -> str:
        return self.render()
