"""The golden records (tests/golden_records.py): every game and shipped agent plays exactly as recorded."""

from __future__ import annotations

from pathlib import Path

import pytest

import golden_records
from tussle.ladder import read_ladder, reusable_games
from tussle.record import Record

LADDERS = Path(__file__).parent.parent / "docs" / "ladders"


@pytest.mark.parametrize("case", golden_records.cases(), ids=lambda c: f"{c.game_id}-{c.spec}")
def test_seeded_games_are_byte_identical(case: golden_records.Case) -> None:
    expected = case.path.read_text(encoding="utf-8")
    got = golden_records.play(case)
    # Compared line by line first, so that a failure names the game that changed.
    for index, (want, have) in enumerate(zip(expected.splitlines(), got.splitlines(), strict=True)):
        assert have == want, f"{case.path.name}: game {index} plays differently"
    assert got == expected


def test_golden_records_replay() -> None:
    # Each stored game is a valid record that its game's rules accept as it is.
    for case in golden_records.cases():
        for line in case.path.read_text(encoding="utf-8").splitlines():
            Record.loads(line).replay()


@pytest.mark.parametrize("path", sorted(LADDERS.glob("*.json")), ids=lambda p: p.stem)
def test_kept_ladders_are_reused_whole(path: Path) -> None:
    # A kept ladder's games are taken over by `tussle ladder --reuse` only while the
    # same agents play the same specs under the same version: every pair must be.
    previous = read_ladder(path)
    agents = [
        name if name == spec else f"{name}={spec}"
        for name, spec in zip(previous["agents"], previous["specs"], strict=True)
    ]
    kept = reusable_games(
        previous,
        previous["game"],
        agents,
        options=previous["options"],
        seed=previous["seed"],
        openings=previous["openings"],
    )
    assert sorted(kept) == sorted((p["a"], p["b"]) for p in previous["pairs"])
