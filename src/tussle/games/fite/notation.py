"""FITE notation: the names of locations, pools and powers, and every action as text.

Actions are small tuples tagged by the step they belong to, so that an action
of one step is never mistaken for an action of another:

* placement: ``("place", face)``, written ``off 1``, ``off 2``, ``def 3``,
  ``def 4``, ``tac 5``, ``tac 6`` (the location the face stands for, then the
  face);
* Swift: ``("swift", location)`` with location -1 for staying put, written
  ``stay`` or ``swift def``;
* the split: ``("split", offensive, defensive, power)``, written ``5/4`` or
  ``5/4 +brutal`` when the super power is declared;
* the tactical options: ``("tactic", source, moved, turned)``, written
  ``pass``, ``move off>def 6,5``, ``turn off 6 def 1`` or, with both options,
  ``move off>def 6 and turn def 1,1``; each turned die is ``(pool, face)``,
  pool 0 or 1 the fighter's own offensive or defensive pool and, under the
  option ``turn_dice=any``, 2 or 3 the opponent's, written with the
  opponent's letter: ``turn B def 6`` (fighter A turns a 6 of B's defence);
* a roll (a chance outcome): the faces of one pool, highest first, written
  with the fighter and the pool: ``A off 6,5,4,2,2``.

Parsers are lenient (any case, commas or spaces, long names such as
``offensive``, faces in any order); formatters give the one canonical text.

Each action has one structured form too (:class:`Move` and its kinds below),
for the clients that draw actions and the server that sends them: plain data
with a ``kind``, its locations and pools by their short names, dice by their
faces and fighters by their letters.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import ClassVar, Literal, NotRequired, Self, TypeAlias, TypedDict, cast

from tussle.errors import ActionError, shorten

FIGHTERS = ("A", "B")
OFF, DEF, TAC = 0, 1, 2
#: Short names of the locations (and of the two pools, which share the first two).
LOCATIONS = ("off", "def", "tac")
LOCATION_LONG = ("offensive", "defensive", "tactical")
#: The location each placement face stands for (index 0 is unused).
FACE_LOCATION = (-1, OFF, OFF, DEF, DEF, TAC, TAC)
POOLS = ("off", "def")
POOL_LONG = ("offensive", "defensive")
#: The super powers, as the game options spell them.
POWERS = ("aggressive", "brutal", "cunning", "fast", "swift", "tough")
STAY = -1
#: The pools of a turned die (``turn_dice=any``): the opponent's offensive and defensive pools.
THEIR_OFF, THEIR_DEF = 2, 3
#: Words that name the opponent's dice in a turn without its letter (``turn their def 6``).
THEIR_WORDS = ("their", "opp")

PlaceAction: TypeAlias = tuple[str, int]
SwiftAction: TypeAlias = tuple[str, int]
SplitAction: TypeAlias = tuple[str, int, int, bool]
Turned: TypeAlias = tuple[tuple[int, int], ...]
TacticAction: TypeAlias = tuple[str, int, tuple[int, ...], Turned]
Roll: TypeAlias = tuple[int, ...]
#: A fighter's action in any step.
PlayerAction: TypeAlias = PlaceAction | SwiftAction | SplitAction | TacticAction
#: Everything the rules apply: a fighter's action, or a roll (a chance outcome).
FiteAction: TypeAlias = PlayerAction | Roll

PASS: TacticAction = ("tactic", -1, (), ())

_LOCATION_WORDS = {
    "off": OFF,
    "offense": OFF,
    "offence": OFF,
    "offensive": OFF,
    "o": OFF,
    "def": DEF,
    "defense": DEF,
    "defence": DEF,
    "defensive": DEF,
    "d": DEF,
    "tac": TAC,
    "tactic": TAC,
    "tactics": TAC,
    "tactical": TAC,
    "t": TAC,
}
_POOL_WORDS = {word: loc for word, loc in _LOCATION_WORDS.items() if loc != TAC}
_TOKEN = re.compile(r"\d+|[a-z]+|[>+/]")
#: A super power's name, as the split's ``+name`` writes it (the powers documents' names are such words).
POWER_WORD = re.compile(r"[a-z]{1,20}")


def _tokens(text: str) -> list[str]:
    """Lower-case words, numbers and the symbols ``> + /``; commas, semicolons and spaces separate."""
    cleaned = text.lower().replace("->", ">")
    leftover = _TOKEN.sub(" ", cleaned)
    junk = leftover.replace(",", " ").replace(";", " ").split()
    if junk:
        raise ActionError(f"{text!r}: unexpected {junk[0]!r}")
    return _TOKEN.findall(cleaned)


def _face(text: str, token: str) -> int:
    value = int(token)
    if not 1 <= value <= 6:
        raise ActionError(f"{text!r}: {value} is not a die face (1-6)")
    return value


def faces_text(faces: tuple[int, ...] | list[int]) -> str:
    """Faces written highest first, comma-separated.

    >>> faces_text((2, 6, 5))
    '6,5,2'
    """
    return ",".join(str(f) for f in sorted(faces, reverse=True))


# --- placement --------------------------------------------------------------


def format_place(action: PlaceAction) -> str:
    """``('place', 5)`` is ``tac 5``.

    >>> format_place(("place", 3))
    'def 3'
    """
    face = action[1]
    return f"{LOCATIONS[FACE_LOCATION[face]]} {face}"


def parse_place(text: str) -> PlaceAction:
    """A face 1-6, optionally with its location or the word ``place``.

    A location alone means its lower face.

    >>> parse_place("place 5"), parse_place("Tactical 6"), parse_place("def")
    (('place', 5), ('place', 6), ('place', 3))
    """
    tokens = [t for t in _tokens(text) if t != "place"]
    faces = [t for t in tokens if t.isdigit()]
    words = [t for t in tokens if not t.isdigit()]
    if len(faces) > 1 or len(words) > 1 or not tokens:
        raise ActionError(f"{text!r}: place a die with one face 1-6, e.g. 'tac 5' or '2'")
    location = None
    if words:
        location = _LOCATION_WORDS.get(words[0])
        if location is None:
            raise ActionError(f"{text!r}: {words[0]!r} is not a location (off, def, tac)")
    if not faces:
        assert location is not None
        return ("place", 1 + 2 * location)
    face = _face(text, faces[0])
    if location is not None and FACE_LOCATION[face] != location:
        raise ActionError(
            f"{text!r}: face {face} is the {LOCATION_LONG[FACE_LOCATION[face]]} location, "
            f"not the {LOCATION_LONG[location]} one"
        )
    return ("place", face)


# --- Swift ------------------------------------------------------------------


def format_swift(action: SwiftAction) -> str:
    """``stay``, or ``swift`` and the new location.

    >>> format_swift(("swift", -1)), format_swift(("swift", 2))
    ('stay', 'swift tac')
    """
    return "stay" if action[1] == STAY else f"swift {LOCATIONS[action[1]]}"


def parse_swift(text: str) -> SwiftAction:
    """``stay`` (or ``pass``, ``no``), or a location with or without ``swift``.

    >>> parse_swift("swift Defensive"), parse_swift("pass")
    (('swift', 1), ('swift', -1))
    """
    tokens = [t for t in _tokens(text) if t not in ("swift", "to", "move")]
    if tokens in (["stay"], ["pass"], ["no"], ["none"]):
        return ("swift", STAY)
    if len(tokens) == 1:
        location = _LOCATION_WORDS.get(tokens[0])
        if location is None and tokens[0].isdigit():
            location = FACE_LOCATION[_face(text, tokens[0])]
        if location is not None:
            return ("swift", location)
    raise ActionError(f"{text!r}: write 'stay' or 'swift' and a location (off, def, tac)")


# --- the split --------------------------------------------------------------


def format_split(action: SplitAction, power: str | None) -> str:
    """Offensive/defensive dice, and ``+power`` when the super power is declared.

    >>> format_split(("split", 5, 4, False), None), format_split(("split", 3, 6, True), "tough")
    ('5/4', '3/6 +tough')
    """
    text = f"{action[1]}/{action[2]}"
    return f"{text} +{power}" if action[3] else text


def declare_problem(named: str | None, power: str | None) -> str:
    """Why a fighter whose super power is ``power`` cannot declare ``named`` with its split ('' if it can).

    ``named`` is None where the power is not named (``+power``).

    >>> declare_problem("brutal", "tough"), declare_problem(None, "tough")
    ("this fighter's super power is tough, not brutal", '')
    """
    if power is None:
        return "this fighter has no super power"
    if named is not None and named != power:
        return f"this fighter's super power is {power}, not {named}"
    if power == "swift":
        return "Swift is used at the end of the placement, not with the split"
    return ""


def parse_split(text: str, power: str | None) -> SplitAction:
    """``OFF/DEF`` with an optional ``+power`` (or ``+`` and the power's name).

    ``power`` is the fighter's own super power (None without one).

    >>> parse_split("5 / 4", None), parse_split("2/7 + brutal", "brutal"), parse_split("4/5+power", "fast")
    (('split', 5, 4, False), ('split', 2, 7, True), ('split', 4, 5, True))
    """
    tokens = _tokens(text)
    declare = False
    if "+" in tokens:
        at = tokens.index("+")
        named = tokens[at + 1 :]
        tokens = tokens[:at]
        if len(named) != 1:
            raise ActionError(f"{text!r}: write the super power as '+power' or '+{power or 'name'}'")
        word = named[0]
        # The fighter's own power by its name, whatever a powers document calls it.
        if word not in ("power", "super", *POWERS) and word != power:
            raise ActionError(f"{text!r}: {word!r} is not a super power ({', '.join(POWERS)})")
        why = declare_problem(None if word in ("power", "super") else word, power)
        if why:
            raise ActionError(f"{text!r}: {why}")
        declare = True
    if tokens[1:2] == ["/"]:
        tokens = [tokens[0], *tokens[2:]]
    if len(tokens) != 2 or not all(t.isdigit() for t in tokens):
        raise ActionError(f"{text!r}: write the split as OFF/DEF, e.g. '5/4' or '5/4 +power'")
    return ("split", int(tokens[0]), int(tokens[1]), declare)


# --- the tactical options ---------------------------------------------------


def format_tactic(action: TacticAction, player: int | None = None, opponent: str | None = None) -> str:
    """The canonical text of ``player``'s tactical choice.

    The opponent's dice (``turn_dice=any``) are written after the fighter's
    own, each group with the opponent's letter; ``player`` (0 for A, 1 for B)
    tells which letter that is and may be left out when no opponent's die is
    turned, or when ``opponent`` gives another word for it (``their``, which
    reads for either fighter).

    >>> format_tactic(("tactic", 0, (6, 5), ()))
    'move off>def 6,5'
    >>> format_tactic(("tactic", -1, (), ((0, 6), (1, 1))))
    'turn off 6 def 1'
    >>> format_tactic(("tactic", 1, (2,), ((1, 1), (1, 1))))
    'move def>off 2 and turn def 1,1'
    >>> format_tactic(("tactic", -1, (), ((1, 1), (3, 6))), player=0)
    'turn def 1 B def 6'
    >>> format_tactic(("tactic", -1, (), ((3, 6),)), opponent="their")
    'turn their def 6'
    >>> format_tactic(("tactic", -1, (), ()))
    'pass'
    """
    _, source, moved, turned = action
    parts = []
    if source >= 0:
        parts.append(f"move {POOLS[source]}>{POOLS[1 - source]} {faces_text(moved)}")
    if turned:
        groups = []
        for pool in (OFF, DEF, THEIR_OFF, THEIR_DEF):
            faces = [v for p, v in turned if p == pool]
            if not faces:
                continue
            if pool >= THEIR_OFF:
                if opponent is None:
                    if player not in (0, 1):
                        raise ValueError("the turn names the opponent's dice: say whose choice it is")
                    assert player is not None
                    opponent = FIGHTERS[1 - player]
                groups.append(f"{opponent} {POOLS[pool - THEIR_OFF]} {faces_text(faces)}")
            else:
                groups.append(f"{POOLS[pool]} {faces_text(faces)}")
        parts.append("turn " + " ".join(groups))
    return " and ".join(parts) or "pass"


def tactic(
    source: int, moved: tuple[int, ...] | list[int], turned: Turned | list[tuple[int, int]]
) -> TacticAction:
    """A tactical action with its parts in canonical order.

    >>> tactic(0, [5, 6], [(1, 1), (0, 2)])
    ('tactic', 0, (6, 5), ((0, 2), (1, 1)))
    """
    return (
        "tactic",
        source,
        tuple(sorted(moved, reverse=True)),
        tuple(sorted(turned, key=lambda t: (t[0], -t[1]))),
    )


def parse_tactic(text: str, player: int | None = None) -> TacticAction:
    """``pass``, ``move POOL[>POOL] FACES``, ``turn [WHOSE] POOL FACES [...]``, or a move and a turn.

    A pool in a turn is the fighter's own unless a fighter's letter (or
    ``their``, ``opp``) comes before it; ``player`` (0 for A, 1 for B) is the
    fighter choosing, needed to read a letter. Whether the opponent's dice may
    be turned at all (the option ``turn_dice``) is for the rules to say.

    >>> parse_tactic("Move offensive -> defensive 5, 6")
    ('tactic', 0, (6, 5), ())
    >>> parse_tactic("turn def 1 off 6 + move def 2")
    ('tactic', 1, (2,), ((0, 6), (1, 1)))
    >>> parse_tactic("turn b def 6 off 1", player=0), parse_tactic("turn their off 2")
    (('tactic', -1, (), ((0, 1), (3, 6))), ('tactic', -1, (), ((2, 2),)))
    """
    tokens = _tokens(text)
    if tokens in (["pass"], ["none"], ["no"]):
        return PASS
    source = -1
    moved: list[int] = []
    turned: list[tuple[int, int]] = []
    seen: set[str] = set()
    i = 0
    while i < len(tokens):
        word = tokens[i]
        if word in ("and", "+") and seen:
            i += 1
            continue
        if word not in ("move", "turn"):
            raise ActionError(f"{text!r}: expected 'move', 'turn' or 'pass', not {word!r}")
        if word in seen:
            raise ActionError(f"{text!r}: {word!r} given twice")
        seen.add(word)
        i += 1
        if word == "move":
            pool = _POOL_WORDS.get(tokens[i]) if i < len(tokens) else None
            if pool is None:
                raise ActionError(f"{text!r}: 'move' needs the pool the dice leave (off or def)")
            i += 1
            if i < len(tokens) and tokens[i] in (">", "to"):
                i += 1
                target = _POOL_WORDS.get(tokens[i]) if i < len(tokens) else None
                if target is None:
                    raise ActionError(f"{text!r}: '>' needs the pool the dice go to (off or def)")
                if target == pool:
                    raise ActionError(f"{text!r}: dice move from one pool to the other")
                i += 1
            while i < len(tokens) and tokens[i].isdigit():
                moved.append(_face(text, tokens[i]))
                i += 1
            if not 1 <= len(moved) <= 2:
                raise ActionError(f"{text!r}: move 1 or 2 dice, named by their faces")
            source = pool
        else:
            start = len(turned)
            while i < len(tokens):
                offset = 0
                if tokens[i] in _OWNER_WORDS:
                    offset = _owner_offset(text, tokens[i], player)
                    i += 1
                    if i == len(tokens) or tokens[i] not in _POOL_WORDS:
                        raise ActionError(f"{text!r}: name the pool (off or def) of the dice to turn")
                elif tokens[i] not in _POOL_WORDS:
                    break
                pool = _POOL_WORDS[tokens[i]] + offset
                i += 1
                count = 0
                while i < len(tokens) and tokens[i].isdigit():
                    turned.append((pool, _face(text, tokens[i])))
                    i += 1
                    count += 1
                if not count:
                    raise ActionError(
                        f"{text!r}: name the faces of the dice to turn in the {POOLS[pool % 2]} pool"
                    )
            if not 1 <= len(turned) - start <= 2:
                raise ActionError(f"{text!r}: turn 1 or 2 dice, e.g. 'turn off 1,2' or 'turn off 1 def 2'")
    return tactic(source, moved, turned)


_OWNER_WORDS = frozenset(("a", "b", *THEIR_WORDS))


def _owner_offset(text: str, word: str, player: int | None) -> int:
    """0 when ``word`` names the choosing fighter's own dice, 2 (own pool + 2) for the opponent's."""
    if word in THEIR_WORDS:
        return THEIR_OFF
    if player not in (0, 1):
        raise ActionError(f"{text!r}: write 'their' for the opponent's dice")
    return 0 if word == FIGHTERS[player].lower() else THEIR_OFF


# --- rolls ------------------------------------------------------------------


def format_roll(fighter: int, pool: int, faces: Roll) -> str:
    """``A off 6,5,4,2,2``: who rolled, which pool, the faces highest first.

    >>> format_roll(1, 1, (6, 6, 3, 2, 1, 1))
    'B def 6,6,3,2,1,1'
    """
    return f"{FIGHTERS[fighter]} {POOLS[pool]} {faces_text(faces)}"


def parse_roll(text: str, fighter: int, pool: int, size: int) -> Roll:
    """The faces of the pool now rolled; the fighter and pool may be left out but must match if given.

    >>> parse_roll("a OFF 2 2 4 5 6", 0, 0, 5)
    (6, 5, 4, 2, 2)
    >>> parse_roll("A off 7,5,4,2,2", 0, 0, 5)
    Traceback (most recent call last):
    tussle.errors.ActionError: 'A off 7,5,4,2,2': 7 is not a die face (1-6)
    """
    tokens = _tokens(text)
    expected = f"{FIGHTERS[fighter]} {POOLS[pool]}"
    words = [t for t in tokens if not t.isdigit()]
    if words:
        if len(words) > 2 or (len(words) == 2 and words[0] not in ("a", "b")):
            raise ActionError(f"{text!r}: write a roll as '{expected} FACES'")
        if len(words) == 2 and words[0] != FIGHTERS[fighter].lower():
            raise ActionError(
                f"{text!r}: the roll now is fighter {FIGHTERS[fighter]}'s ({expected} ...), "
                f"not {words[0].upper()}'s"
            )
        if _POOL_WORDS.get(words[-1]) != pool:
            raise ActionError(f"{text!r}: the roll now is the {POOL_LONG[pool]} pool ({expected} ...)")
        if tokens[: len(words)] != words:
            raise ActionError(f"{text!r}: write a roll as '{expected} FACES'")
    faces = [_face(text, t) for t in tokens if t.isdigit()]
    if len(faces) != size:
        raise ActionError(
            f"{text!r}: {FIGHTERS[fighter]}'s {POOL_LONG[pool]} pool has {size} "
            f"{'die' if size == 1 else 'dice'}, not {len(faces)}"
        )
    return tuple(sorted(faces, reverse=True))


# --- structured forms ---------------------------------------------------------------

#: A pool holds at least 1 die and at most this many (a standing rule of the pools).
MAX_POOL = 8


class PlacementJSON(TypedDict):
    kind: Literal["place"]
    location: str
    face: int


class StayJSON(TypedDict):
    kind: Literal["stay"]


class SwiftJSON(TypedDict):
    kind: Literal["swift"]
    to: str


# ``def`` and ``from`` are keywords: these forms are spelled out in the functional syntax.
SplitJSON = TypedDict("SplitJSON", {"kind": Literal["split"], "off": int, "def": int, "power": str | None})


class DieJSON(TypedDict):
    """A die to turn over: whose (``A`` or ``B``), in which pool, showing which face."""

    fighter: str
    pool: str
    face: int


TacticKind: TypeAlias = Literal["pass", "move", "turn", "move and turn"]
TacticJSON = TypedDict(
    "TacticJSON",
    {
        "kind": TacticKind,
        "from": NotRequired[str],
        "to": NotRequired[str],
        "dice": NotRequired[list[int]],
        "turn": NotRequired[list[DieJSON]],
    },
)


class RollJSON(TypedDict):
    kind: Literal["roll"]
    fighter: str
    pool: str
    faces: list[int]


#: Any action or roll as plain data: one shape per kind.
MoveJSON: TypeAlias = PlacementJSON | StayJSON | SwiftJSON | SplitJSON | TacticJSON | RollJSON


def _whole(kind: str, key: str, value: object, low: int, high: int) -> int:
    # bool is an int to Python, never to a client: true is no number of dice.
    if type(value) is not int or not low <= value <= high:
        raise ActionError(
            f"a {kind!r} action's {key!r} is a whole number {low} to {high}, not {shorten(value)}"
        )
    return value


def _named(kind: str, key: str, value: object, names: tuple[str, ...]) -> int:
    if type(value) is not str or value not in names:
        raise ActionError(f"a {kind!r} action's {key!r} is one of {', '.join(names)}, not {shorten(value)}")
    return names.index(value)


def _faces_of(kind: str, key: str, value: object, most: int) -> Roll:
    if (
        type(value) is not list
        or not 1 <= len(value) <= most
        or any(type(face) is not int or not 1 <= face <= 6 for face in value)
    ):
        raise ActionError(
            f"a {kind!r} action's {key!r} is a list of 1 to {most} die faces (1-6), not {shorten(value)}"
        )
    return tuple(sorted(value, reverse=True))


@dataclass(frozen=True, slots=True)
class Move:
    """A FITE action or roll in its structured form: one subclass per step, each with its kinds.

    The rules keep their own fast values (tuples, see the top of this module);
    ``of`` makes a move from one and ``to_action`` gives it back.

    >>> move = Move.from_json({"kind": "move", "from": "off", "to": "def", "dice": [5, 6]})
    >>> move, move.to_action(0)
    (Tactic(source=0, moved=(6, 5), turned=()), ('tactic', 0, (6, 5), ()))
    >>> Split.from_json({"kind": "place", "location": "tac", "face": 5})
    Traceback (most recent call last):
    tussle.errors.ActionError: 'place' is not a kind of split (kinds: split)
    """

    #: What the class's moves are, for messages.
    what: ClassVar[str] = "FITE action"
    #: Each kind of the class, with the keys its JSON form has besides ``kind`` (every one required).
    kinds: ClassVar[dict[str, frozenset[str]]] = {}

    @classmethod
    def from_json(cls, data: object) -> Self:
        """The move that ``data`` writes, checked strictly (an :class:`ActionError` in one line if none).

        On :class:`Move` it reads any kind; on a subclass, that class's kinds only.
        """
        if type(data) is not dict or not all(type(key) is str for key in data):
            raise ActionError(f"{shorten(data)} is not a {cls.what} (an object with a kind)")
        kind = data.get("kind")
        sub = _KINDS.get(kind) if isinstance(kind, str) else None
        if not isinstance(kind, str) or sub is None or not issubclass(sub, cls):
            known = ", ".join(k for k, c in _KINDS.items() if issubclass(c, cls))
            raise ActionError(f"{shorten(kind)} is not a kind of {cls.what} (kinds: {known})")
        keys = sub.kinds[kind]
        given = data.keys() - {"kind"}
        if given != keys:
            extra = sorted(given - keys)
            why = f"has no key {shorten(extra[0])}" if extra else f"needs the key {sorted(keys - given)[0]!r}"
            raise ActionError(f"a {kind!r} action {why} (its keys: {', '.join(['kind', *sorted(keys)])})")
        return cast(Self, sub._read(kind, data))

    @classmethod
    def _read(cls, kind: str, data: dict[str, object]) -> Move:
        """The move of a JSON form whose kind and keys are checked; its values are checked here."""
        raise NotImplementedError

    def to_json(self) -> MoveJSON:
        """The JSON form: plain data that :meth:`from_json` reads back."""
        raise NotImplementedError


@dataclass(frozen=True, slots=True)
class Placement(Move):
    """Where a fighter stands: the die face it places (1-2 offensive, 3-4 defensive, 5-6 tactical).

    >>> Placement(5).to_json()
    {'kind': 'place', 'location': 'tac', 'face': 5}
    """

    what: ClassVar[str] = "placement"
    kinds: ClassVar[dict[str, frozenset[str]]] = {"place": frozenset({"location", "face"})}

    face: int

    @property
    def location(self) -> int:
        return FACE_LOCATION[self.face]

    @classmethod
    def _read(cls, kind: str, data: dict[str, object]) -> Placement:
        face = _whole(kind, "face", data["face"], 1, 6)
        location = _named(kind, "location", data["location"], LOCATIONS)
        if FACE_LOCATION[face] != location:
            raise ActionError(
                f"a 'place' action's face {face} is the {LOCATIONS[FACE_LOCATION[face]]} location, "
                f"not {LOCATIONS[location]}"
            )
        return cls(face)

    def to_json(self) -> PlacementJSON:
        return {"kind": "place", "location": LOCATIONS[self.location], "face": self.face}

    def to_action(self) -> PlaceAction:
        return ("place", self.face)

    @classmethod
    def of(cls, action: PlaceAction) -> Placement:
        return cls(action[1])


@dataclass(frozen=True, slots=True)
class SwiftMove(Move):
    """Swift's choice after the placements: stay (keeping the power), or move to another location.

    >>> SwiftMove(STAY).to_json(), SwiftMove(TAC).to_json()
    ({'kind': 'stay'}, {'kind': 'swift', 'to': 'tac'})
    """

    what: ClassVar[str] = "Swift choice"
    kinds: ClassVar[dict[str, frozenset[str]]] = {"stay": frozenset(), "swift": frozenset({"to"})}

    #: The location moved to, or :data:`STAY`.
    to: int

    @classmethod
    def _read(cls, kind: str, data: dict[str, object]) -> SwiftMove:
        return cls(STAY if kind == "stay" else _named(kind, "to", data["to"], LOCATIONS))

    def to_json(self) -> StayJSON | SwiftJSON:
        if self.to == STAY:
            return {"kind": "stay"}
        return {"kind": "swift", "to": LOCATIONS[self.to]}

    def to_action(self) -> SwiftAction:
        return ("swift", self.to)

    @classmethod
    def of(cls, action: SwiftAction) -> SwiftMove:
        return cls(action[1])


@dataclass(frozen=True, slots=True)
class Split(Move):
    """A fighter's dice split into its offensive and defensive pools, with the super power declared (or None).

    >>> Split(5, 4, "brutal").to_json()
    {'kind': 'split', 'off': 5, 'def': 4, 'power': 'brutal'}
    >>> Split(5, 4, "brutal").to_action("tough")
    Traceback (most recent call last):
    tussle.errors.ActionError: a split declaring brutal: this fighter's super power is tough, not brutal
    """

    what: ClassVar[str] = "split"
    kinds: ClassVar[dict[str, frozenset[str]]] = {"split": frozenset({"off", "def", "power"})}

    off: int
    defence: int
    power: str | None

    @classmethod
    def _read(cls, kind: str, data: dict[str, object]) -> Split:
        off = _whole(kind, "off", data["off"], 1, MAX_POOL)
        defence = _whole(kind, "def", data["def"], 1, MAX_POOL)
        raw = data["power"]
        power: str | None = None
        # A power a powers document names is a word; to_action checks it is the fighter's own.
        if type(raw) is str and POWER_WORD.fullmatch(raw):
            power = raw
        elif raw is not None:
            power = POWERS[_named(kind, "power", raw, POWERS)]
        return cls(off, defence, power)

    def to_json(self) -> SplitJSON:
        return {"kind": "split", "off": self.off, "def": self.defence, "power": self.power}

    def to_action(self, power: str | None) -> SplitAction:
        """The rules' value for a fighter with super power ``power`` (ActionError if it may not use it)."""
        if self.power is not None:
            why = declare_problem(self.power, power)
            if why:
                raise ActionError(f"a split declaring {self.power}: {why}")
        return ("split", self.off, self.defence, self.power is not None)

    @classmethod
    def of(cls, action: SplitAction, power: str | None) -> Split:
        """The split ``action`` of a fighter whose super power is ``power``."""
        return cls(action[1], action[2], power if action[3] else None)


@dataclass(frozen=True, slots=True)
class Die:
    """A die that a tactical choice turns over: its fighter (0 for A, 1 for B), its pool and its face."""

    fighter: int
    pool: int
    face: int

    @classmethod
    def from_json(cls, data: object, kind: str) -> Die:
        if type(data) is not dict or data.keys() != {"fighter", "pool", "face"}:
            raise ActionError(
                f"a {kind!r} action turns dice written like "
                f"{{'fighter': 'A', 'pool': 'off', 'face': 6}}, not {shorten(data)}"
            )
        return cls(
            _named(kind, "fighter", data["fighter"], FIGHTERS),
            _named(kind, "pool", data["pool"], POOLS),
            _whole(kind, "face", data["face"], 1, 6),
        )

    def to_json(self) -> DieJSON:
        return {"fighter": FIGHTERS[self.fighter], "pool": POOLS[self.pool], "face": self.face}


@dataclass(frozen=True, slots=True)
class Tactic(Move):
    """A tactical choice: pass, move 1 or 2 dice to the other pool, turn 1 or 2 dice over, or (Cunning at the
    tactical location) a move and then a turn.

    >>> Tactic.of(("tactic", 1, (2,), ((1, 1), (3, 6))), 0).to_json()["turn"]
    [{'fighter': 'A', 'pool': 'def', 'face': 1}, {'fighter': 'B', 'pool': 'def', 'face': 6}]
    """

    what: ClassVar[str] = "tactical choice"
    kinds: ClassVar[dict[str, frozenset[str]]] = {
        "pass": frozenset(),
        "move": frozenset({"from", "to", "dice"}),
        "turn": frozenset({"turn"}),
        "move and turn": frozenset({"from", "to", "dice", "turn"}),
    }

    #: The pool the moved dice leave (-1: no move), and their faces, highest first.
    source: int
    moved: tuple[int, ...]
    turned: tuple[Die, ...]

    @property
    def kind(self) -> TacticKind:
        if self.source < 0:
            return "turn" if self.turned else "pass"
        return "move and turn" if self.turned else "move"

    @classmethod
    def _read(cls, kind: str, data: dict[str, object]) -> Tactic:
        source = -1
        moved: tuple[int, ...] = ()
        if "from" in data:
            source = _named(kind, "from", data["from"], POOLS)
            if _named(kind, "to", data["to"], POOLS) == source:
                raise ActionError(f"a {kind!r} action moves dice from one pool to the other, not to the same")
            moved = _faces_of(kind, "dice", data["dice"], 2)
        turned: tuple[Die, ...] = ()
        if "turn" in data:
            dice = data["turn"]
            if type(dice) is not list or not 1 <= len(dice) <= 2:
                raise ActionError(f"a {kind!r} action's 'turn' is a list of 1 or 2 dice, not {shorten(dice)}")
            turned = tuple(Die.from_json(die, kind) for die in dice)
        return cls(source, moved, turned)

    def to_json(self) -> TacticJSON:
        out: TacticJSON = {"kind": self.kind}
        if self.source >= 0:
            out["from"] = POOLS[self.source]
            out["to"] = POOLS[1 - self.source]
            out["dice"] = list(self.moved)
        if self.turned:
            out["turn"] = [die.to_json() for die in self.turned]
        return out

    def to_action(self, player: int) -> TacticAction:
        """The rules' value of fighter ``player``'s choice, in canonical order."""
        return tactic(
            self.source,
            self.moved,
            [(die.pool if die.fighter == player else die.pool + THEIR_OFF, die.face) for die in self.turned],
        )

    @classmethod
    def of(cls, action: TacticAction, player: int) -> Tactic:
        """Fighter ``player``'s tactical ``action``: its pools 0 and 1 are its own, 2 and 3 the opponent's."""
        _, source, moved, turned = action
        return cls(
            source,
            moved,
            tuple(
                Die(player, pool, face) if pool < THEIR_OFF else Die(1 - player, pool - THEIR_OFF, face)
                for pool, face in turned
            ),
        )


@dataclass(frozen=True, slots=True)
class DiceRoll(Move):
    """A chance outcome: the faces that one fighter's pool rolled, highest first.

    >>> DiceRoll.from_json({"kind": "roll", "fighter": "B", "pool": "def", "faces": [1, 6, 3]})
    DiceRoll(fighter=1, pool=1, faces=(6, 3, 1))
    """

    what: ClassVar[str] = "roll"
    kinds: ClassVar[dict[str, frozenset[str]]] = {"roll": frozenset({"fighter", "pool", "faces"})}

    fighter: int
    pool: int
    faces: Roll

    @classmethod
    def _read(cls, kind: str, data: dict[str, object]) -> DiceRoll:
        return cls(
            _named(kind, "fighter", data["fighter"], FIGHTERS),
            _named(kind, "pool", data["pool"], POOLS),
            _faces_of(kind, "faces", data["faces"], MAX_POOL),
        )

    def to_json(self) -> RollJSON:
        return {
            "kind": "roll",
            "fighter": FIGHTERS[self.fighter],
            "pool": POOLS[self.pool],
            "faces": list(self.faces),
        }


#: The class of each kind of move.
_KINDS: dict[str, type[Move]] = {
    kind: sub for sub in (Placement, SwiftMove, Split, Tactic, DiceRoll) for kind in sub.kinds
}
