"""Dramatic Systems' sheet (pure declaration, ``gateway.core.sheet_spec``): Attributes and Abilities in
dots (0 to 5 for a player, 10 for a Storyteller), the secondary Abilities a sheet names itself, and
Willpower, which a Storyteller sets as CURRENT/MAX (``st set NAME willpower 3/6``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gateway.core.sheet_spec import EditLines, SheetField
from gateway.rules.dots_sheet import trait_title
from gateway.rules.dots_spec import dots_spec
from plugins.dramatic.sheet import SCHEMA, WP


def secondary(sheet: Mapping[str, Any]) -> str:
    found = sheet.get("secondary")
    rated = found.items() if isinstance(found, dict) else ()
    return ", ".join(f"{trait_title(str(name))} {dots}" for name, dots in rated if dots)


SHEET = dots_spec(
    SCHEMA,
    learned_label="Abilities",
    pools=(
        SheetField(
            WP,
            "pool",
            {"en": "Willpower"},
            edit="storyteller",
            maximum=10,
            lines=EditLines(storyteller="st set {name} {key} {value}/{max}"),
        ),
    ),
    # ``set secondary NAME N`` names the Ability itself: chat's, not a single field's value.
    before_notes=(
        SheetField("secondary", "text", {"en": "Secondary Abilities"}, edit="none", read=secondary),
    ),
)
