"""The Decanter sheet: a typed document kept in ``Character.sheet`` (pure; validated by pydantic).

Attributes and Skills are dots; Story Points are a ``Pool`` row (``story_points``), not sheet fields,
so spends are atomic. Conditions carry the channel they were gained in, so a scene marker there
ends the scene-long ones.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from gateway.rules.dots_sheet import DotsSchema

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

    schema_version: int = 1
    attributes: dict[str, int] = Field(default_factory=lambda: dict.fromkeys(ATTRIBUTES, 1))
    skills: dict[str, int] = Field(default_factory=dict)
    specialties: list[str] = Field(default_factory=list)
    conditions: list[Condition] = Field(default_factory=list)
    notes: str = Field("", max_length=1000)


SCHEMA = DotsSchema(
    title="Decanter",
    model=DecanterSheet,
    attributes=ATTRIBUTES,
    learned=SKILLS,
    learned_field="skills",
    abbreviations=ABBREVIATIONS,
    pool_hint="Roll numbers (roll 3+2 dc 4) or Attribute + Skill names (roll dex+firearms dc 4)",
)
