"""``tussle play``: a game in the terminal, against the computer or friends, or watched."""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click
from rich.console import Console

from tussle.agents import make_agent, parse_spec
from tussle.agents.base import Agent
from tussle.agents.human import HumanAgent, PlayerQuitError, wipe
from tussle.cli import play_session, screen
from tussle.cli.common import (
    EXIT_INTERRUPTED,
    SEED,
    Place,
    computer_agent,
    describe_result,
    game_options_option,
    load_with_options,
    split_players,
    stdout_console,
    without_result_line,
)
from tussle.colours import colour_console, styled, wanted
from tussle.game import CHANCE, PUBLIC, Information, State, check_position
from tussle.record import Record
from tussle.registry import game_info
from tussle.runner import play_game


class _Narrator:
    """Shows the people at the screen what happened after each event, and only what they may see.

    With one person playing, that is their own observation (plus the notation
    of the other players' events when the game has perfect information).
    With nobody playing, everything is shown. When several people share the
    screen of a game with hidden information nothing is shown between their
    turns: each sees their own view after the screen is passed.
    """

    def __init__(
        self,
        console: Console,
        state: State[Any],
        names: Sequence[str],
        humans: Sequence[HumanAgent],
        record: Record,
        *,
        colour: bool = False,
        clock: screen.Clock | None = None,
    ) -> None:
        perfect = state.game.info.information == Information.PERFECT
        self.console = console
        self.colour = colour
        #: Each side's time used, shown after each move (on a terminal; None: not shown).
        self.clock = clock
        self.names = names
        self.record = record
        self.viewer = humans[0] if len(humans) == 1 or (humans and perfect) else None
        self.spectator = not humans
        self.show_moves = self.spectator or perfect
        self.acting = state.to_act()
        self.pending: list[str] = []

    def say(self, text: str) -> None:
        self.console.print(text, markup=False, highlight=False, soft_wrap=True)

    def restart(self, state: State[Any]) -> None:
        """Go on from ``state``, a take-back's: nothing pending, and the view shown again."""
        self.acting = state.to_act()
        self.pending.clear()
        if self.viewer is not None:
            self.viewer.last_shown = None

    def show_view(self, state: State[Any]) -> None:
        """The viewer's own view, in colour where the screen has it (nothing when no seat is the viewer)."""
        if self.viewer is None:
            return
        seat = self.viewer.player
        text = _without_result_line(state.observation_text(seat), state)
        self.viewer.show_view(state.game, text, state.observation(seat), seat)

    def show_all(self, state: State[Any]) -> None:
        """The whole state (nobody plays, or all have seen their views), coloured as the public view."""
        text = _without_result_line(state.render(), state)
        if self.colour:
            self.console.print(styled(state.game, text, state.observation(PUBLIC), PUBLIC), soft_wrap=True)
        else:
            self.say(text)

    def show_clock(self, state: State[Any]) -> None:
        if self.clock is not None:
            you = self.viewer.player if self.viewer is not None else None
            self.say(self.clock.line(state, self.names, you))

    def __call__(self, state: State[Any], player: int, text: str) -> None:
        before, self.acting = self.acting, state.to_act()
        simultaneous = player in before and len(before) > 1
        mid_step = simultaneous and bool(self.acting) and set(self.acting) < set(before)
        own = self.viewer is not None and player == self.viewer.player
        if self.show_moves and not own:
            name = self.names[player] if 0 <= player < len(self.names) else ""
            who = f"{state.player_name(player)} ({name})" if name else state.player_name(player)
            self.pending.append(f"{who}: {text}")
        # Wait until a simultaneous step resolves and a run of chance events ends.
        if mid_step or self.acting == (CHANCE,):
            return
        for line in self.pending:
            self.say(line)
        self.pending.clear()
        shown = self.spectator or (self.viewer is not None and (not own or simultaneous))
        if self.spectator:
            self.show_all(state)
        elif self.viewer is not None and (not own or simultaneous):
            self.show_view(state)
        if shown and player != CHANCE:
            self.show_clock(state)  # after a move (chance takes no time)

    def finish(self, state: State[Any], hot_seat: bool) -> None:
        for line in self.pending:
            self.say(line)
        self.pending.clear()
        # The game's view ends with its own line on the result; the line below says the same
        # with each seat's agent, so the view's is left out: one game-over line, not two.
        if self.viewer is not None:
            self.show_view(state)
        elif hot_seat:
            # The game is over and its whole state is shown, but not the lines the last
            # player typed: the scrollback goes with the screen, as at every pass.
            wipe(self.console)
            self.show_all(state)
        self.say(describe_result(state, self.names))


def _without_result_line(text: str, state: State[Any]) -> str:
    """``text`` less the line that tells the result, once the game is over (:func:`without_result_line`)."""
    return without_result_line(text, state.result())


def _seeds(seed: int | None, count: int) -> list[int]:
    rng = random.Random(seed)
    return [rng.getrandbits(63) for _ in range(count)]


