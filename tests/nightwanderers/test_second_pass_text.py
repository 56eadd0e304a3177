"""Issue 19, Night Wanderers (002), input and text: contests whose defender rolls the trait the
book pairs (or one that is named), the book's clans in ``char new``, Russian option words and
transliterated traits, and the Russian lines in the book's terms and grammar."""

from __future__ import annotations

import pytest

from gateway.testing import Chat
from gateway.vault.models import Character, RollLog
from plugins.nightwanderers.messages import EN, RU
from plugins.nightwanderers.pairing import defence_for
from tests.helpers.chat import count, make_character, rows


async def baron_and_mortal(nw: Chat) -> None:
    """d'Havilland (Persuasion 4, Seduction 4) and a stubborn mortal (ПА 2, Mind 3, Persuasion 1)."""
    await make_character(nw, "eva", "Хавиланд", persuasion=4, seduction=4, strength=4)
    assert (await nw.one("char new Смертный человек", as_="ivan")).error is None
    for field, value in {"psyche": 2, "mind": 3, "strength": 4, "seduction": 4}.items():
        assert (await nw.one(f"st set Смертный {field} {value}", as_="st", st=True)).error is None


# --- 1. the defender's trait -------------------------------------------------------------------


async def test_example_2_the_mortal_resists_persuasion_with_psyche(nw: Chat) -> None:
    """Пример 2: "Барон д'Хавиланд (Убеждение 4) пытается заставить упрямого смертного (ПА 2) дать
    ему дорогу. Д'Хавиланд бросает 4 кости и получает 1, 3, 5 и 5 - два Успеха. Смертный бросает 2
    кости и получает 3 и 6 - один Успех. Д'Хавиланд выиграл"."""
    await baron_and_mortal(nw)
    nw.dice.extend([1, 3, 5, 5, 3, 6])
    reply = await nw.one("roll убеждение vs Смертный", as_="eva")
    result = reply.result
    assert reply.error is None, reply.text
    assert [s["trait"] for s in result["sides"]] == ["persuasion", "psyche"]
    assert [s["dice"] for s in result["sides"]] == [[1, 3, 5, 5], [3, 6]]
    assert result["winner"] == 0
    assert reply.text == (
        "Спор, трудность 4. Хавиланд (Убеждение 4): 1 3 5 5 → 2 успеха. Соперник — Смертный (ПА 2): 3 6 →"
        f" 1 успех. Побеждает Хавиланд. #{result['id']}"
    )
    assert "против Смертный" not in reply.text


async def test_the_defenders_trait_can_be_named(nw: Chat) -> None:
    """Лидерство: "Если жертва склонна к неподчинению, она может сделать бросок Разума"; the named
    trait (with its modifier) wins over the pairing, and a number of dice may meet a named trait."""
    await baron_and_mortal(nw)
    nw.dice.extend([1, 3, 5, 5, 3, 6])
    named = (await nw.one("roll убеждение vs Смертный па", as_="eva")).result
    assert named["sides"][1]["trait"] == "psyche" and named["sides"][1]["pool"] == 2
    nw.dice.extend([1, 3, 5, 5, 6, 1, 3])
    leadership = (await nw.one("roll убеждение vs Смертный разум", as_="eva")).result
    assert leadership["sides"][1]["trait"] == "mind" and leadership["sides"][1]["dice"] == [6, 1, 3]
    nw.dice.extend([6, 6, 6, 6, 1, 1, 1, 1, 1])
    plus = (await nw.one("roll убеждение vs Смертный разум +1", as_="eva")).result
    assert (plus["sides"][1]["pool"], plus["sides"][1]["modifiers"]) == (4, [1])
    nw.dice.extend([6, 1, 1])
    number = (await nw.one("roll 1 vs Смертный па", as_="eva")).result
    assert number["sides"][1]["trait"] == "psyche" and number["sides"][1]["pool"] == 2


