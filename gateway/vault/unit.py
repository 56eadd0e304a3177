"""One unit of work: a transaction, prepared statements, and an ORM session only when one is needed.

A roll touches four statements and no ORM object it has to track, so the router's hot path runs
``Prepared`` statements on the unit directly. Anything richer (characters, pools, scenes) uses
``unit.session``, an ``AsyncSession`` created on first use and joined to the same transaction, so
both kinds of write commit or roll back together.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Mapping
from typing import Any

from sqlalchemy import inspect
from sqlalchemy.exc import IntegrityError, InvalidRequestError
from sqlalchemy.ext.asyncio import AsyncConnection
from sqlmodel.ext.asyncio.session import AsyncSession

from gateway.vault import sqlite_inline
from gateway.vault.prepared import Prepared

_UNIT_KEY = "gateway_unit"
# The write lock is asked for again after these pauses (seconds), doubling from the first to the last.
BUSY_FIRST_PAUSE = 0.001
BUSY_LAST_PAUSE = 0.05
_BUSY = {sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED}


class Unit:
    """The portable unit: statements go through SQLAlchemy on the unit's connection."""

    def __init__(self, connection: AsyncConnection) -> None:
        self.connection = connection
        self._session: AsyncSession | None = None
        self._attach: list[Any] = []
        # Platforms this unit queued outbox rows for (``repo.enqueue``) or made rows due on
        # (``outbox.expedite``): the vault wakes their workers once the unit is committed.
        self.queued: set[str] = set()
        # What the unit did (``gateway.core.events``), fired by the vault after the commit, in this order.
        self.events: list[Any] = []

    def record(self, event: Any) -> None:
        """Tell the event's subscribers, once this unit is committed (never if it rolls back)."""
        self.events.append(event)

    @property
    def session(self) -> AsyncSession:
        if self._session is None:
            self._session = AsyncSession(bind=self.connection, expire_on_commit=False)
            self._session.info[_UNIT_KEY] = self
            self._session.add_all(self._attach)
        return self._session

    def attach(self, *objects: Any) -> None:
        """Objects read by ``Prepared`` statements (see ``prepared.detached``) that the session, once
        there is one, should treat as loaded by itself."""
        self._attach.extend(objects)
        if self._session is not None:
            self._session.add_all(objects)

    def loaded(self, model: type[Any], primary_key: tuple[Any, ...]) -> Any | None:
        """The object the session holds for that row, if it has one (no query)."""
        if self._session is None:
            return None
        key = inspect(model).identity_key_from_primary_key(primary_key)
        return self._session.sync_session.identity_map.get(key)

    @property
    def dialect(self) -> str:
        return self.connection.dialect.name

    async def execute(self, prepared: Prepared, params: Mapping[str, Any]) -> int:
        """Run an insert, update or delete; the number of rows it touched."""
        await self._autoflush()
        return (await self.connection.execute(prepared.statement, dict(params))).rowcount

    async def first(self, prepared: Prepared, params: Mapping[str, Any]) -> tuple[Any, ...] | None:
        await self._autoflush()
        row = (await self.connection.execute(prepared.statement, dict(params))).first()
        return None if row is None else tuple(row)

    async def all(self, prepared: Prepared, params: Mapping[str, Any]) -> list[tuple[Any, ...]]:
        await self._autoflush()
        return [tuple(row) for row in await self.connection.execute(prepared.statement, dict(params))]

    async def _autoflush(self) -> None:
        """What the session does before its own statements: pending ORM changes go first, so a
        prepared statement sees them and foreign keys find their rows."""
        self._require_open()
        session = self._session
        if session is not None and (session.new or session.dirty or session.deleted):
            await session.flush()

    def _require_open(self) -> None:
        # A failed session flush rolls the whole transaction back, even when the handler catches the
        # error; writing on would commit half a unit, so everything after it is refused.
        if not self._in_transaction():
            raise InvalidRequestError("this unit of work was rolled back by a failed flush: start a new one")

    def _in_transaction(self) -> bool:
        return self.connection.in_transaction()

    # The vault drives these three; handlers never call them.
    async def begin(self) -> None:
        await self.connection.begin()

    async def commit(self) -> None:
        if self._session is not None:
            await self._session.flush()
        self._require_open()
        await self.connection.commit()

    async def close(self, *, failed: bool) -> None:
        try:
            if failed:
                await self.connection.rollback()
        finally:
            if self._session is not None:
                await self._session.close()


