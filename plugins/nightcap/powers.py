"""Power tiers and what using one costs (RULINGS, "Powers"). Pure: no I/O."""

from __future__ import annotations

from dataclasses import dataclass

from gateway import UserError
from gateway.rules.numbers import is_digits


@dataclass(frozen=True)
class Tier:
    name: str
    rank: int  # 1 Basic .. 5 Legendary
    dots: int  # what learning it costs at creation
    essence: int  # what using it costs
    creation: bool  # available at character creation

    @property
    def title(self) -> str:
        return self.name.title()


TIERS: dict[str, Tier] = {
    t.name: t
    for t in (
        Tier("basic", 1, 1, 0, True),
        Tier("adept", 2, 2, 1, True),
        Tier("advanced", 3, 3, 2, True),
        Tier("epic", 4, 4, 3, False),
        Tier("legendary", 5, 5, 4, False),
    )
}
TIER_LIST = "Basic, Adept, Advanced, Epic or Legendary"


def match_tier(word: str) -> Tier | None:
    """A tier by name or unique prefix (``adv`` -> Advanced), or by its rank (``1`` .. ``5``)."""
    folded = word.casefold()
    if is_digits(folded):
        return next((t for t in TIERS.values() if t.rank == int(folded)), None)
    if not folded:
        return None
    matches = [t for name, t in TIERS.items() if name.startswith(folded)]
    if len(matches) > 1:
        raise UserError(f"{word!r} could be {' or '.join(t.title for t in matches)}; write more of it.")
    return matches[0] if matches else None


def tier_or_error(word: str) -> Tier:
    tier = match_tier(word)
    if tier is None:
        raise UserError(f"Unknown tier {word[:40]!r}: write {TIER_LIST}.")
    return tier


@dataclass(frozen=True)
class UseCost:
    tier: Tier
    essence: int  # what is spent
    needs: int  # what the pool must hold before anything is spent


def use_cost(learned: Tier, chosen: Tier | None = None, name: str = "That power") -> UseCost:
    """Using a power at ``chosen`` (default: its learned tier) pays that tier's Essence. Casting below the
    learned tier is allowed and costs the lower amount; above it is refused. Basic is free but the pool
    must hold at least 1 Essence."""
    tier = chosen or learned
    if tier.rank > learned.rank:
        raise UserError(
            f"{name} is learned at {learned.title}; it cannot be used at {tier.title}."
            f" Use it at {learned.title} or below."
        )
    return UseCost(tier=tier, essence=tier.essence, needs=max(1, tier.essence))


def cost_refusal(power: str, cost: UseCost, character: str, essence: int) -> str | None:
    """The refusal when the pool cannot pay, or None when it can."""
    if essence >= cost.needs:
        return None
    if cost.essence == 0:
        return (
            f"{power} at Basic is free but needs at least 1 Essence in the pool; {character} has {essence}."
        )
    return f"{power} at {cost.tier.title} costs {cost.essence} Essence; {character} has {essence}."
