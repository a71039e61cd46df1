"""tussle play in a real terminal (tmux): what a person at a shared screen can and cannot see.

These tests look at what the terminal holds, screen and scrollback, not at
the API: a hot-seat player must not find the previous player's secret by
scrolling up (or with ``tmux capture-pane -S``), nor bring it back at the
prompt with Up (the line history) or Ctrl-Y (what was deleted), and nothing
typed reaches a history file. They need tmux, which
`.ci/run` installs when it is missing; without it they are skipped with the
reason said.
"""

from __future__ import annotations

import itertools
import shlex
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


class Terminal:
    """A tmux session of its own (its own server socket) running one command."""

    def __init__(self, command: list[str], cwd: Path) -> None:
        self.socket = f"tussle-test-{uuid.uuid4().hex[:12]}"
        self.session = "t"
        shell = " ".join(shlex.quote(part) for part in command) + "; sleep 30"
        self._tmux("new-session", "-d", "-s", self.session, "-x", "100", "-y", "30", "-c", str(cwd), shell)
        self._tmux("set-option", "-t", self.session, "history-limit", "10000")

    def _tmux(self, *args: str) -> str:
        done = subprocess.run(["tmux", "-L", self.socket, *args], capture_output=True, text=True, check=True)
        return done.stdout

    def type(self, text: str) -> None:
        self._tmux("send-keys", "-t", self.session, "-l", text)
        self._tmux("send-keys", "-t", self.session, "Enter")

    def keys(self, *keys: str) -> None:
        self._tmux("send-keys", "-t", self.session, *keys)

    def everything(self) -> str:
        """The screen and the whole scrollback."""
        return self._tmux("capture-pane", "-p", "-t", self.session, "-S", "-", "-E", "-")

    def screen(self) -> str:
        """The screen alone, without the scrollback."""
        return self._tmux("capture-pane", "-p", "-t", self.session)

    def wait_for(self, text: str, timeout: float = 20.0) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            seen = self.everything()
            if text in seen:
                return seen
            time.sleep(0.1)
        raise AssertionError(f"{text!r} never appeared; the terminal holds:\n{self.everything()}")

    def close(self) -> None:
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True, check=False)


Start = Callable[..., Terminal]


@pytest.fixture
def terminal(tmp_path: Path) -> Iterator[Start]:
    """Starts ``tussle ARGS...`` in a terminal of its own, closed after the test.

    HOME is ``tmp_path/home``, empty: no one's ~/.inputrc changes the keys, and
    a test can see what the game wrote there.
    """
    made: list[Terminal] = []
    home = tmp_path / "home"
    home.mkdir()

    def start(*args: str) -> Terminal:
        t = Terminal(["env", f"HOME={home}", sys.executable, "-m", "tussle", *args], tmp_path)
        made.append(t)
        return t

    yield start
    for t in made:
        t.close()


def test_hot_seat_leaves_no_secret_in_the_scrollback(terminal: Start) -> None:
    t = terminal("play", "robo-pigs", "-p", "human,human", "--seed", "1")
    t.wait_for("Pass the screen to pig A")
    t.type("")
    t.wait_for("pig A, your action")
    t.type("F TL F TR F")  # pig A's secret program
    held = t.wait_for("Pass the screen to pig B")
    assert "F TL F TR F" not in held, held
    t.type("")
    held = t.wait_for("pig B, your action")
    assert "F TL F TR F" not in held, held


def test_the_prompt_edits_lines_and_keeps_a_history(terminal: Start) -> None:
    t = terminal("play", "fite", "-p", "human,random", "--seed", "1")
    t.wait_for("your action")
    t.type("tac 9")  # out of range: refused, asked again
    t.wait_for("(type ? for the legal actions)")
    # Up brings the last line back; Backspace edits it: "tac 9" becomes "tac 5", which is legal.
    t.keys("Up", "BSpace")
    t.type("5")
    t.wait_for("at tactical (5)")


_marks = itertools.count()


