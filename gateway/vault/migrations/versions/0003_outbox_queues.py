"""outbox: partial indexes for queue heads and the delivered-row sweep

Revision ID: 0003_outbox_queues
Revises: 0002_roll_log_text
Create Date: 2026-12-01 09:30:00

A claim finds each target's head (its oldest pending row) by walking ``ix_outbox_queue`` one target at a
time, so it costs a few index probes per target whatever the backlog; the old ``ix_outbox_due`` let it
scan every pending row of the platform for each candidate. ``ix_outbox_delivered`` keeps the sweep of
old delivered rows off a full-table scan.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003_outbox_queues"
down_revision: str | Sequence[str] | None = "0002_roll_log_text"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

PENDING = sa.text("status = 'pending'")
DELIVERED = sa.text("status = 'delivered'")


def upgrade() -> None:
    with op.batch_alter_table("outbox", schema=None) as batch_op:
        batch_op.drop_index("ix_outbox_due")
    op.create_index(
        "ix_outbox_queue",
        "outbox",
        ["platform", "target", "id"],
        sqlite_where=PENDING,
        postgresql_where=PENDING,
    )
    op.create_index(
        "ix_outbox_delivered",
        "outbox",
        ["delivered_at"],
        sqlite_where=DELIVERED,
        postgresql_where=DELIVERED,
    )


def downgrade() -> None:
    op.drop_index("ix_outbox_delivered", table_name="outbox")
    op.drop_index("ix_outbox_queue", table_name="outbox")
    with op.batch_alter_table("outbox", schema=None) as batch_op:
        batch_op.create_index("ix_outbox_due", ["platform", "status", "next_attempt_at"], unique=False)
