"""Pravidla's SheetSummary: the Attributes under the book's Czech names, Celerity, Hunting, Potence."""

from __future__ import annotations

from gateway.core.summary import Power, RatedTrait
from gateway.vault.models import Character
from plugins.pravidla import PRAVIDLA
from plugins.pravidla.sheet import PravidlaSheet


def test_the_summary_speaks_the_books_czech_unless_asked_for_english() -> None:
    sheet = PravidlaSheet.new(2)
    sheet.traits["charm"] = 4
    sheet.celerity, sheet.hunting, sheet.potence = 1, True, 2
    eva = Character(owner_id=1, system="pravidla", name="Eva", name_key="eva", sheet=sheet.dump())
    czech = PRAVIDLA.summary(eva, {}, "cs")
    assert czech is not None
    assert czech.traits[3] == RatedTrait("charm", "Šarm", 4, 10, "Vlastnosti")
    assert [t.label for t in czech.traits[:3]] == ["Síla", "Obratnost", "Kondice"]
    assert czech.powers == (
        Power("Základní Celerita", 1),
        Power("Lovecký instinkt"),
        Power("Pokročilá Potence", 2),
    )
    english = PRAVIDLA.summary(eva, {}, "en")
    assert english is not None and english.traits[3].label == "Charm"
    assert english.powers[:2] == (Power("Basic Celerity", 1), Power("Hunting Instinct"))
