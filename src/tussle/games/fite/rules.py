"""FITE: the rules.

Two fighters with nine dice each. Every turn both secretly place a die to pick
a location (1-2 offensive, 3-4 defensive, 5-6 tactical), then secretly split
the dice they have left into an offensive and a defensive pool, reveal and roll
them. Fighters at the tactical location (or using Cunning) may then move or
turn up to two of their dice (or, with the option ``turn_dice=any``, turn the
opponent's too); the location and power modifiers are added; each
defensive die cancels one opposing offensive die of at most its value, and
every offensive die left over takes a die from the opponent. A fighter with no
dice is out; one left with a single die is finished off next turn (FINISH HIM).

The steps of one turn, as :meth:`FiteState.to_act` shows them:

1. ``place``: both fighters choose a face, at once (the SETUP placement comes
   first, as its own step, unless the option ``setup_placement`` is off).
2. ``swift``: a fighter whose unused super power is Swift may move to another
   location, after seeing where the other fighter stands.
3. ``split``: both fighters split their dice and may declare their super power.
4. ``roll``: four chance events, ``A off``, ``A def``, ``B off``, ``B def``.
5. ``tactical``: the fighters entitled to the tactical options choose, at once.
6. The fight is scored; the game ends or the next turn begins.

Every ruling taken where the text is silent is in docs/games/fite.md.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from itertools import combinations_with_replacement
from math import factorial
from types import MappingProxyType
from typing import TypeAlias, TypedDict, cast

from tussle.errors import ActionError, OptionError, shorten
from tussle.game import (
    CHANCE,
    JSON,
    PUBLIC,
    Actions,
    AgentHook,
    ChanceMode,
    Dynamics,
    Game,
    GameInfo,
    Hooks,
    Information,
    ListActions,
    Option,
    Result,
    State,
    Termination,
    document_hint,
)
from tussle.games.fite.notation import (
    DEF,
    FACE_LOCATION,
    FIGHTERS,
    LOCATION_LONG,
    LOCATIONS,
    MAX_POOL,
    OFF,
    PASS,
    POOL_LONG,
    POOLS,
    STAY,
    TAC,
    THEIR_OFF,
    DiceRoll,
    FiteAction,
    Move,
    MoveJSON,
    PlaceAction,
    Placement,
    PlayerAction,
    Roll,
    Split,
    SplitAction,
    SwiftAction,
    SwiftMove,
    Tactic,
    TacticAction,
    Turned,
    faces_text,
    format_place,
    format_roll,
    format_split,
    format_swift,
    format_tactic,
    parse_place,
    parse_roll,
    parse_split,
    parse_swift,
    parse_tactic,
)
from tussle.games.fite.powers import STANDARD_POWERS, Power, load_powers

START_DICE = 9

SETUP, PLACE, SWIFT, SPLIT, ROLL, TACTICAL, OVER = range(7)
PHASE_NAMES = ("setup", "place", "swift", "split", "roll", "tactical", "over")
#: The order of the four rolls of a fight: (fighter, pool).
ROLL_ORDER = ((0, OFF), (0, DEF), (1, OFF), (1, DEF))
#: LOCATION_MODIFIERS[location]: what the location adds to a fighter's offensive and defensive dice.
LOCATION_MODIFIERS = ((1, 0), (0, 1), (0, 0))
#: Whether a fighter may use one tactical option, or both (Cunning at the tactical location).
NO_OPTION, ONE_OPTION, BOTH_OPTIONS = 0, 1, 2
ENTITLEMENT_NAMES = ("none", "one", "both")

Pools = tuple[Roll, Roll]


# --- cancellation -------------------------------------------------------------


def cancelled(offence: Sequence[int], defence: Sequence[int]) -> int:
    """How many offensive dice the defensive dice cancel, at most.

    A defensive die cancels one offensive die whose value is at most its own,
    and each die takes part in one cancellation at most. The count is the
    largest possible, found greedily: walk the defensive dice from the lowest
    up and let each cancel the smallest offensive die not yet cancelled if it
    can. Why that is the maximum: (1) if some k offensive dice can be
    cancelled, so can the k smallest (trade a cancelled die for a smaller
    uncancelled one; its canceller covers the smaller die too); (2) a
    defensive die the greedy skips covers no open offensive die, as the open
    die it fails on is the smallest one, so it could cancel nothing in any
    matching of the smallest dice either; and giving the smallest open
    offensive die to the lowest defensive die that covers it leaves every
    higher defensive die for the larger ones.

    >>> cancelled([6, 5, 4, 2, 2], [6, 6, 3, 2, 1, 1])  # the text's example: B cancels 4 of A's 5
    4
    >>> cancelled([5, 4, 2], [5, 3, 1, 1])  # and A cancels 2 of B's 3
    2
    """
    off = sorted(offence)
    i = 0
    top = len(off)
    for value in sorted(defence):
        if i < top and off[i] <= value:
            i += 1
    return i


def cancellations(offence: Sequence[int], defence: Sequence[int]) -> list[tuple[int, int]]:
    """Which defensive die cancels which offensive die: pairs of indices (defence, offence).

    The same greedy walk as :func:`cancelled` (so there are exactly as many
    pairs as it counts), naming the dice by their places in the sequences as
    given; the drawings show these pairs. Among equal values the later die
    goes first, so that with both sequences sorted highest first (as the
    observations hold them) no two pairs cross.

    >>> cancellations([6, 5, 4, 2, 2], [6, 6, 3, 2, 1, 1])  # B's 2, 3, 6, 6 cancel A's 2, 2, 4, 5
    [(3, 4), (2, 3), (1, 2), (0, 1)]
    >>> cancellations([5, 4, 2], [5, 3, 1, 1])
    [(1, 2), (0, 1)]
    """
    off = sorted(range(len(offence)), key=lambda k: (offence[k], -k))
    pairs = []
    i = 0
    top = len(off)
    for d in sorted(range(len(defence)), key=lambda k: (defence[k], -k)):
        if i < top and offence[off[i]] <= defence[d]:
            pairs.append((d, off[i]))
            i += 1
    return pairs


# --- rolls -----------------------------------------------------------------------


def _roll_table(size: int) -> tuple[tuple[Roll, float], ...]:
    """Every sorted roll of ``size`` dice with its multinomial probability."""
    total = 6**size
    out = []
    for faces in combinations_with_replacement((6, 5, 4, 3, 2, 1), size):
        ways = factorial(size)
        for face in set(faces):
            ways //= factorial(faces.count(face))
        out.append((faces, ways / total))
    return tuple(out)


#: ROLLS[k]: the outcomes of rolling a pool of k dice, faces highest first.
ROLLS: tuple[tuple[tuple[Roll, float], ...], ...] = tuple(_roll_table(k) for k in range(MAX_POOL + 1))
ROLL_SETS: tuple[frozenset[Roll], ...] = tuple(frozenset(r for r, _ in table) for table in ROLLS)


# --- actions ---------------------------------------------------------------------


# The tables hold the state's action type, FiteAction, as legal_actions gives them out.
PLACE_ACTIONS: ListActions[FiteAction] = ListActions([("place", face) for face in range(1, 7)])
#: SWIFT_ACTIONS[location]: stay, or move to one of the two other locations.
SWIFT_ACTIONS: tuple[ListActions[FiteAction], ...] = tuple(
    ListActions([("swift", STAY)] + [("swift", to) for to in (OFF, DEF, TAC) if to != here])
    for here in (OFF, DEF, TAC)
)


def _split_actions(dice: int, declare: bool) -> ListActions[FiteAction]:
    splits: list[FiteAction] = [
        ("split", off, dice - off, flag)
        for flag in ((False, True) if declare else (False,))
        for off in range(max(1, dice - MAX_POOL), min(MAX_POOL, dice - 1) + 1)
    ]
    return ListActions(splits)


SPLIT_ACTIONS: dict[tuple[int, bool], ListActions[FiteAction]] = {
    (dice, declare): _split_actions(dice, declare)
    for dice in range(2, START_DICE + 1)
    for declare in (False, True)
}
NO_ACTIONS: ListActions[FiteAction] = ListActions(())
#: Both fighters' actions at a placement.
PLACING = (PLACE_ACTIONS, PLACE_ACTIONS)
#: OTHER[p]: who is left to act at a simultaneous step once fighter p has chosen.
OTHER = ((1,), (0,))


def _distinct(faces: Roll) -> list[int]:
    return sorted(set(faces), reverse=True)


def move_options(pools: Pools) -> list[tuple[int, tuple[int, ...]]]:
    """Every (source pool, faces moved) for moving 1 or 2 dice from one pool to the other.

    A pool keeps at least 1 die and holds at most 8 (ruling).

    >>> move_options(((6, 6), (1,)))
    [(0, (6,))]
    """
    out: list[tuple[int, tuple[int, ...]]] = []
    for source in (OFF, DEF):
        here, there = pools[source], pools[1 - source]
        kinds = _distinct(here)
        if len(here) >= 2 and len(there) + 1 <= MAX_POOL:
            out += [(source, (a,)) for a in kinds]
        if len(here) >= 3 and len(there) + 2 <= MAX_POOL:
            out += [
                (source, (a, b))
                for i, a in enumerate(kinds)
                for b in kinds[i:]
                if a != b or here.count(a) >= 2
            ]
    return out


def turn_options(pools: Pools, theirs: Pools | None = None) -> list[Turned]:
    """Every choice of 1 or 2 dice to turn over: the fighter's own (either pool), and the opponent's too.

    ``theirs``, the opponent's rolled pools, is given only where the opponent's
    dice may be turned (the option ``turn_dice=any``); its dice are the pools
    2 and 3 of a turned die.

    >>> turn_options(((6,), (1, 1)))
    [((0, 6),), ((1, 1),), ((0, 6), (1, 1)), ((1, 1), (1, 1))]
    >>> turn_options(((6,), (1,)), ((2,), (5,)))[:4]
    [((0, 6),), ((1, 1),), ((2, 2),), ((3, 5),)]
    """
    every = (pools[OFF], pools[DEF], *(theirs or ()))
    kinds = [(pool, a) for pool, faces in enumerate(every) for a in _distinct(faces)]
    singles: list[Turned] = [(k,) for k in kinds]
    pairs: list[Turned] = [
        (a, b) for i, a in enumerate(kinds) for b in kinds[i:] if a != b or every[a[0]].count(a[1]) >= 2
    ]
    return singles + pairs


def move_dice(pools: Pools, source: int, moved: tuple[int, ...]) -> Pools:
    """The pools after moving the dice showing ``moved`` from ``source`` to the other pool.

    >>> move_dice(((6, 5, 1), (2,)), 0, (6, 1))
    ((5,), (6, 2, 1))
    """
    if source < 0:
        return pools
    here = list(pools[source])
    for face in moved:
        here.remove(face)
    there = tuple(sorted(pools[1 - source] + moved, reverse=True))
    return (tuple(here), there) if source == OFF else (there, tuple(here))


def turn_dice(pools: Pools, turned: Turned) -> Pools:
    """The pools after turning the named dice to their opposite faces (7 minus the face).

    >>> turn_dice(((6, 5), (1, 1)), ((0, 5), (1, 1)))
    ((6, 2), (6, 1))
    """
    if not turned:
        return pools
    lists = [list(pools[OFF]), list(pools[DEF])]
    for pool, face in turned:
        lists[pool].remove(face)
        lists[pool].append(7 - face)
    return (tuple(sorted(lists[OFF], reverse=True)), tuple(sorted(lists[DEF], reverse=True)))


def apply_tactic(pools: Pools, action: TacticAction) -> Pools:
    """The pools after a tactical choice of the fighter's own dice: its move first, then its turns."""
    return turn_dice(move_dice(pools, action[1], action[2]), action[3])


