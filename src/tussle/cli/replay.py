"""``tussle replay`` and ``tussle step``: check events and show the states they lead to.

``replay`` does it for a saved game record, ``step`` for events given on the
command line, from a game's start or a position.
"""

from __future__ import annotations

import json
from typing import Any

import click

from tussle.cli.common import (
    Place,
    describe_result,
    game_options_option,
    named,
    printable,
    read_documents,
    stdout_console,
    value_text,
)
from tussle.errors import TussleError, shorten
from tussle.game import CHANCE, State, check_position
from tussle.record import Record
from tussle.registry import game_info, load_game


@click.command()
@click.argument("file", type=Place(dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Print the result and final observations as JSON.")
def replay(file: str, as_json: bool) -> None:
    """Check the game record FILE and show it step by step.

    The whole record is checked first: an illegal, garbled or out-of-turn
    event rejects it with the event's index and the reason. The board is
    shown after each event (after each whole step when players act at once).

    \b
    Examples:
      tussle replay game.json
      tussle replay game.json --json
    """
    try:
        record = Record.load(file)
        # Checked whole first, then walked again to show it: one state is kept at a time.
        final = record.final_state()
    except TussleError as exc:
        raise TussleError(named(file, str(exc))) from None
    if as_json:
        click.echo(
            json.dumps(
                {
                    "game": record.game,
                    "options": record.options,
                    "num_players": record.num_players,
                    "players": record.players,
                    "position": record.position,
                    "events": len(record.events),
                    "finished": final.is_terminal(),
                    "result": r.to_json() if (r := final.result()) is not None else None,
                    "ended": record.ended,
                    "hints": record.hints or [0] * record.num_players,
                    "takebacks": record.takebacks,
                    "final_observations": [final.observation(p) for p in range(record.num_players)],
                }
            )
        )
        return
    console = stdout_console()

    def say(text: str) -> None:
        console.print(text, markup=False, highlight=False, soft_wrap=True)

    # Names come from the file: shown with their control characters escaped.
    names = [printable(name) for name in record.players]
    info = game_info(record.game)
    seats = ", ".join(
        f"{final.player_name(p)} = {names[p] if p < len(names) else '?'}" for p in range(record.num_players)
    )
    options = ", ".join(f"{k}={value_text(v)}" for k, v in record.options.items())
    say(f"{info.name}: {seats}" + (f"   options: {options}" if options else ""))
    if record.position is not None:
        say(f"from position {printable(record.position)}")
    if any(record.hints):
        asked = [f"{seat_name(final, p, names)} {n}" for p, n in enumerate(record.hints) if n]
        say(f"hints asked for: {', '.join(asked)}")
    walk = record.walk()
    state = next(walk)
    say(state.render())
    for i, (player, text) in enumerate(record.events):
        for back in record.takebacks:
            if back["at"] == i:
                say(_taken_back(final, back, names))
        acting_before = state.to_act()
        who = seat_name(state, player, names)
        state = next(walk)
        acting_after = state.to_act()
        say(f"event {i}: {who}: {printable(text)}")
        mid_step = len(acting_before) > 1 and bool(acting_after) and set(acting_after) < set(acting_before)
        if not mid_step:
            say(state.render())
    for back in record.takebacks:  # taken back where a later take-back went further back
        if back["at"] >= len(record.events):
            say(_taken_back(final, back, names))
    if final.is_terminal():
        say(describe_result(final, names))
    elif record.ended is not None:
        reason = printable(str(record.ended.get("reason", "")))
        say(f"The game was ended before its rules ended it: {reason}.")
    else:
        say("The record ends before the game does.")


def seat_name(state: State[Any], seat: int, names: list[str]) -> str:
    """The game's name of a seat and who sat there: ``fighter A (Ann)``."""
    return state.player_name(seat) + (f" ({names[seat]})" if 0 <= seat < len(names) else "")


def _taken_back(state: State[Any], back: dict[str, Any], names: list[str]) -> str:
    """A take-back, where the game went on from: who took back which events."""
    undone = [printable(str(e["action"])) for e in back["undone"]]
    count = f"{len(undone)} event{'s' if len(undone) != 1 else ''}"
    who = seat_name(state, back["seat"], names)
    return f"take-back at event {back['at']}: {who} took back {count}: {', '.join(undone)}"


# --- step -------------------------------------------------------------------


def _parse_event(text: str, num_players: int) -> tuple[int, str]:
    who, sep, action = text.partition(":")
    who = who.strip().lower()
    if not sep or not action.strip():
        raise TussleError(f"event {shorten(text)} is not PLAYER:ACTION (PLAYER is 0, 1, ... or chance)")
    if who == "chance":
        return CHANCE, action.strip()
    # A seat is one or two ASCII digits: int() would take other scripts' digits and huge numbers.
    if not (who.isascii() and who.isdigit() and len(who) <= 2 and int(who) < num_players):
        raise TussleError(
            f"event {shorten(text)}: {shorten(who)} is not a player from 0 to {num_players - 1} or chance"
        )
    return int(who), action.strip()


@click.command()
@click.argument("game_id", metavar="GAME")
@click.argument("events", nargs=-1, metavar="[PLAYER:ACTION]...")
@click.option(
    "--players",
    "num_players",
    type=int,
    default=None,
    help="Number of players (default: the fewest the game allows).",
)
@click.option("--position", default=None, help="Start from this position notation.")
@game_options_option
@click.option("--legal", is_flag=True, help="Also list the legal actions of everybody to act.")
@click.option("--json", "as_json", is_flag=True, help="Print the resulting state as JSON.")
def step(
    *,
    game_id: str,
    events: tuple[str, ...],
    num_players: int | None,
    position: str | None,
    options: dict[str, str],
    legal: bool,
    as_json: bool,
) -> None:
    """Apply events to a game's start (or to --position) and show the result.

    Each event is PLAYER:ACTION in the game's notation, PLAYER being a seat
    number or ``chance``. The first garbled, illegal or out-of-turn event stops
    with a one-line error naming it. A tool for checking positions, rulings and
    notation without playing a whole game.

    \b
    Examples:
      tussle step robo-pigs "0:F ^ TR v H" "1:\\ \\ F ^ /"
      tussle step robo-pigs --position "e7W0 d5N1 2" --legal
    """
    game = load_game(game_id, players=num_players, **read_documents(game_id, options))
    if position is not None:
        check_position(position)
    state = game.state_from_position(position) if position is not None else game.new_initial_state()
    for i, text in enumerate(events):
        player, action = _parse_event(text, game.num_players)
        try:
            state.apply_str(player, action)
        except TussleError as exc:
            raise TussleError(f"event {i} ({shorten(text)}): {exc}") from None
    acting = state.to_act()
    legal_lists: dict[str, Any] = {}
    if legal:
        for p in acting:
            if p == CHANCE:
                legal_lists["chance"] = [
                    [state.action_to_str(CHANCE, o), pr] for o, pr in state.chance_outcomes()
                ]
                continue
            actions = state.legal_actions(p)
            shown = [state.action_to_str(p, a) for a in (actions[i] for i in range(min(len(actions), 200)))]
            legal_lists[str(p)] = {"count": len(actions), "first": shown}
    if as_json:
        pos: str | None
        try:
            pos = state.position()
        except TussleError:
            pos = None
        result = state.result()
        click.echo(
            json.dumps(
                {
                    "game": game.info.id,
                    "to_act": ["chance" if p == CHANCE else p for p in acting],
                    "position": pos,
                    "result": result.to_json() if result is not None else None,
                    "legal": legal_lists if legal else None,
                }
            )
        )
        return
    console = stdout_console()
    console.print(state.render(), markup=False, highlight=False, soft_wrap=True)
    who = ", ".join(state.player_name(p) for p in acting) or "nobody (the game is over)"
    console.print(f"to act: {who}", markup=False)
    for key, value in legal_lists.items():
        if key == "chance":
            console.print("chance: " + ", ".join(f"{o} ({p:.3g})" for o, p in value), markup=False)
        else:
            more = f" (first {len(value['first'])} shown)" if value["count"] > len(value["first"]) else ""
            name = state.player_name(int(key))
            console.print(f"{name}: {value['count']} legal actions{more}", markup=False)
            console.print("  " + " | ".join(value["first"]), markup=False, soft_wrap=True)
