"""Tallies of the roll log, kept in the vault so that old rows are read once per vault.

The roll log only grows, so each scope's tally (a channel's, a person's or a character's rolls of one
system) is kept in ``stats_tally``: per UTC day, and whole, with ``through``, the id of the last row
folded in. A call reads the rows after that id (a primary-key range) and folds them in; what it
folded is saved by an update guarded by the ``through`` it read, so two folds of one scope at once
(two processes on one PostgreSQL vault) never both count a row: the loser answers from what it read.
Rows younger than ``SETTLE`` are counted for the answer but not kept: a unit still open on another
node may yet commit a smaller id, which a kept tally would never see. ``--since`` takes whole kept
days after its own day, and reads its own day's rows from the log (an indexed time range). A vault
whose log is shorter than a kept tally (restored, replaced) starts again.

A scope with more rows to fold than a command should read in its unit is folded in the background
(``Folds``: one task per scope per process, each chunk in a unit of its own and sized to about
``CHUNK_SECONDS`` of the loop, progress saved every ``SAVE_EVERY``), so a restart continues it.
"""

from __future__ import annotations

import asyncio
import time
import weakref
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping
from contextvars import Context
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from datetime import time as day_time
from typing import Any

import orjson
import structlog
from sqlalchemy import ColumnElement, Text, bindparam, cast, delete, func, or_, update
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from gateway.features.stats.persist import Kind, copy, decode, encode
from gateway.features.stats.tally import Tally
from gateway.rules.roll_distribution import RollDistribution
from gateway.vault.models import RollLog, StatsTally, utcnow

log = structlog.get_logger(__name__)

SETTLE = timedelta(seconds=60)
# Loop time one read-and-fold of the log may take; the loop is given back after it, and before a save
# (a read with its unit and a save in one stretch held the loop 30-45 ms at 0.010: tests.bench.stats).
CHUNK_SECONDS = 0.005
MIN_CHUNK, MAX_CHUNK = 16, 5000
GROWTH = 1.5  # the most one read's size may grow over the last
QUICK_SECONDS = 0.05  # a command folds this long in its own unit; a longer backlog goes to the background
SAVE_EVERY = 2.0  # seconds of background folding between saves of its progress
SAVE_DAYS = 16  # or as many days' tallies changed: each is read, merged and written in the save's unit
MAX_SCOPES = 256
WHOLE = ""  # the ``day`` of a scope's whole-tally row

Shape = Callable[[Mapping[str, Any]], RollDistribution | None]


@dataclass(frozen=True)
class Scope:
    kind: str  # "channel", "person" or "character"
    value: str | int
    system: str

    def where(self) -> list[ColumnElement[bool]]:
        column = {
            "channel": RollLog.channel_key,
            "person": RollLog.person_id,
            "character": RollLog.character_id,
        }
        return [col(column[self.kind]) == self.value, col(RollLog.system) == self.system]

    def key(self) -> list[ColumnElement[bool]]:
        return [
            col(StatsTally.kind) == self.kind,
            col(StatsTally.scope) == str(self.value),
            col(StatsTally.system) == self.system,
        ]


@dataclass(frozen=True)
class Saved:
    """What the vault keeps of a scope: the whole tally through ``through`` (never changed once made)."""

    through: int = 0
    total: Tally = field(default_factory=Tally)
    kinds: Mapping[str, Kind] = field(default_factory=dict)


@dataclass
class Folded:
    """Rows read after a ``Saved``: the settled ones (through ``through``) by day and whole, and
    the rest (``fresh``, from the first unsettled row on), counted but not kept."""

    through: int
    after: int  # the last row read
    total: Tally = field(default_factory=Tally)
    days: dict[date, Tally] = field(default_factory=dict)
    fresh: list[tuple[datetime, RollDistribution | None]] = field(default_factory=list)
    done: bool = False  # the end of the log was reached

    @property
    def kept_rows(self) -> int:
        return self.total.rolls + self.total.other


class _Pace:
    """Rows per read of the log, sized from the time the last reads took per row."""

    def __init__(self) -> None:
        self.rows = 100

    def measured(self, rows: int, seconds: float) -> None:
        if rows >= MIN_CHUNK and seconds > 0:
            wanted = CHUNK_SECONDS * rows / seconds
            # Shrink at once, grow by half at most: rows differ in cost (a contest's result is
            # several times a roll's), and halving the gap after a cheap stretch read 4x the
            # target's time when dear rows came next (tests.bench.stats, 1M rolls).
            self.rows = int(min(MAX_CHUNK, max(MIN_CHUNK, min(wanted, self.rows * GROWTH))))


