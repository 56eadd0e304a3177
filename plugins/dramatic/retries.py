"""Retries: "In non-combat situations, trying the same thing again after a failure (not botch) is
typically +1 difficulty (cumulative)." (book 003)

Each roller (a character, or a person rolling without one) has one record per channel (kept by
``store.py``): the latest action (its pool, the Ability it is stated in, its difficulty) and how often
it has failed. It lasts until the roller's next action replaces it, a success ends it, or the scene
ends (``* * *`` / ``scene end``). ``retry`` must repeat that action: the same pool (traits in any
order) and the same difficulty; anything else is refused with the reason. These are the rules, pure:
what a roll asks of the record, and what the record becomes after the roll.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from gateway import UserError
from plugins.dramatic import mechanics
from plugins.dramatic.parse import SideRequest


def action_text(side: SideRequest) -> str:
    """The action as the roller wrote it: ``wits+streetwise``, ``wits+gang_lore for streetwise``."""
    pool = "".join(side.words)
    return f"{pool} for {side.stated}" if side.stated else pool


@dataclass(frozen=True)
class Retry:
    side: SideRequest  # the side to roll: the recorded action's pool when the roll named none
    failures: int  # failures of this action so far (0: not a retry)
    base: int | None  # the recorded difficulty (clamped), None when not a retry
    recorded: Mapping[str, Any] | None  # the roller's record here, if any


def plan(recorded: Mapping[str, Any] | None, side: SideRequest, retry: bool, who: str) -> Retry:
    """The retry this roll asks for, given the roller's ``recorded`` action, or a refusal that says
    why it is none."""
    if not retry:
        return Retry(side, 0, None, recorded)
    if recorded is None:
        raise UserError(
            f"Nothing to retry: {who}'s latest roll here did not fail (or the scene has ended)."
            " Roll without retry."
        )
    if recorded.get("botched"):
        raise UserError(
            f"{who}'s latest roll here botched: whether and how to try again is the Storyteller's call."
            " Roll without retry if they allow it."
        )
    base = int(recorded.get("difficulty", mechanics.DEFAULT_DIFFICULTY))
    failures = int(recorded.get("failures", 0))
    if not side.words:
        if "words" not in recorded:  # a record from before actions were kept
            raise UserError("Write the pool to retry: roll POOL retry.")
        side = replace(
            side,
            words=tuple(recorded["words"]),
            stated=recorded.get("stated"),
            specialty=side.specialty or bool(recorded.get("specialty")),
        )
    if side.difficulty is not None and mechanics.clamp_difficulty(side.difficulty) != base:
        raise UserError(
            f"retry repeats {who}'s latest action here at its difficulty, {base}, and adds +{failures}"
            f" for {'a retry' if failures == 1 else 'retries'}: leave diff out (or write diff {base}),"
            " or roll without retry for a new action."
        )
    return Retry(side, failures, base, recorded)


def check_same(who: str, recorded: Mapping[str, Any], action: str, side: SideRequest) -> None:
    """Refuse a retry of another pool than the recorded action's."""
    action_then = recorded.get("action")
    if action_then is not None and action_then != action:
        raise UserError(
            f"retry repeats {who}'s latest action here, {recorded.get('text', action_then)} at difficulty"
            f" {recorded.get('difficulty')}; {action_text(side)} is another action: roll it without retry."
        )


def after(plan_: Retry, degree: str, who: str, base: int, action: str) -> dict[str, Any] | None:
    """The record after the roll: none after a success, closed after a botch, one more failure else."""
    if degree == "success":
        return None
    if degree == "botch":
        return {"botched": True, "name": who}
    side = plan_.side
    return {
        "failures": plan_.failures + 1,
        "name": who,
        "difficulty": base,
        "action": action,
        "text": action_text(side),
        "words": list(side.words),
        "stated": side.stated,
        "specialty": side.specialty,
    }
