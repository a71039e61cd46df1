"""The human agent: a person at the terminal who types actions in the game's notation.

It shows the person only their own player's observation (never another
player's secrets), reads one line per decision, lists the legal actions on
``?`` or ``help``, and asks again after a bad line with the one-line reason.
Typing ``quit`` or ending the input (Ctrl-D) raises :class:`PlayerQuitError`.

The prompt itself (the reading, ``?``, ``? WORD``, line editing) is
:class:`TerminalPrompt`, over the legal actions as :class:`Choices`: a local
game's and an online seat's (:mod:`tussle.client`) alike.

Input and output are parameters so that a script can drive the agent:

>>> import io
>>> from rich.console import Console
>>> from tussle import load_game
>>> from tussle.agents.base import PlayerView
>>> game = load_game("robo-pigs")
>>> state = game.new_initial_state()
>>> out = io.StringIO()
>>> typed = io.StringIO("F F X F F\\nF ^ TR v H\\n")
>>> human = HumanAgent(game, 0, console=Console(file=out, width=80), stdin=typed)
>>> human.act(PlayerView(state, 0))
(6, 0, 5, 1, 7)
>>> out.getvalue().count("your action")  # asked again after the illegal first line
2
"""

from __future__ import annotations

import contextlib
import functools
import random
import re
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, TextIO, TypeVar

from rich.console import Console
from rich.text import Text

from tussle.agents.base import Agent, PlayerView
from tussle.agents.params import Param
from tussle.colours import styled
from tussle.errors import TussleError
from tussle.game import Game

T = TypeVar("T")


#: readline bindings that turn off the keys putting back deleted text: Ctrl-Y and Alt-Y, vi's
#: p and P, and vi's . (which repeats the last text inserted, on an earlier line too). The kill
#: ring behind them is one per process and Python cannot empty it, so at a screen shared by
#: several seats they would bring back what the last seat deleted; they ring the bell instead.
_NO_YANK = (
    "set keymap emacs",
    '"\\C-y": abort',
    '"\\ey": abort',
    "set keymap vi-insert",
    '"\\C-y": abort',
    "set keymap vi-command",
    '"p": abort',
    '"P": abort',
    '".": abort',
    # readline starts each line in vi's insert keymap anyway when vi mode is on.
    "set keymap emacs",
)


@functools.cache  # once per process: the bindings stay
def _turn_off_yank() -> None:
    import readline

    for binding in _NO_YANK:
        readline.parse_and_bind(binding)


@contextlib.contextmanager
def _history(lines: list[str], *, shared_screen: bool) -> Iterator[None]:
    """Line editing for input() while the block runs, with ``lines`` as the history (Up, Down, Ctrl-R).

    Loading readline is what gives input() line editing, where it exists (not on every
    platform; the prompt works without it). readline has one history per process, so
    every seat at one screen would recall the others' lines with Up: each prompt keeps its
    own, puts them in for the block, takes back what was typed, and leaves readline's
    history empty between prompts. No history file is read or written (Python keeps one
    only for its own interactive prompt). With ``shared_screen`` the keys that put back
    deleted text are turned off too.
    """
    try:
        import readline
    except ImportError:
        yield
        return
    if shared_screen:
        _turn_off_yank()
    _clear_history()
    for line in lines:
        readline.add_history(line)
    try:
        yield
    finally:
        count = readline.get_current_history_length()
        lines[:] = [readline.get_history_item(i) for i in range(1, count + 1)]
        _clear_history()


def completions(candidates: Sequence[str], text: str) -> list[str]:
    """The ``candidates`` that ``text`` begins, in any case: what Tab offers for a line begun so far.

    >>> completions(["main Zix boost Blip", "main Zix boost Imp", "score"], "MAIN zix boost b")
    ['main Zix boost Blip']
    """
    start = text.lower()
    return [c for c in candidates if c.lower().startswith(start)]


