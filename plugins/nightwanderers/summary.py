"""Night Wanderers' answer to ``RuleSystem.summary``: attributes and tricks under the book's
Russian names (English for an English reader), Health and Blood, clan and Humanity, Celerity, the
Hunting Instinct and Fortitude."""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial

from gateway.summary import (
    FreeField,
    Power,
    SheetSummary,
    pool_meters,
    powers_held,
    rated_group,
)
from gateway.vault.models import Character
from plugins.nightwanderers import characters
from plugins.nightwanderers.mechanics import SYSTEM
from plugins.nightwanderers.messages import CATALOGUE
from plugins.nightwanderers.sheet import TRAITS, WandererSheet, clan_name, trait_name

# The words of the sheet's own sentences (sheet.head, sheet.health, sheet.blood, sheet.powers).
LABELS = {
    "ru": {
        "hp": "Здоровье",
        "blood": "Запас Крови",
        "clan": "Клан",
        "humanity": "Гуманность",
        "fortitude": "Стойкость",
    },
    "en": {
        "hp": "Health",
        "blood": "Blood",
        "clan": "Clan",
        "humanity": "Humanity",
        "fortitude": "Fortitude",
    },
}


def powers(sheet: WandererSheet, locale: str, labels: Mapping[str, str]) -> tuple[Power, ...]:
    names = {
        "celerity": CATALOGUE.t(locale, f"power.celerity.{sheet.celerity or 1}"),
        "hunting": CATALOGUE.t(locale, "power.hunting"),
        "fortitude": labels["fortitude"],
    }
    held = {"celerity": sheet.celerity, "hunting": sheet.hunting, "fortitude": sheet.fortitude}
    return powers_held(held, names)


def summarise(character: Character, pools: Mapping[str, tuple[int, int]], locale: str) -> SheetSummary:
    sheet = WandererSheet.of(character.sheet)
    labels = LABELS.get(locale, LABELS["en"])
    kind = CATALOGUE.t(locale, f"kind.{sheet.kind}")
    ratings = {trait: sheet.rating(trait) for trait in TRAITS}  # a blood boost included, as rolled
    return SheetSummary(
        name=character.name,
        system=SYSTEM,
        status=character.status,
        traits=rated_group(ratings, TRAITS, partial(trait_name, locale=locale)),
        pools=pool_meters(pools, {"hp": labels["hp"], "blood": labels["blood"]}),
        powers=powers(sheet, locale, labels),
        fields=(
            FreeField(labels["clan"], f"{clan_name(sheet.clan, locale)} ({kind})"),
            FreeField(labels["humanity"], str(sheet.humanity)),
        ),
    )


def sheet_fields(locale: str) -> tuple[tuple[str, str], ...]:
    """The FIELD words ``st set`` takes, named in ``locale`` as the commands name them (the web's
    sheet editor offers these)."""
    traits = tuple((key, trait_name(key, locale=locale)) for key in TRAITS)
    others = dict.fromkeys(characters.FIELDS)  # in order, once each
    return traits + tuple((key, CATALOGUE.t(locale, f"field.{key}")) for key in others)
