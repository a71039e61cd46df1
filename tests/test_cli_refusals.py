"""Every silly argument to the command line is a one-line refusal (issue 40), and what looked silly
but is sound (a finished match run again) works: each case through the CLI as a person types it.
"""

from __future__ import annotations

import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from tussle.cli import cli

BIG = "99999999999999999999"


def run(*args: str, stdin: str | None = None) -> Result:
    return CliRunner().invoke(cli, list(args), input=stdin)


def refused(result: Result, *words: str) -> str:
    """The one error line of a refused command: exit code 2, no traceback, nothing on standard output."""
    assert result.exit_code == 2, (result.output, result.exception)
    assert "Traceback" not in result.output
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("tussle: error: ")
    assert len(lines[0]) < 300, lines[0]
    for word in words:
        assert word in lines[0], lines[0]
    return lines[0]


# --- a finished match run again ------------------------------------------------------------


@pytest.mark.parametrize("as_json", [True, False])
def test_a_finished_match_with_records_runs_again(tmp_path: Path, as_json: bool) -> None:
    args = ["match", "robo-pigs", "random", "random", "-n", "4", "--record", str(tmp_path / "games")]
    args += ["--json"] if as_json else []
    first = run(*args)
    assert first.exit_code == 0, first.stderr
    again = run(*args)
    assert again.exit_code == 0, (again.stderr, again.exception)
    assert "all 4 games" in again.stderr and "complete" in again.stderr
    assert again.stdout == first.stdout  # the same summary, from the records saved
    more = run(*[a if a != "4" else "6" for a in args])  # a larger -n plays only the new games
    assert more.exit_code == 0, more.stderr
    assert "4 of the 6 games" in more.stderr
    assert len(list((tmp_path / "games").glob("robo-pigs-*.json"))) == 6


# --- every count capped -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["match", "robo-pigs", "random", "random", "-n", BIG], ["--games", "1<=x<=1000000"]),
        (["match", "robo-pigs", "random", "random", "-n", "1000001"], ["--games", "1<=x<=1000000"]),
        (["match", "robo-pigs", "random", "random", "-n", "1", "--jobs", BIG], ["--jobs", "1<=x<=256"]),
        (["match", "robo-pigs", "random", "random", "-n", "1", "--chunk", BIG], ["--chunk", "1<=x<=1000000"]),
        (["match", "robo-pigs", "random", "random", "-n", "1", "--seed", BIG], ["--seed"]),
        (["match", "robo-pigs", "random", "random", "-n", "9" * 5000], ["--games", "5,000 characters"]),
        (["ladder", "robo-pigs", "random", "rule", "-n", "999999999999999998"], ["--games"]),
        (["ladder", "robo-pigs", "random", "rule", "-n", "2", "--openings", BIG], ["--openings"]),
        (["ladder", "robo-pigs", "random", "rule", "-n", "2", "--seed", f"-{BIG}"], ["--seed"]),
        (["tournament", "robo-pigs", "-e", "a=random", "-e", "b=random", "--seed", BIG], ["--seed"]),
        (["play", "robo-pigs", "-p", "random,random", "--seed", BIG], ["--seed"]),
        (["balance", "robo-pigs", "-n", BIG], ["--games"]),
        (["balance", "robo-pigs", "-n", "2", "--jobs", BIG], ["--jobs"]),
        (["balance", "robo-pigs", "-n", "2", "--seed", BIG], ["--seed"]),
        (["balance", "robo-pigs", "-n", "2", "--openings", BIG], ["--openings", "0 (none) to 1000"]),
        (["bench", "robo-pigs", "--seconds", BIG], ["--seconds", "0<x<=3600"]),
        (["bench", "robo-pigs", "--seconds", "inf"], ["--seconds"]),
        (["bench", "robo-pigs", "--seconds", "nan"], ["--seconds", "not a finite number"]),
        (["bench", "robo-pigs", "--rounds", BIG], ["--rounds", "1<=x<=1000"]),
        (["bench", "robo-pigs", "--seed", BIG], ["--seed"]),
        (["bench", "--vs-openspiel", "fightopia", "--games", BIG], ["--games"]),
        (["bench", "--vs-openspiel", "fightopia", "--move-seconds", BIG], ["--move-seconds"]),
        (["bench", "--server", "--computers", "nan"], ["--computers", "not a finite number"]),
        (["bench", "--scaling", "--cpus", BIG], ["--cpus", "from 1 to 256"]),
        (["serve", "--move-time", "nan"], ["--move-time", "not a finite number"]),
        (["serve", "--abandon-after", "nan"], ["--abandon-after", "not a finite number"]),
    ],
)
def test_every_count_is_capped(args: list[str], words: list[str], tmp_path: Path) -> None:
    result = run(*args, "--out", str(tmp_path / "out")) if args[0] == "balance" else run(*args)
    refused(result, *words)
    assert not (tmp_path / "out").exists()  # refused before anything ran


