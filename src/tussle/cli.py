"""The ``tussle`` command line: list games, play one, run matches, replay records.

Every command works for every registered game through the core API only;
nothing here knows a game's rules. Bad input of any kind (an unknown game,
agent or option, a garbled record, a usage mistake) ends with one line on
standard error, ``tussle: error: <message>``, and exit code 2; never a
traceback.

>>> from click.testing import CliRunner
>>> result = CliRunner().invoke(cli, ["games"])
>>> result.exit_code, "robo-pigs" in result.output
(0, True)
>>> result = CliRunner().invoke(cli, ["info", "no-such-game"])
>>> result.exit_code
2
"""

from __future__ import annotations

import difflib
import json
import random
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

import click
from rich import box
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table
from rich.text import Text

from tussle import __version__
from tussle.agents import agent_names, make_agent, parse_spec
from tussle.agents.base import Agent
from tussle.agents.human import HumanAgent, PlayerQuitError
from tussle.errors import AgentError, TussleError
from tussle.game import CHANCE, Game, GameInfo, Information, Option, State
from tussle.record import Record
from tussle.registry import game_ids, game_info, load_game, simulation_options
from tussle.runner import GameSummary, MatchSummary, play_game, run_match

#: Exit codes: success (a game stopped with quit counts), bad input of any kind, Ctrl-C.
EXIT_OK = 0
EXIT_ERROR = 2
EXIT_INTERRUPTED = 130

T = TypeVar("T")


# --- the command group and its error handling -------------------------------


def _one_line(message: str) -> str:
    return " ".join(message.split())


def _usage_message(exc: click.ClickException) -> str:
    message = _one_line(exc.format_message()).rstrip(".")
    if message[:1].isupper() and message[1:2].islower():
        message = message[0].lower() + message[1:]
    ctx = getattr(exc, "ctx", None)
    if isinstance(exc, click.UsageError) and ctx is not None:
        message += f" (see {ctx.command_path} --help)"
    return message


class TussleGroup(click.Group):
    """A click group that turns every error into one line and exit code 2."""

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        code = EXIT_OK
        message = ""
        try:
            returned = super().main(args, prog_name or "tussle", complete_var, False, **extra)
            if isinstance(returned, int) and not isinstance(returned, bool):
                code = returned
        except click.ClickException as exc:
            message, code = f"error: {_usage_message(exc)}", EXIT_ERROR
        except TussleError as exc:
            message, code = f"error: {_one_line(str(exc))}", EXIT_ERROR
        except click.Abort:
            message, code = "interrupted", EXIT_INTERRUPTED
        except OSError as exc:
            where = f" {exc.filename}" if exc.filename else ""
            message, code = f"error: cannot use{where}: {exc.strerror or exc}", EXIT_ERROR
        if message:
            click.echo(f"tussle: {message}", err=True)
        if standalone_mode:
            sys.exit(code)
        return code

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        name = args[0] if args else ""
        if name and not name.startswith("-") and self.get_command(ctx, name) is None:
            close = difflib.get_close_matches(name, self.list_commands(ctx), n=1)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            raise click.UsageError(f"no such command {name!r}{hint}", ctx)
        return super().resolve_command(ctx, args)


@click.group(
    cls=TussleGroup,
    name="tussle",
    invoke_without_command=True,
    context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
)
@click.version_option(__version__, "--version", "-V", prog_name="tussle", message="%(prog)s %(version)s")
@click.pass_context
def cli(ctx: click.Context) -> None:
    """Play, study and build AI for fighting tabletop games.

    \b
    Examples:
      tussle games                          list the games
      tussle info robo-pigs                 rules summary, options and agents of one game
      tussle play robo-pigs                 play against the computer
      tussle match robo-pigs rule random -n 200 --json
      tussle replay game.json               check a record and show it step by step
    """
    if ctx.invoked_subcommand is None:
        click.echo(ctx.get_help())


# --- shared helpers (other commands may use them) ---------------------------


def options_dict(pairs: Iterable[str]) -> dict[str, str]:
    """``KEY=VALUE`` texts (from ``--option``) as a dict; the game then checks names and values.

    >>> options_dict(["round_limit=20", "extra-x=true"])
    {'round_limit': '20', 'extra_x': 'true'}
    """
    out: dict[str, str] = {}
    for text in pairs:
        key, eq, value = text.partition("=")
        key = key.strip().replace("-", "_")
        if not eq or not key:
            raise click.BadParameter(f"{text!r} is not KEY=VALUE (for example round_limit=20)")
        if key in out:
            raise click.BadParameter(f"option {key} is given twice")
        out[key] = value.strip()
    return out


def _check_options(ctx: click.Context, param: click.Parameter, value: tuple[str, ...]) -> dict[str, str]:
    return options_dict(value)