async def test_example_1_rivals_name_seduction_and_seduction_defaults_to_psyche(nw: Chat) -> None:
    """Пример 1 (two seducers of one model): Соблазн against Соблазн, 1 3 4 6 against 2 5 6 6.
    Совращение: "Вампир делает бросок Соблазна, соблазняемый делает П-бросок для защиты"."""
    await baron_and_mortal(nw)
    nw.dice.extend([1, 3, 4, 6, 2, 5, 6, 6])
    rivals = (await nw.one("roll соблазн vs Смертный соблазн", as_="eva")).result
    assert [s["successes"] for s in rivals["sides"]] == [2, 3] and rivals["winner"] == 1
    nw.dice.extend([1, 3, 4, 6, 2, 5])
    seduced = (await nw.one("roll соблазн vs Смертный", as_="eva")).result
    assert seduced["sides"][1]["trait"] == "psyche" and seduced["sides"][1]["pool"] == 2


async def test_example_3_strength_meets_strength_and_odds_use_the_pairing(nw: Chat) -> None:
    """Пример 3: "Максина (Сила 4) борется на руках с Tragander (Сила также 4)"."""
    await baron_and_mortal(nw)
    nw.dice.extend([6, 6, 1, 1, 6, 1, 1, 1])
    arm = (await nw.one("roll сила vs Смертный", as_="eva")).result
    assert [s["trait"] for s in arm["sides"]] == ["strength", "strength"]
    odds = (await nw.one("odds убеждение vs Смертный", as_="eva")).result
    assert odds["pools"] == [4, 2]


async def test_a_multi_word_name_and_trait_after_vs(nw: Chat) -> None:
    """Удар: "Атакующий делает бросок Трюка «Невооруженный бой» ... (бросок Трюка «Физ. Защита»)"."""
    await make_character(nw, "eva", "Хавиланд", brawl=3)
    assert (await nw.one('char new "Рыцарь крови" Рыцари', as_="ivan")).error is None
    await nw.one("st set 'Рыцарь крови' defence 2", as_="st", st=True)
    nw.dice.extend([6, 6, 6, 1, 1])
    paired = (await nw.one("roll невооруженный бой vs Рыцарь крови", as_="eva")).result
    assert [s["trait"] for s in paired["sides"]] == ["brawl", "defence"]
    nw.dice.extend([6, 6, 6, 1, 1])
    named = (await nw.one("roll бой vs Рыцарь крови физ. защита", as_="eva")).result
    assert named["sides"][1]["trait"] == "defence" and named["sides"][1]["pool"] == 2
    before = await count(nw, RollLog)
    unknown = await nw.one("roll бой vs Рыцарь крови магия", as_="eva")
    assert unknown.error is not None and "Неизвестный атрибут или трюк «магия»" in unknown.text
    assert await count(nw, RollLog) == before


def test_the_pairing_table() -> None:
    """Запугивание (Сила, Манипуляция, Разум) "Противник защищается, используя свой ПА"; Скрытность:
    Красться against Инспекция; any other trait meets itself ("делает бросок на свой Атрибут")."""
    assert defence_for("persuasion") == "psyche"
    assert defence_for("seduction") == "psyche"
    assert defence_for("manipulation") == "psyche" and defence_for("mind") == "psyche"
    assert defence_for("strength") == "strength"
    assert defence_for("brawl") == "defence" and defence_for("shooting") == "dodge"
    assert defence_for("sneak") == "inspection" and defence_for("inspection") == "sneak"
    assert defence_for("charisma") == "charisma"


# --- 2. clans ------------------------------------------------------------------------------------


async def test_the_books_clans_are_recognised_multi_word_too(nw: Chat) -> None:
    """ "Флавиусом из клана Le sang royal"; Гуманность: "Бель Морт 7", "Лесанг 8", "Рыцари 5"."""
    for line, name, clan, humanity in [
        ("char new Флавиус Le sang royal", "Флавиус", "lesang", 8),
        ("char new Барон Бель Морт", "Барон", "bellemort", 7),
        ("char new Тень Рыцари крови", "Тень", "knights", 5),
        ('char new "Анна Мария" Драгазар', "Анна Мария", "dragazhar", 5),
        ("char new Зверь lugaru", "Зверь", "lugaru", 9),
    ]:
        reply = await nw.one(line, as_="eva")
        assert reply.error is None, reply.text
        assert (reply.result["name"], reply.result["sheet"]["clan"]) == (name, clan)
        assert reply.result["sheet"]["humanity"] == humanity


