"""a roll's Storyteller-log line on its roll-log row

Revision ID: 0002_roll_log_text
Revises: 0001_core
Create Date: 2026-11-30 16:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision: str = "0002_roll_log_text"
down_revision: str | Sequence[str] | None = "0001_core"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("roll_log", schema=None) as batch_op:
        batch_op.add_column(sa.Column("text", sqlmodel.sql.sqltypes.AutoString(), nullable=True))
        batch_op.add_column(
            sa.Column("stlog_kind", sqlmodel.sql.sqltypes.AutoString(length=40), nullable=True)
        )


def downgrade() -> None:
    with op.batch_alter_table("roll_log", schema=None) as batch_op:
        batch_op.drop_column("stlog_kind")
        batch_op.drop_column("text")
