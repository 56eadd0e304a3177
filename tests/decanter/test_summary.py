"""Decanter's SheetSummary: Attributes, Skills above 0, Story Points, specialties, Conditions, notes."""

from __future__ import annotations

from gateway.summary import FreeField, PoolMeter, RatedTrait
from gateway.vault.models import Character
from plugins.decanter.sheet import SCHEMA, Condition, DecanterSheet
from plugins.decanter.summary import summarise


def test_the_summary_reads_the_decanter_sheet() -> None:
    sheet = DecanterSheet(
        skills={"animal_ken": 2, "brawl": 0},
        specialties=["Brawl (dirty)"],
        conditions=[Condition(name="Shaken", penalty="", resolution="", duration="scene")],
        notes="Owes the Prince",
    )
    sheet.attributes["wits"] = 3
    ana = Character(owner_id=1, system="decanter", name="Ana", name_key="ana", sheet=SCHEMA.dump(sheet))
    summary = summarise(ana, {"story_points": (1, 3)}, "en")
    assert summary is not None
    assert summary.traits[7] == RatedTrait("wits", "Wits", 3, None, "Attributes")
    assert summary.traits[9:] == (RatedTrait("animal_ken", "Animal Ken", 2, None, "Skills"),)
    assert [t.key for t in summary.traits[:9]] == list(SCHEMA.attributes)
    assert summary.pools == (PoolMeter("story_points", "Story Points", 1, 3),)
    assert summary.fields == (
        FreeField("Specialties", "Brawl (dirty)"),
        FreeField("Conditions", "Shaken"),
        FreeField("Notes", "Owes the Prince"),
    )


def test_a_damaged_sheet_still_summarises_name_and_status() -> None:
    broken = Character(owner_id=1, system="decanter", name="Ana", name_key="ana", sheet={"attributes": "x"})
    summary = summarise(broken, {}, "en")
    assert summary is not None and summary.name == "Ana" and summary.traits == ()
