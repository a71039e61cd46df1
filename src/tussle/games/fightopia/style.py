"""Where Fightopia's text view is coloured (the ``style`` hook, :mod:`tussle.colours`): each piece in its
side's colour (White the first seat's, Black the second's), and the squares of the last move.

>>> from tussle import load_game
>>> state = load_game("fightopia").new_initial_state()
>>> _ = state.apply_str(-1, "first white")
>>> _ = state.apply_str(0, "Pc3-c4")
>>> text = state.observation_text(1)
>>> [text[a:b] for a, b, name in style(text, state.observation(1), 1) if name == "last"]
['.', 'P']
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

_FILES = "abcdefgh"
_SIDES = {"white": "side0", "black": "side1"}


def _squares(move: Mapping[str, Any]) -> list[str]:
    named = []
    for key in ("from", "to", "kill"):
        value = move.get(key)
        named += value if isinstance(value, list) else [value] if value else []
    return named


def style(text: str, obs: Mapping[str, Any], player: int) -> list[tuple[int, int, str]]:
    flip = player == 1  # the view Black gets: rank 1 at the top (render_observation)
    files = _FILES[::-1] if flip else _FILES
    ranks = list(range(1, 9) if flip else range(8, 0, -1))
    lines = text.split("\n")
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line) + 1)
    header = "     " + "   ".join(files)
    if header not in lines:
        return []
    top = lines.index(header)

    def cell(square: str) -> tuple[int, int]:
        at = starts[top + 1 + 2 * ranks.index(int(square[1]))] + 5 + 4 * files.index(square[0])
        return at, at + 1

    marks: list[tuple[int, int, str]] = [(0, len(lines[0]), "title")]
    for piece in obs["pieces"]:
        marks += [(*cell(square), _SIDES[piece["color"]]) for square in piece["squares"]]
    last = obs.get("last")
    if last and last["player"] != "chance":
        marks += [(*cell(square), "last") for square in _squares(last["move"])]
    return marks
