"""lease: ownership of work that runs once per deployment (IRC connections, Matrix sync loops)

Revision ID: 0005_leases
Revises: 0004_processed_response
Create Date: 2026-12-01 10:00:00

One row per lease name, claimed and renewed by one upsert on the database's clock
(``gateway/delivery/leases.py``).
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

from gateway.vault.columns import UTCDateTime

revision: str = "0005_leases"
down_revision: str | Sequence[str] | None = "0004_processed_response"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "lease",
        sa.Column("name", sqlmodel.sql.sqltypes.AutoString(length=200), nullable=False),
        sa.Column("owner", sqlmodel.sql.sqltypes.AutoString(length=200), nullable=False),
        sa.Column("epoch", sa.Integer(), nullable=False),
        sa.Column("expires_at", UTCDateTime(), nullable=False),
        sa.PrimaryKeyConstraint("name"),
    )


def downgrade() -> None:
    op.drop_table("lease")
