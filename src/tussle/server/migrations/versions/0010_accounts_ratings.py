"""Accounts, their sign-ins and tokens, their seats, and their ratings.

- ``accounts``: the user table fastapi-users manages (id, email, Argon2 hash, flags) and tussle's own
  columns: the display name (unique whatever its case, through ``name_key``), whether the account
  is a program's (``bot``), and when it was made.
- ``sessions``: a browser's sign-ins; ``api_tokens``: programs' tokens. Each holds the SHA-256 of
  a token, never the token (as ``seats.token_hash`` does).
- ``seats.account_id``: the account that plays a seat (None: a guest, a computer, nobody yet).
- ``games.rated``: a rated game (None or false: a casual one, as every older game).
- ``ratings``: an account's rating at a game (openskill's mu and sigma) and how many rated games
  made it; ``rating_history``: the rating after each rated game.
- ``server_keys``: secrets every process of a deployment shares (the CSRF check's signing key),
  drawn by the first process that needs one.

Revision ID: 0010
Revises: 0009
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "server_keys",
        sa.Column("name", sa.String(32), primary_key=True),
        sa.Column("value", sa.String(128), nullable=False),
    )
    op.create_table(
        "accounts",
        sa.Column("id", sa.Uuid(), primary_key=True),
        sa.Column("email", sa.String(320), nullable=False),
        sa.Column("hashed_password", sa.String(1024), nullable=False),
        sa.Column("is_active", sa.Boolean, nullable=False),
        sa.Column("is_superuser", sa.Boolean, nullable=False),
        sa.Column("is_verified", sa.Boolean, nullable=False),
        sa.Column("name", sa.String(20), nullable=False),
        sa.Column("name_key", sa.String(20), nullable=False),
        sa.Column("bot", sa.Boolean, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_index("ix_accounts_email", "accounts", ["email"], unique=True)
    op.create_index("ix_accounts_name_key", "accounts", ["name_key"], unique=True)
    for table in ("sessions", "api_tokens"):
        op.create_table(
            table,
            sa.Column("token", sa.String(64), primary_key=True),
            sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
            sa.Column("user_id", sa.Uuid(), sa.ForeignKey("accounts.id", ondelete="cascade"), nullable=False),
        )
        op.create_index(f"ix_{table}_created_at", table, ["created_at"])
        op.create_index(f"ix_{table}_user_id", table, ["user_id"])
    with op.batch_alter_table("seats") as seats:
        seats.add_column(sa.Column("account_id", sa.Uuid(), nullable=True))
        seats.create_foreign_key("fk_seats_account_id", "accounts", ["account_id"], ["id"])
        seats.create_index("ix_seats_account_id", ["account_id"])
    with op.batch_alter_table("games") as games:
        games.add_column(sa.Column("rated", sa.Boolean, nullable=True))
    op.create_table(
        "ratings",
        sa.Column("account_id", sa.Uuid(), sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("game", sa.String(64), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
    )
    op.create_index("ix_ratings_game_mu", "ratings", ["game", "mu"])
    op.create_table(
        "rating_history",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("account_id", sa.Uuid(), sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("game_id", sa.String(36), sa.ForeignKey("games.id"), nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("ix_rating_history_account_game", "rating_history", ["account_id", "game", "id"])


def downgrade() -> None:
    op.drop_table("rating_history")
    op.drop_table("ratings")
    with op.batch_alter_table("games") as games:
        games.drop_column("rated")
    with op.batch_alter_table("seats") as seats:
        seats.drop_index("ix_seats_account_id")
        seats.drop_constraint("fk_seats_account_id", type_="foreignkey")
        seats.drop_column("account_id")
    op.drop_table("api_tokens")
    op.drop_table("sessions")
    op.drop_table("accounts")
    op.drop_table("server_keys")
