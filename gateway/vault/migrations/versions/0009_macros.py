"""macro: saved command lines, a person's own or a channel's

Revision ID: 0009_macros
Revises: 0008_retired
Create Date: 2026-12-01 23:50:00

``macro add NAME = COMMAND`` keeps one row per owner, rule system and name: ``owner`` is
``person:<id>`` (moved with the person when two are linked) or ``channel:<channel key>`` (a
Storyteller's macro for everyone in that channel). ``UNIQUE (owner, system, name)`` is also the index
every lookup takes (``owner IN (...) AND system = ...``).

A new table only: an older process never reads it (rolling restarts).
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

from gateway.vault.columns import UTCDateTime

revision: str = "0009_macros"
down_revision: str | Sequence[str] | None = "0008_retired"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "macro",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("owner", sqlmodel.sql.sqltypes.AutoString(length=320), nullable=False),
        sa.Column("system", sqlmodel.sql.sqltypes.AutoString(length=40), nullable=False),
        sa.Column("name", sqlmodel.sql.sqltypes.AutoString(length=40), nullable=False),
        sa.Column("body", sqlmodel.sql.sqltypes.AutoString(), nullable=False),
        sa.Column("created_at", UTCDateTime(), nullable=False),
        sa.Column("updated_at", UTCDateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("owner", "system", "name"),
    )


def downgrade() -> None:
    op.drop_table("macro")
