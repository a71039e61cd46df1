"""Fight!'s actions as values: one structured form for each kind, its JSON and its notation.

The rules keep their own fast values (:data:`FightAction`): a play is a pair of
card numbers ``(main, boost)``, a Boost's fate an int (:data:`SCORE`,
:data:`ACTIVATE` or the seat chosen), a chance outcome a Warrior's, family's or
Arena's number. A :class:`Move` is the same action as a client draws it, every
card by its name as the deck writes it; :meth:`FightState.move
<tussle.games.fight.rules.FightState.move>` turns an action into its move, and a
move's ``to_action`` turns it back. A move writes the action's notation too, so
that the rules, the codec and the structured form name an action one way.

>>> move = Move.from_json({"kind": "play", "main": "Grizzle", "boost": "Blip"})
>>> move, move.notation()
(Play(main='Grizzle', boost='Blip'), 'main Grizzle boost Blip')
>>> Activate(2).to_json()
{'kind': 'activate', 'target': 2}
>>> Move.from_json({"kind": "activate", "target": "p2"})
Traceback (most recent call last):
    ...
tussle.errors.ActionError: an activate move's target is a seat number or null, not 'p2'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Literal, Self, TypeAlias, TypedDict, cast

from tussle.errors import ActionError, shorten
from tussle.games.fight.cards import FAMILIES, Deck

#: A play: the Main and the Boost by card number; the Boost is -1 when one Warrior is left.
PlayAction: TypeAlias = tuple[int, int]
#: Every action the rules apply: a play, a Boost's fate (below), or a chance outcome's number.
FightAction: TypeAlias = PlayAction | int

# A Boost's fate: a seat number is "activate, choosing that opponent".
SCORE = -1
ACTIVATE = -2


class PlayJSON(TypedDict):
    kind: Literal["play"]
    main: str
    boost: str | None


class ActivateJSON(TypedDict):
    kind: Literal["activate"]
    target: int | None


class ScoreJSON(TypedDict):
    kind: Literal["score"]


class DrawJSON(TypedDict):
    kind: Literal["draw"]
    warrior: str


class TopJSON(TypedDict):
    kind: Literal["top"]
    family: str


class ArenaJSON(TypedDict):
    kind: Literal["arena"]
    arena: str


MoveJSON: TypeAlias = PlayJSON | ActivateJSON | ScoreJSON | DrawJSON | TopJSON | ArenaJSON


@dataclass(frozen=True, slots=True)
class Move:
    """A Fight! action or chance outcome in its structured form (one subclass a kind)."""

    kind: ClassVar[str] = ""
    #: The keys of the JSON form besides ``kind``, every one required.
    keys: ClassVar[frozenset[str]] = frozenset()

    @classmethod
    def from_json(cls, data: object) -> Self:
        """The move ``data`` writes, checked strictly: an :class:`ActionError` in one line if it is not one.

        Called on :class:`Move` it reads any kind; on a subclass, that kind only.
        """
        if not isinstance(data, dict):
            raise ActionError(f"{shorten(data)} is not a Fight! move (an object with a kind)")
        kind = data.get("kind")
        sub = _KINDS.get(kind) if isinstance(kind, str) else None
        if sub is None:
            raise ActionError(f"{shorten(kind)} is not a kind of Fight! move (kinds: {', '.join(_KINDS)})")
        if not issubclass(sub, cls):
            raise ActionError(f"{a_move(sub.kind)} is not {a_move(cls.kind)}")
        given = set(data) - {"kind"}
        if given != sub.keys:
            extra = sorted(map(str, given - sub.keys))
            why = (
                f"has no key {shorten(extra[0])}"
                if extra
                else f"lacks the key {sorted(sub.keys - given)[0]!r}"
            )
            keys = ", ".join(["kind", *sorted(sub.keys)])
            raise ActionError(f"{a_move(sub.kind)} {why} (its keys: {keys})")
        return cast(Self, sub._read(data))

    @classmethod
    def _read(cls, data: dict[object, object]) -> Move:
        """The move of a JSON form whose kind and keys are checked: its values are checked here."""
        raise NotImplementedError

    def to_json(self) -> MoveJSON:
        """The JSON form: plain data that :meth:`from_json` reads back."""
        raise NotImplementedError

    def notation(self) -> str:
        """The action's canonical notation, as records and people write it."""
        raise NotImplementedError


@dataclass(frozen=True, slots=True)
class Play(Move):
    """A Main Warrior face up and a Boost face down, by name; no Boost with one Warrior left."""

    kind: ClassVar[str] = "play"
    keys: ClassVar[frozenset[str]] = frozenset({"main", "boost"})

    main: str
    boost: str | None

    @classmethod
    def _read(cls, data: dict[object, object]) -> Play:
        main, boost = data["main"], data["boost"]
        if not isinstance(main, str):
            raise ActionError(f"a play's main is a Warrior's name, not {shorten(main)}")
        if boost is not None and not isinstance(boost, str):
            raise ActionError(f"a play's boost is a Warrior's name or null, not {shorten(boost)}")
        return cls(main, boost)

    @classmethod
    def of(cls, deck: Deck, action: PlayAction) -> Play:
        warriors = deck.warriors
        main, boost = action
        return cls(warriors[main].name, warriors[boost].name if boost >= 0 else None)

    def to_action(self, deck: Deck) -> PlayAction:
        boost = -1 if self.boost is None else warrior_number(deck, self.boost)
        return (warrior_number(deck, self.main), boost)

    def to_json(self) -> PlayJSON:
        return {"kind": "play", "main": self.main, "boost": self.boost}

    def notation(self) -> str:
        return f"main {self.main}" if self.boost is None else f"main {self.main} boost {self.boost}"


