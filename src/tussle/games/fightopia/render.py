"""Text rendering of Fightopia from an observation (plain data in, text out).

Each square shows a letter: ``P`` Pawn, ``T`` Tank, ``G`` Giant, White in capitals
and Black in small letters. The squares of one Tank or Giant are joined by
``---`` (along a rank) or ``|`` (along a file), so the size of every piece shows.
"""

from __future__ import annotations

from typing import Any

_FILES = "abcdefgh"
_LETTER = {"pawn": "P", "tank": "T", "giant": "G"}


def render_board(pieces: list[dict[str, Any]], flip: bool = False) -> list[str]:
    """The board with coordinates, rank 8 at the top (rank 1 when ``flip``).

    >>> pieces = [{"color": "white", "kind": "tank", "squares": ["a1", "a2"]},
    ...           {"color": "black", "kind": "giant", "squares": ["b1", "c1", "b2", "c2"]}]
    >>> print("\\n".join(render_board(pieces)[-4:]))
     2   T   g---g   .   .   .   .   .   2
         |   |   |
     1   T   g---g   .   .   .   .   .   1
         a   b   c   d   e   f   g   h
    """
    cell: dict[str, str] = {}
    owner: dict[str, int] = {}
    for i, piece in enumerate(pieces):
        letter = _LETTER[piece["kind"]]
        if piece["color"] != "white":
            letter = letter.lower()
        for square in piece["squares"]:
            cell[square] = letter
            owner[square] = i
    files = _FILES[::-1] if flip else _FILES
    ranks = range(1, 9) if flip else range(8, 0, -1)

    def joined(a: str, b: str) -> bool:
        return a in owner and owner[a] == owner.get(b)

    header = "     " + "   ".join(files)
    lines = [header]
    rank_list = list(ranks)
    for i, rank in enumerate(rank_list):
        row = ""
        for j, f in enumerate(files):
            square = f"{f}{rank}"
            row += cell.get(square, ".")
            if j + 1 < len(files):
                row += "---" if joined(square, f"{files[j + 1]}{rank}") else "   "
        lines.append(f" {rank}   {row}   {rank}")
        if i + 1 < len(rank_list):
            below = rank_list[i + 1]
            links = "".join(("|" if joined(f"{f}{rank}", f"{f}{below}") else " ") + "   " for f in files)
            lines.append(("     " + links).rstrip())
    lines.append(header)
    return lines


def render_observation(obs: dict[str, Any], flip: bool = False) -> str:
    """A readable view: whose turn, the board, the last action and the result."""
    lines = []
    result = obs.get("result")
    if result:
        status = "game over"
    elif obs["to_move"]:
        status = f"{obs['to_move'].capitalize()} to move"
    else:
        status = "the first player is about to be drawn"
    limit = f" of {obs['ply_limit']}" if obs.get("ply_limit") else ""
    lines.append(f"Fightopia   ply {obs['ply']}{limit}   {status}")
    lines += render_board(obs["pieces"], flip)
    lines.append("White: P T G (capitals)   Black: p t g")
    last = obs.get("last")
    if last:
        if last["player"] == "chance":
            lines.append(f"Drawn by chance: {last['action']}")
        else:
            lines.append(f"Last: {last['player'].capitalize()} {last['action']}")
    if result:
        if result["winner"] is None:
            lines.append(f"Draw: {result['reason']}")
        else:
            lines.append(f"{obs['colors'][result['winner']].capitalize()} wins: {result['reason']}")
    return "\n".join(lines)