# --- an agent parameter of another game -------------------------------------------------------


def test_a_power_of_another_game_says_whose_it_is() -> None:
    line = refused(run("tournament", "tank-chess", "-e", "a=rule:brutal", "-e", "b=random"), "entrant a")
    assert "'brutal' is a FITE power, not a Tank Chess one" in line
    line = refused(run("match", "tank-chess", "rule:brutal", "random", "-n", "2"))
    assert "'brutal' is a FITE power" in line and "lookahead" in line  # and the rule agent's parameters


def test_two_powers_for_one_entrant_are_said_as_such() -> None:
    refused(run("tournament", "fite", "-e", "a=rule:brutal:swift", "-e", "b=random"), "two powers")


def test_a_word_that_is_no_power_anywhere_lists_the_parameters() -> None:
    line = refused(run("tournament", "tank-chess", "-e", "a=rule:zzz", "-e", "b=random"), "'zzz'")
    assert "lookahead" in line


# --- file errors name the file ---------------------------------------------------------------


def test_replay_of_a_file_that_is_no_record_names_it(tmp_path: Path) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("root:x:0:0:root:/root:/bin/bash\n", encoding="utf-8")
    # A long path is shortened at its start: the name is what must show.
    refused(run("replay", str(notes)), f"{notes.name}: not valid JSON")
    bad = tmp_path / "bad.json"
    bad.write_text('{"game": "robo-pigs", "events": [{"player": 0, "action": "zz"}]}', encoding="utf-8")
    refused(run("replay", str(bad)), f"{bad.name}: event 0")


@pytest.mark.parametrize(
    "args",
    [
        ["match", "robo-pigs", "random", "random", "-n", "1", "--record", ""],
        ["ladder", "robo-pigs", "random", "rule", "-n", "2", "--record", " "],
        ["tournament", "robo-pigs", "-e", "a=random", "-e", "b=random", "--record", ""],
        ["play", "robo-pigs", "-p", "random,random", "--record", ""],
        ["replay", ""],
        ["ladder", "robo-pigs", "random", "rule", "-n", "2", "--reuse", ""],
        ["balance", "robo-pigs", "-n", "2", "--out", ""],
    ],
)
def test_an_empty_file_or_folder_name_is_refused(
    args: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # an empty name was the current folder: it must stay empty
    refused(run(*args), "an empty name is no file or folder")
    assert list(tmp_path.iterdir()) == []


def test_bench_of_an_unknown_search_agent_is_refused() -> None:
    refused(run("bench", "robo-pigs", "--search", "nosuch", "--seconds", "0.01"), "unknown agent 'nosuch'")


# --- tussle rules pages on a terminal -----------------------------------------------------------


def _rules_through(stdin: int | None, stdout: int | None) -> subprocess.Popen[bytes]:
    # The pager marks each line it shows, so that the test sees whether the text went through it.
    env = {**os.environ, "PAGER": "sed s/^/paged:/", "COLUMNS": "100", "LINES": "40", "TERM": "xterm"}
    env.pop("NO_COLOR", None)
    command = [sys.executable, "-m", "tussle", "rules", "robo-pigs"]
    return subprocess.Popen(command, stdin=stdin, stdout=stdout, stderr=stdout, env=env)


def test_rules_go_through_the_pager_on_a_terminal() -> None:
    controller, terminal = pty.openpty()
    process = _rules_through(terminal, terminal)
    os.close(terminal)
    shown = b""
    while True:
        try:
            chunk = os.read(controller, 65536)
        except OSError:  # the terminal's other end closed: all was read
            break
        if not chunk:
            break
        shown += chunk
    assert process.wait(timeout=60) == 0
    os.close(controller)
    lines = [line for line in shown.decode("utf-8", "replace").splitlines() if line.strip()]
    assert len(lines) > 20 and all(line.startswith("paged:") for line in lines), lines[:3]


def test_rules_are_plain_text_off_a_terminal() -> None:
    process = _rules_through(subprocess.DEVNULL, subprocess.PIPE)
    out, _ = process.communicate(timeout=60)
    assert process.returncode == 0
    text = out.decode("utf-8")
    assert "Robo Battle Pigs" in text and "paged:" not in text and "\x1b[" not in text
