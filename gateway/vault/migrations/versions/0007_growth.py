"""Indexes that keep a character's logs and ``st search`` flat in the vault's size

Revision ID: 0007_growth
Revises: 0006_cluster
Create Date: 2026-12-01 17:30:00

``st log NAME`` (with or without ``--since``) reads a character's newest rolls and Storyteller-log
entries; with only ``character_id`` indexed, every row of the character was read and sorted for the
newest 20 (98 times slower at 1M rolls than at 1k). ``(character_id, created_at, id)`` hands them
over newest first, and a ``--since`` is a range of the same index. ``st history NAME`` likewise on
the audit rows: ``(character_id, id)`` (SQLite's ``ix_audit_character_id`` already ends in the rowid,
PostgreSQL's does not).

``st search TEXT`` (``name_key LIKE '%text%'``) read every character of the system. A trigram index
finds the names holding the text's trigrams: on SQLite an FTS5 table with the trigram tokenizer over
``character.name_key`` (external content: it stores only the index, triggers keep it in step); on
PostgreSQL a GIN ``gin_trgm_ops`` index (the ``pg_trgm`` extension). Either may be missing (a SQLite
built without FTS5, a PostgreSQL user without CREATE on the database): the migration then logs a
warning and goes on, and the search reads the names as before (``gateway.vault.name_search``).
A later migration that rebuilds ``character`` (a batch ALTER on SQLite) drops its triggers with it,
and must create them again (``tests/core/test_search_index.py`` checks them at the head).

The indexes only add: an older process keeps working (rolling restarts).
"""

import logging
from collections.abc import Sequence

from alembic import op
from sqlalchemy.exc import DBAPIError

revision: str = "0007_growth"
down_revision: str | Sequence[str] | None = "0006_cluster"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

log = logging.getLogger("gateway.vault.migrate")

FTS = "character_name_trigram"  # gateway.vault.name_search.TRIGRAM_TABLE
PG_INDEX = "ix_character_name_trgm"  # gateway.vault.name_search.TRIGRAM_INDEX
SQLITE_TRIGGERS = {
    f"{FTS}_ai": f"""AFTER INSERT ON character BEGIN
        INSERT INTO {FTS}(rowid, name_key) VALUES (new.id, new.name_key);
    END""",
    f"{FTS}_ad": f"""AFTER DELETE ON character BEGIN
        INSERT INTO {FTS}({FTS}, rowid, name_key) VALUES ('delete', old.id, old.name_key);
    END""",
    f"{FTS}_au": f"""AFTER UPDATE OF id, name_key ON character BEGIN
        INSERT INTO {FTS}({FTS}, rowid, name_key) VALUES ('delete', old.id, old.name_key);
        INSERT INTO {FTS}(rowid, name_key) VALUES (new.id, new.name_key);
    END""",
}


def upgrade() -> None:
    op.create_index("ix_roll_log_character_created", "roll_log", ["character_id", "created_at", "id"])
    op.create_index("ix_stlog_character_created", "stlog", ["character_id", "created_at", "id"])
    op.create_index("ix_audit_character_history", "audit", ["character_id", "id"])
    dialect = op.get_bind().dialect.name
    if dialect == "sqlite":
        _sqlite_trigram()
    elif dialect == "postgresql":
        _postgresql_trigram()


def _sqlite_trigram() -> None:
    bind = op.get_bind()
    try:  # a failed statement leaves SQLite's transaction as it was: no savepoint needed
        bind.exec_driver_sql(
            f"CREATE VIRTUAL TABLE {FTS} USING fts5(name_key, content='character', "
            "content_rowid='id', tokenize='trigram', detail='none')"
        )
    except DBAPIError as exc:
        log.warning(
            "st search reads every name of a system: this SQLite (%s) has no FTS5 trigram index (%s)",
            bind.exec_driver_sql("SELECT sqlite_version()").scalar(),
            exc.orig,
        )
        return
    for name, body in SQLITE_TRIGGERS.items():
        bind.exec_driver_sql(f"CREATE TRIGGER {name} {body}")
    bind.exec_driver_sql(f"INSERT INTO {FTS}({FTS}) VALUES ('rebuild')")  # the characters there are


def _postgresql_trigram() -> None:
    bind = op.get_bind()
    try:
        with bind.begin_nested():  # a failure must not abort the migration's transaction
            bind.exec_driver_sql("CREATE EXTENSION IF NOT EXISTS pg_trgm")
    except DBAPIError as exc:
        log.warning(
            "st search reads every name of a system: cannot create the extension pg_trgm (%s); "
            "a superuser adds the index with CREATE EXTENSION pg_trgm; CREATE INDEX %s ON character "
            "USING gin (name_key gin_trgm_ops)",
            str(exc.orig).strip().splitlines()[0],
            PG_INDEX,
        )
        return
    op.create_index(
        PG_INDEX,
        "character",
        ["name_key"],
        postgresql_using="gin",
        postgresql_ops={"name_key": "gin_trgm_ops"},
        # Without GIN's pending list: a few characters a day are no burden to index at once, and a
        # search never scans a list of unindexed names (until a VACUUM) beside the index.
        postgresql_with={"fastupdate": "off"},
    )


def downgrade() -> None:
    dialect = op.get_bind().dialect.name
    if dialect == "sqlite":
        for name in SQLITE_TRIGGERS:
            op.execute(f"DROP TRIGGER IF EXISTS {name}")
        op.execute(f"DROP TABLE IF EXISTS {FTS}")
    elif dialect == "postgresql":
        op.execute(f"DROP INDEX IF EXISTS {PG_INDEX}")  # pg_trgm stays: other things may use it
    op.drop_index("ix_audit_character_history", table_name="audit")
    op.drop_index("ix_stlog_character_created", table_name="stlog")
    op.drop_index("ix_roll_log_character_created", table_name="roll_log")
