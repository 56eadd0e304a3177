"""Harm without an attack: sunlight, fire and a Storyteller's plain ``damage``, taken on the ``hp``
pool with soak where the rules allow it."""

from __future__ import annotations

from typing import Any

from gateway import CommandContext, CommandSet, Invocation, Reply
from gateway.features.characters import find_character
from gateway.rules.numbers import is_digits
from plugins.nightwanderers import mechanics, tactics
from plugins.nightwanderers import store as episode
from plugins.nightwanderers.combat_commands import Fighter, harm, soak_and_harm
from plugins.nightwanderers.commands import (
    SYSTEM,
    Actor,
    check_able,
    fail,
    load_actor,
    log,
    my_actor,
    named_actor,
    t,
)
from plugins.nightwanderers.registry import command

COMMANDS = CommandSet(SYSTEM)


async def target_actor(ctx: CommandContext, rest: list[str]) -> Actor:
    """A named character (yours, or anyone's for a Storyteller), or your active one."""
    if rest:
        actor = await named_actor(ctx, " ".join(rest))
    else:
        found = await my_actor(ctx, able=False)
        assert found is not None
        actor = found
    if actor.status == "dead":
        check_able(ctx, actor)
    return actor


def carry_exposure(actor: Actor, source: str, turns: int, result: dict[str, Any]) -> int:
    """Slow exposure (indirect sun, a small fire): 1 HP every two turns, the odd turn kept on the
    character for the next exposure to the same source; the damage now."""
    damage, carried = tactics.slow_exposure(actor.sheet.exposure.get(source, 0), turns)
    result["carried_before"] = actor.sheet.exposure.get(source, 0)
    result["carried"] = carried
    actor.sheet.exposure = {**actor.sheet.exposure, source: carried}
    return damage  # ``exposure_reply`` saves the sheet


async def exposure_reply(
    ctx: CommandContext, actor: Actor, sentence: str, damage: int, result: dict[str, Any]
) -> Reply:
    fighter = Fighter(actor.name, actor)
    if "carried" in result:
        actor.save_sheet(ctx)
        await episode.remember(ctx, "effects", actor.id)
    sentences = [sentence, *await soak_and_harm(ctx, fighter, damage, True, result)]
    if result.get("carried"):
        sentences.append(t(ctx, "exposure.carried"))
    if actor.sheet.kind == "vampire" and actor.status != "dead":
        sentences.append(t(ctx, "note.frenzy_fire"))
    return await log(ctx, result, sentences, actor)


@COMMANDS.command("sun", "sunlight damage", "sun direct|indirect TURNS [NAME]")
async def sun_command(ctx: CommandContext, inv: Invocation) -> Reply:
    strength: str = inv.args["strength"].casefold()  # ``прямой`` is ``direct`` by now (entry.py)
    if strength not in ("direct", "indirect"):
        raise fail(ctx, "err.sun_usage")
    turns: int = inv.args["turns"]  # 1 to 100 (``params``)
    actor = await target_actor(ctx, inv.args.get("target", []))
    result: dict[str, Any] = {"kind": "harm", "system": SYSTEM, "action": "sun", "strength": strength}
    result["turns"] = turns
    if strength == "indirect":
        damage = carry_exposure(actor, "sun", turns, result)
    else:
        damage = mechanics.exposure("sun", strength, turns)
    sentence = t(ctx, "sun", name=actor.name, strength=t(ctx, f"sun.{strength}"), turns=turns, damage=damage)
    return await exposure_reply(ctx, actor, sentence, damage, result)


@COMMANDS.command("fire", "fire damage", "fire small|large TURNS|surprise [NAME]")
async def fire_command(ctx: CommandContext, inv: Invocation) -> Reply:
    strength: str = inv.args["strength"].casefold()
    when: str = inv.args["when"].casefold()  # turns, or ``surprise``
    surprise = when == "surprise"
    if strength not in ("small", "large") or not (surprise or (is_digits(when) and 1 <= int(when) <= 100)):
        raise fail(ctx, "err.fire_usage")
    turns = 0 if surprise else int(when)
    actor = await target_actor(ctx, inv.args.get("target", []))
    result: dict[str, Any] = {
        "kind": "harm",
        "system": SYSTEM,
        "action": "fire",
        "strength": strength,
        "turns": turns,
        "surprise": surprise,
    }
    if strength == "small" and not surprise:
        damage = carry_exposure(actor, "fire", turns, result)
    else:
        damage = mechanics.exposure("fire", strength, turns, surprise)
    size = t(ctx, f"fire.{strength}")
    if surprise:
        sentence = t(ctx, "fire.surprise", name=actor.name, strength=size, damage=damage)
    else:
        sentence = t(ctx, "fire", name=actor.name, strength=size, turns=turns, damage=damage)
    return await exposure_reply(ctx, actor, sentence, damage, result)


