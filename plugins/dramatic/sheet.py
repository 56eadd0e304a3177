"""The Dramatic Systems sheet: a typed document in ``Character.sheet`` (pure; validated by pydantic).

Attributes and Abilities are dots (the classic primary Abilities, and secondary ones a sheet names
itself); Willpower is a ``Pool`` row (``willpower``), spent atomically.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from gateway.rules.dots_sheet import DotsSchema

WP = "willpower"  # the Willpower pool's name
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


class DramaticSheet(BaseModel):
    model_config = ConfigDict(extra="forbid")

    schema_version: int = 1
    attributes: dict[str, int] = Field(default_factory=lambda: dict.fromkeys(ATTRIBUTES, 1))
    abilities: dict[str, int] = Field(default_factory=dict)
    specialties: list[str] = Field(default_factory=list)
    # Secondary Abilities, named freely (``gang_lore``): what the book's substitution rule swaps.
    secondary: dict[str, int] = Field(default_factory=dict)
    notes: str = Field("", max_length=1000)


SCHEMA = DotsSchema(
    title="Dramatic Systems",
    model=DramaticSheet,
    attributes=ATTRIBUTES,
    learned=ABILITIES,
    learned_field="abilities",
    abbreviations=ABBREVIATIONS,
    pool_hint=(
        "Roll numbers (roll 6 diff 7) or Attribute + Ability names (roll dex+brawl), or a secondary"
        " Ability on your sheet (set secondary NAME N)"
    ),
)
