"""The human agent: a person at the terminal who types actions in the game's notation.

It shows the person only their own player's observation (never another
player's secrets), reads one line per decision, lists the legal actions on
``?`` or ``help``, and asks again after a bad line with the one-line reason.
Typing ``quit`` or ending the input (Ctrl-D) raises :class:`PlayerQuitError`.

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

import sys
from typing import Any, TextIO

from rich.console import Console

from tussle.agents.base import Agent, PlayerView
from tussle.errors import AgentError, TussleError
from tussle.game import Game


class PlayerQuitError(Exception):
    """The person stopped the game: typed ``quit``, or the input ended."""


HELP_WORDS = ("?", "help")
QUIT_WORDS = ("quit", "exit")


class HumanAgent(Agent):
    """A person choosing actions by typing notation.

    ``console`` is where the view and the prompts go (a rich Console; standard
    output by default) and ``stdin`` is where lines are read from (standard
    input by default, read at the time of asking). ``label`` names the seat
    in prompts (the game's own name for it, like ``pig A``). With
    ``hot_seat`` set, several people share one screen in a game with hidden
    information: the screen is cleared and the agent waits for Enter before
    showing this seat's view.

    The spec may carry a display name: ``human:name=Ann``.
    """

    interactive = True

    #: Action sets up to this size are listed whole on ``?``; bigger ones by count and examples.
    LIST_LIMIT = 60
    EXAMPLES = 6

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
        super().__init__(game, player, seed, spec or "human")
        params = dict(params or {})
        name = params.pop("name", None)
        if params:
            raise AgentError(f"agent spec {spec!r}: human takes only name=..., not {', '.join(params)}")
        self.console = console if console is not None else Console(highlight=False)
        self._stdin = stdin
        self.label = label or name or f"player {player}"
        if name and label:
            self.label = f"{label} ({name})"
        self.hot_seat = hot_seat
        #: The last view text put on the screen for this seat, so it is not repeated.
        self.last_shown: str | None = None

    # --- deciding -----------------------------------------------------------

    def act(self, view: PlayerView) -> Any:
        if self.hot_seat:
            self.pass_screen()
        self.show(view.observation_text())
        legal = view.legal_actions()
        if len(legal) == 0:
            raise TussleError(f"{self.label} has no legal action to choose from")
        only = view.action_to_str(legal[0]) if len(legal) == 1 else None
        if only is not None:
            self.say(f"Only one legal action: {only} (press Enter to play it)")
        while True:
            line = self.ask(f"{self.label}, your action (? for help): ").strip()
            if not line:
                if only is not None:
                    return legal[0]
                continue
            word = line.lower()
            if word in HELP_WORDS:
                self.show_help(view)
                continue
            if word in QUIT_WORDS:
                raise PlayerQuitError(f"{self.label} quit")
            try:
                return view.parse_action(line)
            except TussleError as exc:
                self.say(f"  {exc} (type ? for the legal actions)")

    def show_help(self, view: PlayerView) -> None:
        """List the legal actions, or for a huge set their count and a few examples."""
        legal = view.legal_actions()
        count = len(legal)
        if count <= self.LIST_LIMIT:
            names = [view.action_to_str(a) for a in legal]
            self.say(f"{count} legal action{'s' if count != 1 else ''}:")
            width = max(len(n) for n in names) + 2 if names else 1
            per_line = max(1, 76 // width)
            for start in range(0, len(names), per_line):
                self.say("  " + "".join(n.ljust(width) for n in names[start : start + per_line]).rstrip())
        else:
            picks = sorted(self.rng.sample(range(count), self.EXAMPLES))
            examples = ", ".join(view.action_to_str(legal[i]) for i in picks)
            self.say(f"{count} legal actions, for example: {examples}")
        hint = getattr(view.info, "notation", "")
        if isinstance(hint, str) and hint:
            self.say(f"Notation: {hint}")
        self.say("Type an action, ? or help for this list, quit to stop the game.")

    # --- screen and keyboard ------------------------------------------------

    def show(self, text: str) -> None:
        """Put this seat's view on the screen unless it is already the last thing shown."""
        if text != self.last_shown:
            self.say(text)
            self.last_shown = text

    def say(self, text: str) -> None:
        self.console.print(text, markup=False, highlight=False, soft_wrap=True)

    def pass_screen(self) -> None:
        """Hide the screen and wait until the person at this seat presses Enter."""
        self.console.clear()  # does nothing when the output is not a terminal
        self.ask(f"Pass the screen to {self.label}, then press Enter. ")
        self.console.clear()
        self.last_shown = None

    def ask(self, prompt: str) -> str:
        """One line from the person; raises :class:`PlayerQuitError` at the end of the input."""
        stream = self._stdin if self._stdin is not None else sys.stdin
        if self._stdin is None and stream.isatty():
            # input() gives line editing and history on a terminal.
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
