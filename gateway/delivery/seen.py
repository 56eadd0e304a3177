"""Marks of messages already seen, for adapters that refuse a message twice themselves (Second Life
replay marks: a signature used once is never accepted again) or keep request ids for a while (the
HTTP API's idempotency keys). The router's own dedupe uses the same table (``repo.seen_message``).

A mark is ``(platform, message id)``; ids longer than the column are kept as ``sha256:<hex>`` of the
whole id (``repo.message_key``), so ``recent`` returns what was stored.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import bindparam, delete, select

from gateway.vault.models import ProcessedMessage
from gateway.vault.prepared import Prepared
from gateway.vault.repo import Db, seen_message, within

__all__ = ["Db", "mark", "prune", "recent"]

_MARK = ProcessedMessage.__table__  # type: ignore[attr-defined]
RECENT = Prepared(
    select(_MARK.c.message_id).where(
        _MARK.c.platform == bindparam("on_platform"), _MARK.c.created_at >= bindparam("since")
    )
)
PRUNE = Prepared(
    delete(_MARK).where(
        _MARK.c.platform == bindparam("on_platform"), _MARK.c.created_at < bindparam("before")
    )
)


async def mark(db: Db, platform: str, message_id: str, now: datetime) -> bool:
    """Record the message as seen; False when it was already (to this process or another, before or
    after a restart). Atomic: on PostgreSQL a unit marking the same id in another process makes this
    wait for that unit's outcome."""
    async with within(db) as unit:
        return not await seen_message(unit, platform, message_id, now=now)


async def recent(db: Db, platform: str, since: datetime) -> list[str]:
    """The stored ids of the platform's marks made at ``since`` or later."""
    async with within(db) as unit:
        found = await unit.all(RECENT, {"on_platform": platform, "since": since})
    return [str(message_id) for (message_id,) in found]


async def prune(db: Db, platform: str, before: datetime) -> int:
    """Remove the platform's marks made before ``before``; how many went."""
    async with within(db) as unit:
        return await unit.execute(PRUNE, {"on_platform": platform, "before": before})
