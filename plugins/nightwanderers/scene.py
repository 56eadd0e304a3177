"""Initiative for Night Wanderers, kept per channel in ``SceneState`` (survives a restart)."""

from __future__ import annotations

from typing import Any

from gateway import scene as state
from gateway.characters import find_character
from gateway.commands import CommandContext
from gateway.types import Invocation, Reply
from plugins.nightwanderers import config, mechanics
from plugins.nightwanderers.commands import SYSTEM, faces, fail, my_actor, t
from plugins.nightwanderers.sheet import WandererSheet, norm

INIT = "initiative"
HUNTING_WORDS = {"hunt", "hunting", "instinct", "инстинкт", "охотничий"}
CELERITY_WORDS = {"celerity", "быстрота"}
CELERITY_LEVELS = {"basic": 1, "начальная": 1, "1": 1, "advanced": 2, "продвинутая": 2, "2": 2}


def read_powers(ctx: CommandContext, words: list[str]) -> tuple[bool, int]:
    hunting, celerity = False, 0
    folded = [norm(w) for w in words]
    i = 0
    while i < len(folded):
        if folded[i] in HUNTING_WORDS:
            hunting = True
        elif folded[i] in CELERITY_WORDS and i + 1 < len(folded) and folded[i + 1] in CELERITY_LEVELS:
            celerity = CELERITY_LEVELS[folded[i + 1]]
            i += 1
        else:
            raise fail(ctx, "err.init_usage")
        i += 1
    return hunting, celerity


def powers_text(ctx: CommandContext, entry: dict[str, Any]) -> str:
    names = []
    if entry["hunting"]:
        names.append(t(ctx, "power.hunting"))
    if entry["celerity"]:
        names.append(t(ctx, f"power.celerity.{entry['celerity']}"))
    return t(ctx, "init.powers", powers=", ".join(names)) if names else ""


async def _join(ctx: CommandContext, entry: dict[str, Any]) -> Reply:
    data = await state.load(ctx, INIT) or {"entries": [], "order": None}
    same = [i for i, e in enumerate(data["entries"]) if e["name"].casefold() == entry["name"].casefold()]
    entries = [e for e in data["entries"] if e["name"].casefold() != entry["name"].casefold()]
    entries.insert(same[0] if same else len(entries), entry)
    await state.save(ctx, INIT, {"entries": entries, "order": None})
    text = t(ctx, "init.joined", name=entry["name"], powers=powers_text(ctx, entry))
    return Reply(text=text, result={"kind": "initiative", "system": SYSTEM, "entries": entries})


async def init_join_command(ctx: CommandContext, inv: Invocation) -> Reply:
    actor = await my_actor(ctx)
    assert actor is not None
    hunting, celerity = read_powers(ctx, list(inv.words))
    if hunting and not actor.sheet.hunting:
        raise fail(ctx, "err.init_missing_power", name=actor.name, power=t(ctx, "power.hunting"))
    if celerity > actor.sheet.celerity:
        raise fail(ctx, "err.init_missing_power", name=actor.name, power=t(ctx, f"power.celerity.{celerity}"))
    entry = {"name": actor.name, "character_id": actor.id, "hunting": hunting, "celerity": celerity}
    return await _join(ctx, entry)