def _recalled(t: Terminal, prompt: str, *keys: str) -> str:
    """What the line at ``prompt`` holds after pressing ``keys``: what the person there brings back.

    A mark typed after the keys shows when readline has handled them (no fixed
    sleep); then the line is emptied again.
    """
    mark = f"<{next(_marks)}>"
    t.keys(*keys)
    t.keys("-l", mark)
    prompt = prompt.rstrip()
    deadline = time.monotonic() + 20.0
    while time.monotonic() < deadline:
        lines = [line for line in t.screen().splitlines() if line.startswith(prompt) and line.endswith(mark)]
        if lines:
            held = lines[-1][len(prompt) : -len(mark)].strip()
            t.keys(*["BSpace"] * (len(held) + len(mark) + 1))
            return held
        time.sleep(0.1)
    raise AssertionError(f"{mark} never came after {prompt!r}; the screen holds:\n{t.screen()}")


def _pass_to(t: Terminal, seat: str, *secrets: str) -> str:
    """Pass the screen to ``seat``, with nothing to bring back at the pass and none of ``secrets``
    on the screen or scrolled off it; ``seat``'s prompt, where it now is.
    """
    pass_prompt = f"Pass the screen to {seat}, then press Enter."
    t.wait_for(pass_prompt)
    assert _recalled(t, pass_prompt, "Up", "Up") == ""
    assert _recalled(t, pass_prompt, "C-y") == ""
    t.type("")
    held = t.wait_for(f"{seat}, your action")
    for secret in secrets:
        assert secret not in held, held
    return f"{seat}, your action (? for help):"


def _nothing_written(home: Path, *secrets: str) -> None:
    for path in home.rglob("*"):
        if path.is_file():
            text = path.read_text(errors="replace")
            assert not any(s in text for s in secrets), f"{path} holds a seat's input"


def test_robo_pigs_at_one_screen_each_seat_recalls_only_its_own_lines(
    terminal: Start, tmp_path: Path
) -> None:
    t = terminal("play", "robo-pigs", "-p", "human,human", "--seed", "1")
    _pass_to(t, "pig A")
    t.keys("-l", "TR TR H TR TR")  # a first program, deleted: it goes to readline's kill ring
    t.keys("C-u")
    t.type("F TL F TR F")
    prompt = _pass_to(t, "pig B", "TR TR H TR TR", "F TL F TR F")
    assert _recalled(t, prompt, "Up", "Up") == ""
    assert _recalled(t, prompt, "C-y") == ""
    t.type("F F TL F F")
    prompt = _pass_to(t, "pig A")
    assert _recalled(t, prompt, "Up", "Up") == "F TL F TR F"
    t.type("quit")
    t.wait_for("game abandoned")
    _nothing_written(tmp_path / "home", "F TL F TR F", "F F TL F F")


def test_fite_at_one_screen_each_seat_recalls_only_its_own_lines(terminal: Start, tmp_path: Path) -> None:
    t = terminal("play", "fite", "-p", "human,human", "--seed", "1")
    _pass_to(t, "fighter A")
    t.type("Def 4")  # the secret placement, in a spelling no view uses
    prompt = _pass_to(t, "fighter B", "Def 4")
    assert _recalled(t, prompt, "Up", "Up") == ""
    t.type("Off 2")
    prompt = _pass_to(t, "fighter A", "Off 2")
    assert _recalled(t, prompt, "Up", "Up") == "Def 4"
    t.type("quit")
    t.wait_for("game abandoned")
    _nothing_written(tmp_path / "home", "Def 4", "Off 2")


def test_fight_with_three_at_one_screen_each_seat_recalls_only_its_own_lines(terminal: Start) -> None:
    t = terminal("play", "fight", "-p", "human,human,human", "--seed", "1")
    _pass_to(t, "p0")
    t.type("main Zero Forge boost Quasar")  # Quasar is played face down
    prompt = _pass_to(t, "p1", "main Zero Forge boost Quasar", "Quasar")
    assert _recalled(t, prompt, "Up", "Up") == ""
    t.type("main Magpie boost Hive Queen")
    prompt = _pass_to(
        t, "p2", "main Zero Forge boost Quasar", "Quasar", "main Magpie boost Hive Queen", "Hive Queen"
    )
    assert _recalled(t, prompt, "Up", "Up") == ""
    t.type("main Plague Lord boost Archfiend")
    prompt = _pass_to(t, "p0", "main Magpie boost Hive Queen", "Hive Queen", "Archfiend")
    assert _recalled(t, prompt, "Up", "Up") == "main Zero Forge boost Quasar"


