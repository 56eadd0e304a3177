"""Vault access the Decanter commands share: per-channel documents, locked sheets, the latest roll."""

from __future__ import annotations

from typing import Any

from sqlmodel import col, delete, select
from sqlmodel.ext.asyncio.session import AsyncSession

from gateway.vault.models import Character, Pool, RollLog, SceneState


async def scene_get(session: AsyncSession, channel: str, system: str, kind: str) -> SceneState | None:
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


async def scene_put(
    session: AsyncSession, channel: str, system: str, kind: str, data: dict[str, Any], now: Any
) -> None:
    row = await scene_get(session, channel, system, kind)
    if row is None:
        session.add(SceneState(channel_key=channel, system=system, kind=kind, data=data, updated_at=now))
    else:
        row.data = data
        row.updated_at = now
        session.add(row)


async def scene_delete(session: AsyncSession, channel: str, system: str, kind_prefix: str) -> int:
    """Delete this channel's documents whose kind starts with ``kind_prefix``; how many went."""
    stmt = delete(SceneState).where(
        col(SceneState.channel_key) == channel,
        col(SceneState.system) == system,
        col(SceneState.kind).startswith(kind_prefix),
    )
    result = await session.exec(stmt)  # type: ignore[call-overload]
    return int(result.rowcount or 0)


async def locked_character(session: AsyncSession, character_id: int) -> Character:
    """The character row re-read under a row lock, for a read-modify-write of its sheet."""
    character = await session.get(Character, character_id, with_for_update=True, populate_existing=True)
    assert character is not None
    return character


async def characters_of(session: AsyncSession, system: str) -> list[Character]:
    found = await session.exec(
        select(Character).where(col(Character.system) == system).order_by(col(Character.id)).with_for_update()
    )
    return list(found.all())


async def pool_value(session: AsyncSession, character_id: int, name: str) -> tuple[int, int] | None:
    """(current, maximum) read from the database, not the session's cache."""
    found = await session.exec(
        select(Pool.current, Pool.maximum).where(
            col(Pool.character_id) == character_id, col(Pool.name) == name
        )
    )
    row = found.first()
    return None if row is None else (int(row[0]), int(row[1]))


async def ensure_pool(session: AsyncSession, character_id: int, name: str, maximum: int) -> None:
    """Make sure the pool exists and its maximum follows the setting."""
    pool = await session.get(Pool, (character_id, name), populate_existing=True)
    if pool is None:
        session.add(Pool(character_id=character_id, name=name, current=0, maximum=maximum))
    elif pool.maximum != maximum:
        pool.maximum = maximum
        pool.current = min(pool.current, maximum)
        session.add(pool)
    await session.flush()


async def latest_roll(session: AsyncSession, character_id: int, channel: str, system: str) -> RollLog | None:
    found = await session.exec(
        select(RollLog)
        .where(
            col(RollLog.character_id) == character_id,
            col(RollLog.channel_key) == channel,
            col(RollLog.system) == system,
        )
        .order_by(col(RollLog.id).desc())
        .limit(1)
    )
    return found.first()
