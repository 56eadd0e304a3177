"""The Nightcap sheet's shape and trait names (pure)."""

from __future__ import annotations

from gateway.errors import UserError

TRAITS = ("physical", "mental", "social", "spirit")


def match_trait(word: str) -> str | None:
    """A trait by case-insensitive unique prefix (``phys`` -> ``physical``), or None if it is no trait."""
    folded = word.casefold()
    matches = [t for t in TRAITS if t.startswith(folded)]
    if len(matches) == 1:
        return matches[0]
    if len(matches) > 1:
        raise UserError(f"{word!r} could be {' or '.join(t.title() for t in matches)}; write more of it.")
    return None


def trait_or_error(word: str) -> str:
    trait = match_trait(word)
    if trait is None:
        raise UserError(f"Unknown trait {word[:40]!r}. Traits: Physical, Mental, Social, Spirit.")
    return trait
