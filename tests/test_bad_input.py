"""Bad input of every kind gets a one-line error and loses nothing: huge numbers, huge texts,
control characters, invalid Unicode, files that are no files.

Each case goes through the command line as a person would type it; a fuzz test
feeds the play prompt, ``-o`` options, ``tussle step`` and records with
generated garbage and checks that no traceback ever comes out.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tussle import ActionError, AgentError, OptionError, agents, load_game
from tussle.agents.base import Agent, PlayerView
from tussle.cli import cli

HUGE = "9" * 5000


def invoke(*args: str, stdin: str | None = None) -> Result:
    # Typed text goes in as bytes: a lone surrogate becomes the invalid UTF-8 a terminal can send.
    typed = stdin.encode("utf-8", "surrogatepass") if stdin is not None else None
    return CliRunner().invoke(cli, list(args), input=typed)


def one_line_error(result: Result) -> str:
    """The one error line of a failed command (checked to be the only one, with exit code 2)."""
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("tussle: error: ")
    assert len(lines[0]) < 400, lines[0]  # the input is shortened, never echoed whole
    return lines[0]


# --- huge numbers ------------------------------------------------------------------------


def test_a_huge_number_at_the_prompt_is_refused_and_the_game_goes_on(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    typed = f"tac 5\n{HUGE}\noff 1\nquit\n"
    result = invoke("play", "fite", "-p", "human,random", "--seed", "1", "--record", str(record), stdin=typed)
    assert "Traceback" not in result.output
    assert "5,000 characters" in result.output  # said in one shortened line, then asked again
    assert "game abandoned" in result.stderr
    events = json.loads(record.read_text())["events"]
    assert {"player": 0, "action": "tac 5"} in events  # what was played is kept


@pytest.mark.parametrize(
    ("game", "text"),
    [("fite", "tac " + HUGE), ("fite", "off " + HUGE), ("fite", "5/" + HUGE), ("fight", "activate p" + HUGE)],
)
def test_huge_numbers_in_notation_are_action_errors(game: str, text: str) -> None:
    state = load_game(game).new_initial_state()
    with pytest.raises(ActionError, match="characters"):
        state.parse_action(0, text)
    with pytest.raises(ActionError, match="a number of 30 digits is more than any game reads"):
        state.parse_action(0, "tac " + "9" * 30)


def test_huge_numbers_in_options_step_and_files(tmp_path: Path) -> None:
    assert "at most 18" in one_line_error(
        invoke("match", "fite", "random", "random", "-o", f"turn_limit={HUGE}")
    )
    assert "5,004 characters" in one_line_error(invoke("step", "fite", f"0:tac {HUGE}"))
    assert "is not a player" in one_line_error(invoke("step", "fite", f"{HUGE}:tac 5"))
    assert "5,000 digits" in one_line_error(invoke("step", "robo-pigs", "--position", f"d8S0 e1N0 {HUGE}"))
    record = tmp_path / "big.json"
    record.write_text(
        json.dumps({"game": "fite", "events": []})[:-1] + f', "options": {{"turn_limit": {HUGE}}}}}'
    )
    assert "5,000 digits" in one_line_error(invoke("replay", str(record)))
    ladder = tmp_path / "ladder.json"
    ladder.write_text(f'{{"game": "fite", "seed": {HUGE}}}')
    assert "5,000 digits" in one_line_error(
        invoke("ladder", "fite", "random", "rule", "-n", "2", "--reuse", str(ladder))
    )
    with pytest.raises(OptionError, match="at most 18"):
        load_game("fite", turn_limit=HUGE)


def test_other_scripts_digits_are_refused_alike() -> None:
    # int() reads Arabic-Indic and full-width digits; no game's notation does.
    for game, text in (("fite", "tac \u0665"), ("fite", "off \uff11"), ("fight", "activate p\u0661")):
        with pytest.raises(ActionError, match="only the digits 0-9 are read"):
            load_game(game).new_initial_state().parse_action(0, text)
    with pytest.raises(OptionError, match="is not an integer"):
        load_game("fite", turn_limit="\u0661\u0660")


# --- files that are no files, huge texts, control characters ------------------------------


def test_devices_and_fifos_are_refused_without_reading(tmp_path: Path) -> None:
    assert "not a regular file" in one_line_error(invoke("replay", "/dev/zero"))
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    assert "not a regular file" in one_line_error(invoke("replay", str(fifo)))  # would block if opened


def test_a_huge_action_is_named_shortly(tmp_path: Path) -> None:
    line = one_line_error(invoke("step", "robo-pigs", "0:" + "F " * 1_000_000))
    assert "(1,999,999 characters) is too long for any action" in line


def test_names_from_a_record_are_printed_escaped(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    name = "Ann\x1b[2J\x1b[31m"
    record.write_text(json.dumps({"game": "fite", "players": [name, "Bob\ud800"], "events": []}))
    result = invoke("replay", str(record))
    assert result.exit_code == 0, result.output
    assert "\x1b" not in result.output and "\ud800" not in result.output
    assert "Ann\\x1b[2J\\x1b[31m" in result.output and "Bob\\ud800" in result.output


def test_choice_options_are_read_without_regard_to_case() -> None:
    assert load_game("robo-pigs", repair_at="START").options["repair_at"] == "start"


# --- the fuzz test -----------------------------------------------------------------------

GARBAGE = st.one_of(
    st.text(max_size=40),
    st.sampled_from([HUGE, "9" * 19, "\x1b[2J", "\ud800", "[" * 5000, "-" + HUGE, "\u0661\u0662", "\x00"]),
    st.sampled_from(
        ['{"a": ' * 3000, "a = [" * 3000, '{"warriors": [{"power": ' + HUGE + "}]}", "x = " + HUGE]
    ),
    st.builds(lambda a, b: a + b, st.text(max_size=10), st.sampled_from([HUGE, "\x1b]0;x\x07", "\udfff"])),
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(GARBAGE, st.sampled_from(["fite", "fight", "robo-pigs", "fightopia", "tank-chess"]))
def test_no_garbage_anywhere_gives_a_traceback(tmp_path: Path, garbage: str, game: str) -> None:
    results = [
        invoke("play", game, "-p", "human,random", "--seed", "1", stdin=f"{garbage}\nquit\n"),
        invoke("match", game, "random", "random", "-n", "1", "-o", f"x={garbage}"),
        invoke("step", game, f"0:{garbage}"),
        invoke("step", game, "--position", garbage),
    ]
    for option in load_game(game).info.options:
        results.append(invoke("step", game, "-o", f"{option.name}={garbage}"))
    record = tmp_path / "fuzz.json"
    record.write_text(
        json.dumps(
            {"game": game, "players": [garbage, garbage], "events": [{"player": 0, "action": garbage}]}
        ),
        encoding="utf-8",
        errors="surrogatepass",
    )
    results.append(invoke("replay", str(record)))
    # Garbage as whole files: a record, a ladder to reuse, a deck in each of its formats.
    for name in ("raw.json", "deck.json", "deck.toml"):
        (tmp_path / name).write_text(garbage, encoding="utf-8", errors="surrogatepass")
    results.append(invoke("replay", str(tmp_path / "raw.json")))
    results.append(
        invoke("ladder", game, "random", "random2=random", "-n", "2", "--reuse", str(tmp_path / "raw.json"))
    )
    for deck in ("deck.json", "deck.toml"):
        results.append(
            invoke("match", "fight", "random", "random", "-n", "1", "-o", f"deck={tmp_path / deck}")
        )
    for result in results:
        assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
        assert "Traceback" not in result.output
        assert result.exit_code in (0, 2), result.output


class _Breaks(Agent):
    """Plays at random, then fails on its third decision: a stand-in for anything going wrong mid-game."""

    def setup(self) -> None:
        self.decisions = 0

    def act(self, view: PlayerView) -> Any:
        self.decisions += 1
        if self.decisions == 3:
            raise AgentError("the agent broke down")
        return view.legal_actions().sample(self.rng)


def test_play_keeps_its_record_whatever_stops_the_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(agents._GENERAL, "breaks", f"{__name__}:_Breaks")
    monkeypatch.setitem(agents._HELP, "breaks", "fails on its third decision")
    record = tmp_path / "game.json"
    result = invoke("play", "fite", "-p", "random,breaks", "--seed", "1", "--record", str(record))
    assert "the agent broke down" in one_line_error(result)
    events = json.loads(record.read_text())["events"]
    assert sum(1 for e in events if e["player"] == 1) == 2  # the two decisions it made are kept
