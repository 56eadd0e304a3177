"""Leases: work that must run once per deployment (an IRC connection, a Matrix sync loop) runs only in
the process that holds its lease.

A lease is a row of the ``lease`` table (name, owner, epoch, expires_at), claimed and renewed by ONE
upsert on the database's own clock, so the gateway processes' clocks never matter::

    INSERT INTO lease VALUES (:name, :owner, 1, <now> + ttl)
    ON CONFLICT (name) DO UPDATE SET owner = EXCLUDED.owner, expires_at = EXCLUDED.expires_at, epoch = ...
    WHERE lease.expires_at < <now> OR lease.owner = EXCLUDED.owner
    RETURNING epoch

No row back means another process holds it. ``epoch`` grows each time the lease changes hands (or is
taken again after it ran out), so a holder whose renewal comes back with another epoch knows there
was a gap and treats the lease as lost. PostgreSQL and SQLite (3.24+ has the same upsert; several
processes may share one SQLite file) run the same statement; ``<now>`` is ``clock_timestamp()`` on
PostgreSQL and ``strftime(..., 'now')`` (fixed within one statement) on SQLite.

Timing, with F = ``[cluster] failover_seconds``: the lease lasts ``ttl = 0.75 F``, is renewed every
``ttl / 3``, and a standby tries to take it every ``F / 10``, so a standby takes over within
``0.85 F`` of the owner's death. The holder counts its lease from the moment it *sent* the renewal
(the database's ``<now>`` is later), on its monotonic clock. When no renewal has succeeded by
``ttl / 3`` before that local deadline (two heartbeats missed), or a renewal finds the lease gone, the
work is cancelled; it has the last ``ttl / 3`` to stop before the row can expire and anyone else can
take it. Stopping cleanly (``hold`` ends normally or by cancellation) releases the lease at once.

Process identity is ``hostname:pid:random`` per ``Leases`` object, so two gateways in one test
process are two owners. Within one ``Leases``, one holder per name at a time (others wait).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
import socket
import time
from collections import Counter, defaultdict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, TypeVar

import structlog
from sqlalchemy import Integer, String, text
from sqlalchemy.types import TypeEngine

from gateway.vault.columns import SQLITE_NOW, UTCDateTime, sqlite_now_shifted
from gateway.vault.engine import Vault
from gateway.vault.prepared import Prepared

log = structlog.get_logger(__name__)

T = TypeVar("T")

# On PostgreSQL, one instant per statement: EXCLUDED.expires_at - ttl is the clock_timestamp() read once.
_PG_NOW = "(EXCLUDED.expires_at - make_interval(secs => :ttl))"

_RESULT: dict[str, TypeEngine[Any]] = {"epoch": Integer(), "expires_at": UTCDateTime()}

CLAIM = {
    "postgresql": Prepared(
        text(
            f"""
            INSERT INTO lease (name, owner, epoch, expires_at)
            VALUES (:name, :owner, 1, clock_timestamp() + make_interval(secs => :ttl))
            ON CONFLICT (name) DO UPDATE SET
                epoch = CASE WHEN lease.owner = EXCLUDED.owner AND lease.expires_at >= {_PG_NOW}
                        THEN lease.epoch ELSE lease.epoch + 1 END,
                owner = EXCLUDED.owner,
                expires_at = EXCLUDED.expires_at
            WHERE lease.expires_at < {_PG_NOW} OR lease.owner = EXCLUDED.owner
            RETURNING epoch, expires_at
            """
        ).columns(**_RESULT)
    ),
    "sqlite": Prepared(
        text(
            f"""
            INSERT INTO lease (name, owner, epoch, expires_at)
            VALUES (:name, :owner, 1, {sqlite_now_shifted(":shift")})
            ON CONFLICT (name) DO UPDATE SET
                epoch = CASE WHEN lease.owner = excluded.owner AND lease.expires_at >= {SQLITE_NOW}
                        THEN lease.epoch ELSE lease.epoch + 1 END,
                owner = excluded.owner,
                expires_at = excluded.expires_at
            WHERE lease.expires_at < {SQLITE_NOW} OR lease.owner = excluded.owner
            RETURNING epoch, expires_at
            """
        ).columns(**_RESULT)
    ),
}
RELEASE = {
    # Expired from now on: the next claim by anyone succeeds (and raises the epoch).
    "postgresql": Prepared(
        text(
            "UPDATE lease SET expires_at = clock_timestamp() - interval '1 second'"
            " WHERE name = :name AND owner = :owner AND epoch = :epoch"
        )
    ),
    "sqlite": Prepared(
        text(
            "UPDATE lease SET expires_at = "
            + sqlite_now_shifted("'-1 seconds'")
            + " WHERE name = :name AND owner = :owner AND epoch = :epoch"
        )
    ),
}
CURRENT = Prepared(
    text("SELECT owner, epoch, expires_at FROM lease WHERE name = :name").columns(
        owner=String(), epoch=Integer(), expires_at=UTCDateTime()
    )
)


def process_identity() -> str:
    """``hostname:pid:random``: unique per process, and per ``Leases`` within one."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"


