"""The worked training example of docs/ecosystem.md: MaskablePPO on FITE, short, run as a user runs it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("sb3_contrib")

EXAMPLE = Path(__file__).parent.parent / "examples" / "maskable_ppo.py"


def example(*args: str) -> subprocess.CompletedProcess[str]:
    """The example run as a user runs it, with ``args``."""
    return subprocess.run(
        [sys.executable, str(EXAMPLE), *args], capture_output=True, text=True, timeout=600, check=False
    )


def run(*args: str) -> dict[str, object]:
    done = example(*args)
    assert done.returncode == 0, done.stderr
    line: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return line


def test_maskable_ppo_learns_fite_against_random() -> None:
    # Two PPO rollouts (4,096 decisions, about 20 CPU seconds): the full run in the docs
    # (50,000 decisions) reaches 80%; this checks the pieces fit and that learning happens.
    untrained = run("fite", "--timesteps", "0", "--games", "300")
    trained = run("fite", "--timesteps", "4096", "--games", "300")
    assert trained["timesteps"] == 4096 and trained["games"] == 300
    assert isinstance(trained["score"], float) and isinstance(untrained["score"], float)
    assert trained["score"] >= 0.65
    assert trained["score"] >= untrained["score"] + 0.1
    assert isinstance(trained["train_cpu_seconds"], float) and trained["train_cpu_seconds"] > 0


def test_the_example_says_what_was_wrong_in_one_line() -> None:
    done = example("fitee", "--timesteps", "10")
    assert done.returncode == 2
    assert done.stderr.strip().count("\n") == 0 and "fitee" in done.stderr, done.stderr


def test_the_example_refuses_counts_that_make_no_sense() -> None:
    done = example("fite", "--games", "0")
    assert done.returncode == 2 and "argument --games: 0 is below 1" in done.stderr, done.stderr