async def test_an_unknown_clan_is_refused_with_the_list(nw: Chat) -> None:
    reply = await nw.one("char new Мира Вентру", as_="eva")
    assert reply.error is not None
    assert reply.text.startswith("Клана «Вентру» в книге нет. Кланы: Асванг, Бель Морт, Вергши, Драгазар,")
    assert 'char new "Анна Мария" Драгазар' in reply.text
    assert await rows(nw, Character) == []


# --- 3. Russian input ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("word", "trait"),
    [
        ("soblazn", "seduction"),
        ("pa", "psyche"),
        ("fa", "physical"),
        ("sila", "strength"),
        ("ubezhdenie", "persuasion"),
        ("SOBLAZN", "seduction"),
        ("невооруженный бой", "brawl"),
        ("Невооружённый бой", "brawl"),
        ("физ. защита", "defence"),
        ("уворачиваться", "dodge"),
    ],
)
async def test_transliterated_and_book_trait_names(nw: Chat, word: str, trait: str) -> None:
    await make_character(nw, "eva", "Хавиланд")
    nw.dice.extend([6])
    reply = await nw.one(f"roll {word}", as_="eva")
    assert reply.error is None, reply.text
    assert reply.result["trait"] == trait


async def test_russian_option_words(nw: Chat) -> None:
    """feed N [корова], sun прямой, fire большой, attack ... когти, and the book's grounds by their
    names: "Деловая часть города ... 3", "Жилые кварталы ... 4", "Дикая местность 6"."""
    await make_character(nw, "olga", "Maxina", blood=5)
    fed = await nw.one("feed 1 Корова", as_="olga")
    assert fed.error is None, fed.text
    assert fed.result["source"] == "cow" and "пьёт кровь коровы 1 ход" in fed.text
    sun = await nw.one("sun прямой 1", as_="olga")
    assert (sun.result["strength"], sun.result["damage"]) == ("direct", 1)
    fire = await nw.one("fire большой 1", as_="olga")
    assert (fire.result["strength"], fire.result["damage"]) == ("large", 1)
    surprise = await nw.one("fire небольшой внезапно", as_="olga")
    assert surprise.result["surprise"] is True and surprise.result["damage"] == 1
    nw.dice.extend([6, 6, 6, 1])
    claws = await nw.one("attack пул 3 сила 2 когти Maxina", as_="st", st=True)
    assert claws.error is None, claws.text
    assert (claws.result["damage"], claws.result["deep"]) == (3, True)
    for line, terrain, diff in [
        ("hunt деловая часть", "business", 3),
        ("hunt деловая часть города", "business", 3),
        ("hunt жилые кварталы", "residential", 4),
        ("hunt Дикая Местность", "wilderness", 6),
        ("hunt кормушка", "feeding", 2),
    ]:
        nw.dice.extend([6])
        reply = await nw.one(line, as_="olga")
        assert reply.error is None, (line, reply.text)
        assert (reply.result["terrain"], reply.result["difficulty"]) == (terrain, diff)


async def test_dodging_in_russian_with_yo(nw: Chat) -> None:
    """Увертка: "совершающий увертку получает +2 к своему броску на способность Уворачиваться"."""
    await make_character(nw, "olga", "Maxina", dodge=1)
    nw.dice.extend([1, 1, 1, 6, 6, 6])
    reply = await nw.one("attack пул 3 сила 1 увёртка Maxina", as_="st", st=True)
    assert reply.error is None, reply.text
    assert reply.result["sides"][1]["dodge"] is True and reply.result["sides"][1]["trait"] == "dodge"


# --- 4. the Russian lines ------------------------------------------------------------------------


async def test_difficulty_is_the_books_trudnost(nw: Chat) -> None:
    """ "Трудность измеряется в значениях от 2 до 6"."""
    nw.dice.extend([5, 6])
    reply = await nw.one("roll 2 diff 8")
    assert "трудность 6" in reply.text and "Трудность 8 заменена на 6" in reply.text
    assert all("сложност" not in text for text in RU.values())


