"""Vault access the Dramatic Systems commands share: per-channel documents, locked sheets, pools."""

from __future__ import annotations

from typing import Any

from sqlmodel import col, delete, select
from sqlmodel.ext.asyncio.session import AsyncSession

from gateway.vault.models import Character, Pool, SceneState


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


async def pool_value(session: AsyncSession, character_id: int, name: str) -> tuple[int, int] | None:
    """(current, maximum) read from the database, not the session's cache."""
    found = await session.exec(
        select(Pool.current, Pool.maximum).where(
            col(Pool.character_id) == character_id, col(Pool.name) == name
        )
    )
    row = found.first()
    return None if row is None else (int(row[0]), int(row[1]))


async def scene_list(session: AsyncSession, channel: str, system: str, kind_prefix: str) -> list[SceneState]:
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
