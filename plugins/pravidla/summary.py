"""Pravidla's answer to ``RuleSystem.summary``: the nine Attributes under their Czech names
(English for an English reader), and Celerity, the Hunting Instinct and Potence as powers."""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial

from gateway.summary import Power, SheetSummary, powers_held, rated_group
from gateway.vault.models import Character
from plugins.pravidla.mechanics import SYSTEM
from plugins.pravidla.messages import CATALOGUE
from plugins.pravidla.sheet import MAX_RATING, POWER_WORDS, TRAITS, PravidlaSheet, trait_name


def powers(sheet: PravidlaSheet, locale: str) -> tuple[Power, ...]:
    celerity = CATALOGUE.t(locale, f"power.celerity.{sheet.celerity or 1}")
    names = {"celerity": celerity, "hunting": CATALOGUE.t(locale, "power.hunting"), "potence": "Potence"}
    return powers_held(
        {"celerity": sheet.celerity, "hunting": sheet.hunting, "potence": sheet.potence}, names
    )


def summarise(character: Character, pools: Mapping[str, tuple[int, int]], locale: str) -> SheetSummary:
    sheet = PravidlaSheet.of(character.sheet)
    return SheetSummary(
        name=character.name,
        system=SYSTEM,
        status=character.status,
        traits=rated_group(sheet.traits, TRAITS, partial(trait_name, locale=locale), maximum=MAX_RATING),
        powers=powers(sheet, locale),
    )


def sheet_fields(locale: str) -> tuple[tuple[str, str], ...]:
    """The FIELD words ``st set`` takes, named in ``locale`` as the commands name them (the web's
    sheet editor offers these)."""
    traits = tuple((key, trait_name(key, locale=locale)) for key in TRAITS)
    return traits + tuple((key, CATALOGUE.t(locale, f"field.{key}")) for key in POWER_WORDS)