def test_a_server_seat_sharing_the_terminal_leaves_no_token_and_no_line_behind(
    terminal: Start, tmp_path: Path
) -> None:
    from test_server import Server

    server = Server(f"sqlite:///{tmp_path / 'seat.db'}")
    try:
        seats = [{"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Bo"}]
        made = server.post("/api/games", {"game": "fite", "seats": seats})[1]
        token = made["seats"][0]["token"]
        t = terminal("play", "--seat", "-")  # the command line holds no token, nor does the shell's history
        t.wait_for("Your seat's link (not shown):")
        t.type(f"{server.url}/play/{made['id']}#{token}")
        t.wait_for("fighter A, your action (? for help):")
        assert token not in t.everything()  # typed without echo
        t.type("Def 4")  # a placement; then the player leaves the terminal to the next one
        t.wait_for("waiting for the other fighter")
        t.keys("C-c")
        t.wait_for("interrupted, left game")
        held = t.everything()
        assert token not in held and "Def 4" not in held and "Your action" not in held
    finally:
        server.stop()


# --- colour, the thinking line, the time used, the move list --------------------------------------

ESC = "\x1b["


def _coloured(t: Terminal) -> str:
    """The screen and the scrollback with the escape codes of their colours and attributes."""
    return t._tmux("capture-pane", "-p", "-e", "-t", t.session, "-S", "-", "-E", "-")


def test_a_game_against_the_computer_in_colour_with_its_thinking_time_and_moves(terminal: Start) -> None:
    # A search slow enough to be seen thinking for a few seconds.
    t = terminal("play", "fightopia", "-p", "human,alphabeta:iterations=40000", "--seed", "1")
    t.wait_for("You play White.")
    t.wait_for("White, your action")
    board = _coloured(t)
    assert "36mP" in board and "31mp" in board, board  # White's pieces in one colour, Black's in another
    assert "7m" not in board and "Time used" not in board  # no move yet
    t.type("c3-c4")
    # Shown while it searches (whether it reaches "1 s" depends on the machine's speed).
    t.wait_for("alphabeta:iterations=40000 (Black) is thinking... ")
    held = t.wait_for("Time used: White (you) ")
    assert "is thinking" not in held  # gone once the computer moved
    assert "Black (alphabeta:iterations=40000) " in held.split("Time used: ")[-1]
    assert "7m" in _coloured(t)  # the last move's squares in reverse video
    t.type("moves")
    t.wait_for("  1. chance: first white")
    t.wait_for("  2. White (you): c3-c4")
    t.wait_for("  3. Black (alphabeta:iterations=40000): ")
    t.type("quit")
    t.wait_for("game abandoned")


def test_no_color_means_no_escape_codes(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    command = ["env", f"HOME={home}", "NO_COLOR=1", sys.executable, "-m", "tussle", "play", "fightopia"]
    t = Terminal([*command, "--seed", "1", "-p", "human,easy"], tmp_path)
    try:
        t.wait_for("White, your action")
        assert ESC not in _coloured(t)
    finally:
        t.close()


def test_fight_in_colour_shows_nothing_of_the_other_hand(terminal: Start, tmp_path: Path) -> None:
    from tussle.record import Record

    path = tmp_path / "fight.json"
    t = terminal("play", "fight", "-p", "human,easy", "--seed", "1", "--record", str(path))
    t.wait_for("You play p0.")
    t.wait_for("p0, your action")
    seen = _coloured(t)
    t.type("quit")
    t.wait_for("game abandoned")
    assert ESC in seen and "2m[" in seen  # coloured, p1's hand dimmed as card backs
    dealt = Record.load(path).final_state()
    hand = [c["name"] for c in dealt.observation(1)["seats"][1]["hand"]]
    mine = [c["name"] for c in dealt.observation(0)["seats"][0]["hand"]]
    assert hand and all(name in seen for name in mine)
    for name in hand:
        if name not in mine:
            assert name not in seen, f"p1's {name} is on p0's screen"
