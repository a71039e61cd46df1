"""Time controls: a game's clock (base and increment) and when play started.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as games:
        games.add_column(sa.Column("clock_base", sa.Float, nullable=True))
        games.add_column(sa.Column("clock_increment", sa.Float, nullable=True))
        games.add_column(sa.Column("started", sa.Float, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as games:
        games.drop_column("started")
        games.drop_column("clock_increment")
        games.drop_column("clock_base")
