"""Chat in each game: the last messages of each room, kept so that a reloaded page and every server
process over the database can show them.

- ``chat``: one row per message: its game, its room (``players`` or ``spectators``), a number that
  orders the messages of a game, who wrote it (a seat number, or none for a spectator), the name
  shown, when, and the text. The store keeps only the last few hundred of each game's room.

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "chat",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.String(36), sa.ForeignKey("games.id"), nullable=False),
        sa.Column("room", sa.String(16), nullable=False),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("name", sa.String(100), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("text", sa.Text, nullable=False),
    )
    op.create_index("ix_chat_game_room_id", "chat", ["game_id", "room", "id"])


def downgrade() -> None:
    op.drop_index("ix_chat_game_room_id", table_name="chat")
    op.drop_table("chat")
