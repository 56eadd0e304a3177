"""Pravidla's answer to ``gateway_sheet_summary``: the nine Attributes under their Czech names
(English for an English reader), and Celerity, the Hunting Instinct and Potence as powers."""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial

from gateway.hookspecs import hookimpl
from gateway.summary import Power, SheetSummary, rated_group
from gateway.vault.models import Character
from plugins.pravidla.mechanics import SYSTEM
from plugins.pravidla.messages import CATALOGUE
from plugins.pravidla.sheet import MAX_RATING, TRAITS, PravidlaSheet, trait_name

BOOK_LOCALE = "cs"  # the system's default_locale: the book's own terms


def powers(sheet: PravidlaSheet, locale: str) -> tuple[Power, ...]:
    found = []
    if sheet.celerity:
        found.append(Power(CATALOGUE.t(locale, f"power.celerity.{sheet.celerity}"), sheet.celerity))
    if sheet.hunting:
        found.append(Power(CATALOGUE.t(locale, "power.hunting")))
    if sheet.potence:
        found.append(Power("Potence", sheet.potence))
    return tuple(found)


def summarise(character: Character, locale: str) -> SheetSummary:
    sheet = PravidlaSheet.of(character.sheet)
    return SheetSummary(
        name=character.name,
        system=SYSTEM,
        status=character.status,
        traits=rated_group(sheet.traits, TRAITS, partial(trait_name, locale=locale), maximum=MAX_RATING),
        powers=powers(sheet, locale),
    )


@hookimpl
def gateway_sheet_summary(
    character: Character, pools: Mapping[str, tuple[int, int]], locale: str | None
) -> SheetSummary | None:
    return summarise(character, locale or BOOK_LOCALE) if character.system == SYSTEM else None
