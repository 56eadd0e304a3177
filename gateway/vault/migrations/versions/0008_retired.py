"""character.retired_at: a character can be retired and its name used again

Revision ID: 0008_retired
Revises: 0007_growth
Create Date: 2026-12-01 20:30:00

``char retire NAME`` / ``st retire NAME`` hide a character from every list and free its name for a
new one, keeping its rolls, Storyteller log and audit rows (they stay verifiable by roll id). The row
stays; ``retired_at`` marks it, and its ``name_key`` is moved out of the names' space (the casefolded
name, a unit separator, the id: ``gateway.features.characters.retired_key``), so ``UNIQUE (system, name_key)``
keeps names unique per system among the characters in play without being dropped. A partial unique
index would say the same, but replacing the constraint rebuilds ``character`` on SQLite (its FTS
triggers with it) and drops a constraint an older process relies on.

The column only adds (``ALTER TABLE ... ADD COLUMN``, no rebuild): an older process keeps working
(rolling restarts); it lists retired characters until it is restarted, and cannot find them by name.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from gateway.vault.columns import UTCDateTime

revision: str = "0008_retired"
down_revision: str | Sequence[str] | None = "0007_growth"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("character", sa.Column("retired_at", UTCDateTime(), nullable=True))


def downgrade() -> None:
    # SQLite 3.35+ drops a column in place; a batch operation would rebuild the table and lose the
    # trigram index's triggers (0007). Retired characters keep their moved name keys.
    if op.get_bind().dialect.name == "sqlite":
        op.execute('ALTER TABLE "character" DROP COLUMN retired_at')
    else:
        op.drop_column("character", "retired_at")
