"""A deliberately simple second Fightopia move generator, for tests only.

It shares no code with ``tussle.games.fightopia``: it reads the position
notation itself into a dict of squares, tries every piece with every
displacement, checks every square it touches one by one, and writes actions and
positions in the documented notation. Slow and obvious on purpose: when it and
the fast bitboard generator agree, both are very likely right.

Squares here are ``(file, rank)`` pairs counted from 0, so ``a1`` is ``(0, 0)``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

Square = tuple[int, int]

LETTERS = "abcdefgh"
KING_STEPS = [(df, dr) for df in (-1, 0, 1) for dr in (-1, 0, 1) if (df, dr) != (0, 0)]


def name(sq: Square) -> str:
    return LETTERS[sq[0]] + str(sq[1] + 1)


def square(text: str) -> Square:
    return LETTERS.index(text[0]), int(text[1]) - 1


def on_board(sq: Square) -> bool:
    return 0 <= sq[0] < 8 and 0 <= sq[1] < 8


def near_a1(squares: list[Square]) -> list[Square]:
    """Squares sorted the way the notation lists them: by rank, then file."""
    return sorted(squares, key=lambda s: (s[1], s[0]))


@dataclass
class Piece:
    color: str  # "w" or "b"
    kind: str  # "pawn", "tank", "giant"
    squares: list[Square]

    def label(self) -> str:
        first = near_a1(self.squares)
        if self.kind == "pawn":
            return name(first[0])
        if self.kind == "giant":
            return "G" + name(first[0])
        return "T" + name(first[0]) + name(first[1])


@dataclass
class Board:
    pieces: list[Piece] = field(default_factory=list)
    side: str = "w"  # "w", "b" or "-"
    ply: int = 0

    def at(self, sq: Square) -> Piece | None:
        for piece in self.pieces:
            if sq in piece.squares:
                return piece
        return None

    def of(self, color: str, kind: str) -> list[Piece]:
        return [p for p in self.pieces if p.color == color and p.kind == kind]


def read(position: str) -> Board:
    """Read a position; assumes it is well formed (the tests only feed it good ones)."""
    rows, side, ply = position.split()
    letters: dict[Square, str] = {}
    for i, row in enumerate(rows.split("/")):
        rank = 7 - i
        file = 0
        for ch in row:
            if ch.isdigit():
                file += int(ch)
            else:
                letters[(file, rank)] = ch
                file += 1
    board = Board(side=side, ply=int(ply))
    used: set[Square] = set()
    for sq in sorted(letters, key=lambda s: (s[1], s[0])):
        if sq in used:
            continue
        ch = letters[sq]
        color = "w" if ch.isupper() else "b"
        kind_letter = ch.upper()
        if kind_letter == "P":
            squares = [sq]
        elif kind_letter == "G":
            squares = [sq, (sq[0] + 1, sq[1]), (sq[0], sq[1] + 1), (sq[0] + 1, sq[1] + 1)]
        elif kind_letter == "V":
            squares = [sq, (sq[0], sq[1] + 1)]
        else:
            squares = [sq, (sq[0] + 1, sq[1])]
        for s in squares:
            assert letters.get(s) == ch and s not in used, f"bad piece at {name(sq)} in {position}"
            used.add(s)
        board.pieces.append(
            Piece(color, {"P": "pawn", "G": "giant", "V": "tank", "H": "tank"}[kind_letter], squares)
        )
    return board


def write(board: Board) -> str:
    grid: dict[Square, str] = {}
    for piece in board.pieces:
        if piece.kind == "pawn":
            letter = "P"
        elif piece.kind == "giant":
            letter = "G"
        else:
            a, b = piece.squares
            letter = "V" if a[0] == b[0] else "H"
        for s in piece.squares:
            grid[s] = letter if piece.color == "w" else letter.lower()
    rows = []
    for rank in range(7, -1, -1):
        row = ""
        gap = 0
        for file in range(8):
            if (file, rank) in grid:
                if gap:
                    row += str(gap)
                gap = 0
                row += grid[(file, rank)]
            else:
                gap += 1
        if gap:
            row += str(gap)
        rows.append(row)
    return "/".join(rows) + f" {board.side} {board.ply}"


def winner(board: Board) -> str | None:
    """The color that has won in this position, if any."""
    for color, goal in (("w", 7), ("b", 0)):
        giant = board.of(color, "giant")[0]
        if any(s[1] == goal for s in giant.squares):
            return color
        enemy = "b" if color == "w" else "w"
        if not board.of(enemy, "tank"):
            return color
    return None


def is_free(board: Board, sq: Square, mover: Piece | None = None) -> bool:
    """On the board and empty (squares of ``mover`` itself count as empty)."""
    if not on_board(sq):
        return False
    here = board.at(sq)
    return here is None or here is mover


def moves(board: Board, pivot_sweep: bool = False) -> set[str]:
    """Every legal action of the side to move, in notation."""
    if board.side == "-" or winner(board) is not None:
        return set()
    me = board.side
    out: set[str] = set()
    for piece in [p for p in board.pieces if p.color == me]:
        if piece.kind == "pawn":
            (sq,) = piece.squares
            for df, dr in KING_STEPS:
                to = (sq[0] + df, sq[1] + dr)
                if is_free(board, to):
                    out.add(f"{name(sq)}-{name(to)}")
        elif piece.kind == "giant":
            corner = near_a1(piece.squares)[0]
            for df, dr in KING_STEPS:
                new = [(s[0] + df, s[1] + dr) for s in piece.squares]
                if all(is_free(board, s, piece) for s in new):
                    out.add(f"G{name(corner)}-{name(near_a1(new)[0])}")
            for tank in board.pieces:
                if tank.color == me or tank.kind != "tank":
                    continue
                touching = any(
                    abs(g[0] - t[0]) + abs(g[1] - t[1]) == 1 for g in piece.squares for t in tank.squares
                )
                if touching:
                    out.add(f"G{name(corner)}x{tank.label()}")
        else:
            a, b = near_a1(piece.squares)
            axis = (b[0] - a[0], b[1] - a[1])
            for dist in (-2, -1, 1, 2):
                new = [(s[0] + axis[0] * dist, s[1] + axis[1] * dist) for s in piece.squares]
                if all(is_free(board, s, piece) for s in new):
                    out.add(f"{piece.label()}-{''.join(name(s) for s in near_a1(new))}")
            for anchor, swing in ((a, b), (b, a)):
                arm = (swing[0] - anchor[0], swing[1] - anchor[1])
                for turned in ((arm[1], -arm[0]), (-arm[1], arm[0])):
                    landing = (anchor[0] + turned[0], anchor[1] + turned[1])
                    if not is_free(board, landing, piece):
                        continue
                    # the fourth corner of the square that anchor, swing and landing span
                    swept = (swing[0] + landing[0] - anchor[0], swing[1] + landing[1] - anchor[1])
                    if pivot_sweep and not is_free(board, swept, piece):
                        continue
                    out.add(f"{piece.label()}-{''.join(name(s) for s in near_a1([anchor, landing]))}")
            for start, step in ((b, axis), (a, (-axis[0], -axis[1]))):
                sq = (start[0] + step[0], start[1] + step[1])
                while on_board(sq) and board.at(sq) is None:
                    sq = (sq[0] + step[0], sq[1] + step[1])
                target = board.at(sq) if on_board(sq) else None
                if target is not None and target.kind == "pawn" and target.color != me:
                    out.add(f"{piece.label()}x{name(sq)}")
    return out


def play(board: Board, action: str) -> Board:
    """The board after ``action`` (in canonical notation) by the side to move."""
    me = board.side
    pieces = [Piece(p.color, p.kind, list(p.squares)) for p in board.pieces]
    after = Board(pieces, "b" if me == "w" else "w", board.ply + 1)

    def find(label: str) -> Piece:
        return next(p for p in pieces if p.label() == label)

    if "x" in action:
        pieces.remove(find(action.split("x")[1]))
    else:
        src, dst = action.split("-")
        piece = find(src)
        if piece.kind == "pawn":
            piece.squares = [square(dst)]
        elif piece.kind == "giant":
            c = square(dst)
            piece.squares = [c, (c[0] + 1, c[1]), (c[0], c[1] + 1), (c[0] + 1, c[1] + 1)]
        else:
            piece.squares = [square(dst[:2]), square(dst[2:])]
    return after


def perft(board: Board, depth: int, pivot_sweep: bool = False) -> int:
    if depth == 0:
        return 1
    return sum(perft(play(board, a), depth - 1, pivot_sweep) for a in moves(board, pivot_sweep))
