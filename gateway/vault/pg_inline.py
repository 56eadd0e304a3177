"""The PostgreSQL unit of work: ``Prepared`` statements and transaction control straight on asyncpg.

Why: through SQLAlchemy a roll's unit cost about three times the CPU of the same unit on SQLite,
most of it per statement (execution context, result wrapping, greenlet hops) and per round trip
(the pool's pre-ping was three of them: BEGIN, a ping, ROLLBACK). Here a statement is one asyncpg
call on a server-side prepared statement kept per connection, and a unit is BEGIN, its statements,
and one COMMIT that carries the unit's NOTIFYs.

The unit shares the connection with SQLAlchemy: ``unit.session`` (the ORM) and anything else run
through SQLAlchemy on the same asyncpg connection, in the same transaction. SQLAlchemy's asyncpg
adapter begins its own transaction on its first statement unless it holds one, so the unit hands it
``_Transaction``, whose commit and rollback are the unit's own; and the adapter's mutex, which
serialises its statements, is held around the unit's too.

Rows come back as SQLAlchemy would give them: the SQL, bind processors and result types come from
SQLAlchemy's compiler (``Prepared``), the result processors from the server's column types, and
JSON is decoded by the codecs SQLAlchemy registered on the connection. Errors are SQLAlchemy's
(``IntegrityError`` for a unique violation) with asyncpg's as their ``orig``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import Dialect
from sqlalchemy.exc import DBAPIError, DisconnectionError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from gateway.vault.prepared import Compiled, Prepared, Processor, convert
from gateway.vault.unit import Unit

_DRIVER_KEY = "gateway_pg_driver"
STATEMENTS_MAX = 256  # server-side statements kept per connection (the gateway has about sixty)


def alive_on_checkout(engine: AsyncEngine) -> None:
    """The pool's liveness check without a round trip: a pooled asyncpg connection whose server went
    away (a restart, ``pg_terminate_backend``) is marked closed as soon as the loop reads the close,
    and SQLAlchemy replaces a connection whose checkout raises ``DisconnectionError`` with a new one
    (its documented pessimistic check). ``pool_pre_ping`` costs three round trips a checkout."""

    @event.listens_for(engine.sync_engine, "checkout")
    def _checkout(dbapi_connection: Any, _record: Any, _proxy: Any) -> None:
        if dbapi_connection.driver_connection.is_closed():
            raise DisconnectionError("the PostgreSQL connection was closed")


@dataclass(eq=False)
class _Statement:
    prepared: Any  # asyncpg.PreparedStatement
    columns: tuple[Any, ...]  # the ``Compiled.columns`` its processors were made for
    results: tuple[Processor, ...]


@dataclass(eq=False)
class _Driver:
    """What the unit keeps per asyncpg connection, in the pool record's ``info`` (which SQLAlchemy
    clears when it replaces the connection, so a new connection starts with no statements)."""

    adapted: Any  # SQLAlchemy's AsyncAdapt_asyncpg_connection
    raw: Any  # asyncpg.Connection
    statements: dict[str, _Statement] = field(default_factory=dict)

    @property
    def mutex(self) -> asyncio.Lock:
        lock: asyncio.Lock = self.adapted._execute_mutex
        return lock


class _Transaction:
    """Stands in for the asyncpg ``Transaction`` SQLAlchemy's adapter would begin: its commit and
    rollback (a session's failed flush, the unit's rollback) end the unit's own transaction."""

    __slots__ = ("unit",)

    def __init__(self, unit: PostgresUnit) -> None:
        self.unit = unit

    async def commit(self) -> None:
        await self.unit._end("COMMIT")

    async def rollback(self) -> None:
        await self.unit._end("ROLLBACK")


def _driver(connection: AsyncConnection) -> _Driver:
    fairy = connection.sync_connection.connection  # type: ignore[union-attr]
    adapted: Any = fairy.dbapi_connection
    found: _Driver | None = fairy.info.get(_DRIVER_KEY)
    if found is None or found.adapted is not adapted:
        found = fairy.info[_DRIVER_KEY] = _Driver(adapted, adapted.driver_connection)
    return found


def _rowcount(status: str | None) -> int:
    # "INSERT 0 1", "UPDATE 3", "DELETE 0": the count is the last word (as SQLAlchemy's adapter reads it).
    count = (status or "").rpartition(" ")[2]
    return int(count) if count.isdigit() else -1


