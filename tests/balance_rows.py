"""Hand-made rows of ``tussle balance``'s tables, to test a game's figures on data with known answers."""

from __future__ import annotations

from typing import Any

import duckdb

from tussle.balance.measures import Data, Row
from tussle.balance.play import create_tables

#: An event row: (game, seat, kind, component, value).
Event = tuple[int, int, str, str, float]

#: The columns of ``games`` a hand-made row gives, in order; the later ones (a game's
#: signature, its feel measures) are NULL: every game distinct, nothing measured.
GAME_FIELDS = (
    "variant, pairing, game, seat, agent, rank, ret, won, draw, length, limited, lead_changes, decisive_at"
)


def rows(winners: list[int], events: list[Event], stray: tuple[Any, ...]) -> Data:
    """Two-player games of variant ``v`` and pairing ``p`` won by the given seats (-1: a draw),
    their event rows, and one ``stray`` event row (variant, pairing, game, seat, kind,
    component, value) of another variant or pairing, which the figures must leave out.
    """
    db = duckdb.connect()
    create_tables(db)
    for game, winner in enumerate(winners):
        for seat in (0, 1):
            won = seat == winner
            rank = 1 if winner < 0 or won else 2
            ret = 0.0 if winner < 0 else (1.0 if won else -1.0)
            db.execute(
                f"INSERT INTO games ({GAME_FIELDS}) "
                "VALUES ('v', 'p', ?, ?, 'rule', ?, ?, ?, ?, 40, false, 0, 1.0)",
                [game, seat, rank, ret, won, winner < 0],
            )
    if events:
        db.executemany("INSERT INTO events VALUES ('v', 'p', ?, ?, ?, ?, ?)", events)
    db.execute("INSERT INTO events VALUES (?, ?, ?, ?, ?, ?, ?)", list(stray))
    return Data(db, "v", "p")


def table(found: list[Row]) -> dict[tuple[int, str, str], float]:
    """A game's event rows by (seat, kind, component); two rows for one key fail the test."""
    out: dict[tuple[int, str, str], float] = {}
    for row in found:
        key = (row.seat, row.kind, row.component)
        assert key not in out, f"two rows for {key}"
        out[key] = row.value
    return out
