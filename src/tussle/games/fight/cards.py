"""Fight!: the card vocabulary and the deck file format.

A Warrior has a name, a family, a printed power (1 to 30) and an ability; an
Arena has a name, a glory value (4 to 8) and a winning condition. Abilities
and conditions are data, built from a small vocabulary, so a new card needs no
code. A deck is a TOML or JSON text (read as JSON when it starts with ``{``)::

    [[warrior]]
    name = "Grizzle"
    family = "Animal"
    power = 20
    ability = { do = "add", amount = -10, family = "Animal" }   # -10 to all Animals

    [[arena]]
    name = "Sunset Pit"
    glory = 7
    condition = { goal = "closest", value = 25 }

An ability is one effect (a table) or a list of effects run in order. Effects
(``do``) that change powers act on Main Warriors picked by ``target`` (``all``,
the default; ``own``; ``opponents``; ``opponent``, one opponent chosen when the
Boost is activated) and optional filters ``family`` (a name or a list) and
``min_power`` / ``max_power``:

``add`` (``amount``), ``percent`` (``amount``: 150 is +50%), ``set``
(``amount``), ``replace_digit`` (``from``, ``to``), ``multiply_digits``,
``reverse_digits``, ``sum_digits``, ``swap`` (your Main Warrior's power with
the chosen opponent's). Two effects move cards: ``draw_score`` (``count``,
``family``: draw that many from the Reserves, score those of the families,
the rest go to the Graveyard) and ``steal_boost`` (``family``: score the chosen
opponent's Boost Warrior if it is of one of the families).

An Arena's condition has a ``goal`` (``highest``, ``lowest`` or ``closest``
with a ``value``), an optional ``measure`` (``power``, ``digit_sum``,
``last_digit``) and optional eligibility filters ``parity`` (``odd`` or
``even``), ``family``, ``min_power``, ``max_power``.

The game reads the deck's text, never a file (the local commands read a deck
file and pass its text on); the text is at most
:data:`tussle.game.MAX_DOCUMENT_CHARS` characters, like every document an
option takes. A deck is read only if it is nested at most ``MAX_NESTING``
levels deep, with numbers of at most ``MAX_DIGITS`` digits, at most
``MAX_WARRIORS`` Warriors, ``MAX_ARENAS`` Arenas and ``MAX_EFFECTS`` effects to
an ability: whatever breaks a limit is refused with a one-line OptionError
naming the card and the limit. With these limits a power never reaches
``10**51`` (``POWER_BOUND``).

>>> deck = default_deck()
>>> len(deck.warriors), len(deck.arenas)
(60, 12)
>>> deck.warrior("grizzle").text
'-10 to all Animals'
"""

from __future__ import annotations

import functools
import json
import re
import reprlib
import tomllib
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from tussle.errors import OptionError

FAMILIES = ("Human", "Animal", "Robot", "Demon", "Alien")
HUMAN, ANIMAL, ROBOT, DEMON, ALIEN = range(5)
ANY_FAMILY = (1 << len(FAMILIES)) - 1
_FAMILY_INDEX = {name.lower(): i for i, name in enumerate(FAMILIES)}

MIN_POWER, MAX_POWER = 1, 30
MIN_GLORY, MAX_GLORY = 4, 8

# --- the limits of a deck (docs/games/fight.md, "The deck file format") ---
#: How deep tables and lists may nest; the format needs 6 (the file, the
#: warrior list, a warrior, its ability list, an effect, its family list).
MAX_NESTING = 8
#: The most digits a number in a deck may have (amounts need 4; the power filters have no other bound).
MAX_DIGITS = 6
#: The most Warriors and Arenas a deck may hold.
MAX_WARRIORS, MAX_ARENAS = 1000, 100
#: The most effects one ability may run.
MAX_EFFECTS = 8
#: The most characters of a card's ``text``, on one line.
MAX_TEXT = 200
#: No power can reach this: a Fight runs at most 6 Boosts of MAX_EFFECTS
#: effects, each of which at most multiplies a power by 10 and adds 999 (a
#: power starts at 30 at most): below 141 * 10**48.
POWER_BOUND = 10**51

