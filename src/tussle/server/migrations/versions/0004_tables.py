"""Hot-seat games: the hash of a game's table handle, which opens every person seat at one screen.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as games:
        games.add_column(sa.Column("table_hash", sa.String(64), nullable=True))
        games.create_index("ix_games_table_hash", ["table_hash"])


def downgrade() -> None:
    with op.batch_alter_table("games") as games:
        games.drop_index("ix_games_table_hash")
        games.drop_column("table_hash")
