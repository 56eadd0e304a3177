"""Decanter's SheetSummary, derived from its declared sheet: Attributes, Skills above 0, Story Points,
specialties, kind, Conditions, notes."""

from __future__ import annotations

from gateway.core.summary import FreeField, PoolMeter, RatedTrait
from gateway.vault.models import Character
from plugins.decanter import DECANTER
from plugins.decanter.sheet import SCHEMA, Condition, DecanterSheet


def test_the_summary_reads_the_decanter_sheet() -> None:
    sheet = DecanterSheet(
        skills={"animal_ken": 2, "brawl": 0},
        specialties=["Brawl (dirty)"],
        conditions=[Condition(name="Shaken", penalty="", resolution="", duration="scene")],
        notes="Owes the Prince",
        kind="ghoul",
        stains=2,
    )
    sheet.attributes["wits"] = 3
    ana = Character(owner_id=1, system="decanter", name="Ana", name_key="ana", sheet=SCHEMA.dump(sheet))
    summary = DECANTER.summary(ana, {"story_points": (1, 3)}, "en")
    assert summary is not None
    assert summary.traits[7] == RatedTrait("wits", "Wits", 3, None, "Attributes")
    assert summary.traits[9:] == (RatedTrait("animal_ken", "Animal Ken", 2, None, "Skills"),)
    assert [t.key for t in summary.traits[:9]] == list(SCHEMA.attributes)
    assert summary.pools == (PoolMeter("story_points", "Story Points", 1, 3),)
    assert summary.fields == (
        FreeField("Specialties", "Brawl (dirty)"),
        FreeField("Kind", "Ghoul"),
        FreeField("Conditions", "Shaken"),
        FreeField("Stains", "2"),  # Hunger and XP at 0 are left out
        FreeField("Notes", "Owes the Prince"),
    )


def test_a_damaged_sheet_still_summarises_name_and_status() -> None:
    broken = Character(owner_id=1, system="decanter", name="Ana", name_key="ana", sheet={"attributes": "x"})
    assert DECANTER.summary(broken, {}, "en") is None  # the core shows name and status only
