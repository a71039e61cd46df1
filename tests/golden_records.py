"""Golden records: seeded games of every game and every shipped agent, kept byte for byte.

A refactor or a speed-up must leave these games exactly as they were; only a
change of rules (with its reason in the game's rulings) or of an agent's play
(with a new ladder) may rewrite them, with ``python tests/golden_records.py``.

Each case plays a few games of one agent spec against itself (seats rotating,
seeds derived from the case's seed as ``tussle match`` derives them), with short
limits so that the strongest levels still finish quickly; the file holds the
records, one JSON text a line.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tussle.agents import make_agent
from tussle.registry import load_game, simulation_options
from tussle.runner import _game_seed, play_game

DATA = Path(__file__).parent / "data" / "golden"

#: Short limits per game, so that even ``hard`` plays a case in seconds.
LIMITS: dict[str, dict[str, Any]] = {
    "robo-pigs": {"round_limit": 6},
    "fite": {"turn_limit": 8},
    "fightopia": {"ply_limit": 16},
    "tank-chess": {"ply_limit": 12},
    "fight": {},
}

HARD_LIMITS: dict[str, dict[str, Any]] = {
    "robo-pigs": {"round_limit": 3},
    "fite": {"turn_limit": 4},
    "fightopia": {"ply_limit": 12},
    "tank-chess": {"ply_limit": 8},
}

SPECS = ("random", "rule", "easy", "medium", "hard")
EXTRA: dict[str, tuple[str, ...]] = {"fite": ("fite:solved",)}


@dataclass(frozen=True)
class Case:
    game_id: str
    spec: str
    games: int = 2
    seed: int = 7
    limits: tuple[tuple[str, Any], ...] = ()

    @property
    def path(self) -> Path:
        return DATA / f"{self.game_id}--{self.spec.replace(':', '-')}.jsonl"


def cases() -> list[Case]:
    out = []
    for game_id in sorted(LIMITS):
        for spec in SPECS + EXTRA.get(game_id, ()):
            limits = LIMITS[game_id]
            if spec == "hard":  # one shorter game: its moves are what is checked
                limits = HARD_LIMITS.get(game_id, limits)
            out.append(Case(game_id, spec, games=1 if spec == "hard" else 2, limits=tuple(limits.items())))
    return out


def play(case: Case) -> str:
    """The case's records, one JSON text a line."""
    options = simulation_options(case.game_id, dict(case.limits))
    game = load_game(case.game_id, **options)
    lines = []
    for index in range(case.games):
        agents = [
            make_agent(case.spec, game, s, seed=_game_seed(case.seed, index, s + 1))
            for s in range(game.num_players)
        ]
        _, record = play_game(game, agents, seed=_game_seed(case.seed, index, 0))
        lines.append(json.dumps(record.to_json(), separators=(",", ":")))
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> int:
    """Rewrite the golden files (all, or those whose name contains an argument)."""
    DATA.mkdir(parents=True, exist_ok=True)
    for case in cases():
        if argv and not any(word in case.path.name for word in argv):
            continue
        case.path.write_text(play(case), encoding="utf-8")
        print(f"wrote {case.path.name}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
