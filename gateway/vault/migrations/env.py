"""Alembic environment: runs on the connection ``gateway.vault.migrate`` hands over."""

from __future__ import annotations

from alembic import context
from sqlmodel import SQLModel

import gateway.vault.models  # noqa: F401  (registers the tables on the metadata)
from gateway.vault.name_search import is_index_object


def include_object(obj: object, name: str | None, type_: str, reflected: bool, compare_to: object) -> bool:
    """What autogenerate compares with the models: not the trigram index of ``st search`` (0007),
    which no model describes (SQLite's FTS5 tables, PostgreSQL's GIN index)."""
    return not is_index_object(name, type_)


connection = context.config.attributes["connection"]
context.configure(
    connection=connection,
    target_metadata=SQLModel.metadata,
    render_as_batch=True,
    include_object=include_object,
)
with context.begin_transaction():
    context.run_migrations()
