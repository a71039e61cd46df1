"""Where Fight!'s text view is coloured (the ``style`` hook, :mod:`tussle.colours`): each seat's line in
its colour, the cards seen from their backs dimmed, and the heading of the last Fight.

Only the text and the viewer's observation are read, so no colour tells anything of a card the view
shows from its back.

>>> from tussle import load_game
>>> state = load_game("fight").new_initial_state()
>>> while state.is_chance():
...     _ = state.apply(-1, state.chance_outcomes()[0][0])
>>> text = state.observation_text(0)
>>> marks = style(text, state.observation(0), 0)
>>> [text[a:b] for a, b, name in marks if name.startswith("side")]
['p0 (you)', 'p1']
>>> sorted({text[a:b][0] for a, b, name in marks if name == "hidden"})
['[']
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

_BACK = re.compile(r"\[[A-Za-z]+\]")


def style(text: str, obs: Mapping[str, Any], player: int) -> list[tuple[int, int, str]]:
    lines = text.split("\n")
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line) + 1)
    marks: list[tuple[int, int, str]] = [(0, len(lines[0]), "title")]
    for i, line in enumerate(lines):
        seat = re.match(r"p(\d+)( \(you\))?: ", line)
        if seat and int(seat[1]) < len(obs["seats"]):
            marks.append((starts[i], starts[i] + seat.end() - 2, f"side{seat[1]}"))
        elif line.startswith(("    hand: ", "    Main: ")):
            marks += [(starts[i] + m.start(), starts[i] + m.end(), "hidden") for m in _BACK.finditer(line)]
        elif line.startswith("Fight ") and " ended: " in line:
            marks.append((starts[i], starts[i] + len(line), "last"))
    return marks
