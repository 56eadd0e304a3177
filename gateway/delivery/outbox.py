"""Delivery workers for the transactional outbox.

Each platform with a running adapter gets one worker. A worker claims the *head* row of each target's
queue (the oldest pending row of that target, if it is due), delivers the heads of different targets
concurrently and each target strictly in order, then marks rows delivered or schedules a retry with
exponential backoff and jitter; an idle worker sleeps until its next row falls due or a wake comes
(``Outbox._idle``), it does not poll. Claims are leases in the vault, taken with ``FOR UPDATE SKIP
LOCKED`` on PostgreSQL, so several gateway processes can share one vault and a crashed worker's rows
come back when the lease runs out. Rows for platforms with no running adapter simply wait. An adapter
whose delivery must run in one process at a time names a ``delivery_lease``: its worker then runs only
where that lease is held. Delivered rows are deleted ``[outbox] keep_delivered_hours`` after delivery,
by one process (lease ``outbox:prune``); dead ones stay for an operator to read.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import sqlite3
import time
from collections.abc import Awaitable, Callable, Iterable
from datetime import datetime, timedelta
from functools import partial
from typing import TYPE_CHECKING, Any

import orjson
import structlog
from sqlalchemy import (
    BindParameter,
    Boolean,
    ColumnElement,
    Select,
    String,
    bindparam,
    case,
    delete,
    func,
    literal_column,
    select,
    update,
)
from sqlalchemy.engine import make_url
from sqlalchemy.ext.compiler import compiles

from gateway.core.adapter import Adapter
from gateway.core.errors import Deferred, DeliveryFailed, Elsewhere, RetryLater, Settled, Throttled
from gateway.core.settings import Settings
from gateway.core.types import Outbound
from gateway.delivery.leases import Lease
from gateway.delivery.pacing import Backoff
from gateway.vault.models import OUTBOX_PENDING, OutboxRow
from gateway.vault.prepared import Prepared
from gateway.vault.unit import Unit

if TYPE_CHECKING:
    from gateway.core.services import Services
    from gateway.vault.engine import Vault

log = structlog.get_logger(__name__)

BATCH = 32
PRUNE_LEASE = "outbox:prune"  # the sweeper runs in one process per vault
PRUNE_EVERY = 600.0  # seconds between sweeps of old delivered rows
PRUNE_BATCH = 5000  # rows per transaction, so a sweep never holds the write lock for long
# The longest an idle worker sleeps without a wake or a due row: a safety net only (a notification
# lost on PostgreSQL is already covered by the listener waking every worker when it reconnects).
IDLE_MAX = 60.0

_ROW = OutboxRow.__table__  # type: ignore[attr-defined]
_QUEUE = (_ROW.c.platform == bindparam("platform"), OUTBOX_PENDING)


class _NotListed(ColumnElement[bool]):
    """``column NOT IN`` the strings of a JSON array parameter: one statement, prepared once, for a
    list of any length (the targets this process leaves to another, ``Elsewhere``)."""

    inherit_cache = True
    type = Boolean()

    def __init__(self, column: ColumnElement[Any], array: BindParameter[Any]) -> None:
        self.column = column
        self.array = array


@compiles(_NotListed, "sqlite")
def _not_listed_sqlite(element: _NotListed, compiler: Any, **kw: Any) -> str:
    column, array = compiler.process(element.column, **kw), compiler.process(element.array, **kw)
    return f"{column} NOT IN (SELECT value FROM json_each({array}))"


@compiles(_NotListed, "postgresql")
def _not_listed_postgresql(element: _NotListed, compiler: Any, **kw: Any) -> str:
    column, array = compiler.process(element.column, **kw), compiler.process(element.array, **kw)
    return f"{column} NOT IN (SELECT jsonb_array_elements_text(CAST({array} AS JSONB)))"


def _heads() -> Select[Any]:
    """The ids of the head of each target's queue (its oldest pending row) on the platform.

    A loose index scan on ``ix_outbox_queue (platform, target, id) WHERE status = 'pending'``: the
    recursive part steps from one target to the next, and each target's head is one more probe. So it
    costs a few probes per target with pending rows, whatever their number of rows; neither engine
    skips through an index on its own (the old form ran a ``min(id)`` per pending row).
    """
    targets = select(func.min(_ROW.c.target).label("target")).where(*_QUEUE).cte("queues", recursive=True)
    following = select(func.min(_ROW.c.target)).where(*_QUEUE, _ROW.c.target > targets.c.target)
    targets = targets.union_all(select(following.scalar_subquery()).where(targets.c.target.is_not(None)))
    head = select(func.min(_ROW.c.id)).where(*_QUEUE, _ROW.c.target == targets.c.target)
    return select(head.scalar_subquery()).where(targets.c.target.is_not(None))


def _claim_statement() -> Select[Any]:
    """The head of each target's queue, when it is due and not leased."""
    return (
        select(_ROW.c.id, _ROW.c.target, _ROW.c.payload, _ROW.c.attempts, _ROW.c.created_at)
        .where(
            _ROW.c.id.in_(_heads()),
            _ROW.c.next_attempt_at <= bindparam("now"),
            _ROW.c.claimed_until.is_(None) | (_ROW.c.claimed_until < bindparam("now")),
            _NotListed(_ROW.c.target, bindparam("elsewhere", type_=String())),
        )
        .order_by(_ROW.c.id)
        .limit(BATCH)
        .with_for_update(skip_locked=True)
    )


