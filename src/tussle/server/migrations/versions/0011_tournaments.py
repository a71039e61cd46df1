"""Tournaments online: FITE's single elimination and a Swiss system, run by the server.

- ``tournaments``: one per tournament: its game, kind (``elimination`` or ``swiss``), name, options,
  time control, whether rated, the most entrants, its planned rounds (a Swiss), when it starts (or
  None: its maker starts it), its maker's account, its status (``registering``, ``playing``,
  ``finished``), the round being played (0 before the start: the round a process must find to pair
  the next one), the secret its draws come from, and its champion (an entrant's number).
- ``tournament_entrants``: who plays: an account (a person or a bot) or a computer level, with its
  name and (FITE) its power, numbered in registration order.
- ``tournament_games``: each round's pairings: the table, the attempt (a drawn elimination game is
  played again), the entrants in seat order (JSON; one entrant alone: a bye) and the game made for
  them (None for a bye).

Account ids are kept as text (the accounts table's GUID as a string), not as foreign keys: the same
column type on SQLite and PostgreSQL, and an entrant's name is kept with it for the bracket.

Revision ID: 0011
Revises: 0010
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.String(36), primary_key=True),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("name", sa.String(100), nullable=False),
        sa.Column("options", sa.Text, nullable=False),
        sa.Column("clock_base", sa.Float, nullable=False),
        sa.Column("clock_increment", sa.Float, nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("max_entrants", sa.Integer, nullable=False),
        sa.Column("rounds", sa.Integer, nullable=True),
        sa.Column("starts_at", sa.Float, nullable=True),
        sa.Column("maker", sa.String(36), nullable=False),
        sa.Column("maker_name", sa.String(100), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("round", sa.Integer, nullable=False),
        sa.Column("seed", sa.String(64), nullable=False),
        sa.Column("champion", sa.Integer, nullable=True),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("started", sa.Float, nullable=True),
        sa.Column("finished", sa.Float, nullable=True),
    )
    op.create_index("ix_tournaments_status", "tournaments", ["status"])
    op.create_table(
        "tournament_entrants",
        sa.Column("tournament_id", sa.String(36), sa.ForeignKey("tournaments.id"), primary_key=True),
        sa.Column("number", sa.Integer, primary_key=True),
        sa.Column("account_id", sa.String(36), nullable=True),
        sa.Column("agent", sa.String(64), nullable=True),
        sa.Column("name", sa.String(100), nullable=False),
        sa.Column("bot", sa.Boolean, nullable=False),
        sa.Column("power", sa.String(32), nullable=True),
        sa.Column("joined", sa.Float, nullable=False),
        sa.UniqueConstraint("tournament_id", "account_id", name="uq_tournament_entrants_account"),
    )
    op.create_table(
        "tournament_games",
        sa.Column("tournament_id", sa.String(36), sa.ForeignKey("tournaments.id"), primary_key=True),
        sa.Column("round", sa.Integer, primary_key=True),
        sa.Column("board", sa.Integer, primary_key=True),
        sa.Column("attempt", sa.Integer, primary_key=True),
        sa.Column("entrants", sa.Text, nullable=False),
        sa.Column("game_id", sa.String(36), sa.ForeignKey("games.id"), nullable=True),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_index("ix_tournament_games_game", "tournament_games", ["game_id"])


def downgrade() -> None:
    op.drop_index("ix_tournament_games_game", "tournament_games")
    op.drop_table("tournament_games")
    op.drop_table("tournament_entrants")
    op.drop_index("ix_tournaments_status", "tournaments")
    op.drop_table("tournaments")
