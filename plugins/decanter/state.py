"""Vault access only Decanter needs: every Decanter character locked, the Story Point pool kept at
its cap, the latest roll of a character (per-channel documents are ``gateway.scene``)."""

from __future__ import annotations

from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from gateway.vault.models import Character, Pool, RollLog


async def characters_of(session: AsyncSession, system: str) -> list[Character]:
    found = await session.exec(
        select(Character).where(col(Character.system) == system).order_by(col(Character.id)).with_for_update()
    )
    return list(found.all())


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
