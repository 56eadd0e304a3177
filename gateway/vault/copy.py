"""``gateway db copy --to URL [--from URL]``: a whole vault into an empty one, row for row, between
SQLite and PostgreSQL in either direction.

The source must be at the migration head; the target is brought to it and must then be empty. Every
table, parents first, streams from one read transaction on the source (a consistent snapshot, even
while a gateway writes to a SQLite source) into one transaction on the target, a batch per INSERT.
Before that transaction commits, each table is read back and compared with what was read from the
source, by count and by a digest of its rows, and on PostgreSQL every id sequence is moved past the
copied ids. Any failure rolls the target back: it is left migrated and empty.

Values go through the vault's own column types (UTC datetimes, booleans, floats), except JSON
documents, which travel as their text: a document arrives byte for byte, and SQL NULL stays apart
from JSON ``null``.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import sys
import time
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

import orjson
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import JSON, Column, Integer, MetaData, Table, Text, cast, event, func, inspect, select
from sqlalchemy import text as sql
from sqlalchemy.engine import URL, Connection, make_url
from sqlalchemy.exc import ArgumentError, DBAPIError, SQLAlchemyError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine
from sqlalchemy.sql.elements import ColumnElement
from sqlalchemy.types import TypeDecorator
from sqlmodel import SQLModel

import gateway.vault.models  # noqa: F401  (registers the core's tables on the metadata)
from gateway.core.errors import one_line
from gateway.core.settings import Settings
from gateway.ops.progress import Progress
from gateway.vault import sqlite_inline
from gateway.vault.engine import Vault
from gateway.vault.migrate import alembic_config, upgrade
from gateway.vault.name_search import is_index_object

BATCH = 2000  # rows per INSERT (one executemany); a batch is all that is ever held in memory
CONNECT_TIMEOUT = 10.0  # seconds to reach a PostgreSQL server before giving up
VERSION_TABLE = "alembic_version"
ENGINES = ("sqlite", "postgresql")


class CopyRefused(Exception):
    """The copy must not start (or cannot reach a vault); the message is the line the user sees."""


class CopyMismatch(Exception):
    """What the target holds is not what was read from the source; the target was rolled back."""


class RawJSON(TypeDecorator[str]):
    """A JSON column read and written as its text: no parse, no re-serialisation, NULL kept NULL."""

    impl = JSON
    cache_ok = True

    def bind_processor(self, dialect: Any) -> None:
        return None

    def result_processor(self, dialect: Any, coltype: Any) -> None:
        return None

    def column_expression(self, column: ColumnElement[Any]) -> ColumnElement[Any]:
        # asyncpg would decode a json column itself; as text it arrives as stored.
        return cast(column, Text)


@dataclass
class TableReport:
    name: str
    rows: int
    digest: str


def safe_url(url: str | URL) -> str:
    return make_url(url).render_as_string(hide_password=True)


def _backend(url: URL) -> str:
    return url.get_backend_name()


def same_vault(a: URL, b: URL) -> bool:
    if _backend(a) != _backend(b):
        return False
    if _backend(a) == "sqlite":
        return Path(a.database or "").resolve() == Path(b.database or "").resolve()
    port = 5432 if _backend(a) == "postgresql" else None
    return (a.host or "localhost", a.port or port, a.database) == (
        b.host or "localhost",
        b.port or port,
        b.database,
    )


def _one_line(exc: BaseException) -> str:
    """The driver's own words under SQLAlchemy's wrapper, in one line."""
    return one_line(exc.orig if isinstance(exc, DBAPIError) and exc.orig is not None else exc)


def _source_engine(url: URL, busy_timeout_ms: int) -> AsyncEngine:
    """An engine that only reads: on SQLite a deferred BEGIN (a snapshot that never takes the write
    lock, so a running gateway goes on writing) and ``query_only``."""
    if _backend(url) != "sqlite":
        return create_async_engine(url, connect_args={"timeout": CONNECT_TIMEOUT})
    database = url.database or ""
    if not Path(database).is_file():
        raise CopyRefused(f"there is no SQLite vault at {database}")
    engine = create_async_engine(url, async_creator=sqlite_inline.creator(database, busy_timeout_ms / 1000))

    @event.listens_for(engine.sync_engine, "connect")
    def _on_connect(dbapi_conn: Any, _record: Any) -> None:
        dbapi_conn.isolation_level = None  # SQLAlchemy's BEGIN below, not the driver's
        cursor = dbapi_conn.cursor()
        cursor.execute("PRAGMA query_only=ON")
        cursor.execute(f"PRAGMA busy_timeout={int(busy_timeout_ms)}")
        cursor.close()

    @event.listens_for(engine.sync_engine, "begin")
    def _on_begin(conn: Any) -> None:
        conn.exec_driver_sql("BEGIN")

    return engine


@asynccontextmanager
async def _reaching(what: str, url: URL) -> AsyncIterator[None]:
    """Errors while opening a vault become one line naming it."""
    try:
        yield
    except CopyRefused:
        raise
    except (OSError, SQLAlchemyError, TimeoutError, ValueError, ImportError) as exc:
        raise CopyRefused(f"cannot open the {what} vault {safe_url(url)}: {_one_line(exc)}") from exc


def _table_names(conn: Connection) -> set[str]:
    """The vault's tables but Alembic's and the trigram index's (SQLite's FTS5 tables, which the
    target's migration makes and its triggers fill as the characters arrive)."""
    names = set(inspect(conn).get_table_names()) - {VERSION_TABLE}
    return {name for name in names if not is_index_object(name, "table")}


