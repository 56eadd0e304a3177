"""The Dramatic Systems sheet: a typed document in ``Character.sheet`` (pure; validated by pydantic).

Attributes and Abilities are dots; Willpower is a ``Pool`` row (``willpower``), spent atomically.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from gateway.errors import UserError

ATTRIBUTES = (
    "strength",
    "dexterity",
    "stamina",
    "charisma",
    "manipulation",
    "appearance",
    "perception",
    "intelligence",
    "wits",
)
ABILITIES = (
    # Talents
    "alertness",
    "athletics",
    "awareness",
    "brawl",
    "empathy",
    "expression",
    "intimidation",
    "leadership",
    "streetwise",
    "subterfuge",
    # Skills
    "animal_ken",
    "crafts",
    "drive",
    "etiquette",
    "firearms",
    "larceny",
    "melee",
    "performance",
    "stealth",
    "survival",
    # Knowledges
    "academics",
    "computer",
    "finance",
    "investigation",
    "law",
    "medicine",
    "occult",
    "politics",
    "science",
    "technology",
)
ABBREVIATIONS = {
    "str": "strength",
    "dex": "dexterity",
    "sta": "stamina",
    "cha": "charisma",
    "man": "manipulation",
    "app": "appearance",
    "per": "perception",
    "int": "intelligence",
    "wit": "wits",
}
PLAYER_MAX = 5
STORYTELLER_MAX = 10
SCHEMA = 1


class DramaticSheet(BaseModel):
    model_config = ConfigDict(extra="forbid")

    schema_version: int = SCHEMA
    attributes: dict[str, int] = Field(default_factory=lambda: dict.fromkeys(ATTRIBUTES, 1))
    abilities: dict[str, int] = Field(default_factory=dict)
    specialties: list[str] = Field(default_factory=list)
    notes: str = Field("", max_length=1000)

    def rating(self, trait: str) -> int:
        if trait in ATTRIBUTES:
            return self.attributes.get(trait, 0)
        return self.abilities.get(trait, 0)


def load(data: dict[str, Any]) -> DramaticSheet:
    try:
        return DramaticSheet.model_validate(data or {})
    except ValidationError as exc:
        raise UserError(
            f"This Dramatic Systems sheet is damaged ({exc.error_count()} problems); ask a Storyteller."
        ) from None


def dump(sheet: DramaticSheet) -> dict[str, Any]:
    return sheet.model_dump(mode="json")


def _key(word: str) -> str:
    return "".join(ch for ch in word.casefold() if ch.isalnum())


def title(trait: str) -> str:
    return trait.replace("_", " ").title()


def match_trait(word: str) -> str | None:
    """An Attribute or Ability by name, abbreviation or unique prefix; None if it is neither."""
    key = _key(word)
    if not key:
        return None
    if key in ABBREVIATIONS:
        return ABBREVIATIONS[key]
    names = (*ATTRIBUTES, *ABILITIES)
    exact = [n for n in names if _key(n) == key]
    if exact:
        return exact[0]
    matches = [n for n in names if _key(n).startswith(key)]
    if len(matches) == 1:
        return matches[0]
    if len(matches) > 1:
        raise UserError(
            f"{word[:40]!r} could be {' or '.join(title(m) for m in matches[:4])}; write more of it."
        )
    return None


def set_trait(sheet: DramaticSheet, trait: str, value: int, maximum: int) -> tuple[DramaticSheet, int]:
    if not 0 <= value <= maximum:
        raise UserError(f"{title(trait)} goes from 0 to {maximum}.")
    old = sheet.rating(trait)
    if trait in ATTRIBUTES:
        return sheet.model_copy(update={"attributes": {**sheet.attributes, trait: value}}), old
    abilities = {**sheet.abilities, trait: value}
    if value == 0:
        abilities.pop(trait)
    return sheet.model_copy(update={"abilities": abilities}), old
