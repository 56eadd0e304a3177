"""The vault's engine and its unit of work.

On SQLite every transaction starts with ``BEGIN IMMEDIATE``: a transaction that will write takes the
write lock up front, so concurrent commands queue (in this process on the vault's own lock, behind
another connection for up to ``[vault] busy_timeout_ms``, with the event loop free) instead of failing
when a read lock cannot be upgraded. WAL lets readers go on meanwhile; ``synchronous=FULL`` (or the
group commit below) makes each commit durable, because a logged roll must survive a power cut.

With ``[vault] group_commit``, a unit that ends leaves its SQLite transaction open: the units that
end in the same turn of the event loop, or while the WAL is being fsynced, join it (each as a
savepoint, see ``SQLiteUnit``), and then one COMMIT and one fsync serve them all. No unit returns
before its work is durable.

A unit's events (``gateway.core.events``) run their in-unit handlers just before its commit; once the
commit is durable the vault wakes the outbox workers of the platforms it queued for and fires the
after-commit listeners, and on PostgreSQL the same news reaches the other processes on the vault
(``gateway.vault.notify``: on asyncpg right after the commit, batched, see ``notify.AfterCommit``).

``Vault.read`` opens a unit that only reads: on SQLite on a ``query_only`` connection of its own
with a deferred ``BEGIN`` (no write lock, no wait behind the units of work), on PostgreSQL
``BEGIN READ ONLY``.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import queue
import sqlite3
import threading
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from contextvars import Context, ContextVar
from typing import Any

import orjson
import structlog
from sqlalchemy import event
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine
from sqlmodel.ext.asyncio.session import AsyncSession

from gateway.core.events import Events
from gateway.vault import notify, pg_inline, sqlite_inline
from gateway.vault.unit import SQLiteReadUnit, SQLiteUnit, Unit, writer_rollback


def _json_dumps(value: Any) -> str:
    # orjson: every roll writes two JSON documents, and the stdlib encoder was a tenth of a roll's CPU.
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


_JSON = {"json_serializer": _json_dumps, "json_deserializer": orjson.loads}
# Idle PostgreSQL connections the units keep between them (the engine's pool_size).
PG_KEEP = 10
# Idle SQLite reader connections kept for read-only units (``Vault.read``).
READERS_KEEP = 2


def create_engine(url: str, *, busy_timeout_ms: int = 5000, group_commit: bool = False) -> AsyncEngine:
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        database = parsed.database or ":memory:"
        if database == ":memory:":
            raise ValueError("the vault needs a file: an in-memory SQLite vault would vanish per connection")
        engine = create_async_engine(
            url, async_creator=sqlite_inline.creator(database, busy_timeout_ms / 1000), **_JSON
        )
        _sqlite_unit_of_work(engine, busy_timeout_ms, "NORMAL" if group_commit else "FULL")
        return engine
    # On asyncpg the checkout's liveness check costs no round trip (``pg_inline.alive_on_checkout``).
    asyncpg = parsed.get_driver_name() == "asyncpg"
    engine = create_async_engine(url, pool_pre_ping=not asyncpg, pool_size=PG_KEEP, max_overflow=20, **_JSON)
    if asyncpg:
        pg_inline.alive_on_checkout(engine)
    return engine


def _sqlite_unit_of_work(engine: AsyncEngine, busy_timeout_ms: int, synchronous: str) -> None:
    @event.listens_for(engine.sync_engine, "connect")
    def _on_connect(dbapi_conn: Any, _record: Any) -> None:
        # Let SQLAlchemy, not the driver, issue BEGIN (see the "begin" listener).
        dbapi_conn.isolation_level = None
        cur = dbapi_conn.cursor()
        cur.execute("PRAGMA journal_mode=WAL")
        cur.execute(f"PRAGMA busy_timeout={int(busy_timeout_ms)}")
        cur.execute(f"PRAGMA synchronous={synchronous}")
        if synchronous == "NORMAL":
            # Group commit checkpoints from its fsync thread (``_GroupCommit``): a checkpoint inside a
            # COMMIT on the loop would stall every request for its fsyncs.
            cur.execute("PRAGMA wal_autocheckpoint=0")
        cur.execute("PRAGMA foreign_keys=ON")
        cur.close()

    @event.listens_for(engine.sync_engine, "begin")
    def _on_begin(conn: Any) -> None:
        # A unit of work's session joins the transaction the unit already began on this connection.
        if not conn.connection.driver_connection.in_transaction:
            conn.exec_driver_sql("BEGIN IMMEDIATE")


log = structlog.get_logger(__name__)

_IN_UNIT: ContextVar[bool] = ContextVar("gateway_vault_unit", default=False)

# Seconds between WAL checkpoints under group commit (SQLite's own default is every 1000 pages).
CHECKPOINT_EVERY = 1.0
# Most units one SQLite transaction carries while an fsync runs; the next one commits it regardless.
CHAIN_MAX = 32


# What SQLite itself calls to sync the WAL: the appended frames and the size, not the timestamps.
_datasync = getattr(os, "fdatasync", os.fsync)


def _fsync_file(path: str) -> None:
    try:
        fd = os.open(path, os.O_RDONLY)
    except FileNotFoundError:
        return  # no WAL: everything is checkpointed into the database file, which SQLite synced
    try:
        _datasync(fd)
    finally:
        os.close(fd)


def _settle(future: asyncio.Future[None], error: BaseException | None) -> None:
    if future.cancelled():
        return
    if error is None:
        future.set_result(None)
    else:
        future.set_exception(error)


class _SyncThread:
    """fdatasync of one file in a thread of its own. Not ``asyncio.to_thread``: under load the
    group commit syncs hundreds of times a second, and the executor's futures, locks and context
    copy cost the event loop 8% of its CPU per request (``tests.bench.secondlife``, by turns:
    0.364 against 0.335 ms, median of 3). The thread ends after a minute without work and starts
    again on the next request."""

    IDLE = 60.0

    def __init__(self, path: str) -> None:
        self.path = path
        self._requests: queue.SimpleQueue[asyncio.Future[None] | None] = queue.SimpleQueue()
        self._lock = threading.Lock()  # guards starting and ending the thread
        self._thread: threading.Thread | None = None

    def sync(self) -> asyncio.Future[None]:
        """A future that resolves once an fsync begun after this call has finished."""
        future = asyncio.get_running_loop().create_future()
        with self._lock:
            self._requests.put(future)
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="vault-fsync", daemon=True)
                self._thread.start()
        return future

    def _run(self) -> None:
        while True:
            try:
                future = self._requests.get(timeout=self.IDLE)
            except queue.Empty:
                with self._lock:
                    if self._requests.empty():
                        self._thread = None
                        return
                continue
            if future is None:
                return
            error: BaseException | None = None
            try:
                _fsync_file(self.path)
            except BaseException as exc:  # handed to the waiting unit, which fails with it
                error = exc
            with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits any more
                future.get_loop().call_soon_threadsafe(_settle, future, error)

    def close(self) -> None:
        with self._lock:
            if self._thread is not None:
                self._requests.put(None)
                self._thread = None


class _GroupCommit:
    """Durability for units that commit with ``synchronous=NORMAL``: a unit's commit writes its WAL
    frames without an fsync (microseconds, on the loop), then the unit waits here until an fsync of
    the WAL file that started after its commit has finished. One fsync, run in a thread, serves every
    unit committed before it began, so concurrent units share the disk's slowest step and the event
    loop never waits on it. A unit returns only once its commit is on disk, as with FULL."""

    def __init__(self, database: str, flush: Callable[[], None]) -> None:
        self.database = database
        self.wal = database + "-wal"
        self.committed = 0
        self.synced = 0
        self._running: asyncio.Future[None] | None = None
        self._flush = flush  # commits the units waiting in the open transaction, if any
        self._flush_soon = False
        self._checkpoint: asyncio.Future[None] | None = None
        self._checkpointed_at = 0.0
        self._syncer = _SyncThread(self.wal)

    @property
    def syncing(self) -> bool:
        return self._running is not None

    def flush_soon(self) -> None:
        """A unit left its work in the open transaction: commit it once the units that are ready to
        run in this turn of the event loop have ended too, or, while an fsync runs, when it ends."""
        if self._running is None and not self._flush_soon:
            self._flush_soon = True
            asyncio.get_running_loop().call_soon(self._flush_now)

    def _flush_now(self) -> None:
        self._flush_soon = False
        if self._running is None:
            self._flush()

    def commit_number(self) -> int:
        self.committed += 1
        return self.committed

    def start_sync(self) -> None:
        """Start an fsync covering every commit so far, unless one is running (``durable`` starts
        the next one after it for the commits it does not cover)."""
        if self._running is None:
            self._running = asyncio.ensure_future(self._sync(self.committed))

    async def durable(self, number: int) -> None:
        while self.synced < number:
            self.start_sync()
            assert self._running is not None
            await asyncio.shield(self._running)

    async def _sync(self, upto: int) -> None:
        try:
            await self._syncer.sync()
            self.synced = max(self.synced, upto)
        finally:
            self._running = None
            self._flush()
        self._start_checkpoint()

    def _start_checkpoint(self) -> None:
        """Copy the WAL back into the database now and then, in a thread of its own (the writer
        connection has ``wal_autocheckpoint=0``), so the WAL does not grow without end."""
        now = time.monotonic()
        if self._checkpoint is None and now - self._checkpointed_at >= CHECKPOINT_EVERY:
            self._checkpointed_at = now
            self._checkpoint = asyncio.ensure_future(asyncio.to_thread(_checkpoint, self.database))
            self._checkpoint.add_done_callback(self._checkpoint_done)

    def _checkpoint_done(self, task: asyncio.Future[None]) -> None:
        self._checkpoint = None
        if not task.cancelled() and task.exception() is not None:
            log.warning("vault checkpoint failed", error=repr(task.exception()))

    async def close(self) -> None:
        self._syncer.close()
        if self._checkpoint is not None:
            with contextlib.suppress(Exception):
                await self._checkpoint


def _checkpoint(database: str) -> None:
    # PASSIVE: copies what no reader still needs and never waits for, or blocks, the writer.
    with contextlib.closing(sqlite3.connect(database)) as connection:
        connection.execute("PRAGMA wal_checkpoint(PASSIVE)")


class _Chain:
    """Consecutive SQLite units of work sharing one transaction. ``done`` resolves once that
    transaction is committed and durable (or fails with the reason it is not)."""

    __slots__ = ("done", "kept", "units")

    def __init__(self) -> None:
        self.done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        # Retrieve the exception even when no unit is left to await it (all of them failed).
        self.done.add_done_callback(lambda f: f.cancelled() or f.exception())
        self.units = 0
        self.kept = 0  # units that ended without failing: the work the COMMIT makes durable


class ChainLost(Exception):
    """SQLite ended the shared transaction on an error: this unit's work was lost with it."""


