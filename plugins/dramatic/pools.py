"""A Dramatic Systems pool read against a sheet (pure): its dice and label, the Abilities in it and
of which kind, the ones the roller lacks, and the key that says whether two rolls are one action."""

from __future__ import annotations

from dataclasses import dataclass, field

from gateway.rules.dots_sheet import trait_title
from gateway.rules.numbers import is_digits
from gateway.rules.pool_sum import PoolExpr, add_up
from plugins.dramatic.abilities import PRIMARY, SECONDARY, secondary_key
from plugins.dramatic.sheet import ABILITIES, SCHEMA, DramaticSheet


@dataclass(frozen=True)
class ReadPool:
    dice: int
    label: str
    abilities: dict[str, str] = field(default_factory=dict)  # Ability key -> primary / secondary
    lacking: tuple[str, ...] = ()  # Abilities in the pool rated 0
    action: str = ""  # the same for the same pool written any way (``brawl+dex`` = ``dex+brawl``)


def read_pool(expr: PoolExpr, sheet: DramaticSheet | None, who: str = "you") -> ReadPool:
    """Numbers, Attributes, primary Abilities and the sheet's secondary Abilities to dice."""
    abilities: dict[str, str] = {}
    lacking: list[str] = []
    traits: list[str] = []

    def rated(word: str) -> tuple[str, int]:
        key = secondary_key([word])
        if sheet is not None and key in sheet.secondary:
            abilities[key] = SECONDARY
            traits.append(key)
            return trait_title(key), sheet.secondary[key]
        # One term through the sheet's own reading: its refusals (unknown trait, no character).
        rating = SCHEMA.pool(PoolExpr(((1, word),), word), sheet, who).dice
        trait = SCHEMA.match_trait(word) or word
        if trait in ABILITIES:
            abilities[trait] = PRIMARY
            if rating == 0:
                lacking.append(trait)
        traits.append(trait)
        return trait_title(trait), rating

    pool = add_up(expr, rated)
    number = sum(sign * int(word) for sign, word in expr.terms if is_digits(word))
    action = "+".join([*sorted(traits), *([str(number)] if number or not traits else [])])
    return ReadPool(pool.dice, pool.label, abilities, tuple(lacking), action)