class LeaseLost(Exception):
    """The body of ``hold`` was cancelled because its lease was lost (or could not be renewed)."""


@dataclass
class Lease:
    name: str
    owner: str
    epoch: int
    deadline: float  # time.monotonic() by which the lease surely has not expired in the database
    renewed_at: float
    lost: asyncio.Event = field(default_factory=asyncio.Event)

    def time_left(self) -> float:
        """Seconds until the lease could expire in the database (a lower bound)."""
        return self.deadline - time.monotonic()


@dataclass(frozen=True)
class Holder:
    owner: str
    epoch: int
    expires_at: datetime


class Leases:
    """Claims, renews and releases leases in one vault for one process identity."""

    def __init__(self, vault: Vault, failover_seconds: float = 15.0, *, owner: str | None = None) -> None:
        self.vault = vault
        self.owner = owner or process_identity()
        self.failover_seconds = failover_seconds
        self.ttl = 0.75 * failover_seconds
        self.renew_every = self.ttl / 3
        self.stop_margin = self.ttl / 3
        self.poll = max(0.02, failover_seconds / 10)
        self._local: defaultdict[str, asyncio.Lock] = defaultdict(asyncio.Lock)
        self.held: dict[str, Lease] = {}
        # Per lease name, for ``gateway.ops.metrics``: takeovers (held with an epoch another owner, or an
        # earlier run, had before) and leases lost while held; the last epoch this process held.
        self.failovers: Counter[str] = Counter()
        self.losses: Counter[str] = Counter()
        self._last_epoch: dict[str, int] = {}

    def _count_acquired(self, lease: Lease) -> None:
        last = self._last_epoch.get(lease.name)
        # Our own clean release raises the epoch by one; any other gap was someone else's tenure.
        if lease.epoch > 1 and (last is None or lease.epoch != last + 1):
            self.failovers[lease.name] += 1
        self._last_epoch[lease.name] = lease.epoch

    # -- one statement each -------------------------------------------------------------------------

    def _claim_params(self, name: str) -> dict[str, Any]:
        if self.vault.dialect == "sqlite":
            return {"name": name, "owner": self.owner, "shift": f"+{self.ttl:.3f} seconds"}
        return {"name": name, "owner": self.owner, "ttl": self.ttl}

    async def _claim(self, name: str) -> tuple[int, float] | None:
        """(epoch, local deadline) when this process holds ``name`` now, else None."""
        sent = time.monotonic()
        async with self.vault.unit() as unit:
            row = await unit.first(CLAIM[unit.dialect], self._claim_params(name))
        return None if row is None else (int(row[0]), sent + self.ttl)

    async def try_acquire(self, name: str) -> Lease | None:
        """One attempt: the lease if this process holds it now (new, or still its own)."""
        got = await self._claim(name)
        if got is None:
            return None
        epoch, deadline = got
        return Lease(name, self.owner, epoch, deadline, renewed_at=deadline - self.ttl)

    async def renew(self, lease: Lease) -> bool:
        """Extend ``lease``; False when it is not ours any more (or there was a gap: a new epoch)."""
        got = await self._claim(lease.name)
        if got is None or got[0] != lease.epoch:
            return False
        lease.deadline = got[1]
        lease.renewed_at = got[1] - self.ttl
        return True

    async def release(self, lease: Lease) -> None:
        """Give the lease up at once (only this epoch of it: never someone else's)."""
        params = {"name": lease.name, "owner": lease.owner, "epoch": lease.epoch}
        async with self.vault.unit() as unit:
            await unit.execute(RELEASE[unit.dialect], params)

    async def current(self, name: str) -> Holder | None:
        """Who holds (or last held) ``name``, as the table says."""
        async with self.vault.unit() as unit:
            row = await unit.first(CURRENT, {"name": name})
        return None if row is None else Holder(str(row[0]), int(row[1]), row[2])

    # -- holding ------------------------------------------------------------------------------------

    def hold(self, name: str) -> _Hold:
        """``async with leases.hold("irc:libera") as lease:`` waits until this process holds the
        lease, keeps renewing it, and cancels the body (raising ``LeaseLost`` out of the block) before
        the lease could expire when it is lost or cannot be renewed."""
        return _Hold(self, name)

    async def run(self, name: str, work: Callable[[Lease], Awaitable[T]]) -> T:
        """Run ``work`` whenever this process holds ``name``: wait for the lease, run, and when the lease
        is lost (``work`` is cancelled) wait to hold it again. Returns what ``work`` returns."""
        while True:
            try:
                async with self.hold(name) as lease:
                    return await work(lease)
            except LeaseLost:
                log.warning("lease lost; work stopped, waiting to hold it again", lease=name)


