"""What ``tussle play`` adds at a local game's prompt: ``undo``, ``hint`` and ``save``, and ``--resume``.

A take-back is raised out of the game (:class:`TakeBackError`) and the game goes on from
the record cut back (:meth:`~tussle.record.Record.take_back` keeps what was taken back);
a hint asks a computer player, given only the seat's own view, what it would play;
``save`` writes the record so far, which ``tussle play --resume`` goes on from.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tussle.agents import make_agent, parse_spec
from tussle.agents.human import Command, HumanAgent
from tussle.errors import RecordError, TussleError
from tussle.game import CHANCE, Game, State
from tussle.record import Record


class TakeBackError(Exception):
    """``seat`` takes back its last move and what followed: the record keeps its first ``at`` events."""

    def __init__(self, seat: int, at: int) -> None:
        super().__init__(f"seat {seat} takes back from event {at}")
        self.seat = seat
        self.at = at


def replayed(game: Game, record: Record) -> State[Any]:
    """The state ``record``'s events lead to in ``game`` (the game the agents play)."""
    state = game.new_initial_state() if record.position is None else game.state_from_position(record.position)
    for player, text in record.events:
        state.apply_str(player, text)
    return state


def take_back_point(record: Record, seat: int) -> int | None:
    """How many events stay when ``seat`` takes back its last move (None: it has made none).

    The move goes, and everything after it (the replies, chance); at a step where
    several players choose at once, the others' choices of that step go too, so that
    the step is played again whole.
    """
    mine = [i for i, (player, _) in enumerate(record.events) if player == seat]
    if not mine:
        return None
    acting = [state.to_act() for state, _ in zip(record.walk(), record.events, strict=False)]
    at = mine[-1]
    while at > 0 and record.events[at - 1][0] not in (CHANCE, seat) and seat in acting[at - 1]:
        at -= 1
    return at


def resumed(path: str) -> tuple[Record, State[Any]]:
    """The record saved at ``path`` and the state it leads to, checked; one-line errors name the file."""
    try:
        record = Record.load(path)
        state = record.final_state()
    except RecordError as exc:
        message = str(exc)
        raise TussleError(message if path in message else f"{path}: {message}") from None
    if record.result is not None or record.ended is not None or not state.to_act():
        raise TussleError(f"{path}: the game is over, nothing to resume (tussle replay {path} shows it)")
    return record, state


def default_save_name(game_id: str) -> str:
    """A file name for ``save`` without one: the game and the time, in the current folder."""
    return f"{game_id}-{time.strftime('%Y%m%d-%H%M%S')}.json"


def add_commands(
    human: HumanAgent,
    record: Record,
    specs: Sequence[str],
    save_name: str,
    rng: random.Random,
) -> None:
    """Give ``human``'s prompt ``undo``, ``hint`` and ``save`` over the game of ``record``."""
    seat = human.player
    computers = [spec for spec in specs if parse_spec(spec)[0] != "human"]
    others = [p for p, spec in enumerate(specs) if p != seat and parse_spec(spec)[0] == "human"]
    advisor = computers[0] if computers else "medium"

    def undo(rest: str) -> None:
        if others:
            human.say("  undo takes back a move against the computer only; here another person plays too.")
            return
        at = take_back_point(record, seat)
        if at is None:
            human.say("  You have made no move to take back yet.")
            return
        raise TakeBackError(seat, at)

    def hint(rest: str) -> None:
        view = human.view
        spec = rest or advisor
        if view is None:
            return
        if parse_spec(spec)[0] == "human":
            human.say("  A hint comes from a computer player: hint, or hint SPEC (hint hard).")
            return
        try:
            helper = make_agent(spec, view.game, seat, seed=rng.getrandbits(63))
            human.say(f"  {spec} is thinking...")
            text = view.action_to_str(helper.act(view))
        except TussleError as exc:
            human.say(f"  No hint: {exc}")
            return
        record.count_hint(seat)
        human.say(f"  Hint ({spec}): {text}")

    def save(rest: str) -> None:
        path = rest or save_name
        if not Path(path).resolve().parent.is_dir():
            human.say(f"  Not saved: no folder for {path}")
            return
        try:
            record.save(path)
        except TussleError as exc:
            human.say(f"  Not saved: {exc}")
            return
        human.say(f"  Saved to {path}; tussle play --resume {path} goes on from here.")

    human.commands["undo"] = Command(
        "undo", "take back your last move and the computer's reply (against the computer only)", undo
    )
    human.commands["hint"] = Command(
        "hint [SPEC]", f"what {advisor} would play here (or another computer player: hint hard)", hint
    )
    human.commands["save"] = Command(
        "save [FILE]", f"save the game so far (to {save_name}); tussle play --resume FILE goes on", save
    )
