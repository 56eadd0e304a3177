"""Character creation's budget (RULINGS, "Character creation"). Pure: every check takes the sheet and
the budget and either passes or raises ``UserError`` with the exact reason.

Traits start at ``base`` (1); ``trait_points`` (6) more are placed; none above ``trait_max`` (4) and only
one trait at ``trait_max``. Powers cost dots by tier (Basic 1, Adept 2, Advanced 3) out of ``power_dots``
(3); Epic and Legendary are not available at creation. A sheet is submitted only with the budget spent
exactly.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from gateway import UserError
from plugins.nightcap.powers import TIERS, Tier
from plugins.nightcap.sheet import TRAITS


@dataclass(frozen=True)
class Budget:
    trait_points: int = 6
    trait_max: int = 4
    power_dots: int = 3
    base: int = 1


def plural(n: int, one: str, many: str | None = None) -> str:
    return f"{n} {one if n == 1 else (many or one + 's')}"


def remaining(left: int, unit: str) -> str:
    """``4 trait points left``; a sheet a Storyteller took past creation is ``94 trait points over
    budget``, never a negative count left."""
    return f"{plural(left, unit)} left" if left >= 0 else f"{plural(-left, unit)} over budget"


def left_fields(left: int) -> dict[str, int]:
    """A reply's ``left`` and ``over`` for a count ``remaining`` reads (neither is ever negative)."""
    return {"left": max(0, left), "over": max(0, -left)}


def traits_spent(traits: Mapping[str, int], budget: Budget) -> int:
    return sum(int(traits.get(t, budget.base)) - budget.base for t in TRAITS)


def dots_spent(powers: list[dict[str, Any]]) -> int:
    return sum(TIERS[p["tier"]].dots for p in powers if p.get("tier") in TIERS)


def check_trait(sheet: dict[str, Any], trait: str, value: int, budget: Budget) -> None:
    """Refuse a player's ``trait TRAIT VALUE`` that would break the creation budget."""
    title = trait.title()
    if value < budget.base:
        raise UserError(f"{title} {value} is below {budget.base}: every trait starts at {budget.base}.")
    if value > budget.trait_max:
        raise UserError(
            f"{title} {value} is above {budget.trait_max}: no trait starts above {budget.trait_max};"
            " a Storyteller can raise it after approval."
        )
    traits = {**sheet["traits"], trait: value}
    if value < int(sheet["traits"].get(trait, budget.base)):
        return  # lowering only ever brings a sheet nearer the budget (one a Storyteller raised, say)
    if value == budget.trait_max:
        others = [t for t in TRAITS if t != trait and int(traits[t]) >= budget.trait_max]
        if others:
            other = others[0]
            raise UserError(
                f"{title} {value} would be a second trait at {budget.trait_max}:"
                f" {other.title()} is already {traits[other]}."
            )
    spent = traits_spent(traits, budget)
    if spent > budget.trait_points:
        over = spent - budget.trait_points
        raise UserError(
            f"{title} {value} would spend {plural(spent, 'trait point')}, {over} more than the"
            f" {budget.trait_points} you have: lower another trait first."
        )


def check_power(sheet: dict[str, Any], name: str, tier: Tier, budget: Budget) -> None:
    """Refuse a player's ``power add`` that would break the creation budget."""
    if not tier.creation:
        raise UserError(
            f"{tier.title} powers are beyond starting reach: at creation a power is Basic, Adept or Advanced."
        )
    spent = dots_spent(sheet["powers"]) + tier.dots
    if spent > budget.power_dots:
        over = spent - budget.power_dots
        raise UserError(
            f"{name} ({tier.title}) would spend {plural(spent, 'power dot')}, {over} more than the"
            f" {budget.power_dots} you have: remove a power or pick a lower tier."
        )


def problems(sheet: dict[str, Any], budget: Budget) -> list[str]:
    """Everything that keeps a sheet from being submitted, in reading order (empty when it is ready)."""
    found: list[str] = []
    traits = sheet["traits"]
    for t in TRAITS:
        value = int(traits[t])
        if value < budget.base:
            found.append(f"{t.title()} {value} is below {budget.base}")
        elif value > budget.trait_max:
            found.append(f"{t.title()} {value} is above {budget.trait_max}")
    at_max = [t.title() for t in TRAITS if int(traits[t]) == budget.trait_max]
    if len(at_max) > 1:
        found.append(f"{' and '.join(at_max)} are at {budget.trait_max}; only one trait may be")
    left = budget.trait_points - traits_spent(traits, budget)
    if left > 0:
        found.append(f"{plural(left, 'trait point')} still to place")
    elif left < 0:
        found.append(f"{plural(-left, 'trait point')} too many")
    for power in sheet["powers"]:
        tier = TIERS.get(power.get("tier", ""))
        if tier is not None and not tier.creation:
            found.append(f"{power['name']} is {tier.title}, beyond starting reach")
    dots = budget.power_dots - dots_spent(sheet["powers"])
    if dots > 0:
        found.append(f"{plural(dots, 'power dot')} still to spend")
    elif dots < 0:
        found.append(f"{plural(-dots, 'power dot')} too many")
    return found


def check_submit(name: str, sheet: dict[str, Any], budget: Budget) -> None:
    found = problems(sheet, budget)
    if found:
        raise UserError(f"{name} cannot be submitted: {'; '.join(found)}.")


def summary(sheet: dict[str, Any], budget: Budget) -> dict[str, Any]:
    """What the book's point budget calculator shows: points and dots left, and the trait at the cap."""
    traits = sheet["traits"]
    at_max = [t for t in TRAITS if int(traits[t]) >= budget.trait_max]
    points = budget.trait_points - traits_spent(traits, budget)
    dots = budget.power_dots - dots_spent(sheet["powers"])
    return {
        "kind": "budget",
        "trait_points": budget.trait_points,
        "trait_points_left": max(0, points),
        "trait_points_over": max(0, -points),
        "power_dots": budget.power_dots,
        "power_dots_left": max(0, dots),
        "power_dots_over": max(0, -dots),
        "trait_max": budget.trait_max,
        "at_max": at_max,
        "traits": {t: int(traits[t]) for t in TRAITS},
        "powers": [dict(p) for p in sheet["powers"]],
        "problems": problems(sheet, budget),
    }
