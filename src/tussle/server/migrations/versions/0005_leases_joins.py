"""Nothing stuck: leases on computer moves (one process computes each), joins confirmed by their seat.

- ``leases``: which process computes a computer seat's move, for which position, until when.
- ``seats.joined_at``, ``prior_kind``, ``prior_hash``: a seat taken by a join waits for its
  token's first use; unconfirmed for long, it is what it was again (open, invite, reserved).

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "leases",
        sa.Column("game_id", sa.String(36), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("number", sa.Integer, nullable=False),
        sa.Column("holder", sa.String(32), nullable=False),
        sa.Column("until", sa.Float, nullable=False),
    )
    with op.batch_alter_table("seats") as seats:
        seats.add_column(sa.Column("joined_at", sa.Float, nullable=True))
        seats.add_column(sa.Column("prior_kind", sa.String(16), nullable=True))
        seats.add_column(sa.Column("prior_hash", sa.String(64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("seats") as seats:
        seats.drop_column("prior_hash")
        seats.drop_column("prior_kind")
        seats.drop_column("joined_at")
    op.drop_table("leases")
