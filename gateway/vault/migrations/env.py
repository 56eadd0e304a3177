"""Alembic environment: runs on the connection ``gateway.vault.migrate`` hands over."""

from __future__ import annotations

from alembic import context
from sqlmodel import SQLModel

import gateway.vault.models  # noqa: F401  (registers the tables on the metadata)

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=SQLModel.metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
