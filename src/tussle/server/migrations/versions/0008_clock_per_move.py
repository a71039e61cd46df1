"""Correspondence time controls: a clock that gives each player its whole time again at each move.

- ``games.clock_per_move``: true when ``clock_base`` is the time each move may take (days a move),
  rather than each player's time for the whole game; None or false for every older game.

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as games:
        games.add_column(sa.Column("clock_per_move", sa.Boolean, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as games:
        games.drop_column("clock_per_move")