TARGETS = ("all", "own", "opponents", "opponent")
#: Effects that change the powers of Main Warriors.
POWER_OPS = (
    "add",
    "percent",
    "set",
    "replace_digit",
    "multiply_digits",
    "reverse_digits",
    "sum_digits",
    "swap",
)
CARD_OPS = ("draw_score", "steal_boost")
GOALS = ("highest", "lowest", "closest")
MEASURES = ("power", "digit_sum", "last_digit")

_NUMBER_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")
# Names are matched case-insensitively in notation; keep them plain words.
_NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9'.-]*( [A-Za-z0-9'.-]+)*$")
_RESERVED_WORDS = frozenset({"main", "boost"})


def family_mask(names: tuple[int, ...]) -> int:
    """The bit mask of a set of family indexes.

    >>> family_mask((HUMAN, DEMON))
    9
    """
    mask = 0
    for f in names:
        mask |= 1 << f
    return mask


def family_list(mask: int) -> list[str]:
    """The family names in ``mask``, in the text's order.

    >>> family_list(9)
    ['Human', 'Demon']
    """
    return [FAMILIES[f] for f in range(len(FAMILIES)) if mask >> f & 1]


_SHOW = reprlib.Repr()
_SHOW.maxstring = 60
_SHOW.maxother = 60
_SHOW.maxlong = 20
_SHOW.maxlist = _SHOW.maxdict = 4
_SHOW.maxlevel = 2


def _show(value: Any) -> str:
    """A value written for an error message: one line, shortened if long.

    >>> _show("Elf"), _show("x" * 100)
    ("'Elf'", "'xxxxxxxxxxxxxxxxxxxxxxxxxxx...xxxxxxxxxxxxxxxxxxxxxxxxxxxx'")
    """
    return _SHOW.repr(value)


def _plural(name: str) -> str:
    return name + "s"


def _join_or(words: list[str]) -> str:
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " or " + words[-1]


def _article(word: str) -> str:
    return ("an " if word[0].lower() in "aeiou" else "a ") + word


# --- digit and number operations ------------------------------------------


def replace_digit(power: int, old: int, new: int) -> int:
    """Every digit ``old`` of ``power`` becomes ``new`` (the text: 19 becomes 10 when 9s become 0).

    >>> replace_digit(19, 9, 0), replace_digit(22, 2, 8), replace_digit(90, 9, 0)
    (10, 88, 0)
    """
    return int(str(power).replace(str(old), str(new)))


def multiply_digits(power: int) -> int:
    """The product of the decimal digits (the text: 14 becomes 4, 54 becomes 20).

    >>> multiply_digits(14), multiply_digits(54), multiply_digits(7), multiply_digits(123)
    (4, 20, 7, 6)
    """
    product = 1
    for ch in str(power):
        product *= ord(ch) - 48
    return product


def reverse_digits(power: int, pad: bool = False) -> int:
    """The digits in reverse order (the text: 29 becomes 92, 46 becomes 64).

    A one-digit power has nothing to switch and stays, unless ``pad`` reads
    it as two digits with a leading zero (7 becomes 70). Zeros that end up in
    front vanish: 30 becomes 3.

    >>> reverse_digits(29), reverse_digits(46), reverse_digits(7), reverse_digits(7, pad=True)
    (92, 64, 7, 70)
    >>> reverse_digits(30), reverse_digits(123)
    (3, 321)
    """
    if power < 10:
        return power * 10 if pad else power
    return int(str(power)[::-1])


def sum_digits(power: int) -> int:
    """The sum of the decimal digits.

    >>> sum_digits(29)
    11
    """
    return sum(ord(ch) - 48 for ch in str(power))