def game_options_option(func: Callable[..., T]) -> Callable[..., T]:
    """The repeatable ``--option KEY=VALUE`` flag; the command gets a dict named ``options``."""
    return click.option(
        "--option",
        "-o",
        "options",
        metavar="KEY=VALUE",
        multiple=True,
        callback=_check_options,
        help="Set a game option (repeat for several); `tussle info GAME` lists them.",
    )(func)


#: ``--jobs``/``-j`` of the commands that play many games; the command gets ``jobs``.
jobs_option = click.option(
    "--jobs",
    "-j",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help="Processes to use; the results are the same for any number.",
)


def games_option(default: int, help_text: str) -> Callable[[Callable[..., T]], Callable[..., T]]:
    """``-n``/``--games N`` with its own default and help; the command gets ``n``."""
    return click.option(
        "-n",
        "--games",
        "n",
        type=click.IntRange(min=1),
        metavar="N",
        default=default,
        show_default=True,
        help=help_text,
    )


def split_players(text: str) -> list[str]:
    """Split a comma-separated list of agent specs, keeping each spec's own ``k=v,k=v`` parameters.

    >>> split_players("human, mcts:time=0.5,c=1.4,random")
    ['human', 'mcts:time=0.5,c=1.4', 'random']
    """
    specs: list[str] = []
    for part in text.split(","):
        part = part.strip()
        if specs and "=" in part and ":" not in part:
            specs[-1] += "," + part  # another parameter of the spec before
        else:
            specs.append(part)
    if any(not s for s in specs):
        raise AgentError(f"--players {text!r}: an empty agent spec (write e.g. human,random)")
    return specs


def stdout_console() -> Console:
    return Console(highlight=False, soft_wrap=True)


def stderr_console() -> Console:
    return Console(stderr=True, highlight=False)


@contextmanager
def progress(total: int, label: str) -> Iterator[Callable[[], None]]:
    """A progress bar on standard error when it is a terminal; yields the function that advances it."""
    if not sys.stderr.isatty():
        yield lambda: None
        return
    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=stderr_console(),
        transient=True,
    ) as bar:
        task = bar.add_task(label, total=total)
        yield lambda: bar.advance(task)


def load_with_options(game_id: str, players: int, options: dict[str, str]) -> Game:
    """The game with ``players`` seats and the ``--option`` values; every name is checked first.

    >>> load_with_options("robo-pigs", 2, {"round_limit": "5"}).options["round_limit"]
    5
    """
    info = game_info(game_id)
    for name in options:
        info.option(name)  # an unknown name (even 'players') is a one-line OptionError
    return load_game(game_id, players=players, **options)


def computer_agent(game_id: str) -> str:
    """The default computer opponent: the ``medium`` level (docs/agents.md), which every game has."""
    return "medium" if "medium" in agent_names(game_id) else "random"


def describe_result(state: State, names: Sequence[str]) -> str:
    """One line saying how the game ended, with each seat's agent."""
    result = state.result()
    if result is None:
        return "The game is not over."

    def who(p: int) -> str:
        name = names[p] if p < len(names) else ""
        return f"{state.player_name(p)} ({name})" if name else state.player_name(p)

    reason = f": {result.reason}" if result.reason else ""
    if result.winner is not None:
        line = f"{who(result.winner)} wins{reason}"
        return line[:1].upper() + line[1:]
    if all(place == 1 for place in result.ranking):
        return f"Draw{reason}"
    order = sorted(range(len(result.ranking)), key=lambda p: result.ranking[p])
    places = ", ".join(f"{result.ranking[p]}. {who(p)}" for p in order)
    return f"Places: {places}{reason}"


def _cells(*values: str) -> list[Text]:
    # Plain Text, so that a square bracket in a game's help is not read as rich markup.
    return [Text(v) for v in values]


def _players_text(info: GameInfo) -> str:
    if info.min_players == info.max_players:
        return str(info.min_players)
    return f"{info.min_players}-{info.max_players}"


def _allowed(opt: Option) -> str:
    if opt.kind == "bool":
        return "true, false"
    if opt.kind == "choice":
        return ", ".join(opt.choices)
    if opt.kind == "int":
        low = "" if opt.minimum is None else str(opt.minimum)
        high = "" if opt.maximum is None else str(opt.maximum)
        return f"integer {low}..{high}" if low or high else "any integer"
    return "any text"


def _value_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _info_json(info: GameInfo) -> dict[str, Any]:
    return {
        "id": info.id,
        "name": info.name,
        "description": info.description,
        "min_players": info.min_players,
        "max_players": info.max_players,
        "dynamics": str(info.dynamics),
        "chance": str(info.chance),
        "information": str(info.information),
        "has_position": info.has_position,
        "options": [
            {
                "name": o.name,
                "type": o.kind,
                "default": o.default,
                "choices": list(o.choices),
                "minimum": o.minimum,
                "maximum": o.maximum,
                "help": o.help,
            }
            for o in info.options
        ],
        "agents": agent_names(info.id),
    }