CLAIM = Prepared(_claim_statement())
# When the next head of the platform's queues falls due (its backoff over, or the lease of the process
# delivering it run out): an idle worker sleeps until then, or until a wake.
_DUE = case(
    (_ROW.c.claimed_until > _ROW.c.next_attempt_at, _ROW.c.claimed_until), else_=_ROW.c.next_attempt_at
)
NEXT_DUE = Prepared(
    select(func.min(_DUE, type_=_ROW.c.next_attempt_at.type)).where(
        _ROW.c.id.in_(_heads()), _NotListed(_ROW.c.target, bindparam("elsewhere", type_=String()))
    )
)
# A claimed row's next_attempt_at becomes the claim's time: an ``expedite`` while it is being
# delivered moves it later, which is how ``FINISH`` knows that a wait it was told of is over.
LEASE_ROW = Prepared(
    update(_ROW)
    .where(_ROW.c.id == bindparam("row_id"))
    .values(claimed_until=bindparam("until"), next_attempt_at=bindparam("claimed_at"))
)
# Renews the leases of rows whose delivery is still running (only while they are still ours).
RENEW = Prepared(
    update(_ROW)
    .where(_ROW.c.id == bindparam("row_id"), OUTBOX_PENDING, _ROW.c.claimed_until.is_not(None))
    .values(claimed_until=bindparam("until"))
)
# A target that answers again (a HUD that re-registered): its waiting rows are due now. (An UPDATE may
# bind no parameter named like a column, so not ``_QUEUE``'s "platform".)
EXPEDITE = Prepared(
    update(_ROW)
    .where(
        _ROW.c.platform == bindparam("on_platform"),
        OUTBOX_PENDING,
        _ROW.c.target == bindparam("queue"),
        # waiting out a backoff, or being delivered right now (see ``FINISH``)
        (_ROW.c.next_attempt_at > bindparam("now")) | (_ROW.c.claimed_until >= bindparam("now")),
    )
    .values(next_attempt_at=bindparam("now"))
)
PRUNE = Prepared(
    delete(_ROW).where(
        _ROW.c.id.in_(
            select(_ROW.c.id)
            .where(_ROW.c.status == literal_column("'delivered'"), _ROW.c.delivered_at < bindparam("before"))
            .limit(PRUNE_BATCH)
            .scalar_subquery()
        )
    )
)
FINISH = Prepared(
    update(_ROW)
    .where(_ROW.c.id == bindparam("row_id"))
    .values(
        status=bindparam("status"),
        attempts=bindparam("attempts"),
        last_error=bindparam("last_error"),
        claimed_until=None,
        # Expedited while it was being delivered (the HUD registered anew meanwhile): due at once,
        # not after the wait the old target asked for.
        next_attempt_at=case(
            (_ROW.c.next_attempt_at > bindparam("claimed_at"), _ROW.c.next_attempt_at),
            else_=bindparam("next_attempt_at", type_=_ROW.c.next_attempt_at.type),
        ),
        delivered_at=bindparam("delivered_at"),
    )
)


async def expedite(unit: Unit, platform: str, targets: Iterable[str], now: datetime) -> int:
    """In the caller's unit: these targets answer again (a HUD registered anew), so their rows waiting
    out a backoff are due now. How many; the unit wakes the platform's worker on commit."""
    count = 0
    for target in targets:
        count += await unit.execute(EXPEDITE, {"on_platform": platform, "queue": target, "now": now})
    if count:
        unit.queued.add(platform)
    return count


