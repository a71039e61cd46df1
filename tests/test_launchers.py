"""The README's two commands, ./tussle and ./run-tests, with a stand-in virtual environment.

The environment's python, tussle, ruff, mypy and pytest are small scripts that
log how they were called, so these tests check when the launchers install the
project, what they run and how they fail, without a network or a real install.
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.skipif(shutil.which("bash") is None, reason="the launchers are bash scripts")


def stub(path: Path, body: str) -> None:
    path.write_text(f'#!/usr/bin/env bash\necho "{path.name} $*" >>"$STUB_LOG"\n{body}\n', encoding="utf-8")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)


@pytest.fixture
def venv(tmp_path: Path) -> Path:
    """A stand-in environment whose programs log their calls to ``log``."""
    env = tmp_path / "venv"
    (env / "bin").mkdir(parents=True)
    stub(env / "bin" / "python", "exit 0")
    stub(env / "bin" / "tussle", 'echo "tussle ran with: $*"')
    for tool in ("ruff", "mypy", "pytest"):
        stub(env / "bin" / tool, "exit 0")
    return env


def run(script: str, venv: Path, *args: str, **extra: str) -> subprocess.CompletedProcess[str]:
    env = os.environ | {"TUSSLE_VENV": str(venv), "STUB_LOG": str(venv / "log")} | extra
    return subprocess.run(
        [str(ROOT / script), *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        stdin=subprocess.DEVNULL,
    )


def calls(venv: Path) -> list[str]:
    log = venv / "log"
    lines = log.read_text(encoding="utf-8").splitlines() if log.exists() else []
    log.unlink(missing_ok=True)
    return lines


INSTALL = "python -m pip install --disable-pip-version-check --progress-bar off -e"


def test_the_launchers_are_executable() -> None:
    for script in ("tussle", "run-tests"):
        mode = (ROOT / script).stat().st_mode
        assert mode & stat.S_IXUSR, f"{script} is not executable"
        assert (ROOT / script).read_text(encoding="utf-8").startswith("#!/usr/bin/env bash\n")


def test_tussle_installs_once_then_runs(venv: Path) -> None:
    first = run("tussle", venv, "play", "robo-pigs")
    assert first.returncode == 0, first.stderr
    assert first.stdout == "tussle ran with: play robo-pigs\n"
    assert calls(venv) == [f"{INSTALL} .", "tussle play robo-pigs"]
    assert "installing tussle into" in first.stderr

    again = run("tussle", venv, "--help")
    assert again.returncode == 0 and again.stderr == ""
    assert calls(venv) == ["tussle --help"], "a second start must not install again"


def test_a_changed_pyproject_installs_again(venv: Path) -> None:
    run("tussle", venv)
    stamp = venv / ".tussle-stamp"
    stamp.write_text("an older hash\n\n", encoding="utf-8")
    calls(venv)
    run("tussle", venv, "games")
    assert calls(venv) == [f"{INSTALL} .", "tussle games"]


def test_run_tests_installs_the_dev_tools_and_runs_every_stage(venv: Path) -> None:
    done = run("run-tests", venv, "-k", "record")
    assert done.returncode == 0, done.stderr
    assert calls(venv) == [
        f"{INSTALL} .[dev]",
        "ruff check .",
        "ruff format --check .",
        "mypy ",
        "pytest -n 2 --dist loadgroup -k record",
    ]
    assert "all stages passed" in done.stdout
    # The dev install also serves ./tussle, and keeps the dev tools on a reinstall.
    run("tussle", venv)
    assert calls(venv) == ["tussle "]
    (venv / ".tussle-stamp").write_text("an older hash\ndev\n", encoding="utf-8")
    run("tussle", venv)
    assert calls(venv)[0] == f"{INSTALL} .[dev]"


def test_run_tests_stops_at_the_first_failing_stage(venv: Path) -> None:
    stub(venv / "bin" / "mypy", "exit 3")
    done = run("run-tests", venv)
    assert done.returncode != 0
    assert [c.split()[0] for c in calls(venv)][-2:] == ["ruff", "mypy"], "pytest must not run after a failure"
    assert "run-tests: FAILED at mypy" in done.stderr


def test_a_failed_install_stops_with_a_message(venv: Path) -> None:
    stub(venv / "bin" / "python", "exit 1")
    done = run("tussle", venv, "games")
    assert done.returncode != 0
    assert "installing tussle into" in done.stderr and "failed" in done.stderr
    assert not (venv / ".tussle-stamp").exists()
    assert "tussle games" not in calls(venv)


@pytest.mark.parametrize(
    ("args", "extras", "target"),
    [
        (["play", "robo-pigs"], {}, "."),
        (["serve"], {}, ".[server]"),
        (["serve", "--db", "postgresql://db/tussle"], {}, ".[server,postgres]"),
        (["serve"], {"TUSSLE_DB": "postgresql://db/tussle"}, ".[server,postgres]"),
        (["balance", "fite", "--cluster", "ray"], {}, ".[balance,cluster]"),
        (["fite-odds"], {}, ".[balance]"),
        (["match", "fite", "rule", "rule", "--cluster=ray:auto"], {}, ".[cluster]"),
        (["bench", "--adapters"], {}, ".[bench,rl]"),
        (["match", "fite", "random", "random", "--engine", "batch"], {}, ".[jax]"),
        (["balance", "fite", "--engine=batch"], {}, ".[balance,jax]"),
        (["match", "fite", "random", "random", "--engine", "scalar"], {}, "."),
        (["bench", "--batch"], {}, ".[bench,jax]"),
        (["play", "robo-pigs"], {"TUSSLE_EXTRAS": "all"}, ".[all]"),
        (["games"], {"TUSSLE_EXTRAS": "server,balance"}, ".[server,balance]"),
    ],
)
def test_tussle_installs_the_extras_the_command_needs(
    venv: Path, args: list[str], extras: dict[str, str], target: str
) -> None:
    done = run("tussle", venv, *args, **extras)
    assert done.returncode == 0, done.stderr
    assert calls(venv) == [f"{INSTALL} {target}", f"tussle {' '.join(args)}"]
    # One line before pip runs, with what it installs and about how much.
    assert done.stderr.count("\n") == 1 and " MB; " in done.stderr, done.stderr


def test_an_extra_installed_once_stays_and_the_base_size_is_said(venv: Path) -> None:
    first = run("tussle", venv, "games")
    assert "(about 23 MB;" in first.stderr
    run("tussle", venv, "serve")
    assert calls(venv)[-2] == f"{INSTALL} .[server]"
    again = run("tussle", venv, "play", "robo-pigs")
    assert again.stderr == "" and calls(venv) == ["tussle play robo-pigs"], "the server extra stays"
    run("tussle", venv, "balance", "fite")
    assert calls(venv)[0] == f"{INSTALL} .[server,balance]"


def test_a_failed_install_shows_what_pip_said(venv: Path) -> None:
    pip = 'echo "Collecting something"; echo "ERROR: no matching distribution" >&2; exit 1'
    stub(venv / "bin" / "python", pip)
    done = run("tussle", venv, "serve")
    assert done.returncode != 0
    assert "ERROR: no matching distribution" in done.stderr and "failed" in done.stderr


def test_a_missing_python_is_named(tmp_path: Path) -> None:
    done = run("tussle", tmp_path / "new-venv", "games", PYTHON=str(tmp_path / "no-python"))
    assert done.returncode != 0
    assert "cannot find" in done.stderr and "no-python" in done.stderr


def test_a_folder_that_is_no_environment_is_left_alone(tmp_path: Path) -> None:
    folder = tmp_path / "papers"
    folder.mkdir()
    (folder / "thesis.txt").write_text("keep me", encoding="utf-8")
    done = run("tussle", folder, "games")
    assert done.returncode != 0
    assert "is not empty and not a virtual environment" in done.stderr
    assert (folder / "thesis.txt").read_text(encoding="utf-8") == "keep me"