def _current_heads(conn: Connection) -> set[str]:
    return set(MigrationContext.configure(conn).get_current_heads())


async def _non_empty(conn: AsyncConnection, names: Sequence[str]) -> list[str]:
    full = []
    for name in sorted(names):
        quoted = conn.dialect.identifier_preparer.quote(name)
        if (await conn.execute(sql(f"SELECT 1 FROM {quoted} LIMIT 1"))).first() is not None:
            full.append(name)
    return full


def copy_tables(names: set[str], metadata: MetaData | None = None) -> list[Table]:
    """The tables of ``metadata`` (the vault's models: the core's and the plugins') among ``names``,
    parents before children, with JSON columns as text."""
    raw = MetaData()
    tables = []
    for table in (metadata or SQLModel.metadata).sorted_tables:
        if table.name not in names:
            continue  # a model whose migration this vault does not run (a test's, say)
        columns = [
            Column(c.name, RawJSON() if isinstance(c.type, JSON) else c.type, primary_key=c.primary_key)
            for c in table.columns
        ]
        tables.append(Table(table.name, raw, *columns))
    return tables


def _hex(value: Any) -> str:
    if isinstance(value, bytes | bytearray | memoryview):
        return bytes(value).hex()
    raise TypeError(f"cannot digest a {type(value).__name__}")


class _Digest:
    """A digest of a table's rows that does not depend on their order (SQLite and PostgreSQL sort
    text differently): the sum of one hash per row."""

    MOD = 1 << 128

    def __init__(self) -> None:
        self.rows = 0
        self.value = 0

    def add(self, rows: Sequence[Sequence[Any]]) -> None:
        for row in rows:
            # datetimes, floats, bools: each has one spelling; bytes (a portrait) as their hex
            encoded = orjson.dumps(tuple(row), default=_hex)
            self.value += int.from_bytes(hashlib.blake2b(encoded, digest_size=16).digest(), "big")
        self.value %= self.MOD
        self.rows += len(rows)

    def hex(self) -> str:
        return f"{self.value:032x}"


async def _digest(conn: AsyncConnection, table: Table, batch: int) -> _Digest:
    digest = _Digest()
    result = await conn.stream(select(*table.columns))
    async for rows in result.partitions(batch):
        digest.add(rows)
    return digest


async def _reset_sequences(conn: AsyncConnection, tables: Sequence[Table]) -> None:
    """Move each serial/identity sequence to the largest copied id, so new rows get new ids."""
    quote = conn.dialect.identifier_preparer.quote
    for table in tables:
        for column in table.primary_key.columns:
            if not isinstance(column.type, Integer):
                continue
            name, col = quote(table.name), quote(column.name)
            await conn.execute(
                sql(
                    f"SELECT setval(pg_get_serial_sequence(:table, :column), "
                    f"coalesce(max({col}), 1), max({col}) IS NOT NULL) FROM {name}"
                ),
                {"table": name, "column": column.name},
            )


async def copy_vault(
    source_url: str,
    target_url: str,
    *,
    locations: Sequence[str] = (),
    metadata: MetaData | None = None,
    progress: TextIO | None = None,
    batch: int = BATCH,
    busy_timeout_ms: int = 5000,
    clock: Callable[[], float] = time.monotonic,
) -> list[TableReport]:
    """Copy the vault at ``source_url`` into the empty one at ``target_url``; each table's count and
    digest. ``locations``: the plugins' migration folders; ``metadata``: the tables' models (default
    ``SQLModel.metadata``, where the plugins' models are once they are loaded). Raises ``CopyRefused``
    before anything is written, ``CopyMismatch`` if the read-back differs."""
    try:
        source, target = make_url(source_url), make_url(target_url)
    except ArgumentError as exc:
        raise CopyRefused(f"not a database URL: {_one_line(exc)}") from exc
    for url in (source, target):
        if _backend(url) not in ENGINES:
            raise CopyRefused(f"{safe_url(url)}: the vault is on SQLite or PostgreSQL, not {_backend(url)}")
    if same_vault(source, target):
        raise CopyRefused(f"the source and the target are the same vault ({safe_url(target)})")
    heads = set(ScriptDirectory.from_config(alembic_config(locations)).get_heads())

    async with _reaching("source", source):
        source_engine = _source_engine(source, busy_timeout_ms)
    try:
        async with _reaching("source", source), source_engine.connect() as conn:
            current = await conn.run_sync(_current_heads)
            source_names = await conn.run_sync(_table_names)
            await conn.rollback()
        if current != heads:
            have = ", ".join(sorted(current)) or "no revision"
            raise CopyRefused(
                f"the source vault is at {have}, not at the head ({', '.join(sorted(heads))}): "
                f"run gateway db upgrade on it first"
            )

        async with _reaching("target", target):
            vault = Vault(target_url, busy_timeout_ms=busy_timeout_ms)
        try:
            async with _reaching("target", target), vault.engine.connect() as conn:
                full = await _non_empty(conn, sorted(await conn.run_sync(_table_names)))
                await conn.rollback()
            if full:
                raise CopyRefused(f"the target vault is not empty (rows in {', '.join(full)})")
            await upgrade(vault, locations)
            async with vault.engine.connect() as conn:
                target_names = await conn.run_sync(_table_names)
                full = await _non_empty(conn, sorted(target_names))
                await conn.rollback()
            if full:
                raise CopyRefused(f"the target vault is not empty after its migrations ({', '.join(full)})")
            tables = copy_tables(target_names, metadata)
            unknown = target_names - {t.name for t in tables}
            if unknown:
                raise CopyRefused(
                    f"no installed plugin has a model for table(s) {', '.join(sorted(unknown))}: "
                    "cannot copy them"
                )
            missing = {t.name for t in tables} - source_names
            if missing:
                raise CopyRefused(f"the source vault has no table(s) {', '.join(sorted(missing))}")
            return await _copy(source_engine, vault.engine, tables, progress, batch, clock)
        finally:
            await vault.dispose()
    finally:
        await source_engine.dispose()


