"""Nightcap's SheetSummary, derived from its declared sheet: the four core traits, powers with tier
and trait, filled fields, its pools."""

from __future__ import annotations

from gateway.core.summary import FreeField, PoolMeter, Power, RatedTrait
from gateway.vault.models import Character
from plugins.nightcap import NIGHTCAP
from plugins.nightcap.sheet import new_sheet


def test_the_summary_reads_the_nightcap_sheet() -> None:
    sheet = new_sheet()
    sheet["traits"].update(physical=3, spirit=2)
    sheet["fields"].update(origin="Human", weakness="Debts")
    sheet["powers"] = [{"name": "Veil", "tier": "adept", "trait": "spirit"}]
    mira = Character(
        owner_id=1, system="nightcap", name="Mira", name_key="mira", status="creation", sheet=sheet
    )
    pools = {"damage": (1, 10), "willpower": (4, 5), "essence": (9, 10), "other": (1, 1)}
    summary = NIGHTCAP.summary(mira, pools, "en")
    assert summary is not None and (summary.name, summary.status) == ("Mira", "creation")
    assert summary.traits == (
        RatedTrait("physical", "Physical", 3, None, "Core traits"),
        RatedTrait("mental", "Mental", 1, None, "Core traits"),
        RatedTrait("social", "Social", 1, None, "Core traits"),
        RatedTrait("spirit", "Spirit", 2, None, "Core traits"),
    )
    assert summary.pools == (  # the book's order; a pool Nightcap does not know is not shown
        PoolMeter("willpower", "Willpower", 4, 5),
        PoolMeter("essence", "Essence", 9, 10),
        PoolMeter("damage", "Damage", 1, 10),
    )
    assert summary.powers == (Power("Veil", "adept", "spirit"),)
    assert summary.fields == (FreeField("Origin", "Human"), FreeField("Weakness", "Debts"))
