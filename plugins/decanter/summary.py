"""Decanter's answer to ``gateway_sheet_summary``: Attributes and Skills, Story Points, Conditions."""

from __future__ import annotations

from collections.abc import Mapping

from gateway.rules.dots_summary import dots_summary
from gateway.summary import FreeField, SheetSummary, summary_hook
from gateway.vault.models import Character
from plugins.decanter.mechanics import SYSTEM
from plugins.decanter.sheet import SCHEMA
from plugins.decanter.state import SP

POOL_LABELS = {SP: "Story Points"}


def conditions(character: Character) -> tuple[FreeField, ...]:
    names = [str(c.get("name")) for c in character.sheet.get("conditions") or () if isinstance(c, dict)]
    return (FreeField("Conditions", "; ".join(names)),) if names else ()


def summarise(character: Character, pools: Mapping[str, tuple[int, int]], locale: str) -> SheetSummary:
    return dots_summary(SCHEMA, character, pools, POOL_LABELS, conditions(character))


gateway_sheet_summary = summary_hook(SYSTEM, summarise)
