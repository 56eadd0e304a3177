"""Pravidla's rules that left the command modules, tested without a vault: the initiative order and the
values ``st set`` takes for a power."""

from __future__ import annotations

from gateway.core.dice import ScriptedDice
from plugins.pravidla import mechanics
from plugins.pravidla.config import PravidlaSettings
from plugins.pravidla.sheet import LEVELS, NO, YES, fold


def entry(name: str, stamina: int, wits: int, celerity: int = 0, hunting: bool = False) -> dict[str, object]:
    return {"name": name, "hunting": hunting, "celerity": celerity, "stamina": stamina, "wits": wits}


def test_initiative_goes_by_powers_then_stamina_then_wits_then_a_die() -> None:
    entries = [entry("Ann", 3, 2), entry("Bo", 1, 1, celerity=2), entry("Cy", 3, 2), entry("Dee", 3, 4)]
    order = mechanics.initiative_order(entries, PravidlaSettings(), ScriptedDice([2, 5]))
    # Bo's advanced Celerity first; Dee's Wits beat the tie of Stamina; Ann and Cy tie, Cy's 5 beats 2.
    assert order["order"] == ["Bo", "Dee", "Cy", "Ann"]
    assert order["rolls"] == {"Ann": [2], "Cy": [5]}
    assert order["extra"] == [["Bo"]] * PravidlaSettings().celerity_advanced_extra


def test_celerity_extra_actions_come_from_the_settings() -> None:
    settings = PravidlaSettings(celerity_basic_extra=3)
    order = mechanics.initiative_order([entry("Bo", 1, 1, celerity=1)], settings, ScriptedDice([]))
    assert order["extra"] == [["Bo"]] * 3


def test_power_words_read_czech_with_or_without_diacritics() -> None:
    assert mechanics.POWERS.read(["lovecký", "celerita", "pokročilá"]) == {"hunting": True, "celerity": 2}
    assert {fold("ano"), fold("ne")} <= YES | NO and fold("Ano") in YES and "ne" in NO
    assert [LEVELS[fold(w)] for w in ("žádná", "základní", "pokročilá", "0", "2")] == [0, 1, 2, 0, 2]
