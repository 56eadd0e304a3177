"""The Night Wanderers sheet: a typed document in ``Character.sheet`` (pure). Health and blood are
``Pool`` rows (``hp``, ``blood``) so they can be spent atomically.

Traits are the attributes and tricks the book names: Сила, Харизма, Разум, Манипуляция, Образование,
the general physical and psychic attributes ФА and ПА (the book's Ф-бросок and П-бросок), and the
tricks Убеждение, Соблазн, Невооруженный бой, Физ. Защита, Уворачиваться, Красться, Инспекция (the
book's spellings), plus Стрельба (shooting and throwing, which the book rolls without naming a trick).
Words match in English, in Russian or in Russian written in Latin letters (``soblazn``) by unique
prefix.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from gateway.rules.named_traits import NamedTraits
from plugins.nightwanderers.words import SCHEMES, transliterations

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
        "brawl": "Невооруженный бой",
        "defence": "Физ. Защита",
        "dodge": "Уворачиваться",
        "sneak": "Красться",
        "inspection": "Инспекция",
        "shooting": "Стрельба",
    },
}
# Russian in Latin letters (``ubezhdenie``, ``pa``), matched like the names themselves.
NAMES.update(
    {
        f"ru-Latn-{i}": {trait: transliterations(name)[i] for trait, name in NAMES["ru"].items()}
        for i in range(len(SCHEMES))
    }
)
# Extra spellings a player may type (the earlier Russian names among them).
ALIASES = {
    "бой": "brawl",
    "невооруженный": "brawl",
    "рукопашная": "brawl",
    "рукопашный": "brawl",
    "защита": "defence",
    "уворачивание": "dodge",
    "уворачиваться": "dodge",
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


# Other names the book gives a clan (its English spellings, singulars, the full name).
CLAN_ALIASES = {
    "belmort": "bellemort",
    "dragazar": "dragazhar",
    "lesangroyal": "lesang",
    "лесангройял": "lesang",
    "лесанруаяль": "lesang",
    "knightsofblood": "knights",
    "рыцарь": "knights",
    "рыцарикрови": "knights",
    "рыцарькрови": "knights",
    "оборотень": "werewolves",
    "werewolf": "werewolves",
    "люди": "human",
    "humans": "human",
}
CLAN_WORDS = 3  # the longest clan name, in words ("Le sang royal")


def _clan_spellings() -> dict[str, str]:
    found = dict(CLAN_ALIASES)
    for key, (en, ru, _) in CLANS.items():
        for spelling in (key, en, ru, *transliterations(ru)):
            found.setdefault(norm(spelling), key)
    return found


CLAN_SPELLINGS = _clan_spellings()


def match_clan(word: str) -> str | None:
    """The clan ``word`` names (one word or several: ``Le sang royal``, ``Бель Морт``), or None."""
    return CLAN_SPELLINGS.get(norm(word))


def split_clan(words: list[str]) -> tuple[list[str], str | None]:
    """``char new``'s words as (the name's words, the clan): the clan is the last one to three words
    when they name one (the longest first), and the first word is always the name's."""
    for size in range(min(CLAN_WORDS, len(words) - 1), 0, -1):
        clan = match_clan(" ".join(words[-size:]))
        if clan is not None:
            return words[:-size], clan
    return words, None


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
