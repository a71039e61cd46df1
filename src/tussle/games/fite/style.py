"""Where FITE's text view is coloured (the ``style`` hook, :mod:`tussle.colours`): each fighter's line
in its seat's colour, and the heading of the last fight.

>>> from tussle import load_game
>>> state = load_game("fite").new_initial_state()
>>> text = state.observation_text(0)
>>> [text[a:b] for a, b, name in style(text, state.observation(0), 0) if name.startswith("side")]
['A', 'B']
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def style(text: str, obs: Mapping[str, Any], player: int) -> list[tuple[int, int, str]]:
    lines = text.split("\n")
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line) + 1)
    marks: list[tuple[int, int, str]] = [(0, len(lines[0]), "title")]
    for p, fighter in enumerate(obs["fighters"]):
        label = f"  {fighter['name']}: "
        for i, line in enumerate(lines):
            if line.startswith(label):
                marks.append((starts[i] + 2, starts[i] + 2 + len(fighter["name"]), f"side{p}"))
                break
    for i, line in enumerate(lines):
        if line.startswith("Last fight (turn "):
            marks.append((starts[i], starts[i] + len(line), "last"))
    return marks