PACE = _Pace()

# Decoded whole tallies by scope, per vault: a tally ``through`` an id is the same in every process,
# so one whose ``through`` the vault still shows need not be decoded again.
_DECODED: weakref.WeakKeyDictionary[Any, OrderedDict[Scope, Saved]] = weakref.WeakKeyDictionary()


def _utc(moment: datetime) -> datetime:
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def forget(owner: Any) -> None:
    """Drop this process's decoded tallies of ``owner`` (the vault's stay: see ``drop``)."""
    _DECODED.pop(owner, None)


async def drop(session: AsyncSession, owner: Any) -> None:
    """Delete every kept tally of the vault (benchmarks, tests: a cold read), and this process's."""
    forget(owner)
    await session.exec(delete(StatsTally))  # type: ignore[call-overload]


def _remember(owner: Any, scope: Scope, saved: Saved) -> None:
    scopes = _DECODED.setdefault(owner, OrderedDict())
    scopes.pop(scope, None)
    scopes[scope] = saved
    while len(scopes) > MAX_SCOPES:
        scopes.popitem(last=False)


def _saved(owner: Any, scope: Scope, through: int, data: str) -> Saved:
    scopes = _DECODED.get(owner)
    known = scopes.get(scope) if scopes is not None else None
    if known is not None and known.through == through:
        return known
    total, kinds = decode(data)
    saved = Saved(through, total, kinds)
    _remember(owner, scope, saved)
    return saved


async def load(
    session: AsyncSession, owner: Any, scope: Scope, after_day: date | None = None
) -> tuple[Saved, dict[date, Tally]]:
    """The scope's kept tally, and (``after_day``) its kept days after that day, read in one
    statement so that the two agree."""
    query = select(StatsTally.day, StatsTally.through, StatsTally.data).where(*scope.key())
    if after_day is None:
        query = query.where(col(StatsTally.day) == WHOLE)
    else:
        query = query.where(or_(col(StatsTally.day) == WHOLE, col(StatsTally.day) > after_day.isoformat()))
    rows = list((await session.exec(query)).all())
    head = next((r for r in rows if r[0] == WHOLE), None)
    if head is None:
        return Saved(), {}
    newest = (await session.exec(select(func.max(RollLog.id)))).one() or 0
    if newest < head[1]:  # the log is shorter than the tally: a restored or replaced vault
        await session.exec(delete(StatsTally).where(*scope.key()))  # type: ignore[call-overload]
        forget(owner)
        return Saved(), {}
    saved = _saved(owner, scope, head[1], head[2])
    days = {date.fromisoformat(d): decode(data, saved.kinds)[0] for d, _, data in rows if d != WHOLE}
    return saved, days


# The result as its stored text, parsed here by orjson: SQLAlchemy's JSON type (the standard
# library's json) took about half the time of counting a roll on a first, whole-log read.
RESULT_TEXT = cast(col(RollLog.result), Text)


def _roll(system: str, text: str | None) -> Mapping[str, Any]:
    try:
        result = orjson.loads(text) if text else None
    except orjson.JSONDecodeError:
        result = None
    return {**(result if isinstance(result, dict) else {}), "system": system}


async def _rows(
    session: AsyncSession, where: Iterable[ColumnElement[bool]], after: int, limit: int
) -> list[Any]:
    query = (
        select(RollLog.id, RollLog.created_at, RollLog.system, RESULT_TEXT)
        .where(*where, col(RollLog.id) > after)
        .order_by(col(RollLog.id))
        .limit(limit)
    )
    return list((await session.exec(query)).all())


async def read_chunk(
    session: AsyncSession, scope: Scope, shape: Shape, folded: Folded, settled: datetime
) -> int:
    """Read and fold the next rows after ``folded.after`` (about ``CHUNK_SECONDS`` of them)."""
    began = time.perf_counter()
    limit = PACE.rows
    rows = await _rows(session, scope.where(), folded.after, limit)
    for row_id, created, system, result in rows:
        created = _utc(created)
        seen = shape(_roll(system, result))
        if not folded.fresh and created < settled:
            folded.days.setdefault(created.date(), Tally()).add(seen)
            folded.total.add(seen)
            folded.through = row_id
        else:
            folded.fresh.append((created, seen))
        folded.after = row_id
    if len(rows) < limit:
        folded.done = True
    PACE.measured(len(rows), time.perf_counter() - began)
    return len(rows)


def _insert(session: AsyncSession) -> Any:
    assert session.bind is not None
    return postgresql_insert if session.bind.dialect.name == "postgresql" else sqlite_insert