# --- games / info -----------------------------------------------------------


@cli.command()
@click.argument("game", required=False)
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
def games(game: str | None, as_json: bool) -> None:
    """List the games, or show one GAME in detail (same as `tussle info GAME`).

    \b
    Examples:
      tussle games
      tussle games robo-pigs
      tussle games --json
    """
    if game is not None:
        _show_info(game, as_json)
        return
    infos = [game_info(g) for g in game_ids()]
    if as_json:
        click.echo(json.dumps([_info_json(i) for i in infos]))
        return
    table = Table(box=box.SIMPLE_HEAD)
    table.add_column("id", no_wrap=True, style="bold")
    table.add_column("name")
    table.add_column("players", justify="center")
    table.add_column("kind", no_wrap=True)
    table.add_column("description", ratio=1)
    for info in infos:
        table.add_row(
            *_cells(
                info.id,
                info.name,
                _players_text(info),
                f"{info.dynamics}\n{info.chance}\n{info.information}",
                info.description,
            ),
            end_section=True,
        )
    console = stdout_console()
    console.print(table)
    console.print("More about one game: tussle info GAME", markup=False)


@cli.command()
@click.argument("game")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
def info(game: str, as_json: bool) -> None:
    """Show one GAME: players, turn structure, options (for --option) and agents.

    \b
    Examples:
      tussle info robo-pigs
      tussle info robo-pigs --json
    """
    _show_info(game, as_json)


def _show_info(game_id: str, as_json: bool) -> None:
    info = game_info(game_id)
    if as_json:
        click.echo(json.dumps(_info_json(info)))
        return
    console = stdout_console()

    def say(text: str) -> None:
        console.print(text, markup=False)

    say(f"{info.name} ({info.id})")
    say(info.description)
    say("")
    say(f"players:     {_players_text(info)}")
    say(f"turns:       {info.dynamics}")
    say(f"chance:      {info.chance}")
    say(f"information: {info.information}")
    say(f"position:    {'yes, tussle play ' + info.id + ' --position TEXT' if info.has_position else 'no'}")
    notation = getattr(info, "notation", "")
    if isinstance(notation, str) and notation:
        say(f"notation:    {notation}")
    say("")
    if info.options:
        table = Table(title="options (--option NAME=VALUE)", title_justify="left")
        for column in ("name", "type", "default", "allowed", "help"):
            table.add_column(column, no_wrap=column == "name")
        for opt in info.options:
            table.add_row(*_cells(opt.name, opt.kind, _value_text(opt.default), _allowed(opt), opt.help))
        console.print(table)
    else:
        say("options: none")
    table = Table(title="agents (for --players and match)", title_justify="left")
    table.add_column("agent", no_wrap=True)
    table.add_column("description")
    for name, text in agent_names(info.id).items():
        table.add_row(*_cells(name, text))
    console.print(table)
    say(f"Rules and rulings: docs/games/{info.id}.md")


# --- play -------------------------------------------------------------------


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
        state: State,
        names: Sequence[str],
        humans: Sequence[HumanAgent],
        record: Record,
    ) -> None:
        perfect = state.game.info.information == Information.PERFECT
        self.console = console
        self.names = names
        self.record = record
        self.viewer = humans[0] if len(humans) == 1 or (humans and perfect) else None
        self.spectator = not humans
        self.show_moves = self.spectator or perfect
        self.acting = state.to_act()
        self.pending: list[str] = []

    def say(self, text: str) -> None:
        self.console.print(text, markup=False, highlight=False, soft_wrap=True)

    def __call__(self, state: State, player: int, text: str) -> None:
        self.record.add(player, text)
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
        if self.spectator:
            self.say(state.render())
        elif self.viewer is not None and (not own or simultaneous):
            self.viewer.show(state.observation_text(self.viewer.player))

    def finish(self, state: State, hot_seat: bool) -> None:
        for line in self.pending:
            self.say(line)
        self.pending.clear()
        if self.viewer is not None:
            self.viewer.show(state.observation_text(self.viewer.player))
        elif hot_seat:
            # The game is over, so nothing is secret any more.
            self.console.clear()
            self.say(state.render())
        self.say(describe_result(state, self.names))


def _seeds(seed: int | None, count: int) -> list[int]:
    rng = random.Random(seed)
    return [rng.getrandbits(63) for _ in range(count)]


