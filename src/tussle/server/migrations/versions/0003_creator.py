"""Who made each game: its client's address, so that every process counts a client's games in play.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as games:
        games.add_column(sa.Column("creator", sa.String(64), nullable=True))
        games.create_index("ix_games_creator_status", ["creator", "status"])


def downgrade() -> None:
    with op.batch_alter_table("games") as games:
        games.drop_index("ix_games_creator_status")
        games.drop_column("creator")