def turns_theirs(action: TacticAction | None) -> bool:
    """Whether a tactical choice turns any of the opponent's dice (``turn_dice=any``)."""
    return action is not None and bool(action[3]) and action[3][-1][0] >= THEIR_OFF


def resolve_tactics(
    rolled: tuple[Pools, Pools], choices: Sequence[TacticAction | None]
) -> tuple[Pools, Pools]:
    """Both fighters' pools after their tactical choices (None: the fighter had none).

    Without a turn of the opponent's dice each choice changes its own
    fighter's pools only (:func:`apply_tactic`). Under ``turn_dice=any`` the
    dice are followed one by one: each fighter's own move and turns come
    first, then the opponent's turns, which name dice by pool and face as
    rolled and take a die its owner left alone where there is one (so that two
    choices touch different dice where they can); a die turned by both shows
    its rolled face again, and a die its owner moved is turned where it lies.

    >>> resolve_tactics((((1, 1), (5,)), ((6,), (2,))), [("tactic", -1, (), ((0, 1), (3, 2))), None])
    (((6, 1), (5,)), ((6,), (5,)))
    >>> both = [("tactic", -1, (), ((0, 1),)), ("tactic", -1, (), ((2, 1),))]
    >>> resolve_tactics((((1,), (5,)), ((6,), (2,))), both)  # one die turned twice
    (((1,), (5,)), ((6,), (2,)))
    >>> resolve_tactics((((1, 1), (5,)), ((6,), (2,))), both)  # two dice, one turned by each
    (((6, 6), (5,)), ((6,), (2,)))
    """
    if not any(turns_theirs(c) for c in choices):
        return (
            apply_tactic(rolled[0], choices[0]) if choices[0] is not None else rolled[0],
            apply_tactic(rolled[1], choices[1]) if choices[1] is not None else rolled[1],
        )
    # Each die: [rolled pool, rolled face, pool now, face now, touched by its owner (0 or 1)].
    dice: list[list[list[int]]] = [
        [[pool, face, pool, face, False] for pool in (OFF, DEF) for face in rolled[p][pool]] for p in (0, 1)
    ]
    for p, choice in enumerate(choices):
        if choice is None:
            continue
        _, source, moved, turned = choice
        own = dice[p]
        for face in moved:
            die = next(d for d in own if d[2] == source and d[3] == face and not d[4])
            die[2] = 1 - source
            die[4] = True
        # Own turns name the pools as the move left them; a moved die first, so as to touch few dice.
        picked: list[list[int]] = []
        for pool, face in turned:
            if pool < THEIR_OFF:
                picked.append(
                    max(
                        (d for d in own if d[2] == pool and d[3] == face and all(d is not q for q in picked)),
                        key=lambda d: d[4],
                    )
                )
        for die in picked:
            die[3] = 7 - die[3]
            die[4] = True
    for p, choice in enumerate(choices):
        if choice is None:
            continue
        other = dice[1 - p]
        picked = []
        for pool, face in choice[3]:
            if pool >= THEIR_OFF:
                picked.append(
                    min(
                        (
                            d
                            for d in other
                            if d[0] == pool - THEIR_OFF and d[1] == face and all(d is not q for q in picked)
                        ),
                        key=lambda d: d[4],
                    )
                )
        for die in picked:
            die[3] = 7 - die[3]
    out = [
        tuple(tuple(sorted((d[3] for d in dice[p] if d[2] == pool), reverse=True)) for pool in (OFF, DEF))
        for p in (0, 1)
    ]
    return ((out[0][0], out[0][1]), (out[1][0], out[1][1]))


