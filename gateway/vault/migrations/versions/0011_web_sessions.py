"""web_link, web_session: sign-in links from chat and the web sessions they open

Revision ID: 0011_web_sessions
Revises: 0008_retired
Create Date: 2026-12-02 00:00:00

``web`` in chat answers with a one-time link (its token's SHA-256 in ``web_link``); opening it starts
a session (the cookie's token's SHA-256 in ``web_session``), so every gateway process on the vault
serves the same sessions. Two new tables: an older process ignores them (rolling restarts).
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

from gateway.vault.columns import UTCDateTime

revision: str = "0011_web_sessions"
down_revision: str | Sequence[str] | None = "0008_retired"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "web_link",
        sa.Column("token_hash", sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
        sa.Column("identity_key", sqlmodel.sql.sqltypes.AutoString(length=300), nullable=False),
        sa.Column("expires_at", UTCDateTime(), nullable=False),
        sa.Column("used_at", UTCDateTime(), nullable=True),
        sa.Column("created_at", UTCDateTime(), nullable=False),
        sa.PrimaryKeyConstraint("token_hash"),
    )
    op.create_index(op.f("ix_web_link_identity_key"), "web_link", ["identity_key"], unique=False)
    op.create_table(
        "web_session",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("token_hash", sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
        sa.Column("identity_key", sqlmodel.sql.sqltypes.AutoString(length=300), nullable=False),
        sa.Column("agent", sqlmodel.sql.sqltypes.AutoString(length=200), nullable=False),
        sa.Column("created_at", UTCDateTime(), nullable=False),
        sa.Column("seen_at", UTCDateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("token_hash"),
    )
    op.create_index(op.f("ix_web_session_identity_key"), "web_session", ["identity_key"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_web_session_identity_key"), table_name="web_session")
    op.drop_table("web_session")
    op.drop_index(op.f("ix_web_link_identity_key"), table_name="web_link")
    op.drop_table("web_link")
