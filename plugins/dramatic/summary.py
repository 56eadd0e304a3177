"""Dramatic Systems' answer to ``gateway_sheet_summary``: Attributes and Abilities, Willpower."""

from __future__ import annotations

from collections.abc import Mapping

from gateway.rules.dots_summary import dots_summary
from gateway.summary import SheetSummary, summary_hook
from gateway.vault.models import Character
from plugins.dramatic.characters import WP
from plugins.dramatic.mechanics import SYSTEM
from plugins.dramatic.sheet import SCHEMA

POOL_LABELS = {WP: "Willpower"}


def summarise(character: Character, pools: Mapping[str, tuple[int, int]], locale: str) -> SheetSummary:
    return dots_summary(SCHEMA, character, pools, POOL_LABELS)


gateway_sheet_summary = summary_hook(SYSTEM, summarise)