def tactic_actions(pools: Pools, entitled: int, theirs: Pools | None = None) -> tuple[TacticAction, ...]:
    """The tactical choices of a fighter with rolled ``pools``: pass, a move or a turn, or both.

    ``theirs`` (the opponent's rolled pools) is given where its dice may be
    turned too (``turn_dice=any``).

    >>> len(tactic_actions(((6,), (1,)), ONE_OPTION))  # pass, turn 6, turn 1, turn both
    4
    >>> tactic_actions(((6,), (1,)), BOTH_OPTIONS)[-1]
    ('tactic', -1, (), ((0, 6), (1, 1)))
    >>> len(tactic_actions(((6,), (1,)), ONE_OPTION, ((6,), (6,))))  # pass, 4 dice alone, 6 pairs
    11
    """
    if entitled == ONE_OPTION and theirs is None:
        return _own_choices(pools)
    moves = move_options(pools)
    if entitled == BOTH_OPTIONS:
        out = []
        for source, moved in [(-1, ()), *moves]:
            after = move_dice(pools, source, moved)
            out += [("tactic", source, moved, turned) for turned in [(), *turn_options(after, theirs)]]
        return tuple(out)
    return (
        PASS,
        *(("tactic", source, moved, ()) for source, moved in moves),
        *(("tactic", -1, (), turned) for turned in turn_options(pools, theirs)),
    )


class _PoolChoices:
    """The parts of the one-option tactical choices that a pool's faces decide, in their order.

    ``k`` below is the pool the faces lie in (offensive 0, defensive 1); the
    choices of a fighter are assembled from its two pools' parts
    (:func:`_own_choices`), each action a value shared by every state.
    """

    __slots__ = ("cross", "kinds", "move_one", "move_two", "turn_one", "turn_two", "turn_two_from")

    def __init__(self, faces: Roll) -> None:
        kinds = _distinct(faces)
        twice = [(a, b) for i, a in enumerate(kinds) for b in kinds[i:] if a != b or faces.count(a) >= 2]
        self.kinds = kinds
        #: [k]: moving one die, then two, from pool k to the other.
        self.move_one = tuple(tuple(_shared(("tactic", k, (a,), ())) for a in kinds) for k in (OFF, DEF))
        self.move_two = tuple(tuple(_shared(("tactic", k, pair, ())) for pair in twice) for k in (OFF, DEF))
        #: [k]: turning one die of pool k, then [k][i]: two of it, the first of the i-th face.
        self.turn_one = tuple(
            tuple(_shared(("tactic", -1, (), ((k, a),))) for a in kinds) for k in (OFF, DEF)
        )
        self.turn_two_from = tuple(
            tuple(
                tuple(_shared(("tactic", -1, (), ((k, a), (k, b)))) for a2, b in twice if a2 == a)
                for a in kinds
            )
            for k in (OFF, DEF)
        )
        self.turn_two = tuple(sum(self.turn_two_from[k], ()) for k in (OFF, DEF))
        #: [face]: turning an offensive die of that face and one of this (defensive) pool.
        self.cross = tuple(
            tuple(_shared(("tactic", -1, (), ((OFF, x), (DEF, y)))) for y in kinds) for x in range(7)
        )


_SHARED: dict[TacticAction, TacticAction] = {}
_POOL_CHOICES: dict[Roll, _PoolChoices] = {}


def _shared(action: TacticAction) -> TacticAction:
    return _SHARED.setdefault(action, action)


def _pool_choices(faces: Roll) -> _PoolChoices:
    parts = _POOL_CHOICES.get(faces)
    if parts is None:
        parts = _PoolChoices(faces)
        if len(_POOL_CHOICES) < 4096:  # every sorted roll of 1 to 8 dice fits (3,002)
            _POOL_CHOICES[faces] = parts
    return parts


def _own_choices(pools: Pools) -> tuple[TacticAction, ...]:
    """:func:`tactic_actions` with one option on the fighter's own dice, from its pools' parts.

    The order is :func:`move_options` then :func:`turn_options` (pairs by
    their first die: its own pool's, then the other pool's).
    """
    off, dfn = pools
    po, pd = _pool_choices(off), _pool_choices(dfn)
    lo, ld = len(off), len(dfn)
    out: list[TacticAction] = [PASS]
    if lo >= 2 and ld < MAX_POOL:
        out += po.move_one[OFF]
        if lo >= 3 and ld + 2 <= MAX_POOL:
            out += po.move_two[OFF]
    if ld >= 2 and lo < MAX_POOL:
        out += pd.move_one[DEF]
        if ld >= 3 and lo + 2 <= MAX_POOL:
            out += pd.move_two[DEF]
    out += po.turn_one[OFF]
    out += pd.turn_one[DEF]
    cross = pd.cross
    for kind, pairs in zip(po.kinds, po.turn_two_from[OFF], strict=True):
        out += pairs
        out += cross[kind]
    out += pd.turn_two[DEF]
    return tuple(out)


def count_cancelled(offence: Roll, defence: Roll, shift: int) -> int:
    """:func:`cancelled` for pools sorted highest first, the defensive values ``shift`` above the faces.

    The same greedy walk from the lowest dice up, on the faces as they lie,
    without adding modifiers or sorting: a fight scores two of these.

    >>> count_cancelled((6, 5, 4, 2, 2), (6, 6, 3, 2, 1, 1), 0)
    4
    >>> count_cancelled((6, 5), (5, 4), 1)
    2
    """
    j = len(offence) - 1
    for k in range(len(defence) - 1, -1, -1):
        if j < 0:
            break
        if offence[j] <= defence[k] + shift:
            j -= 1
    return len(offence) - 1 - j


# --- what the views show ---------------------------------------------------------

# ``def`` is a keyword: the pools' shapes are spelled out in the functional syntax.
#: A fighter's two pools' faces (or values), highest first.
PoolFaces = TypedDict("PoolFaces", {"off": list[int], "def": list[int]})
#: A fighter's two pools as far as rolled (None: not rolled yet).
PoolRolls = TypedDict("PoolRolls", {"off": list[int] | None, "def": list[int] | None})
#: What is added to each die of a fighter's two pools.
PoolModifiers = TypedDict("PoolModifiers", {"off": int, "def": int})


