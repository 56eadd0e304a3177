"""Dramatic Systems' answer to ``RuleSystem.summary``: Attributes and Abilities, Willpower."""

from __future__ import annotations

from collections.abc import Mapping

from gateway.rules.dots_summary import dots_summary
from gateway.summary import SheetSummary
from gateway.vault.models import Character
from plugins.dramatic.characters import WP
from plugins.dramatic.sheet import SCHEMA

POOL_LABELS = {WP: "Willpower"}


def summarise(character: Character, pools: Mapping[str, tuple[int, int]], locale: str) -> SheetSummary:
    return dots_summary(SCHEMA, character, pools, POOL_LABELS)


def sheet_fields(locale: str) -> tuple[tuple[str, str], ...]:
    """The FIELD words ``set`` and ``st set`` take, as the web's sheet editor offers them (the book
    is English only)."""
    return tuple(
        (key, SCHEMA.trait_title(key)) for key in (*SCHEMA.names, "secondary", "specialties", "notes")
    )
