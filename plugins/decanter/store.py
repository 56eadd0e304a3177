"""Vault access only Decanter needs: the Story Point pool kept at its cap, every Decanter character
locked, the latest roll of a character (per-channel documents are ``gateway.core.scene``)."""

from __future__ import annotations

from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from gateway import CommandContext
from gateway.features.characters import pool_value
from gateway.vault import repo
from gateway.vault.models import Character, Pool, RollLog
from plugins.decanter.config import DecanterSettings
from plugins.decanter.sheet import SCHEMA, SP, DecanterSheet


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


async def story_points(ctx: CommandContext, character_id: int) -> tuple[int, int]:
    """(current, cap) of the character's Story Points, the pool made or re-capped to the setting first."""
    cap = ctx.settings_for(DecanterSettings).story_point_cap
    await ensure_pool(ctx.session, character_id, SP, cap)
    return await pool_value(ctx.session, character_id, SP) or (0, cap)


async def gain_story_points(ctx: CommandContext, character_id: int, amount: int) -> tuple[int, int, int]:
    """Gain ``amount`` Story Points atomically under the cap: (now, cap, lost over the cap)."""
    before, cap = await story_points(ctx, character_id)
    await repo.gain_pool(ctx.session, character_id, SP, amount)
    after, _ = await pool_value(ctx.session, character_id, SP) or (0, cap)
    return after, cap, max(before + amount - after, 0)


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


def store_sheet(ctx: CommandContext, character: Character, data: DecanterSheet) -> None:
    """Write a changed sheet back (the character locked by the caller)."""
    character.sheet = SCHEMA.dump(data)
    character.updated_at = ctx.now
    ctx.session.add(character)
