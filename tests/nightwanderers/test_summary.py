"""Night Wanderers' SheetSummary: traits under the book's Russian names (a blood boost included),
Health and Blood, clan and Humanity, and the powers on the sheet."""

from __future__ import annotations

from gateway.summary import FreeField, PoolMeter, Power, RatedTrait
from gateway.vault.models import Character
from plugins.nightwanderers.sheet import WandererSheet
from plugins.nightwanderers.summary import summarise


def test_the_summary_speaks_the_books_russian_unless_asked_for_english() -> None:
    sheet = WandererSheet.new(2, "vampire", "aswang")
    sheet.boost, sheet.celerity, sheet.fortitude = 1, 2, True
    ivan = Character(owner_id=1, system="nightwanderers", name="Иван", name_key="иван", sheet=sheet.dump())
    summary = summarise(ivan, {"blood": (7, 10), "hp": (12, 15)}, "ru")
    assert summary is not None
    assert summary.traits[:2] == (RatedTrait("strength", "Сила", 3), RatedTrait("charisma", "Харизма", 2))
    assert summary.traits[5] == RatedTrait("physical", "ФА", 3)
    assert summary.pools == (PoolMeter("hp", "Здоровье", 12, 15), PoolMeter("blood", "Запас Крови", 7, 10))
    assert summary.powers == (Power("Продвинутая Быстрота", 2), Power("Стойкость"))
    assert summary.fields == (FreeField("Клан", "Асванг (вампир)"), FreeField("Гуманность", "8"))
    english = summarise(ivan, {"hp": (12, 15)}, "en")
    assert english is not None and english.traits[0].label == "Strength"
    assert english.pools == (PoolMeter("hp", "Health", 12, 15),)
    assert english.fields[0] == FreeField("Clan", "Aswang (vampire)")