async def _copy(
    source: AsyncEngine,
    target: AsyncEngine,
    tables: Sequence[Table],
    progress: TextIO | None,
    batch: int,
    clock: Callable[[], float],
) -> list[TableReport]:
    async with source.connect() as src:
        if source.dialect.name == "postgresql":
            src = await src.execution_options(isolation_level="REPEATABLE READ", postgresql_readonly=True)
        async with src.begin():
            counts = [int(await src.scalar(select(func.count()).select_from(t)) or 0) for t in tables]
            bar = Progress(sum(counts), progress, label="rows", clock=clock) if progress else None
            done = 0
            read: list[_Digest] = []
            async with target.connect() as dst, dst.begin():
                for table in tables:
                    names = [c.name for c in table.columns]
                    digest = _Digest()
                    result = await src.stream(select(*table.columns))
                    async for rows in result.partitions(batch):
                        digest.add(rows)
                        await dst.execute(
                            table.insert(), [dict(zip(names, row, strict=True)) for row in rows]
                        )
                        done += len(rows)
                        if bar is not None:
                            bar.update(done)
                    read.append(digest)
                if target.dialect.name == "postgresql":
                    await _reset_sequences(dst, tables)
                written = [await _digest(dst, table, batch) for table in tables]
                differ = [
                    f"{t.name} ({a.rows} rows read, {b.rows} written)"
                    for t, a, b in zip(tables, read, written, strict=True)
                    if (a.rows, a.value) != (b.rows, b.value)
                ]
                if differ:
                    raise CopyMismatch(f"the copy differs from the source in {', '.join(differ)}")
            if bar is not None:
                bar.close()
    return [TableReport(t.name, d.rows, d.hex()) for t, d in zip(tables, read, strict=True)]


def report_table(reports: Sequence[TableReport]) -> str:
    width = max([len("table"), *(len(r.name) for r in reports)])
    lines = [f"{'table':<{width}}  {'rows':>9}  digest"]
    lines += [f"{r.name:<{width}}  {r.rows:>9}  {r.digest}" for r in reports]
    lines.append(f"{'total':<{width}}  {sum(r.rows for r in reports):>9}")
    return "\n".join(lines)


def run_cli(args: argparse.Namespace, settings: Settings) -> int:
    from gateway.core.plugins import Plugins, build_plugin_manager

    source = args.source or settings.vault.url
    # Loading the plugins registers their models, and names their migrations.
    locations = Plugins(build_plugin_manager(settings.plugins.block)).migration_locations()
    started = time.monotonic()
    try:
        reports = asyncio.run(
            copy_vault(
                source,
                args.to,
                locations=locations,
                progress=sys.stderr,
                busy_timeout_ms=settings.vault.busy_timeout_ms,
            )
        )
    except CopyRefused as exc:
        print(f"gateway db copy: {exc}", file=sys.stderr)
        return 2
    except CopyMismatch as exc:
        print(f"gateway db copy: {exc}; the target was rolled back", file=sys.stderr)
        return 1
    except (OSError, SQLAlchemyError, TimeoutError) as exc:
        print(
            f"gateway db copy: the copy failed, the target was rolled back: {_one_line(exc)}", file=sys.stderr
        )
        return 1
    seconds = time.monotonic() - started
    rows = sum(r.rows for r in reports)
    print(report_table(reports))
    print(
        f"copied {rows} rows from {safe_url(source)} to {safe_url(args.to)} in {seconds:.1f}s "
        f"({rows / seconds if seconds else 0:.0f} rows/s); counts and digests match"
    )
    return 0
