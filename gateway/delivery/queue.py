"""The outbox as an adapter uses it: queue rows, see how they fare, make rows due now, and fan a row
out into many (``gateway/delivery/outbox.py`` is the worker that delivers them).

Each function runs in the caller's unit of work when given one (a unit or its session), or in a unit
of its own when given the vault. Rows queued in a unit wake their platform's worker after it commits.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import bindparam, case, func, literal_column, or_, select, update

from gateway.delivery.outbox import VaultWrites, claim_lease, expedite
from gateway.vault.models import OUTBOX_PENDING, OutboxRow
from gateway.vault.prepared import Prepared
from gateway.vault.repo import Db, enqueue, within
from gateway.vault.unit import Unit

__all__ = [
    "Backlog",
    "Db",
    "QueuedRow",
    "Tally",
    "Unit",
    "VaultWrites",
    "backlog",
    "claim_lease",
    "depth",
    "enqueue",
    "expedite",
    "expedite_failed",
    "fan_out_batch",
    "newest_id",
    "rows",
    "status",
    "take_batch",
]

FANOUT_BATCH = 200

_ROW = OutboxRow.__table__  # type: ignore[attr-defined]
# Rows queued for one address. No bind parameter is named like a column: in an UPDATE, SQLAlchemy
# reserves those for the SET clause (a CompileError on PostgreSQL only).
_QUEUED = (_ROW.c.platform == bindparam("on_platform"), _ROW.c.target == bindparam("address"), OUTBOX_PENDING)
_BATCH = _ROW.c.id.between(bindparam("first"), bindparam("last"))
# A fan-out row and the rows queued behind it for the same address.
FANOUT_IDS = Prepared(
    select(_ROW.c.id).where(*_QUEUED, _ROW.c.id >= bindparam("first")).order_by(_ROW.c.id).limit(FANOUT_BATCH)
)
FANOUT_PAYLOADS = Prepared(select(_ROW.c.payload).where(*_QUEUED, _BATCH).order_by(_ROW.c.id))
FANOUT_DONE = Prepared(
    update(_ROW)
    .where(*_QUEUED, _BATCH)
    .values(status="delivered", delivered_at=bindparam("now"), claimed_until=None)
)
# Rows waiting out a backoff after an error of one kind (``last_error`` starts with the prefix).
EXPEDITE_FAILED = Prepared(
    update(_ROW)
    .where(
        _ROW.c.platform == bindparam("on_platform"),
        OUTBOX_PENDING,
        func.substr(_ROW.c.last_error, 1, func.length(bindparam("prefix"))) == bindparam("prefix"),
        _ROW.c.next_attempt_at > bindparam("now"),
        _ROW.c.claimed_until.is_(None) | (_ROW.c.claimed_until < bindparam("now")),
    )
    .values(next_attempt_at=bindparam("now"))
)
NEWEST = Prepared(select(func.max(_ROW.c.id)))
_COLUMNS = (_ROW.c.id, _ROW.c.target, _ROW.c.status, _ROW.c.payload)
PENDING_ROWS = Prepared(
    select(*_COLUMNS).where(_ROW.c.platform == bindparam("on_platform"), OUTBOX_PENDING).order_by(_ROW.c.id)
)
ROWS_AFTER = Prepared(
    select(*_COLUMNS)
    .where(_ROW.c.platform == bindparam("on_platform"), _ROW.c.id > bindparam("after"))
    .order_by(_ROW.c.id)
)
TALLY = Prepared(
    select(_ROW.c.target, _ROW.c.status, func.count())
    .where(_ROW.c.platform == bindparam("on_platform"))
    .group_by(_ROW.c.target, _ROW.c.status)
)
# The rows of an id range, for ``status`` of a list of ids (no IN list: a prepared statement binds a
# fixed number of parameters).
SPAN = Prepared(
    select(_ROW.c.id, _ROW.c.target, _ROW.c.status).where(
        _ROW.c.platform == bindparam("on_platform"), _ROW.c.id.between(bindparam("first"), bindparam("last"))
    )
)

# Rows still waiting (pending) or given up on (dead), for ``depth`` and ``backlog``.
_DEAD = _ROW.c.status == literal_column("'dead'")
_WAITING = or_(OUTBOX_PENDING, _DEAD)
DEPTH = Prepared(
    select(_ROW.c.platform, _ROW.c.status, func.count())
    .where(_WAITING)
    .group_by(_ROW.c.platform, _ROW.c.status)
)
BACKLOG = Prepared(
    select(
        _ROW.c.platform,
        _ROW.c.target,
        func.sum(case((OUTBOX_PENDING, 1), else_=0)),
        func.sum(case((_DEAD, 1), else_=0)),
        func.min(case((OUTBOX_PENDING, _ROW.c.created_at))),
    )
    .where(_WAITING)
    .group_by(_ROW.c.platform, _ROW.c.target)
    .order_by(_ROW.c.platform, _ROW.c.target)
)
# The head of each target's queue (what its worker waits on), for ``backlog``: its failed attempts,
# its last error and when it is due.
_HEAD_IDS = select(func.min(_ROW.c.id)).where(OUTBOX_PENDING).group_by(_ROW.c.platform, _ROW.c.target)
HEADS = Prepared(
    select(_ROW.c.platform, _ROW.c.target, _ROW.c.attempts, _ROW.c.last_error, _ROW.c.next_attempt_at).where(
        _ROW.c.id.in_(_HEAD_IDS.scalar_subquery())
    )
)


async def expedite_failed(db: Db, platform: str, error_prefix: str, now: datetime) -> int:
    """The platform's rows waiting out a backoff after an error starting with ``error_prefix`` (the
    network was down) are due now; how many. Rows a worker holds are left alone."""
    async with within(db) as unit:
        count = await unit.execute(
            EXPEDITE_FAILED, {"on_platform": platform, "prefix": error_prefix, "now": now}
        )
        if count:
            unit.queued.add(platform)
    return count


@dataclass(frozen=True)
class QueuedRow:
    id: int
    target: str
    status: str  # pending | delivered | dead
    payload: dict[str, Any]


async def newest_id(db: Db) -> int:
    """The id of the newest row of any platform (0 in an empty outbox): a mark to list rows after."""
    async with within(db) as unit:
        row = await unit.first(NEWEST, {})
    return int(row[0]) if row is not None and row[0] is not None else 0


async def rows(db: Db, platform: str, *, after: int | None = None) -> list[QueuedRow]:
    """The platform's rows queued after row ``after`` (any status), or without it its pending rows;
    oldest first."""
    async with within(db) as unit:
        if after is None:
            found = await unit.all(PENDING_ROWS, {"on_platform": platform})
        else:
            found = await unit.all(ROWS_AFTER, {"on_platform": platform, "after": after})
    return [QueuedRow(row_id, target, status, payload or {}) for row_id, target, status, payload in found]


@dataclass
class Tally:
    pending: int = 0
    delivered: int = 0
    dead: int = 0

    @property
    def total(self) -> int:
        return self.pending + self.delivered + self.dead


async def status(db: Db, platform: str, *, ids: list[int] | None = None) -> dict[str, Tally]:
    """How the platform's rows (or only the rows ``ids``) fare, per target. Delivered rows are
    pruned after ``[outbox] keep_delivered_hours``."""
    tallies: dict[str, Tally] = {}
    async with within(db) as unit:
        if ids is None:
            found = await unit.all(TALLY, {"on_platform": platform})
        elif not ids:
            found = []
        else:
            wanted = set(ids)
            span = {"on_platform": platform, "first": min(ids), "last": max(ids)}
            found = [(t, s, 1) for i, t, s in await unit.all(SPAN, span) if i in wanted]
    for target, row_status, count in found:
        tally = tallies.setdefault(target, Tally())
        setattr(tally, row_status, getattr(tally, row_status) + int(count))
    return tallies


async def depth(db: Db) -> dict[str, Tally]:
    """Pending and dead rows per platform (every platform with any), in one grouped query."""
    tallies: dict[str, Tally] = {}
    async with within(db) as unit:
        found = await unit.all(DEPTH, {})
    for platform, row_status, count in found:
        setattr(tallies.setdefault(platform, Tally()), row_status, int(count))
    return tallies


@dataclass(frozen=True)
class Backlog:
    """What waits for one target: pending and dead rows, when the oldest pending one was queued, and
    why the head of its queue waits (its failed attempts, last error and next attempt)."""

    platform: str
    target: str
    pending: int
    dead: int
    oldest_pending: datetime | None
    attempts: int = 0
    last_error: str | None = None
    next_attempt: datetime | None = None


async def backlog(db: Db) -> list[Backlog]:
    """Every target with pending or dead rows, by platform and target, in one grouped query."""
    async with within(db) as unit:
        found = await unit.all(BACKLOG, {})
        heads = {(p, t): (a, e, n) for p, t, a, e, n in await unit.all(HEADS, {})}
    return [
        Backlog(
            platform,
            target,
            int(pending or 0),
            int(dead or 0),
            oldest,
            *heads.get((platform, target), (0, None, None)),
        )
        for platform, target, pending, dead, oldest in found
    ]


async def fan_out_batch(unit: Unit, platform: str, address: str, first: int) -> list[int]:
    """The ids of the pending rows for ``address`` from row ``first`` on (at most ``FANOUT_BATCH``),
    oldest first: the batch one fan-out expands. Empty, or not starting at ``first``, when another
    worker has expanded that row already."""
    found = await unit.all(FANOUT_IDS, {"on_platform": platform, "address": address, "first": first})
    return [int(row_id) for (row_id,) in found]


async def take_batch(
    unit: Unit, platform: str, address: str, ids: list[int], now: datetime, *, payloads: bool = True
) -> list[dict[str, Any]]:
    """Mark the batch ``ids`` (from ``fan_out_batch``) delivered in the caller's unit, and return
    their payloads in order, to queue copies of them in the same unit: a crash repeats nothing.
    ``payloads=False`` when there is no one to copy them to (no JSON decoded)."""
    batch = {"on_platform": platform, "address": address, "first": ids[0], "last": ids[-1]}
    found = await unit.all(FANOUT_PAYLOADS, batch) if payloads else []
    await unit.execute(FANOUT_DONE, {**batch, "now": now})
    return [payload for (payload,) in found]