@cli.command()
@click.argument("game")
@click.option(
    "--players",
    "-p",
    metavar="A,B,...",
    help="Agent specs, one per seat in order (default: human, then the computer). "
    "Their number sets the number of players.",
)
@click.option("--seed", type=int, default=None, help="Seed for chance and the computer players.")
@game_options_option
@click.option("--position", metavar="TEXT", help="Start from this position (games with a position notation).")
@click.option(
    "--record",
    "record_file",
    type=click.Path(dir_okay=False, writable=True),
    help="Save the game record (JSON) to this file, even if the game is left unfinished.",
)
def play(
    *,
    game: str,
    players: str | None,
    seed: int | None,
    options: dict[str, str],
    position: str | None,
    record_file: str | None,
) -> None:
    """Play GAME in the terminal, against the computer or friends.

    Type actions in the game's notation; ? lists the legal actions, quit
    stops. Each person sees only their own view. Two or more humans share the
    screen (hot seat); in games with hidden information the screen is hidden
    between turns. With no human players you watch the game.

    \b
    Examples:
      tussle play robo-pigs                          you against the computer
      tussle play robo-pigs --players random,human   you in the second seat
      tussle play robo-pigs -p human,human           two people, one screen
      tussle play robo-pigs -p rule,random --seed 3  watch two computer players
      tussle play robo-pigs -o extra_x=true --record game.json
    """
    info = game_info(game)
    specs = split_players(players) if players else ["human"] + [computer_agent(game)] * (info.min_players - 1)
    the_game = load_with_options(game, len(specs), options)
    state = the_game.new_initial_state() if position is None else the_game.state_from_position(position)
    if record_file is not None and not Path(record_file).resolve().parent.is_dir():
        raise click.BadParameter(f"no directory for {record_file!r}", param_hint="'--record'")
    console = stdout_console()
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
    record = Record.start(the_game, specs, position=None if position is None else state.position())
    narrator = _Narrator(console, state, specs, human_agents, record)

    seats = ", ".join(f"{state.player_name(p)} = {spec}" for p, spec in enumerate(specs))
    console.print(f"{info.name}: {seats}", markup=False)
    if human_agents:
        console.print("Type ? for the legal actions, quit to stop.", markup=False)
    # A game that opens with chance events is shown once they are done.
    if not state.is_chance() and (narrator.spectator or narrator.viewer is not None):
        if narrator.viewer is not None:
            narrator.viewer.show(state.observation_text(narrator.viewer.player))
        else:
            narrator.say(state.render())

    def save(final: Record) -> None:
        if record_file is not None:
            final.save(record_file)

    try:
        final_state, final_record = play_game(
            the_game,
            agents,
            seed=seeds[0],
            names=specs,
            state=None if position is None else state.clone(),
            on_event=narrator,
        )
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
    narrator.finish(final_state, hot_seat)
    save(final_record)
    if record_file is not None:
        console.print(f"Record saved to {record_file}", markup=False)


# --- match ------------------------------------------------------------------


@cli.command()
@click.argument("game")
@click.argument("agents", nargs=-1, required=True, metavar="AGENT AGENT [AGENT...]")
@games_option(100, "Games to play.")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the whole match.")
@jobs_option
@click.option(
    "--record",
    "record_dir",
    type=click.Path(file_okay=False),
    help="Save every game's record into this directory.",
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON summary object instead of a table.")
@game_options_option
def match(
    *,
    game: str,
    agents: tuple[str, ...],
    n: int,
    seed: int,
    jobs: int,
    record_dir: str | None,
    as_json: bool,
    options: dict[str, str],
) -> None:
    """Play N games of GAME between computer AGENTs and sum up the results.

    One AGENT per seat; seats rotate from game to game so that every agent
    plays every seat (use an N that is a multiple of the number of agents).
    An agent spec is a name with optional parameters: random, rule,
    name:key=value,key=value. The same --seed gives the same results
    whatever --jobs.

    \b
    Examples:
      tussle match robo-pigs rule random -n 200
      tussle match robo-pigs random random -n 200 --seed 1 --json
      tussle match robo-pigs rule random -n 1000 --jobs 4 --record games/
    """
    # The summary names the options the games really use, simulation defaults included.
    the_game = load_with_options(game, len(agents), simulation_options(game, options))
    for seat, spec in enumerate(agents):
        if make_agent(spec, the_game, seat, seed=0).interactive:
            raise AgentError(f"{spec!r} needs a person at the terminal; use tussle play for that, not match")
    summary = MatchSummary(game, list(agents), dict(the_game.non_default_options()))
    shared_first = [0] * len(agents)
    with progress(n, f"{game}: {' vs '.join(agents)}") as advance:
        for played in run_match(
            game, agents, n, seed=seed, jobs=jobs, options=options, record_dir=record_dir
        ):
            summary.add(played)
            _count_shared_firsts(played, shared_first)
            advance()
    if as_json:
        click.echo(json.dumps(summary.to_json()))
        return
    _show_match(summary, shared_first, record_dir)


def _count_shared_firsts(played: GameSummary, counts: list[int]) -> None:
    firsts = [a for a, place in enumerate(played.ranking) if place == 1]
    if len(firsts) > 1:
        for a in firsts:
            counts[a] += 1


def _show_match(summary: MatchSummary, shared_first: list[int], record_dir: str | None) -> None:
    console = stdout_console()
    options = ", ".join(f"{k}={_value_text(v)}" for k, v in summary.options.items())
    title = f"{summary.game}: {summary.games} games" + (f" ({options})" if options else "")
    table = Table(title=Text(title), title_justify="left")
    table.add_column("#", justify="right")
    table.add_column("agent")
    table.add_column("wins", justify="right")
    table.add_column("win rate", justify="right")
    table.add_column("draws", justify="right")
    table.add_column("mean return", justify="right")
    games_played = max(summary.games, 1)
    for a, spec in enumerate(summary.agents):
        table.add_row(
            *_cells(
                str(a + 1),
                spec,
                str(summary.wins[a]),
                f"{summary.wins[a] / games_played:.1%}",
                str(shared_first[a]),
                f"{summary.returns[a] / games_played:+.3f}",
            )
        )
    console.print(table)
    console.print(f"draws: {summary.draws}   mean length: {summary.mean_length:.1f} events", markup=False)
    if record_dir is not None:
        console.print(f"records in {record_dir}", markup=False)


# --- replay -----------------------------------------------------------------


@cli.command()
@click.argument("file", type=click.Path(dir_okay=False))
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
    record = Record.load(file)
    states = record.replay()
    final = states[-1]
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
                    "final_observations": [final.observation(p) for p in range(record.num_players)],
                }
            )
        )
        return
    console = stdout_console()

    def say(text: str) -> None:
        console.print(text, markup=False, highlight=False, soft_wrap=True)

    names = record.players
    info = game_info(record.game)
    seats = ", ".join(
        f"{final.player_name(p)} = {names[p] if p < len(names) else '?'}" for p in range(record.num_players)
    )
    options = ", ".join(f"{k}={_value_text(v)}" for k, v in record.options.items())
    say(f"{info.name}: {seats}" + (f"   options: {options}" if options else ""))
    if record.position is not None:
        say(f"from position {record.position}")
    say(states[0].render())
    for i, (player, text) in enumerate(record.events):
        before, after = states[i], states[i + 1]
        acting_before, acting_after = before.to_act(), after.to_act()
        who = before.player_name(player)
        if 0 <= player < len(names):
            who += f" ({names[player]})"
        say(f"event {i}: {who}: {text}")
        mid_step = len(acting_before) > 1 and bool(acting_after) and set(acting_after) < set(acting_before)
        if not mid_step:
            say(after.render())
    say(describe_result(final, names) if final.is_terminal() else "The record ends before the game does.")