@click.command()
@click.argument("game", required=False)
@click.option(
    "--players",
    "-p",
    metavar="A,B,...",
    help="Agent specs, one per seat in order (default: human, then the computer). "
    "Their number sets the number of players.",
)
@click.option("--seed", type=SEED, default=None, help="Seed for chance and the computer players.")
@game_options_option
@click.option("--position", metavar="TEXT", help="Start from this position (games with a position notation).")
@click.option(
    "--color/--no-color",
    "color",
    default=None,
    help="Boards and cards in colour, or not (default: on a colour terminal, unless NO_COLOR is set).",
)
@click.option(
    "--record",
    "record_file",
    type=Place(dir_okay=False, writable=True),
    help="Save the game record (JSON) to this file, even if the game is left unfinished.",
)
@click.option(
    "--resume",
    "resume_file",
    metavar="RECORD",
    help="Go on with the game saved in RECORD (save at the prompt, or --record), with its seats and agents.",
)
@click.option(
    "--seat",
    "seat_link",
    metavar="LINK",
    help="Play a seat of a game on a tussle server: its invite link, http://HOST:PORT/play/GAME#TOKEN "
    "(without #TOKEN: watch the game). No GAME then. '-' asks for the link without showing it (it stays "
    "out of the shell's history) and clears the terminal when you leave: for seats sharing a terminal.",
)
@click.option(
    "--server",
    metavar="URL",
    help="The server of --seat, http://HOST:PORT: only for a link that names none (GAME#TOKEN).",
)
@click.pass_context
def play(
    ctx: click.Context,
    *,
    game: str | None,
    players: str | None,
    seed: int | None,
    options: dict[str, str],
    position: str | None,
    record_file: str | None,
    seat_link: str | None,
    server: str | None,
    color: bool | None,
    resume_file: str | None = None,
) -> None:
    """Play GAME in the terminal, against the computer or friends, or a seat of a game on a server.

    Type actions in the game's notation; ? lists the legal actions, quit
    stops. Each person sees only their own view. Two or more humans share the
    screen (hot seat); in games with hidden information the screen is hidden
    between turns. With no human players you watch the game.

    With --seat LINK you play the seat of an invite link on a tussle server
    (docs/server.md), with the same view and prompt; quit leaves, and the
    same link brings you back.

    \b
    Examples:
      tussle play robo-pigs                          you against the computer
      tussle play robo-pigs --players random,human   you in the second seat
      tussle play robo-pigs -p human,human           two people, one screen
      tussle play robo-pigs -p rule,random --seed 3  watch two computer players
      tussle play robo-pigs -o extra_x=true --record game.json
      tussle play --resume game.json                 go on with a saved game
      tussle play --seat http://127.0.0.1:8000/play/9c1e...#TOKEN
    """
    if seat_link is not None:
        local: dict[str, object] = {
            "GAME": game,
            "--players": players,
            "--seed": seed,
            "--position": position,
            "--option": options or None,
            "--record": record_file,
            "--resume": resume_file,
        }
        given = [name for name, value in local.items() if value is not None]
        if given:
            raise click.UsageError(f"--seat plays the game of the link: leave out {', '.join(given)}", ctx)
        _play_online(seat_link, server, color)
        return
    if server is not None:
        raise click.UsageError("--server goes with --seat LINK", ctx)
    resumed: Record | None = None
    if resume_file is not None:
        clash = {"GAME": game, "--players": players, "--position": position, "--option": options or None}
        if any(value is not None for value in clash.values()):
            named = ", ".join(name for name, value in clash.items() if value is not None)
            raise click.UsageError(f"--resume plays the record's game and seats: leave out {named}", ctx)
        resumed, state = play_session.resumed(resume_file)
        game = resumed.game
    if game is None:
        raise click.UsageError("missing argument 'GAME' (or --seat LINK to play on a server)", ctx)
    info = game_info(game)
    if resumed is not None:
        the_game = state.game
        specs = resumed.players or ["human"] + [computer_agent(game)] * (the_game.num_players - 1)
    else:
        default = ["human"] + [computer_agent(game)] * (info.min_players - 1)
        specs = split_players(players) if players else default
        the_game = load_with_options(game, len(specs), options)
        if position is not None:
            check_position(position)
        state = the_game.new_initial_state() if position is None else the_game.state_from_position(position)
    if record_file is not None and not Path(record_file).resolve().parent.is_dir():
        raise click.BadParameter(f"no directory for {record_file!r}", param_hint="'--record'")
    console = stdout_console()
    if color:
        console = colour_console(console)
    colour = wanted(console, color)
    seeds = _seeds(seed, len(specs) + 1)
    humans = sum(1 for s in specs if parse_spec(s)[0] == "human")
    hot_seat = humans >= 2 and info.information != Information.PERFECT
    agents: list[Agent] = []
    for seat, spec in enumerate(specs):
        name, params = parse_spec(spec)
        if name == "human":
            agents.append(
                HumanAgent(
                    the_game,
                    seat,
                    seeds[seat + 1],
                    spec=spec,
                    params=params,
                    console=console,
                    label=state.player_name(seat),
                    hot_seat=hot_seat,
                )
            )
        else:
            agents.append(make_agent(spec, the_game, seat, seed=seeds[seat + 1]))
    human_agents = [a for a in agents if isinstance(a, HumanAgent)]
    for human in human_agents:
        human.colour = colour
    record = resumed or Record.start(the_game, specs, position=None if position is None else state.position())
    session_rng = random.Random(seeds[0])
    save_name = record_file or resume_file or play_session.default_save_name(the_game.info.id)
    for human in human_agents:
        play_session.add_commands(human, record, specs, save_name, session_rng)
        human.commands["moves"] = screen.moves_command(human, state, record.events, specs)
    clock = screen.Clock(len(agents))
    shown_clock = clock if console.is_terminal else None
    narrator = _Narrator(console, state, specs, human_agents, record, colour=colour, clock=shown_clock)

    seats = ", ".join(f"{state.player_name(p)} = {spec}" for p, spec in enumerate(specs))
    console.print(f"{info.name}: {seats}", markup=False)
    if len(human_agents) == 1:
        console.print(f"You play {state.player_name(human_agents[0].player)}.", markup=False)
    if human_agents:
        console.print("Type ? for the legal actions, quit to stop.", markup=False)
    # A game that opens with chance events is shown once they are done.
    if not state.is_chance() and (narrator.spectator or narrator.viewer is not None):
        if narrator.viewer is not None:
            narrator.show_view(state)
        else:
            narrator.show_all(state)

    def save(final: Record) -> None:
        if record_file is not None:
            final.save(record_file)

    chance_seed = seeds[0]
    try:
        while True:
            try:
                final_state, final_record = play_game(
                    the_game,
                    screen.timed(agents, state, specs, console, clock),
                    seed=chance_seed,
                    names=specs,
                    state=state.clone(),
                    on_event=narrator,
                    record=record,
                )
                break
            except play_session.TakeBackError as back:
                undone = len(record.events) - back.at
                record.take_back(back.seat, back.at)
                state = play_session.replayed(the_game, record)
                # Chance goes on from a fresh draw: taking back does not show what it will bring.
                chance_seed = session_rng.getrandbits(63)
                narrator.restart(state)
                narrator.say(f"Taken back: your last move and what followed ({undone} events).")
                narrator.show_view(state)
    except PlayerQuitError as exc:
        save(record)
        saved = f"; record saved to {record_file}" if record_file else ""
        click.echo(f"tussle: game abandoned ({exc}){saved}", err=True)
        return
    except (KeyboardInterrupt, click.Abort):
        save(record)
        saved = f"; record saved to {record_file}" if record_file else ""
        click.echo(f"\ntussle: interrupted, game abandoned{saved}", err=True)
        raise click.exceptions.Exit(EXIT_INTERRUPTED) from None
    except Exception:
        save(record)  # whatever stopped the game, what was played is kept
        raise
    narrator.finish(final_state, hot_seat)
    save(final_record)
    if record_file is not None:
        console.print(f"Record saved to {record_file}", markup=False)


