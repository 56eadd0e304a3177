"""Play commands on an approved sheet: power use, health, damage, heal, checkin.

Pools move only through conditional UPDATEs (``repo.spend_pool`` / ``gain_pool``); a refusal is raised
before anything is spent, and a spend that loses a race rolls the whole command back.
"""

from __future__ import annotations

from typing import Any

from gateway import CommandContext, CommandSet, Invocation, Reply, UserError
from gateway.vault import repo
from plugins.nightcap import checkin, health, mechanics, render, rulings, wounds
from plugins.nightcap import params as P
from plugins.nightcap.character_commands import own_or_named
from plugins.nightcap.combat_commands import take_turn
from plugins.nightcap.config import SYSTEM, timezone
from plugins.nightcap.conflict_commands import ensure_can_act
from plugins.nightcap.house import dice
from plugins.nightcap.pools import PoolSpec
from plugins.nightcap.power_sides import choose_power
from plugins.nightcap.powers import TIERS
from plugins.nightcap.roll_commands import spend_willpower
from plugins.nightcap.roll_texts import say
from plugins.nightcap.sheet import DAMAGE, ESSENCE, WILLPOWER, trait
from plugins.nightcap.sides import checked_pool, label
from plugins.nightcap.store import (
    check_can_pay,
    my_character,
    overrule,
    pay,
    pool_values,
    require_approved,
    sheet_of,
    wound_penalty,
)
from plugins.nightcap.words import split_power_words

COMMANDS = CommandSet(SYSTEM)

POWER_USE_USAGE = "power use NAME [TIER] [+N|-N ...] [wp] [secret], e.g. power use Shadow Step adept +1"


async def power_use(ctx: CommandContext, inv: Invocation) -> Reply:
    rest, chosen, mods, wp, secret = split_power_words(list(inv.words))
    if not rest:
        raise UserError(f"Write {POWER_USE_USAGE}.")
    character = await my_character(ctx)
    require_approved(character, "power use")
    assert character.id is not None
    await ensure_can_act(ctx.session, character, "power use")  # before any Essence is spent
    await take_turn(ctx, character)
    sheet = sheet_of(character)
    choice = choose_power(character, rest, chosen)
    power, cost, learned = choice.power, choice.cost, TIERS[choice.power["tier"]]
    essence = await check_can_pay(ctx, choice)
    await pay(ctx, choice)
    if wp:
        await spend_willpower(ctx, character)
    keyed = str(power.get("trait") or "spirit")
    ruled, ruling = await overrule(ctx, character, PoolSpec(base=keyed, modifiers=tuple(mods)))
    mods = list(ruled.modifiers)
    rating = trait(sheet, keyed)
    wound = await wound_penalty(ctx, character)
    pool = checked_pool(ctx, rating, [*mods, wound])
    roll = mechanics.roll(pool, ctx.dice, wp, **dice(ctx))
    result: dict[str, Any] = roll.as_result()
    result.update(
        who=character.name,
        trait=keyed,
        modifiers=mods,
        secret=secret,
        power={
            "name": power["name"],
            "learned": learned.name,
            "tier": cost.tier.name,
            "essence": cost.essence,
            "essence_left": essence - cost.essence,
        },
    )
    if wound:
        result["wound_penalty"] = wound
    if ruling is not None:
        result["ruling"] = ruling
    roll_id = await ctx.log_roll(result, character_id=character.id, name=character.name)
    text = (
        f"{character.name} uses {power['name']} at {cost.tier.title} ({cost.essence} Essence,"
        f" {essence - cost.essence} left) and rolls"
        f" {render.roll_body(roll, wounds.label(label(keyed, rating, mods), wound))}"
        f"{rulings.note(ruling)} #{roll_id}"
    )
    await ctx.stlog(
        ("(secret) " if secret else "") + text, kind="power", result=result, character_id=character.id
    )
    return Reply(text=text, private=secret, result=result)


@COMMANDS.command(
    "health", "your Health track (or one of your characters')", "health [NAME]", params=P.HEALTH, private=True
)
async def health_command(ctx: CommandContext, inv: Invocation) -> Reply:
    character = await own_or_named(ctx, inv, "health", "ask their player, or a Storyteller, how they fare.")
    damage, levels = (await pool_values(ctx, character))[DAMAGE]
    state = " Incapacitated." if health.incapacitated(damage, levels) else ""
    return Reply(
        text=f"{character.name}'s Health: {health.track(damage, levels)} damage.{state}",
        private=True,
        result={"kind": "health", "character": character.name, "damage": damage, "levels": levels},
    )


