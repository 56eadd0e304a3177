"""The ``SheetSummary`` of a dots sheet (``gateway.rules.dots_sheet``): Attributes, then the learned
group above 0 (Skills, Abilities), specialties and notes; the system adds its pools and fields."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gateway.errors import UserError
from gateway.rules.dots_sheet import DotsSchema, trait_title
from gateway.summary import FreeField, SheetSummary, bare_summary, pool_meters, rated_group
from gateway.vault.models import Character


def dots_summary(
    schema: DotsSchema[Any],
    character: Character,
    pools: Mapping[str, tuple[int, int]],
    pool_labels: Mapping[str, str],
    fields: tuple[FreeField, ...] = (),
) -> SheetSummary:
    """``fields`` come after specialties and before notes. A damaged sheet summarises as name and
    status only (the HUD still draws; the ``sheet`` command says what is wrong)."""
    try:
        sheet = schema.load(character.sheet)
    except UserError:
        return bare_summary(character.name, character.system, character.status)
    learned = schema.learned_field
    traits = rated_group(sheet.attributes, schema.attributes, trait_title, group="Attributes")
    traits += rated_group(
        getattr(sheet, learned), schema.learned, trait_title, group=learned.title(), skip_zero=True
    )
    text = [FreeField("Specialties", ", ".join(sheet.specialties))] if sheet.specialties else []
    notes = [FreeField("Notes", sheet.notes)] if sheet.notes else []
    return SheetSummary(
        name=character.name,
        system=character.system,
        status=character.status,
        traits=traits,
        pools=pool_meters(pools, pool_labels),
        fields=(*text, *fields, *notes),
    )
