"""Blood: waking, healing, disciplines, physical boosts, feeding, and frenzy checks. Blood is a
``Pool`` row spent with the vault's atomic conditional update, so two HUDs never double-spend."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from gateway import CommandContext, CommandSet, Invocation, Reply
from gateway.features.characters import find_character
from gateway.rules.numbers import is_digits
from gateway.vault import repo
from plugins.nightwanderers import mechanics
from plugins.nightwanderers import store as episode
from plugins.nightwanderers.commands import (
    Actor,
    check_able,
    fail,
    hunger_sentences,
    join,
    load_actor,
    log,
    my_actor,
    pain_sentences,
    roll_result,
    roll_sentence,
    set_pool,
    t,
    trait_pool,
)
from plugins.nightwanderers.config import NightWanderersSettings
from plugins.nightwanderers.mechanics import SYSTEM
from plugins.nightwanderers.registry import command

COMMANDS = CommandSet(SYSTEM)


async def vampire(ctx: CommandContext, *, able: bool = True) -> Actor:
    actor = await my_actor(ctx, able=False)
    assert actor is not None
    if actor.blood is None:
        raise fail(ctx, "err.not_vampire", name=actor.name)
    if actor.status == "dead" or (able and actor.status != "active"):
        check_able(ctx, actor)
    return actor


def refuse_in_torpor(ctx: CommandContext, actor: Actor) -> None:
    """ "Он еще “жив”, но парализован и не может двигаться или что-либо делать. Чтобы выйти из
    Оцепенения он должен восстановить хотя бы один пункт Запаса Крови": in torpor a vampire can
    neither heal nor feed itself; someone must give it blood (``give``)."""
    if actor.status == "dead":
        check_able(ctx, actor)
    if actor.status == "torpor":
        raise fail(ctx, "err.torpor_wait", name=actor.name)


async def spend_blood(ctx: CommandContext, actor: Actor, cost: int) -> Actor:
    if not await repo.spend_pool(ctx.session, actor.id, "blood", cost):
        raise fail(ctx, "err.not_enough_blood", name=actor.name, bp=actor.blood, cost=cost)
    return await load_actor(ctx, actor.character)


def night_of(ctx: CommandContext, when: datetime) -> tuple[str, datetime]:
    """The night a moment belongs to (its evening's date) and when the next night begins, in the
    gateway's time zone with the rollover hour of the settings (default noon)."""
    hour = ctx.settings_for(NightWanderersSettings).night_rollover_hour
    zone = ZoneInfo(ctx.settings.gateway.timezone)
    local = when.astimezone(zone)
    shifted = local - timedelta(hours=hour)
    start = datetime(shifted.year, shifted.month, shifted.day, hour, tzinfo=zone)
    return shifted.date().isoformat(), start + timedelta(days=1)


async def _told(
    ctx: CommandContext, actor: Actor, sentences: list[str], log_kind: str, action: str, **fields: Any
) -> Reply:
    """The sentences, then how hungry the actor is, to the Storyteller log and back; a ``blood`` result."""
    result = {"kind": "blood", "system": mechanics.SYSTEM, "action": action, **fields}
    text = join([*sentences, *hunger_sentences(ctx, actor)])
    await ctx.stlog(text, kind=log_kind, result=result, character_id=actor.id)
    return Reply(text=text, result=result)


@COMMANDS.command("wake", "wake for the night: -1 BP (once a night)", "wake")
async def wake_command(ctx: CommandContext, inv: Invocation) -> Reply:
    if inv.words:  # ``wake 5`` is a typo, not five nights
        raise fail(ctx, "err.wake_usage")
    actor = await vampire(ctx, able=False)
    night, next_night = night_of(ctx, ctx.now)
    if actor.sheet.last_wake == night:
        raise fail(ctx, "err.wake_twice", name=actor.name, when=next_night.strftime("%Y-%m-%d %H:%M %Z"))
    actor.sheet.last_wake = night
    actor.save_sheet(ctx)
    if await repo.spend_pool(ctx.session, actor.id, "blood", 1):
        actor = await load_actor(ctx, actor.character)
        sentences = [t(ctx, "wake", name=actor.name, bp=actor.blood, max=actor.blood_max)]
    else:
        sentences = [t(ctx, "wake.empty", name=actor.name)]
    return await _told(ctx, actor, sentences, "blood", "wake", blood=actor.blood, night=night)


@COMMANDS.command("heal", "spend N BP to heal N HP", "heal [N]")
async def heal_command(ctx: CommandContext, inv: Invocation) -> Reply:
    amount: int = inv.args.get("amount", 1)  # at least 1 (``params``)
    actor = await vampire(ctx, able=False)
    refuse_in_torpor(ctx, actor)
    damage = actor.hp_max - actor.hp
    if damage <= 0:
        raise fail(ctx, "err.nothing_to_heal", name=actor.name)
    if amount > damage:
        raise fail(ctx, "err.heal_too_much", name=actor.name, damage=damage)
    actor = await spend_blood(ctx, actor, amount)
    await repo.gain_pool(ctx.session, actor.id, "hp", amount)
    actor = await load_actor(ctx, actor.character)
    healed = t(
        ctx,
        "heal",
        name=actor.name,
        n=amount,
        hp=actor.hp,
        hpmax=actor.hp_max,
        bp=actor.blood,
        bpmax=actor.blood_max,
    )
    return await _told(
        ctx, actor, [healed], "heal", "heal", spent=amount, healed=amount, hp=actor.hp, blood=actor.blood
    )


@COMMANDS.command(
    "discipline", "pay for a discipline: basic 1 BP, advanced 2 BP", "discipline basic|advanced [NAME]"
)
async def discipline_command(ctx: CommandContext, inv: Invocation) -> Reply:
    words = list(inv.words)
    level = words[0].casefold() if words else ""
    level = {"начальная": "basic", "продвинутая": "advanced"}.get(level, level)
    if level not in mechanics.DISCIPLINE_COST:
        raise fail(ctx, "err.discipline_usage")
    what = " ".join(words[1:])[:40]
    cost = mechanics.DISCIPLINE_COST[level]
    actor = await vampire(ctx)
    actor = await spend_blood(ctx, actor, cost)
    paid = t(
        ctx,
        f"discipline.{level}",
        name=actor.name,
        what=t(ctx, "discipline.what", what=what) if what else "",
        bp=actor.blood,
        max=actor.blood_max,
    )
    fields = {"level": level, "discipline": what or None, "spent": cost, "blood": actor.blood}
    return await _told(ctx, actor, [paid], "power", "discipline", **fields)


@COMMANDS.command("boost", "raise Strength and Physical by N for 1+2+...+N BP", "boost N")
async def boost_command(ctx: CommandContext, inv: Invocation) -> Reply:
    n: int = inv.args["amount"]  # 1 to 20 (``params``)
    actor = await vampire(ctx)
    already = actor.sheet.boost
    cost = mechanics.boost_cost(n, already)
    actor = await spend_blood(ctx, actor, cost)
    actor.sheet.boost = already + n
    actor.save_sheet(ctx)
    await episode.remember(ctx, "effects", actor.id)  # the boost lasts until the episode ends
    boosted = t(
        ctx,
        "boost",
        name=actor.name,
        cost=cost,
        n=n,
        total=actor.sheet.boost,
        bp=actor.blood,
        max=actor.blood_max,
    )
    fields = {"raise": n, "boost": actor.sheet.boost, "spent": cost, "blood": actor.blood}
    return await _told(ctx, actor, [boosted], "power", "boost", **fields)


@COMMANDS.command("boost end", "let the blood boost fade", "boost end")
async def boost_end_command(ctx: CommandContext, inv: Invocation) -> Reply:
    actor = await vampire(ctx, able=False)
    if inv.words:
        raise fail(ctx, "err.boost_usage")
    if not actor.sheet.boost:
        raise fail(ctx, "err.no_boost", name=actor.name)
    actor.sheet.boost = 0
    actor.save_sheet(ctx)
    return Reply(
        text=t(ctx, "boost.end", name=actor.name),
        result={"kind": "blood", "system": mechanics.SYSTEM, "action": "boost_end", "boost": 0},
    )


@COMMANDS.command("feed", "feed: 1 BP a turn", "feed N [human|cow|dog|cat]")
async def feed_command(ctx: CommandContext, inv: Invocation) -> Reply:
    """``feed N [human|cow|dog|cat]``: 1 BP a turn, never more than the victim holds."""
    words = [w.casefold() for w in inv.words]
    source = "human"
    if words and words[-1] in mechanics.VICTIM_BLOOD:
        source = words.pop()
    if len(words) > 1 or (words and not is_digits(words[0])):
        raise fail(ctx, "err.feed_usage")
    holds = mechanics.VICTIM_BLOOD[source]
    turns = int(words[0]) if words else (holds if source != "human" else 1)
    if turns < 1:
        raise fail(ctx, "err.feed_usage")
    if turns > holds:  # "Выпив всю кровь коровы ... вампир получает только 5 BP, собака дает 2 BP, кошка 1"
        raise fail(ctx, "err.feed_too_much", source=t(ctx, f"source.{source}"), holds=holds)
    actor = await vampire(ctx, able=False)
    refuse_in_torpor(ctx, actor)
    before = actor.blood or 0
    await repo.gain_pool(ctx.session, actor.id, "blood", turns)
    actor = await load_actor(ctx, actor.character)
    gain = (actor.blood or 0) - before
    sentences = [
        t(
            ctx,
            "feed",
            name=actor.name,
            source=t(ctx, f"source.{source}"),
            n=turns,
            gain=gain,
            bp=actor.blood,
            max=actor.blood_max,
        )
    ]
    if source == "human" and turns >= holds:
        sentences.append(t(ctx, "feed.dead"))
    elif source == "human" and turns >= mechanics.HOSPITAL_AFTER:
        sentences.append(t(ctx, "feed.hospital", lost=turns))
    elif source != "human" and turns >= holds:
        sentences.append(t(ctx, "feed.animal"))
    sentences += sated_sentences(ctx, actor)
    fields = {
        "source": source,
        "turns": turns,
        "gained": gain,
        "blood": actor.blood,
        "victim_dead": source == "human" and turns >= holds,
    }
    return await _told(ctx, actor, sentences, "blood", "feed", **fields)


def sated_sentences(ctx: CommandContext, actor: Actor) -> list[str]:
    """ "Безумие кончается ... пока ее источник не буде уничтожен (вампир насытится ...)": feeding
    that ends the hunger ends a frenzy."""
    settings = ctx.settings_for(NightWanderersSettings)
    if (
        not actor.sheet.frenzy
        or mechanics.hunger(actor.blood or 0, settings.hunger_at, settings.ravenous_at) != "sated"
    ):
        return []
    actor.sheet.frenzy = False
    actor.save_sheet(ctx)
    return [t(ctx, "frenzy.sated", name=actor.name)]


@COMMANDS.command("frenzy", "frenzy check (psyche at 4, +1 ravenous and blood seen)", "frenzy [blood]")
async def frenzy_command(ctx: CommandContext, inv: Invocation) -> Reply:
    """A frenzy check: a psyche (П) roll at difficulty 4, +1 for a ravenous vampire who sees blood.
    A failure puts the vampire in frenzy (pain ignored) until ``frenzy end``."""
    words = [w.casefold() for w in inv.words]
    if words not in ([], ["blood"], ["кровь"]):
        raise fail(ctx, "err.frenzy_usage")
    settings = ctx.settings_for(NightWanderersSettings)
    actor = await vampire(ctx)
    state = mechanics.hunger(actor.blood or 0, settings.hunger_at, settings.ravenous_at)
    diff = mechanics.frenzy_difficulty(settings.frenzy_difficulty, state, bool(words))
    pool = trait_pool(ctx, actor, "psyche")
    rolled = mechanics.roll(pool.dice, ctx.dice, diff, 1, pool.pain)
    fell = rolled.successes < 1
    if fell:
        actor.sheet.frenzy = True
        actor.save_sheet(ctx)
        await episode.remember(ctx, "effects", actor.id)  # "Безумие кончается с концом эпизода"
    result = roll_result(pool, rolled, actor.name, action="frenzy", frenzy=fell, hunger=state)
    sentences = [
        roll_sentence(ctx, actor.name, pool, rolled),
        *pain_sentences(ctx, pool),
        t(ctx, "frenzy.fell" if fell else "frenzy.resisted", name=actor.name),
    ]
    return await log(ctx, result, sentences, actor)


@COMMANDS.command("frenzy end", "come out of frenzy", "frenzy end")
async def frenzy_end_command(ctx: CommandContext, inv: Invocation) -> Reply:
    actor = await my_actor(ctx, able=False)
    assert actor is not None
    if inv.words:
        raise fail(ctx, "err.frenzy_usage")
    if not actor.sheet.frenzy:
        raise fail(ctx, "err.not_in_frenzy", name=actor.name)
    actor.sheet.frenzy = False
    actor.save_sheet(ctx)
    return Reply(
        text=t(ctx, "frenzy.end", name=actor.name),
        result={"kind": "frenzy", "system": mechanics.SYSTEM, "frenzy": False},
    )


@command(
    COMMANDS,
    "give",
    "give N BP of your blood to another vampire (1 BP a turn)",
    "give N NAME",
    ("напоить своей кровью другого вампира: N BP, 1 BP за ход", "give N ИМЯ"),
)
async def give_command(ctx: CommandContext, inv: Invocation) -> Reply:
    """The way out of torpor: "Чтобы выйти из Оцепенения он должен восстановить хотя бы один пункт
    Запаса Крови." A vampire in torpor at 0 HP spends the first BP it gets on 1 HP at once (it
    cannot heal itself; this reading is in the README), the rest fills its pool."""
    amount: int = inv.args["amount"]  # 1 to 100 (``params``)
    name = " ".join(inv.args["target"])
    giver = await vampire(ctx)
    character = await find_character(ctx.session, SYSTEM, name)
    if character is None:
        raise fail(ctx, "err.no_character", name=name[:60])
    target = await load_actor(ctx, character, lock=True)
    if target.id == giver.id:
        raise fail(ctx, "err.self_target", name=giver.name)
    if target.blood is None:
        raise fail(ctx, "err.not_vampire", name=target.name)
    if target.status == "dead":
        check_able(ctx, target)
    room = (target.blood_max or 0) - (target.blood or 0) + (1 if target.hp <= 0 else 0)
    if room <= 0:
        raise fail(ctx, "err.give_full.pool", name=target.name, bp=target.blood, max=target.blood_max)
    if amount > room:
        raise fail(ctx, "err.give_full", name=target.name, room=room)
    was = target.status
    giver = await spend_blood(ctx, giver, amount)
    to_blood = amount
    sentences: list[str] = []
    if target.hp <= 0:
        await repo.gain_pool(ctx.session, target.id, "hp", 1)
        to_blood -= 1
        sentences.append(t(ctx, "give.heals", name=target.name))
    if to_blood:
        await repo.gain_pool(ctx.session, target.id, "blood", to_blood)
    target = await load_actor(ctx, target.character)
    sentences.insert(
        0,
        t(ctx, "give", giver=giver.name, target=target.name, n=amount, bp=target.blood, max=target.blood_max),
    )
    if was == "torpor" and target.status == "active":
        sentences.append(t(ctx, "give.wakes", name=target.name))
    fields = {"target": target.name, "given": amount, "hp": target.hp, "blood": target.blood}
    return await _told(ctx, giver, sentences, "blood", "give", status=target.status, **fields)


__all__ = ["set_pool"]
