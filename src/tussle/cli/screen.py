"""What ``tussle play`` shows around a local game: the computer thinking, the time each side used, the
move list.

The thinking line and the times are for a person at a terminal only: they change from one run to the
next, so output that is no terminal (a pipe, a transcript, a test) stays the same for the same seed.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from rich.console import Console
from rich.text import Text

from tussle.agents.base import Agent, PlayerView
from tussle.agents.human import Command, HumanAgent
from tussle.cli.common import _duration
from tussle.game import CHANCE, Information, State


class Clock:
    """Each seat's thinking time so far: from the moment it is asked for an action to its answer."""

    def __init__(self, seats: int) -> None:
        self.used = [0.0] * seats

    def line(self, state: State[Any], names: Sequence[str], you: int | None) -> str:
        """``Time used: White (you) 12 s, Black (hard) 3 s``.

        >>> from tussle import load_game
        >>> clock = Clock(2)
        >>> clock.used = [12.4, 125.0]
        >>> clock.line(load_game("tank-chess").new_initial_state(), ["human", "hard"], 0)
        'Time used: White (you) 12 s, Black (hard) 2 min 5 s'
        """
        parts = []
        for seat, used in enumerate(self.used):
            who = "you" if seat == you else names[seat]
            parts.append(f"{state.player_name(seat)} ({who}) {_duration(used)}")
        return "Time used: " + ", ".join(parts)


class Thinking:
    """``hard (Black) is thinking... 3 s``, counting up each time rich draws it (a live status line)."""

    def __init__(self, who: str) -> None:
        self.who = who
        self.start = time.monotonic()

    def __rich__(self) -> Text:
        return Text(f"{self.who} is thinking... {int(time.monotonic() - self.start)} s")


class Timed(Agent):
    """``inner``, with its thinking time added to ``clock``; with ``thinking`` (a name), a live
    ``NAME is thinking... N s`` on ``console`` while it chooses, gone once it has chosen.
    """

    def __init__(self, inner: Agent, clock: Clock, console: Console, thinking: str | None) -> None:
        Agent.__init__(self, inner.game, inner.player, inner.seed, inner.spec)
        self.inner = inner
        self.clock = clock
        self.console = console
        self.thinking = thinking
        self.interactive = inner.interactive

    def act(self, view: PlayerView) -> Any:
        start = time.monotonic()
        try:
            if self.thinking is None:
                return self.inner.act(view)
            with self.console.status(Thinking(self.thinking), spinner="dots"):
                return self.inner.act(view)
        finally:
            self.clock.used[self.player] += time.monotonic() - start


def timed(
    agents: Sequence[Agent], state: State[Any], names: Sequence[str], console: Console, clock: Clock
) -> list[Agent]:
    """The agents to play with: each timed, the computer's showing that it thinks on a terminal."""
    live = console.is_terminal
    return [
        Timed(
            agent,
            clock,
            console,
            f"{names[seat]} ({state.player_name(seat)})" if live and not agent.interactive else None,
        )
        for seat, agent in enumerate(agents)
    ]


def move_lines(
    state: State[Any], events: Sequence[tuple[int, str]], names: Sequence[str], you: int
) -> list[str]:
    """The moves so far, numbered, in the game's notation, as seat ``you`` may know them.

    In a game of perfect information that is every event, chance's too; with hidden information only
    ``you``'s own actions (the others' are secrets, and so are chance's draws: a shuffle, a die
    before it is shown), which the view tells the effects of.

    >>> from tussle import load_game
    >>> state = load_game("tank-chess").new_initial_state()
    >>> print("\\n".join(move_lines(state, [(0, "Lb2-b3N"), (1, "lb15-b14S")], ["human", "hard"], 0)))
      1. White (you): Lb2-b3N
      2. Black (hard): lb15-b14S
    """
    perfect = state.game.info.information == Information.PERFECT
    lines: list[str] = []
    for player, text in events:
        if not perfect and player != you:
            continue
        if player == CHANCE:
            who = "chance"
        else:
            who = f"{state.player_name(player)} ({'you' if player == you else names[player]})"
        lines.append(f"{len(lines) + 1:3}. {who}: {text}")
    if not lines:
        return ["No moves yet." if perfect else "None of your moves yet."]
    if not perfect:
        lines.insert(0, "Your moves (the others' are secret in this game; your view shows what they did):")
    return lines


def moves_command(
    human: HumanAgent, state: State[Any], events: list[tuple[int, str]], names: Sequence[str]
) -> Command:
    """The prompt's ``moves``: :func:`move_lines` of ``events`` (the record's list, as it grows)."""

    def run(rest: str) -> None:
        for line in move_lines(state, events, names, human.player):
            human.say(line)

    return Command("moves", "the moves so far, numbered, in the game's notation", run)