# --- step -------------------------------------------------------------------


def _parse_event(text: str, num_players: int) -> tuple[int, str]:
    who, sep, action = text.partition(":")
    who = who.strip().lower()
    if not sep or not action.strip():
        raise TussleError(f"event {text!r} is not PLAYER:ACTION (PLAYER is 0, 1, ... or chance)")
    if who == "chance":
        return CHANCE, action.strip()
    if not who.isdigit() or not who.isascii() or int(who) >= num_players:
        raise TussleError(f"event {text!r}: {who!r} is not a player from 0 to {num_players - 1} or chance")
    return int(who), action.strip()


@cli.command()
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
    game = load_game(game_id, players=num_players, **options)
    state = game.state_from_position(position) if position is not None else game.new_initial_state()
    for i, text in enumerate(events):
        player, action = _parse_event(text, game.num_players)
        try:
            state.apply_str(player, action)
        except TussleError as exc:
            raise TussleError(f"event {i} ({text!r}): {exc}") from None
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


# --- tournament ---------------------------------------------------------------


@cli.command()
@click.argument("game")
@click.option(
    "--entrant",
    "-e",
    "entrant_texts",
    metavar="NAME=AGENT[:POWER]",
    multiple=True,
    help="One fighter (repeat, 2 or more): its name, agent spec and, for FITE, its super power.",
)
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the draw and of every game.")
@click.option(
    "--record",
    "record_dir",
    type=click.Path(file_okay=False),
    help="Save every game's record into this directory (default: a new temporary one).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the whole bracket as JSON at the end.")
