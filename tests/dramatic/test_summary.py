"""Dramatic Systems' SheetSummary: Attributes, Abilities above 0, Willpower."""

from __future__ import annotations

from gateway.core.summary import FreeField, PoolMeter, RatedTrait
from gateway.vault.models import Character
from plugins.dramatic import DRAMATIC
from plugins.dramatic.sheet import SCHEMA, DramaticSheet


def test_the_summary_reads_the_dramatic_sheet() -> None:
    sheet = DramaticSheet(abilities={"alertness": 2}, secondary={"gang_lore": 2}, notes="")
    ana = Character(owner_id=1, system="dramatic", name="Ana", name_key="ana", sheet=SCHEMA.dump(sheet))
    summary = DRAMATIC.summary(ana, {"willpower": (3, 5)}, "en")
    assert summary is not None
    assert summary.traits[0] == RatedTrait("strength", "Strength", 1, None, "Attributes")
    assert summary.traits[9:] == (RatedTrait("alertness", "Alertness", 2, None, "Abilities"),)
    assert summary.pools == (PoolMeter("willpower", "Willpower", 3, 5),)
    assert summary.fields == (FreeField("Secondary Abilities", "Gang Lore 2"),)