@contextlib.contextmanager
def _completion(candidates: Callable[[], Sequence[str]] | None) -> Iterator[None]:
    """Tab completes the whole line over ``candidates()`` (asked for at the first Tab) while the block runs.

    The line is one word to readline (no delimiters), so that a Fight! play's card names complete
    after ``main ... boost``; the completer in place before is put back after.
    """
    try:
        import readline
    except ImportError:
        yield
        return
    if candidates is None:
        yield
        return
    known: list[str] = []
    offered: list[str] = []

    def complete(text: str, index: int) -> str | None:
        if index == 0:
            if not known:
                known.extend(candidates())
            offered[:] = completions(known, readline.get_line_buffer()[: readline.get_endidx()])
        return offered[index] if index < len(offered) else None

    before, delims = readline.get_completer(), readline.get_completer_delims()
    readline.set_completer(complete)
    readline.set_completer_delims("")
    # libedit (macOS's readline) takes its own spelling of the binding.
    libedit = "libedit" in (readline.__doc__ or "")
    readline.parse_and_bind("bind ^I rl_complete" if libedit else "tab: complete")
    try:
        yield
    finally:
        readline.set_completer(before)
        readline.set_completer_delims(delims)


def _clear_history() -> None:
    import readline

    # Absent where the library Python was built with lacks it.
    clear = getattr(readline, "clear_history", None)
    if clear is not None:
        clear()
        return
    for i in reversed(range(readline.get_current_history_length())):
        readline.remove_history_item(i)


class PlayerQuitError(Exception):
    """The person stopped the game: typed ``quit``, or the input ended."""


#: Cursor home, erase the screen, erase the scrollback (xterm's "erase saved lines", which tmux,
#: VTE and most terminals follow).
WIPE = "\x1b[H\x1b[2J\x1b[3J"


def wipe(console: Console) -> None:
    """Clear a terminal's screen and its scrollback (nothing when the output is no terminal).

    Clearing the screen alone leaves what the last player typed (the terminal's
    echo of the line) and saw in the scrollback, one scroll (or
    ``tmux capture-pane -S``) away.
    """
    if console.is_terminal:
        console.file.write(WIPE)
        console.file.flush()


HELP_WORDS = ("?", "help")
QUIT_WORDS = ("quit", "exit")


@dataclass(frozen=True)
class Choices:
    """The legal actions a prompt offers: how many, and the notation of each when it is known.

    ``name(i)`` writes the ``i``-th legal action; it is None when only the
    count is known (a server sends no list of more than 1,000 actions).
    ``notation`` tells how an action is written and ``game_id`` names the game
    for ``tussle rules``.

    >>> Choices.of_names(["tac 5", "pass"], 2, "", "fite").name(1)
    'pass'
    """

    count: int
    name: Callable[[int], str] | None
    notation: str
    game_id: str

    @classmethod
    def of_view(cls, view: PlayerView) -> Choices:
        """A local game's legal actions, written only when asked for (there may be tens of thousands)."""
        legal = view.legal_actions()
        return cls(len(legal), lambda i: view.action_to_str(legal[i]), view.info.notation, view.info.id)

    @classmethod
    def of_names(cls, names: Sequence[str] | None, count: int, notation: str, game_id: str) -> Choices:
        """Legal actions given by their notation, or by ``count`` alone when ``names`` is None."""
        return cls(count, None if names is None else names.__getitem__, notation, game_id)


@dataclass(frozen=True)
class Command:
    """A word the prompt answers itself, besides the actions (``hint``, ``undo``, ``save``).

    ``run`` gets the rest of the line; it says what it did, or raises to end the decision
    (a take-back). ``usage`` and ``help`` make its line in ``?``.
    """

    usage: str
    help: str
    run: Callable[[str], None]