@dataclass(frozen=True, slots=True)
class Activate(Move):
    """The Boost's ability is used, on the opponent ``target`` where it chooses one (else None)."""

    kind: ClassVar[str] = "activate"
    keys: ClassVar[frozenset[str]] = frozenset({"target"})

    target: int | None

    @classmethod
    def _read(cls, data: dict[object, object]) -> Activate:
        target = data["target"]
        if target is not None and (type(target) is not int or target < 0):
            raise ActionError(f"an activate move's target is a seat number or null, not {shorten(target)}")
        return cls(target)

    def to_action(self, players: int) -> int:
        target = self.target
        if target is None:
            return ACTIVATE
        if target >= players:
            raise ActionError(f"an activate move's target is a seat: there is no p{target} of {players}")
        return target

    def to_json(self) -> ActivateJSON:
        return {"kind": "activate", "target": self.target}

    def notation(self) -> str:
        return "activate" if self.target is None else f"activate p{self.target}"


@dataclass(frozen=True, slots=True)
class Score(Move):
    """The Boost stays face down and is scored for one Glory."""

    kind: ClassVar[str] = "score"

    @classmethod
    def _read(cls, data: dict[object, object]) -> Score:
        return cls()

    def to_json(self) -> ScoreJSON:
        return {"kind": "score"}

    def notation(self) -> str:
        return "score"


@dataclass(frozen=True, slots=True)
class Draw(Move):
    """Chance: the Warrior drawn from the Reserves (into a hand, the Graveyard or for an ability)."""

    kind: ClassVar[str] = "draw"
    keys: ClassVar[frozenset[str]] = frozenset({"warrior"})

    warrior: str

    @classmethod
    def _read(cls, data: dict[object, object]) -> Draw:
        warrior = data["warrior"]
        if not isinstance(warrior, str):
            raise ActionError(f"a draw's warrior is a Warrior's name, not {shorten(warrior)}")
        return cls(warrior)

    def to_action(self, deck: Deck) -> int:
        return warrior_number(deck, self.warrior)

    def to_json(self) -> DrawJSON:
        return {"kind": "draw", "warrior": self.warrior}

    def notation(self) -> str:
        return f"draw {self.warrior}"


@dataclass(frozen=True, slots=True)
class Top(Move):
    """Chance: the family on the back of the Reserves' top card."""

    kind: ClassVar[str] = "top"
    keys: ClassVar[frozenset[str]] = frozenset({"family"})

    family: str

    @classmethod
    def _read(cls, data: dict[object, object]) -> Top:
        family = data["family"]
        if family not in FAMILIES:
            raise ActionError(f"a top's family is one of {', '.join(FAMILIES)}, not {shorten(family)}")
        return cls(family)

    def to_action(self) -> int:
        return FAMILIES.index(self.family)

    def to_json(self) -> TopJSON:
        return {"kind": "top", "family": self.family}

    def notation(self) -> str:
        return f"top {self.family}"


@dataclass(frozen=True, slots=True)
class NextArena(Move):
    """Chance: the Arena revealed next."""

    kind: ClassVar[str] = "arena"
    keys: ClassVar[frozenset[str]] = frozenset({"arena"})

    arena: str

    @classmethod
    def _read(cls, data: dict[object, object]) -> NextArena:
        arena = data["arena"]
        if not isinstance(arena, str):
            raise ActionError(f"an arena move's arena is an Arena's name, not {shorten(arena)}")
        return cls(arena)

    def to_action(self, deck: Deck) -> int:
        number = deck.arena_ids.get(self.arena.lower())
        if number is None or deck.arenas[number].name != self.arena:
            spelled = _spelled(None if number is None else deck.arenas[number].name)
            raise ActionError(f"no Arena is called {shorten(self.arena)}{spelled}")
        return number

    def to_json(self) -> ArenaJSON:
        return {"kind": "arena", "arena": self.arena}

    def notation(self) -> str:
        return f"arena {self.arena}"


_KINDS: dict[str, type[Move]] = {sub.kind: sub for sub in (Play, Activate, Score, Draw, Top, NextArena)}


def a_move(kind: str) -> str:
    """A move of ``kind`` in a message: "a play move", "an activate move"."""
    return f"{'an' if kind[:1] in 'aeiou' else 'a'} {kind} move"


def warrior_number(deck: Deck, name: str) -> int:
    """The card number of the Warrior ``name``, spelled as the deck spells it (ActionError if none)."""
    number = deck.warrior_ids.get(name.lower())
    if number is None or deck.warriors[number].name != name:
        spelled = _spelled(None if number is None else deck.warriors[number].name)
        raise ActionError(f"no Warrior is called {shorten(name)}{spelled}")
    return number


def _spelled(name: str | None) -> str:
    """A hint where only the case differs from a card's name: a structured form spells names exactly."""
    return f" (the deck writes {name!r})" if name is not None else ""
