"""merge: processed_message responses (0004) and leases (0005), written in parallel off 0003

Revision ID: 0006_merge_responses_leases
Revises: 0004_processed_response, 0005_leases
Create Date: 2026-12-01 10:25:00

Both revisions add independent things; a vault at either one upgrades through the other and here.
"""

from collections.abc import Sequence

revision: str = "0006_merge_responses_leases"
down_revision: str | Sequence[str] | None = ("0004_processed_response", "0005_leases")
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