@game_options_option
def tournament(
    *,
    game: str,
    entrant_texts: tuple[str, ...],
    seed: int,
    record_dir: str | None,
    as_json: bool,
    options: dict[str, str],
) -> None:
    """Run a single-elimination tournament of GAME between computer agents.

    Pairings are drawn at random (seeded); a fighter left unpaired gets a bye;
    winners are drawn anew each round until one champion is left. A drawn
    game is replayed, seats swapped, until it has a winner. Every game's
    record is saved.

    \b
    Examples:
      tussle tournament fite -e ann=rule:brutal -e bob=random -e cid=rule:cunning
      tussle tournament fite -e a=rule -e b=rule:tough -e c=random -e d=rule:fast -e e=rule --seed 3
      tussle tournament fite -e ann=rule -e bob=random --json --record games/
    """
    from tussle.tournament import (
        Match,
        Round,
        check_entrants,
        known_powers,
        match_line,
        parse_entrant,
        run_tournament,
    )

    powers = known_powers(game)
    entrants = [parse_entrant(text, powers) for text in entrant_texts]
    if len(entrants) < 2:
        raise click.UsageError(f"a tournament needs at least 2 --entrant NAME=AGENT, not {len(entrants)}")
    check_entrants(game, entrants, dict(options))
    console = stdout_console()

    def say(text: str) -> None:
        console.print(text, markup=False, highlight=False, soft_wrap=True)

    def report(kind: str, data: Any) -> None:
        if as_json:
            return
        if kind == "round" and isinstance(data, Round):
            bye = f", {data.bye} has a bye" if data.bye else ""
            count = len(data.matches)
            say(f"Round {data.number}: {count} match{'es' if count != 1 else ''}{bye}")
        elif kind == "match" and isinstance(data, Match):
            say("  " + match_line(data))

    if not as_json:
        say(f"{game_info(game).name} tournament, seed {seed}: " + ", ".join(map(str, entrants)))
    result = run_tournament(
        game, entrants, seed=seed, options=dict(options), record_dir=record_dir, on_event=report
    )
    if as_json:
        click.echo(json.dumps(result.to_json()))
        return
    say(f"Champion: {result.champion}")
    say(f"Records in {result.record_dir}")


# --- ladder -------------------------------------------------------------------


@cli.command()
@click.argument("game")
@click.argument("agents", nargs=-1, required=True, metavar="AGENT AGENT [AGENT...]")
@games_option(20, "Games per pair of agents (even, so that each pair plays both ways round).")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the whole ladder.")
@click.option(
    "--openings",
    type=click.IntRange(min=0),
    metavar="K",
    default=0,
    show_default=True,
    help="Each player's first K moves are random, each opening played from both seats.",
)
@jobs_option
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object with everything instead.")
@click.option(
    "--reuse",
    metavar="FILE",
    default=None,
    help="Count the games of an earlier ladder's --json output that this one would play again.",
)
@click.option(
    "--record",
    "record_dir",
    metavar="DIR",
    type=click.Path(file_okay=False),
    default=None,
    help="Save the record of every game played into DIR (made if missing).",
)
@game_options_option
def ladder(
    *,
    game: str,
    agents: tuple[str, ...],
    n: int,
    seed: int,
    openings: int,
    jobs: int,
    as_json: bool,
    reuse: str | None,
    record_dir: str | None,
    options: dict[str, str],
) -> None:
    """Rate computer AGENTs at GAME: a round robin of N games per pair, then a rating fit.

    An AGENT is an agent spec, or NAME=SPEC to show it under a name of its
    own. Every pair plays N games at two players, seats swapping each game. The
    ratings are on the Elo scale (200 more is about 76% expected), random
    rated 0 when it plays (else the first agent), with 95% intervals. The
    table says by how much each agent is above the next, with the interval
    of that difference. The same --seed gives the same ladder whatever --jobs.
    Agents that never vary replay the same games; --openings K starts every
    game with K random moves a player to vary them. With --reuse FILE (a
    ladder's --json output, same seed, options and openings) the games a pair
    already played there are counted, not played again: more games a pair, or
    a new agent, cost only the new games. --record DIR saves every game played
    there, to replay or study with `tussle replay`. See docs/ladder.md.

    \b
    Examples:
      tussle ladder robo-pigs random rule -n 20
      tussle ladder fite random rule easy medium -n 40 --jobs 2 --seed 1
      tussle ladder fightopia random rule quick=alphabeta:iterations=500 -n 10
      tussle ladder tank-chess random rule -n 10 --json
      tussle ladder fite random rule -n 40 --reuse fite20.json --json
      tussle ladder fightopia rule medium -n 4 --openings 3 --record games/
    """
    from tussle.ladder import check_ladder, interval_text, read_ladder, reusable_games, run_ladder

    check_ladder(game, agents, n, dict(options))
    kept: dict[tuple[str, str], tuple[str, float]] = {}
    if reuse is not None:
        previous = read_ladder(reuse)
        kept = reusable_games(previous, game, agents, options=dict(options), seed=seed, openings=openings)
    pairs = len(agents) * (len(agents) - 1) // 2
    played = sum(min(len(points), n) for points, _ in kept.values())
    with progress(pairs * n - played, f"{game} ladder") as advance:
        result = run_ladder(
            game,
            agents,
            n,
            seed=seed,
            jobs=jobs,
            options=dict(options),
            openings=openings,
            on_game=lambda done, total: advance(),
            reuse=kept,
            record_dir=record_dir,
        )
    if as_json:
        click.echo(json.dumps(result.to_json()))
        return
    console = stdout_console()
    opts = ", ".join(f"{k}={_value_text(v)}" for k, v in result.options.items())
    title = f"{result.game} ladder: {n} games per pair, seed {seed}"
    title += f", {openings} random opening moves" if openings else ""
    title += f" ({opts})" if opts else ""
    table = Table(title=Text(title), title_justify="left")
    for column in ("#", "agent", "rating", "95% CI", "games", "score", "lead", "lead 95% CI", "sure"):
        table.add_column(column, justify="left" if column == "agent" else "right", no_wrap=True)
    margins = result.margins()
    for i, row in enumerate(result.table()):
        lead = ("", "", "")
        if i < len(margins):
            m = margins[i]
            lead = (f"{m.difference:+.0f}", f"{m.low:.0f}..{m.high:.0f}", "yes" if m.separated else "no")
        table.add_row(
            *_cells(
                str(i + 1),
                row.agent,
                f"{row.rating:.0f}",
                interval_text(row),
                str(row.games),
                f"{row.score:.1%}",
                *lead,
            )
        )
    console.print(table)
    matrix = Table(title=Text("score of the row against the column"), title_justify="left")
    matrix.add_column("agent")
    for i in range(len(result.agents)):
        matrix.add_column(str(i + 1), justify="right")
    for i, (row, cells) in enumerate(zip(result.table(), result.matrix(), strict=True)):
        matrix.add_row(*_cells(f"{i + 1} {row.agent}", *("-" if v is None else f"{v:.0%}" for v in cells)))
    console.print(matrix)
    for name, spec in zip(result.agents, result.specs, strict=True):
        if name != spec:
            console.print(f"{name} = {spec}", markup=False)
    repeated = result.repeated()
    if repeated:
        listed = ", ".join(
            f"{result.agents[p.a]}-{result.agents[p.b]} {p.distinct} of {p.games}" for p in repeated
        )
        console.print(
            f"Repeated games (the intervals overstate what is known): distinct games {listed}; "
            "--openings K varies them.",
            markup=False,
        )
    anchor = result.agents[result.fit.anchor]
    console.print(
        f"Elo scale, {anchor} = 0; a draw counts half a win. lead: how far the agent is above "
        "the next one down; sure: whether that lead's 95% interval is all above 0.",
        markup=False,
    )