def _quote(value: str) -> str:
    """A string literal for the simple-query COMMIT (``standard_conforming_strings`` is on: checked)."""
    return "'" + value.replace("'", "''") + "'"


class PostgresUnit(Unit):
    """On PostgreSQL with asyncpg: ``Prepared`` statements, BEGIN and COMMIT on the driver itself."""

    def __init__(self, connection: AsyncConnection, *, read_only: bool = False) -> None:
        super().__init__(connection)
        # A read-only unit (``Vault.read``): the server refuses its writes, as SQLite's does.
        self._begin = "BEGIN READ ONLY" if read_only else "BEGIN"
        self.driver = _driver(connection)
        self._dialect: Dialect = connection.dialect
        self._open = False
        self._notices: list[tuple[str, str]] = []

    async def begin(self) -> None:
        adapted = self.driver.adapted
        if adapted._transaction is not None or adapted.isolation_level is not None:
            raise RuntimeError(
                "a PostgreSQL unit needs a pooled connection with no transaction or isolation set"
            )
        # SQLAlchemy's own transaction first (no I/O on asyncpg): the ORM session joins it.
        self.connection.sync_connection.begin()  # type: ignore[union-attr]
        async with self.driver.mutex:
            await self._run(self._begin, self.driver.raw.execute, self._begin)
            self._open = True
            adapted._transaction = _Transaction(self)

    async def execute(self, prepared: Prepared, params: Mapping[str, Any]) -> int:
        await self._autoflush()
        compiled = prepared.compile(self._dialect, frozenset(params))
        async with self.driver.mutex:
            statement = await self._statement(compiled)
            await self._run(compiled.sql, statement.prepared.fetch, *compiled.parameters(params))
            return _rowcount(statement.prepared.get_statusmsg())

    async def first(self, prepared: Prepared, params: Mapping[str, Any]) -> tuple[Any, ...] | None:
        await self._autoflush()
        compiled = prepared.compile(self._dialect, frozenset(params))
        async with self.driver.mutex:
            statement = await self._statement(compiled)
            # Every row, as SQLAlchemy's ``first`` reads them (a locking SELECT locks them all).
            rows = await self._run(compiled.sql, statement.prepared.fetch, *compiled.parameters(params))
        return convert(rows[0], statement.results) if rows else None

    async def all(self, prepared: Prepared, params: Mapping[str, Any]) -> list[tuple[Any, ...]]:
        await self._autoflush()
        compiled = prepared.compile(self._dialect, frozenset(params))
        async with self.driver.mutex:
            statement = await self._statement(compiled)
            rows = await self._run(compiled.sql, statement.prepared.fetch, *compiled.parameters(params))
        return [convert(row, statement.results) for row in rows]

    def notify_on_commit(self, channel: str, payloads: list[str]) -> None:
        """``NOTIFY`` these with the COMMIT, in the same round trip (``gateway.vault.notify``)."""
        self._notices.extend((channel, payload) for payload in payloads)

    async def commit(self) -> None:
        if self._session is not None:
            await self._session.flush()
        self._require_open()
        script = "COMMIT"
        if self._notices:
            if self.driver.raw.get_settings().standard_conforming_strings != "on":
                raise RuntimeError("the vault needs standard_conforming_strings = on")
            script = "".join(f"NOTIFY {channel}, {_quote(p)};" for channel, p in self._notices) + script
        await self._end(script)
        self.connection.sync_connection.commit()  # type: ignore[union-attr]  # SQLAlchemy's side; no I/O

    async def close(self, *, failed: bool) -> None:
        try:
            if self._open:
                await self._end("ROLLBACK")
        finally:
            try:
                if self._session is not None:
                    await self._session.close()
            finally:
                if self.connection.in_transaction():
                    self.connection.sync_connection.rollback()  # type: ignore[union-attr]  # no I/O now

    async def _end(self, script: str) -> None:
        """COMMIT or ROLLBACK (with what goes before it): the unit's transaction is over either way,
        and the adapter begins its own again on its next statement outside a unit."""
        if not self._open:
            return
        self._open = False
        self.driver.adapted._transaction = None
        raw = self.driver.raw
        async with self.driver.mutex:
            try:
                await self._run(script, raw.execute, script)
            except Exception:
                # A NOTIFY before the COMMIT failed: the transaction is still there, aborted.
                if not raw.is_closed() and raw.is_in_transaction():
                    await raw.execute("ROLLBACK")
                raise

    def _in_transaction(self) -> bool:
        return self._open and self.connection.in_transaction()

    async def _statement(self, compiled: Compiled) -> _Statement:
        statements = self.driver.statements
        found = statements.get(compiled.sql)
        if found is None:
            prepared = await self._run(compiled.sql, self.driver.raw.prepare, compiled.sql)
            if len(statements) >= STATEMENTS_MAX:
                statements.clear()
            found = statements[compiled.sql] = self._described(compiled, prepared)
        elif found.columns is not compiled.columns:  # the same SQL declared with other result types
            found = self._described(compiled, found.prepared)
        return found

    def _described(self, compiled: Compiled, prepared: Any) -> _Statement:
        types = [attribute.type.oid for attribute in prepared.get_attributes()]
        return _Statement(prepared, compiled.columns, compiled.processors(self._dialect, types))

    async def _run(self, sql: str, call: Any, *args: Any) -> Any:
        """``await call(*args)``, with asyncpg's errors raised as SQLAlchemy raises them."""
        try:
            return await call(*args)
        except Exception as error:
            import asyncpg  # type: ignore[import-untyped]  # loaded by now (the engine's driver); not by SQLite

            if isinstance(error, (asyncpg.InvalidCachedStatementError, asyncpg.OutdatedSchemaCacheError)):
                # The schema changed under a kept statement (DDL on another connection): this unit
                # fails as it would through SQLAlchemy, and the next one prepares afresh.
                self.driver.statements.clear()
                await self.driver.raw.reload_schema_state()
            translated = self._translated(sql, args, error)
            if translated is error:
                raise
            raise translated from error

    def _translated(self, sql: str, args: tuple[Any, ...], error: Exception) -> Exception:
        if self.driver.raw.is_closed():
            self._open = False
            self.driver.adapted._transaction = None
        try:
            self.driver.adapted._handle_exception(error)  # raises asyncpg's error as a DBAPI one
        except Exception as dbapi_error:
            dbapi = self._dialect.loaded_dbapi
            if not isinstance(dbapi_error, dbapi.Error):
                return dbapi_error
            return DBAPIError.instance(
                sql,
                list(args),
                dbapi_error,
                dbapi.Error,
                connection_invalidated=self.driver.raw.is_closed(),
                dialect=self._dialect,
            )
        return error