async def run_owned(leases: Leases | None, name: str, work: Callable[[Lease | None], Awaitable[T]]) -> T:
    """``leases.run(name, work)``, or ``work(None)`` at once without leases (everything is ours)."""
    if leases is None:
        return await work(None)
    return await leases.run(name, work)


class _Hold:
    def __init__(self, leases: Leases, name: str) -> None:
        self.leases = leases
        self.name = name
        self.lease: Lease | None = None
        self._task: asyncio.Task[Any] | None = None
        self._beat: asyncio.Task[None] | None = None
        self._lost = False
        self._cancelling = 0
        self._exiting = False
        self._locked = False

    async def __aenter__(self) -> Lease:
        leases = self.leases
        self._task = asyncio.current_task()
        assert self._task is not None
        self._cancelling = self._task.cancelling()
        lock = leases._local[self.name]
        await lock.acquire()
        self._locked = True
        try:
            waiting_logged = failing = False
            while True:
                try:
                    lease = await leases.try_acquire(self.name)
                    failing = False
                except asyncio.CancelledError:
                    raise
                except Exception as exc:
                    if not failing:  # once per outage, not every poll
                        log.warning("lease claim failed", lease=self.name, error=repr(exc))
                    failing = True
                    lease = None
                if lease is not None:
                    break
                if not waiting_logged:
                    log.info("lease held elsewhere; standing by", lease=self.name)
                    waiting_logged = True
                await asyncio.sleep(leases.poll)
        except BaseException:
            self._unlock()
            raise
        self.lease = lease
        leases.held[self.name] = lease
        leases._count_acquired(lease)
        log.info("lease acquired", lease=self.name, epoch=lease.epoch, owner=leases.owner)
        self._beat = asyncio.create_task(self._heartbeat(lease), name=f"lease:{self.name}")
        return lease

    async def _heartbeat(self, lease: Lease) -> None:
        leases = self.leases
        while True:
            await asyncio.sleep(max(0.0, lease.renewed_at + leases.renew_every - time.monotonic()))
            stop_at = lease.deadline - leases.stop_margin
            renewed = False
            while (left := stop_at - time.monotonic()) > 0:
                try:
                    async with asyncio.timeout(left):
                        if not await leases.renew(lease):
                            break  # someone else holds it, or there was a gap
                    renewed = True
                    break
                except TimeoutError:
                    break
                except Exception as exc:
                    log.warning("lease renewal failed", lease=lease.name, error=repr(exc))
                    await asyncio.sleep(min(max(0.0, stop_at - time.monotonic()), leases.renew_every / 4))
            if not renewed:
                self._on_lost(lease)
                return

    def _on_lost(self, lease: Lease) -> None:
        log.warning("lease lost; stopping its work", lease=lease.name, epoch=lease.epoch)
        lease.lost.set()
        self.leases.losses[lease.name] += 1
        if self.leases.held.get(lease.name) is lease:
            del self.leases.held[lease.name]
        if not self._exiting:
            self._lost = True
            assert self._task is not None
            self._task.cancel()

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, _: Any
    ) -> None:
        self._exiting = True  # from here on the heartbeat cancels nothing
        lease = self.lease
        assert lease is not None and self._task is not None
        try:
            if self._beat is not None:
                self._beat.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await self._beat
            if self._lost:
                # Our own cancellation becomes LeaseLost; one from outside (a shutdown that came
                # meanwhile) goes on as it is, as ``asyncio.timeout`` does.
                if self._task.uncancel() > self._cancelling:
                    return
                raise LeaseLost(lease.name) from exc
            if self.leases.held.get(lease.name) is lease:
                del self.leases.held[lease.name]
            if not lease.lost.is_set():
                try:
                    async with asyncio.timeout(max(1.0, self.leases.renew_every)):
                        await self.leases.release(lease)
                    log.info("lease released", lease=lease.name, epoch=lease.epoch)
                except Exception as exc2:  # it expires on its own
                    log.warning("lease release failed", lease=lease.name, error=repr(exc2))
        finally:
            self._unlock()

    def _unlock(self) -> None:
        if self._locked:
            self._locked = False
            self.leases._local[self.name].release()
