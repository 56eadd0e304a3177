"""core tables

Revision ID: 0001_core
Revises:
Create Date: 2026-11-30 13:29:44.383256
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

from gateway.vault.columns import UTCDateTime

revision: str = "0001_core"
down_revision: str | Sequence[str] | None = None
branch_labels: str | Sequence[str] | None = ("core",)
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:

    op.create_table(
        "audit",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("actor_id", sa.Integer(), nullable=True),
        sa.Column("actor_key", sqlmodel.sql.sqltypes.AutoString(length=300), nullable=False),
        sa.Column("character_id", sa.Integer(), nullable=True),
        sa.Column("action", sqlmodel.sql.sqltypes.AutoString(length=60), nullable=False),
        sa.Column("field_name", sqlmodel.sql.sqltypes.AutoString(), nullable=True),
        sa.Column("old_value", sqlmodel.sql.sqltypes.AutoString(), nullable=True),
        sa.Column("new_value", sqlmodel.sql.sqltypes.AutoString(), nullable=True),
        sa.Column("created_at", UTCDateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("audit", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_audit_actor_id"), ["actor_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_audit_character_id"), ["character_id"], unique=False)

    op.create_table(
        "channel",
        sa.Column("key", sqlmodel.sql.sqltypes.AutoString(length=300), nullable=False),
        sa.Column("platform", sqlmodel.sql.sqltypes.AutoString(length=40), nullable=False),
        sa.Column("system", sqlmodel.sql.sqltypes.AutoString(), nullable=True),
        sa.Column("locale", sqlmodel.sql.sqltypes.AutoString(), nullable=True),
        sa.Column("settings", sa.JSON(), nullable=False),
        sa.Column("created_at", UTCDateTime(), nullable=False),
        sa.PrimaryKeyConstraint("key"),
    )
    op.create_table(
        "kv",
        sa.Column("scope", sqlmodel.sql.sqltypes.AutoString(length=100), nullable=False),
        sa.Column("key", sqlmodel.sql.sqltypes.AutoString(length=300), nullable=False),
        sa.Column("value", sa.JSON(), nullable=False),
        sa.Column("updated_at", UTCDateTime(), nullable=False),
        sa.PrimaryKeyConstraint("scope", "key"),
    )
    op.create_table(
        "link_code",
        sa.Column("code", sqlmodel.sql.sqltypes.AutoString(length=32), nullable=False),
        sa.Column("person_id", sa.Integer(), nullable=False),
        sa.Column("identity_key", sqlmodel.sql.sqltypes.AutoString(length=300), nullable=False),
        sa.Column("expires_at", UTCDateTime(), nullable=False),
        sa.Column("used", sa.Boolean(), nullable=False),
        sa.Column("created_at", UTCDateTime(), nullable=False),
        sa.PrimaryKeyConstraint("code"),
    )
    with op.batch_alter_table("link_code", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_link_code_person_id"), ["person_id"], unique=False)

    op.create_table(
        "outbox",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("platform", sqlmodel.sql.sqltypes.AutoString(length=40), nullable=False),
        sa.Column("target", sqlmodel.sql.sqltypes.AutoString(length=400), nullable=False),
        sa.Column("payload", sa.JSON(), nullable=False),
        sa.Column("status", sqlmodel.sql.sqltypes.AutoString(length=20), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("next_attempt_at", UTCDateTime(), nullable=False),
        sa.Column("claimed_until", UTCDateTime(), nullable=True),
        sa.Column("last_error", sqlmodel.sql.sqltypes.AutoString(), nullable=True),
        sa.Column("created_at", UTCDateTime(), nullable=False),
        sa.Column("delivered_at", UTCDateTime(), nullable=True),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("outbox", schema=None) as batch_op:
        batch_op.create_index("ix_outbox_due", ["platform", "status", "next_attempt_at"], unique=False)

    op.create_table(
        "person",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("display_name", sqlmodel.sql.sqltypes.AutoString(), nullable=False),
        sa.Column("storyteller", sa.Boolean(), nullable=False),
        sa.Column("locale", sqlmodel.sql.sqltypes.AutoString(), nullable=True),
        sa.Column("active_character_id", sa.Integer(), nullable=True),
        sa.Column("created_at", UTCDateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("person", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_person_active_character_id"), ["active_character_id"], unique=False
        )

    op.create_table(
        "processed_message",
        sa.Column("platform", sqlmodel.sql.sqltypes.AutoString(length=40), nullable=False),
        sa.Column("message_id", sqlmodel.sql.sqltypes.AutoString(length=200), nullable=False),
        sa.Column("created_at", UTCDateTime(), nullable=False),
        sa.PrimaryKeyConstraint("platform", "message_id"),
    )
    op.create_table(
        "scene_state",
        sa.Column("channel_key", sqlmodel.sql.sqltypes.AutoString(length=300), nullable=False),
        sa.Column("system", sqlmodel.sql.sqltypes.AutoString(length=40), nullable=False),
        sa.Column("kind", sqlmodel.sql.sqltypes.AutoString(length=60), nullable=False),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.Column("updated_at", UTCDateTime(), nullable=False),
        sa.PrimaryKeyConstraint("channel_key", "system", "kind"),
    )
    op.create_table(
        "stlog",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("person_id", sa.Integer(), nullable=True),
        sa.Column("character_id", sa.Integer(), nullable=True),
        sa.Column("channel_key", sqlmodel.sql.sqltypes.AutoString(length=300), nullable=False),
        sa.Column("kind", sqlmodel.sql.sqltypes.AutoString(length=40), nullable=False),
        sa.Column("text", sqlmodel.sql.sqltypes.AutoString(), nullable=False),
        sa.Column("result", sa.JSON(), nullable=False),
        sa.Column("created_at", UTCDateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("stlog", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_stlog_character_id"), ["character_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_stlog_created_at"), ["created_at"], unique=False)
        batch_op.create_index(batch_op.f("ix_stlog_person_id"), ["person_id"], unique=False)

    op.create_table(
        "character",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("owner_id", sa.Integer(), nullable=False),
        sa.Column("system", sqlmodel.sql.sqltypes.AutoString(length=40), nullable=False),
        sa.Column("name", sqlmodel.sql.sqltypes.AutoString(), nullable=False),
        sa.Column("name_key", sqlmodel.sql.sqltypes.AutoString(length=200), nullable=False),
        sa.Column("status", sqlmodel.sql.sqltypes.AutoString(length=20), nullable=False),
        sa.Column("sheet", sa.JSON(), nullable=False),
        sa.Column("created_at", UTCDateTime(), nullable=False),
        sa.Column("updated_at", UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["owner_id"],
            ["person.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("system", "name_key"),
    )
    with op.batch_alter_table("character", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_character_owner_id"), ["owner_id"], unique=False)

    op.create_table(
        "identity",
        sa.Column("key", sqlmodel.sql.sqltypes.AutoString(length=300), nullable=False),
        sa.Column("person_id", sa.Integer(), nullable=False),
        sa.Column("platform", sqlmodel.sql.sqltypes.AutoString(length=40), nullable=False),
        sa.Column("display_name", sqlmodel.sql.sqltypes.AutoString(), nullable=False),
        sa.Column("verified", sa.Boolean(), nullable=False),
        sa.Column("created_at", UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["person_id"],
            ["person.id"],
        ),
        sa.PrimaryKeyConstraint("key"),
    )
    with op.batch_alter_table("identity", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_identity_person_id"), ["person_id"], unique=False)

    op.create_table(
        "roll_log",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("public_id", sqlmodel.sql.sqltypes.AutoString(length=16), nullable=False),
        sa.Column("person_id", sa.Integer(), nullable=True),
        sa.Column("identity_key", sqlmodel.sql.sqltypes.AutoString(length=300), nullable=False),
        sa.Column("display_name", sqlmodel.sql.sqltypes.AutoString(), nullable=False),
        sa.Column("channel_key", sqlmodel.sql.sqltypes.AutoString(length=300), nullable=False),
        sa.Column("system", sqlmodel.sql.sqltypes.AutoString(length=40), nullable=False),
        sa.Column("character_id", sa.Integer(), nullable=True),
        sa.Column("kind", sqlmodel.sql.sqltypes.AutoString(length=40), nullable=False),
        sa.Column("pool", sa.Integer(), nullable=True),
        sa.Column("dice", sa.JSON(), nullable=False),
        sa.Column("total", sa.Integer(), nullable=True),
        sa.Column("degree", sqlmodel.sql.sqltypes.AutoString(), nullable=True),
        sa.Column("result", sa.JSON(), nullable=False),
        sa.Column("created_at", UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["person_id"],
            ["person.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("public_id"),
    )
    with op.batch_alter_table("roll_log", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_roll_log_character_id"), ["character_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_roll_log_created_at"), ["created_at"], unique=False)
        batch_op.create_index(batch_op.f("ix_roll_log_person_id"), ["person_id"], unique=False)

    op.create_table(
        "pool",
        sa.Column("character_id", sa.Integer(), nullable=False),
        sa.Column("name", sqlmodel.sql.sqltypes.AutoString(length=40), nullable=False),
        sa.Column("current", sa.Integer(), nullable=False),
        sa.Column("maximum", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["character_id"],
            ["character.id"],
        ),
        sa.PrimaryKeyConstraint("character_id", "name"),
    )


def downgrade() -> None:

    op.drop_table("pool")
    with op.batch_alter_table("roll_log", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_roll_log_person_id"))
        batch_op.drop_index(batch_op.f("ix_roll_log_created_at"))
        batch_op.drop_index(batch_op.f("ix_roll_log_character_id"))

    op.drop_table("roll_log")
    with op.batch_alter_table("identity", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_identity_person_id"))

    op.drop_table("identity")
    with op.batch_alter_table("character", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_character_owner_id"))

    op.drop_table("character")
    with op.batch_alter_table("stlog", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_stlog_person_id"))
        batch_op.drop_index(batch_op.f("ix_stlog_created_at"))
        batch_op.drop_index(batch_op.f("ix_stlog_character_id"))

    op.drop_table("stlog")
    op.drop_table("scene_state")
    op.drop_table("processed_message")
    with op.batch_alter_table("person", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_person_active_character_id"))

    op.drop_table("person")
    with op.batch_alter_table("outbox", schema=None) as batch_op:
        batch_op.drop_index("ix_outbox_due")

    op.drop_table("outbox")
    with op.batch_alter_table("link_code", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_link_code_person_id"))

    op.drop_table("link_code")
    op.drop_table("kv")
    op.drop_table("channel")
    with op.batch_alter_table("audit", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_audit_character_id"))
        batch_op.drop_index(batch_op.f("ix_audit_actor_id"))

    op.drop_table("audit")
