"""The API's requests: the shape of every body a client sends, and the bounds on what they may hold.

Pydantic checks each body against its model before a route sees it, so the
service (:mod:`tussle.server.service`) gets values of the right types within
these bounds, and a client's mistake is a 422 naming the field.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, model_validator
from pydantic_core import PydanticCustomError

#: The largest WebSocket message or request body the server reads, in bytes.
MAX_MESSAGE = 16 * 1024
#: The largest body of a request that makes a game: its options may hold a document (a deck, a layout).
MAX_CREATE = 256 * 1024
#: The largest record the replay page may upload, in bytes.
MAX_RECORD = 1024 * 1024
#: The longest text an option may have over the API (a document: a Fight! deck is about 10 KB).
MAX_OPTION_CHARS = 64 * 1024
#: The most options a request may give (the games have at most a handful).
MAX_OPTIONS = 32
#: Seats a game may have (the games themselves allow at most 6).
MAX_SEATS = 8
#: Text a person types or a client names (no control characters: they show as nothing, and
#: PostgreSQL refuses NUL in text).
PRINTABLE = r"^[^\x00-\x1f\x7f]*$"


def body_limit(path: str) -> int:
    """The most bytes a request's body to ``path`` may hold (the guard refuses a longer one unread)."""
    if path == "/api/replay":
        return MAX_RECORD
    return MAX_CREATE if path == "/api/games" else MAX_MESSAGE


#: The longest display name a person may choose (the pages ask for at most 30 characters).
MAX_NAME = 60
# Characters a name may not hold beyond PRINTABLE's: C1 controls, line and paragraph separators, and
# the bidirectional overrides and isolates, which would turn the text after a name around on screen.
_NOT_IN_NAMES = {*map(chr, range(0x80, 0xA0)), "\u2028", "\u2029", *map(chr, range(0x202A, 0x202F))}
_NOT_IN_NAMES |= set(map(chr, range(0x2066, 0x206A)))
#: The same characters as a pattern, for the API's description (the validator below refuses them).
NAME_PATTERN = r"^[^\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]*$"


def _display_name(value: str) -> str:
    """A display name, trimmed: empty means none was given (the server names the seat); one that
    trims to nothing, or holds a control character, is refused."""
    bad = next((c for c in value if c in _NOT_IN_NAMES or unicodedata.category(c) == "Cc"), None)
    if bad is not None:
        raise PydanticCustomError("name", f"a name may not hold the control character U+{ord(bad):04X}")
    trimmed = value.strip()
    if value and not trimmed:
        raise PydanticCustomError("name", "a name needs a visible character (or send none)")
    return trimmed


#: A person's display name, as a seat request or a join gives it (docs/server.md).
DisplayName = Annotated[
    str,
    Field(max_length=MAX_NAME, description="a display name", json_schema_extra={"pattern": NAME_PATTERN}),
    AfterValidator(_display_name),
]

OptionName = Annotated[str, Field(max_length=64)]
OptionValue = Annotated[str, Field(max_length=MAX_OPTION_CHARS)] | int | bool


@dataclass(frozen=True)
class Account:
    """A signed-in account, as the routes hand it to the service (tussle.server.accounts finds it)."""

    id: str
    name: str
    bot: bool


class SeatRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    kind: Literal["person", "computer", "open", "invite"] = Field(
        description="who sits here: a person (the answer gives their token), a computer, an open seat "
        "(listed in the lobby for anyone), or an invite (kept for whoever holds its secret; never listed)"
    )
    agent: str | None = Field(
        None,
        max_length=20,
        pattern=PRINTABLE,
        description="a computer seat's player: a level (easy, medium, hard), random or rule "
        "(the catalog lists each game's)",
    )
    name: DisplayName = ""


class ClockRequest(BaseModel):
    """A live clock (``minutes`` for the whole game, plus an increment) or a correspondence one
    (``days`` for each move), never both."""

    model_config = ConfigDict(extra="forbid")

    minutes: float | None = Field(None, gt=0, le=24 * 60, description="each player's time for the whole game")
    increment: float = Field(0.0, ge=0, le=600, description="seconds added after each of a player's moves")
    days: int | None = Field(
        None,
        ge=1,
        le=14,
        description="a correspondence game: the days each move may take, given whole again at each move "
        "(instead of minutes and increment)",
    )

    @model_validator(mode="after")
    def _one_kind(self) -> ClockRequest:
        if (self.minutes is None) == (self.days is None):
            raise ValueError("give either minutes (a live clock) or days (a move), not both or neither")
        if self.days is not None and self.increment:
            raise ValueError("a clock of days a move has no increment")
        return self


class CreateRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    game: str = Field(max_length=64, description="a game id, as `tussle games` lists them")
    options: dict[OptionName, OptionValue] = Field(
        default_factory=dict,
        max_length=MAX_OPTIONS,
        description="game options (a document option: its text, or a name the catalog lists)",
    )
    seats: list[SeatRequest] = Field(
        min_length=1, max_length=MAX_SEATS, description="one per player, in order"
    )
    seed: str | None = Field(
        None,
        max_length=64,
        pattern=PRINTABLE,
        description="drives the chance events and the computer seats; only for a game without open seats "
        "(one nobody else can join): any other draws from the server's secret",
    )
    clock: ClockRequest | None = Field(None, description="a time control: at zero the player loses")
    shuffle: bool = Field(
        False,
        strict=True,
        description="deal the seats in an order the server draws from its secret (not the seed): a maker "
        "who asks for a random seat or colour gets one that no client chose; the answer says who sits where",
    )
    table: bool = Field(
        False,
        description="a game at one screen (hot seat): instead of a token per person seat, the answer "
        "gives one table handle, which shows each person seat's view only while that seat is to act",
    )
    rated: bool = Field(
        False,
        strict=True,
        description="a rated game (needs an account: the maker's is its one person seat; open seats "
        "are taken only by accounts): its result changes the accounts' ratings",
    )


class TokenRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    token: str = Field(max_length=100, pattern=PRINTABLE, description="a seat's secret token")


class TokensRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    tokens: list[Annotated[str, Field(max_length=100, pattern=PRINTABLE)]] = Field(
        max_length=200, description="the seat tokens a player holds"
    )


class JoinRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    seat: int | None = Field(
        None, ge=0, lt=MAX_SEATS, description="the open seat to take (default: the first)"
    )
    name: DisplayName = ""
    invite: str | None = Field(
        None, max_length=100, pattern=PRINTABLE, description="an invite's secret: takes the seat it keeps"
    )


class ReplayRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    record: dict[str, Any] = Field(description="a tussle record, as `tussle play --record` writes it")
    seat: str | int = Field("0", description="whose view to show: a seat number, or public")


class SeekRequest(BaseModel):
    """Play anyone now: a seat in the oldest lobby game with the same game, options and clock, or
    a new one that waits for the next person who asks the same. No seed: chance is the server's."""

    model_config = ConfigDict(extra="forbid")

    game: str = Field(max_length=64, description="a game id, as `tussle games` lists them")
    options: dict[OptionName, OptionValue] = Field(
        default_factory=dict,
        max_length=MAX_OPTIONS,
        description="game options (only games with the same options are paired)",
    )
    clock: ClockRequest | None = Field(None, description="a time control (only the same is paired)")
    name: DisplayName = ""
    rated: bool = Field(
        False, strict=True, description="a rated game (needs an account): paired only with rated seeks"
    )
