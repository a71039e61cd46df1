"""What a Fight! observation holds, declared once: :meth:`FightState.observation
<tussle.games.fight.rules.FightState.observation>` returns a :class:`FightObservation`.

A Warrior shows its family to everybody (its back); its name, power and ability
only to those who know it, so those keys may be absent. Seats are numbers, as in
the structured actions (:mod:`tussle.games.fight.actions`).
"""

from __future__ import annotations

from typing import Literal, NotRequired, TypeAlias, TypedDict

from tussle.game import JSON


class CardJSON(TypedDict):
    """A Warrior as the viewer sees it: its back's family, the rest where it knows the card."""

    family: str
    name: NotRequired[str]
    power: NotRequired[int]
    ability: NotRequired[str]


class MainJSON(CardJSON):
    current_power: int


class BoostJSON(CardJSON):
    activated: bool


class ArenaJSON(TypedDict):
    name: str
    glory: int
    condition: str  #: the condition in words
    rule: dict[str, JSON]  #: the condition in the deck file's terms


class SeatJSON(TypedDict):
    seat: int
    hand: list[CardJSON]  #: the viewer's own in hand order, another's in a canonical order
    main: MainJSON | None
    boost: BoostJSON | None
    scored: list[CardJSON]
    arenas: list[ArenaJSON]  #: the Arenas won
    glory: int


class ReservesJSON(TypedDict):
    count: int
    top_family: str | None  #: the back of the top card, once it shows


# What activating a Boost did, one entry an effect ("from" is a keyword: the functional form).
PowerJSON = TypedDict("PowerJSON", {"kind": Literal["power"], "seat": int, "from": int, "to": int})


class KilledJSON(TypedDict):
    kind: Literal["killed"]
    seat: int
    warrior: str
    power: int  #: the power it fell to


class DrewJSON(TypedDict):
    kind: Literal["drew"]
    scored: list[str]
    graveyard: list[str]


class StoleJSON(TypedDict):
    kind: Literal["stole"]
    seat: int  #: whose Boost was taken (shown, as the viewer may see it, in that seat's report)
    face_up: bool


EffectJSON: TypeAlias = PowerJSON | KilledJSON | DrewJSON | StoleJSON


class FoughtMainJSON(CardJSON):
    final_power: int
    killed: bool


class FoughtBoostJSON(CardJSON):
    activated: bool
    scored_by: int | None  #: the seat whose scored pile holds it now
    target: NotRequired[int | None]  #: an activated Boost's opponent chosen
    effects: NotRequired[list[EffectJSON]]  #: what an activated Boost did


class FoughtSeatJSON(TypedDict):
    seat: int
    main: FoughtMainJSON | None
    boost: FoughtBoostJSON | None


class LastFightJSON(TypedDict):
    fight: int  #: 1 to 7
    arena: ArenaJSON
    winner: int | None
    glory: int  #: what the winner took
    seats: list[FoughtSeatJSON]


class FightObservation(TypedDict):
    """One viewer's observation (a seat's, or the public's: ``player`` -2)."""

    game: Literal["fight"]
    player: int
    num_players: int
    fight: int  #: 1 to 7
    fights: int
    first_player: int
    stage: str  #: setup, play, resolve, ability, draw or over
    to_act: list[int]
    arena: ArenaJSON | None
    upcoming_arenas: list[ArenaJSON]
    last_main_family: str | None
    leader: int | None  #: who would take the Arena if the Fight ended now
    reserves: ReservesJSON
    graveyard: list[CardJSON]
    drawn: list[CardJSON]  #: Warriors drawn by an ability, shown to everybody
    killed: list[str]  #: the Main Warriors killed this Fight
    seats: list[SeatJSON]
    last_fight: LastFightJSON | None
    result: JSON | None