def claim_lease(settings: Settings) -> timedelta:
    """How long a claimed row is its worker's: ``[cluster] failover_seconds``, so the rows a dead
    process had claimed come back as soon as its other work does. Renewed every third of it."""
    return timedelta(seconds=settings.cluster.failover_seconds)


class VaultWrites:
    """SQLite: whether any connection (another process's, or this one's) has committed to the vault
    since the last look, from ``PRAGMA data_version`` on a read-only connection of its own that never
    opens a transaction: no lock, no write, microseconds. PostgreSQL needs none (its notifications
    reach every process), nor does an in-memory vault (one process is the whole world)."""

    def __init__(self, connection: sqlite3.Connection) -> None:
        self._connection = connection
        self._seen: dict[str, int | None] = {}  # worker -> the version at its last claim

    @classmethod
    def open(cls, vault: Vault) -> VaultWrites | None:
        url = make_url(vault.url)
        if url.get_backend_name() != "sqlite" or not url.database or url.database == ":memory:":
            return None
        try:
            connection = sqlite3.connect(f"file:{url.database}?mode=ro", uri=True, check_same_thread=False)
        except sqlite3.Error:  # no file yet: the workers wake on this process's commits alone
            return None
        return cls(connection)

    def _read(self) -> int | None:
        try:
            row = self._connection.execute("PRAGMA data_version").fetchone()
        except sqlite3.Error:
            return None  # unknown: the worker looks with a claim instead
        return int(row[0]) if row else None

    def mark(self, worker: str) -> None:
        """Just before ``worker`` claims: what it will find covers the vault as of now."""
        self._seen[worker] = self._read()

    def changed(self, worker: str) -> bool:
        """Whether anyone committed since ``worker``'s last claim (each worker keeps its own mark)."""
        version = self._read()
        return version is None or version != self._seen.get(worker)

    def close(self) -> None:
        self._connection.close()


# What became of one delivery attempt: delivered (or settled by the adapter), a failed attempt to
# retry, "wait" from the target or the owner, a target not there yet, given up.
DELIVERY_RESULTS = ("sent", "retry", "throttled", "absent", "dead")


