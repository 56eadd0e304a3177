"""Grapple, bite and drinking (the book's "Захват"): Strength at 4 against Physical Defence at 4; a
hold deals Strength every turn until the held one lands a blow; a vampire may bite instead (one
Health level) and then drink, 1 BP a turn. Holds are the channel's ``grapple`` document."""

from __future__ import annotations

from typing import Any

from gateway import CommandContext, CommandSet, Invocation, Reply
from gateway.features.characters import find_character
from gateway.rules.numbers import is_digits
from gateway.vault import repo
from plugins.nightwanderers import mechanics, tactics
from plugins.nightwanderers import store as episode
from plugins.nightwanderers.combat_commands import (
    Fighter,
    attacker_of,
    defender_of,
    exchange,
    fighter_pool,
    read_fight_words,
    refuse_own_target,
    soak_and_harm,
    strength_of,
)
from plugins.nightwanderers.commands import (
    SYSTEM,
    Actor,
    fail,
    hunger_sentences,
    load_actor,
    log,
    my_actor,
    roll_result,
    t,
)
from plugins.nightwanderers.config import NightWanderersSettings
from plugins.nightwanderers.registry import command

COMMANDS = CommandSet(SYSTEM)
GRAPPLE_USAGE = "grapple TARGET | grapple pool N str N def N [TARGET]"
RU_USAGE = "grapple ЦЕЛЬ | grapple пул N сила N защита N [ЦЕЛЬ]"
USAGE_KEY = "err.grapple_usage"
RUSSIAN_WORDS = {"пул": "pool", "сила": "str", "защита": "def", "вампир": "vampire"}


@command(
    COMMANDS,
    "grapple",
    "grapple: Strength at 4 against Physical Defence at 4",
    GRAPPLE_USAGE,
    ("захват: Сила (Трудность 4) против «Физ. Защиты» (Трудность 4)", RU_USAGE),
)
async def grapple_command(ctx: CommandContext, inv: Invocation) -> Reply:
    """ "Атакующий делает бросок на Атрибут Силы (Трудность 4). Атакованный автоматически защищается
    (бросок Трюка «Физ. Защита» с Трудностью 4). Если количество Успехов нападающего равно или
    превышает Успехи защищающегося, захват осуществляется.\""""
    settings = ctx.settings_for(NightWanderersSettings)
    words = tuple(RUSSIAN_WORDS.get(w.casefold(), w) for w in inv.words)
    numbers, seen, rest = read_fight_words(
        ctx, words, {"pool", "str", "def"}, {"vampire"}, "err.grapple_usage"
    )
    attacker = await attacker_of(ctx, numbers)
    defender = await defender_of(ctx, rest, numbers, seen, USAGE_KEY)
    if attacker.name.casefold() == defender.name.casefold():
        raise fail(ctx, "err.self_contest", name=attacker.name)
    refuse_own_target(ctx, attacker, defender)
    diff = settings.melee_difficulty
    attack_pool = fighter_pool(ctx, attacker, "strength")
    defence_pool = fighter_pool(ctx, defender, "defence")
    a = mechanics.roll(attack_pool.dice, ctx.dice, diff, 1, attack_pool.pain)
    d = mechanics.roll(defence_pool.dice, ctx.dice, diff, 1, defence_pool.pain)
    held = mechanics.attack_hits(a.successes, d.successes)
    strength = strength_of(attacker)
    result: dict[str, Any] = {
        "kind": "contest",
        "system": SYSTEM,
        "action": "grapple",
        "sides": [roll_result(attack_pool, a, attacker.name), roll_result(defence_pool, d, defender.name)],
        "winner": 0 if held else 1,
        "held": held,
    }
    sentences = exchange(ctx, "grapple.line", (attacker, attack_pool, a), (defender, defence_pool, d), diff)
    if held:
        found = [h for h in await episode.holds(ctx) if h["holder"].casefold() != attacker.name.casefold()]
        found.append(
            {
                "holder": attacker.name,
                "holder_id": attacker.actor.id if attacker.actor else None,
                "vampire": attacker.kind == "vampire",
                "target": defender.name,
                "target_id": defender.actor.id if defender.actor else None,
                "strength": strength,
                "soak": defender.soak,
                "target_vampire": defender.kind == "vampire",
                "bitten": False,
            }
        )
        await episode.save_holds(ctx, found)
        sentences.append(t(ctx, "grapple.held", holder=attacker.name, target=defender.name))
    else:
        sentences.append(t(ctx, "grapple.failed"))
    return await log(ctx, result, sentences, attacker.actor)


