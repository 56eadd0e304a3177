"""Nightcap's answer to ``RuleSystem.summary``: four traits, powers with tier and trait, the
narrative fields, and the Willpower, Essence and Damage pools."""

from __future__ import annotations

from collections.abc import Mapping

from gateway.summary import FreeField, Power, SheetSummary, pool_meters, rated_group
from gateway.vault.models import Character
from plugins.nightcap.rolls import SYSTEM
from plugins.nightcap.sheet import FIELDS, POOLS, TRAITS, normalise

POOL_LABELS = {name: name.title() for name in POOLS}


def summarise(character: Character, pools: Mapping[str, tuple[int, int]], locale: str) -> SheetSummary:
    sheet = normalise(character.sheet)
    fields = sheet["fields"]
    return SheetSummary(
        name=character.name,
        system=SYSTEM,
        status=character.status,
        traits=rated_group(sheet["traits"], TRAITS, str.title),
        pools=pool_meters(pools, POOL_LABELS),
        powers=tuple(Power(str(p["name"]), p.get("tier"), p.get("trait")) for p in sheet["powers"]),
        fields=tuple(FreeField(f.title(), str(fields[f])) for f in FIELDS if fields.get(f)),
    )