@COMMANDS.command(
    "damage", "Storyteller: take N HP from a character (audited)", "damage N [deep] NAME", role="storyteller"
)
async def damage_command(ctx: CommandContext, inv: Invocation) -> Reply:
    """Storyteller: ``damage N [deep] NAME`` takes N HP (no soak roll; the ST already decided)."""
    amount: int = inv.args["amount"]  # 1 to 100 (``params``)
    deep: bool = inv.args["deep"]
    actor = await named_actor(ctx, " ".join(inv.args["target"]))
    result: dict[str, Any] = {
        "kind": "harm",
        "system": SYSTEM,
        "action": "damage",
        "damage": amount,
        "deep": deep,
    }
    sentences = [
        t(ctx, "damage.deep" if deep else "damage", name=actor.name, damage=amount),
        *await harm(ctx, actor, amount, deep, result),
    ]
    text = " ".join(sentences)
    await ctx.stlog(text, kind="st_edit", result=result, character_id=actor.id)
    await ctx.audit(
        "health.damage",
        character_id=actor.id,
        field_name="hp",
        old=result["target"]["hp_before"],
        new=result["target"]["hp"],
    )
    return Reply(text=text, result=result)


@command(
    COMMANDS,
    "dismember",
    "dismember a helpless body: 5 turns, then final death",
    "dismember NAME [TURNS]",
    ("расчленение беспомощного тела: 5 ходов, затем Окончательная Смерть", "dismember ИМЯ [ХОДЫ]"),
)
async def dismember_command(ctx: CommandContext, inv: Invocation) -> Reply:
    """ "Вампир может также получить Окончательную Смерть, если будет расчленен (обезглавлен,
    конечности отделены от тела, тело разрублено на куски и т.п.). На расчленение требуется 5
    ходов." The reading: only a body that cannot resist (torpor, unconscious, or held by the one
    who cuts) can be dismembered, or whatever a Storyteller says; the turns add up in this episode."""
    name: str = inv.args.get("target", "")
    turns: int = inv.args.get("turns", 1)
    if not name or not 1 <= turns <= tactics.DISMEMBER_TURNS:
        raise fail(ctx, "err.dismember_usage")
    character = await find_character(ctx.session, SYSTEM, name)
    if character is None:
        raise fail(ctx, "err.no_character", name=name[:60])
    target = await load_actor(ctx, character, lock=True)
    check_dead(ctx, target)
    cutter = await my_actor(ctx, required=not ctx.storyteller)
    if cutter is not None and cutter.id == target.id:
        raise fail(ctx, "err.self_target", name=target.name)
    if not ctx.storyteller and target.status == "active":
        holds = await episode.holds(ctx)
        assert cutter is not None
        if not any(h["holder_id"] == cutter.id and h["target_id"] == target.id for h in holds):
            raise fail(ctx, "err.dismember_resists", name=target.name)
    done, finished = tactics.dismember(await episode.dismembered_turns(ctx, target.id), turns)
    await episode.set_dismembered_turns(ctx, target.id, done)
    result: dict[str, Any] = {
        "kind": "harm",
        "system": SYSTEM,
        "action": "dismember",
        "target": target.name,
        "turns": done,
        "of": tactics.DISMEMBER_TURNS,
        "dead": finished,
    }
    sentences = [t(ctx, "dismember", name=target.name, done=done, of=tactics.DISMEMBER_TURNS)]
    if finished:
        target.sheet.dead = True
        target.save_sheet(ctx)
        sentences.append(t(ctx, "status.dead", name=target.name))
    return await log(ctx, result, sentences, cutter)


def check_dead(ctx: CommandContext, actor: Actor) -> None:
    if actor.status == "dead":
        check_able(ctx, actor)