async def my_hold(ctx: CommandContext, words: tuple[str, ...]) -> tuple[dict[str, Any], Actor | None]:
    """The hold of the caller's active character; a Storyteller may name the held target instead."""
    found = await episode.holds(ctx)
    if words and ctx.storyteller:
        name = " ".join(words).casefold()
        hold = next((h for h in found if h["target"].casefold() == name), None)
        if hold is None:
            raise fail(ctx, "err.grapple_none")
        holder = None
        if hold["holder_id"] is not None:
            character = await find_character(ctx.session, SYSTEM, hold["holder"])
            holder = await load_actor(ctx, character) if character is not None else None
        return hold, holder
    if words:
        raise fail(ctx, "err.storyteller_other")
    actor = await my_actor(ctx)
    assert actor is not None
    hold = next((h for h in found if h["holder_id"] == actor.id), None)
    if hold is None:
        raise fail(ctx, "err.grapple_none")
    return hold, actor


async def held_fighter(ctx: CommandContext, hold: dict[str, Any]) -> Fighter:
    if hold["target_id"] is not None:
        character = await find_character(ctx.session, SYSTEM, hold["target"])
        if character is not None:
            return Fighter(character.name, await load_actor(ctx, character))
    return Fighter(hold["target"], soak=hold.get("soak"), vampire=bool(hold.get("target_vampire")))


async def replace_hold(ctx: CommandContext, hold: dict[str, Any]) -> None:
    found = [h for h in await episode.holds(ctx) if h["holder"] != hold["holder"]]
    await episode.save_holds(ctx, [*found, hold])


@command(
    COMMANDS,
    "grapple damage",
    "a turn of the hold: damage equal to Strength",
    "grapple damage [TARGET]",
    ("ход захвата: повреждения, равные Силе", "grapple damage [ЦЕЛЬ]"),
)
async def grapple_damage_command(ctx: CommandContext, inv: Invocation) -> Reply:
    """ "После этого атакующий каждый ход наносит повреждения схваченному, до тех пор, пока
    защищающийся не нанесет по нему удачный удар." The damage is Strength, soaked as any blow."""
    hold, holder = await my_hold(ctx, inv.words)
    target = await held_fighter(ctx, hold)
    damage = int(hold["strength"])
    result: dict[str, Any] = {"kind": "harm", "system": SYSTEM, "action": "grapple_damage"}
    sentences = [t(ctx, "grapple.damage", holder=hold["holder"], target=hold["target"], damage=damage)]
    sentences += await soak_and_harm(ctx, target, damage, False, result)
    return await log(ctx, result, sentences, holder)


@command(
    COMMANDS,
    "bite",
    "a vampire holding someone bites instead of the damage: one Health level",
    "bite [TARGET]",
    ("укус в захвате вместо повреждений: один уровень Здоровья", "bite [ЦЕЛЬ]"),
)
async def bite_command(ctx: CommandContext, inv: Invocation) -> Reply:
    """ "если атакующий является вампиром, он может отказаться от нанесения повреждений схваченному и
    вместо этого укусить его. Укус снимает только один уровень Здоровья, но после него вампир может
    начать сосать кровь из жертвы." Fangs of a vampire are deep damage."""
    hold, holder = await my_hold(ctx, inv.words)
    if not hold.get("vampire"):
        raise fail(ctx, "err.not_vampire", name=hold["holder"])
    target = await held_fighter(ctx, hold)
    result: dict[str, Any] = {"kind": "harm", "system": SYSTEM, "action": "bite"}
    sentences = [t(ctx, "bite", holder=hold["holder"], target=hold["target"])]
    sentences += await soak_and_harm(ctx, target, tactics.BITE_DAMAGE, True, result)
    await replace_hold(ctx, {**hold, "bitten": True})
    sentences.append(t(ctx, "bite.drink"))
    return await log(ctx, result, sentences, holder)


