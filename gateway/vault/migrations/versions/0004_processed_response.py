"""processed_message: the response a handled request was answered with

Revision ID: 0004_processed_response
Revises: 0003_outbox_queues
Create Date: 2026-12-01 09:40:00

A retried request (an HTTP ``Idempotency-Key``) is answered with the replies the first run gave,
Stripe-style, instead of an empty list: the client that lost the first answer still learns its roll id.
Rows from before this revision have no response (NULL) and answer as before (no replies).
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004_processed_response"
down_revision: str | Sequence[str] | None = "0003_outbox_queues"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("processed_message", schema=None) as batch_op:
        batch_op.add_column(sa.Column("response", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("processed_message", schema=None) as batch_op:
        batch_op.drop_column("response")
