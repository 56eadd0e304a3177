"""The Decanter sheet: a typed document kept in ``Character.sheet`` (pure; validated by pydantic).

Attributes and Skills are dots; Story Points are a ``Pool`` row (``story_points``), not sheet fields,
so spends are atomic. Conditions carry the channel they were gained in, so a scene marker there
ends the scene-long ones.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from gateway import UserError
from gateway.rules.dots_sheet import DotsSchema, trait_title
from plugins.decanter.words import spelling, suggestion

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


# The book's three groups; a Condition's effect may name one ("Disadvantage on Social rolls").
GROUPS = {
    "physical": ("strength", "dexterity", "stamina", *SKILLS[:9]),
    "social": ("charisma", "manipulation", "composure", *SKILLS[9:19]),
    "mental": ("intelligence", "wits", "resolve", *SKILLS[19:]),
}
KINDS = ("mortal", "ghoul", "vampire")


class Effect(BaseModel):
    """What a Condition does to rolls: a dice quality (Disadvantage -1, Major Disadvantage -2) and a
    dice penalty, on rolls of ``traits`` (trait names or a group; empty: every roll)."""

    model_config = ConfigDict(extra="forbid")

    quality: int = Field(0, ge=-2, le=0)
    dice: int = Field(0, ge=-20, le=0)
    traits: list[str] = Field(default_factory=list, max_length=40)


class Condition(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, max_length=60)
    penalty: str = Field("", max_length=300)
    resolution: str = Field("", max_length=300)
    duration: Literal["scene", "night", "resolved"] = "resolved"
    channel: str = ""
    gained_at: str = ""
    effect: Effect | None = None
    resist: int = Field(0, ge=0, le=100)
    """Story Points it costs to resist it (``sp spend resist NAME``); 0: not set."""


class Spend(BaseModel):
    """The latest ``sp spend``, so a Storyteller can give it back (no useful advice, a vetoed
    Declaration or Debt): its use, Story Points or XP paid, and the arc counter it raised."""

    model_config = ConfigDict(extra="forbid")

    use: str
    points: int = Field(0, ge=0)
    xp: int = Field(0, ge=0)
    arc_key: str = ""


class DecanterSheet(BaseModel):
    model_config = ConfigDict(extra="forbid")

    schema_version: int = 1
    attributes: dict[str, int] = Field(default_factory=lambda: dict.fromkeys(ATTRIBUTES, 1))
    skills: dict[str, int] = Field(default_factory=dict)
    specialties: list[str] = Field(default_factory=list)
    conditions: list[Condition] = Field(default_factory=list)
    notes: str = Field("", max_length=1000)
    # What the Roll Bonus's side costs and the XP payments need; Story Points are a pool row.
    kind: Literal["mortal", "ghoul", "vampire"] | None = None
    xp: int = Field(0, ge=0, le=100000)
    stains: int = Field(0, ge=0)
    hunger: int = Field(0, ge=0)
    arc: dict[str, int] = Field(default_factory=dict)
    """Debts and secrets bought in this story arc, per ``debt:<npc>`` / ``secret:<npc>``."""
    last_spend: Spend | None = None


@dataclass(frozen=True)
class DecanterSchema(DotsSchema[DecanterSheet]):
    """Reads British spellings (``socialise``) and suggests the trait a near miss meant."""

    def match_trait(self, word: str) -> str | None:
        found = super().match_trait(spelling(word))
        if found is not None:
            return found
        key = "".join(ch for ch in word.casefold() if ch.isalnum())
        near = suggestion(key, [n.replace("_", "") for n in self.names]) if len(key) > 3 else None
        if near is not None:
            title = trait_title(next(n for n in self.names if n.replace("_", "") == near))
            raise UserError(f"Unknown trait {word[:40]!r}: did you mean {title}?")
        return None


SCHEMA = DecanterSchema(
    title="Decanter",
    model=DecanterSheet,
    attributes=ATTRIBUTES,
    learned=SKILLS,
    learned_field="skills",
    abbreviations=ABBREVIATIONS,
    pool_hint="Roll numbers (roll 3+2 dc 4) or Attribute + Skill names (roll dex+firearms dc 4)",
)

# The Story Point pool's name (a Pool row, kept at its cap).
SP = "story_points"
