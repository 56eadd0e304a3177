"""The Night Wanderers sheet (pure declaration, ``gateway.core.sheet_spec``) under the book's Russian
names: the Атрибуты and the Трюки (0 to 10; a blood boost shows on the physical ones, as rolled),
Humanity of 10, Health and the Запас Крови, kind and clan, and the powers the rules read. A
Storyteller sets all of it (``st set NAME FIELD VALUE``); the rules have no approval."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from gateway.core.sheet_spec import Choice, EditLines, Editor, SheetField, SheetGroup, SheetSpec
from plugins.nightwanderers.fields import NUMBERS
from plugins.nightwanderers.mechanics import KINDS
from plugins.nightwanderers.messages import CATALOGUE
from plugins.nightwanderers.sheet import CLANS, NAMES, PHYSICAL, TRAITS

LOCALES = ("ru", "en")
ATTRIBUTES = TRAITS[:7]  # Сила ... ПА; the rest are the book's Трюки


def said(key: str) -> dict[str, str]:
    """A catalogue text in each of the system's languages."""
    return {locale: str(CATALOGUE.t(locale, key)) for locale in LOCALES}


def boosted(trait: str) -> Callable[[Mapping[str, Any]], int]:
    """The rating as rolled (``WandererSheet.rating``): a blood boost raises the physical
    attributes. Read from the dict, as the summary runs for every HUD refresh."""

    def read(sheet: Mapping[str, Any]) -> int:
        traits = sheet.get("traits") or {}
        base = int(traits.get(trait, 0)) if isinstance(traits, Mapping) else 0
        return base + (int(sheet.get("boost") or 0) if trait in PHYSICAL else 0)

    return read


def levels(power: str) -> tuple[Choice, ...]:
    """None, basic and advanced (0, 1, 2), each named as the sheet names the power held."""
    return (
        Choice("0", said("level.0")),
        Choice("1", said(f"power.{power}.1")),
        Choice("2", said(f"power.{power}.2")),
    )


YES_NO = (Choice("1", said("yes")), Choice("0", said("no")))
ST: Editor = "storyteller"

SHEET = SheetSpec(
    fields=(
        *(
            SheetField(
                key,
                "rating",
                {locale: NAMES[locale][key] for locale in LOCALES},
                group="attributes" if key in ATTRIBUTES else "tricks",
                path=("traits", key),
                read=boosted(key),
                default=0,
                edit=ST,
            )
            for key in TRAITS
        ),
        SheetField(
            "humanity",
            "rating",
            said("field.humanity"),
            edit=ST,
            default=8,
            rolled=False,
            maximum=NUMBERS["humanity"][1],
        ),
        SheetField("hp", "pool", {"ru": "Здоровье", "en": "Health"}, group="pools", edit=ST),
        SheetField("blood", "pool", {"ru": "Запас Крови", "en": "Blood Pool"}, group="pools", edit=ST),
        SheetField(
            "kind",
            "choice",
            {"ru": "Вид", "en": "Kind"},
            edit=ST,
            default="vampire",
            choices=tuple(Choice(k, said(f"kind.{k}")) for k in KINDS),
        ),
        SheetField(
            "clan",
            "choice",
            {"ru": "Клан", "en": "Clan"},
            edit=ST,
            choices=tuple(Choice(k, {"en": en, "ru": ru}) for k, (en, ru, _) in CLANS.items()),
        ),
        SheetField(
            "celerity",
            "choice",
            said("field.celerity"),
            group="powers",
            edit=ST,
            default=0,
            choices=levels("celerity"),
            power=True,
        ),
        SheetField(
            "potence",
            "choice",
            said("field.potence"),
            group="powers",
            edit=ST,
            default=0,
            choices=levels("potence"),
            power=True,
        ),
        SheetField(
            "hunting",
            "flag",
            said("field.hunting"),
            group="powers",
            edit=ST,
            default=False,
            choices=YES_NO,
            power=True,
        ),
        SheetField(
            "fortitude",
            "flag",
            said("field.fortitude"),
            group="powers",
            edit=ST,
            default=False,
            choices=YES_NO,
            power=True,
        ),
        SheetField(
            "frenzy",
            "flag",
            {"ru": "Безумие", "en": "Frenzy"},
            edit=ST,
            default=False,
            choices=YES_NO,
            hide_zero=True,
        ),
        SheetField(
            "dead",
            "flag",
            {"ru": "Окончательная Смерть", "en": "Final Death"},
            edit=ST,
            default=False,
            choices=YES_NO,
            hide_zero=True,
        ),
        SheetField(
            "boost",
            "number",
            {"ru": "Усиление кровью", "en": "Blood boost"},
            edit=ST,
            default=0,
            maximum=NUMBERS["boost"][1],
            hide_zero=True,
        ),
        SheetField(
            "xp",
            "number",
            {"ru": "Опыт", "en": "Experience"},
            edit=ST,
            default=0,
            maximum=NUMBERS["xp"][1],
            hide_zero=True,
        ),
    ),
    groups=(
        SheetGroup("attributes", {"ru": "Атрибуты", "en": "Attributes"}),
        SheetGroup("tricks", {"ru": "Трюки", "en": "Tricks"}),
        SheetGroup("pools", {"ru": "Здоровье и Кровь", "en": "Health and Blood"}),
        SheetGroup("powers", {"ru": "Дисциплины и способности", "en": "Disciplines and gifts"}),
    ),
    lines={
        kind: EditLines(storyteller="st set {name} {key} {value}")
        for kind in ("rating", "pool", "choice", "flag", "number")
    },
)