async def init_add_command(ctx: CommandContext, inv: Invocation) -> Reply:
    """``init add NAME [hunting] [celerity basic|advanced]``: power words are read from the end."""
    words = list(inv.words)
    powers: list[str] = []
    while words:
        folded = norm(words[-1])
        if folded in HUNTING_WORDS:
            powers.insert(0, words.pop())
        elif folded in CELERITY_LEVELS and len(words) > 1 and norm(words[-2]) in CELERITY_WORDS:
            powers[:0] = [words[-2], words[-1]]
            del words[-2:]
        else:
            break
    name = " ".join(words)
    if not name:
        raise fail(ctx, "err.init_usage")
    hunting, celerity = read_powers(ctx, powers)
    character = await find_character(ctx.session, SYSTEM, name)
    if character is not None:
        sheet = WandererSheet.of(character.sheet)
        if (hunting and not sheet.hunting) or celerity > sheet.celerity:
            power = (
                t(ctx, "power.hunting")
                if hunting and not sheet.hunting
                else t(ctx, f"power.celerity.{celerity}")
            )
            raise fail(ctx, "err.init_missing_power", name=character.name, power=power)
        name = character.name
    entry = {
        "name": name[:60],
        "character_id": character.id if character else None,
        "hunting": hunting,
        "celerity": celerity,
    }
    return await _join(ctx, entry)


def order_text(ctx: CommandContext, order: dict[str, Any]) -> str:
    lines = [t(ctx, "init.order", order=", ".join(f"{i}. {n}" for i, n in enumerate(order["order"], 1)))]
    if order["extra"]:
        lines.append(t(ctx, "init.extra", passes="; ".join(", ".join(p) for p in order["extra"])))
    if order["rolls"]:
        lines.append(
            t(ctx, "init.dice", rolls=", ".join(f"{n} {faces(d)}" for n, d in order["rolls"].items()))
        )
    return " ".join(lines)


async def init_command(ctx: CommandContext, inv: Invocation) -> Reply:
    if inv.words:
        raise fail(ctx, "err.init_usage")
    data = await state.load(ctx, INIT)
    if not data or not data["entries"]:
        return Reply(
            text=t(ctx, "init.empty"), result={"kind": "initiative", "system": SYSTEM, "order": None}
        )
    if data.get("order"):
        return Reply(text=order_text(ctx, data["order"]), result=data["order"])
    return Reply(
        text=t(ctx, "init.waiting", names=", ".join(e["name"] for e in data["entries"])),
        result={"kind": "initiative", "system": SYSTEM, "entries": data["entries"], "order": None},
    )


async def init_roll_command(ctx: CommandContext, inv: Invocation) -> Reply:
    settings = config.load(ctx.settings)
    data = await state.load(ctx, INIT)
    if not data or not data["entries"]:
        raise fail(ctx, "init.empty")
    extra = {0: 0, 1: settings.celerity_basic_extra, 2: settings.celerity_advanced_extra}
    combatants = [
        mechanics.Combatant(e["name"], bool(e["hunting"]), int(e["celerity"]), extra[int(e["celerity"])])
        for e in data["entries"]
    ]
    try:
        order = mechanics.initiative(combatants, ctx.dice, settings.max_rerolls)
    except mechanics.Stalemate:
        raise fail(ctx, "err.stalemate", n=settings.max_rerolls) from None
    result = order.as_result()
    text = order_text(ctx, result)
    if result["dice"]:  # ties went to the dice: the roll log keeps them, verify shows them
        text = f"{text} #{await ctx.log_roll(result)}"
    await state.save(ctx, INIT, {**data, "order": result})
    await ctx.stlog(text, kind="initiative", result=result)
    return Reply(text=text, result=result)


async def init_remove_command(ctx: CommandContext, inv: Invocation) -> Reply:
    name = " ".join(inv.words)
    data = await state.load(ctx, INIT)
    entries = (data or {}).get("entries", [])
    kept = [e for e in entries if e["name"].casefold() != name.casefold()]
    if not name or len(kept) == len(entries):
        raise fail(ctx, "err.init_not_in", name=name[:60] or "?")
    await state.save(ctx, INIT, {"entries": kept, "order": None})
    return Reply(text=t(ctx, "init.removed", name=name), result={"kind": "initiative", "entries": kept})


async def init_clear_command(ctx: CommandContext, inv: Invocation) -> Reply:
    await state.drop(ctx, INIT)
    return Reply(text=t(ctx, "init.cleared"), result={"kind": "initiative", "system": SYSTEM, "order": None})
