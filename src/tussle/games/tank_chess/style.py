"""Where Tank Chess's text view is coloured (the ``style`` hook, :mod:`tussle.colours`): each tank in its
side's colour, and the last move's squares (where the tank came from, where it went, what it destroyed).

>>> from tussle import load_game
>>> state = load_game("tank-chess").new_initial_state()
>>> text = state.observation_text(0)
>>> marks = style(text, state.observation(0), 0)
>>> sorted({name for _, _, name in marks})
['side0', 'side1', 'title']
>>> a, b, _ = next(m for m in marks if m[2] == "side0")
>>> text[a:b].isupper()
True
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tussle.games.tank_chess.render import FILES

_SIDES = {"white": "side0", "black": "side1"}


def style(text: str, obs: Mapping[str, Any], player: int) -> list[tuple[int, int, str]]:
    lines = text.split("\n")
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line) + 1)
    size = obs["size"]
    header = ("   " + " ".join(f"{f} " for f in FILES[:size])).rstrip()
    if header not in lines:
        return []
    top = lines.index(header)

    def cell(square: str) -> tuple[int, int]:
        file, rank = FILES.index(square[0]), int(square[1:])
        at = starts[top + 1 + size - rank] + 3 + 3 * file
        return at, at + 2

    marks: list[tuple[int, int, str]] = [(0, len(lines[0]), "title")]
    for tank in obs["tanks"]:
        marks.append((*cell(tank["square"]), _SIDES[tank["side"]]))
    last = obs.get("last_move")
    if last:
        hit = last.get("destroyed")
        # dict.fromkeys: a tank that turned where it stands is marked once.
        for square in dict.fromkeys((last["from"], last["to"], hit["square"] if hit else None)):
            if square:
                marks.append((*cell(square), "last"))
    return marks
