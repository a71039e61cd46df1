"""tussle play in a real terminal (tmux): what a person at a shared screen can and cannot see.

These tests look at what the terminal holds, screen and scrollback, not at
the API: a hot-seat player must not find the previous player's secret by
scrolling up (or with ``tmux capture-pane -S``). They need tmux, which
`.ci/run` installs when it is missing; without it they are skipped with the
reason said.
"""

from __future__ import annotations

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
    """Starts ``tussle ARGS...`` in a terminal of its own, closed after the test."""
    made: list[Terminal] = []

    def start(*args: str) -> Terminal:
        t = Terminal([sys.executable, "-m", "tussle", *args], tmp_path)
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
