"""The router's cache of validated house rules is keyed by the ids of the model and the settings, so
an entry must keep the settings it was built from alive: otherwise a later gateway's settings (in
tests, one gateway after another in one process) could take a collected object's id and be handed
the switches built from the old settings (seen: ``[pravidla] default_target = 5`` read as 4)."""

from __future__ import annotations

from gateway.features.house_rules.store import built
from plugins.pravidla.config import PravidlaSettings
from plugins.pravidla.house import PravidlaHouseRules


def test_an_entry_answers_only_for_the_very_settings_it_was_built_from() -> None:
    for _ in range(50):  # CPython gives a freed object's memory, and so its id, to the next one
        first = PravidlaSettings(default_target=5)
        assert built(PravidlaHouseRules, first, {}).default_target == 5
        del first
        second = PravidlaSettings(default_target=6)
        assert built(PravidlaHouseRules, second, {}).default_target == 6


def test_the_switches_away_from_the_book_are_those_of_that_very_instance() -> None:
    book = PravidlaHouseRules()
    assert book.away_from_book() == {}
    for i in range(50):  # new instances take freed ids: each must get its own answer
        target = 5 + i % 2
        house = PravidlaHouseRules(default_target=target)
        away = house.away_from_book()
        assert away == {"default_target": target}
        assert house.away_from_book() is away  # kept: every roll asks it
        del house
