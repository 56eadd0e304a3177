"""The sheet declaration (``gateway.core.sheet_spec``) of a dots sheet (``gateway.rules.dots_sheet``):
Attributes, then the learned group (Skills, Abilities; those at 0 left out of the summary), each
edited with ``set FIELD VALUE`` by the player before approval and ``st set NAME FIELD VALUE`` by a
Storyteller; the system adds its pools, its own fields, and notes."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gateway.core.sheet_spec import EditLines, SheetAction, SheetField, SheetGroup, SheetSpec
from gateway.rules.dots_sheet import DotsSchema, trait_title

SET = EditLines(player="set {key} {value}", storyteller="st set {name} {key} {value}")
APPROVE = SheetAction("approve", {"en": "Approve"}, "st approve {name}", statuses=("creation", "submitted"))


def specialties(sheet: Mapping[str, Any]) -> str:
    found = sheet.get("specialties")
    return ", ".join(str(s) for s in found) if isinstance(found, list) else ""


def dots_spec(
    schema: DotsSchema[Any],
    *,
    learned_label: str,
    pools: tuple[SheetField, ...] = (),
    before_notes: tuple[SheetField, ...] = (),
) -> SheetSpec:
    """``pools`` come after the traits; ``before_notes`` after specialties and before notes."""
    learned = schema.learned_field
    rated = tuple(
        SheetField(
            name,
            "rating",
            {"en": trait_title(name)},
            group="attributes" if name in schema.attributes else learned,
            path=("attributes" if name in schema.attributes else learned, name),
            default=1 if name in schema.attributes else 0,
            hide_zero=name not in schema.attributes,
        )
        for name in schema.names
    )
    texts = (
        SheetField("specialties", "text", {"en": "Specialties"}, read=specialties),
        *before_notes,
        SheetField("notes", "text", {"en": "Notes"}, default="", multiline=True, max_length=1000),
    )
    return SheetSpec(
        fields=(*rated, *pools, *texts),
        groups=(
            SheetGroup("attributes", {"en": "Attributes"}),
            SheetGroup(learned, {"en": learned_label}),
        ),
        lines={"rating": SET, "text": SET, "choice": SET},
        actions=(APPROVE,),
        use="char use {name}",
    )
