"""Text rendering of Fightopia from an observation (plain data in, text out).

Each square shows a letter: ``P`` Pawn, ``T`` Tank, ``G`` Giant, White in capitals
and Black in small letters. The squares of one Tank or Giant are joined by
``---`` (along a rank) or ``|`` (along a file), so the size of every piece shows.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tussle.errors import ActionError
from tussle.games.fightopia.notation import Move, MoveJSON, read_action

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


def describe_move(color: str, move: MoveJSON) -> str:
    """A move told in words, for people, from its structured form: who moved what where, and
    what it destroyed.

    >>> describe_move("black", {"kind": "tank shot", "from": ["g4", "g5"], "kill": "g1"})
    "Black's Tank on g4-g5 shot White's Pawn on g1"
    >>> describe_move("white", {"kind": "pawn step", "from": "c3", "to": "c4"})
    "White's Pawn stepped c3-c4"
    """
    who = color.capitalize()
    them = "Black" if who == "White" else "White"
    if move["kind"] == "pawn step":
        return f"{who}'s Pawn stepped {move['from']}-{move['to']}"
    if move["kind"] == "giant step":
        return f"{who}'s Giant stepped from {move['from']} to {move['to']} (its corner nearest a1)"
    if move["kind"] == "giant kill":
        low, high = move["kill"]
        return f"{who}'s Giant crushed {them}'s Tank on {low}-{high}"
    if move["kind"] == "tank move":
        (low, high), (new_low, new_high) = move["from"], move["to"]
        return f"{who}'s Tank moved from {low}-{high} to {new_low}-{new_high}"
    low, high = move["from"]
    return f"{who}'s Tank on {low}-{high} shot {them}'s Pawn on {move['kill']}"


def describe_action(color: str, action: str) -> str:
    """:func:`describe_move` of an action's notation, read by the game's one reader of it
    (:func:`~tussle.games.fightopia.notation.read_action`); a text it cannot read is shown as it is.

    >>> describe_action("white", "Gd4xTc4c5")
    "White's Giant crushed Black's Tank on c4-c5"
    """
    try:
        move = Move.of(read_action(action)).to_json()
    except ActionError:
        return f"{color.capitalize()} {action}"
    return describe_move(color, move)


def render_observation(obs: Mapping[str, Any], flip: bool = False) -> str:
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
            lines.append(f"Last: {describe_move(last['player'], last['move'])}")
    if result:
        if result["winner"] is None:
            lines.append(f"Draw: {result['reason']}")
        else:
            lines.append(f"{obs['colors'][result['winner']].capitalize()} wins: {result['reason']}")
    return "\n".join(lines)
