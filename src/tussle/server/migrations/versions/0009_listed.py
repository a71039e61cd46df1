"""Games anyone may find: a game made for the lobby (an open seat, or "play anyone now") is listed
among the games being played, for anyone to watch; a game with a friend or the computer is not.

- ``games.listed``: true for a game made with an open seat (and its rematches); None or false for
  every older game.

Revision ID: 0009
Revises: 0008
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as games:
        games.add_column(sa.Column("listed", sa.Boolean, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as games:
        games.drop_column("listed")
