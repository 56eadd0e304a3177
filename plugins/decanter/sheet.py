"""The Decanter sheet: a typed document kept in ``Character.sheet`` (pure; validated by pydantic).

Attributes and Skills are dots; Story Points are a ``Pool`` row (``story_points``), not sheet fields,
so spends are atomic. Conditions carry the channel they were gained in, so a scene marker there
ends the scene-long ones.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from gateway.errors import UserError

ATTRIBUTES = (
    "strength",
    "dexterity",
    "stamina",
    "charisma",
    "manipulation",
    "composure",
    "intelligence",
    "wits",
    "resolve",
)
SKILLS = (
    "athletics",
    "brawl",
    "craft",
    "drive",
    "firearms",
    "larceny",
    "melee",
    "stealth",
    "survival",
    "animal_ken",
    "etiquette",
    "insight",
    "intimidation",
    "leadership",
    "performance",
    "persuasion",
    "socialize",
    "streetwise",
    "subterfuge",
    "academics",
    "awareness",
    "finance",
    "investigation",
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
    "com": "composure",
    "int": "intelligence",
    "wit": "wits",
    "res": "resolve",
}
PLAYER_MAX = 5
STORYTELLER_MAX = 10
SCHEMA = 1


class Condition(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, max_length=60)
    penalty: str = Field("", max_length=300)
    resolution: str = Field("", max_length=300)
    duration: Literal["scene", "night", "resolved"] = "resolved"
    channel: str = ""
    gained_at: str = ""


class DecanterSheet(BaseModel):
    model_config = ConfigDict(extra="forbid")

    schema_version: int = SCHEMA
    attributes: dict[str, int] = Field(default_factory=lambda: dict.fromkeys(ATTRIBUTES, 1))
    skills: dict[str, int] = Field(default_factory=dict)
    specialties: list[str] = Field(default_factory=list)
    conditions: list[Condition] = Field(default_factory=list)
    notes: str = Field("", max_length=1000)

    def rating(self, trait: str) -> int:
        if trait in ATTRIBUTES:
            return self.attributes.get(trait, 0)
        return self.skills.get(trait, 0)


def load(data: dict[str, Any]) -> DecanterSheet:
    try:
        return DecanterSheet.model_validate(data or {})
    except ValidationError as exc:  # a hand-edited vault; say so instead of crashing
        raise UserError(
            f"This Decanter sheet is damaged ({exc.error_count()} problems); ask a Storyteller."
        ) from None


def dump(sheet: DecanterSheet) -> dict[str, Any]:
    return sheet.model_dump(mode="json")


def _key(word: str) -> str:
    return "".join(ch for ch in word.casefold() if ch.isalnum())


def match_trait(word: str) -> str | None:
    """An Attribute or Skill by name, abbreviation or unique prefix; None if it is neither."""
    key = _key(word)
    if not key:
        return None
    if key in ABBREVIATIONS:
        return ABBREVIATIONS[key]
    names = (*ATTRIBUTES, *SKILLS)
    exact = [n for n in names if _key(n) == key]
    if exact:
        return exact[0]
    matches = [n for n in names if _key(n).startswith(key)]
    if len(matches) == 1:
        return matches[0]
    if len(matches) > 1:
        shown = " or ".join(title(m) for m in matches[:4])
        raise UserError(f"{word[:40]!r} could be {shown}; write more of it.")
    return None


def title(trait: str) -> str:
    return trait.replace("_", " ").title()


def set_trait(sheet: DecanterSheet, trait: str, value: int, maximum: int) -> tuple[DecanterSheet, int]:
    """A copy with ``trait`` set to ``value`` (0..maximum), and the old value."""
    if not 0 <= value <= maximum:
        raise UserError(f"{title(trait)} goes from 0 to {maximum}.")
    old = sheet.rating(trait)
    if trait in ATTRIBUTES:
        return sheet.model_copy(update={"attributes": {**sheet.attributes, trait: value}}), old
    skills = {**sheet.skills, trait: value}
    if value == 0:
        skills.pop(trait)
    return sheet.model_copy(update={"skills": skills}), old