def _play_online(seat_link: str, server: str | None, color: bool | None) -> None:
    """``tussle play --seat LINK``: the seat of an invite link, at this terminal.

    With ``-`` the link is asked for without echo, so that neither the screen nor
    the shell's history holds its token, and the terminal's screen and scrollback
    are wiped when the seat leaves: the next person at the terminal finds nothing
    of this seat's (its view, what it typed, its token).
    """
    import getpass

    from tussle.client import parse_link, play_online

    shared = seat_link == "-"
    if shared:
        try:
            seat_link = getpass.getpass("Your seat's link (not shown): ").strip()
        except (EOFError, KeyboardInterrupt):
            raise click.exceptions.Exit(EXIT_INTERRUPTED) from None
    link = parse_link(seat_link, server)
    kept = "; the seat stays yours: the same command brings you back" if link.token else ""
    if shared:
        kept = "; the seat stays yours: give its link again to come back" if link.token else ""
    console = stdout_console()
    if color:
        console = colour_console(console)
    try:
        play_online(link, console=console, colour=wanted(console, color))
    except PlayerQuitError:
        _leave(console, shared)
        click.echo(f"tussle: left game {link.game}{kept}", err=True)
        return
    except (KeyboardInterrupt, click.Abort):
        _leave(console, shared)
        click.echo(f"\ntussle: interrupted, left game {link.game}{kept}", err=True)
        raise click.exceptions.Exit(EXIT_INTERRUPTED) from None
    if shared:
        click.pause("The game is over: press any key to clear the screen.")
        wipe(console)


def _leave(console: Console, shared: bool) -> None:
    """A seat sharing the terminal leaves nothing on it for the next person."""
    if shared:
        wipe(console)
