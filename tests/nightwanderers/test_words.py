"""``plugins.nightwanderers.words`` (pure): Russian and transliterated option words become the
canonical words a handler reads; names and pools pass unchanged."""

from __future__ import annotations

from plugins.nightwanderers.sheet import TRAIT_NAMES, match_clan, split_clan
from plugins.nightwanderers.words import field_of, fold, kind_of, translate, transliterations


def test_fold_reads_yo_as_ye_and_ignores_case() -> None:
    assert fold("Увёртка") == fold("УВЕРТКА") == "увертка"
    assert fold("й") == "й"  # stays one letter


def test_transliterations_in_both_schemes() -> None:
    assert transliterations("Соблазн") == ("soblazn", "soblazn")
    assert transliterations("Харизма") == ("kharizma", "harizma")
    assert transliterations("Невооруженный бой") == ("nevooruzhennyy boy", "nevooruzhennyj boj")


def test_option_phrases_longest_first_names_untouched() -> None:
    """ "Деловая часть города (деловые районы, богемные кварталы) 3"."""
    assert translate("hunt", ["деловая", "часть", "города", "разум"]) == ("business", "разум")
    assert translate("hunt", ["Жилые", "Кварталы"]) == ("residential",)
    assert translate("hunt", ["dikaya", "mestnost"]) == ("wilderness",)
    assert translate("feed", ["2", "КОРОВУ"]) == ("2", "cow")
    assert translate("shoot", ["Рыцарь", "в", "упор", "метательное"]) == ("Рыцарь", "point", "thrown")
    assert translate("attack", ["Максина", "когти", "увёртка"]) == ("Максина", "claws", "dodge")


def test_numbered_words_only_before_a_number() -> None:
    """``сила 3`` is an NPC's Strength, ``Сила`` alone may be a character's name."""
    assert translate("attack", ["пул", "3", "сила", "2", "Сила"]) == ("pool", "3", "str", "2", "Сила")
    assert translate("roll", ["2", "трудность", "5", "против", "3"]) == ("2", "diff", "5", "vs", "3")


def test_commands_without_option_words_are_left_alone() -> None:
    assert translate("char new", ["Корова", "Бель", "Морт"]) == ("Корова", "Бель", "Морт")


def test_trait_names_in_latin_letters_match_by_prefix() -> None:
    assert TRAIT_NAMES.match("ubezh") == ("persuasion", [])
    assert TRAIT_NAMES.match("harizma") == ("charisma", [])
    assert TRAIT_NAMES.match("рукопашная") == ("brawl", [])  # the former Russian name still works


def test_clans_by_every_name_the_book_gives() -> None:
    assert match_clan("Le sang royal") == match_clan("Лесанг") == match_clan("lesang") == "lesang"
    assert match_clan("Dragazhar") == match_clan("Драгазар") == match_clan("dragazar") == "dragazhar"
    assert match_clan("Вентру") is None
    assert split_clan(["Флавиус", "Le", "sang", "royal"]) == (["Флавиус"], "lesang")
    assert split_clan(["Человек"]) == (["Человек"], None)  # the first word is always the name's


def test_st_set_fields_and_kinds_in_russian() -> None:
    assert field_of("Гуманность") == "humanity" and field_of("gumannost") == "humanity"
    assert field_of("hpmax") == "hpmax"
    assert kind_of("Оборотень") == "werewolf" and kind_of("vampire") == "vampire"
