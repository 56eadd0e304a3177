"""Pravidla's sheet (pure declaration, ``gateway.core.sheet_spec``): the nine Vlastnosti rated 0 to 10
under the book's Czech names, and Celerita, the Lovecký instinkt and Potence, which the rules of
contests and initiative read. A Storyteller sets all of it (``st set NAME FIELD VALUE``); the rules
have no approval, and a player sees the sheet."""

from __future__ import annotations

from gateway.core.sheet_spec import Choice, EditLines, SheetField, SheetGroup, SheetSpec
from plugins.pravidla.messages import CATALOGUE
from plugins.pravidla.sheet import MAX_RATING, NAMES, TRAITS

LOCALES = ("cs", "en")


def said(key: str) -> dict[str, str]:
    """A catalogue text in each of the system's languages."""
    return {locale: str(CATALOGUE.t(locale, key)) for locale in LOCALES}


def levels(power: str) -> tuple[Choice, ...]:
    """None, basic and advanced (0, 1, 2), each named as the sheet names the power held."""
    named = {"celerity": ("power.celerity.1", "power.celerity.2")}
    basic, advanced = named.get(power, ("", ""))
    return (
        Choice("0", said("level.0")),
        Choice("1", said(basic) if basic else {"cs": "Základní Potence", "en": "Basic Potence"}),
        Choice("2", said(advanced) if advanced else {"cs": "Pokročilá Potence", "en": "Advanced Potence"}),
    )


YES_NO = (Choice("1", said("yes")), Choice("0", said("no")))

SHEET = SheetSpec(
    fields=(
        *(
            SheetField(
                key,
                "rating",
                {locale: NAMES[locale][key] for locale in LOCALES},
                group="traits",
                path=("traits", key),
                default=0,
                maximum=MAX_RATING,
                edit="storyteller",
            )
            for key in TRAITS
        ),
        SheetField(
            "celerity",
            "choice",
            said("field.celerity"),
            group="powers",
            edit="storyteller",
            default=0,
            choices=levels("celerity"),
            power=True,
        ),
        SheetField(
            "hunting",
            "flag",
            said("field.hunting"),
            group="powers",
            edit="storyteller",
            default=False,
            choices=YES_NO,
            power=True,
        ),
        SheetField(
            "potence",
            "choice",
            said("field.potence"),
            group="powers",
            edit="storyteller",
            default=0,
            choices=levels("potence"),
            power=True,
        ),
    ),
    groups=(
        SheetGroup("traits", {"cs": "Vlastnosti", "en": "Attributes"}),
        SheetGroup("powers", {"cs": "Schopnosti", "en": "Powers"}),
    ),
    lines={
        kind: EditLines(storyteller="st set {name} {key} {value}") for kind in ("rating", "choice", "flag")
    },
)
