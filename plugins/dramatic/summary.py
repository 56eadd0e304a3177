"""Dramatic Systems' answer to ``gateway_sheet_summary``: Attributes and Abilities, Willpower."""

from __future__ import annotations

from collections.abc import Mapping

from gateway.hookspecs import hookimpl
from gateway.rules.dots_summary import dots_summary
from gateway.summary import SheetSummary
from gateway.vault.models import Character
from plugins.dramatic.characters import WP
from plugins.dramatic.mechanics import SYSTEM
from plugins.dramatic.sheet import SCHEMA

POOL_LABELS = {WP: "Willpower"}


@hookimpl
def gateway_sheet_summary(
    character: Character, pools: Mapping[str, tuple[int, int]], locale: str | None
) -> SheetSummary | None:
    if character.system != SYSTEM:
        return None
    return dots_summary(SCHEMA, character, pools, POOL_LABELS)
