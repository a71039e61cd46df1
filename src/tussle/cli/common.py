"""What the ``tussle`` commands share.

The group class that turns every error into one line and exit code 2, the
option builders (``--option KEY=VALUE``, ``--jobs``, ``--games``), the
consoles and the progress bar, and the small helpers that load a game with
its options, pick the computer opponent and say how a game ended.
"""

from __future__ import annotations

import contextlib
import difflib
import math
import os
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, TypeVar

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.text import Text

from tussle.agents import agent_names
from tussle.errors import AgentError, OptionError, TussleError, shorten
from tussle.files import read_text
from tussle.game import MAX_DOCUMENT_CHARS, Game, Result, State, looks_like_path
from tussle.parallel import DEFAULT_CHUNK
from tussle.registry import game_info, load_game

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
        except (
            UnicodeEncodeError,
            UnicodeDecodeError,
        ) as exc:  # text that is no valid Unicode: a file name, say
            message, code = f"error: {shorten(exc.object)} is not valid text ({exc.reason})", EXIT_ERROR
        if message:
            # A message may quote what was typed or read: printed with its control characters escaped.
            click.echo(f"tussle: {printable(message)}", err=True)
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


# --- bounded numbers: every count a command takes is capped ----------------

#: The caps of docs/cli.md ("Limits"): far above any real run, low enough that a typing slip
#: (a few digits too many) is refused at once instead of starting a run that never ends.
MAX_GAMES = 1_000_000  # -n, --chunk, bench --games
MAX_JOBS = 256  # --jobs, bench --cpus
MAX_SEED = 10**18 - 1  # 18 digits, as every number tussle reads (a seed is written into run files)
MAX_SECONDS = 3600.0  # bench --seconds, --move-seconds: as an agent's time= budget
MAX_ROUNDS = 1000  # bench --rounds
MAX_OPENINGS = 1000  # ladder and balance --openings: random moves a player


def _shortened(exc: click.BadParameter, value: Any) -> click.BadParameter:
    # click quotes the value whole: a 5,000-digit slip would fill the screen.
    if isinstance(value, str) and len(value) > 60:
        said = exc.message.replace(repr(value), shorten(value)).replace(value, shorten(value))
        return click.BadParameter(said, exc.ctx, exc.param, exc.param_hint)
    return exc


class Count(click.IntRange):
    """A whole number within bounds, said shortened when it is refused.

    >>> Count(1, 10).convert("3", None, None)
    3
    """

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        try:
            return super().convert(value, param, ctx)
        except click.BadParameter as exc:
            raise _shortened(exc, value) from None


class Amount(click.FloatRange):
    """A number within bounds (never NaN, never infinite), said shortened when it is refused.

    >>> Amount(0, 1).convert("0.5", None, None)
    0.5
    """

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        try:
            number = super().convert(value, param, ctx)
        except click.BadParameter as exc:
            raise _shortened(exc, value) from None
        if not math.isfinite(number):
            self.fail(f"{shorten(str(value))} is not a finite number", param, ctx)
        return number


class Place(click.Path):
    """A file or folder name, as :class:`click.Path`; an empty one is refused.

    Without this ``--record ''`` would be the current folder, filled with records.
    """

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, str) and not value.strip():
            self.fail("an empty name is no file or folder", param, ctx)
        return super().convert(value, param, ctx)


#: ``--seed``'s type in every command.
SEED = Count(-MAX_SEED, MAX_SEED)


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
    type=Count(1, MAX_JOBS),
    default=1,
    show_default=True,
    help="Processes to use; the results are the same for any number.",
)


#: ``--cluster ray[:ADDRESS]``; the command gets ``cluster`` (text, for :func:`cluster_of`).
cluster_option = click.option(
    "--cluster",
    metavar="ray[:ADDRESS]",
    default=None,
    help="Play on Ray: 'ray' starts a local Ray (of --jobs CPUs if given), 'ray:ADDRESS' joins "
    "a running cluster (ray:auto, ray:HOST:6379, ray://HOST:10001). Needs tussle[cluster]; "
    "see docs/cluster.md.",
)

#: ``--chunk N``, games per task; the command gets ``chunk``.
chunk_option = click.option(
    "--chunk",
    type=Count(1, MAX_GAMES),
    metavar="N",
    default=DEFAULT_CHUNK,
    show_default=True,
    help="Games per task handed to a process or a Ray worker; the results are the same for any.",
)


