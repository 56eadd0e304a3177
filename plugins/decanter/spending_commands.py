"""Decanter's Story Points spent on the book's uses other than the Roll Bonus (``sp spend``), given
back by a Storyteller (``sp refund``), and the end of a story arc (``story end``)."""

from __future__ import annotations

from typing import Any

from gateway import CommandContext, CommandSet, Invocation, Reply, UserError
from gateway.features.characters import lock_character, require_active
from gateway.vault import repo
from plugins.decanter import store, uses
from plugins.decanter.characters_commands import CHARACTERS
from plugins.decanter.mechanics import SYSTEM
from plugins.decanter.messages import t
from plugins.decanter.sheet import SCHEMA, SP, Spend

COMMANDS = CommandSet(SYSTEM)


@COMMANDS.command(
    "sp spend",
    "spend Story Points (or XP) on a Declaration, advice, a clue, a Debt, a flashback, a secret or resisting",
    "sp spend USE ... [xp]",
)
async def sp_spend_command(ctx: CommandContext, inv: Invocation) -> Reply:
    use = uses.parse_use(list(inv.words))
    character = await require_active(ctx, SYSTEM)
    assert character.id is not None
    character = await lock_character(ctx.session, character.id)
    assert character.id is not None
    data = SCHEMA.load(character.sheet)
    points = use.points
    params: dict[str, Any] = {"n": use.points, "npc": use.npc, "status": use.status}
    key = ""
    if use.use in ("debt", "secret"):
        key = uses.arc_key(use.use, use.npc)
        earlier = data.arc.get(key, 0)
        points = uses.debt_cost(use.status, earlier)
        params["earlier"] = earlier
        data = data.model_copy(update={"arc": {**data.arc, key: earlier + 1}})
    elif use.use == "resist":
        found = next((c for c in data.conditions if c.name.casefold() == use.condition.casefold()), None)
        if found is None:
            raise UserError(f"{character.name} has no Condition called {use.condition[:60]!r}.")
        points = use.points or found.resist
        if points < 1:
            raise UserError(
                f"{found.name} has no resist cost: write sp spend resist {found.name} N"
                " (often the DC minus the successes)."
            )
        params["cname"] = found.name
    if use.xp:
        xp = points * uses.XP_PER_POINT
        if xp > data.xp:
            raise UserError(f"{character.name} has {data.xp} XP, not {xp}.")
        data = data.model_copy(update={"xp": data.xp - xp})
        price, left = t(ctx, "paid.xp_only", n=xp), t(ctx, "paid.xp_only", n=data.xp)
    else:
        current, _ = await store.story_points(ctx, character.id)
        if not await repo.spend_pool(ctx.session, character.id, SP, points):
            raise UserError(
                f"{character.name} has {current} Story Points, not {points}"
                f" (or pay {points * uses.XP_PER_POINT} XP: add xp)."
            )
        price, left = t(ctx, "paid.sp", n=points), t(ctx, "paid.sp", n=current - points)
    spent = Spend(
        use=use.use,
        points=0 if use.xp else points,
        xp=points * uses.XP_PER_POINT if use.xp else 0,
        arc_key=key,
    )
    data = data.model_copy(update={"last_spend": spent})
    store.store_sheet(ctx, character, data)
    what = t(ctx, f"use.{use.use}", **params)
    note = t(ctx, "use.note", note=use.note) if use.note else ""
    text = t(ctx, "sp.spent", name=character.name, price=price, what=what, note=note, left=left)
    if use.use in ("advice", "clue", "declaration", "debt", "secret"):
        text += " " + t(ctx, "sp.refundable")
    result = {
        "kind": "story_point_use",
        "system": SYSTEM,
        "character": character.name,
        "use": use.use,
        "points": points,
        "xp": points * uses.XP_PER_POINT if use.xp else 0,
        "npc": use.npc or None,
        "condition": params.get("cname"),
        "note": use.note,
    }
    await ctx.stlog(text, kind="story_points", result=result, character_id=character.id)
    return Reply(text=text, result=result)


@COMMANDS.command(
    "sp refund",
    "give back a character's latest sp spend (no useful advice or clue, a vetoed Declaration or Debt)",
    "sp refund NAME",
    role="storyteller",
)
async def sp_refund_command(ctx: CommandContext, inv: Invocation) -> Reply:
    character = await CHARACTERS.named(ctx, " ".join(inv.args["name"]))
    assert character.id is not None
    character = await lock_character(ctx.session, character.id)
    assert character.id is not None
    data = SCHEMA.load(character.sheet)
    spent = data.last_spend
    if spent is None:
        raise UserError(f"{character.name} has no sp spend to give back.")
    update: dict[str, Any] = {"last_spend": None}
    if spent.xp:
        update["xp"] = data.xp + spent.xp
        back = t(ctx, "paid.xp_only", n=spent.xp)
    else:
        await store.gain_story_points(ctx, character.id, spent.points)
        back = t(ctx, "paid.sp", n=spent.points)
    if spent.arc_key and data.arc.get(spent.arc_key):
        update["arc"] = {**data.arc, spent.arc_key: data.arc[spent.arc_key] - 1}
    store.store_sheet(ctx, character, data.model_copy(update=update))
    text = t(ctx, "sp.refunded", name=character.name, back=back, what=t(ctx, f"use.kind.{spent.use}"))
    await ctx.audit(
        "decanter.story_points", character_id=character.id, field_name=SP, old=None, new=f"refund {back}"
    )
    await ctx.stlog(text, kind="story_points", character_id=character.id)
    return CHARACTERS.reply(text, "story_points", character, refunded=spent.model_dump())


@COMMANDS.command(
    "story end",
    "end the story arc: Debts and secrets bought from an NPC cost from their Status again",
    "story end",
    role="storyteller",
    params=(),
)
async def story_end_command(ctx: CommandContext, inv: Invocation) -> Reply:
    cleared = 0
    for character in await store.characters_of(ctx.session, SYSTEM):
        if (character.sheet or {}).get("arc"):
            character.sheet = {**character.sheet, "arc": {}}
            character.updated_at = ctx.now
            ctx.session.add(character)
            cleared += 1
    text = t(ctx, "story.end", n=cleared)
    await ctx.stlog(text, kind="story_end")
    return Reply(text=text, result={"kind": "story_end", "system": SYSTEM, "characters": cleared})