@COMMANDS.command("damage", "record damage on your character", "damage N", params=P.DAMAGE)
async def damage_command(ctx: CommandContext, inv: Invocation) -> Reply:
    amount = int(inv.args["amount"])
    if amount < 1:  # not the declaration's minimum: the refusal points to heal
        raise UserError(
            "Write damage N, with N the levels of damage your character takes (at least 1); heal N heals."
        )
    character = await my_character(ctx)
    require_approved(character, "damage")
    assert character.id is not None
    before, levels = (await pool_values(ctx, character))[DAMAGE]
    health.check_damage(character.name, before, levels)
    await repo.gain_pool(ctx.session, character.id, DAMAGE, amount)
    after = health.after_damage(before, amount, levels)
    text = health.damage_text(character.name, amount, before, levels)
    result = {
        "kind": "damage",
        "character": character.name,
        "amount": amount,
        "marked": after - before,
        "damage": after,
        "levels": levels,
    }
    await ctx.stlog(text, kind="damage", result=result, character_id=character.id)
    return Reply(text=text, result=result)


@COMMANDS.command("heal", "spend Essence to heal, 1 per level", "heal [N]", params=P.HEAL)
async def heal_command(ctx: CommandContext, inv: Invocation) -> Reply:
    amount = int(inv.args.get("amount", 1))
    character = await my_character(ctx)
    require_approved(character, "heal")
    assert character.id is not None
    pools = await pool_values(ctx, character)
    damage, levels = pools[DAMAGE]
    essence, essence_max = pools[ESSENCE]
    if health.incapacitated(damage, levels):
        # "No more actions": spending one's own Essence to heal is one; the scene decides.
        raise UserError(say("incapacitated.heal", name=character.name, damage=damage, levels=levels))
    health.check_heal(character.name, damage, essence, amount)
    spent = await repo.spend_pool(ctx.session, character.id, ESSENCE, amount)
    healed = spent and await repo.spend_pool(ctx.session, character.id, DAMAGE, amount)
    if not healed:
        raise UserError(f"{character.name}'s pools changed meanwhile; nothing was spent. Try again.")
    after = damage - amount
    text = (
        f"{character.name} spends {amount} Essence ({essence - amount}/{essence_max} left) and heals"
        f" {amount} {'level' if amount == 1 else 'levels'}: Health {health.track(after, levels)}."
    )
    result = {
        "kind": "heal",
        "character": character.name,
        "healed": amount,
        "essence": essence - amount,
        "damage": after,
        "levels": levels,
    }
    await ctx.stlog(text, kind="heal", result=result, character_id=character.id)
    return Reply(text=text, result=result)


@COMMANDS.command("checkin", "the daily check-in: roll Spirit, regain Essence and 1 WP", "checkin", params=())
async def checkin_command(ctx: CommandContext, inv: Invocation) -> Reply:
    if inv.words:
        raise UserError("Write checkin, with nothing after it.")
    character = await my_character(ctx, lock=True)
    require_approved(character, "checkin")
    assert character.id is not None
    zone = timezone(ctx)
    today = checkin.checkin_day(ctx.now, zone)
    opening = checkin.next_opening(ctx.now, zone)
    opens = f"midnight {zone} ({opening:%Y-%m-%d %H:%M} UTC), in {checkin.wait_text(ctx.now, opening)}"
    sheet = sheet_of(character)
    if sheet.get("checkin") == today.isoformat():
        raise UserError(
            f"{character.name} has already checked in today ({today.isoformat()}, {zone});"
            f" the next check-in opens at {opens}."
        )
    rating = trait(sheet, "spirit")
    roll = mechanics.roll(rating, ctx.dice, **dice(ctx))
    essence_gain, wp_gain = checkin.gains(roll.total)
    before = await pool_values(ctx, character)
    if essence_gain:
        await repo.gain_pool(ctx.session, character.id, ESSENCE, essence_gain)
    await repo.gain_pool(ctx.session, character.id, WILLPOWER, wp_gain)
    after = await pool_values(ctx, character)
    sheet["checkin"] = today.isoformat()
    character.sheet = sheet
    ctx.session.add(character)
    gained_e = after[ESSENCE][0] - before[ESSENCE][0]
    gained_w = after[WILLPOWER][0] - before[WILLPOWER][0]
    result: dict[str, Any] = roll.as_result()
    result.update(
        kind="checkin",
        who=character.name,
        trait="spirit",
        day=today.isoformat(),
        essence_gained=gained_e,
        willpower_gained=gained_w,
        essence_pool=list(after[ESSENCE]),
        willpower_pool=list(after[WILLPOWER]),
        next_opens=opening.isoformat(),
    )
    roll_id = await ctx.log_roll(result, character_id=character.id, name=character.name)
    text = (
        f"{character.name} checks in for {today.isoformat()}:"
        f" {render.roll_body(roll, label('spirit', rating, []))};"
        f" regains {gained_e} Essence ({after[ESSENCE][0]}/{after[ESSENCE][1]}) and {gained_w} Willpower"
        f" ({after[WILLPOWER][0]}/{after[WILLPOWER][1]}). Next check-in: {opens}. #{roll_id}"
    )
    await ctx.stlog(text, kind="checkin", result=result, character_id=character.id)
    return Reply(text=text, result=result)
