"""house_rule: a channel's house rules, one row per switch set away from its rule system's default

Revision ID: 0010_house_rules
Revises: 0009_macros
Create Date: 2026-12-01 23:50:00

``house set NAME VALUE`` keeps a switch of the channel's rule system (``RuleSystem.house_rules``)
here, keyed by the channel's key, the system and the switch; ``house reset NAME`` deletes the row.
A new table only: an older process never reads it and keeps playing by the book (rolling restarts).
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

from gateway.vault.columns import UTCDateTime

revision: str = "0010_house_rules"
down_revision: str | Sequence[str] | None = "0009_macros"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "house_rule",
        sa.Column("channel_key", sqlmodel.sql.sqltypes.AutoString(length=300), nullable=False),
        sa.Column("system", sqlmodel.sql.sqltypes.AutoString(length=40), nullable=False),
        sa.Column("name", sqlmodel.sql.sqltypes.AutoString(length=60), nullable=False),
        sa.Column("value", sqlmodel.sql.sqltypes.AutoString(length=200), nullable=False),
        sa.Column("updated_at", UTCDateTime(), nullable=False),
        sa.PrimaryKeyConstraint("channel_key", "system", "name"),
    )


def downgrade() -> None:
    op.drop_table("house_rule")