def cluster_of(text: str | None, jobs: int) -> Any:
    """The :class:`~tussle.parallel.Cluster` that ``--cluster`` names, or None without it.

    ``--jobs``, when typed, sets a local Ray's CPUs; with an address it is an error.
    """
    if text is None:
        return None
    from tussle.parallel import Cluster, ray_module

    typed = click.get_current_context().get_parameter_source("jobs") == click.core.ParameterSource.COMMANDLINE
    cluster = Cluster.parse(text, cpus=jobs if typed else None)
    ray_module()  # Ray missing is said now, before any folder is made or game played
    return cluster


def diagnostics_on_stderr() -> contextlib.AbstractContextManager[Any]:
    """Standard output sent to standard error for the block.

    Ray's driver prints what its workers report (a worker that died, a task tried
    again) on standard output, from a thread of its own at any moment; around a run
    on Ray this keeps those lines on standard error, where diagnostics belong, and
    out of what the command prints afterwards (its --json, say).
    """
    return contextlib.redirect_stdout(sys.stderr)


def games_option(default: int, help_text: str) -> Callable[[Callable[..., T]], Callable[..., T]]:
    """``-n``/``--games N`` with its own default and help; the command gets ``n``."""
    return click.option(
        "-n",
        "--games",
        "n",
        type=Count(1, MAX_GAMES),
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


#: Seconds between the progress lines of a command whose standard error is not a terminal.
PROGRESS_EVERY = 10.0


def _duration(seconds: float) -> str:
    """
    >>> _duration(42.4), _duration(125), _duration(7300)
    ('42 s', '2 min 5 s', '2 h 1 min')
    """
    seconds = round(seconds)
    if seconds < 60:
        return f"{seconds} s"
    if seconds < 3600:
        return f"{seconds // 60} min {seconds % 60} s"
    return f"{seconds // 3600} h {seconds % 3600 // 60} min"


@contextmanager
def progress(total: int, label: str) -> Iterator[Callable[[], None]]:
    """A progress bar on standard error when it is a terminal; yields the function that advances it.

    Without a terminal (a log, a batch job) a line says how far it got, every
    :data:`PROGRESS_EVERY` seconds, the first after that long: a quick command prints none.
    The time left is said from a hundredth of the work on: before, a start that is slow
    (compiling a batched engine, say) would make it hours.
    """
    if not sys.stderr.isatty():
        started = time.monotonic()
        state = {"done": 0, "said": started}

        def advance() -> None:
            state["done"] += 1
            now = time.monotonic()
            if now - state["said"] >= PROGRESS_EVERY:
                state["said"] = now
                done, spent = int(state["done"]), now - started
                left = spent / done * (total - done) if 100 * done >= total >= done else math.nan
                rest = "" if math.isnan(left) else f", about {_duration(left)} left"
                share = f" ({done / total:.0%})" if total else ""
                line = f"{label}: {done:,} of {total:,}{share} in {_duration(spent)}{rest}"
                print(line, file=sys.stderr, flush=True)

        yield advance
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

    A document option that names a file gets the file's text (:func:`read_documents`).

    >>> load_with_options("robo-pigs", 2, {"round_limit": "5"}).options["round_limit"]
    5
    """
    info = game_info(game_id)
    for name in options:
        info.option(name)  # an unknown name (even 'players') is a one-line OptionError
    return load_game(game_id, players=players, **read_documents(game_id, options))


def read_documents(game_id: str, options: dict[str, str]) -> dict[str, str]:
    """``options`` with each document option that names a file given the file's text instead.

    Games read no file (a server passes them what a request holds); a local
    command reads the file a person names, as ``-o setup=duel.txt``. A value
    is a file's name when such a file exists, or when it looks like one (then
    a missing file is said as such); a name the game ships stays a name. The
    file is read only if it is a regular file small enough to be a document,
    and what the game finds wrong in it is said with the file's name.

    >>> read_documents("tank-chess", {"setup": "basic", "size": "16"})
    {'setup': 'basic', 'size': '16'}
    >>> read_documents("tank-chess", {"setup": "no-such-setup.txt"})
    Traceback (most recent call last):
    tussle.errors.OptionError: option setup: cannot read no-such-setup.txt: No such file or directory
    """
    info = game_info(game_id)
    out = dict(options)
    files: dict[str, str] = {}
    for name, value in options.items():
        option = next((o for o in info.options if o.name == name), None)
        if option is None or option.kind != "document" or option.document_name(value) is not None:
            continue  # an unknown name is for the game to refuse
        if looks_like_path(value) or (value.strip() and os.path.lexists(value)):
            files[name] = value.strip()
            # Four bytes a character at most: no file over that can hold a document of the bound.
            try:
                out[name] = read_text(files[name], OptionError, limit=4 * MAX_DOCUMENT_CHARS)
            except OptionError as exc:
                raise OptionError(f"option {name}: {exc}") from None
    if files:
        # Checked now, while it is known which file a text came from: the game's message
        # names only the option.
        given: dict[str, Any] = out
        try:
            load_game(game_id, **given)
        except OptionError as exc:
            message = str(exc)
            for name, path in files.items():
                if message.startswith(f"option {name}: "):
                    # The end of a long path: the file's own name is what a person knows it by.
                    where = path if len(path) <= 80 else "..." + path[-77:]
                    rest = message.removeprefix(f"option {name}: ")
                    raise OptionError(f"option {name} ({where}): {rest}") from None
            raise
    return out


def named(path: str, message: str) -> str:
    """``message`` about the file at ``path`` led by the file's name, unless it names it already.

    >>> named("games/a.json", "not valid JSON: Expecting value at line 1 column 1")
    'games/a.json: not valid JSON: Expecting value at line 1 column 1'
    >>> named("a.json", "cannot read a.json: No such file or directory")
    'cannot read a.json: No such file or directory'
    """
    if path and path in message:
        return message
    # The end of a long path: the file's own name is what a person knows it by.
    where = path if len(path) <= 80 else "..." + path[-77:]
    return f"{where or repr(path)}: {message}"


def computer_agent(game_id: str) -> str:
    """The default computer opponent: the ``medium`` level (docs/agents.md), which every game has."""
    return "medium" if "medium" in agent_names(game_id) else "random"


def printable(text: str) -> str:
    """``text`` with control characters, lone surrogates and other unprintables escaped.

    Whatever a file supplies (a player's name in a record, say) goes through it
    before it is printed: an escape sequence in a name must not clear or recolour
    the terminal, and a lone surrogate must not stop the output.

    >>> print(printable("Ann" + chr(27) + "[2J" + chr(0xD800) + " ok"))
    Ann\\x1b[2J\\ud800 ok
    """
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else ch.encode("unicode_escape").decode("ascii") for ch in text)


def describe_result(state: State[Any], names: Sequence[str]) -> str:
    """One line saying how the game ended, with each seat's agent."""
    result = state.result()
    if result is None:
        return "The game is not over."
    return result_line(result, state.player_name, names)


def result_line(result: Result, player_name: Callable[[int], str], names: Sequence[str]) -> str:
    """One line saying how a game ended: ``player_name`` names a seat in the game, ``names`` who sat there.

    >>> result_line(Result.win(1, 2, "knocked out"), lambda p: f"seat {p}", ["Ann", "Bo"])
    'Seat 1 (Bo) wins: knocked out'
    """

    def who(p: int) -> str:
        name = printable(names[p]) if p < len(names) else ""
        return f"{player_name(p)} ({name})" if name else player_name(p)

    reason = f": {result.reason}" if result.reason else ""
    if result.winner is not None:
        line = f"{who(result.winner)} wins{reason}"
        return line[:1].upper() + line[1:]
    if all(place == 1 for place in result.ranking):
        return f"Draw{reason}"
    order = sorted(range(len(result.ranking)), key=lambda p: result.ranking[p])
    places = ", ".join(f"{result.ranking[p]}. {who(p)}" for p in order)
    return f"Places: {places}{reason}"


def without_result_line(text: str, result: Result | None) -> str:
    """``text`` (a view) less the line that tells the result, once the game is over.

    :func:`result_line` then says the result in one line with each seat's
    agent; the game's own line would say it a second time. That line is the one
    holding the result's reason and little else.

    >>> without_result_line("board\\nAnn is knocked out.", Result.win(1, 2, "Ann is knocked out"))
    'board'
    """
    if result is None or not result.reason:
        return text
    lines = text.split("\n")
    kept = [line for line in lines if not (result.reason in line and len(line) <= len(result.reason) + 30)]
    return "\n".join(kept) if kept else text


def text_cells(*values: str) -> list[Text]:
    """Table cells of plain text."""
    # Plain Text, so that a square bracket in a game's help is not read as rich markup.
    return [Text(v) for v in values]


def value_text(value: Any) -> str:
    """An option's value as ``--option`` takes it: ``true``/``false`` for a flag.

    A document (a deck, a layout: text of several lines, or long) is said by its length, not
    printed whole in a line about options.

    >>> value_text(True), value_text(20), value_text("[[warrior]]\\n" * 500)
    ('true', '20', '(a text of 6,000 characters)')
    """
    if isinstance(value, bool):
        return "true" if value else "false"
    text = str(value)
    if "\n" in text or len(text) > 80:
        return f"(a text of {len(text):,} characters)"
    return text
