"""Game records: every event of a game in notation, replayable without a seed.

A record is JSON::

    {"format": "tussle-record", "version": 1,
     "game": "robo-pigs", "options": {}, "players": ["random", "random"],
     "num_players": 2, "position": null,
     "events": [{"player": 0, "action": "F ^ TR v H"}, ...],
     "result": {...}}

``result`` is the result the rules gave, which replaying the events must give
again (its termination, the rules or a limit of the options, is not written: the
replay says which). A game that ended otherwise (a player's clock ran out, a
resignation, nobody played on for days) has no ``result`` but an ``"ended"``
object, the server's verdict (``returns``, ``ranking``, ``reason`` and
``termination``), written only then.

A game played at the terminal may also hold ``"hints"``, the number of hints
each seat asked for (by seat), and ``"takebacks"``, one object per take-back:
the ``seat`` that took back, ``at``, the number of events kept, and ``undone``,
the events taken back (as in ``events``). Both are written only when there is
one; ``events`` is always the game as it stands after the take-backs, so
replaying a record never reads them.

Chance outcomes are events whose player is ``"chance"``. Replaying applies
every event in order through the game's own parser, so an illegal, garbled or
out-of-turn event is caught and named by its index.
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tussle.errors import RecordError, TussleError, shorten
from tussle.files import parse_json, read_text, write_text
from tussle.game import CHANCE, JSON, Game, Result, State, check_position
from tussle.registry import game_class

FORMAT = "tussle-record"
VERSION = 1


@dataclass
class Record:
    """A game record. Build one while playing with :meth:`add`, then :meth:`to_json`."""

    game: str
    options: dict[str, Any] = field(default_factory=dict)
    num_players: int = 2
    players: list[str] = field(default_factory=list)
    position: str | None = None
    events: list[tuple[int, str]] = field(default_factory=list)
    result: dict[str, Any] | None = None
    #: How a game ended that the rules did not end (a clock, abandonment): the server's verdict.
    ended: dict[str, Any] | None = None
    #: Hints asked for at the terminal, by seat (empty: none).
    hints: list[int] = field(default_factory=list)
    #: Take-backs at the terminal, oldest first: {"seat", "at", "undone"} (see the module's text).
    takebacks: list[dict[str, Any]] = field(default_factory=list)

    @classmethod
    def start(cls, game: Game, players: list[str] | None = None, position: str | None = None) -> Record:
        return cls(
            game=game.info.id,
            options=dict(game.non_default_options()),
            num_players=game.num_players,
            players=list(players or []),
            position=position,
        )

    def add(self, player: int, action: str) -> None:
        self.events.append((player, action))

    def count_hint(self, seat: int) -> None:
        if not self.hints:
            self.hints = [0] * self.num_players
        self.hints[seat] += 1

    def take_back(self, seat: int, at: int) -> None:
        """Drop the events from index ``at`` on, keeping them as a take-back by ``seat``."""
        undone = [{"player": "chance" if p == CHANCE else p, "action": a} for p, a in self.events[at:]]
        self.takebacks.append({"seat": seat, "at": at, "undone": undone})
        del self.events[at:]

    def finish(self, result: Result | None) -> None:
        """Keep the rules' ``result`` (None: the game did not end by its rules), without its
        termination, the rules or a limit, which replaying the events gives."""
        if result is None:
            self.result = None
            return
        data = result.to_json()
        del data["termination"]
        self.result = data

    def to_json(self) -> JSON:
        data: dict[str, Any] = {
            "format": FORMAT,
            "version": VERSION,
            "game": self.game,
            "options": self.options,
            "num_players": self.num_players,
            "players": self.players,
            "position": self.position,
            "events": [{"player": "chance" if p == CHANCE else p, "action": a} for p, a in self.events],
            "result": self.result,
        }
        if self.ended is not None:
            data["ended"] = self.ended
        if any(self.hints):
            data["hints"] = self.hints
        if self.takebacks:
            data["takebacks"] = self.takebacks
        return data

    def dumps(self) -> str:
        return json.dumps(self.to_json(), indent=1)

    def save(self, path: str | Path) -> None:
        """Write the record to ``path`` whole or not at all: a stopped run never leaves half a file."""
        write_text(path, self.dumps() + "\n")

    # --- reading ------------------------------------------------------------

    @classmethod
    def from_json(cls, data: Any) -> Record:
        """Check the shape of a record; raise :class:`RecordError` naming what is wrong."""
        if not isinstance(data, dict):
            raise RecordError("a record must be a JSON object")
        if data.get("format", FORMAT) != FORMAT:
            raise RecordError(f"not a tussle record (format {data.get('format')!r})")
        if data.get("version", VERSION) != VERSION:
            raise RecordError(
                f"record version {data.get('version')!r} is not {VERSION}, the one this tussle reads"
            )
        game = data.get("game")
        if not isinstance(game, str):
            raise RecordError("the record has no game id (key 'game')")
        options = data.get("options", {})
        if not isinstance(options, dict):
            raise RecordError("'options' must be an object")
        num_players = data.get("num_players", 2)
        if not isinstance(num_players, int) or isinstance(num_players, bool):
            raise RecordError("'num_players' must be an integer")
        players = data.get("players", [])
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise RecordError("'players' must be a list of strings")
        if players and len(players) != num_players:
            raise RecordError(f"'players' names {len(players)} players, but 'num_players' is {num_players}")
        position = data.get("position")
        if position is not None and not isinstance(position, str):
            raise RecordError("'position' must be a string or null")
        raw_events = data.get("events")
        if not isinstance(raw_events, list):
            raise RecordError("the record has no list of events (key 'events')")
        events: list[tuple[int, str]] = []
        for i, ev in enumerate(raw_events):
            if not isinstance(ev, dict) or set(ev) != {"player", "action"}:
                raise RecordError(f"event {i}: must be an object with 'player' and 'action'")
            who, action = ev["player"], ev["action"]
            if who == "chance":
                who = CHANCE
            elif not isinstance(who, int) or isinstance(who, bool) or not 0 <= who < num_players:
                raise RecordError(f"event {i}: bad player {who!r}")
            if not isinstance(action, str):
                raise RecordError(f"event {i}: the action must be a string")
            events.append((who, action))
        result = data.get("result")
        if result is not None and not isinstance(result, dict):
            raise RecordError("'result' must be an object or null")
        ended = data.get("ended")
        if ended is not None and (not isinstance(ended, dict) or result is not None):
            raise RecordError("'ended' must be an object, and only in a record without a result")
        hints = data.get("hints", [])
        if not isinstance(hints, list) or (hints and len(hints) != num_players):
            raise RecordError(f"'hints' must be a list of {num_players} counts")
        if not all(isinstance(h, int) and not isinstance(h, bool) and h >= 0 for h in hints):
            raise RecordError("'hints' must hold counts (whole numbers from 0)")
        takebacks = data.get("takebacks", [])
        if not isinstance(takebacks, list) or not all(
            isinstance(t, dict) and set(t) == {"seat", "at", "undone"} for t in takebacks
        ):
            raise RecordError("'takebacks' must be a list of objects with 'seat', 'at' and 'undone'")
        return cls(game, options, num_players, players, position, events, result, ended, hints, takebacks)

    @classmethod
    def loads(cls, text: str) -> Record:
        """Read a record from JSON text; raise :class:`RecordError` if it is not one.

        >>> Record.loads('{"game": "robo-pigs", "events": []}').game
        'robo-pigs'
        >>> Record.loads('{"game": ')
        Traceback (most recent call last):
        tussle.errors.RecordError: not valid JSON: Expecting value at line 1 column 10
        """
        return cls.from_json(parse_json(text, RecordError))

    @classmethod
    def load(cls, path: str | Path) -> Record:
        return cls.loads(read_text(path, RecordError))

    # --- replay -------------------------------------------------------------

    def initial_state(self) -> State[Any]:
        """The state the record starts from: the game's start, or its ``position``."""
        try:
            cls = game_class(self.game)
            for name in self.options:
                # Named first so that a key such as 'players' is an unknown
                # option, not a clash with the keyword argument.
                cls.info.option(name)
            game = cls(players=self.num_players, **self.options)
            if self.position is not None:
                check_position(self.position)
                return game.state_from_position(self.position)
            return game.new_initial_state()
        except TussleError as exc:
            raise RecordError(f"record header: {exc}") from None

    def replay(self) -> list[State[Any]]:
        """Every state of the game, from the start to after the last event.

        Raises :class:`RecordError` naming the first bad event's index, or a
        result that does not match the one stored. A long record is better
        walked with :meth:`walk`, which keeps one state at a time.
        """
        return [state.clone() for state in self.walk()]

    def walk(self) -> Iterator[State[Any]]:
        """The game's state at the start and after each event, as one state changed in place.

        Each state yielded is the same object, moved on by the next event: clone
        it to keep it. The record is checked as it goes (:meth:`replay`'s errors),
        the stored result once the last event is applied.
        """
        state = self.initial_state()
        yield state
        for i, (player, text) in enumerate(self.events):
            try:
                state.apply_str(player, text)
            except TussleError as exc:
                who = "chance" if player == CHANCE else f"player {player}"
                raise RecordError(f"event {i} ({who} {shorten(text)}): {exc}") from None
            if i == len(self.events) - 1:
                self._check_result(state)
            yield state
        if not self.events:
            self._check_result(state)

    def _check_result(self, state: State[Any]) -> None:
        """Raise :class:`RecordError` if the stored result is not the one ``state`` has."""
        if self.result is not None:
            actual = state.result()
            if actual is None:
                raise RecordError("the record gives a result but its events do not finish the game")
            expected = actual.to_json()
            # Every key must be there and agree; only the reason, a note for
            # people, and the termination, which the replay gives, may be left out.
            for key, value in expected.items():
                if key not in self.result and key not in ("reason", "termination"):
                    raise RecordError(f"the record's result has no {key!r}")
                if key in self.result and self.result[key] != value:
                    raise RecordError(
                        f"the record's result has {key} {self.result[key]!r}, but its events give {value!r}"
                    )
            unknown = sorted(set(self.result) - set(expected))
            if unknown:
                raise RecordError(f"the record's result has unknown keys: {', '.join(map(repr, unknown))}")

    def final_state(self) -> State[Any]:
        """The state after the last event, the whole record checked (one state kept at a time)."""
        last: State[Any] = deque(self.walk(), maxlen=1)[0]
        return last


def saved_game(
    path: str | Path, game_id: str, options: dict[str, Any], players: list[str]
) -> tuple[Record, Result] | None:
    """The finished game saved at ``path`` and its result, if it is a game of ``game_id`` with
    these (non-default) ``options`` and ``players`` (by seat); None if it is missing, unreadable
    or another game.

    A run started again after a stop takes such games instead of playing them again.
    """
    if not Path(path).is_file():
        return None
    try:
        record = Record.load(path)
        if (
            record.game != game_id
            or record.options != options
            or record.players != players
            or record.result is None
        ):
            return None
        # The result the replay gives (checked against the stored one): with its termination.
        result = record.final_state().result()
        return (record, result) if result is not None else None
    except (TussleError, KeyError, TypeError, ValueError):
        return None