async def save(session: AsyncSession, owner: Any, scope: Scope, saved: Saved, folded: Folded) -> Saved | None:
    """Keep what ``folded`` settled on top of ``saved``: the new ``Saved``, or None when another
    fold moved the scope's tally on since ``saved`` was read (nothing is written then)."""
    if folded.through == saved.through:
        return saved
    total = copy(saved.total)
    total.merge(folded.total)
    data = encode(total, kinds=True)
    now = utcnow()
    if saved.through == 0:
        insert = _insert(session)(StatsTally).values(
            kind=scope.kind,
            scope=str(scope.value),
            system=scope.system,
            day=WHOLE,
            through=folded.through,
            data=data,
            updated_at=now,
        )
        moved = await session.exec(insert.on_conflict_do_nothing())  # type: ignore[call-overload]
    else:
        guarded = (
            update(StatsTally)
            .where(*scope.key(), col(StatsTally.day) == WHOLE, col(StatsTally.through) == saved.through)
            .values(through=folded.through, data=data, updated_at=now)
        )
        moved = await session.exec(guarded)  # type: ignore[call-overload]
    if moved.rowcount != 1:
        return None
    # The whole row is ours until the unit ends (PostgreSQL's row lock, SQLite's write lock), and
    # every day's row changes only with it: the days read now are those of ``saved``.
    fresh, kinds = decode(data)
    names = [d.isoformat() for d in folded.days]
    query = select(StatsTally.day, StatsTally.data).where(*scope.key(), col(StatsTally.day).in_(names))
    stored = {d: decode(text, kinds)[0] for d, text in (await session.exec(query)).all()}
    rows = []
    for day, counted in folded.days.items():
        merged = stored.get(day.isoformat()) or Tally()
        merged.merge(counted)
        rows.append({"day": day.isoformat(), "data": encode(merged, kinds=False)})
    if rows:
        insert = _insert(session)(StatsTally).values(
            kind=scope.kind,
            scope=str(scope.value),
            system=scope.system,
            day=bindparam("day"),
            through=folded.through,
            data=bindparam("data"),
            updated_at=now,
        )
        upsert = insert.on_conflict_do_update(
            index_elements=["kind", "scope", "system", "day"],
            set_={"through": insert.excluded.through, "data": insert.excluded.data, "updated_at": now},
        )
        await session.exec(upsert, params=rows)  # type: ignore[call-overload]  # one executemany
    new = Saved(folded.through, fresh, kinds)
    _remember(owner, scope, new)
    return new


async def quick(
    session: AsyncSession,
    owner: Any,
    scope: Scope,
    shape: Shape,
    now: datetime,
    since: datetime | None,
    seconds: float | None,
) -> Tally | Progress:
    """The scope's rolls (at ``since`` or later), counted in this unit; how far the count is when
    more rows are left to fold than ``seconds`` of reading (None: no bound) covers (``Folds``
    folds them)."""
    first_day = since.astimezone(UTC).date() if since else None
    saved, days = await load(session, owner, scope, first_day)
    folded = Folded(saved.through, saved.through)
    began = time.perf_counter()
    settled = now - SETTLE
    while True:
        await read_chunk(session, scope, shape, folded, settled)
        if folded.done:
            break
        if seconds is not None and time.perf_counter() - began > seconds:
            await asyncio.sleep(0)
            await save(session, owner, scope, saved, folded)  # progress, for whoever folds next
            newest = (await session.exec(select(func.max(RollLog.id)))).one() or 0
            kept = saved.total.rolls + saved.total.other + folded.kept_rows
            read = folded.kept_rows + len(folded.fresh)
            density = min(1.0, read / max(1, folded.after - saved.through))
            return Progress(kept, kept + int(max(0, newest - folded.after) * density))
        await asyncio.sleep(0)
    await asyncio.sleep(0)
    await save(session, owner, scope, saved, folded)  # lost to another fold: answer from what was read
    return await _answer(session, scope, shape, saved, days, folded, since, first_day)


async def _answer(
    session: AsyncSession,
    scope: Scope,
    shape: Shape,
    saved: Saved,
    days: Mapping[date, Tally],
    folded: Folded,
    since: datetime | None,
    first_day: date | None,
) -> Tally:
    out = Tally()
    if since is None or first_day is None:
        out.merge(saved.total)
        out.merge(folded.total)
    else:
        for kept in (days, folded.days):
            for day, counted in kept.items():
                if day > first_day:
                    out.merge(counted)
        last = first_day >= date.max  # ``--since 9999-12-31``: no day after it
        day_end = (
            datetime.max.replace(tzinfo=UTC)
            if last
            else datetime.combine(first_day + timedelta(days=1), day_time(0), tzinfo=UTC)
        )
        query = (
            select(RollLog.system, RESULT_TEXT)
            .where(*scope.where(), col(RollLog.created_at) >= since, col(RollLog.created_at) < day_end)
            .where(col(RollLog.id) <= folded.through)
        )
        for system, result in (await session.exec(query)).all():
            out.add(shape(_roll(system, result)))
    for created, seen in folded.fresh:
        if since is None or created >= since:
            out.add(seen)
    return out


