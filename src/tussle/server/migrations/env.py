"""Alembic's environment for the server's database: run on the connection Store.open hands over."""

from __future__ import annotations

from alembic import context

from tussle.server.store import metadata

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
