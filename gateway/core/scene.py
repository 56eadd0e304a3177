"""Per-channel documents of a rule system (``SceneState``): an initiative order, a running contest, a
retry record. One row per (channel, system, kind), written in the command's own transaction, so it
survives a restart. JSON columns are not mutation-tracked: every write stores a new dict.

``get``/``put`` take the place explicitly and read the row ``FOR UPDATE`` by default (a
read-modify-write on PostgreSQL); ``load``/``save``/``drop`` are the handler's shorthand for its own
channel and system, reading the row through the session (no lock).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlmodel import col, delete, select
from sqlmodel.ext.asyncio.session import AsyncSession

from gateway.core.commands import CommandContext
from gateway.vault.models import Character, SceneState


def roller_key(ctx: CommandContext, character: Character | None) -> str:
    """Who a per-roller document belongs to: ``c12`` for a character, ``p3`` for a person rolling bare."""
    return f"c{character.id}" if character is not None else f"p{ctx.person.id}"


async def get(
    session: AsyncSession, channel: str, system: str, kind: str, *, lock: bool = True
) -> SceneState | None:
    if not lock:
        return await session.get(SceneState, (channel, system, kind))
    found = await session.exec(
        select(SceneState)
        .where(
            col(SceneState.channel_key) == channel,
            col(SceneState.system) == system,
            col(SceneState.kind) == kind,
        )
        .with_for_update()
    )
    return found.first()


async def put(
    session: AsyncSession,
    channel: str,
    system: str,
    kind: str,
    data: dict[str, Any],
    now: datetime,
    *,
    lock: bool = True,
) -> None:
    """Write the document, making the row when there is none."""
    row = await get(session, channel, system, kind, lock=lock)
    if row is None:
        row = SceneState(channel_key=channel, system=system, kind=kind, data=dict(data), updated_at=now)
    else:
        row.data = dict(data)
        row.updated_at = now
    session.add(row)


async def delete_prefixed(session: AsyncSession, channel: str, system: str, kind_prefix: str) -> int:
    """Delete this channel's documents whose kind starts with ``kind_prefix``; how many went."""
    stmt = delete(SceneState).where(
        col(SceneState.channel_key) == channel,
        col(SceneState.system) == system,
        col(SceneState.kind).startswith(kind_prefix),
    )
    result = await session.exec(stmt)  # type: ignore[call-overload]
    return int(result.rowcount or 0)


async def list_prefixed(
    session: AsyncSession, channel: str, system: str, kind_prefix: str
) -> list[SceneState]:
    """This channel's documents whose kind starts with ``kind_prefix``, by kind."""
    found = await session.exec(
        select(SceneState)
        .where(
            col(SceneState.channel_key) == channel,
            col(SceneState.system) == system,
            col(SceneState.kind).startswith(kind_prefix),
        )
        .order_by(col(SceneState.kind))
    )
    return list(found.all())


async def load(ctx: CommandContext, kind: str) -> dict[str, Any] | None:
    """A copy of the document of ``kind`` in the handler's channel and system, or None."""
    row = await get(ctx.session, ctx.channel.key, ctx.system.name, kind, lock=False)
    return dict(row.data) if row is not None else None


async def save(ctx: CommandContext, kind: str, data: dict[str, Any]) -> None:
    await put(ctx.session, ctx.channel.key, ctx.system.name, kind, data, ctx.now, lock=False)


async def drop(ctx: CommandContext, kind: str) -> None:
    row = await get(ctx.session, ctx.channel.key, ctx.system.name, kind, lock=False)
    if row is not None:
        await ctx.session.delete(row)