@pytest.mark.parametrize(
    ("amount", "deep", "line"),
    [
        (1, False, "Maxina теряет 1 уровень Здоровья."),
        (4, False, "Maxina теряет 4 уровня Здоровья."),
        (5, False, "Maxina теряет 5 уровней Здоровья."),
        (4, True, "Maxina получает 4 уровня глубоких повреждений."),
        (1, True, "Maxina получает 1 уровень глубоких повреждений."),
    ],
)
async def test_damage_in_health_levels(nw: Chat, amount: int, deep: bool, line: str) -> None:
    """ "снимая у жертвы уровни Здоровья"; "глубокими повреждениями"."""
    await make_character(nw, "olga", "Maxina")
    reply = await nw.one(f"damage {amount} {'глубокие ' if deep else ''}Maxina", as_="st", st=True)
    assert reply.text.startswith(line), reply.text


async def test_waking_twice_is_told_without_a_gendered_verb(nw: Chat) -> None:
    await make_character(nw, "olga", "Maxina")
    await nw.one("wake", as_="olga")
    twice = await nw.one("wake", as_="olga")
    assert twice.error is not None
    assert twice.text.startswith("Maxina: пробуждение этой ночью уже было; следующая ночь начнётся ")


@pytest.mark.parametrize(
    ("ties", "said"),
    [
        (1, "до этого была 1 ничья, её перекинули"),
        (2, "до этого были 2 ничьи, их перекинули"),
        (5, "до этого было 5 ничьих, их перекинули"),
    ],
)
async def test_rerolled_ties_are_counted_in_russian(nw: Chat, ties: int, said: str) -> None:
    """ "Ничьи перекидываются"."""
    nw.dice.extend([4, 4] * ties + [1, 6])
    reply = await nw.one("roll 1 vs 1")
    assert reply.result["rerolls"] == ties and said in reply.text


async def test_one_entry_in_the_initiative(nw: Chat) -> None:
    await nw.one("init add Крыса", as_="st", st=True)
    reply = await nw.one("init")
    assert reply.text == "В инициативе: Крыса. Порядок определит DM командой init roll."


async def test_the_sheet_has_the_books_terms(nw: Chat) -> None:
    """«Невооруженный бой», «Физ. Защита», «Уворачиваться»."""
    await make_character(nw, "olga", "Maxina")
    sheet = (await nw.one("sheet", as_="olga")).text
    for term in ("Невооруженный бой 1", "Физ. Защита 1", "Уворачиваться 1"):
        assert term in sheet


async def test_storyteller_edits_are_told_in_russian(nw: Chat) -> None:
    await make_character(nw, "olga", "Maxina")
    for line, said in [
        ("st set Maxina fortitude yes", "Maxina: Стойкость: нет → да."),
        ("st set Maxina hunting да", "Maxina: Охотничий Инстинкт: нет → да."),
        ("st set Maxina гуманность 7", "Maxina: Гуманность: 8 → 7."),
        ("st set Maxina clan Драгазар", "Maxina: клан: — → Драгазар."),
        ("st set Maxina celerity 1", "Maxina: Быстрота: нет → начальная."),
        ("st set Maxina вид человек", "Maxina: вид: вампир → человек."),
    ]:
        reply = await nw.one(line, as_="st", st=True)
        assert reply.text == said, (line, reply.text)
    for line, said in [
        ("st set Maxina humanity 11", "Значение «11» не подходит для поля «Гуманность»: допустимо от 0 до"),
        ("st set Maxina сила 11", "Значение «11» не подходит для поля «Сила»: допустимо от 0 до 10."),
        ("st set Maxina fortitude может", "Значение «может» не подходит для поля «Стойкость»: допустимо да"),
    ]:
        reply = await nw.one(line, as_="st", st=True)
        assert reply.error is not None and reply.text.startswith(said), (line, reply.text)


async def test_help_of_every_command_in_russian(nw: Chat) -> None:
    registry = nw.services.plugins.registry
    commands = [c for c in registry.visible("nightwanderers") if c.system == "nightwanderers"]
    missing = [c.name for c in commands if "ru" not in c.texts]
    assert commands and not missing, missing
    reply = await nw.one("help feed")
    assert reply.text.startswith("feed: питаться: 1 BP за ход.")
    assert "feed N [человек|корова|собака|кошка]" in reply.text


def test_every_russian_line_has_its_english_twin() -> None:
    assert set(RU) == set(EN)