class Vault:
    """The engine plus a way to open one unit of work."""

    def __init__(
        self,
        url: str,
        *,
        busy_timeout_ms: int = 5000,
        group_commit: bool = False,
        events: Events | None = None,
    ) -> None:
        self.url = url
        self.busy_timeout = busy_timeout_ms / 1000
        self.engine = create_engine(url, busy_timeout_ms=busy_timeout_ms, group_commit=group_commit)
        self.events = events if events is not None else Events()
        # On SQLite one process is the whole world; on PostgreSQL others may share the vault.
        self.notifies = self.dialect == "postgresql"
        self._group: _GroupCommit | None = None
        if group_commit and self.dialect == "sqlite":
            self._group = _GroupCommit(str(make_url(url).database), self._flush)
        # SQLite has one writer at a time; queueing units of work here (not in SQLite's busy handler)
        # keeps the event loop free while they wait, and lets every unit share one connection.
        self._write_lock: asyncio.Lock | None = asyncio.Lock() if self.dialect == "sqlite" else None
        self._writer: tuple[AsyncConnection, sqlite_inline.Connection] | None = None
        self._readers: list[tuple[AsyncConnection, sqlite_inline.Connection]] = []
        self._chain: _Chain | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        # On asyncpg, units keep their connections between them (``pg_inline.Connections``).
        self._pg = pg_inline.Connections(self.engine, PG_KEEP) if pg_inline.runs_inline(self.engine) else None
        # On asyncpg, other processes hear of a unit right after its commit (``notify.AfterCommit``).
        self._notices = notify.AfterCommit(self._send_notices) if self._pg is not None else None

    @property
    def dialect(self) -> str:
        return self.engine.dialect.name

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[AsyncSession]:
        """One unit of work as an ORM session: commits on success, rolls back on any exception."""
        async with self.unit() as unit:
            yield unit.session

    def unit(self) -> _UnitScope:
        """``async with vault.unit() as unit``: one unit of work, committed when the block ends,
        rolled back on any exception."""
        return _UnitScope(self)

    def read(self) -> _UnitScope:
        """``async with vault.read() as unit``: a unit that only reads. On SQLite it takes no write
        lock (its own connection, a deferred ``BEGIN``: it neither waits for the units of work nor
        holds them up); on PostgreSQL it is ``BEGIN READ ONLY``. A write in it fails on both."""
        return _UnitScope(self, read_only=True)

    async def _sqlite_reader(self) -> tuple[AsyncConnection, sqlite_inline.Connection]:
        if self._readers:
            return self._readers.pop()
        connection = await self.engine.connect()
        driver = (await connection.get_raw_connection()).driver_connection
        assert isinstance(driver, sqlite_inline.Connection)
        driver.sqlite.execute("PRAGMA query_only=1")
        return connection, driver

    async def _sqlite_reader_back(self, reader: tuple[AsyncConnection, sqlite_inline.Connection]) -> None:
        if reader[1].sqlite.in_transaction or len(self._readers) >= READERS_KEEP:
            await reader[0].close()
        else:
            self._readers.append(reader)

    async def _sqlite_writer(self) -> tuple[AsyncConnection, sqlite_inline.Connection]:
        """The one connection every SQLite unit of work in this process uses, opened on first need."""
        if self._writer is None:
            connection = await self.engine.connect()
            driver = (await connection.get_raw_connection()).driver_connection
            assert isinstance(driver, sqlite_inline.Connection)
            driver.rollback_hook = writer_rollback
            # No busy handler on the writer: it would sleep on the event loop, and the lock's holder
            # may be a connection that needs this loop to finish (see ``SQLiteUnit.begin``).
            driver.sqlite.execute("PRAGMA busy_timeout=0")
            self._writer = (connection, driver)
        return self._writer

    async def _send_notices(self, payloads: list[str]) -> None:
        assert self._pg is not None
        connection = await self._pg.take()
        try:
            await pg_inline.notify_now(connection, notify.CHANNEL, payloads)
        finally:
            await self._pg.give_back(connection)

    async def dispose(self) -> None:
        if self._notices is not None:
            await self._notices.close()
        if self._group is not None:
            await self._group.close()
        if self._pg is not None:
            await self._pg.close()
        if self._writer is not None:
            connection, self._writer = self._writer[0], None
            await connection.close()
        readers, self._readers = self._readers, []
        for connection, _driver in readers:
            await connection.close()
        await self.engine.dispose()

    async def _enter_sqlite(self) -> tuple[_Chain, SQLiteUnit]:
        """Take the write lock, then join the open transaction or start one."""
        assert self._write_lock is not None
        await self._write_lock.acquire()
        chain = self._chain
        if chain is None:
            chain = self._chain = _Chain()
        chain.units += 1
        try:
            unit = SQLiteUnit(*await self._sqlite_writer(), patience=self.busy_timeout)
            await unit.begin()
        except BaseException:
            await self._leave_sqlite(chain, kept=False)
            raise
        return chain, unit

    async def _leave_sqlite(self, chain: _Chain, *, kept: bool) -> None:
        """The unit's work is kept (``kept``) or was rolled back. With group commit the
        transaction stays open for the units that end in this turn of the event loop, or while an
        fsync runs, and then commits them all (``_GroupCommit.flush_soon``); otherwise it commits
        now. Either way, return once ``kept`` work is durable."""
        assert self._write_lock is not None and self._writer is not None
        chain.kept += kept
        try:
            if not self._writer[1].sqlite.in_transaction:
                # The transaction is gone: this unit began it and failed, or SQLite ended it on an
                # error (a full disk); the work of any unit before this one went with it.
                self._chain = None
                if chain.kept:
                    chain.done.set_exception(
                        ChainLost("the vault lost a transaction; its units were not saved")
                    )
                else:
                    chain.done.set_result(None)
            elif self._group is None or chain.units >= CHAIN_MAX:
                self._commit(chain)
            else:
                self._group.flush_soon()
        finally:
            self._write_lock.release()
        if kept:
            await asyncio.shield(chain.done)

    def _commit(self, chain: _Chain) -> None:
        """COMMIT the open transaction (with the write lock free or held by the caller)."""
        assert self._writer is not None
        raw = self._writer[1].sqlite
        self._chain = None
        try:
            raw.execute("COMMIT" if chain.kept else "ROLLBACK")
        except BaseException as exc:
            if raw.in_transaction:
                raw.execute("ROLLBACK")
            chain.done.set_exception(exc)
            return
        if self._group is None or not chain.kept:
            chain.done.set_result(None)
            return
        number = self._group.commit_number()
        # Even a lone unit's fsync runs in the thread: on the loop it held every other request for
        # the disk's time (4-20 ms each, hundreds under a busy disk; tests/bench/secondlife --trace).
        self._group.start_sync()  # now, so units ending meanwhile wait for its end, not commit alone
        # Its own task: a unit cancelled while it waits must not leave the others waiting.
        task = asyncio.get_running_loop().create_task(self._durable(chain, number), context=Context())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _flush(self) -> None:
        """Commit the units waiting in the open transaction, unless one is still running (its end
        asks for another flush)."""
        if self._chain is not None and self._write_lock is not None and not self._write_lock.locked():
            self._commit(self._chain)

    async def _durable(self, chain: _Chain, number: int) -> None:
        assert self._group is not None
        try:
            await self._group.durable(number)
        except asyncio.CancelledError:
            chain.done.cancel()
            raise
        except BaseException as exc:
            chain.done.set_exception(exc)
        else:
            chain.done.set_result(None)


