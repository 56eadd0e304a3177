"""The Nightcap sheet's shape, trait and field names, and pool maxima (pure).

A sheet (``Character.sheet``) is ``{"fields": {...}, "traits": {...}, "powers": [...], "max": {...}}``:
narrative fields (the name is ``Character.name``), the four trait ratings, powers as
``{"name", "tier", "trait"}`` and a Storyteller's per-character pool maximum overrides. Spendable
resources are ``Pool`` rows: ``willpower``, ``essence`` and ``damage`` (levels of damage taken; the
Health track is ``damage`` out of ``health_levels``).
"""

from __future__ import annotations

import copy
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from gateway import UserError
from gateway.rules.closest import closest

TRAITS = ("physical", "mental", "social", "spirit")
FIELDS = ("origin", "subgroup", "aptitude", "advantage", "weakness")
WILLPOWER, ESSENCE, DAMAGE = "willpower", "essence", "damage"
POOLS = (WILLPOWER, ESSENCE, DAMAGE)
MAX_FIELD = 300


TraitName = Literal["physical", "mental", "social", "spirit"]


class NightcapPower(BaseModel):
    model_config = ConfigDict(extra="allow")

    name: str = Field(min_length=1, max_length=60)
    tier: Literal["basic", "adept", "advanced", "epic", "legendary"]
    trait: TraitName | None = None


class NightcapSheet(BaseModel):
    """What a stored sheet may hold (``RuleSystem.sheet_model``: checked on a sheet from outside the
    vault, ``gateway import characters``). The commands keep working on the plain dict; keys they do
    not know are allowed, and missing ones are filled in by ``normalise``."""

    model_config = ConfigDict(extra="allow")

    fields: dict[str, Annotated[str, Field(max_length=MAX_FIELD)]] = Field(default_factory=dict)
    traits: dict[TraitName, Annotated[int, Field(ge=0)]] = Field(default_factory=dict)
    powers: list[NightcapPower] = Field(default_factory=list)
    max: dict[Literal["willpower", "essence"], Annotated[int, Field(ge=0)]] = Field(default_factory=dict)
    checkin: str | None = None
    soak: int = Field(0, ge=0)


def match_trait(word: str) -> str | None:
    """A trait by case-insensitive unique prefix (``phys`` -> ``physical``), or None if it is no trait."""
    folded = word.casefold()
    if not folded:
        return None
    matches = [t for t in TRAITS if t.startswith(folded)]
    if len(matches) == 1:
        return matches[0]
    if len(matches) > 1:
        raise UserError(f"{word!r} could be {' or '.join(t.title() for t in matches)}; write more of it.")
    return None


def trait_or_error(word: str) -> str:
    trait = match_trait(word)
    if trait is None:
        raise UserError(f"Unknown trait {word[:40]!r}. {unknown_trait_hint(word, TRAITS_LINE)}")
    return trait


TRAITS_LINE = "Traits: Physical, Mental, Social, Spirit."


def unknown_trait_hint(word: str, otherwise: str) -> str:
    """What an unknown trait's refusal goes on with: the closest trait, else ``otherwise``."""
    near = closest(word, TRAITS)
    return f"Did you mean {near}?" if near else otherwise


def match_field(word: str) -> str:
    """A narrative field (``name`` included) by case-insensitive unique prefix."""
    folded = word.casefold()
    names = ("name", *FIELDS)
    matches = [f for f in names if f.startswith(folded)] if folded else []
    if len(matches) == 1:
        return matches[0]
    if len(matches) > 1:
        raise UserError(f"{word!r} could be {' or '.join(f.title() for f in matches)}; write more of it.")
    raise UserError(
        f"Unknown field {word[:40]!r}. Fields: Name, Origin, Subgroup, Aptitude, Advantage, Weakness."
    )


def new_sheet() -> dict[str, Any]:
    return {
        "fields": dict.fromkeys(FIELDS, ""),
        "traits": dict.fromkeys(TRAITS, 1),
        "powers": [],
        "max": {},
    }


def normalise(sheet: dict[str, Any] | None) -> dict[str, Any]:
    """A deep copy with every key present (older or hand-made sheets may lack some)."""
    base = new_sheet()
    data = copy.deepcopy(sheet or {})
    data["fields"] = {**base["fields"], **(data.get("fields") or {})}
    data["traits"] = {**base["traits"], **(data.get("traits") or {})}
    data["powers"] = list(data.get("powers") or [])
    data["max"] = dict(data.get("max") or {})
    return data


def trait(sheet: dict[str, Any], name: str) -> int:
    return int((sheet.get("traits") or {}).get(name, 1))


def pool_maxima(sheet: dict[str, Any], *, essence_max: int, health_levels: int) -> dict[str, int]:
    """Willpower = Mental + Spirit, Essence = the setting, Health = the levels.

    A Storyteller's per-character override (``sheet["max"]``) wins for Willpower and Essence."""
    overrides = sheet.get("max") or {}
    willpower = trait(sheet, "mental") + trait(sheet, "spirit")
    return {
        WILLPOWER: int(overrides.get(WILLPOWER, willpower)),
        ESSENCE: int(overrides.get(ESSENCE, essence_max)),
        DAMAGE: health_levels,
    }


def find_power(sheet: dict[str, Any], word: str) -> dict[str, Any] | None:
    """A power by case-insensitive exact name, else unique prefix; None when nothing matches."""
    folded = " ".join(word.split()).casefold()
    powers = sheet.get("powers") or []
    exact = [p for p in powers if p["name"].casefold() == folded]
    if exact:
        return exact[0]
    matches = [p for p in powers if p["name"].casefold().startswith(folded)] if folded else []
    if len(matches) > 1:
        names = " or ".join(p["name"] for p in matches)
        raise UserError(f"{word!r} could be {names}; write more of the power's name.")
    return matches[0] if matches else None