async def notify_now(connection: AsyncConnection, channel: str, payloads: list[str]) -> None:
    """``NOTIFY`` these in one transaction of their own (one simple query), outside any unit."""
    driver = _driver(connection)
    raw = driver.raw
    if raw.get_settings().standard_conforming_strings != "on":
        raise RuntimeError("the vault needs standard_conforming_strings = on")
    script = "".join(f"NOTIFY {channel}, {_quote(p)};" for p in payloads)
    async with driver.mutex:
        await raw.execute(script)


def runs_inline(engine: AsyncEngine) -> bool:
    """Whether units on this engine can be ``PostgresUnit``s (asyncpg under SQLAlchemy)."""
    return engine.dialect.name == "postgresql" and engine.dialect.driver == "asyncpg"


class Connections:
    """The units' connections, kept checked out between units (as SQLite's units keep their one
    writer): a pool checkout and checkin through SQLAlchemy's async engine cost about a tenth of a
    roll's CPU. Up to ``keep`` idle ones are kept, the last used first; a connection the server
    closed meanwhile is dropped when it is next taken."""

    def __init__(self, engine: AsyncEngine, keep: int) -> None:
        self.engine = engine
        self.keep = keep
        self._idle: list[AsyncConnection] = []

    async def take(self) -> AsyncConnection:
        while self._idle:
            connection = self._idle.pop()
            if not _driver(connection).raw.is_closed():
                return connection
            await _drop(connection)
        return await self.engine.connect()

    async def give_back(self, connection: AsyncConnection) -> None:
        driver = _driver(connection)
        if (
            driver.raw.is_closed()
            or driver.raw.is_in_transaction()
            or driver.adapted._transaction is not None
        ):
            # A unit cut short (cancelled mid-statement, a failed ROLLBACK): never handed out again.
            await _drop(connection)
        elif connection.in_transaction() or len(self._idle) >= self.keep:
            await connection.close()
        else:
            self._idle.append(connection)

    async def close(self) -> None:
        idle, self._idle = self._idle, []
        for connection in idle:
            await connection.close()


async def _drop(connection: AsyncConnection) -> None:
    try:
        await connection.invalidate()
    finally:
        await connection.close()
