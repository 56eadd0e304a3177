"""stats_tally: ``stats``'s tallies of the roll log, kept in the vault

Revision ID: 0012_stats_tally
Revises: 0011_web_sessions
Create Date: 2026-12-02 00:00:00

The first ``stats`` of a scope folds its old rolls once per vault instead of once per process; every
process on the vault reads the kept tallies. One new table: an older process ignores it.
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

from gateway.vault.columns import UTCDateTime

revision: str = "0012_stats_tally"
down_revision: str | Sequence[str] | None = "0011_web_sessions"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "stats_tally",
        sa.Column("kind", sqlmodel.sql.sqltypes.AutoString(length=20), nullable=False),
        sa.Column("scope", sqlmodel.sql.sqltypes.AutoString(length=300), nullable=False),
        sa.Column("system", sqlmodel.sql.sqltypes.AutoString(length=40), nullable=False),
        sa.Column("day", sqlmodel.sql.sqltypes.AutoString(length=10), nullable=False),
        sa.Column("through", sa.Integer(), nullable=False),
        sa.Column("data", sqlmodel.sql.sqltypes.AutoString(), nullable=False),
        sa.Column("updated_at", UTCDateTime(), nullable=False),
        sa.PrimaryKeyConstraint("kind", "scope", "system", "day"),
    )


def downgrade() -> None:
    op.drop_table("stats_tally")