async def tally(
    session: AsyncSession, owner: Any, scope: Scope, shape: Shape, now: datetime, since: datetime | None
) -> Tally:
    """The scope's rolls (at ``since`` or later), counted in this unit however many rows that reads
    (tests; ``stats`` itself uses ``quick`` and ``Folds``)."""
    counted = await quick(session, owner, scope, shape, now, since, None)
    assert isinstance(counted, Tally)
    return counted


@dataclass(frozen=True)
class Progress:
    """A count not finished: rows kept so far, of about ``expected``."""

    kept: int
    expected: int


@dataclass
class Fold:
    """One scope's background fold: how far it is (rows kept so far, of about ``expected``)."""

    scope: Scope
    kept: int = 0
    expected: int = 0
    task: asyncio.Task[None] | None = None


class Folds:
    """The background folds of one vault in this process: one task per scope, kept referenced
    until it ends; ``stop`` cancels them (what they saved stays, and the next fold continues it)."""

    def __init__(self, vault: Any) -> None:
        self.vault = vault
        self.running: dict[Scope, Fold] = {}

    def ensure(
        self, scope: Scope, shape: Shape, clock: Callable[[], datetime], known: Progress | None = None
    ) -> Fold:
        """The scope's fold, started unless running; ``known``: how far the caller saw it."""
        fold = self.running.get(scope)
        if fold is None:
            fold = self.running[scope] = Fold(scope)
            if known is not None:
                fold.kept, fold.expected = known.kept, known.expected
            # A context of its own: not the command's (its unit, its log fields).
            task = asyncio.get_running_loop().create_task(self._run(fold, shape, clock), context=Context())
            fold.task = task
            task.add_done_callback(lambda _: self.running.pop(scope, None))
        return fold

    async def _run(self, fold: Fold, shape: Shape, clock: Callable[[], datetime]) -> None:
        try:
            while not await self._pass(fold, shape, clock):
                pass  # another fold moved the tally on: start again from what it kept
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("stats fold failed", scope=fold.scope.kind, system=fold.scope.system)

    async def _pass(self, fold: Fold, shape: Shape, clock: Callable[[], datetime]) -> bool:
        scope = fold.scope
        async with self.vault.transaction() as session:
            saved, _ = await load(session, self.vault, scope)
            newest = (await session.exec(select(func.max(RollLog.id)))).one() or 0
        start = saved.through
        folded = Folded(saved.through, saved.through)
        base_rows = saved.total.rolls + saved.total.other
        last_save = time.monotonic()
        while True:
            async with self.vault.transaction() as session:
                await read_chunk(session, scope, shape, folded, clock() - SETTLE)
            read = folded.kept_rows + len(folded.fresh)
            fold.kept = base_rows + folded.kept_rows
            density = read / max(1, folded.after - start)
            fold.expected = fold.kept + int(max(0, newest - folded.after) * min(1.0, density))
            finished = folded.done or bool(folded.fresh)
            due = time.monotonic() - last_save >= SAVE_EVERY or len(folded.days) >= SAVE_DAYS
            if finished or due:
                await asyncio.sleep(0)
                async with self.vault.transaction() as session:
                    moved = await save(session, self.vault, scope, saved, folded)
                if moved is None:
                    return False
                if finished:
                    return True
                saved, base_rows = moved, moved.total.rolls + moved.total.other
                folded = Folded(moved.through, folded.after)
                start, last_save = folded.after, time.monotonic()
                newest = max(newest, folded.after)
            await asyncio.sleep(0)

    async def stop(self) -> None:
        tasks = [f.task for f in self.running.values() if f.task is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


_FOLDS: weakref.WeakKeyDictionary[Any, Folds] = weakref.WeakKeyDictionary()


def folds(vault: Any) -> Folds:
    known = _FOLDS.get(vault)
    if known is None:
        known = _FOLDS[vault] = Folds(vault)
    return known


async def stop_folds(vault: Any) -> None:
    """Cancel the vault's background folds in this process (``Gateway.stop``)."""
    known = _FOLDS.pop(vault, None)
    if known is not None:
        await known.stop()
