"""Tallies of the roll log, kept as they are read so that a second ``stats`` costs only the rolls
logged since the first.

The roll log only grows, so each scope's tally (a channel's, a person's or a character's rolls of one
system) is kept per UTC day with the id of the last row folded in; a call reads the rows after that
id (a primary-key range) and folds them in. Rows younger than ``SETTLE`` are counted for the answer
but not kept: a unit still open on another node may yet commit a smaller id, which a kept tally
would never see. ``--since`` takes whole kept days after its own day, and reads its own day's rows
from the log (an indexed time range). The first call over a large log reads it all once; the
tallies live in the process (``MAX_SCOPES`` of them per vault, least recently used dropped), and
a vault whose log is shorter than a kept tally (restored, replaced) starts again.
"""

from __future__ import annotations

import asyncio
import weakref
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

import orjson
from sqlalchemy import ColumnElement, Text, cast, func
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from gateway.rules.roll_distribution import RollDistribution
from gateway.stats.tally import Tally
from gateway.vault.models import RollLog

SETTLE = timedelta(seconds=60)
CHUNK = 1000  # rows per read of the log: the event loop is given back between reads
MAX_SCOPES = 256

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


@dataclass
class Kept:
    through: int = 0  # the id of the last row folded into ``days``
    days: dict[date, Tally] = field(default_factory=dict)
    total: Tally = field(default_factory=Tally)  # every day's, for the asks without --since
    # Two asks of one scope at once would otherwise both fold the rows after ``through``.
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)


_KEPT: weakref.WeakKeyDictionary[Any, OrderedDict[Scope, Kept]] = weakref.WeakKeyDictionary()


def _utc(moment: datetime) -> datetime:
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def _kept(owner: Any, scope: Scope) -> Kept:
    scopes = _KEPT.setdefault(owner, OrderedDict())
    kept = scopes.pop(scope, None) or Kept()
    scopes[scope] = kept
    while len(scopes) > MAX_SCOPES:
        scopes.popitem(last=False)
    return kept


def forget(owner: Any) -> None:
    """Drop every kept tally of ``owner`` (tests, benchmarks: a cold read)."""
    _KEPT.pop(owner, None)


# The result as its stored text, parsed here by orjson: SQLAlchemy's JSON type (the standard
# library's json) took about half the time of counting a roll on a first, whole-log read.
RESULT_TEXT = cast(col(RollLog.result), Text)


def _roll(system: str, text: str | None) -> Mapping[str, Any]:
    try:
        result = orjson.loads(text) if text else None
    except orjson.JSONDecodeError:
        result = None
    return {**(result if isinstance(result, dict) else {}), "system": system}


async def _rows(session: AsyncSession, where: Iterable[ColumnElement[bool]], after: int) -> list[Any]:
    query = (
        select(RollLog.id, RollLog.created_at, RollLog.system, RESULT_TEXT)
        .where(*where, col(RollLog.id) > after)
        .order_by(col(RollLog.id))
        .limit(CHUNK)
    )
    return list((await session.exec(query)).all())


async def tally(
    session: AsyncSession, owner: Any, scope: Scope, shape: Shape, now: datetime, since: datetime | None
) -> Tally:
    """The scope's rolls (at ``since`` or later), counted. ``owner`` keys the kept tallies (the
    vault); ``shape`` is the ``gateway_roll_distribution`` hook."""
    kept = _kept(owner, scope)
    async with kept.lock:
        return await _tally(session, kept, scope, shape, now, since)


async def _tally(
    session: AsyncSession, kept: Kept, scope: Scope, shape: Shape, now: datetime, since: datetime | None
) -> Tally:
    newest = (await session.exec(select(func.max(RollLog.id)))).one() or 0
    if newest < kept.through:
        kept.through, kept.days, kept.total = 0, {}, Tally()
    settled = now - SETTLE
    fresh: list[tuple[datetime, RollDistribution | None]] = []
    after = kept.through
    while True:
        rows = await _rows(session, scope.where(), after)
        for row_id, created, system, result in rows:
            created = _utc(created)
            seen = shape(_roll(system, result))
            if not fresh and created < settled:
                kept.days.setdefault(created.date(), Tally()).add(seen)
                kept.total.add(seen)
                kept.through = row_id
            else:
                fresh.append((created, seen))
            after = row_id
        if len(rows) < CHUNK:
            break
    out = Tally()
    first_day = since.astimezone(UTC).date() if since else None
    if first_day is None:
        out.merge(kept.total)
    for day, counted in kept.days.items():
        if first_day is not None and day > first_day:
            out.merge(counted)
    if since is not None and first_day is not None:
        last = first_day >= date.max  # ``--since 9999-12-31``: no day after it
        day_end = (
            datetime.max.replace(tzinfo=UTC)
            if last
            else datetime.combine(first_day + timedelta(days=1), time(0), tzinfo=UTC)
        )
        query = (
            select(RollLog.system, RESULT_TEXT)
            .where(*scope.where(), col(RollLog.created_at) >= since, col(RollLog.created_at) < day_end)
            .where(col(RollLog.id) <= kept.through)
        )
        for system, result in (await session.exec(query)).all():
            out.add(shape(_roll(system, result)))
    for created, seen in fresh:
        if since is None or created >= since:
            out.add(seen)
    return out
