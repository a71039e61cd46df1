"""Text rendering of Tank Chess from an observation (plain data in, text out).

Each square is two characters: a tank is its type letter (upper case White,
lower case Black) and an arrow for its facing, ``##`` an obstacle, ``xx`` a
wreck and ``. `` an empty square; file letters stand above the type letters.
"""

from __future__ import annotations

from tussle.games.tank_chess.observation import Announced, LastMove, TankChessObservation

#: The tanks' names by type letter, as the announcements write them.
NAMES = {
    "L": "Light tank",
    "M": "Medium tank",
    "H": "Heavy tank",
    "C": "Command tank",
    "D": "Tank Destroyer",
    "R": "Heavy Mortar",
}
ARROWS = {"N": "↑", "NE": "↗", "E": "→", "SE": "↘", "S": "↓", "SW": "↙", "W": "←", "NW": "↖"}
FILES = "abcdefghijklmnopqrst"
LEGEND = (
    "L Light  M Medium  H Heavy  C Command  D Tank Destroyer  R Heavy Mortar\n"
    "upper case White, lower case Black, arrow: facing   ## obstacle   xx wreck"
)


def render_board(obs: TankChessObservation) -> list[str]:
    """The board with file letters and rank numbers on all sides, White at the bottom.

    A space always parts the last file from the rank numbers on the right, so
    that a tank there never runs into a two-digit rank.

    >>> obs = {"size": 16, "obstacles": ["b1"], "wrecks": ["c1"],
    ...        "tanks": [{"square": "a1", "side": "white", "type": "C", "facing": "NE"},
    ...                  {"square": "p16", "side": "black", "type": "H", "facing": "S"}]}
    >>> board = render_board(obs)
    >>> board[-2]
    ' 1 C↗ ## xx .  .  .  .  .  .  .  .  .  .  .  .  .  1'
    >>> board[1][-6:]
    ' h↓ 16'
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
        lines.append(f"{rank:2} {row} {rank}")
    lines.append(header)
    return lines


def describe_move(last: LastMove) -> str:
    """The last turn told in words, from the observation's ``last_move``.

    >>> describe_move({"by": "black", "move": "Lg4-g5N xg1", "type": "L", "from": "g4", "to": "g5",
    ...     "facing": "N", "destroyed": {"square": "g1", "side": "white", "type": "M"}})
    "Black's Light tank drove from g4 to g5, facing N, and destroyed White's Medium tank on g1"
    >>> describe_move({"by": "white", "move": "Ch16-off", "type": "C", "from": "h16", "to": None,
    ...     "facing": None, "destroyed": None})
    "White's Command tank on h16 drove off the board"
    """
    who = last["by"].capitalize()
    tank = f"{who}'s {NAMES[last['type']]}"
    if last["to"] is None:
        return f"{tank} on {last['from']} drove off the board"
    if last["to"] == last["from"]:
        words = f"{tank} on {last['from']} turned to face {last['facing']}"
    else:
        words = f"{tank} drove from {last['from']} to {last['to']}, facing {last['facing']}"
    hit = last.get("destroyed")
    if hit:
        words += f", and destroyed {hit['side'].capitalize()}'s {NAMES[hit['type']]} on {hit['square']}"
    return words


def status_lines(obs: TankChessObservation) -> list[str]:
    """Whose turn, the last move with its announcements, or the result."""
    lines = []
    limit = f" of {obs['ply_limit']}" if obs.get("ply_limit") else ""
    head = f"Tank Chess {obs['size']}x{obs['size']}   ply {obs['ply']}{limit}"
    to_move = obs.get("to_move")
    if to_move:
        head += f"   {to_move.capitalize()} to move"
    lines.append(head)
    last = obs.get("last_move")
    if last:
        lines.append(f"Last move: {last['move']}, {describe_move(last)}")
    announced = obs.get("announced")
    if announced:
        lines += announcement_lines(announced)
    result = obs.get("result")
    if result:
        if result["winner"] is None:
            lines.append(f"Draw: {result['reason']}")
        else:
            lines.append(f"{('White', 'Black')[result['winner']]} wins: {result['reason']}")
    return lines


def announcement_lines(announced: Announced) -> list[str]:
    """Check! and Escape!, each naming the tanks: who threatens what, and who could escape.

    >>> announced = {"by": "white", "check": True, "escape": True,
    ...     "threats": [{"square": "c5", "side": "white", "type": "H", "facing": "N"},
    ...                 {"square": "e7", "side": "white", "type": "L", "facing": "NW"}],
    ...     "target": {"square": "c9", "side": "black", "type": "C", "facing": "S"},
    ...     "escaping": {"square": "h15", "side": "white", "type": "C", "facing": "N"}}
    >>> print("\\n".join(announcement_lines(announced)))
    Check! White's Heavy tank on c5 and Light tank on e7 can destroy Black's Command tank on c9
    Escape! White's Command tank on h15 can drive off Black's edge
    """
    side = announced["by"].capitalize()
    other = "Black" if side == "White" else "White"
    lines = []
    if announced["check"]:
        shooters = [f"{NAMES[t['type']]} on {t['square']}" for t in announced.get("threats") or []]
        target = announced.get("target")
        if shooters and target:
            who = shooters[0] if len(shooters) == 1 else ", ".join(shooters[:-1]) + " and " + shooters[-1]
            lines.append(f"Check! {side}'s {who} can destroy {other}'s {NAMES['C']} on {target['square']}")
        else:
            lines.append(f"Check! {side} can destroy {other}'s {NAMES['C']}")
    if announced["escape"]:
        escaping = announced.get("escaping")
        where = f" on {escaping['square']}" if escaping else ""
        lines.append(f"Escape! {side}'s {NAMES['C']}{where} can drive off {other}'s edge")
    return lines


def render_observation(obs: TankChessObservation) -> str:
    """The whole view: status, board and legend."""
    you = obs.get("player")
    lines = status_lines(obs)
    if you in (0, 1):
        lines[0] += f"   (you are {('White', 'Black')[you]})"
    lines += render_board(obs)
    lines.append(LEGEND)
    return "\n".join(lines)