# --- bench --------------------------------------------------------------------


@cli.command()
@click.argument("game_list", nargs=-1, metavar="[GAME]...")
@click.option(
    "--seconds",
    "-s",
    type=click.FloatRange(min=0, min_open=True),
    default=2.0,
    show_default=True,
    help="CPU seconds for each measurement.",
)
@click.option(
    "--compare",
    is_flag=True,
    help="Also time random chess playouts (python-chess) and check each game's target against them.",
)
@click.option(
    "--search",
    "search_spec",
    default="medium",
    show_default=True,
    metavar="AGENT",
    help="The agent whose search iterations are counted; 'none' skips the search measurement.",
)
@click.option("--seed", type=int, default=1, show_default=True, help="Seed of the games played.")
@click.option(
    "--vs-openspiel",
    "vs_openspiel",
    is_flag=True,
    help="Instead: tussle's MCTS against OpenSpiel's MCTSBot at the same time per move "
    "(fightopia and tank-chess; needs the rl extra).",
)
@click.option(
    "--games",
    "vs_games",
    type=click.IntRange(min=1),
    default=10,
    show_default=True,
    help="Games per game id for --vs-openspiel.",
)
@click.option(
    "--move-seconds",
    type=click.FloatRange(min=0, min_open=True),
    default=0.5,
    show_default=True,
    help="Seconds per move of each side for --vs-openspiel.",
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of a table.")
def bench(
    *,
    game_list: tuple[str, ...],
    seconds: float,
    compare: bool,
    search_spec: str,
    seed: int,
    vs_openspiel: bool,
    vs_games: int,
    move_seconds: float,
    as_json: bool,
) -> None:
    """Measure how fast the engines run: playouts, legal actions, search.

    Per GAME (default: all): random playouts with the game's simulation
    options, in events (steps) and whole games per second; calls of
    legal_actions per second on positions from random play; search iterations
    per second of the AGENT given by --search. With --compare, random chess
    playouts with python-chess in the same run are the yardstick: each game's
    playout rate is shown as a multiple of chess's, against its target.

    \b
    Examples:
      tussle bench
      tussle bench tank-chess fightopia --seconds 5
      tussle bench --compare --json
      tussle bench --vs-openspiel fightopia --games 10 --move-seconds 0.5
    """
    if vs_openspiel:
        _bench_vs_openspiel(
            list(game_list), games=vs_games, move_seconds=move_seconds, seed=seed, as_json=as_json
        )
        return
    from tussle.bench import TARGETS, run_bench

    search = None if search_spec.strip().lower() == "none" else search_spec
    chosen = list(game_list) or game_ids()
    for game_id in chosen:
        game_info(game_id)  # an unknown game fails now, before any measuring
    total = 3 * len(dict.fromkeys(chosen)) + (1 if compare else 0)
    with progress(total, "bench") as advance:
        report = run_bench(
            chosen, seconds=seconds, seed=seed, compare=compare, search=search, on_step=lambda _: advance()
        )
    if as_json:
        click.echo(json.dumps(report.to_json()))
        return
    console = stdout_console()
    title = f"{seconds:g} CPU s per measurement, seed {seed}"
    table = Table(
        title=Text(title), title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False, collapse_padding=True
    )
    for column in ("game", "steps/s", "games/s", "legal/s", "actions", "search/s"):
        table.add_column(column, justify="left" if column == "game" else "right", no_wrap=True)
    if compare:
        table.add_column("vs chess", justify="right", no_wrap=True)
        table.add_column("target", no_wrap=True)
    notes: list[str] = []
    for g in report.games:
        row = [
            g.game,
            _rate(g.playout.steps_per_s),
            _rate(g.playout.games_per_s),
            _rate(g.legal.calls_per_s),
            _rate(g.legal.mean_actions),
            _rate(g.search.iterations_per_s) if g.search is not None else "-",
        ]
        if g.search is None and search is not None:
            notes.append(f"{g.game}: no search figure: {g.search_note}")
        if compare:
            row.append(f"{g.ratio:.2f}x" if g.ratio is not None else "-")
            if g.target is None or g.target_met is None:
                row.append("-")
            else:
                row.append(f"{g.target:g}x {'ok' if g.target_met else 'NO'}")
        table.add_row(*_cells(*row))
    console.print(table)
    if report.chess is not None:
        console.print(
            f"chess (python-chess {report.chess_version}): {_rate(report.chess.steps_per_s)} steps/s, "
            f"{_rate(report.chess.games_per_s)} games/s",
            markup=False,
        )
        verdict = "every target met" if report.targets_met else "some targets NOT met"
        known = ", ".join(f"{k} {v:g}x" for k, v in TARGETS.items())
        console.print(f"{verdict} (random-playout steps/s as a multiple of chess's: {known})", markup=False)
    for line in notes:
        console.print(line, markup=False)


#: The games OpenSpiel's MCTSBot can search through the adapter: sequential, perfect information.
VS_OPENSPIEL_GAMES = ("fightopia", "tank-chess")


def _bench_vs_openspiel(
    game_list: list[str], *, games: int, move_seconds: float, seed: int, as_json: bool
) -> None:
    chosen = game_list or list(VS_OPENSPIEL_GAMES)
    for game_id in chosen:
        if game_id not in VS_OPENSPIEL_GAMES:
            game_info(game_id)  # an unknown id gets the registry's own message
            raise TussleError(
                f"--vs-openspiel plays {', '.join(VS_OPENSPIEL_GAMES)}, not {game_id} "
                "(MCTSBot needs a sequential game of perfect information)"
            )
    try:
        from tussle.adapters.openspiel_bench import compare_with_openspiel
    except ImportError as exc:
        raise TussleError(f"--vs-openspiel needs the rl extra (pip install 'tussle[rl]'): {exc}") from None
    rows = []
    with progress(len(chosen), "tussle MCTS vs OpenSpiel MCTSBot") as advance:
        for game_id in chosen:
            rows.append(compare_with_openspiel(game_id, move_seconds, games, seed))
            advance()
    if as_json:
        click.echo(json.dumps({"vs_openspiel": rows}))
        return
    console = stdout_console()
    table = Table(
        title=Text(f"tussle MCTS vs OpenSpiel MCTSBot, {move_seconds:g} s a move, seed {seed}"),
        title_justify="left",
        box=box.SIMPLE_HEAD,
        pad_edge=False,
        collapse_padding=True,
    )
    for column in ("game", "games", "tussle wins", "MCTSBot wins", "draws", "tussle it/s", "MCTSBot it/s"):
        table.add_column(column, justify="left" if column == "game" else "right", no_wrap=True)
    for row in rows:
        table.add_row(
            *_cells(
                row["game"],
                str(row["games"]),
                str(row["tussle_wins"]),
                str(row["openspiel_wins"]),
                str(row["draws"]),
                _rate(row["tussle_iterations_per_second"]),
                _rate(row["openspiel_iterations_per_second"]),
            )
        )
    console.print(table)


def _rate(value: float) -> str:
    """A rate in three or four figures: ``950``, ``82.9k``, ``8.12M``.

    >>> _rate(82888.5), _rate(8115734.6), _rate(536.26), _rate(8.6)
    ('82.9k', '8.12M', '536', '8.6')
    """
    for scale, suffix in ((1e6, "M"), (1e3, "k")):
        if value >= scale:
            scaled = value / scale
            return f"{scaled:.3g}{suffix}" if scaled < 100 else f"{scaled:.0f}{suffix}"
    return f"{value:.3g}" if value < 100 else f"{value:.0f}"


# --- more commands are registered below ---


def main() -> None:
    """The ``tussle`` console script."""
    cli.main(prog_name="tussle")