@command(
    COMMANDS,
    "drink",
    "drink from the bitten one in your hold: 1 BP a turn",
    "drink [N] [TARGET]",
    ("пить кровь укушенной жертвы в захвате: 1 BP за ход", "drink [N] [ЦЕЛЬ]"),
)
async def drink_command(ctx: CommandContext, inv: Invocation) -> Reply:
    """ "За один ход вампир может высосать из смертного 1 BP. Люди имеют 10 BP в своих телах. Потеряв 5
    и больше BP, смертный нуждается в госпитализации. Если у него высосать всю кровь, он умирает."
    From a vampire the blood comes out of its own pool (drained dry: Diablerie)."""
    words = list(inv.words)
    turns = int(words.pop(0)) if words and is_digits(words[0]) else 1
    if not 1 <= turns <= mechanics.VICTIM_BLOOD["human"]:
        raise fail(ctx, "err.drink_usage")
    hold, holder = await my_hold(ctx, tuple(words))
    if not hold.get("bitten"):
        raise fail(ctx, "err.drink_no_bite", target=hold["target"])
    target = await held_fighter(ctx, hold)
    if target.actor is not None and target.actor.blood is not None:
        left = target.actor.blood
    else:
        left = mechanics.VICTIM_BLOOD["human"] - await episode.drained(ctx, hold["target"])
    taken = min(turns, max(0, left))
    if taken < 1:
        raise fail(ctx, "err.drink_empty", target=hold["target"])
    result: dict[str, Any] = {"kind": "blood", "system": SYSTEM, "action": "drink", "turns": taken}
    sentences: list[str] = []
    if target.actor is not None and target.actor.blood is not None:
        await repo.spend_pool(ctx.session, target.actor.id, "blood", taken)
        drained_dry = left - taken <= 0
        sentences_after = [t(ctx, "drink.diablerie", target=hold["target"])] if drained_dry else []
    else:
        drained = await episode.drained(ctx, hold["target"]) + taken
        await episode.set_drained(ctx, hold["target"], drained)
        result["drained"] = drained
        if drained >= mechanics.VICTIM_BLOOD["human"]:
            sentences_after = [t(ctx, "feed.dead")]
            if target.actor is not None:
                target.actor.sheet.dead = True
                target.actor.save_sheet(ctx)
        elif drained >= mechanics.HOSPITAL_AFTER:
            sentences_after = [t(ctx, "feed.hospital", lost=drained)]
        else:
            sentences_after = []
    if holder is not None and holder.blood is not None:
        before = holder.blood
        await repo.gain_pool(ctx.session, holder.id, "blood", taken)
        holder = await load_actor(ctx, holder.character)
        gain = (holder.blood or 0) - before
        sentences.append(
            t(ctx, "drink", holder=holder.name, target=hold["target"], n=taken, gain=gain, bp=holder.blood)
        )
        result.update(gained=gain, blood=holder.blood)
    else:
        sentences.append(t(ctx, "drink.npc", holder=hold["holder"], target=hold["target"], n=taken))
    sentences += sentences_after
    if holder is not None:
        sentences += hunger_sentences(ctx, holder)
    return await log(ctx, result, sentences, holder)


@command(
    COMMANDS,
    "grapple release",
    "let go of the one you hold",
    "grapple release [TARGET]",
    ("отпустить схваченного", "grapple release [ЦЕЛЬ]"),
)
async def grapple_release_command(ctx: CommandContext, inv: Invocation) -> Reply:
    hold, _ = await my_hold(ctx, inv.words)
    await episode.break_hold(ctx, hold["holder"], hold["target"])
    return Reply(
        text=t(ctx, "grapple.released", holder=hold["holder"], target=hold["target"]),
        result={"kind": "grapple", "system": SYSTEM, "released": hold["target"]},
    )
