"""Night Wanderers' SheetSummary: traits under the book's Russian names (a blood boost included),
Health and Blood, kind, clan and Humanity, and the powers on the sheet; all from the declared sheet."""

from __future__ import annotations

from gateway.core.summary import FreeField, PoolMeter, Power, RatedTrait
from gateway.vault.models import Character
from plugins.nightwanderers import NIGHT_WANDERERS
from plugins.nightwanderers.sheet import WandererSheet


def test_the_summary_speaks_the_books_russian_unless_asked_for_english() -> None:
    sheet = WandererSheet.new(2, "vampire", "aswang")
    sheet.boost, sheet.celerity, sheet.fortitude = 1, 2, True
    ivan = Character(owner_id=1, system="nightwanderers", name="Иван", name_key="иван", sheet=sheet.dump())
    summary = NIGHT_WANDERERS.summary(ivan, {"blood": (7, 10), "hp": (12, 15)}, "ru")
    assert summary is not None
    assert summary.traits[:2] == (
        RatedTrait("strength", "Сила", 3, None, "Атрибуты"),
        RatedTrait("charisma", "Харизма", 2, None, "Атрибуты"),
    )
    assert summary.traits[5] == RatedTrait("physical", "ФА", 3, None, "Атрибуты")
    assert summary.pools == (PoolMeter("hp", "Здоровье", 12, 15), PoolMeter("blood", "Запас Крови", 7, 10))
    assert summary.powers == (Power("Продвинутая Быстрота", 2), Power("Стойкость"))
    assert summary.traits[7] == RatedTrait("persuasion", "Убеждение", 2, None, "Трюки")
    assert "humanity" not in [t.key for t in summary.traits]  # no roll names it: text, not a trait
    assert summary.fields == (
        FreeField("Гуманность", "8"),
        FreeField("Вид", "вампир"),
        FreeField("Клан", "Асванг"),
        FreeField("Усиление кровью", "1"),
    )
    english = NIGHT_WANDERERS.summary(ivan, {"hp": (12, 15)}, "en")
    assert english is not None and english.traits[0].label == "Strength"
    assert english.pools == (PoolMeter("hp", "Health", 12, 15),)
    assert english.fields[1:3] == (FreeField("Kind", "vampire"), FreeField("Clan", "Aswang"))
