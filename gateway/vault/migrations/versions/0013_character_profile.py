"""character_profile: a character's biography and web portrait

Revision ID: 0013_character_profile
Revises: 0012_stats_tally
Create Date: 2026-12-06 00:00:00

``char bio`` and the web sheet's portrait keep a character's flavour, the same for every rule system,
outside its sheet document. One new table: an older process ignores it (rolling restarts).
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

from gateway.vault.columns import UTCDateTime

revision: str = "0013_character_profile"
down_revision: str | Sequence[str] | None = "0012_stats_tally"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "character_profile",
        sa.Column("character_id", sa.Integer(), nullable=False),
        sa.Column("biography", sqlmodel.sql.sqltypes.AutoString(), nullable=False),
        sa.Column("portrait", sa.LargeBinary(), nullable=True),
        sa.Column("portrait_type", sqlmodel.sql.sqltypes.AutoString(length=20), nullable=False),
        sa.Column("portrait_hash", sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
        sa.Column("updated_at", UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(["character_id"], ["character.id"]),
        sa.PrimaryKeyConstraint("character_id"),
    )


def downgrade() -> None:
    op.drop_table("character_profile")
