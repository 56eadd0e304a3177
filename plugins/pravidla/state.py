"""Per-channel Pravidla state (tug of war, initiative) as ``SceneState`` documents: it survives a
restart and is written in the command's own transaction."""

from __future__ import annotations

from typing import Any

from gateway.commands import CommandContext
from gateway.vault.models import SceneState
from plugins.pravidla.mechanics import SYSTEM


async def load(ctx: CommandContext, kind: str) -> dict[str, Any] | None:
    row = await ctx.session.get(SceneState, (ctx.channel.key, SYSTEM, kind))
    return dict(row.data) if row is not None else None


async def save(ctx: CommandContext, kind: str, data: dict[str, Any]) -> None:
    row = await ctx.session.get(SceneState, (ctx.channel.key, SYSTEM, kind))
    if row is None:
        row = SceneState(channel_key=ctx.channel.key, system=SYSTEM, kind=kind, data=data, updated_at=ctx.now)
    else:
        row.data = dict(data)  # a new dict: JSON columns are not mutation-tracked
        row.updated_at = ctx.now
    ctx.session.add(row)


async def drop(ctx: CommandContext, kind: str) -> None:
    row = await ctx.session.get(SceneState, (ctx.channel.key, SYSTEM, kind))
    if row is not None:
        await ctx.session.delete(row)
