"""Decanter's Story Points: show and give them, spend them as extra successes on the latest roll
(``sp bonus``, with its side cost), or gain them by downgrading a roll (``downgrade``). The book's
other uses are ``spending``."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from gateway import CommandContext, CommandSet, Invocation, PermissionDenied, Reply, UserError
from gateway.features.characters import lock_character, pool_value, require_active
from gateway.rules.numbers import is_digits
from gateway.vault import repo
from gateway.vault.models import Character
from plugins.decanter import extended_commands, mechanics, store, uses
from plugins.decanter.characters_commands import CHARACTERS
from plugins.decanter.config import DecanterSettings
from plugins.decanter.mechanics import SYSTEM
from plugins.decanter.messages import t
from plugins.decanter.render import outcome_text
from plugins.decanter.sheet import SCHEMA, SP
from plugins.decanter.story_points import contest_bonus, mark_amended, reread

COMMANDS = CommandSet(SYSTEM)


@COMMANDS.command("sp", "show your Story Points (Storytellers: anyone's)", "sp [NAME]")
async def sp_command(ctx: CommandContext, inv: Invocation) -> Reply:
    if names := inv.args.get("name"):
        first = names[0]
        if uses.use_word(first) is not None or is_digits(first) or first.casefold() in ("use", "pay"):
            raise UserError(f"To spend Story Points write {uses.SPEND_USAGE}")
        if not ctx.storyteller:
            raise PermissionDenied(
                "sp NAME shows another character's Story Points to Storytellers only; sp alone shows yours,"
                " sp spend USE spends them, sp bonus N COST adds successes."
            )
        character = await CHARACTERS.named(ctx, " ".join(names))
    else:
        character = await require_active(ctx, SYSTEM)
    assert character.id is not None
    current, maximum = await store.story_points(ctx, character.id)
    text = t(ctx, "sp.show", name=character.name, n=current, cap=maximum)
    return CHARACTERS.reply(text, "story_points", character, current=current, cap=maximum)


@COMMANDS.command(
    "sp give", "give a character Story Points (negative takes)", "sp give NAME N", role="storyteller"
)
async def sp_give_command(ctx: CommandContext, inv: Invocation) -> Reply:
    character = await CHARACTERS.named(ctx, inv.args["name"])
    amount: int = inv.args["amount"]
    assert character.id is not None
    if amount >= 0:
        total, cap, lost = await store.gain_story_points(ctx, character.id, amount)
        key = "sp.give_lost" if lost else "sp.give"
        text = t(ctx, key, name=character.name, n=amount, total=total, cap=cap, lost=lost)
    else:
        current, _ = await store.story_points(ctx, character.id)
        cap = ctx.settings_for(DecanterSettings).story_point_cap
        taken = min(-amount, current)
        await repo.spend_pool(ctx.session, character.id, SP, taken)
        total, lost = current - taken, 0
        text = t(ctx, "sp.take", name=character.name, n=taken, total=total, cap=cap)
    await ctx.audit("decanter.story_points", character_id=character.id, field_name=SP, old=None, new=amount)
    await ctx.stlog(text, kind="story_points", character_id=character.id)
    return CHARACTERS.reply(text, "story_points", character, current=total, cap=cap, lost=lost)


# ---------------------------------------------------------------- changing the latest roll


async def _amendable(
    ctx: CommandContext, what: str, *, contests: bool = False
) -> tuple[Character, dict[str, Any], str]:
    """The caller's active character and its latest roll here, if that can still be changed: (the
    character, a copy of the roll's result marked as amending it, the roll's id). ``contests``: a
    PC-vs-PC roll the character made (its left side) may be changed too."""
    character = await require_active(ctx, SYSTEM)
    assert character.id is not None
    row = await store.latest_roll(ctx.session, character.id, ctx.channel.key, SYSTEM)
    if row is None:
        raise UserError(f"{character.name} has no roll here to {what}.")
    result = dict(row.result)
    contest = result.get("kind") == "contest" and result["sides"][0].get("who") == character.name
    if not (contests and contest) and (result.get("kind") != "roll" or result.get("dc") is None):
        raise UserError(
            f"{character.name}'s latest roll here (#{row.public_id}) is a contest;"
            f" {what} works on a roll against a DC."
        )
    window = ctx.settings_for(DecanterSettings).bonus_window
    rolled_at = datetime.fromisoformat(result["rolled_at"]) if result.get("rolled_at") else row.created_at
    if ctx.now - rolled_at > timedelta(seconds=window):
        raise UserError(
            f"{character.name}'s latest roll here (#{row.public_id}) is more than {window:g} seconds old:"
            f" Story Points change a roll only right after it."
        )
    return character, result, row.public_id


def _describe(ctx: CommandContext, result: dict[str, Any]) -> str:
    if result.get("kind") == "contest":
        sides = result["sides"]
        counts = "–".join(str(side["successes"]) for side in sides)
        if result.get("winner") is None:
            return t(ctx, "contest.outcome_unbroken", counts=counts)
        return t(ctx, "contest.outcome", winner=sides[int(result["winner"])]["who"], counts=counts)
    return outcome_text(ctx, int(result["successes"]), str(result["degree"]), int(result["dc"]))


@COMMANDS.command(
    "sp bonus",
    "Roll Bonus: Story Points as extra successes on your latest roll, each with a cost",
    "sp bonus N COST",
)
async def sp_bonus_command(ctx: CommandContext, inv: Invocation) -> Reply:
    bonus = uses.parse_bonus(inv.args["amount"], list(inv.args.get("cost", [])))
    amount = bonus.count
    character, result, previous_id = await _amendable(ctx, "add successes to", contests=True)
    assert character.id is not None
    if result.get("kind") == "contest":
        contest_bonus(result, amount)
    elif result.get("automatic"):
        raise UserError(f"#{previous_id} was an automatic success: it needs no Story Points.")
    current, _ = await store.story_points(ctx, character.id)
    if amount > current:
        # The book: "You still can't add more successes than your remaining Story Points."
        raise UserError(f"{character.name} has {current} Story Points, not {amount}.")
    character = await lock_character(ctx.session, character.id)
    assert character.id is not None
    data, paid = uses.pay_side_costs(
        SCHEMA.load(character.sheet), bonus, ctx.channel.key, ctx.now.isoformat()
    )
    if bonus.points_paid and not await repo.spend_pool(ctx.session, character.id, SP, bonus.points_paid):
        raise UserError(f"{character.name} has {current} Story Points, not {bonus.points_paid}.")
    store.store_sheet(ctx, character, data)
    before = _describe(ctx, result)
    result["bonus"] = int(result.get("bonus", 0)) + amount
    result["bonus_costs"] = [*result.get("bonus_costs", ()), *bonus.costs]
    mark_amended(result, previous_id)
    if result.get("kind") == "contest":
        result.update(contest_bonus(result, amount))
    else:
        result["successes"] = int(result["successes"]) + amount
        reread(result)
    if "extended" in result:
        await extended_commands.amend(ctx, character, result, amount)
    roll_id = await ctx.log_roll(result, character_id=character.id, name=character.name)
    left, _ = await pool_value(ctx.session, character.id, SP) or (0, 0)
    text = t(
        ctx,
        "sp.bonus",
        name=character.name,
        n=amount,
        roll=previous_id,
        paid=_paid_text(ctx, bonus.points_paid, paid, bonus.condition),
        before=before,
        outcome=_describe(ctx, result),
        left=left,
        id=roll_id,
    )
    if result.get("extended"):
        text += " " + extended_commands.progress_text(ctx, result["extended"])
    await ctx.stlog(text, kind="story_points", result=result, character_id=character.id)
    return Reply(text=text, result=result)


def _paid_text(ctx: CommandContext, points: int, paid: uses.Paid, condition: str) -> str:
    parts = [t(ctx, "paid.sp", n=points)] if points else []
    parts += [t(ctx, f"paid.{cost}", n=n, total=total, cname=condition) for cost, n, total in paid.items]
    return ", ".join(parts)


@COMMANDS.command("downgrade", "step your latest roll down and gain a Story Point per step", "downgrade [N]")
async def downgrade_command(ctx: CommandContext, inv: Invocation) -> Reply:
    steps: int = inv.args.get("amount", 1)  # at least 1 (``params``)
    character, result, previous_id = await _amendable(ctx, "downgrade")
    assert character.id is not None
    if "extended" in result:
        raise UserError("A roll of an extended contest adds to a total; downgrade works on single rolls.")
    current = str(result["degree"])
    room = mechanics.steps_available(current)
    if steps > room:
        raise UserError(
            f"#{previous_id} is {t(ctx, f'degree.{current}')}: it can go down {room} more"
            f" {'step' if room == 1 else 'steps'} at most."
        )
    before = t(ctx, f"degree.{current}")
    after_degree = mechanics.step_down(current, steps)
    result["downgraded"] = int(result.get("downgraded", 0)) + steps
    result["degree"] = after_degree
    result.pop("extra_successes", None)
    result.pop("shortfall", None)
    mark_amended(result, previous_id)
    total, cap, lost = await store.gain_story_points(ctx, character.id, steps)
    roll_id = await ctx.log_roll(result, character_id=character.id, name=character.name)
    key = "sp.downgrade_lost" if lost else "sp.downgrade"
    text = t(
        ctx,
        key,
        name=character.name,
        roll=previous_id,
        n=steps,
        before=before,
        after=t(ctx, f"degree.{after_degree}"),
        gained=steps,
        total=total,
        cap=cap,
        lost=lost,
        id=roll_id,
    )
    await ctx.stlog(text, kind="story_points", result=result, character_id=character.id)
    return Reply(text=text, result=result)
