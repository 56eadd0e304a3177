"""Decanter's sheet (pure declaration, ``gateway.core.sheet_spec``): Attributes and Skills in dots (0 to 5
for a player, 10 for a Storyteller), Story Points (capped at 10 by the book) and Conditions, the
kind (mortal, ghoul, vampire) and the Roll Bonus's counters a Storyteller keeps (Stains, Hunger, XP)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gateway.core.sheet_spec import Choice, EditLines, SheetField
from gateway.rules.dots_spec import SET, dots_spec
from plugins.decanter.sheet import SCHEMA, SP

ST_ONLY = EditLines(storyteller="st set {name} {key} {value}")


def conditions(sheet: Mapping[str, Any]) -> str:
    found = sheet.get("conditions")
    names = (
        [str(c.get("name")) for c in found or () if isinstance(c, dict)] if isinstance(found, list) else []
    )
    return "; ".join(names)


SHEET = dots_spec(
    SCHEMA,
    learned_label="Skills",
    pools=(SheetField(SP, "pool", {"en": "Story Points"}, edit="storyteller", lines=ST_ONLY),),
    before_notes=(
        SheetField(
            "kind",
            "choice",
            {"en": "Kind"},
            choices=tuple(Choice(k, {"en": k.title()}) for k in ("mortal", "ghoul", "vampire")),
            lines=SET,
        ),
        SheetField("conditions", "text", {"en": "Conditions"}, edit="none", read=conditions),
        *(
            SheetField(
                key, "number", {"en": label}, edit="storyteller", default=0, hide_zero=True, lines=ST_ONLY
            )
            for key, label in (("stains", "Stains"), ("hunger", "Hunger"), ("xp", "XP"))
        ),
    ),
)