class FighterView(TypedDict):
    name: str
    dice: int
    power: str | None
    power_used: bool
    location: str | None
    face: int | None


class TacticalView(TypedDict):
    #: Per fighter: none, one or both options; and its choice in notation once revealed.
    entitled: list[str]
    choices: list[str | None]


class TurnView(TypedDict):
    """The public part of the turn so far (``fight``)."""

    turn: int
    locations: list[str]
    swift: list[str | None]
    split: list[list[int] | None]
    powers: list[str | None]
    modifiers: list[PoolModifiers] | None
    rolls: list[PoolRolls]
    tactical: TacticalView | None


class FightRecord(TypedDict):
    """The whole of a scored fight (``last_fight``)."""

    turn: int
    locations: list[str]
    swift: list[str | None]
    split: list[list[int]]
    powers: list[str | None]
    modifiers: list[PoolModifiers]
    rolls: list[PoolFaces]
    tactical: TacticalView
    pools: list[PoolFaces]
    values: list[PoolFaces]
    cancelled: list[int]
    #: Per defending fighter: [defensive index, offensive index] pairs, which die cancelled which.
    cancellations: list[list[list[int]]]
    hits: list[int]
    dice: list[int]


class RollingView(TypedDict):
    fighter: str
    pool: str
    dice: int


class FiteObservation(TypedDict):
    """What a fighter (or a spectator) sees: docs/games/fite.md, "What each player sees"."""

    game: str
    player: int
    turn: int
    phase: str
    turn_dice: str
    to_move: bool
    fighters: list[FighterView]
    #: The fighter's own choice in this step while it is secret, in notation.
    mine: str | None
    fight: TurnView | None
    rolling: RollingView | None
    last_fight: FightRecord | None
    result: JSON


#: Per fighter: its offensive and defensive modifiers.
Modifiers: TypeAlias = tuple[tuple[int, int], tuple[int, int]]
#: (turn, locations, swift_to, splits, declared powers, modifiers, rolled pools, entitlements,
#: tactical choices, final pools, cancelled counts, hits, dice left)
Facts: TypeAlias = tuple[
    int,
    tuple[int, ...],
    list[int],
    list[tuple[int, int] | None],
    list[str | None],
    Modifiers,
    tuple[Pools, Pools],
    list[int],
    list[TacticAction | None],
    tuple[Pools, Pools],
    tuple[int, int],
    tuple[int, int],
    tuple[int, int],
]


class FightFacts:
    """What a scored fight was, kept as it came; :meth:`record` makes the dict the views show.

    Shared by a state and its clones, as it never changes once made.
    """

    __slots__ = ("_record", "_text", "facts")

    def __init__(self, facts: Facts) -> None:
        self.facts = facts
        self._record: FightRecord | None = None
        self._text: str | None = None

    def record(self) -> FightRecord:
        """The fight's record, one dict for every reader (not to be changed)."""
        if self._record is None:
            self._record = self.build()
        return self._record

    def copy(self) -> FightRecord:
        """A new copy of :meth:`record`, its lists and dicts its own (quicker than a deep copy)."""
        r = self.record()
        tactical = r["tactical"]
        return {
            "turn": r["turn"],
            "locations": r["locations"][:],
            "swift": r["swift"][:],
            "split": [s[:] for s in r["split"]],
            "powers": r["powers"][:],
            "modifiers": [m.copy() for m in r["modifiers"]],
            "rolls": [{"off": d["off"][:], "def": d["def"][:]} for d in r["rolls"]],
            "tactical": {"entitled": tactical["entitled"][:], "choices": tactical["choices"][:]},
            "pools": [{"off": d["off"][:], "def": d["def"][:]} for d in r["pools"]],
            "values": [{"off": d["off"][:], "def": d["def"][:]} for d in r["values"]],
            "cancelled": r["cancelled"][:],
            "cancellations": [[pair[:] for pair in pairs] for pairs in r["cancellations"]],
            "hits": r["hits"][:],
            "dice": r["dice"][:],
        }

    def build(self) -> FightRecord:
        """A new copy of the fight's record: the turn's public data, then how the fight went."""
        (
            turn,
            location,
            swift_to,
            split,
            declared,
            mods,
            rolled,
            entitled,
            tactics,
            final,
            cancels,
            hits,
            dice,
        ) = self.facts
        values = [
            ([f + mods[p][OFF] for f in final[p][OFF]], [f + mods[p][DEF] for f in final[p][DEF]])
            for p in (0, 1)
        ]
        return {
            "turn": turn,
            "locations": [LOCATIONS[loc] for loc in location],
            "swift": [LOCATIONS[to] if to >= 0 else None for to in swift_to],
            "split": [list(s) for s in cast("list[tuple[int, int]]", split)],  # both made before a fight
            "powers": list(declared),
            "modifiers": [{"off": mods[p][OFF], "def": mods[p][DEF]} for p in (0, 1)],
            "rolls": [{"off": list(rolled[p][OFF]), "def": list(rolled[p][DEF])} for p in (0, 1)],
            "tactical": {
                "entitled": [ENTITLEMENT_NAMES[e] for e in entitled],
                "choices": [format_tactic(t, p) if t is not None else None for p, t in enumerate(tactics)],
            },
            "pools": [{"off": list(final[p][OFF]), "def": list(final[p][DEF])} for p in (0, 1)],
            "values": [{"off": values[p][0], "def": values[p][1]} for p in (0, 1)],
            "cancelled": list(cancels),
            # Which of p's defensive dice cancels which of the opponent's offensive dice: [defence, offence]
            # indices into values[p]["def"] and values[1 - p]["off"].
            "cancellations": [
                [list(pair) for pair in cancellations(values[1 - p][0], values[p][1])] for p in (0, 1)
            ],
            "hits": list(hits),
            "dice": list(dice),
        }


# --- the game ----------------------------------------------------------------------

POWER_CHOICES = ("none", "swift", "cunning", "aggressive", "brutal", "fast", "tough")
#: Whose dice the tactical turn acts on: the fighter's own (ruling 7), or any of the rolled dice.
TURN_DICE_CHOICES = ("own", "any")


