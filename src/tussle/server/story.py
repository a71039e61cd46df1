"""The game's story: every event of a game told in plain words, as each seat (or a spectator) may know it.

A game with secrets tells its events through its own hook (``Hooks.story``, a function in
its folder), which sees the states either side of an event and says only what the
viewer's observation shows by then: an opponent's secret choice is "chose a program"
until the rules reveal it, and the reveal is a line of the event that revealed it. A game
of perfect information needs no hook: each event is its notation, with who played it.
A game with secrets that declares none tells a viewer its own actions only, and of the
others that they acted.

Lines are made once per event for every viewer, so that the story only grows: a
connection is sent the whole of it once, then the lines of the latest events with each
view. The book also keeps a copy of the position every :data:`SNAPSHOT_EVERY` events,
so that looking back at any event (:meth:`StoryBook.position`) replays at most that
many events, however long the game.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from tussle.game import CHANCE, PUBLIC, Game, Information, State

#: A game's story hook: ``(before, player, action, after, viewer) -> lines``.
Teller = Callable[[State[Any], int, Any, State[Any], int], list[str]]

#: Events between two kept positions: the most a look back replays.
SNAPSHOT_EVERY = 32
#: The longest line kept, in characters (a hook's line is cut there, never sent whole).
MAX_LINE = 300


def plain(before: State[Any], player: int, text: str) -> str:
    """An event of a game of perfect information: who played it, and its notation."""
    if player == CHANCE:
        return f"chance: {text}"
    return f"{before.player_name(player)} played {text}"


def guarded(before: State[Any], player: int, text: str, viewer: int) -> str:
    """An event of a game with secrets and no story hook: only the viewer's own action is told."""
    if player == viewer:
        return f"{before.player_name(player)} played {text}"
    if player == CHANCE:
        return "chance played"
    return f"{before.player_name(player)} acted"


def ending(after: State[Any]) -> tuple[str, ...]:
    """The line an event that ends the game adds, for every viewer: every view's result says it to all."""
    result = after.result()
    if result is None or not result.reason:
        return ()
    return (f"the game is over: {result.reason}"[:MAX_LINE],)


class StoryBook:
    """The story of one game for each of its viewers, and kept positions to look back from."""

    def __init__(self, game: Game) -> None:
        self.viewers = (*range(game.num_players), PUBLIC)
        target = game.info.hooks.story
        self.teller: Teller | None = game.hook(target) if target else None
        self.perfect = game.info.information == Information.PERFECT
        self.state: State[Any] = game.new_initial_state()
        #: For each event: who played it, and its lines for each viewer (one tuple shared when
        #: every viewer is told the same).
        self.told: list[tuple[int, dict[int, tuple[str, ...]]]] = []
        #: snapshots[k]: the position after k * SNAPSHOT_EVERY events.
        self.snapshots: list[State[Any]] = [self.state.clone()]

    def follow(self, events: Sequence[tuple[int, str]]) -> None:
        """Tell the events not told yet (the game's events so far, in order)."""
        for player, text in events[len(self.told) :]:
            self._tell(player, text)

    def _tell(self, player: int, text: str) -> None:
        before = self.state
        lines: dict[int, tuple[str, ...]]
        if self.teller is None:
            if self.perfect:
                line: tuple[str, ...] = (plain(before, player, text)[:MAX_LINE],)
                lines = dict.fromkeys(self.viewers, line)
            else:
                lines = {v: (guarded(before, player, text, v)[:MAX_LINE],) for v in self.viewers}
            before.apply_str(player, text)
        else:
            after = before.clone()
            action = after.apply_str(player, text)
            lines = {
                v: tuple(line[:MAX_LINE] for line in self.teller(before, player, action, after, v))
                for v in self.viewers
            }
            self.state = after
        end = ending(self.state)
        if end:
            lines = {v: (*told, *end) for v, told in lines.items()}
        self.told.append((player, lines))
        if len(self.told) % SNAPSHOT_EVERY == 0:
            self.snapshots.append(self.state.clone())

    def entries(self, viewer: int, start: int = 0, stop: int | None = None) -> list[dict[str, Any]]:
        """The story as ``viewer`` may know it, of events ``start`` to ``stop``: one entry an event."""
        start = max(0, start)
        return [
            {
                "number": number,
                "player": "chance" if p == CHANCE else p,
                "lines": list(lines[viewer]),
            }
            for number, (p, lines) in enumerate(self.told[start:stop], start=start)
        ]

    def position(self, events: Sequence[tuple[int, str]], at: int) -> tuple[int, State[Any]]:
        """The position after event ``at`` as its seats were shown it, and that event's number.

        A position where chance is to act was never shown (the server draws on at once):
        the first one after it that was is given instead.
        """
        self.follow(events)
        count = at + 1
        state = self.snapshots[count // SNAPSHOT_EVERY].clone()
        for player, text in events[count // SNAPSHOT_EVERY * SNAPSHOT_EVERY : count]:
            state.apply_str(player, text)
        while state.to_act() == (CHANCE,) and count < len(events):
            player, text = events[count]
            state.apply_str(player, text)
            count += 1
        return count - 1, state
