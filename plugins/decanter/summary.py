"""Decanter's answer to ``RuleSystem.summary``: Attributes and Skills, Story Points, Conditions."""

from __future__ import annotations

from collections.abc import Mapping

from gateway.rules.dots_summary import dots_summary
from gateway.summary import FreeField, SheetSummary
from gateway.vault.models import Character
from plugins.decanter.sheet import SCHEMA
from plugins.decanter.state import SP

POOL_LABELS = {SP: "Story Points"}


def conditions(character: Character) -> tuple[FreeField, ...]:
    names = [str(c.get("name")) for c in character.sheet.get("conditions") or () if isinstance(c, dict)]
    return (FreeField("Conditions", "; ".join(names)),) if names else ()


def summarise(character: Character, pools: Mapping[str, tuple[int, int]], locale: str) -> SheetSummary:
    return dots_summary(SCHEMA, character, pools, POOL_LABELS, conditions(character))


def sheet_fields(locale: str) -> tuple[tuple[str, str], ...]:
    """The FIELD words ``set`` and ``st set`` take, as the web's sheet editor offers them (the book
    is English only)."""
    return tuple((key, SCHEMA.trait_title(key)) for key in (*SCHEMA.names, "kind", "specialties", "notes"))
