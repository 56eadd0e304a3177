"""Where a roller's retry record is kept (the rules are ``retries.py``): a ``SceneState`` document
``retry:<roller>`` per channel."""

from __future__ import annotations

from gateway import CommandContext
from gateway.core import scene
from gateway.vault.models import Character, SceneState
from plugins.dramatic import retries
from plugins.dramatic.mechanics import SYSTEM
from plugins.dramatic.parse import SideRequest


def retry_kind(ctx: CommandContext, character: Character | None) -> str:
    return f"retry:{scene.roller_key(ctx, character)}"


async def load(ctx: CommandContext, character: Character | None, *, lock: bool = True) -> SceneState | None:
    return await scene.get(ctx.session, ctx.channel.key, SYSTEM, retry_kind(ctx, character), lock=lock)


async def plan(
    ctx: CommandContext, side: SideRequest, retry: bool, character: Character | None, who: str, lock: bool
) -> tuple[retries.Retry, SceneState | None]:
    """The retry this roll asks for (``retries.plan``), with the record's row."""
    row = await load(ctx, character, lock=lock)
    return retries.plan(row.data if row is not None else None, side, retry, who), row


async def record(
    ctx: CommandContext,
    character: Character | None,
    row: SceneState | None,
    plan_: retries.Retry,
    degree: str,
    who: str,
    base: int,
    action: str,
) -> None:
    """After the roll: a success ends the record, a botch closes it, a failure counts one more."""
    data = retries.after(plan_, degree, who, base, action)
    if data is None:
        if row is not None:
            await ctx.session.delete(row)
        return
    await scene.put(ctx.session, ctx.channel.key, SYSTEM, retry_kind(ctx, character), data, ctx.now)
