"""Ending a game by agreement or absence: a standing draw offer, and when each seat was last seen.

- ``games.offer_seat``, ``games.offer_events``: the seat whose draw offer stands, and the number of
  events the game had when it was made (it lapses once the other player acts after it).
- ``seats.seen_at``: when a server process last held a connection of the seat's player (every
  process renews it while the connection lasts), so that any process can tell how long a player
  has been away before letting an opponent claim the game.

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as games:
        games.add_column(sa.Column("offer_seat", sa.Integer, nullable=True))
        games.add_column(sa.Column("offer_events", sa.Integer, nullable=True))
    with op.batch_alter_table("seats") as seats:
        seats.add_column(sa.Column("seen_at", sa.Float, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("seats") as seats:
        seats.drop_column("seen_at")
    with op.batch_alter_table("games") as games:
        games.drop_column("offer_events")
        games.drop_column("offer_seat")
