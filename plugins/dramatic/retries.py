"""Retries: "In non-combat situations, trying the same thing again after a failure (not botch) is
typically +1 difficulty (cumulative)." (book 003)

Each roller (a character, or a person rolling without one) has one record per channel, a
``SceneState`` document ``retry:<roller>``: the latest action (its pool, the Ability it is stated in,
its difficulty) and how often it has failed. It lasts until the roller's next action replaces it, a
success ends it, or the scene ends (``* * *`` / ``scene end``). ``retry`` must repeat that action: the
same pool (traits in any order) and the same difficulty; anything else is refused with the reason.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from gateway import CommandContext, UserError
from gateway.core import scene
from gateway.vault.models import Character, SceneState
from plugins.dramatic import mechanics
from plugins.dramatic.mechanics import SYSTEM
from plugins.dramatic.parse import SideRequest


def retry_kind(ctx: CommandContext, character: Character | None) -> str:
    return f"retry:{scene.roller_key(ctx, character)}"


def action_text(side: SideRequest) -> str:
    """The action as the roller wrote it: ``wits+streetwise``, ``wits+gang_lore for streetwise``."""
    pool = "".join(side.words)
    return f"{pool} for {side.stated}" if side.stated else pool


@dataclass(frozen=True)
class Retry:
    side: SideRequest  # the side to roll: the recorded action's pool when the roll named none
    failures: int  # failures of this action so far (0: not a retry)
    base: int | None  # the recorded difficulty (clamped), None when not a retry
    row: SceneState | None


async def load(ctx: CommandContext, character: Character | None, *, lock: bool = True) -> SceneState | None:
    return await scene.get(ctx.session, ctx.channel.key, SYSTEM, retry_kind(ctx, character), lock=lock)


async def plan(
    ctx: CommandContext, side: SideRequest, retry: bool, character: Character | None, who: str, lock: bool
) -> Retry:
    """The retry this roll asks for, or a refusal that says why it is none."""
    row = await load(ctx, character, lock=lock)
    if not retry:
        return Retry(side, 0, None, row)
    if row is None:
        raise UserError(
            f"Nothing to retry: {who}'s latest roll here did not fail (or the scene has ended)."
            " Roll without retry."
        )
    data = row.data
    if data.get("botched"):
        raise UserError(
            f"{who}'s latest roll here botched: whether and how to try again is the Storyteller's call."
            " Roll without retry if they allow it."
        )
    base = int(data.get("difficulty", mechanics.DEFAULT_DIFFICULTY))
    failures = int(data.get("failures", 0))
    if not side.words:
        if "words" not in data:  # a record from before actions were kept
            raise UserError("Write the pool to retry: roll POOL retry.")
        side = replace(
            side,
            words=tuple(data["words"]),
            stated=data.get("stated"),
            specialty=side.specialty or bool(data.get("specialty")),
        )
    if side.difficulty is not None and mechanics.clamp_difficulty(side.difficulty) != base:
        raise UserError(
            f"retry repeats {who}'s latest action here at its difficulty, {base}, and adds +{failures}"
            f" for {'a retry' if failures == 1 else 'retries'}: leave diff out (or write diff {base}),"
            " or roll without retry for a new action."
        )
    return Retry(side, failures, base, row)


def check_same(who: str, row: SceneState, action: str, side: SideRequest) -> None:
    """Refuse a retry of another pool than the recorded action's."""
    recorded = row.data.get("action")
    if recorded is not None and recorded != action:
        raise UserError(
            f"retry repeats {who}'s latest action here, {row.data.get('text', recorded)} at difficulty"
            f" {row.data.get('difficulty')}; {action_text(side)} is another action: roll it without retry."
        )


async def record(
    ctx: CommandContext,
    character: Character | None,
    plan_: Retry,
    degree: str,
    who: str,
    base: int,
    action: str,
) -> None:
    """After the roll: a success ends the record, a botch closes it, a failure counts one more."""
    if degree == "success":
        if plan_.row is not None:
            await ctx.session.delete(plan_.row)
        return
    data: dict[str, Any]
    if degree == "botch":
        data = {"botched": True, "name": who}
    else:
        side = plan_.side
        data = {
            "failures": plan_.failures + 1,
            "name": who,
            "difficulty": base,
            "action": action,
            "text": action_text(side),
            "words": list(side.words),
            "stated": side.stated,
            "specialty": side.specialty,
        }
    await scene.put(ctx.session, ctx.channel.key, SYSTEM, retry_kind(ctx, character), data, ctx.now)
