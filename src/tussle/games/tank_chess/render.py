"""Text rendering of Tank Chess from an observation (plain data in, text out).

Each square is two characters: a tank is its type letter (upper case White,
lower case Black) and an arrow for its facing, ``##`` an obstacle, ``xx`` a
wreck and ``. `` an empty square; file letters stand above the type letters.
"""

from __future__ import annotations

from typing import Any

ARROWS = {"N": "↑", "NE": "↗", "E": "→", "SE": "↘", "S": "↓", "SW": "↙", "W": "←", "NW": "↖"}
FILES = "abcdefghijklmnopqrst"
LEGEND = (
    "L Light  M Medium  H Heavy  C Command  D Tank Destroyer  R Heavy Mortar\n"
    "upper case White, lower case Black, arrow: facing   ## obstacle   xx wreck"
)


def render_board(obs: dict[str, Any]) -> list[str]:
    """The board with file letters and rank numbers on all sides, White at the bottom.

    >>> obs = {"size": 16, "obstacles": ["b1"], "wrecks": ["c1"],
    ...        "tanks": [{"square": "a1", "side": "white", "type": "C", "facing": "NE"}]}
    >>> render_board(obs)[-2]
    ' 1 C↗ ## xx .  .  .  .  .  .  .  .  .  .  .  .  .  1'
    """
    size = obs["size"]
    cells: dict[str, str] = {}
    for square in obs["obstacles"]:
        cells[square] = "##"
    for square in obs["wrecks"]:
        cells[square] = "xx"
    for tank in obs["tanks"]:
        letter = tank["type"] if tank["side"] == "white" else tank["type"].lower()
        cells[tank["square"]] = letter + ARROWS[tank["facing"]]
    files = FILES[:size]
    header = ("   " + " ".join(f"{f} " for f in files)).rstrip()
    lines = [header]
    for rank in range(size, 0, -1):
        row = " ".join(cells.get(f"{f}{rank}", ". ") for f in files)
        lines.append(f"{rank:2} {row}{rank:2}")
    lines.append(header)
    return lines


def status_lines(obs: dict[str, Any]) -> list[str]:
    """Whose turn, the last move with its announcements, or the result."""
    lines = []
    limit = f" of {obs['ply_limit']}" if obs.get("ply_limit") else ""
    head = f"Tank Chess {obs['size']}x{obs['size']}   ply {obs['ply']}{limit}"
    if obs.get("to_move"):
        head += f"   {obs['to_move'].capitalize()} to move"
    lines.append(head)
    last = obs.get("last_move")
    if last:
        lines.append(f"Last move: {last['by'].capitalize()} {last['move']}")
    announced = obs.get("announced")
    if announced:
        calls = [
            word for word, on in (("Check!", announced["check"]), ("Escape!", announced["escape"])) if on
        ]
        if calls:
            lines.append(f"{announced['by'].capitalize()} announces: {' '.join(calls)}")
    result = obs.get("result")
    if result:
        if result["winner"] is None:
            lines.append(f"Draw: {result['reason']}")
        else:
            lines.append(f"{('White', 'Black')[result['winner']]} wins: {result['reason']}")
    return lines


def render_observation(obs: dict[str, Any]) -> str:
    """The whole view: status, board and legend."""
    you = obs.get("player")
    lines = status_lines(obs)
    if you in (0, 1):
        lines[0] += f"   (you are {('White', 'Black')[you]})"
    lines += render_board(obs)
    lines.append(LEGEND)
    return "\n".join(lines)
