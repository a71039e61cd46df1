"""Where Robo Battle Pigs' text view is coloured (the ``style`` hook, :mod:`tussle.colours`): each pig
in its seat's colour, on the board and in the list of pigs, and the line of the round just revealed.

>>> from tussle import load_game
>>> state = load_game("robo-pigs").new_initial_state()
>>> text = state.observation_text(0)
>>> sorted({text[a:b] for a, b, name in style(text, state.observation(0), 0) if name == "side1"})
['B^', 'pig B']
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

_FILES = "abcdefgh"


def style(text: str, obs: Mapping[str, Any], player: int) -> list[tuple[int, int, str]]:
    board = obs.get("board")
    width, height = (board["width"], board["height"]) if board else (8, 8)
    files = _FILES[:width]
    lines = text.split("\n")
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line) + 1)
    marks: list[tuple[int, int, str]] = [(0, len(lines[0]), "title")]
    pigs = obs["pigs"]
    for p, pig in enumerate(pigs):
        label = f"  pig {pig['name']}   "
        for i, line in enumerate(lines):
            if line.startswith(label):
                marks.append((starts[i] + 2, starts[i] + len(label.rstrip()), f"side{p}"))
                break
    header = ("    " + "".join(f" {f} " for f in files)).rstrip()
    if header in lines:
        top = lines.index(header)
        for p, pig in enumerate(pigs):
            square = pig["square"]
            rank = int(square[1:])
            at = starts[top + 1 + height - rank] + 4 + len(str(rank)) + 3 * files.index(square[0])
            marks.append((at, at + 2, f"side{p}"))
    for i, line in enumerate(lines):
        if line.startswith("Round ") and " revealed " in line:
            marks.append((starts[i], starts[i] + len(line), "last"))
    return marks
