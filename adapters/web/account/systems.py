"""The words of the other rule systems' sheet commands that the web forms offer, as
``nightcap`` does for Nightcap: which FIELD words ``set`` / ``st set`` take, named as each system's
own texts name them, and which commands a system has at all. The rules, ranges and refusal texts
stay the commands'; a page only builds their lines.

Decanter and Dramatic Systems sheets are the player's until approved (``set FIELD VALUE``, then
``st approve``); Pravidla and Night Wanderers sheets are set by a Storyteller (``st set NAME FIELD
VALUE``) and have no approval, so their players' pages show the sheet only.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Protocol

from plugins.decanter.sheet import SCHEMA as DECANTER
from plugins.dramatic.sheet import SCHEMA as DRAMATIC
from plugins.nightwanderers import characters as wanderers
from plugins.nightwanderers.messages import CATALOGUE as WANDERERS_TEXTS
from plugins.nightwanderers.sheet import TRAITS as WANDERERS_TRAITS
from plugins.nightwanderers.sheet import trait_name as wanderers_trait
from plugins.pravidla.messages import CATALOGUE as PRAVIDLA_TEXTS
from plugins.pravidla.sheet import POWER_WORDS
from plugins.pravidla.sheet import TRAITS as PRAVIDLA_TRAITS
from plugins.pravidla.sheet import trait_name as pravidla_trait

Choices = tuple[tuple[str, str], ...]  # (the command's word, its label in the reader's language)


@dataclass(frozen=True)
class SheetForms:
    """``player_set``: players edit an unapproved sheet with ``set FIELD VALUE`` (Storytellers with
    ``st set NAME FIELD VALUE`` in every system); ``approve``: ``st approve NAME`` exists;
    ``fields(locale)``: the FIELD words those commands take, in the system's own words."""

    system: str
    player_set: bool
    approve: bool
    fields: Callable[[str], Choices]
    traits: Mapping[str, str] = field(default_factory=dict)  # the book's heading of ungrouped traits

    def traits_heading(self, locale: str) -> str | None:
        return self.traits.get(locale) or self.traits.get("en")


class _DotsSchema(Protocol):
    """What the forms read of Decanter's and Dramatic's sheet schema (``DotsSchema``)."""

    @property
    def names(self) -> tuple[str, ...]: ...
    def trait_title(self, trait: str) -> str: ...


def _dots(schema: _DotsSchema, extra: tuple[str, ...]) -> Callable[[str], Choices]:
    def fields(locale: str) -> Choices:  # the dots books are English only
        return tuple((key, schema.trait_title(key)) for key in (*schema.names, *extra))

    return fields


def _pravidla(locale: str) -> Choices:
    traits = tuple((key, pravidla_trait(key, locale=locale)) for key in PRAVIDLA_TRAITS)
    return traits + tuple((key, PRAVIDLA_TEXTS.t(locale, f"field.{key}")) for key in POWER_WORDS)


def _wanderers(locale: str) -> Choices:
    traits = tuple((key, wanderers_trait(key, locale=locale)) for key in WANDERERS_TRAITS)
    others = dict.fromkeys(wanderers.FIELDS)  # in order, once each
    return traits + tuple((key, WANDERERS_TEXTS.t(locale, f"field.{key}")) for key in others)


FORMS = {
    forms.system: forms
    for forms in (
        SheetForms("decanter", True, True, _dots(DECANTER, ("kind", "specialties", "notes"))),
        SheetForms("dramatic", True, True, _dots(DRAMATIC, ("secondary", "specialties", "notes"))),
        SheetForms("pravidla", False, False, _pravidla, {"cs": "Vlastnosti", "en": "Attributes"}),
        SheetForms(
            "nightwanderers",
            False,
            False,
            _wanderers,
            {"ru": "Атрибуты и трюки", "en": "Attributes and tricks"},
        ),
    )
}