class Fite(Game):
    """FITE for two fighters.

    >>> state = Fite(power_a="brutal").new_initial_state()
    >>> state.to_act(), state.observation(0)["phase"]
    ((0, 1), 'setup')
    """

    info = GameInfo(
        id="fite",
        name="FITE",
        description=(
            "Two pugilists secretly pick a location, split nine dice into offence and defence, "
            "roll and cancel, until one is out; with super powers and single-elimination tournaments."
        ),
        min_players=2,
        max_players=2,
        dynamics=Dynamics.SIMULTANEOUS,
        chance=ChanceMode.EXPLICIT,
        information=Information.IMPERFECT,
        options=(
            Option(
                "setup_placement",
                "bool",
                True,
                "place at SETUP and again at the start of turn 1, as the text has it "
                "(false: the SETUP placement is turn 1's)",
            ),
            Option(
                "turn_dice",
                "choice",
                "own",
                "whose dice the tactical location's turn may turn: own (the fighter's own) "
                "or any (the opponent's too, written like 'turn B def 6')",
                choices=TURN_DICE_CHOICES,
            ),
            # Text, not a choice: a powers document may name powers of its own (the choices are
            # the standard ones, which the home page and tournaments offer).
            Option(
                "power_a",
                "str",
                "none",
                "fighter A's super power: none, or a power's name (those of the powers option)",
                choices=POWER_CHOICES,
            ),
            Option(
                "power_b",
                "str",
                "none",
                "fighter B's super power: none, or a power's name (those of the powers option)",
                choices=POWER_CHOICES,
            ),
            Option(
                "powers",
                "document",
                "",
                "the super powers fighters may bring, each as its effects (TOML or JSON, "
                "docs/games/fite.md); empty or standard: the six of the rules",
                documents=("standard",),
            ),
            Option(
                "turn_limit",
                "int",
                0,
                "end the game as a draw after this many turns (0: no limit; simulations use 100)",
                minimum=0,
            ),
            # A variant, not the rules: fewer dice make games small enough to solve exactly.
            Option(
                "dice",
                "int",
                START_DICE,
                "the dice each fighter starts with (a variant: the rules give 9; 2 to 9)",
                minimum=2,
                maximum=START_DICE,
            ),
            Option(
                "tactical",
                "bool",
                True,
                "the tactical step (a variant: false leaves it out, so that neither the tactical "
                "location nor a power gives a tactical option)",
            ),
        ),
        notation=(
            "placement: off 1, off 2, def 3, def 4, tac 5, tac 6; Swift: stay or swift off|def|tac; "
            "split: OFF/DEF like 5/4, add +power to use the super power; tactical: pass, "
            "move off>def 6,5, turn off 1,2 or turn off 1 def 2 (with turn_dice=any the opponent's "
            "dice too: turn B def 6), both with Cunning at the tactical location: "
            "move def>off 6 and turn off 1; a roll: A off 6,5,4,2,2"
        ),
        simulation_defaults=(("turn_limit", 100),),
        hooks=Hooks(
            style=".style:style",
            rule_agent=".rule_agent:FiteRuleAgent",
            search=".search:FitePolicy",
            encoding=".encoding:encoding",
            batch=".batch:batch",
            rules="rules.md",
            balance=".balance:measures",
            commands=(".odds:fite_odds",),
            web="web.js",
            story=".story:story",
            # Chosen by measurement: docs/strength.md has the ladders.
            levels=(
                ("easy", "smmcts:iterations=30"),
                ("medium", "smmcts:iterations=100"),
                ("hard", "smmcts:iterations=2000"),
            ),
            agents=(
                AgentHook(
                    "solved",
                    ".solved:FiteSolvedAgent",
                    "the solved strategy of a model of FITE (docs/fite-solver.md); tactics=value|plan",
                ),
            ),
            bench_target=6.0,
        ),
    )

    #: The powers fighters may bring, by name (the powers option's; the standard six without it).
    power_table: Mapping[str, Power]
    #: Whether each fighter's power is used by moving after the placement (Swift), not declared.
    swift_power: tuple[bool, bool]

    def _check_options(self) -> None:
        text = self.str_option("powers")
        if text in ("", "standard"):
            self.power_table = STANDARD_POWERS
        else:
            try:
                self.power_table = load_powers(text, "option powers")
            except OptionError as exc:
                raise OptionError(f"{exc}{document_hint(self.id, 'powers', text)}") from None
        chosen = dict(self.options)
        for name in ("power_a", "power_b"):
            value = self.str_option(name).strip().lower()
            if value != "none" and value not in self.power_table:
                offered = ", ".join(("none", *self.power_table))
                raise OptionError(f"option {name}: {shorten(self.str_option(name))} is not one of {offered}")
            chosen[name] = value
        # Kept as the names are written in the document, as a choice option keeps its choices.
        self.options = MappingProxyType(chosen)
        self.swift_power = (
            chosen["power_a"] != "none" and self.power_table[str(chosen["power_a"])].swift,
            chosen["power_b"] != "none" and self.power_table[str(chosen["power_b"])].swift,
        )

    def length_bound(self) -> tuple[int, int] | None:
        # The SETUP placement, then per turn: placement, Swift, split, tactical choice; four rolls.
        limit = int(self.options["turn_limit"])
        return (4 * limit + 1, 4 * limit) if limit > 0 else None

    def new_initial_state(self) -> FiteState:
        return FiteState(self)


