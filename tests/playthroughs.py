"""OpenSpiel playthroughs of the games, kept as OpenSpiel keeps its own games' playthroughs.

A playthrough (OpenSpiel's ``generate_playthrough``) is a game played at random
through the pyspiel adapter, with everything the adapter says at each state:
the game type, the legal actions and their strings, the observations and
information states, the returns. ``tests/test_adapters_openspiel.py`` plays each
file's actions again and compares the text line for line, so any change in what
the adapter shows is seen; a deliberate one rewrites them with
``python tests/playthroughs.py``. The files are gzipped (the tensors make them
long) and written with a fixed timestamp, so the same text gives the same bytes.
"""

from __future__ import annotations

import gzip
import re
import sys
from pathlib import Path
from typing import Any

import numpy as np
from open_spiel.python.algorithms import generate_playthrough  # type: ignore[import-untyped]

from tussle.adapters import openspiel_game as og

DATA = Path(__file__).parent / "data" / "playthroughs"

#: Case name -> (game id, what ``og.load`` is given): short limits keep each file a few
#: hundred states at most. Robo Battle Pigs is played step by step (a program a command at
#: a time): its flat space would list some 21,000 programs at every decision.
CASES: dict[str, tuple[str, dict[str, Any]]] = {
    "fite": ("fite", {"turn_limit": 12}),
    "fightopia": ("fightopia", {"ply_limit": 8}),
    "tank-chess": ("tank-chess", {"ply_limit": 8}),
    "tank-chess-steps": ("tank-chess", {"ply_limit": 4, "steps": True}),
    "fight": ("fight", {}),
    "robo-pigs": ("robo-pigs", {"round_limit": 2, "steps": True}),
}


def path(case: str) -> Path:
    return DATA / f"{case}.txt.gz"


def generate(case: str, seed: int = 1) -> str:
    """A new playthrough of the case's game, its moves drawn at random from ``seed``."""
    game_id, options = CASES[case]
    game = og.load(game_id, **options)
    text: str = generate_playthrough.playthrough(str(game), None, seed=seed)
    return text


def replay(text: str) -> str:
    """The playthrough ``text`` played again: its game and its actions, as they are now shown."""
    game = re.search(r"^game: (.*)$", text, re.MULTILINE)
    assert game is not None, "not a playthrough: no game line"
    actions: list[Any] = []
    for line in text.splitlines():
        one = re.fullmatch(r"action: (-?\d+)", line)
        joint = re.fullmatch(r"actions: \[(.*)\]", line)
        if one:
            actions.append(int(one.group(1)))
        elif joint:
            actions.append([int(a) for a in joint.group(1).split(", ")])
    original = generate_playthrough._format_tensor
    generate_playthrough._format_tensor = _format_tensor_quickly
    try:
        new: str = generate_playthrough.playthrough(game.group(1), actions)
    finally:
        generate_playthrough._format_tensor = original
    return new


_format_tensor = generate_playthrough._format_tensor


def _format_tensor_quickly(tensor: Any, tensor_name: str, max_cols: int = 120) -> list[str]:
    """OpenSpiel's tensor lines, the same text, written in a fraction of the time for big tensors.

    A tensor that is not all zeros and ones is written a value at a time as ``str(round(v, 5))``:
    Fight!'s information states hold over 100,000 values each, which took two minutes a replay.
    Each distinct value is written once here and the text put together from those.
    """
    flat = tensor.ravel()
    if not tensor.shape or flat.size < 1000 or ((flat == 0) | (flat == 1)).all():
        return list(_format_tensor(tensor, tensor_name, max_cols))
    values, where = np.unique(flat, return_inverse=True)
    written = [str(round(v, 5)) for v in values]
    return ["{} = [{}]".format(tensor_name, ", ".join([written[i] for i in where]))]


def read(case: str) -> str:
    return gzip.decompress(path(case).read_bytes()).decode("utf-8")


def write(case: str, text: str) -> None:
    DATA.mkdir(parents=True, exist_ok=True)
    path(case).write_bytes(gzip.compress(text.encode("utf-8"), compresslevel=9, mtime=0))


def main(argv: list[str]) -> None:
    """Rewrite the playthroughs (all, or those of the cases named)."""
    for case in argv or list(CASES):
        write(case, generate(case))
        print(f"{path(case)}: {path(case).stat().st_size:,} bytes")


if __name__ == "__main__":
    main(sys.argv[1:])