class TerminalPrompt:
    """Where a person at the terminal sees their view and types their actions.

    ``console`` is where the view and the prompts go (a rich Console; standard
    output by default) and ``stdin`` is where lines are read from (standard
    input by default, read at the time of asking). ``label`` names the seat
    in prompts; ``rng`` picks the examples that ``?`` shows of a large set.
    ``shared_screen`` says that other seats with secrets type at the same
    terminal: nothing deleted at one seat's prompt can be put back at another's.

    Each prompt has its own line history: Up brings back only the lines typed
    at this prompt, never another seat's.
    """

    #: Action sets up to this size are listed whole on ``?``; bigger ones by count and examples.
    LIST_LIMIT = 60
    EXAMPLES = 6
    #: ``? WORD`` looks through at most this many legal actions (a Robo Pigs program is one of 32,768).
    SEARCH_LIMIT = 40_000
    #: What ``?`` says that ``quit`` does.
    QUIT_HINT = "quit stops the game."

    def __init__(
        self,
        console: Console | None,
        stdin: TextIO | None,
        label: str,
        rng: random.Random,
        *,
        shared_screen: bool = False,
    ) -> None:
        self.console = console if console is not None else Console(highlight=False)
        self._stdin = stdin
        self.label = label
        self.rng = rng
        self.shared_screen = shared_screen
        #: The lines typed at this prompt, oldest first: its history, put back for each reading.
        self._lines: list[str] = []
        #: The last view text put on the screen for this seat, so it is not repeated.
        self.last_shown: str | None = None
        #: Words answered at the prompt besides the actions, by word (lower case); ``?`` lists them.
        self.commands: dict[str, Command] = {}
        #: What Tab completes over while an action is asked for (None: nothing).
        self._candidates: Callable[[], Sequence[str]] | None = None

    # --- deciding -----------------------------------------------------------

    def read_action(self, choices: Choices, parse: Callable[[str], T]) -> T:
        """Ask until a line ``parse`` takes (its TussleError is shown, and the prompt comes again).

        ``?`` and ``? WORD`` help, Enter plays the only legal action, ``quit``
        raises :class:`PlayerQuitError`.
        """
        only = choices.name(0) if choices.count == 1 and choices.name is not None else None
        if only is not None:
            self.say(f"Only one legal action: {only} (press Enter to play it)")
        self._candidates = functools.partial(self._completable, choices)
        try:
            return self._read_action(choices, parse, only)
        finally:
            self._candidates = None

    def _completable(self, choices: Choices) -> list[str]:
        """The legal actions' notation (at most SEARCH_LIMIT of them) and the prompt's own words."""
        name, count = choices.name, min(choices.count, self.SEARCH_LIMIT)
        names = [] if name is None else [name(i) for i in range(count)]
        return names + sorted(self.commands) + ["help", "quit"]

    def _read_action(self, choices: Choices, parse: Callable[[str], T], only: str | None) -> T:
        while True:
            line = self.ask(f"{self.label}, your action (? for help): ").strip()
            if not line:
                if only is not None:
                    return parse(only)
                continue
            word = line.lower()
            first, _, rest = line.partition(" ")
            if word in HELP_WORDS:
                self.help_for(choices)
                continue
            if first.lower() in HELP_WORDS and rest.strip():
                self.list_matching(choices, rest.strip())
                continue
            if word in QUIT_WORDS:
                raise PlayerQuitError(f"{self.label} quit")
            command = self.commands.get(first.lower())
            if command is not None:
                command.run(rest.strip())
                continue
            try:
                return parse(line)
            except TussleError as exc:
                self.say(f"  {exc} (type ? for the legal actions)")

    def help_for(self, choices: Choices) -> None:
        """Explain the notation, with the legal actions (all, or a few of many) as examples."""
        count = choices.count
        if choices.notation:
            self.say(f"How to write an action: {choices.notation}")
        if choices.name is None:
            self.say(
                f"{count:,} legal actions now: too many to be listed here, so compose one in the notation."
            )
        elif count <= self.LIST_LIMIT:
            self.say(f"{count} legal action{'s' if count != 1 else ''} now:")
            self.columns([choices.name(i) for i in range(count)])
        else:
            picks = sorted(self.rng.sample(range(count), self.EXAMPLES))
            examples = ", ".join(choices.name(i) for i in picks)
            self.say(f"{count:,} legal actions now, for example: {examples}")
        if choices.name is not None:
            self.say(
                "? WORD lists the legal actions that mention WORD (a square, a piece, a command); "
                + self.QUIT_HINT
            )
        else:
            self.say(self.QUIT_HINT[:1].upper() + self.QUIT_HINT[1:])
        for command in self.commands.values():
            self.say(f"{command.usage}: {command.help}")
        self.say("Tab completes an action (or a command) from what is typed so far.")
        self.say(f"The rules in brief and the whole notation: tussle rules {choices.game_id}")

    def list_matching(self, choices: Choices, query: str) -> None:
        """List the legal actions that mention ``query``: a square anywhere (``? c3``: what c3 can do),
        anything else at the start of a word (``? G``: the Giant's moves, ``? TL``: programs that turn left),
        in any case but a single letter's (``? g``: the g file's Pawns, not the Giant).
        """
        if choices.name is None:
            self.say(
                f"Only the number of legal actions is known ({choices.count:,}), not the actions, "
                f"so ? {query} cannot look through them: compose one (tussle rules {choices.game_id})."
            )
            return
        word = query.lower()
        searched = [choices.name(i) for i in range(min(choices.count, self.SEARCH_LIMIT))]
        if re.fullmatch(r"[a-z][0-9]+", word):  # a square, even inside Ta1a2 or Mc3-d5NE
            pattern = re.compile(re.escape(word) + r"(?![0-9])")
            names = [name for name in searched if pattern.search(name.lower())]
        elif len(query) == 1:
            # A letter is a piece or a command, told by its case: Fightopia's G is a Giant, g a file.
            pattern = re.compile(r"(?:^|\s)" + re.escape(query))
            names = [name for name in searched if pattern.search(name)]
        else:
            pattern = re.compile(r"(?:^|\s)" + re.escape(word))
            names = [name for name in searched if pattern.search(name.lower())]
        if not names:
            self.say(f"No legal action mentions {query!r} now (? lists them).")
            return
        shown = names[: self.LIST_LIMIT]
        more = f", the first {len(shown)} shown" if len(names) > len(shown) else ""
        self.say(f"{len(names)} legal action{'s' if len(names) != 1 else ''} with {query!r}{more}:")
        self.columns(shown)

    def columns(self, names: list[str]) -> None:
        """``names`` in aligned columns, as many as fit 76 characters."""
        width = max(len(n) for n in names) + 2 if names else 1
        per_line = max(1, 76 // width)
        for start in range(0, len(names), per_line):
            self.say("  " + "".join(n.ljust(width) for n in names[start : start + per_line]).rstrip())

    # --- screen and keyboard ------------------------------------------------

    #: Whether views are shown in their game's colours (``tussle play`` sets it: a colour terminal,
    #: ``--color``); off, a view is the plain text.
    colour = False

    def show(self, text: str, coloured: Text | None = None) -> None:
        """Put this seat's view on the screen unless it is already the last thing shown (``coloured``:
        the same text with its colours, shown instead)."""
        if text != self.last_shown:
            if coloured is None:
                self.say(text)
            else:
                self.console.print(coloured, highlight=False, soft_wrap=True)
            self.last_shown = text

    def show_view(self, game: Game, text: str, observation: Mapping[str, Any], player: int) -> None:
        """:meth:`show` of ``player``'s view ``text`` (written from ``observation``), in colour when
        :attr:`colour` is on."""
        self.show(text, styled(game, text, observation, player) if self.colour else None)

    def say(self, text: str) -> None:
        self.console.print(text, markup=False, highlight=False, soft_wrap=True)

    def pass_screen(self) -> None:
        """Hide the screen, scrollback included, and wait until the person at this seat presses Enter."""
        self.wipe()
        # Whoever is at the keyboard now (the last seat, maybe) finds no history here.
        self.ask(f"Pass the screen to {self.label}, then press Enter. ", remember=False)
        self.wipe()
        self.last_shown = None

    def wipe(self) -> None:
        """Clear the terminal's screen and its scrollback (see :func:`wipe`)."""
        wipe(self.console)

    def ask(self, prompt: str, *, remember: bool = True) -> str:
        """One line from the person; raises :class:`PlayerQuitError` at the end of the input.

        A line that is not valid text (bytes that are no UTF-8) is refused and asked again.
        At a terminal the line can be edited, and Up recalls this prompt's earlier lines;
        without ``remember`` there are none, and the line is not kept for later.
        """
        while True:
            try:
                return self._read_line(prompt, remember)
            except UnicodeDecodeError:
                self.say("  That line was not readable text (not UTF-8); type it again.")

    def _read_line(self, prompt: str, remember: bool) -> str:
        stream = self._stdin if self._stdin is not None else sys.stdin
        if self._stdin is None and stream.isatty():
            with (
                _history(self._lines if remember else [], shared_screen=self.shared_screen),
                _completion(self._candidates if remember else None),
            ):
                try:
                    return input(prompt)
                except EOFError:
                    print()
                    raise PlayerQuitError("end of input") from None
        self.console.print(prompt, end="", markup=False, highlight=False, soft_wrap=True)
        line = stream.readline()
        if not line:
            self.console.print()
            raise PlayerQuitError("end of input")
        # Echo what was read, so that a transcript of scripted input reads like a session.
        self.console.print(line.rstrip("\r\n"), markup=False, highlight=False, soft_wrap=True)
        return line


class HumanAgent(Agent, TerminalPrompt):
    """A person choosing actions by typing notation, at a :class:`TerminalPrompt`.

    ``label`` names the seat in prompts (the game's own name for it, like
    ``pig A``). With ``hot_seat`` set, several people share one screen in a
    game with hidden information: the screen is cleared and the agent waits
    for Enter before showing this seat's view, and the keys that put back
    deleted text are off (see :class:`TerminalPrompt`).

    The spec may carry a display name: ``human:name=Ann``.
    """

    interactive = True
    PARAMS: ClassVar[dict[str, Param]] = {
        "name": Param("text", None, "the person's name, shown at the prompt")
    }
    default_spec = "human"

    def __init__(
        self,
        game: Game,
        player: int,
        seed: int | None = None,
        spec: str = "",
        params: dict[str, str] | None = None,
        *,
        console: Console | None = None,
        stdin: TextIO | None = None,
        label: str | None = None,
        hot_seat: bool = False,
    ) -> None:
        Agent.__init__(self, game, player, seed, spec, params)
        name = self.params["name"]
        shown = label or name or f"player {player}"
        if name and label:
            shown = f"{label} ({name})"
        TerminalPrompt.__init__(self, console, stdin, shown, self.rng, shared_screen=hot_seat)
        self.hot_seat = hot_seat

    def act(self, view: PlayerView) -> Any:
        if self.hot_seat:
            self.pass_screen()
        self.show_view(view.game, view.observation_text(), view.observation(), self.player)
        legal = view.legal_actions()
        if len(legal) == 0:
            raise TussleError(f"{self.label} has no legal action to choose from")
        #: The view of the decision being asked for, which a command (``hint``) may read.
        self.view: PlayerView | None = view
        try:
            return self.read_action(Choices.of_view(view), view.parse_action)
        finally:
            self.view = None

    def show_help(self, view: PlayerView) -> None:
        """Explain the notation, with this position's legal actions (all, or a few of many) as examples."""
        self.help_for(Choices.of_view(view))
