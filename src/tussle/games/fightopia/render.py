"""Text rendering of Fightopia from an observation (plain data in, text out).

Each square shows a letter: ``P`` Pawn, ``T`` Tank, ``G`` Giant, White in capitals
and Black in small letters. The squares of one Tank or Giant are joined by
``---`` (along a rank) or ``|`` (along a file), so the size of every piece shows.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
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


_SQ = "([a-h][1-8])"  # one square, captured
_WORDS = (
    (re.compile(f"{_SQ}-{_SQ}"), "{who}'s Pawn stepped {0}-{1}"),
    (re.compile(f"G{_SQ}-{_SQ}"), "{who}'s Giant stepped from {0} to {1} (its corner nearest a1)"),
    (re.compile(f"G{_SQ}xT{_SQ}{_SQ}"), "{who}'s Giant crushed {them}'s Tank on {1}-{2}"),
    (re.compile(f"T{_SQ}{_SQ}-{_SQ}{_SQ}"), "{who}'s Tank moved from {0}-{1} to {2}-{3}"),
    (re.compile(f"T{_SQ}{_SQ}x{_SQ}"), "{who}'s Tank on {0}-{1} shot {them}'s Pawn on {2}"),
)


def describe_action(color: str, action: str) -> str:
    """An action told in words, for people: who moved what where, and what it destroyed.

    >>> describe_action("black", "Tg4g5xg1")
    "Black's Tank on g4-g5 shot White's Pawn on g1"
    >>> describe_action("white", "c3-c4")
    "White's Pawn stepped c3-c4"
    """
    who = color.capitalize()
    them = "Black" if who == "White" else "White"
    for pattern, words in _WORDS:
        match = pattern.fullmatch(action)
        if match:
            return words.format(*match.groups(), who=who, them=them)
    return f"{who} {action}"


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
            lines.append(f"Last: {describe_action(last['player'], last['action'])}")
    if result:
        if result["winner"] is None:
            lines.append(f"Draw: {result['reason']}")
        else:
            lines.append(f"{obs['colors'][result['winner']].capitalize()} wins: {result['reason']}")
    return "\n".join(lines)
