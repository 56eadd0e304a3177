"""Pursuit ("Розыск и преследование"): compared like initiative, by active Celerity, then Могущество,
then 2d6 (the lower wins), a tie 1d6."""

from __future__ import annotations

from typing import Any

from gateway import CommandContext, CommandSet, Invocation, Reply, faces
from gateway.features.characters import find_character
from gateway.rules.power_words import NotPowerWords, PowerWords
from plugins.nightwanderers import tactics
from plugins.nightwanderers.commands import SYSTEM, fail, load_actor, log, my_actor, refuse_self, t
from plugins.nightwanderers.config import NightWanderersSettings
from plugins.nightwanderers.registry import command
from plugins.nightwanderers.sheet import WandererSheet, norm

COMMANDS = CommandSet(SYSTEM)
USAGE = "pursue [celerity basic|advanced] vs QUARRY [celerity basic|advanced] [potence basic|advanced]"
RU_USAGE = (
    "pursue [быстрота начальная|продвинутая] против ДОБЫЧА [быстрота начальная|продвинутая]"
    " [могущество начальное|продвинутое]"
)
POWERS = PowerWords(
    fold=norm,
    flags={},
    levelled={
        "celerity": frozenset({"celerity", "быстрота"}),
        "potence": frozenset({"potence", "могущество"}),
    },
    levels={
        "basic": 1,
        "начальная": 1,
        "начальное": 1,
        "1": 1,
        "advanced": 2,
        "продвинутая": 2,
        "продвинутое": 2,
        "2": 2,
    },
)


def read(ctx: CommandContext, words: list[str]) -> dict[str, Any]:
    try:
        return POWERS.read(words)
    except NotPowerWords:
        raise fail(ctx, "err.pursue_usage") from None


def runner(
    ctx: CommandContext, name: str, powers: dict[str, Any], sheet: WandererSheet | None
) -> tactics.Runner:
    """A character's Могущество is on its sheet (the book does not ask for it to be active); its
    Celerity counts only when switched on, and never above the sheet."""
    if sheet is None:
        return tactics.Runner(name, int(powers["celerity"]), int(powers["potence"]))
    for power in ("celerity", "potence"):
        if powers[power] > getattr(sheet, power):
            level = t(ctx, f"power.{power}.{powers[power]}")
            raise fail(ctx, "err.init_missing_power", name=name, power=level)
    return tactics.Runner(name, int(powers["celerity"]), max(int(powers["potence"]), sheet.potence))


@command(
    COMMANDS,
    "pursue",
    "a chase: Celerity, then Potence, then 2d6 (lower wins)",
    USAGE,
    ("погоня: Быстрота, затем Могущество, затем 2d6 (меньшее побеждает)", RU_USAGE),
)
async def pursue_command(ctx: CommandContext, inv: Invocation) -> Reply:
    """The book's example: Maxina (basic Celerity, basic Могущество) chases a Knight of the Blood with
    the same powers; the dice show 3 for her and 4 for him: she catches him."""
    folded = [norm(w) for w in inv.words]
    if "vs" not in folded or folded.count("vs") > 1:
        raise fail(ctx, "err.pursue_usage")
    at = folded.index("vs")
    mine, theirs = list(inv.words[:at]), list(inv.words[at + 1 :])
    name_words, tail = POWERS.split_tail(theirs)
    if not name_words:
        raise fail(ctx, "err.pursue_usage")
    actor = await my_actor(ctx)
    assert actor is not None
    pursuer = runner(ctx, actor.name, read(ctx, mine), actor.sheet)
    name = " ".join(name_words)[:60]
    character = await find_character(ctx.session, SYSTEM, name)
    refuse_self(ctx, actor, character)
    if character is not None:
        other = await load_actor(ctx, character)
        quarry = runner(ctx, other.name, read(ctx, tail), other.sheet)
    else:
        quarry = runner(ctx, name, read(ctx, tail), None)
    settings = ctx.settings_for(NightWanderersSettings)
    chase = tactics.pursuit(pursuer, quarry, ctx.dice, settings.max_rerolls)
    key = "pursue.caught" if chase.caught else "pursue.escaped"
    if chase.decided_by == "dice":
        rolls = ", ".join(f"{n} {faces(d)}" for n, d in chase.rolls.items())
        how = t(ctx, "pursue.dice", rolls=rolls)
    else:
        kind, level = chase.decided_by.split(".")
        how = t(ctx, "pursue.power", power=t(ctx, f"power.{kind}.{level}"))
    sentences = [how, t(ctx, key, pursuer=pursuer.name, quarry=quarry.name)]
    result = {**chase.as_result(), "action": "pursuit"}
    if chase.faces:
        return await log(ctx, result, sentences, actor)
    return Reply(text=" ".join(sentences), result=result)