class Outbox:
    def __init__(self, services: Services) -> None:
        self.services = services
        self.adapters: dict[str, Adapter] = {}  # given at start
        # platform -> result (``DELIVERY_RESULTS``) -> deliveries since start, read by
        # ``gateway.ops.metrics`` at scrape time.
        self.deliveries: dict[str, dict[str, int]] = {}
        self._events: dict[str, asyncio.Event] = {}
        self._tasks: list[asyncio.Task[None]] = []
        self._rng = random.Random()
        self._claimed_at: dict[int, datetime] = {}  # row id -> when this process claimed it
        # platform -> target -> time.monotonic() until which another process delivers it (Elsewhere)
        self._elsewhere: dict[str, dict[str, float]] = {}
        self._stopping = False
        self._stopped = asyncio.Event()
        self._unsubscribe: Callable[[], None] | None = None
        self._leased: dict[asyncio.Task[None], str] = {}  # task -> the lease it runs under
        self._owned: set[str] = set()  # the leases whose work runs here now
        self._halted: set[str] = set()  # platforms whose worker ends after its round in flight
        self._next_due: dict[str, datetime] = {}  # platform -> when its next head falls due (idle)
        self._writes: VaultWrites | None = None  # SQLite: commits by any connection (see ``_idle``)

    def wake(self, platforms: Iterable[str] | None = None) -> None:
        """Rows were queued: the workers of these platforms (all when None) look now, not at their
        next poll."""
        if platforms is None:
            for event in self._events.values():
                event.set()
            return
        for platform in platforms:
            if platform in self._events:
                self._events[platform].set()

    def can_post(self, platform: str, target: str) -> bool:
        """Whether the platform's adapter can deliver to ``target`` (``Adapter.can_post``); yes when no
        adapter of that platform runs here (its rows wait for a process that has one)."""
        adapter = self.adapters.get(platform)
        return adapter is None or adapter.can_post(target)

    async def start(self, adapters: dict[str, Adapter]) -> None:
        """One delivery worker per adapter, and the sweeper of old delivered rows.

        The sweeper runs under the lease ``outbox:prune``, and the worker of a platform whose adapter
        names a ``delivery_lease`` under that lease: in one process of the vault at a time, the others
        standing by (``gateway/delivery/leases.py``). Their rows wait for the owner, whom the vault's
        notifications wake like any other process."""
        self.adapters = adapters
        self._events = {platform: asyncio.Event() for platform in adapters}
        self._writes = VaultWrites.open(self.services.vault)
        # Every unit that queues rows wakes their workers once committed, in this process or
        # (PostgreSQL) another one on the vault: nobody calls ``wake`` by hand after a transaction.
        self._unsubscribe = self.services.vault.events.on_queued(self.wake)
        for platform, adapter in self.adapters.items():
            lease = adapter.delivery_lease
            if lease is None:
                self._tasks.append(asyncio.create_task(self._worker(platform), name=f"outbox:{platform}"))
            else:
                self._start_leased(lease, partial(self._leased_worker, platform), f"outbox:{platform}")
        self._start_leased(PRUNE_LEASE, self._sweeper, PRUNE_LEASE)

    def _start_leased(self, lease: str, work: Callable[[], Awaitable[None]], name: str) -> None:
        async def owned(_: Lease) -> None:
            self._owned.add(lease)
            try:
                await work()
            finally:
                self._owned.discard(lease)

        task = asyncio.create_task(self.services.leases.run(lease, owned), name=name)
        self._tasks.append(task)
        self._leased[task] = lease

    async def _leased_worker(self, platform: str) -> None:
        """The worker, while this process holds the platform's delivery lease. When the lease is lost
        the round in flight still finishes, as at a stop, and no other starts: its rows are claimed
        (and their claims renewed) by this process, so nobody else delivers them meanwhile, and a row
        Discord took is marked delivered instead of being sent again by the next owner."""
        self._halted.discard(platform)
        adapter = self.adapters[platform]
        try:
            await adapter.delivery_started()
        except Exception:  # deliver anyway, from less state (Discord: its first answers re-teach it)
            log.exception("loading delivery state failed", platform=platform)
        running = asyncio.ensure_future(self._worker(platform))
        try:
            await asyncio.shield(running)
        except asyncio.CancelledError:
            if not self._stopping:  # a stop has given the round its grace already
                self._halted.add(platform)
                self._events[platform].set()
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(asyncio.shield(running), self._lease().total_seconds())
            raise
        finally:
            running.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await running
            try:
                await adapter.delivery_stopped()
            except Exception:  # the next owner starts from less, which is safe
                log.exception("saving delivery state failed", platform=platform)

    async def prune(self) -> int:
        """Delete delivered rows older than ``[outbox] keep_delivered_hours``; how many went."""
        keep = timedelta(hours=self.services.settings.outbox.keep_delivered_hours)
        before = self.services.clock() - keep
        removed = 0
        while True:
            async with self.services.vault.unit() as unit:
                count = await unit.execute(PRUNE, {"before": before})
            removed += count
            if count < PRUNE_BATCH:
                return removed

    async def _sweeper(self) -> None:
        while not self._stopping:
            try:
                removed = await self.prune()
                if removed:
                    log.info("outbox pruned", rows=removed)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("outbox prune failed")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._stopped.wait(), PRUNE_EVERY)

    async def stop(self, grace: float = 10.0) -> None:
        """Let the round in flight finish (so a delivered row is marked delivered), then end. Work
        standing by for its lease has nothing in flight: it ends at once."""
        self._stopping = True
        self._stopped.set()
        unsubscribe, self._unsubscribe = self._unsubscribe, None
        if unsubscribe is not None:
            unsubscribe()
        self.wake()
        for task, lease in self._leased.items():
            if lease not in self._owned:
                task.cancel()
        if self._tasks:
            _, pending = await asyncio.wait(self._tasks, timeout=grace)
            for task in pending:
                task.cancel()
            for task in pending:
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        self._tasks.clear()
        self._leased.clear()
        if self._writes is not None:
            self._writes.close()
            self._writes = None
        self._stopping = False
        self._stopped.clear()

    async def _worker(self, platform: str) -> None:
        linger = self.services.settings.outbox.linger
        event = self._events[platform]
        while not self._stopping and platform not in self._halted:
            # Cleared before the claim, not after: a wake while it runs (a row committed meanwhile)
            # then makes the next round start at once instead of being lost.
            event.clear()
            try:
                worked = await self.run_once(platform)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("outbox worker error", platform=platform)
                worked = False
            if worked and linger and not self._stopping:
                # Under load, rows keep arriving: gather the next ones for a moment, so one claim
                # (and one fan-out) serves many rows instead of each paying a transaction of its own.
                await asyncio.sleep(linger)
            if not worked and not self._stopping:
                await self._idle(platform, event)

    async def _idle(self, platform: str, event: asyncio.Event) -> None:
        """Sleep until the platform's next head falls due, a target left to another process comes
        back, or a wake: a unit that queued rows in this process, a vault notification (PostgreSQL),
        a timer an adapter set. On SQLite, where no notification comes from another process, a look
        every ``[outbox] poll_interval`` at whether anyone committed to the vault (``PRAGMA
        data_version``: no transaction, no lock) ends the sleep too. At most ``IDLE_MAX`` seconds."""
        wait = IDLE_MAX
        due = self._next_due.pop(platform, None)
        if due is not None:
            wait = min(wait, (due - self.services.clock()).total_seconds())
        marks = self._elsewhere.get(platform)
        if marks:
            wait = min(wait, min(marks.values()) - time.monotonic())
        watch = self._writes
        step = self.services.settings.outbox.poll_interval if watch is not None else wait
        deadline = time.monotonic() + max(0.0, wait)
        while not event.is_set() and not self._stopping:
            left = deadline - time.monotonic()
            if left <= 0:
                return
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(event.wait(), min(left, step))
            if watch is not None and watch.changed(platform):
                return

    async def run_once(self, platform: str) -> bool:
        """Claim and deliver one round of queue heads. True when the next round should start at
        once: something was claimed, unless the adapter settled every row itself (a fan-out, which
        takes the rows queued behind its head too, and wakes the worker when it left some) in a
        round that was not full. Then the next claim waits for a wake, instead of finding nothing
        after every Storyteller-log fan-out at the price of a transaction."""
        rows = await self._claim(platform)
        if not rows:
            return False
        in_flight = {row.id for row in rows}
        renewer = asyncio.create_task(self._renew(in_flight), name=f"outbox:{platform}:lease")
        try:
            settled = await asyncio.gather(*(self._deliver(platform, row, in_flight) for row in rows))
        finally:
            renewer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await renewer
        return len(rows) == BATCH or not all(settled)

    async def _renew(self, in_flight: set[int]) -> None:
        """While deliveries run, keep their leases alive, so no other worker (in this process or
        another) can claim a row whose delivery is merely slow. A worker that dies stops renewing,
        and its rows come back once the last lease runs out."""
        while in_flight:
            await asyncio.sleep(self._lease().total_seconds() / 3)
            if in_flight:
                until = self.services.clock() + self._lease()
                async with self.services.vault.unit() as unit:
                    for row_id in sorted(in_flight):
                        await unit.execute(RENEW, {"row_id": row_id, "until": until})

    def _left_elsewhere(self, platform: str) -> str:
        """The targets of ``platform`` another process delivers (``Elsewhere``), as a JSON array."""
        marks = self._elsewhere.get(platform)
        if not marks:
            return "[]"
        now = time.monotonic()
        for target in [t for t, until in marks.items() if until <= now]:
            del marks[target]
        return orjson.dumps(sorted(marks)).decode()

    async def _claim(self, platform: str) -> list[Outbound]:
        now = self.services.clock()
        params = {"platform": platform, "now": now, "elsewhere": self._left_elsewhere(platform)}
        if self._writes is not None:
            self._writes.mark(platform)
        async with self.services.vault.unit() as unit:
            rows = await unit.all(CLAIM, params)
            for row in rows:
                lease = {"row_id": row[0], "until": now + self._lease(), "claimed_at": now}
                await unit.execute(LEASE_ROW, lease)
                self._claimed_at[row[0]] = now
            if not rows:  # the worker goes idle: until when (in the same unit, so nothing slips by)
                due = await unit.first(NEXT_DUE, {"platform": platform, "elsewhere": params["elsewhere"]})
                if due is not None and due[0] is not None:
                    self._next_due[platform] = due[0]
        return [
            Outbound(
                id=row_id, platform=platform, target=target, payload=payload, attempts=attempts, created_at=at
            )
            for row_id, target, payload, attempts, at in rows
        ]

    async def _deliver(self, platform: str, message: Outbound, in_flight: set[int]) -> bool:
        """Whether the adapter settled the row itself (``Settled``)."""
        try:
            return await self._attempt(platform, message)
        finally:
            in_flight.discard(message.id)
            self._claimed_at.pop(message.id, None)

    async def _attempt(self, platform: str, message: Outbound) -> bool:
        adapter = self.adapters[platform]
        counts = self.deliveries.get(platform)
        if counts is None:
            counts = self.deliveries[platform] = dict.fromkeys(DELIVERY_RESULTS, 0)
        try:
            await adapter.deliver(message)
        except Settled:
            counts["sent"] += 1
            return True
        except Elsewhere as exc:
            # Due at once for the owner, whom the commit wakes; this process looks away meanwhile.
            counts["throttled"] += 1
            log.debug("outbox row is another process's", platform=platform, row=message.id, reason=exc.reason)
            self._elsewhere.setdefault(platform, {})[message.target] = time.monotonic() + exc.delay
            await self._finish(message.id, "pending", message.attempts, None, 0, wake=platform)
        except Deferred as exc:
            # Not an attempt (see ``Throttled`` and ``TargetAbsent``): the row keeps its attempts.
            throttled = isinstance(exc, Throttled)
            counts["throttled" if throttled else "absent"] += 1
            # Throttling is the platform's pace, every few lines on a busy IRC log: counted, logged quietly.
            report = log.debug if throttled else log.info
            event = "outbox throttled" if throttled else "outbox waiting"
            report(event, platform=platform, row=message.id, reason=exc.reason, delay=exc.delay)
            await self._finish(message.id, "pending", message.attempts, exc.reason, exc.delay)
        except RetryLater as exc:
            attempts = message.attempts + 1
            delay = (exc.backoff or self.backoff()).delay(attempts)
            dead = self._given_up(message, attempts)
            counts["dead" if dead else "retry"] += 1
            log.info("outbox retry", platform=platform, row=message.id, reason=exc.reason, delay=delay)
            await self._finish(message.id, "dead" if dead else "pending", attempts, exc.reason, delay)
        except DeliveryFailed as exc:
            counts["dead"] += 1
            log.warning("outbox delivery failed for good", platform=platform, row=message.id, reason=str(exc))
            await self._finish(message.id, "dead", message.attempts + 1, str(exc), 0)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            attempts = message.attempts + 1
            log.warning("outbox delivery error", platform=platform, row=message.id, error=repr(exc))
            dead = self._given_up(message, attempts)
            counts["dead" if dead else "retry"] += 1
            await self._finish(
                message.id, "dead" if dead else "pending", attempts, repr(exc), self.backoff().delay(attempts)
            )
        else:
            counts["sent"] += 1
            await self._finish(message.id, "delivered", message.attempts + 1, None, 0)
        return False

    def _given_up(self, message: Outbound, attempts: int) -> bool:
        """Whether a row whose attempt ``attempts`` just failed is dead: it was queued more than
        ``[outbox] retry_hours`` ago (or ``max_attempts`` is set and reached). Bounded by time, not by a
        count, so a target that refuses for a minute loses nothing however fast the attempts come."""
        s = self.services.settings.outbox
        if s.max_attempts is not None and attempts >= s.max_attempts:
            return True
        queued = message.created_at
        if queued is None:
            return False
        return self.services.clock() - queued >= timedelta(hours=s.retry_hours)

    def _lease(self) -> timedelta:
        return claim_lease(self.services.settings)

    def backoff(self) -> Backoff:
        """The backoff after failed attempts: ``[outbox] base_delay`` doubling up to ``max_delay``,
        times 0.5 to 1.5 so that rows failing together do not come back together."""
        s = self.services.settings.outbox
        return Backoff(s.base_delay, s.max_delay, (0.5, 1.5), self._rng)

    async def _finish(
        self,
        row_id: int,
        status: str,
        attempts: int,
        error: str | None,
        delay: float,
        *,
        wake: str | None = None,
    ) -> None:
        now: datetime = self.services.clock()
        values = {
            "row_id": row_id,
            "claimed_at": self._claimed_at.get(row_id, now),
            "status": status,
            "attempts": attempts,
            "last_error": error,
            "next_attempt_at": now + timedelta(seconds=delay),
            "delivered_at": now if status == "delivered" else None,
        }
        async with self.services.vault.unit() as unit:
            await unit.execute(FINISH, values)
            if wake is not None:  # made due for another process's worker: its commit wakes them
                unit.queued.add(wake)