class FiteState(State[FiteAction]):
    """One moment of a FITE game."""

    __slots__ = (
        "_fought",
        "_legal",
        "_result",
        "_size",
        "_to_act",
        "acting",
        "declared",
        "dice",
        "entitled",
        "face",
        "game",
        "location",
        "pending",
        "phase",
        "power_table",
        "powers",
        "roll_index",
        "rolls",
        "split",
        "swift_power",
        "swift_to",
        "tactics",
        "turn",
        "turn_any",
        "turn_limit",
        "used",
    )

    def __init__(self, game: Fite) -> None:
        self.game = game
        #: Whether a turn may name the opponent's dice (the option ``turn_dice=any``).
        self.turn_any = game.options["turn_dice"] == "any"
        self.turn_limit = int(game.options["turn_limit"])
        self.powers: tuple[str | None, str | None] = (
            None if game.options["power_a"] == "none" else str(game.options["power_a"]),
            None if game.options["power_b"] == "none" else str(game.options["power_b"]),
        )
        #: What each power does, by name, and whether each fighter's is used by a Swift move.
        self.power_table: Mapping[str, Power] = game.power_table
        self.swift_power = game.swift_power
        self.dice = [int(game.options["dice"])] * 2
        self.used = [False, False]  # the coin flipped face down
        self.location = [-1, -1]
        self.face = [0, 0]
        # The last fight's facts: most fights in a playout or a search are never looked at,
        # so the record that shows them (last_fight) is made only when it is read.
        self._fought: FightFacts | None = None
        self._result: Result | None = None
        self.turn = 0
        self._size = 0  # the number of dice of the roll to come
        self._new_turn_fields()
        if game.options["setup_placement"]:
            self._start(SETUP, (0, 1), PLACING)
        else:
            self.turn = 1
            self._start(PLACE, (0, 1), PLACING)

    def _new_turn_fields(self) -> None:
        self.swift_to = [-1, -1]
        self.split: list[tuple[int, int] | None] = [None, None]
        self.declared: list[str | None] = [None, None]  # the power used this turn
        self.rolls: list[list[Roll | None]] = [[None, None], [None, None]]
        self.roll_index = 0
        self.entitled = [NO_OPTION, NO_OPTION]
        self.tactics: list[TacticAction | None] = [None, None]

    def _start(
        self,
        phase: int,
        acting: tuple[int, ...],
        legal: tuple[Actions[FiteAction] | None, ...] = (None, None),
    ) -> None:
        """Begin a step; ``legal`` may give the fighters' actions (None: made when first asked for)."""
        self.phase = phase
        self.acting = acting
        self._to_act = acting
        self.pending: list[PlayerAction | None] = [None, None]
        self._legal: list[Actions[FiteAction] | None] = list(legal)

    # --- who acts -------------------------------------------------------------

    def to_act(self) -> tuple[int, ...]:
        return self._to_act

    @property
    def last_fight(self) -> FightRecord | None:
        """The record of the last fight scored (None before the first), as observations show it.

        The same dict until the next fight, made when first read; read it, do not change it.
        """
        return self._fought.record() if self._fought is not None else None

    def player_name(self, player: int) -> str:
        return f"fighter {FIGHTERS[player]}" if player in (0, 1) else super().player_name(player)

    def can_declare(self, player: int) -> bool:
        """Whether ``player`` may declare its super power with the split."""
        return self.powers[player] is not None and not self.swift_power[player] and not self.used[player]

    def pools(self, player: int) -> Pools:
        """``player``'s rolled pools (offensive, defensive), as rolled, before any tactical choice."""
        off, dfn = self.rolls[player]
        return (off or (), dfn or ())

    def modifiers(self, player: int) -> tuple[int, int]:
        """What is added to each of ``player``'s offensive and defensive dice this turn."""
        other = 1 - player
        where = self.location[player]
        off = int(where == OFF)
        dfn = int(where == DEF)
        table = self.power_table
        mine = self.declared[player]
        if mine is not None:
            power = table[mine]
            off += power.attack
            dfn += power.defence
        theirs = self.declared[other]
        if theirs is not None:
            power = table[theirs]
            off += power.opponent_attack
            dfn += power.opponent_defence
        return (off, dfn)

    # --- actions ----------------------------------------------------------------

    def legal_actions(self, player: int) -> Actions[FiteAction]:
        if player in self._to_act and player != CHANCE:
            legal = self._legal[player]
            if legal is None:
                legal = self._legal[player] = self._step_actions(player)
            return legal
        return NO_ACTIONS

    def _step_actions(self, player: int) -> Actions[FiteAction]:
        """``player``'s choices in this step, whether or not it has already chosen."""
        phase = self.phase
        if phase in (SETUP, PLACE):
            return PLACE_ACTIONS
        if phase == SWIFT:
            return SWIFT_ACTIONS[self.location[player]]
        if phase == SPLIT:
            return SPLIT_ACTIONS[(self.dice[player], self.can_declare(player))]
        theirs = self.pools(1 - player) if self.turn_any else None
        return ListActions[FiteAction](tactic_actions(self.pools(player), self.entitled[player], theirs))

    def _roll_size(self) -> int:
        return self._size

    def chance_outcomes(self) -> list[tuple[FiteAction, float]]:
        if self.phase != ROLL or self._result is not None:
            return []
        return list(ROLLS[self._roll_size()])

    def sample_chance(self, rng: random.Random) -> FiteAction:
        if self.phase != ROLL or self._result is not None:
            raise ActionError("no chance event is pending")
        draw = rng.random
        size = self._size
        # One die at a time, in the draw's order, then highest first; pools of one or two dice
        # (most rolls) without building and sorting a list, the same faces from the same draws.
        if size == 1:
            return (int(draw() * 6) + 1,)
        if size == 2:
            a = int(draw() * 6) + 1
            b = int(draw() * 6) + 1
            return (a, b) if a >= b else (b, a)
        faces = [int(draw() * 6) + 1 for _ in range(size)]
        faces.sort(reverse=True)
        return tuple(faces)

    def is_legal(self, player: int, action: FiteAction) -> bool:
        # The acting player, then the action in the step's legal set (or the roll among the
        # rolls of the pool's size).
        if player not in self._to_act:
            return False
        try:
            if player == CHANCE:
                return action in ROLL_SETS[self._size]
            legal = self._legal[player]
            if legal is None:
                legal = self._legal[player] = self._step_actions(player)
            return action in legal
        except TypeError:  # unhashable: no action
            return False

    def _why_illegal(self, player: int, action: FiteAction) -> str:
        who = FIGHTERS[player]
        if self.phase == SWIFT:
            return f": fighter {who} is at the {LOCATION_LONG[cast(SwiftAction, action)[1]]} location already"
        if self.phase == SPLIT:
            _, off, dfn, declare = cast(SplitAction, action)
            if off + dfn != self.dice[player]:
                return f": fighter {who} has {self.dice[player]} dice, and {off}/{dfn} splits {off + dfn}"
            if not (1 <= off <= MAX_POOL and 1 <= dfn <= MAX_POOL):
                return f": each pool holds 1 to {MAX_POOL} dice"
            if declare and self.used[player]:
                return f": fighter {who}'s super power is used already"
            if declare and self.swift_power[player]:
                return (
                    f": fighter {who}'s super power is used by moving after the placement, not with the split"
                )
            return ""
        if self.phase == TACTICAL:
            return self._tactic_problem(player, cast(TacticAction, action))
        return ""

    def _tactic_problem(self, player: int, action: TacticAction) -> str:
        _, source, moved, turned = action
        pools = self.pools(player)
        if source >= 0 and turned and self.entitled[player] != BOTH_OPTIONS:
            return ": only one tactical option, a move or a turn (both need Cunning at the tactical location)"
        if source >= 0:
            if not _holds(pools[source], moved):
                return (
                    f": the {POOL_LONG[source]} pool ({faces_text(pools[source])}) has no {faces_text(moved)}"
                )
            if len(pools[source]) == len(moved):
                return f": the {POOL_LONG[source]} pool must keep at least 1 die"
            if len(pools[1 - source]) + len(moved) > MAX_POOL:
                return f": a pool holds at most {MAX_POOL} dice"
        after = move_dice(pools, source, moved)
        for pool in (OFF, DEF):
            faces = tuple(face for where, face in turned if where == pool)
            if not _holds(after[pool], faces):
                return f": the {POOL_LONG[pool]} pool ({faces_text(after[pool])}) has no {faces_text(faces)}"
        if turns_theirs(action):
            who = FIGHTERS[1 - player]
            if not self.turn_any:
                return (
                    f": a fighter turns only its own dice in this game, not {who}'s "
                    "(the option turn_dice=any allows the opponent's)"
                )
            theirs = self.pools(1 - player)
            for pool in (OFF, DEF):
                faces = tuple(face for where, face in turned if where == pool + THEIR_OFF)
                if not _holds(theirs[pool], faces):
                    shown = faces_text(theirs[pool])
                    return f": {who}'s {POOL_LONG[pool]} pool ({shown}) has no {faces_text(faces)}"
        return ""

    def _apply(self, player: int, action: FiteAction) -> None:
        # No typing.cast here: it is a call, and this runs at every event.
        if player == CHANCE:
            self._roll(action)  # type: ignore[arg-type]  # a chance outcome is a roll
            return
        # A fighter's legal action is kept; the step resolves once both that act have chosen.
        self.pending[player] = action  # type: ignore[assignment]  # a fighter's action
        # Two fighters at most act at once, and player is one of them.
        if len(self._to_act) == 2:
            self._to_act = OTHER[player]
        else:
            self._to_act = ()
            self._resolve_step()

    def _resolve_step(self) -> None:
        phase = self.phase
        # The step's actions are all of one shape: the step's (every fighter to act has chosen).
        if phase in (SETUP, PLACE):
            placed: list[PlaceAction] = self.pending  # type: ignore[assignment]  # the step's shape
            for p in (0, 1):
                self.face[p] = placed[p][1]
                self.location[p] = FACE_LOCATION[placed[p][1]]
            if phase == SETUP:
                self.turn = 1
                self._start(PLACE, (0, 1), PLACING)
                return
            swift_power = self.swift_power
            if swift_power[0] or swift_power[1]:
                swift = tuple(p for p in (0, 1) if swift_power[p] and not self.used[p])
                if swift:
                    self._start(SWIFT, swift)
                    return
            self._start_split()
        elif phase == SWIFT:
            moved: list[SwiftAction] = self.pending  # type: ignore[assignment]  # the step's shape
            for p in self.acting:
                to = moved[p][1]
                if to != STAY:
                    self.location[p] = self.swift_to[p] = to
                    self.used[p] = True
                    self.declared[p] = self.powers[p]
            self._start_split()
        elif phase == SPLIT:
            chosen: list[SplitAction] = self.pending  # type: ignore[assignment]  # the step's shape
            for p in (0, 1):
                _, off, dfn, declare = chosen[p]
                self.split[p] = (off, dfn)
                if declare:
                    self.used[p] = True
                    self.declared[p] = self.powers[p]
            self._size = chosen[0][1]
            self._start(ROLL, (CHANCE,))
        else:
            tactics: list[TacticAction] = self.pending  # type: ignore[assignment]  # the step's shape
            for p in self.acting:
                self.tactics[p] = tactics[p]
            self._fight()

    def _start_split(self) -> None:
        dice = self.dice
        self._start(
            SPLIT,
            (0, 1),
            (SPLIT_ACTIONS[(dice[0], self.can_declare(0))], SPLIT_ACTIONS[(dice[1], self.can_declare(1))]),
        )

    def _roll(self, faces: Roll) -> None:
        index = self.roll_index
        player, pool = ROLL_ORDER[index]
        self.rolls[player][pool] = faces
        index += 1
        self.roll_index = index
        if index < len(ROLL_ORDER):
            player, pool = ROLL_ORDER[index]
            split = self.split[player]
            assert split is not None
            self._size = split[pool]
            return
        tactical = self.game.options["tactical"]  # False only in the variant without the step
        for p in (0, 1):
            at_tactical = tactical and self.location[p] == TAC
            declared = self.declared[p]
            cunning = tactical and declared is not None and self.power_table[declared].tactical
            self.entitled[p] = BOTH_OPTIONS if at_tactical and cunning else int(at_tactical or cunning)
        entitled = tuple(p for p in (0, 1) if self.entitled[p])
        if entitled:
            self._start(TACTICAL, entitled)
        else:
            self._fight()

    def _fight(self) -> None:
        """Score the fight: tactical choices, modifiers, cancellation, hits; then the end or a new turn."""
        rolls = self.rolls
        rolled = ((rolls[0][OFF] or (), rolls[0][DEF] or ()), (rolls[1][OFF] or (), rolls[1][DEF] or ()))
        tactics = self.tactics
        first, second = tactics
        if (first is None or first == PASS) and (second is None or second == PASS):
            final = rolled
        else:
            final = resolve_tactics(rolled, tactics)
        declared = self.declared
        if declared[0] is None and declared[1] is None:
            location = self.location
            mods = (LOCATION_MODIFIERS[location[0]], LOCATION_MODIFIERS[location[1]])
        else:
            mods = (self.modifiers(0), self.modifiers(1))
        # cancels[p]: opposing offensive dice that p's defence cancels; hits[p]: dice p loses.
        # A defensive die of p cancels an offensive one when off + mods[1 - p][OFF] <= def + mods[p][DEF].
        cancels = (
            count_cancelled(final[1][OFF], final[0][DEF], mods[0][DEF] - mods[1][OFF]),
            count_cancelled(final[0][OFF], final[1][DEF], mods[1][DEF] - mods[0][OFF]),
        )
        hits = (len(final[1][OFF]) - cancels[0], len(final[0][OFF]) - cancels[1])
        dice = self.dice
        a = dice[0] = max(0, dice[0] - hits[0])
        b = dice[1] = max(0, dice[1] - hits[1])
        # The turn's lists are new each turn (_new_turn_fields) and never changed after the
        # fight, so the facts keep them as they are; location and dice change in place.
        self._fought = FightFacts(
            (
                self.turn,
                tuple(self.location),
                self.swift_to,
                self.split,
                declared,
                mods,
                rolled,
                self.entitled,
                tactics,
                final,
                cancels,
                hits,
                (a, b),
            )
        )
        if a <= 1 or b <= 1 or 0 < self.turn_limit <= self.turn:  # what _ending looks for
            self._result = self._ending()
            if self._result is not None:
                self._start(OVER, ())
                return
        self.turn += 1
        self._new_turn_fields()
        self._start(PLACE, (0, 1), PLACING)

    def _ending(self) -> Result | None:
        a, b = self.dice
        if a == 0 and b == 0:
            return Result.draw(2, "both fighters were taken out in the same fight")
        if a == 0 or b == 0:
            loser = 0 if a == 0 else 1
            return Result.win(1 - loser, 2, f"fighter {FIGHTERS[loser]} has no dice left and is taken out")
        if a == 1 and b == 1:
            return Result.draw(2, "both fighters are left with 1 die, dazed (FINISH HIM)")
        if a == 1 or b == 1:
            dazed = 0 if a == 1 else 1
            return Result.win(
                1 - dazed, 2, f"fighter {FIGHTERS[dazed]} is left with 1 die and is finished off (FINISH HIM)"
            )
        limit = self.turn_limit
        if limit and self.turn >= limit:
            return Result.draw(2, f"turn limit of {limit} reached", Termination.LIMIT)
        return None

    def result(self) -> Result | None:
        return self._result

    # --- notation ------------------------------------------------------------------

    def action_to_str(self, player: int, action: FiteAction) -> str:
        if player == CHANCE:
            roll = cast(Roll, action)
            if self.phase == ROLL and self._result is None:
                fighter, pool = ROLL_ORDER[self.roll_index]
                return format_roll(fighter, pool, roll)
            return faces_text(roll)
        tag = action[0]
        if tag == "place":
            return format_place(cast(PlaceAction, action))
        if tag == "swift":
            return format_swift(cast(SwiftAction, action))
        if tag == "split":
            return format_split(cast(SplitAction, action), self.powers[player])
        return format_tactic(cast(TacticAction, action), player)

    def _parse_action(self, player: int, text: str) -> FiteAction:
        phase = self.phase
        if player == CHANCE:
            fighter, pool = ROLL_ORDER[self.roll_index]
            return parse_roll(text, fighter, pool, self._roll_size())
        if phase in (SETUP, PLACE):
            return parse_place(text)
        if phase == SWIFT:
            return parse_swift(text)
        if phase == SPLIT:
            return parse_split(text, self.powers[player])
        return parse_tactic(text, player)

    # --- structured forms ------------------------------------------------------------

    def move(self, player: int, action: FiteAction) -> Move:
        """``action`` by ``player`` (or a roll, by CHANCE) in its structured form.

        Like :meth:`action_to_str` it reads the action's own step from the action
        (a roll: whose pool is rolling now), so a choice kept from earlier in the
        turn is written too.
        """
        if player == CHANCE:
            if self.phase != ROLL or self._result is not None:
                raise ActionError("no roll is pending: a roll's structured form names the pool rolling")
            fighter, pool = ROLL_ORDER[self.roll_index]
            return DiceRoll(fighter, pool, cast(Roll, action))
        tag = action[0]
        if tag == "place":
            return Placement.of(cast(PlaceAction, action))
        if tag == "swift":
            return SwiftMove.of(cast(SwiftAction, action))
        if tag == "split":
            return Split.of(cast(SplitAction, action), self.powers[player])
        return Tactic.of(cast(TacticAction, action), player)

    def action_to_json(self, player: int, action: FiteAction) -> MoveJSON:
        return self.move(player, action).to_json()

    def _action_from_json(self, player: int, data: dict[str, object]) -> FiteAction:
        if player == CHANCE:
            roll = DiceRoll.from_json(data)
            fighter, pool = ROLL_ORDER[self.roll_index]
            if (roll.fighter, roll.pool) != (fighter, pool):
                raise ActionError(
                    f"the roll now is fighter {FIGHTERS[fighter]}'s {POOL_LONG[pool]} pool, "
                    f"not {FIGHTERS[roll.fighter]}'s {POOL_LONG[roll.pool]} one"
                )
            if len(roll.faces) != self._size:
                raise ActionError(
                    f"{FIGHTERS[fighter]}'s {POOL_LONG[pool]} pool has {self._size} "
                    f"{'die' if self._size == 1 else 'dice'}, not {len(roll.faces)}"
                )
            return roll.faces
        phase = self.phase
        if phase in (SETUP, PLACE):
            return Placement.from_json(data).to_action()
        if phase == SWIFT:
            return SwiftMove.from_json(data).to_action()
        if phase == SPLIT:
            return Split.from_json(data).to_action(self.powers[player])
        return Tactic.from_json(data).to_action(player)

    # --- copies and views ----------------------------------------------------------

    def clone(self) -> FiteState:
        other = FiteState.__new__(FiteState)
        other.game = self.game
        other.turn_any = self.turn_any
        other.turn_limit = self.turn_limit
        other.powers = self.powers
        other.power_table = self.power_table
        other.swift_power = self.swift_power
        other.dice = list(self.dice)
        other.used = list(self.used)
        other.location = list(self.location)
        other.face = list(self.face)
        other._fought = self._fought  # never changed once made
        other._result = self._result
        other.turn = self.turn
        other.swift_to = list(self.swift_to)
        other.split = list(self.split)
        other.declared = list(self.declared)
        other.rolls = [list(self.rolls[0]), list(self.rolls[1])]
        other.roll_index = self.roll_index
        other._size = self._size
        other.entitled = list(self.entitled)
        other.tactics = list(self.tactics)
        other.phase = self.phase
        other.acting = self.acting
        other._to_act = self._to_act
        other.pending = list(self.pending)
        other._legal = list(self._legal)
        return other

    def resample(self, player: int, rng: random.Random) -> FiteState:
        other = self.clone()
        for p in (0, 1):
            if p != player and other.pending[p] is not None:
                # An unrevealed choice: any other legal one is as consistent with what player saw.
                other.pending[p] = cast(PlayerAction, self._step_actions(p).sample(rng))
        return other

    def _turn_data(self) -> TurnView:
        """What is public about the turn so far (from the placement's reveal on)."""
        data: TurnView = {
            "turn": self.turn,
            "locations": [LOCATIONS[loc] for loc in self.location],
            "swift": [LOCATIONS[to] if to >= 0 else None for to in self.swift_to],
            "split": [list(s) if s is not None else None for s in self.split],
            "powers": list(self.declared),
            "modifiers": None,
            "rolls": [{"off": _faces(self.rolls[p][OFF]), "def": _faces(self.rolls[p][DEF])} for p in (0, 1)],
            "tactical": None,
        }
        if self.split[0] is not None:
            data["modifiers"] = [
                {"off": off, "def": dfn} for off, dfn in (self.modifiers(0), self.modifiers(1))
            ]
        if self.roll_index == len(ROLL_ORDER):
            data["tactical"] = {
                "entitled": [ENTITLEMENT_NAMES[e] for e in self.entitled],
                "choices": [
                    format_tactic(t, p) if t is not None else None for p, t in enumerate(self.tactics)
                ],
            }
        return data

    def observation(self, player: int) -> FiteObservation:
        """Everything public, and ``player``'s own choice not yet revealed.

        >>> obs = Fite().new_initial_state().observation(0)
        >>> obs["fighters"][0]
        {'name': 'A', 'dice': 9, 'power': None, 'power_used': False, 'location': None, 'face': None}
        """
        live = self._result is None
        rolling: RollingView | None = None
        if self.phase == ROLL and live:
            fighter, pool = ROLL_ORDER[self.roll_index]
            rolling = {"fighter": FIGHTERS[fighter], "pool": POOLS[pool], "dice": self._roll_size()}
        mine = None
        pending = self.pending[player] if player in (0, 1) else None
        if pending is not None:
            mine = self.action_to_str(player, pending)
        return {
            "game": "fite",
            "player": player,
            "turn": self.turn,
            "phase": PHASE_NAMES[self.phase],
            "turn_dice": "any" if self.turn_any else "own",
            "to_move": player in (0, 1) and player in self._to_act,
            "fighters": [
                {
                    "name": FIGHTERS[p],
                    "dice": self.dice[p],
                    "power": self.powers[p],
                    "power_used": self.used[p],
                    "location": LOCATIONS[self.location[p]] if self.location[p] >= 0 else None,
                    "face": self.face[p] or None,
                }
                for p in (0, 1)
            ],
            "mine": mine,
            "fight": self._turn_data() if live and self.phase not in (SETUP, PLACE) else None,
            "rolling": rolling,
            "last_fight": self._last_fight_copy(),
            "result": self._result.to_json() if self._result is not None else None,
        }

    def _last_fight_copy(self) -> FightRecord | None:
        # A copy of its own, made afresh, as an observation is the caller's to change.
        return self._fought.copy() if self._fought is not None else None

    def observation_to_text(self, observation: Mapping[str, JSON], player: int) -> str:
        from tussle.games.fite.render import render_observation

        return render_observation(observation)

    def render(self) -> str:
        from tussle.games.fite.render import render_observation

        pending = [self.action_to_str(p, a) if a is not None else None for p, a in enumerate(self.pending)]
        # The public view, then the secrets.
        return render_observation({**self.observation(PUBLIC), "pending": pending})


def _holds(pool: Roll, faces: tuple[int, ...]) -> bool:
    """Whether ``pool`` has a die for each of ``faces`` (counting repeats)."""
    return all(pool.count(face) >= faces.count(face) for face in faces)


def _faces(roll: Roll | None) -> list[int] | None:
    return list(roll) if roll is not None else None
