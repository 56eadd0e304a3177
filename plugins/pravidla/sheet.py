"""The Pravidla sheet: a typed document kept in ``Character.sheet`` (pure).

Attributes are the classic nine with the Czech names the book uses (Šarm, Kondice, Rozum, ...),
rated 0-10; powers that matter to the rules are Celerity (0 none, 1 basic, 2 advanced), the Gangrel
Hunting Instinct and Potence (shown on the sheet). Trait words match in English or Czech, with or
without diacritics, by unique prefix.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from gateway.rules.named_traits import NamedTraits
from gateway.rules.switch_words import levels, yes_no

TRAITS = (
    "strength",
    "dexterity",
    "stamina",
    "charm",
    "manipulation",
    "appearance",
    "perception",
    "intelligence",
    "wits",
)
NAMES: dict[str, dict[str, str]] = {
    "en": {
        "strength": "Strength",
        "dexterity": "Dexterity",
        "stamina": "Stamina",
        "charm": "Charm",
        "manipulation": "Manipulation",
        "appearance": "Appearance",
        "perception": "Perception",
        "intelligence": "Intelligence",
        "wits": "Wits",
    },
    "cs": {
        "strength": "Síla",
        "dexterity": "Obratnost",
        "stamina": "Kondice",
        "charm": "Šarm",
        "manipulation": "Manipulace",
        "appearance": "Vzhled",
        "perception": "Vnímání",
        "intelligence": "Inteligence",
        "wits": "Rozum",
    },
}
# "hází Šarmem": the instrumental case, for the Czech roll line.
CS_INSTRUMENTAL = {
    "strength": "Silou",
    "dexterity": "Obratností",
    "stamina": "Kondicí",
    "charm": "Šarmem",
    "manipulation": "Manipulací",
    "appearance": "Vzhledem",
    "perception": "Vnímáním",
    "intelligence": "Inteligencí",
    "wits": "Rozumem",
}
# Sheet fields a Storyteller may set besides the traits, with the words that name them.
POWER_WORDS = {
    "celerity": ("celerity", "celerita"),
    "hunting": ("hunting", "instinct", "lovecky", "instinkt"),
    "potence": ("potence",),
}
# The values st set takes for them (folded: ``základní`` is ``zakladni``).
YES, NO = yes_no("ano", "ne")
LEVELS = levels("zadna", "zakladni", "pokrocila")
MAX_RATING = 10


def fold(word: str) -> str:
    """Casefolded, without diacritics: ``Šarm`` -> ``sarm``."""
    decomposed = unicodedata.normalize("NFKD", word.casefold())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


TRAIT_NAMES = NamedTraits(TRAITS, NAMES, fold)
trait_name = TRAIT_NAMES.name


def match_power(word: str) -> str | None:
    folded = fold(word)
    for power, words in POWER_WORDS.items():
        if folded in words:
            return power
    return None


class PravidlaSheet(BaseModel):
    model_config = ConfigDict(extra="ignore")

    traits: dict[str, int] = Field(default_factory=dict)
    celerity: int = Field(0, ge=0, le=2)
    hunting: bool = False
    potence: int = Field(0, ge=0, le=2)

    @classmethod
    def new(cls, rating: int) -> PravidlaSheet:
        return cls(traits=dict.fromkeys(TRAITS, rating))

    @classmethod
    def of(cls, data: dict[str, Any]) -> PravidlaSheet:
        return cls.model_validate(data or {})

    def rating(self, trait: str) -> int:
        return int(self.traits.get(trait, 0))

    def dump(self) -> dict[str, Any]:
        return {"version": 1, **self.model_dump()}
