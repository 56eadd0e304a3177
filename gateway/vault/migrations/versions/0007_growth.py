"""Indexes that keep a character's logs flat in the vault's size

Revision ID: 0007_growth
Revises: 0006_cluster
Create Date: 2026-12-01 17:30:00

``st log NAME`` (with or without ``--since``) reads a character's newest rolls and Storyteller-log
entries; with only ``character_id`` indexed, every row of the character was read and sorted for the
newest 20 (98 times slower at 1M rolls than at 1k). ``(character_id, created_at, id)`` hands them
over newest first, and a ``--since`` is a range of the same index. ``st history NAME`` likewise on
the audit rows: ``(character_id, id)`` (SQLite's ``ix_audit_character_id`` already ends in the rowid,
PostgreSQL's does not). The indexes only add: an older process keeps working (rolling restarts).
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0007_growth"
down_revision: str | Sequence[str] | None = "0006_cluster"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_index("ix_roll_log_character_created", "roll_log", ["character_id", "created_at", "id"])
    op.create_index("ix_stlog_character_created", "stlog", ["character_id", "created_at", "id"])
    op.create_index("ix_audit_character_history", "audit", ["character_id", "id"])


def downgrade() -> None:
    op.drop_index("ix_audit_character_history", table_name="audit")
    op.drop_index("ix_stlog_character_created", table_name="stlog")
    op.drop_index("ix_roll_log_character_created", table_name="roll_log")
