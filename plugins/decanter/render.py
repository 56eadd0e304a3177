"""The words of a Decanter roll: dice, qualities, faces, outcomes, aid and what it was against."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from gateway import CommandContext, faces
from plugins.decanter import mechanics
from plugins.decanter.messages import t


def dice_text(ctx: CommandContext, pool: int, label: str) -> str:
    if label:
        return t(ctx, "dice.labelled", label=label, n=pool)
    return t(ctx, "dice", n=pool)


def quality_text(ctx: CommandContext, quality: int) -> str:
    name = mechanics.QUALITY_NAMES[quality]
    return t(ctx, "with_quality", quality=t(ctx, f"quality.{name}")) if name else ""


def effect_what(ctx: CommandContext, quality: int, dice: int) -> str:
    """``Disadvantage``, ``-2 dice``, ``Disadvantage and -1 die``: what a Condition does to a roll."""
    parts = []
    if quality:
        parts.append(t(ctx, f"quality.{mechanics.QUALITY_NAMES[quality]}"))
    if dice:
        parts.append(t(ctx, "effect.dice", n=-dice))
    return t(ctx, "effect.and").join(parts)


def conditions_text(ctx: CommandContext, applied: Iterable[Mapping[str, Any]]) -> str:
    """`` (Condition Shaken: Disadvantage)``: the Conditions that changed a roll, or nothing."""
    items = [
        t(
            ctx,
            "cond.applied_item",
            cname=c["name"],
            effect=effect_what(ctx, int(c["quality"]), int(c["dice"])),
        )
        for c in applied
    ]
    return t(ctx, "cond.applied", n=len(items), items="; ".join(items)) if items else ""


def outcome_text(ctx: CommandContext, successes: int, degree: str, dc: int | None) -> str:
    if degree == "extra" and dc is not None:
        return t(ctx, "outcome.extra", n=successes, degree=t(ctx, "degree.extra"), extra=successes - dc)
    return t(ctx, "outcome", n=successes, degree=t(ctx, f"degree.{degree}"))


def faces_text(ctx: CommandContext, roll: mechanics.Roll) -> str:
    if roll.quality in (-1, 1):
        first = roll.dice[: roll.pool]
        if roll.take_half:
            return t(
                ctx,
                "faces.half",
                first=faces(first) or t(ctx, "faces.none"),
                a=roll.results[0],
                b=roll.results[1],
            )
        second = roll.dice[roll.pool :]
        return t(
            ctx,
            "faces.two",
            first=faces(first) or t(ctx, "faces.none"),
            a=roll.results[0],
            second=faces(second) or t(ctx, "faces.none"),
            b=roll.results[1],
        )
    if roll.quality in (-2, 2) and roll.rerolled:
        return t(ctx, "faces.reroll", first=faces(roll.dice[: roll.pool]), again=faces(roll.rerolled))
    return faces(roll.dice) or t(ctx, "faces.none")


def aid_text(ctx: CommandContext, helpers: list[mechanics.Aid], bonus: int) -> str:
    if not helpers:
        return ""
    shown = ", ".join(
        t(
            ctx,
            "aid.npc" if h.npc else "aid.pc",
            pool=h.pool if h.npc else f"{faces(h.dice) or '-'}",
            successes=h.successes,
        )
        for h in helpers
    )
    return " (" + t(ctx, "aid", bonus=bonus, helpers=len(helpers), shown=shown) + ")"


def against_text(
    ctx: CommandContext, dc: int, npc_pool: int | None = None, extended: dict[str, Any] | None = None
) -> str:
    """What a roll was against: an extended contest's DC, an NPC's pool or a DC."""
    if extended is not None:
        return t(ctx, "against.extended", dc=dc, at=extended["roll"], of=extended["multiplier"])
    if npc_pool is not None:
        return t(ctx, "against.npc", npc=t(ctx, "dice", n=npc_pool), dc=dc)
    return t(ctx, "against.dc", dc=dc, title=mechanics.dc_title(dc).title())