class _UnitScope:
    """The context manager behind ``Vault.unit`` (a class, not a generator: it runs for every
    message, and this way costs a few microseconds less)."""

    __slots__ = ("_chain", "_connection", "_read_only", "_reader", "_token", "_unit", "_vault")

    def __init__(self, vault: Vault, *, read_only: bool = False) -> None:
        self._vault = vault
        self._read_only = read_only
        self._chain: _Chain | None = None
        self._connection: AsyncConnection | None = None
        self._reader: tuple[AsyncConnection, sqlite_inline.Connection] | None = None

    async def __aenter__(self) -> Unit:
        if _IN_UNIT.get():
            raise RuntimeError("vault transactions do not nest: use the unit or session you already have")
        self._token = _IN_UNIT.set(True)
        vault = self._vault
        unit: Unit  # a SQLiteUnit on SQLite, a PostgresUnit on asyncpg, a plain Unit elsewhere
        try:
            if vault._write_lock is not None and self._read_only:
                self._reader = await vault._sqlite_reader()
                unit = SQLiteReadUnit(*self._reader, patience=vault.busy_timeout)
            elif vault._write_lock is not None:
                self._chain, unit = await vault._enter_sqlite()
                self._unit: Unit = unit
                return unit
            elif vault._pg is not None:
                self._connection = connection = await vault._pg.take()
                unit = pg_inline.PostgresUnit(connection, read_only=self._read_only)
            else:
                self._connection = connection = await vault.engine.connect()
                unit = Unit(connection)
            await unit.begin()
        except BaseException:
            await self._release()
            raise
        self._unit = unit
        return unit

    async def __aexit__(self, exc_type: type[BaseException] | None, *_: object) -> None:
        failed = exc_type is not None
        unit = self._unit
        try:
            if not failed:
                try:
                    if unit.events:
                        await self._vault.events.before_commit(unit)
                    # On asyncpg the notices go after the commit (``notify.AfterCommit``); else in it.
                    notices = self._vault.notifies and (unit.events or unit.queued)
                    if notices and self._vault._notices is None:
                        await notify.notify(unit, self._vault.events.process)
                    await unit.commit()
                except BaseException:
                    failed = True
                    raise
        finally:
            try:
                await self._unit.close(failed=failed)
            finally:
                if self._chain is not None:
                    chain, self._chain = self._chain, None
                    try:
                        await self._vault._leave_sqlite(chain, kept=not failed)
                    finally:
                        await self._release()
                else:
                    await self._release()
        # Here with ``failed`` False only when the unit is committed (and durable); a failed
        # commit raised above.
        if not failed and (unit.events or unit.queued):
            if self._vault.notifies and self._vault._notices is not None:
                process = self._vault.events.process
                self._vault._notices.add(notify.payloads(process, unit.events, unit.queued))
            self._vault.events.committed(unit.events, unit.queued)

    async def _release(self) -> None:
        try:
            if self._reader is not None:
                reader, self._reader = self._reader, None
                await self._vault._sqlite_reader_back(reader)
            if self._connection is not None:
                connection, self._connection = self._connection, None
                if self._vault._pg is not None:
                    await self._vault._pg.give_back(connection)
                else:
                    await connection.close()
        finally:
            _IN_UNIT.reset(self._token)
