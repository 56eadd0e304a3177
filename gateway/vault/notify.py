"""Events and outbox wake-ups across gateway processes sharing one PostgreSQL vault.

The sending side is ``AfterCommit`` on asyncpg: the committed units' notices, batched, in a
transaction of their own right after the commit (never for rolled-back work, in this process's
commit order); a ``NOTIFY`` in the unit's own transaction would serialise every commit on the server
(see ``AfterCommit``). On another driver ``pg_notify`` runs inside the unit's transaction. The
receiving side is ``Listener``: a dedicated asyncpg connection that ``LISTEN``s, skips its own
process's notices, and hands the others to the hub (after-commit listeners, outbox wake).
A notice is a wake-up, not a message store: one sent while a listener was down is gone, so after a
reconnect every outbox worker looks again. On SQLite one process is the whole world: no carrier.

PgBouncer in transaction mode cannot ``LISTEN``: point the vault URL at PostgreSQL or a session pool.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable, Iterable, Sequence
from contextvars import Context
from typing import Any

import orjson
import structlog
from sqlalchemy import text
from sqlalchemy.engine import make_url

from gateway.core.events import Events, decode, encode
from gateway.vault.unit import Unit

log = structlog.get_logger(__name__)

CHANNEL = "gateway_events"
PAYLOAD_MAX = 7900  # bytes; PostgreSQL refuses a payload of 8000 or more
PING_EVERY = 10.0  # seconds: a silently dead link is noticed only by a query
RECONNECT_MAX = 30.0

_NOTIFY = text("SELECT pg_notify(:channel, :payload)")


def payloads(process: str, events: Sequence[Any], queued: Iterable[str]) -> list[str]:
    """The unit's notices: ``{"p": process, "q": platforms, "e": [events]}``, each under the limit
    (the platforms ride on the first)."""
    out: list[str] = []
    message: dict[str, Any] = {"p": process, "q": sorted(queued), "e": []}
    for event in events:
        item = encode(event)
        message["e"].append(item)
        if len(orjson.dumps(message)) <= PAYLOAD_MAX:
            continue
        message["e"].pop()
        if message["e"] or message["q"]:
            out.append(orjson.dumps(message).decode())
        message = {"p": process, "q": [], "e": [item]}
        if len(orjson.dumps(message)) > PAYLOAD_MAX:
            log.warning("event too large to send to other processes", event=item[0])
            message["e"] = []
    if message["e"] or message["q"]:
        out.append(orjson.dumps(message).decode())
    return out


async def notify(unit: Unit, process: str) -> None:
    """In the unit, just before its commit: tell the other processes what it did and queued."""
    for payload in payloads(process, unit.events, unit.queued):
        await unit.connection.execute(_NOTIFY, {"channel": CHANNEL, "payload": payload})


class AfterCommit:
    """Notices of committed units, sent after their commits, in one transaction per batch.

    Not in the unit's own transaction: PostgreSQL serialises every committing transaction that ran
    ``NOTIFY`` (a database-wide lock held until its commit is flushed to disk), so with ``fsync`` on
    concurrent rolls lost the server's group commit: 8 in flight committed 285-398 transactions a
    second with a ``NOTIFY`` each against 919-941 without. Sent after the commit, a notice still
    never tells of rolled-back work and keeps this process's commit order; one lost to a crash
    between the commit and the send is as one lost while a listener reconnects (the outbox poll is
    the safety net). While a batch is on its way, the next one gathers."""

    def __init__(self, send: Callable[[list[str]], Awaitable[None]]) -> None:
        self._send = send
        self._pending: list[str] = []
        self._task: asyncio.Task[None] | None = None

    def add(self, payloads: list[str]) -> None:
        self._pending.extend(payloads)
        if self._task is None and self._pending:
            # A context of its own: not inside the unit that committed (units do not nest).
            self._task = asyncio.get_running_loop().create_task(self._run(), context=Context())

    async def _run(self) -> None:
        try:
            while self._pending:
                batch, self._pending = self._pending, []
                try:
                    await self._send(batch)
                except Exception as exc:
                    log.warning("event notices not sent", notices=len(batch), error=repr(exc))
        finally:
            self._task = None

    async def close(self) -> None:
        """Send what is gathered before the vault closes."""
        while self._task is not None:
            await asyncio.shield(self._task)


def asyncpg_dsn(url: str) -> str:
    """The vault's SQLAlchemy URL as a DSN asyncpg takes."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


class Listener:
    """``LISTEN`` on a connection of its own, reconnecting (and re-listening) when it drops."""

    def __init__(self, url: str, events: Events, *, ping_every: float = PING_EVERY) -> None:
        self.dsn = asyncpg_dsn(url)
        self.events = events
        self.ping_every = ping_every
        self.connected = asyncio.Event()
        self.backend_pid: int | None = None  # the listening session, for operators and tests
        self._task: asyncio.Task[None] | None = None
        self._delay = 0.5  # before the next connection attempt; doubles while attempts fail
        self._listened = False

    async def start(self, wait: float = 10.0) -> None:
        """Start listening; wait (up to ``wait`` seconds) for the first connection."""
        self._task = asyncio.create_task(self._run(), name="events:listen")
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.connected.wait(), wait)

    async def stop(self) -> None:
        if self._task is not None:
            task, self._task = self._task, None
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    def _received(self, _connection: Any, _pid: int, _channel: str, payload: str) -> None:
        try:
            message = orjson.loads(payload)
            if message.get("p") == self.events.process:
                return  # ours: fired here at the commit already
            found = (decode(item) for item in message.get("e", ()))
            self.events.committed([e for e in found if e is not None], message.get("q") or ())
        except Exception:
            log.exception("event notice unreadable", payload=payload[:200])

    async def _run(self) -> None:
        import asyncpg  # type: ignore[import-untyped]  # here: a SQLite process never imports it

        while True:
            try:
                connection = await asyncpg.connect(self.dsn, timeout=10)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("event listener cannot connect", error=repr(exc), retry_in=self._delay)
                await asyncio.sleep(self._delay)
                self._delay = min(RECONNECT_MAX, self._delay * 2)
                continue
            try:
                await self._listen(connection)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("event listener lost its connection", error=repr(exc))
            finally:
                self.connected.clear()
                self.backend_pid = None
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(connection.close(), 2)
            await asyncio.sleep(self._delay)

    async def _listen(self, connection: Any) -> None:
        lost = asyncio.Event()
        connection.add_termination_listener(lambda _c: lost.set())
        await connection.add_listener(CHANNEL, self._received)
        self.backend_pid = connection.get_server_pid()
        if self._listened:
            # Notices sent while we were away are gone: every outbox worker looks now.
            self.events.committed((), None)
        self._listened, self._delay = True, 0.5
        self.connected.set()
        log.info("event listener connected", channel=CHANNEL)
        while not lost.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(lost.wait(), self.ping_every)
            if not lost.is_set():
                await asyncio.wait_for(connection.fetchval("SELECT 1"), self.ping_every)
        raise ConnectionError("the listening connection was closed")