def scale_percent(power: int, percent: int, round_up: bool = False) -> int:
    """``power`` times ``percent`` / 100, rounded down (or up).

    >>> scale_percent(32, 150), scale_percent(15, 150), scale_percent(15, 150, round_up=True)
    (48, 22, 23)
    """
    if round_up:
        return -((-power * percent) // 100)
    return (power * percent) // 100


# --- the vocabulary -------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Effect:
    """One step of an ability."""

    op: str
    target: str = "all"
    families: int = ANY_FAMILY
    amount: int = 0
    old: int = 0
    new: int = 0
    count: int = 0
    min_power: int | None = None
    max_power: int | None = None

    @property
    def chooses_opponent(self) -> bool:
        """Whether activating needs an opponent chosen."""
        return self.target == "opponent" or self.op == "steal_boost"

    def selects(self, family: int, power: int) -> bool:
        """Whether a Main Warrior of ``family`` with ``power`` passes the filters."""
        if not self.families >> family & 1:
            return False
        if self.min_power is not None and power < self.min_power:
            return False
        return self.max_power is None or power <= self.max_power

    def apply(self, power: int, round_up: bool, pad: bool) -> int:
        """The new power of one selected Main Warrior (not for ``swap``).

        >>> Effect("replace_digit", old=2, new=8).apply(12, False, False)
        18
        """
        op = self.op
        if op == "add":
            return power + self.amount
        if op == "percent":
            return scale_percent(power, self.amount, round_up)
        if op == "set":
            return self.amount
        if op == "replace_digit":
            return replace_digit(power, self.old, self.new)
        if op == "multiply_digits":
            return multiply_digits(power)
        if op == "reverse_digits":
            return reverse_digits(power, pad)
        if op == "sum_digits":
            return sum_digits(power)
        raise ValueError(op)

    def text(self) -> str:
        """A short English description.

        >>> Effect("add", target="opponent", amount=10).text()
        "+10 to an opponent's Main Warrior"
        >>> Effect("draw_score", count=5, families=1 << ALIEN).text()
        'Draw five Warriors from the Reserves and score all Aliens'
        """
        op = self.op
        fams = family_list(self.families)
        if op == "draw_score":
            what = (
                "all Warriors"
                if self.families == ANY_FAMILY
                else "all " + _join_or([_plural(f) for f in fams])
            )
            count = _NUMBER_WORDS[self.count] if self.count < len(_NUMBER_WORDS) else str(self.count)
            noun = "Warrior" if self.count == 1 else "Warriors"
            return f"Draw {count} {noun} from the Reserves and score {what}"
        if op == "steal_boost":
            if self.families == ANY_FAMILY:
                return "Score an opponent's Boost Warrior"
            return f"Score an opponent's Boost Warrior if it is {_join_or([_article(f) for f in fams])}"
        if op == "swap":
            return "Swap the power of your Main Warrior with an opponent's"
        whose = self._target_text()
        if op == "add":
            return f"{self.amount:+d} to {whose}"
        if op == "percent":
            return f"{self.amount - 100:+d}% to {whose}"
        if op == "set":
            return f"{whose[0].upper()}{whose[1:]} become{'s' if self._singular() else ''} {self.amount}"
        if op == "replace_digit":
            if self.target == "all" and self.families == ANY_FAMILY and self._no_range():
                return f"All {self.old}s become {self.new}s"
            return f"All {self.old}s become {self.new}s in {whose}"
        verb = {"multiply_digits": "Multiply", "reverse_digits": "Switch", "sum_digits": "Add up"}[op]
        return f"{verb} the digits of {whose}"

    def _no_range(self) -> bool:
        return self.min_power is None and self.max_power is None

    def _singular(self) -> bool:
        return self.target in ("own", "opponent")

    def _target_text(self) -> str:
        fams = family_list(self.families)
        kind = "Main Warrior" if self.families == ANY_FAMILY else " or ".join(fams) + " Main Warrior"
        if self.target == "own":
            base = f"your {kind}"
        elif self.target == "opponent":
            base = f"an opponent's {kind}"
        elif self.target == "opponents":
            base = f"each opponent's {kind}"
        elif self.families == ANY_FAMILY:
            base = "all Main Warriors"
        else:
            base = "all " + _join_or([_plural(f) for f in fams])
        if self.min_power is not None and self.max_power is not None:
            base += f" with power {self.min_power} to {self.max_power}"
        elif self.min_power is not None:
            base += f" with power {self.min_power} or more"
        elif self.max_power is not None:
            base += f" with power {self.max_power} or less"
        return base


@dataclass(frozen=True, slots=True)
class Condition:
    """An Arena's winning condition."""

    goal: str
    value: int = 0
    measure: str = "power"
    parity: str = ""
    families: int = ANY_FAMILY
    min_power: int | None = None
    max_power: int | None = None

    def key(self, family: int, power: int) -> int | None:
        """How good ``power`` is here (higher wins), or None if it cannot win.

        >>> Condition("closest", 25).key(0, 23), Condition("lowest").key(0, 3)
        (-2, -3)
        """
        if not self.families >> family & 1:
            return None
        if self.min_power is not None and power < self.min_power:
            return None
        if self.max_power is not None and power > self.max_power:
            return None
        if self.parity and (power % 2 == 1) != (self.parity == "odd"):
            return None
        m = power
        if self.measure == "digit_sum":
            m = sum_digits(power)
        elif self.measure == "last_digit":
            m = power % 10
        if self.goal == "highest":
            return m
        if self.goal == "lowest":
            return -m
        return -abs(m - self.value)

    def to_json(self) -> dict[str, Any]:
        """The condition as plain data, in the deck file's terms (fields at their defaults left out).

        >>> Condition("closest", 25).to_json()
        {'goal': 'closest', 'value': 25}
        >>> Condition("lowest", min_power=10).to_json()
        {'goal': 'lowest', 'min_power': 10}
        """
        out: dict[str, Any] = {"goal": self.goal}
        if self.goal == "closest":
            out["value"] = self.value
        if self.measure != "power":
            out["measure"] = self.measure
        if self.parity:
            out["parity"] = self.parity
        if self.families != ANY_FAMILY:
            out["family"] = family_list(self.families)
        if self.min_power is not None:
            out["min_power"] = self.min_power
        if self.max_power is not None:
            out["max_power"] = self.max_power
        return out

    def text(self) -> str:
        """A short English description.

        >>> Condition("highest", parity="odd").text()
        'Highest odd power wins'
        """
        what = {"power": "power", "digit_sum": "sum of digits", "last_digit": "last digit"}[self.measure]
        parts = []
        if self.parity:
            parts.append(self.parity)
        if self.families != ANY_FAMILY:
            parts.append(" or ".join(family_list(self.families)))
        what = " ".join([*parts, what])
        if self.goal == "closest":
            text = f"{what[0].upper()}{what[1:]} closest to {self.value} wins"
        else:
            text = f"{self.goal.capitalize()} {what} wins"
        if self.min_power is not None and self.max_power is not None:
            text += f" (power {self.min_power} to {self.max_power} only)"
        elif self.min_power is not None:
            text += f" (power {self.min_power} or more only)"
        elif self.max_power is not None:
            text += f" (power {self.max_power} or less only)"
        return text


@dataclass(frozen=True, slots=True)
class Warrior:
    """A Warrior card."""

    name: str
    family: int
    power: int
    ability: tuple[Effect, ...]
    text: str

    @property
    def chooses_opponent(self) -> bool:
        return any(e.chooses_opponent for e in self.ability)


@dataclass(frozen=True, slots=True)
class Arena:
    """An Arena card."""

    name: str
    glory: int
    condition: Condition
    text: str


@dataclass(frozen=True)
class Deck:
    """A validated deck: Warriors and Arenas, with case-insensitive name lookup."""

    warriors: tuple[Warrior, ...]
    arenas: tuple[Arena, ...]
    source: str = "the built-in deck"
    warrior_ids: dict[str, int] = field(default_factory=dict, compare=False)
    arena_ids: dict[str, int] = field(default_factory=dict, compare=False)

    def __post_init__(self) -> None:
        self.warrior_ids.update({w.name.lower(): i for i, w in enumerate(self.warriors)})
        self.arena_ids.update({a.name.lower(): i for i, a in enumerate(self.arenas)})

    def warrior(self, name: str) -> Warrior:
        """The Warrior named ``name`` (any case); KeyError if there is none."""
        return self.warriors[self.warrior_ids[name.lower()]]

    def arena(self, name: str) -> Arena:
        """The Arena named ``name`` (any case); KeyError if there is none."""
        return self.arenas[self.arena_ids[name.lower()]]


# --- reading and checking decks ------------------------------------------


class _BadCardError(Exception):
    """A problem with one field; turned into a one-line OptionError naming the card."""


def _int(value: Any, what: str, lo: int | None = None, hi: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise _BadCardError(f"{what} must be a whole number, not {_show(value)}")
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        span = (
            f"{lo} to {hi}"
            if lo is not None and hi is not None
            else (f"at least {lo}" if lo is not None else f"at most {hi}")
        )
        raise _BadCardError(f"{what} {value} is not {span}")
    number: int = value
    return number


def _str(value: Any, what: str) -> str:
    if not isinstance(value, str):
        raise _BadCardError(f"{what} must be a string, not {_show(value)}")
    return value


def _text(value: Any) -> str:
    text = _str(value, "text")
    if len(text) > MAX_TEXT or not text.isprintable():
        raise _BadCardError(
            f"text {_show(text)} must be one line of at most {MAX_TEXT} printable characters (limit)"
        )
    return text


def _family(value: Any) -> int:
    name = _str(value, "family")
    try:
        return _FAMILY_INDEX[name.strip().lower()]
    except KeyError:
        raise _BadCardError(f"unknown family {_show(name)} (families: {', '.join(FAMILIES)})") from None


def _families(value: Any) -> int:
    items = [value] if isinstance(value, str) else value
    if not isinstance(items, list) or not items:
        raise _BadCardError(f"family must be a family name or a non-empty list of them, not {_show(value)}")
    return family_mask(tuple(_family(v) for v in items))


def _check_keys(table: dict[str, Any], allowed: set[str], what: str) -> None:
    extra = sorted(set(table) - allowed)
    if extra:
        raise _BadCardError(
            f"{what} has unknown key {_show(extra[0])} (allowed: {', '.join(sorted(allowed))})"
        )


_EFFECT_KEYS: dict[str, set[str]] = {
    "add": {"amount"},
    "percent": {"amount"},
    "set": {"amount"},
    "replace_digit": {"from", "to"},
    "multiply_digits": set(),
    "reverse_digits": set(),
    "sum_digits": set(),
    "swap": set(),
    "draw_score": {"count", "family"},
    "steal_boost": {"family"},
}
_FILTER_KEYS = {"target", "family", "min_power", "max_power"}


def parse_effect(raw: Any) -> Effect:
    """One effect from its table; raises ``_BadCardError`` naming the problem.

    >>> parse_effect({"do": "percent", "amount": 150, "target": "own"}).text()
    '+50% to your Main Warrior'
    """
    if not isinstance(raw, dict):
        raise _BadCardError(f"an effect must be a table, not {_show(raw)}")
    op = raw.get("do")
    if op not in _EFFECT_KEYS:
        raise _BadCardError(f"effect 'do' must be one of {', '.join(_EFFECT_KEYS)}, not {_show(op)}")
    keys = _EFFECT_KEYS[op] | {"do"}
    if op in POWER_OPS and op != "swap":
        keys |= _FILTER_KEYS
    _check_keys(raw, keys, f"effect {op!r}")
    target = raw.get("target", "opponent" if op == "swap" else "all")
    if target not in TARGETS:
        raise _BadCardError(f"effect {op!r}: target must be one of {', '.join(TARGETS)}, not {_show(target)}")
    families = _families(raw["family"]) if "family" in raw else ANY_FAMILY
    lo = _int(raw["min_power"], "min_power") if "min_power" in raw else None
    hi = _int(raw["max_power"], "max_power") if "max_power" in raw else None
    if lo is not None and hi is not None and lo > hi:
        raise _BadCardError(f"effect {op!r}: min_power {lo} is above max_power {hi}")
    kwargs: dict[str, Any] = {"target": target, "families": families, "min_power": lo, "max_power": hi}
    if op in ("add", "set"):
        if "amount" not in raw:
            raise _BadCardError(f"effect {op!r} needs an amount")
        kwargs["amount"] = _int(raw["amount"], f"{op} amount", -999, 999)
    elif op == "percent":
        if "amount" not in raw:
            raise _BadCardError("effect 'percent' needs an amount (150 is +50%)")
        kwargs["amount"] = _int(raw["amount"], "percent amount", 1, 1000)
    elif op == "replace_digit":
        if "from" not in raw or "to" not in raw:
            raise _BadCardError("effect 'replace_digit' needs 'from' and 'to' digits")
        kwargs["old"] = _int(raw["from"], "replace_digit from", 0, 9)
        kwargs["new"] = _int(raw["to"], "replace_digit to", 0, 9)
        if kwargs["old"] == kwargs["new"]:
            raise _BadCardError(f"effect 'replace_digit' turns {kwargs['old']} into itself")
    elif op == "draw_score":
        if "count" not in raw or "family" not in raw:
            raise _BadCardError("effect 'draw_score' needs a count and a family")
        kwargs["count"] = _int(raw["count"], "draw_score count", 1, 10)
    elif op == "steal_boost":
        kwargs["target"] = "opponent"
    return Effect(op, **kwargs)


def parse_condition(raw: Any) -> Condition:
    """An Arena condition from its table; raises ``_BadCardError`` naming the problem.

    >>> parse_condition({"goal": "closest", "value": 25}).text()
    'Power closest to 25 wins'
    """
    if not isinstance(raw, dict):
        raise _BadCardError(f"condition must be a table, not {_show(raw)}")
    _check_keys(raw, {"goal", "value", "measure", "parity", "family", "min_power", "max_power"}, "condition")
    goal = raw.get("goal")
    if goal not in GOALS:
        raise _BadCardError(f"condition goal must be one of {', '.join(GOALS)}, not {_show(goal)}")
    if goal == "closest":
        if "value" not in raw:
            raise _BadCardError("condition goal 'closest' needs a value")
        value = _int(raw["value"], "condition value", 0, 999)
    elif "value" in raw:
        raise _BadCardError(f"condition goal {goal!r} takes no value")
    else:
        value = 0
    measure = raw.get("measure", "power")
    if measure not in MEASURES:
        raise _BadCardError(f"condition measure must be one of {', '.join(MEASURES)}, not {_show(measure)}")
    parity = raw.get("parity", "")
    if parity not in ("", "odd", "even"):
        raise _BadCardError(f"condition parity must be odd or even, not {_show(parity)}")
    families = _families(raw["family"]) if "family" in raw else ANY_FAMILY
    lo = _int(raw["min_power"], "min_power") if "min_power" in raw else None
    hi = _int(raw["max_power"], "max_power") if "max_power" in raw else None
    if lo is not None and hi is not None and lo > hi:
        raise _BadCardError(f"condition min_power {lo} is above max_power {hi}")
    return Condition(goal, value, measure, parity, families, lo, hi)


def _name(raw: dict[str, Any], seen: dict[str, str]) -> str:
    if "name" not in raw:
        raise _BadCardError("has no name")
    name = _str(raw["name"], "name")
    if not _NAME_RE.match(name) or len(name) > 40:
        raise _BadCardError(
            f"name {_show(name)} must be 1 to 40 letters, digits, ' . - with single spaces between words"
        )
    if _RESERVED_WORDS & set(name.lower().split()):
        raise _BadCardError(f"name {name!r} uses a word of the notation (main, boost)")
    if name.lower() in seen:
        raise _BadCardError(f"name {name!r} is already used by {seen[name.lower()]}")
    return name


def parse_deck(data: Any, source: str = "deck") -> Deck:
    """A deck from parsed TOML or JSON data; raises a one-line OptionError naming the bad card.

    ``source`` says where the deck came from: each message starts with it.

    >>> parse_deck({"warrior": [], "arena": []}, "deck x.toml")
    Traceback (most recent call last):
    ...
    tussle.errors.OptionError: deck x.toml: it has no Warriors (a [[warrior]] list)
    """
    where = source
    _check_shape(data, where)
    if not isinstance(data, dict):
        raise OptionError(f"{where}: the file must hold a table with 'warrior' and 'arena' lists")
    extra = sorted(set(data) - {"warrior", "arena"})
    if extra:
        raise OptionError(
            f"{where}: unknown top-level key {_show(extra[0])} (use 'warrior' and 'arena' lists)"
        )
    raw_warriors = data.get("warrior", [])
    raw_arenas = data.get("arena", [])
    if not isinstance(raw_warriors, list) or not raw_warriors:
        raise OptionError(f"{where}: it has no Warriors (a [[warrior]] list)")
    if not isinstance(raw_arenas, list) or not raw_arenas:
        raise OptionError(f"{where}: it has no Arenas (an [[arena]] list)")
    if len(raw_warriors) > MAX_WARRIORS:
        raise OptionError(
            f"{where}: it has {len(raw_warriors)} Warriors; the limit is {MAX_WARRIORS} Warriors"
        )
    if len(raw_arenas) > MAX_ARENAS:
        raise OptionError(f"{where}: it has {len(raw_arenas)} Arenas; the limit is {MAX_ARENAS} Arenas")
    seen: dict[str, str] = {}
    warriors: list[Warrior] = []
    for i, raw in enumerate(raw_warriors, 1):
        label = f"warrior #{i}"
        try:
            if not isinstance(raw, dict):
                raise _BadCardError("must be a table")
            if isinstance(raw.get("name"), str):
                label = f"warrior #{i} {_show(raw['name'])}"
            _check_keys(raw, {"name", "family", "power", "ability", "text"}, "the card")
            name = _name(raw, seen)
            for key in ("family", "power", "ability"):
                if key not in raw:
                    raise _BadCardError(f"has no {key}")
            family = _family(raw["family"])
            power = _int(raw["power"], "power", MIN_POWER, MAX_POWER)
            items = raw["ability"] if isinstance(raw["ability"], list) else [raw["ability"]]
            if not items:
                raise _BadCardError("ability is an empty list")
            if len(items) > MAX_EFFECTS:
                raise _BadCardError(
                    f"ability has {len(items)} effects; the limit is {MAX_EFFECTS} effects to an ability"
                )
            ability = tuple(parse_effect(e) for e in items)
            if sum(e.chooses_opponent for e in ability) > 1:
                raise _BadCardError("an ability may choose an opponent in one effect only")
            text = _text(raw["text"]) if "text" in raw else "; ".join(e.text() for e in ability)
        except _BadCardError as exc:
            raise OptionError(f"{where}: {label}: {exc}") from None
        seen[name.lower()] = f"warrior #{i}"
        warriors.append(Warrior(name, family, power, ability, text))
    arenas: list[Arena] = []
    for i, raw in enumerate(raw_arenas, 1):
        label = f"arena #{i}"
        try:
            if not isinstance(raw, dict):
                raise _BadCardError("must be a table")
            if isinstance(raw.get("name"), str):
                label = f"arena #{i} {_show(raw['name'])}"
            _check_keys(raw, {"name", "glory", "condition", "text"}, "the card")
            name = _name(raw, seen)
            for key in ("glory", "condition"):
                if key not in raw:
                    raise _BadCardError(f"has no {key}")
            glory = _int(raw["glory"], "glory", MIN_GLORY, MAX_GLORY)
            condition = parse_condition(raw["condition"])
            text = _text(raw["text"]) if "text" in raw else condition.text()
        except _BadCardError as exc:
            raise OptionError(f"{where}: {label}: {exc}") from None
        seen[name.lower()] = f"arena #{i}"
        arenas.append(Arena(name, glory, condition, text))
    return Deck(tuple(warriors), tuple(arenas), source)


class _LongNumber:
    """A JSON integer written with more than ``MAX_DIGITS`` digits, kept unconverted for the message."""

    __slots__ = ("digits",)

    def __init__(self, digits: int) -> None:
        self.digits = digits


def _json_int(text: str) -> int | _LongNumber:
    digits = len(text.lstrip("-"))
    return _LongNumber(digits) if digits > MAX_DIGITS else int(text)


def _digits(value: int) -> str:
    try:
        return str(len(str(abs(value))))
    except ValueError:  # beyond what Python converts to text
        return "thousands of"


def _check_shape(data: Any, where: str) -> None:
    """Refuse data nested deeper than ``MAX_NESTING`` or holding a number longer than ``MAX_DIGITS``.

    Iterative, so that data of any depth is refused without recursion; the
    message says where in the file the limit was hit.

    >>> try:
    ...     _check_shape({"warrior": [{"power": 10**9}]}, "d")
    ... except OptionError as exc:
    ...     print(exc)
    d: warrior #1 power: a number of 10 digits; numbers in a deck have at most 6 digits
    """
    stack: list[tuple[Any, int, tuple[str, ...]]] = [(data, 1, ())]
    while stack:
        value, depth, path = stack.pop()
        at = f"{where}: {' '.join(path)}: " if path else f"{where}: "
        if isinstance(value, (dict, list)):
            if depth > MAX_NESTING:
                raise OptionError(f"{at}nested more than {MAX_NESTING} levels deep (the limit)")
            if isinstance(value, dict):
                stack.extend(
                    (
                        v,
                        depth + 1,
                        (*path, k if isinstance(k, str) and len(k) <= 40 and k.isprintable() else _show(k)),
                    )
                    for k, v in value.items()
                )
            else:
                stack.extend((v, depth + 1, (*path, f"#{i}")) for i, v in enumerate(value, 1))
        elif isinstance(value, _LongNumber) or (
            isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**MAX_DIGITS
        ):
            digits = str(value.digits) if isinstance(value, _LongNumber) else _digits(value)
            raise OptionError(
                f"{at}a number of {digits} digits; numbers in a deck have at most {MAX_DIGITS} digits"
            )


def _parse_text(text: str, where: str) -> Any:
    """The data of a deck's text: JSON when it starts with ``{`` (which no TOML does), else TOML."""
    try:
        if text.lstrip().startswith("{"):
            try:
                return json.loads(text, parse_int=_json_int)
            except json.JSONDecodeError as exc:
                raise OptionError(
                    f"{where}: not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}"
                ) from None
        try:
            return tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise OptionError(f"{where}: not valid TOML: {exc}") from None
        except ValueError as exc:  # an integer too long for Python to convert
            if "digits" not in str(exc):
                raise OptionError(f"{where}: not valid TOML: {_show(str(exc))}") from None
            raise OptionError(
                f"{where}: a number of thousands of digits; "
                f"numbers in a deck have at most {MAX_DIGITS} digits"
            ) from None
    except RecursionError:
        raise OptionError(f"{where}: nested more than {MAX_NESTING} levels deep (the limit)") from None


@functools.lru_cache(maxsize=16)
def load_deck(text: str, source: str = "deck") -> Deck:
    """Read and check a deck's text (TOML, or JSON); raises a one-line OptionError starting with ``source``.

    The text, never a file: a game reads no file that an option names. A
    server or a pool of workers builds the game anew for every computer move,
    so the last decks read are kept.

    >>> load_deck('{"warrior": [{"name": "Solo", "family": "Human", "power": 5, "ability": {"do": "add"}}]}')
    Traceback (most recent call last):
    ...
    tussle.errors.OptionError: deck: it has no Arenas (an [[arena]] list)
    """
    return parse_deck(_parse_text(text, source), source)


@functools.cache
def default_deck() -> Deck:
    """tussle's reconstruction of the Fight! deck (60 Warriors, 12 Arenas), read once."""
    text = resources.files("tussle.games.fight").joinpath("deck.toml").read_text(encoding="utf-8")
    return parse_deck(tomllib.loads(text), "the built-in deck")
