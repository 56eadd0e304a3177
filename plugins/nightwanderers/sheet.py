"""The Night Wanderers sheet: a typed document in ``Character.sheet`` (pure). Health and blood are
``Pool`` rows (``hp``, ``blood``) so they can be spent atomically.

Traits are the attributes and tricks the book names: Сила, Харизма, Разум, Манипуляция, Образование,
the general physical and psychic attributes ФА and ПА (the book's Ф-бросок and П-бросок), and the
tricks Убеждение, Соблазн, Невооружённый бой, Физ. защита, Уворачивание, Красться, Инспекция, plus
Стрельба (shooting and throwing, which the book rolls without naming a trick). Words match in English
or Russian by unique prefix.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from gateway.rules.named_traits import NamedTraits

TRAITS = (
    "strength",
    "charisma",
    "mind",
    "manipulation",
    "education",
    "physical",
    "psyche",
    "persuasion",
    "seduction",
    "brawl",
    "defence",
    "dodge",
    "sneak",
    "inspection",
    "shooting",
)
NAMES: dict[str, dict[str, str]] = {
    "en": {
        "strength": "Strength",
        "charisma": "Charisma",
        "mind": "Mind",
        "manipulation": "Manipulation",
        "education": "Education",
        "physical": "Physical",
        "psyche": "Psyche",
        "persuasion": "Persuasion",
        "seduction": "Seduction",
        "brawl": "Brawl",
        "defence": "Defence",
        "dodge": "Dodge",
        "sneak": "Sneak",
        "inspection": "Inspection",
        "shooting": "Shooting",
    },
    "ru": {
        "strength": "Сила",
        "charisma": "Харизма",
        "mind": "Разум",
        "manipulation": "Манипуляция",
        "education": "Образование",
        "physical": "ФА",
        "psyche": "ПА",
        "persuasion": "Убеждение",
        "seduction": "Соблазн",
        "brawl": "Рукопашная",
        "defence": "Защита",
        "dodge": "Уворачивание",
        "sneak": "Красться",
        "inspection": "Инспекция",
        "shooting": "Стрельба",
    },
}
# Extra spellings a player may type.
ALIASES = {
    "бой": "brawl",
    "невооруженный": "brawl",
    "unarmed": "brawl",
    "физзащита": "defence",
    "defense": "defence",
    "увертка": "dodge",
    "уклонение": "dodge",
    "скрытность": "sneak",
    "stealth": "sneak",
    "ф": "physical",
    "п": "psyche",
    "mental": "psyche",
    "wits": "mind",
}
# A physical boost (blood) raises these.
PHYSICAL = ("strength", "physical")
# Humanity by clan (of 10); the key is what `char new NAME CLAN` takes.
CLANS: dict[str, tuple[str, str, int]] = {
    "aswang": ("Aswang", "Асванг", 8),
    "bellemort": ("Belle Mort", "Бель Морт", 7),
    "vergshi": ("Vergshi", "Вергши", 9),
    "dragazhar": ("Dragazhar", "Драгазар", 5),
    "khatang": ("Khatang", "Кхатанг", 8),
    "lesang": ("Le sang royal", "Лесанг", 8),
    "lugaru": ("Lugaru", "Лугару", 9),
    "talamar": ("Talamar", "Таламар", 8),
    "tragander": ("Tragander", "Трагандер", 4),
    "knights": ("Knights", "Рыцари", 5),
    "werewolves": ("Werewolves", "Оборотни", 6),
    "human": ("Human", "Человек", 8),
}
MAX_RATING = 10


def fold(word: str) -> str:
    decomposed = unicodedata.normalize("NFKD", word.casefold().replace("ё", "е"))
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch) or ch == "\u0306")


def norm(word: str) -> str:
    """Folded, with the Russian short i kept: ``й`` decomposes to ``и`` + breve, so join it back."""
    return unicodedata.normalize("NFC", fold(word)).replace(" ", "").replace(".", "")


TRAIT_NAMES = NamedTraits(TRAITS, NAMES, norm, ALIASES)
trait_name = TRAIT_NAMES.name


def match_clan(word: str) -> str | None:
    folded = norm(word)
    for key, (en, ru, _) in CLANS.items():
        if folded in (key, norm(en), norm(ru)):
            return key
    return None


def clan_name(clan: str | None, locale: str) -> str:
    if not clan or clan not in CLANS:
        return "—"
    en, ru, _ = CLANS[clan]
    return ru if locale == "ru" else en


class WandererSheet(BaseModel):
    model_config = ConfigDict(extra="ignore")

    kind: str = "vampire"
    clan: str | None = None
    humanity: int = Field(8, ge=0, le=10)
    traits: dict[str, int] = Field(default_factory=dict)
    celerity: int = Field(0, ge=0, le=2)
    hunting: bool = False
    fortitude: bool = False
    boost: int = Field(0, ge=0)
    frenzy: bool = False
    dead: bool = False
    last_wake: str | None = None
    # nw-mech: Могущество (pursuit), experience (Humanity is bought with it), and the turns of slow
    # exposure (indirect sun, a small fire) not yet paid for, by source.
    potence: int = Field(0, ge=0, le=2)
    xp: int = Field(0, ge=0)
    exposure: dict[str, int] = Field(default_factory=dict)

    @classmethod
    def new(cls, rating: int, kind: str, clan: str | None) -> WandererSheet:
        humanity = CLANS[clan][2] if clan else 8
        return cls(kind=kind, clan=clan, humanity=humanity, traits=dict.fromkeys(TRAITS, rating))

    @classmethod
    def of(cls, data: dict[str, Any]) -> WandererSheet:
        return cls.model_validate(data or {})

    def rating(self, trait: str) -> int:
        """The rating, with a blood boost on the physical attributes."""
        base = int(self.traits.get(trait, 0))
        return base + (self.boost if trait in PHYSICAL else 0)

    def dump(self) -> dict[str, Any]:
        return {"version": 1, **self.model_dump()}
