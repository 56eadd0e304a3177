"""What an episode (Эпизод) leaves in a channel until it ends: the characters touched by its effects
(frenzy, a blood boost, slow exposure), the dying who lose 1 HP a turn, a dodge's initiative bonus
for the next turn, and dismemberment under way. One ``SceneState`` document per kind."""

from __future__ import annotations

from typing import Any

from gateway import CommandContext
from gateway.core import scene

# {"effects": [character ids], "dying": [character ids], "dismember": {id: turns}, "drained": {name: BP}}
EPISODE = "episode"
BONUS = "initiative_bonus"  # {"names": {folded name: {"name": name, "bonus": -1}}}
GRAPPLE = "grapple"  # see grapple_commands.py
TUG = "tug"  # see tug_commands.py
# Every per-channel document the end of an episode clears (the stealth alert is hunting_commands.py's).
CLEARED = (EPISODE, BONUS, GRAPPLE, TUG, "initiative", "stealth")


async def load(ctx: CommandContext) -> dict[str, Any]:
    return await scene.load(ctx, EPISODE) or {"effects": [], "dying": [], "dismember": {}}


async def remember(ctx: CommandContext, group: str, character_id: int) -> None:
    """Put the character in the episode's ``effects`` or ``dying`` list (once)."""
    data = await load(ctx)
    ids = list(data.get(group, []))
    if character_id not in ids:
        await scene.save(ctx, EPISODE, {**data, group: [*ids, character_id]})


async def forget(ctx: CommandContext, group: str, character_id: int) -> None:
    data = await load(ctx)
    ids = [i for i in data.get(group, []) if i != character_id]
    await scene.save(ctx, EPISODE, {**data, group: ids})


async def dismembered_turns(ctx: CommandContext, character_id: int) -> int:
    return int((await load(ctx)).get("dismember", {}).get(str(character_id), 0))


async def set_dismembered_turns(ctx: CommandContext, character_id: int, turns: int) -> None:
    data = await load(ctx)
    await scene.save(
        ctx, EPISODE, {**data, "dismember": {**data.get("dismember", {}), str(character_id): turns}}
    )


async def drained(ctx: CommandContext, victim: str) -> int:
    """BP drunk from a victim without a blood pool (a human) in this episode, by name."""
    return int((await load(ctx)).get("drained", {}).get(victim.casefold(), 0))


async def set_drained(ctx: CommandContext, victim: str, bp: int) -> None:
    data = await load(ctx)
    await scene.save(ctx, EPISODE, {**data, "drained": {**data.get("drained", {}), victim.casefold(): bp}})


async def give_initiative_bonus(ctx: CommandContext, name: str, bonus: int) -> None:
    """A bonus on this channel's next initiative roll (taken once, by ``scene.INITIATIVE``)."""
    data = await scene.load(ctx, BONUS) or {"names": {}}
    names = {**data["names"], name.casefold(): {"name": name, "bonus": bonus}}
    await scene.save(ctx, BONUS, {"names": names})


async def take_initiative_bonuses(ctx: CommandContext) -> dict[str, int]:
    """The bonuses waiting for the next roll, by folded name; they are gone once taken."""
    data = await scene.load(ctx, BONUS)
    if not data:
        return {}
    await scene.drop(ctx, BONUS)
    return {key: int(entry["bonus"]) for key, entry in data["names"].items()}


# --- grapples: {"holds": [{"holder", "holder_id", "vampire", "target", "target_id", "strength",
# "soak", "target_vampire", "bitten"}]} (ids None for NPCs, given by name) ---------------------


async def holds(ctx: CommandContext) -> list[dict[str, Any]]:
    return list((await scene.load(ctx, GRAPPLE) or {}).get("holds", []))


async def save_holds(ctx: CommandContext, found: list[dict[str, Any]]) -> None:
    if found:
        await scene.save(ctx, GRAPPLE, {"holds": found})
    else:
        await scene.drop(ctx, GRAPPLE)


async def break_hold(ctx: CommandContext, holder: str, target: str) -> bool:
    """ "пока защищающийся не нанесет по нему удачный удар": the hold of ``holder`` on ``target``
    ends; whether there was one."""
    found = await holds(ctx)
    kept = [
        h
        for h in found
        if (h["holder"].casefold(), h["target"].casefold()) != (holder.casefold(), target.casefold())
    ]
    if len(kept) == len(found):
        return False
    await save_holds(ctx, kept)
    return True
