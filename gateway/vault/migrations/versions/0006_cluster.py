"""gateway_process and rate_bucket: what each process reports, and rate limits shared by processes

Revision ID: 0006_cluster
Revises: 0005_leases
Create Date: 2026-12-01 15:00:00

``gateway_process``: one row per running process, refreshed by its heartbeat (``gateway status``).
``rate_bucket``: token buckets every process on the vault shares (Second Life's per-object limit).
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

from gateway.vault.columns import UTCDateTime

revision: str = "0006_cluster"
down_revision: str | Sequence[str] | None = "0005_leases"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "gateway_process",
        sa.Column("id", sqlmodel.sql.sqltypes.AutoString(length=200), nullable=False),
        sa.Column("host", sqlmodel.sql.sqltypes.AutoString(length=200), nullable=False),
        sa.Column("pid", sa.Integer(), nullable=False),
        sa.Column("version", sqlmodel.sql.sqltypes.AutoString(length=40), nullable=False),
        sa.Column("started_at", UTCDateTime(), nullable=False),
        sa.Column("seen_at", UTCDateTime(), nullable=False),
        sa.Column("state", sa.JSON(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_gateway_process_seen_at", "gateway_process", ["seen_at"])
    op.create_table(
        "rate_bucket",
        sa.Column("key", sqlmodel.sql.sqltypes.AutoString(length=300), nullable=False),
        sa.Column("tokens", sa.Float(), nullable=False),
        sa.Column("updated_at", UTCDateTime(), nullable=False),
        sa.PrimaryKeyConstraint("key"),
    )
    op.create_index("ix_rate_bucket_updated_at", "rate_bucket", ["updated_at"])


def downgrade() -> None:
    op.drop_index("ix_rate_bucket_updated_at", table_name="rate_bucket")
    op.drop_table("rate_bucket")
    op.drop_index("ix_gateway_process_seen_at", table_name="gateway_process")
    op.drop_table("gateway_process")
