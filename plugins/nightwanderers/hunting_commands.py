"""Hunting (a Mind roll at the ground's difficulty) and stealth (Sneak against Inspection)."""

from __future__ import annotations

from gateway import CommandContext, CommandSet, Invocation, Reply, faces
from gateway.core import scene as state
from gateway.features.characters import find_character
from gateway.rules.roll_words import read_term
from plugins.nightwanderers import mechanics
from plugins.nightwanderers.commands import (
    SYSTEM,
    WORDS,
    build_pool,
    fail,
    load_actor,
    log,
    pain_sentences,
    pool_or_trait,
    refuse_self,
    roll_result,
    t,
    trait_pool,
)
from plugins.nightwanderers.config import NightWanderersSettings
from plugins.nightwanderers.sheet import norm

TERRAIN_WORDS = {
    "feeding": "feeding",
    "кормушка": "feeding",
    "club": "feeding",
    "bar": "feeding",
    "business": "business",
    "деловая": "business",
    "деловой": "business",
    "residential": "residential",
    "жилые": "residential",
    "жилой": "residential",
    "slums": "slums",
    "трущобы": "slums",
    "suburbs": "suburbs",
    "пригороды": "suburbs",
    "пригород": "suburbs",
    "countryside": "countryside",
    "деревня": "countryside",
    "village": "countryside",
    "wilderness": "wilderness",
    "дикая": "wilderness",
    "wild": "wilderness",
}
STEALTH = "stealth"  # the channel state of who is on the alert
COMMANDS = CommandSet(SYSTEM)


@COMMANDS.command("hunt", "hunt: a Mind roll at the ground's difficulty", "hunt GROUND [POOL]")
async def hunt_command(ctx: CommandContext, inv: Invocation) -> Reply:
    """``hunt GROUND [POOL]``: a Mind roll at the ground's difficulty."""
    words = list(inv.words)
    terrain = TERRAIN_WORDS.get(norm(words[0])) if words else None
    if terrain is None:
        raise fail(ctx, "err.hunt_usage", terrains=t(ctx, "terrain.words"))
    diff = mechanics.TERRAIN[terrain]
    actor, pool = await pool_or_trait(ctx, words[1:], "err.roll_usage", "mind")
    rolled = mechanics.roll(pool.dice, ctx.dice, diff, 1, pool.pain)
    who = actor.name if actor else ctx.name
    result = roll_result(pool, rolled, who, action="hunt", terrain=terrain, found=rolled.successes >= 1)
    sentences = [
        t(
            ctx,
            "hunt",
            who=who,
            terrain=t(ctx, f"terrain.{terrain}"),
            diff=diff,
            faces=faces(rolled.dice),
            s=rolled.successes,
            degree=t(ctx, f"degree.{rolled.degree}"),
        ),
        *pain_sentences(ctx, pool),
        t(ctx, "hunt.found" if rolled.successes >= 1 else "hunt.none"),
    ]
    return await log(ctx, result, sentences, actor)


@COMMANDS.command("sneak", "stealth: Sneak at 4 against Inspection at 4", "sneak [POOL] vs INSPECTION|NAME")
async def sneak_command(ctx: CommandContext, inv: Invocation) -> Reply:
    """``sneak [POOL] vs INSPECTION|NAME``: Sneak at 4 against Inspection at 4; a tie is "heard
    something", and the next detection roll against the same sneaker in this channel is at 3."""
    settings = ctx.settings_for(NightWanderersSettings)
    lowered = [w.casefold() for w in inv.words]
    if lowered.count("vs") != 1:
        raise fail(ctx, "err.sneak_usage")
    at = lowered.index("vs")
    left_words, right_words = list(inv.words[:at]), list(inv.words[at + 1 :])
    if not right_words:
        raise fail(ctx, "err.sneak_usage")
    actor, sneak_pool = await pool_or_trait(ctx, left_words, "err.sneak_usage", "sneak")
    sneaker = actor.name if actor else ctx.name
    term = read_term(right_words)
    if term is not None and term.number is not None:
        watch_pool, watcher = build_pool(ctx, term, None), t(ctx, "npc")
    else:
        name = " ".join(right_words)
        character = await find_character(ctx.session, SYSTEM, name)
        if character is None:
            raise fail(ctx, "err.no_character", name=name[:60])
        refuse_self(ctx, actor, character)
        other = await load_actor(ctx, character)
        watch_pool, watcher = trait_pool(ctx, other, "inspection"), other.name
    alerts = (await state.load(ctx, STEALTH)) or {}
    key = sneaker.casefold()
    diff = settings.stealth_tie_difficulty if alerts.get(key) else 4
    outcome = mechanics.stealth(
        sneak_pool.dice, watch_pool.dice, ctx.dice, diff, (sneak_pool.pain, watch_pool.pain)
    )
    alerts = {k: v for k, v in alerts.items() if k != key}
    if outcome.outcome == "heard":
        alerts[key] = True
    await state.save(ctx, STEALTH, alerts)
    result = outcome.as_result()
    result["sides"][0].update(sneak_pool.result_fields(), who=sneaker)
    result["sides"][1].update(watch_pool.result_fields(), who=watcher)
    result["who"] = sneaker
    sentences = [
        t(
            ctx,
            "sneak.line",
            sneaker=sneaker,
            sneak_pool=sneak_pool.describe(ctx, WORDS),
            sneak_faces=faces(outcome.sneak.dice),
            s=outcome.sneak.successes,
            watcher=watcher,
            watch_pool=watch_pool.describe(ctx, WORDS),
            diff=diff,
            watch_faces=faces(outcome.inspection.dice),
            w=outcome.inspection.successes,
        ),
        *pain_sentences(ctx, sneak_pool, watch_pool),
        t(
            ctx,
            f"sneak.{outcome.outcome}",
            sneaker=sneaker,
            watcher=watcher,
            next=settings.stealth_tie_difficulty,
        ),
    ]
    return await log(ctx, result, sentences, actor)
