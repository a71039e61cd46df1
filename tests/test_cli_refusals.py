"""Every silly argument to the command line is a one-line refusal (issue 40), and what looked silly
but is sound (a finished match run again) works: each case through the CLI as a person types it.
"""

from __future__ import annotations

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
