"""Experience and Humanity: "Стоимость 1 пункта Гуманности равна 10 очкам опыта" (of 10 at most).
A Storyteller awards experience with ``st set NAME xp N``."""

from __future__ import annotations

from gateway import CommandContext, CommandSet, Invocation, Reply
from plugins.nightwanderers import tactics
from plugins.nightwanderers.commands import SYSTEM, fail, my_actor, t
from plugins.nightwanderers.registry import command

COMMANDS = CommandSet(SYSTEM)


@command(
    COMMANDS,
    "humanity buy",
    "buy Humanity with experience: 10 XP a point, 10 at most",
    "humanity buy [N]",
    ("купить Гуманность за опыт: 10 очков опыта за пункт, не выше 10", "humanity buy [N]"),
)
async def humanity_buy_command(ctx: CommandContext, inv: Invocation) -> Reply:
    points: int = inv.args.get("amount", 1)  # at least 1 (``params``)
    actor = await my_actor(ctx, able=False)
    assert actor is not None
    sheet = actor.sheet
    if sheet.humanity + points > tactics.HUMANITY_MAX:
        raise fail(
            ctx, "err.humanity_max", name=actor.name, humanity=sheet.humanity, max=tactics.HUMANITY_MAX
        )
    cost = tactics.humanity_cost(points)
    if sheet.xp < cost:
        raise fail(ctx, "err.humanity_xp", name=actor.name, xp=sheet.xp, cost=cost)
    old = sheet.humanity
    sheet.xp -= cost
    sheet.humanity += points
    actor.save_sheet(ctx)
    await ctx.audit("humanity.buy", character_id=actor.id, field_name="humanity", old=old, new=sheet.humanity)
    text = t(
        ctx, "humanity.bought", name=actor.name, n=points, cost=cost, humanity=sheet.humanity, xp=sheet.xp
    )
    result = {
        "kind": "sheet_change",
        "system": SYSTEM,
        "humanity": sheet.humanity,
        "xp": sheet.xp,
        "spent": cost,
    }
    await ctx.stlog(text, kind="xp", result=result, character_id=actor.id)
    return Reply(text=text, result=result)