class SQLiteUnit(Unit):
    """On SQLite, prepared statements and transaction control go straight to the connection: the
    driver runs inline (``sqlite_inline``) and the vault's write lock makes this the only unit using it.

    With group commit the vault may share one transaction between consecutive units (see
    ``engine``): a unit that joins an open transaction is a ``SAVEPOINT`` in it, released into it on
    commit and rolled back to on failure, so it never touches the work of the units before it. A unit
    that begins the transaction needs none: failing, it rolls the whole of it back."""

    def __init__(
        self, connection: AsyncConnection, driver: sqlite_inline.Connection, patience: float
    ) -> None:
        super().__init__(connection)
        self.patience = patience
        self.driver = driver
        self.raw = driver.sqlite
        self._open = False
        self._joined = False  # a savepoint in a transaction units before it began

    async def execute(self, prepared: Prepared, params: Mapping[str, Any]) -> int:
        await self._autoflush()
        compiled = prepared.compile(self.connection.dialect, frozenset(params))
        try:
            return self.raw.execute(compiled.sql, compiled.parameters(params)).rowcount
        except sqlite3.IntegrityError as exc:
            # The same exception a statement through SQLAlchemy raises, so callers catch one type.
            raise IntegrityError(compiled.sql, None, exc) from exc

    async def first(self, prepared: Prepared, params: Mapping[str, Any]) -> tuple[Any, ...] | None:
        await self._autoflush()
        compiled = prepared.compile(self.connection.dialect, frozenset(params))
        row = self.raw.execute(compiled.sql, compiled.parameters(params)).fetchone()
        return None if row is None else compiled.row(row)

    async def all(self, prepared: Prepared, params: Mapping[str, Any]) -> list[tuple[Any, ...]]:
        await self._autoflush()
        compiled = prepared.compile(self.connection.dialect, frozenset(params))
        return [compiled.row(row) for row in self.raw.execute(compiled.sql, compiled.parameters(params))]

    async def begin(self) -> None:
        """Join the open transaction, or begin one taking the write lock up front (see ``engine``),
        waiting at most ``patience`` seconds for another connection to let it go."""
        self._joined = self.raw.in_transaction
        if self._joined:
            self.raw.execute("SAVEPOINT unit")
        else:
            await begin_immediate(self.raw, self.patience)
        self._open = True
        self.driver.rollback_hook = self._undo

    def _undo(self) -> None:
        if self._open:
            self._open = False
            if not self.raw.in_transaction:
                return
            if self._joined:
                self.raw.execute("ROLLBACK TO unit")
                self.raw.execute("RELEASE unit")
            else:
                self.raw.execute("ROLLBACK")

    async def commit(self) -> None:
        if self._session is not None:
            await self._session.flush()
        self._require_open()
        if self._joined:
            self.raw.execute("RELEASE unit")
        self._open = False

    def _in_transaction(self) -> bool:
        # Not in a transaction any more when SQLite ended it on an error (a full disk, say).
        return self._open and self.raw.in_transaction

    async def close(self, *, failed: bool) -> None:
        try:
            if failed:
                self._undo()
        finally:
            try:
                if self._session is not None:
                    # The session's own transaction (joined to ours, see ``engine``) ends here; its
                    # rollback reaches ``_undo`` after the unit has ended, where it does nothing.
                    await self._session.close()
            finally:
                self.driver.rollback_hook = writer_rollback


class SQLiteReadUnit(SQLiteUnit):
    """A read-only unit on a connection of its own (``Vault.read``), never the writer: a deferred
    ``BEGIN`` reads a snapshot of the WAL and takes no lock a writer waits for, so a read neither
    queues behind the units of work nor holds them up. The connection is ``query_only``: a write
    in a read unit fails instead of quietly taking the write lock."""

    async def begin(self) -> None:
        self.raw.execute("BEGIN")
        # SQLAlchemy's view of it (the engine's begin listener sees the transaction open).
        await self.connection.begin()
        self._open = True

    async def commit(self) -> None:
        if self._session is not None:
            await self._session.flush()  # nothing to flush, or ``query_only`` refuses it
        self._require_open()
        await self.connection.commit()
        self._open = False

    async def close(self, *, failed: bool) -> None:
        self._open = False
        try:
            if self._session is not None:
                await self._session.close()
        finally:
            if self.connection.in_transaction():
                await self.connection.rollback()


async def begin_immediate(raw: sqlite3.Connection, patience: float) -> None:
    """``BEGIN IMMEDIATE`` on a connection without a busy handler, waiting for the write lock with the
    event loop free. SQLite's own busy handler sleeps inside the call, on the loop: when the lock's
    holder is in this process too (mautrix's crypto store, whose transactions span awaits, or a
    second gateway in one test), it cannot finish until the wait gives up, so every task stalled for
    the whole busy timeout and the unit then failed with "database is locked"."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + patience
    pause = BUSY_FIRST_PAUSE
    while True:
        try:
            raw.execute("BEGIN IMMEDIATE")
            return
        except sqlite3.OperationalError as exc:
            left = deadline - loop.time()
            if exc.sqlite_errorcode not in _BUSY or left <= 0:
                raise
        await asyncio.sleep(min(pause, left))
        pause = min(pause * 2, BUSY_LAST_PAUSE)


def writer_rollback() -> None:
    """The writer's rollback outside a unit: its transaction is the vault's to end (see ``engine``)."""


def unit_of(db: Unit | AsyncSession) -> Unit:
    """The unit a vault session belongs to (sessions from ``Vault.transaction`` all have one); a unit
    is its own. For helpers that take either."""
    return db if isinstance(db, Unit) else db.info[_UNIT_KEY]
