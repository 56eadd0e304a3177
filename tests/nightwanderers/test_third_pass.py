"""Issue 31, Night Wanderers (002), third pass: who may act (a character never contests itself),
input that slipped through (two-word tricks in ``st set``, a cow's 5 BP, pools out of range,
Celerity's level), what the sheet and the replies say, and the Russian read by a native speaker."""

from __future__ import annotations

import re

import pytest

from gateway.testing import Chat
from gateway.vault.models import Character, Pool, RollLog
from tests.helpers.chat import count, make_character, rows

SELF = "Соперником не может быть тот же персонаж (Максина): спор — это конфликт с другой личностью."


async def maxina_and_flavius(nw: Chat) -> None:
    """Ольга's Максина and the DM's Флавиус (the book's "Пример игры")."""
    await make_character(
        nw, "olga", "Максина", strength=4, brawl=3, dodge=3, defence=2, sneak=3, inspection=2, persuasion=2
    )
    await make_character(nw, "dm", "Флавиус", strength=3, brawl=2, dodge=3, defence=2, inspection=3)


# --- a character contests itself --------------------------------------------------------------


@pytest.mark.parametrize(
    "line",
    [
        "roll сила vs Максина",
        "roll убеждение против Максина па",
        "odds сила vs Максина",
        "attack Максина",
        "attack Максина когти",
        "shoot Максина средняя метательное",
        "grapple Максина",
        "pursue vs Максина",
        "sneak vs Максина",
        "sneak против Максина",
        "tug start Максина 3 сила vs сила",
        "tug start Максина 3 4 vs 4",
    ],
)
async def test_a_character_never_contests_itself(nw: Chat, line: str) -> None:
    """Споры: «Иногда персонаж вступает в конфликт с другой личностью или вампиром»; a fight, a chase
    and stealth set one side against another too. Nothing is rolled, logged or stored."""
    await maxina_and_flavius(nw)
    nw.dice.extend([6] * 20)
    reply = await nw.one(line, as_="olga")
    assert reply.error is not None and reply.text == SELF, (line, reply.text)
    assert nw.dice.remaining == 20
    assert await count(nw, RollLog) == 0
    assert (await nw.one("tug", as_="olga")).result["tug"] is None
    hp = {p.character_id: p.current for p in await rows(nw, Pool) if p.name == "hp"}
    assert set(hp.values()) == {25}


@pytest.mark.parametrize("line", ["give 1 Максина", "dismember Максина"])
async def test_blood_and_the_blade_are_for_another(nw: Chat, line: str) -> None:
    """«Вампиры могут пить кровь других вампиров»; blood is given to another, a body dismembered is
    another's."""
    await maxina_and_flavius(nw)
    reply = await nw.one(line, as_="olga")
    assert reply.error is not None
    assert reply.text == "Это делают с другим персонажем, а не с тем же самым (Максина).", reply.text


async def test_the_same_lines_against_another_are_played(nw: Chat) -> None:
    """The refusal is for oneself only: against Флавиус each line is played."""
    await maxina_and_flavius(nw)
    for line in ("roll сила vs Флавиус", "attack Флавиус", "sneak vs Флавиус", "pursue vs Флавиус"):
        nw.dice.extend([6, 1, 6, 5, 3, 2, 6, 6, 1, 4])
        reply = await nw.one(line, as_="olga")
        assert reply.error is None, (line, reply.text)
        while nw.dice.remaining:
            nw.dice.roll(6)


# --- st set ------------------------------------------------------------------------------------


async def test_a_trick_of_two_words_is_not_read_as_a_name(nw: Chat) -> None:
    """The book's tricks «Невооруженный бой» and «Физ. Защита» are two words each."""
    await maxina_and_flavius(nw)
    brawl = await nw.one("st set Максина невооруженный бой 5", as_="dm", st=True)
    assert brawl.error is None and brawl.text == "Максина: Невооруженный бой: 3 → 5.", brawl.text
    defence = await nw.one("st set Максина Физ. Защита 4", as_="dm", st=True)
    assert defence.error is None and defence.text == "Максина: Физ. Защита: 2 → 4.", defence.text
    blood = await nw.one("st set Максина запас крови 7", as_="dm", st=True)
    assert blood.error is None and blood.text == "Максина: Запас Крови: 10 → 7.", blood.text
    top = await nw.one("st set Максина максимум Здоровья 30", as_="dm", st=True)
    assert top.error is None and top.text == "Максина: максимум Здоровья: 25 → 30.", top.text
    # A name of two words still works, with a one-word field after it.
    await make_character(nw, "ivan", '"Рыцарь крови"')
    knight = await nw.one("st set Рыцарь крови сила 3", as_="dm", st=True)
    assert knight.error is None and knight.text == "Рыцарь крови: Сила: 1 → 3.", knight.text


@pytest.mark.parametrize(
    ("line", "said"),
    [
        (
            "st set Максина blood -5",
            "Значение «-5» не подходит для поля «Запас Крови»: допустимо от 0 до 10.",
        ),
        (
            "st set Максина blood 11",
            "Значение «11» не подходит для поля «Запас Крови»: допустимо от 0 до 10.",
        ),
        ("st set Максина hp 30", "Значение «30» не подходит для поля «Здоровье»: допустимо от 0 до 25."),
        ("st set Максина hp -1", "Значение «-1» не подходит для поля «Здоровье»: допустимо от 0 до 25."),
        (
            "st set Максина hpmax 0",
            "Значение «0» не подходит для поля «максимум Здоровья»: допустимо от 1 до 1000.",
        ),
        (
            "st set Максина hpmax 5",
            "Максина: Здоровье сейчас 25, это больше нового максимума 5; сначала снизьте его (st set Максина"
            " hp 5).",
        ),
        (
            "st set Максина bloodmax 5",
            "Максина: Запас Крови сейчас 10, это больше нового максимума 5; сначала снизьте его (st set"
            " Максина blood 5).",
        ),
        ("st set Смертный blood 3", "Смертный — не вампир: Запаса Крови нет."),
        ("st set Смертный hp -11", "Значение «-11» не подходит для поля «Здоровье»: допустимо от -10 до 10."),
    ],
)
async def test_pools_out_of_range_are_refused(nw: Chat, line: str, said: str) -> None:
    """«Вампир, человек или оборотень имеют 5 уровней Здоровья»; a vampire at 0 falls into torpor, a
    mortal goes on to «– 10», final death; blood is the vampire's only. Nothing is written."""
    await maxina_and_flavius(nw)
    assert (await nw.one("char new Смертный человек", as_="ivan")).error is None
    before = [(p.character_id, p.name, p.current, p.maximum) for p in await rows(nw, Pool)]
    reply = await nw.one(line, as_="dm", st=True)
    assert reply.error is not None and reply.text == said, reply.text
    assert [(p.character_id, p.name, p.current, p.maximum) for p in await rows(nw, Pool)] == before


async def test_a_mortal_may_be_set_below_zero(nw: Chat) -> None:
    """«оборотень и человек падают без сознания и каждый ход теряют по единице здоровья»."""
    assert (await nw.one("char new Смертный человек", as_="ivan")).error is None
    reply = await nw.one("st set Смертный hp -3", as_="dm", st=True)
    assert reply.error is None and reply.text == "Смертный: Здоровье: 10 → -3.", reply.text


# --- blood ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "said"),
    [
        ("feed 6 корова", "Из коровы можно выпить не больше 5 BP"),
        ("feed 3 собака", "Из собаки можно выпить не больше 2 BP"),
        ("feed 2 cat", "Из кошки можно выпить не больше 1 BP"),
        ("feed 11", "Из человека можно выпить не больше 10 BP"),
    ],
)
async def test_an_animal_gives_only_its_blood(nw: Chat, line: str, said: str) -> None:
    """«Выпив всю кровь коровы (или схожего по размерам животного) вампир получает только 5 BP,
    собака дает 2 BP, кошка 1»; «Люди имеют 10 BP в своих телах»."""
    await maxina_and_flavius(nw)
    await nw.one("st set Максина blood 1", as_="dm", st=True)
    reply = await nw.one(line, as_="olga")
    assert reply.error is not None and reply.text.startswith(said), reply.text
    assert reply.text.endswith(": корова даёт 5 BP, собака 2, кошка 1; в человеке 10 BP.")
    assert (await nw.one("feed 5 корова", as_="olga")).result["gained"] == 5


async def test_frenzy_end_and_boost_end_need_something_to_end(nw: Chat) -> None:
    """«Безумие кончается с концом эпизода, или пока ее источник не буде уничтожен»: only a vampire
    in frenzy comes out of it."""
    await maxina_and_flavius(nw)
    calm = await nw.one("frenzy end", as_="olga")
    assert calm.error is not None and calm.text == "Максина не в Безумии.", calm.text
    unboosted = await nw.one("boost end", as_="olga")
    assert unboosted.error is not None and unboosted.text == "У персонажа Максина нет усиления кровью."
    nw.dice.extend([1])  # ПА 1 at difficulty 4: a failure, frenzy
    assert (await nw.one("frenzy", as_="olga")).result["frenzy"] is True
    out = await nw.one("frenzy end", as_="olga")
    assert out.error is None and out.text == "Максина выходит из Безумия."


async def test_torpor_at_zero_health_with_blood_says_what_brings_it_out(nw: Chat) -> None:
    """«Потеряв все уровни Здоровья/Запас Крови, вампир впадает в ... Оцепенение ... Чтобы выйти из
    Оцепенения он должен восстановить хотя бы один пункт Запаса Крови»: a full pool is no wait for
    "1 BP to come back"; blood given heals the first Health level."""
    await maxina_and_flavius(nw)
    await nw.one("damage 25 Флавиус", as_="dm", st=True)
    sheet = (await nw.one("sheet Флавиус", as_="dm", st=True)).text
    assert "Здоровье 0 из 25 (уровней Здоровья не осталось)." in sheet, sheet
    assert sheet.endswith(
        "Флавиус: Оцепенение — уровней Здоровья не осталось, паралич, пока вампир не получит кровь (другой"
        " вампир: give N ИМЯ; первый BP сразу восстанавливает 1 уровень Здоровья)."
    ), sheet
    assert "пока не вернётся хотя бы 1 BP" not in sheet
    await nw.one("st set Максина blood 0", as_="dm", st=True)
    drained = (await nw.one("sheet", as_="olga")).text
    assert drained.endswith(
        "Максина: Оцепенение — паралич, пока не вернётся хотя бы 1 BP (другой вампир: give N ИМЯ)."
    )


async def test_blood_given_to_a_full_pool_says_it_is_full(nw: Chat) -> None:
    await maxina_and_flavius(nw)
    reply = await nw.one("give 1 Флавиус", as_="olga")
    assert reply.error is not None and reply.text == "Запас Крови персонажа Флавиус полон: 10 из 10 BP."


# --- initiative, the sheet, the tug of war ----------------------------------------------------


async def test_init_add_refuses_a_celerity_the_book_does_not_have(nw: Chat) -> None:
    """Инициатива: «Продвинутая Быстрота (активная), Начальная Быстрота (активная)»: two levels."""
    await maxina_and_flavius(nw)
    await nw.one("st set Максина быстрота 2", as_="dm", st=True)
    wrong = await nw.one("init add Максина быстрота 3", as_="dm", st=True)
    assert wrong.error is not None
    assert wrong.text == "Быстрота бывает только начальной или продвинутой (1 или 2), а не «3».", wrong.text
    bare = await nw.one("init add Максина быстрота", as_="dm", st=True)
    assert bare.error is not None and bare.text.startswith("Пишите init")
    assert (await nw.one("init", as_="dm")).text.startswith("Здесь пока никого нет")
    right = await nw.one("init add Максина быстрота продвинутая", as_="dm", st=True)
    assert (
        right.error is None and right.text == "Максина вступает в инициативу, активно: Продвинутая Быстрота."
    )


async def test_the_sheet_shows_potence_and_experience(nw: Chat) -> None:
    """Погоня сравнивает «Продвинутое Могущество, Начальное Могущество»; «Стоимость 1 пункта Гуманности
    равна 10 очкам опыта»."""
    await maxina_and_flavius(nw)
    set_potence = await nw.one("st set Максина могущество 1", as_="dm", st=True)
    assert set_potence.text == "Максина: Могущество: нет → начальное.", set_potence.text
    await nw.one("st set Максина опыт 23", as_="dm", st=True)
    sheet = (await nw.one("sheet", as_="olga")).text
    assert (
        "Быстрота: нет. Могущество: начальное. Охотничий Инстинкт: нет. Стойкость: нет. Опыт: 23 очка."
        in sheet
    ), sheet
    await nw.one("lang en", as_="olga")
    english = (await nw.one("sheet", as_="olga")).text
    assert "Celerity: none. Potence: basic. Hunting Instinct: no. Fortitude: no. Experience: 23." in english


async def test_a_human_has_no_clan(nw: Chat) -> None:
    """The Humanity table lists «Человек 8» beside the clans; a human is of no clan."""
    assert (await nw.one("char new Смертный человек", as_="ivan")).error is None
    sheet = (await nw.one("sheet", as_="ivan")).text
    assert sheet.startswith("Смертный: человек, Гуманность 8. "), sheet
    assert "клан" not in sheet
    assert (await nw.one("char new Тень Драгазар", as_="olga")).error is None
    assert (await nw.one("sheet", as_="olga")).text.startswith("Тень: вампир, клан Драгазар, Гуманность 5. ")


@pytest.mark.parametrize("line", ["tug strat Флавиус 3 сила vs сила", "tug roll 2", "tug stop now"])
async def test_a_mistyped_tug_is_refused_with_its_usage(nw: Chat, line: str) -> None:
    await maxina_and_flavius(nw)
    reply = await nw.one(line, as_="olga")
    assert reply.error is not None and reply.text.startswith("Пишите tug start ПРОТИВНИК N ПУЛ против ПУЛ")
    assert "tug stop — прекратить" in reply.text


async def test_a_tug_won_past_its_goal_tells_the_lead_and_names_both_sides(nw: Chat) -> None:
    """Пример 3: «DM решает, что выиграет вампир, первым набравший 3 Успеха»; a round that leaps past
    the goal is told as it fell, and verify names Максина and Флавиус."""
    await maxina_and_flavius(nw)
    started = await nw.one("tug start Флавиус 3 сила против сила трудность 4", as_="olga")
    assert started.error is None, started.text
    nw.dice.extend([6, 6, 6, 6, 1, 1, 1])
    won = await nw.one("tug roll", as_="olga")
    assert "Побеждает Максина: перевес в 4 успеха (для победы нужно было 3)." in won.text, won.text
    shown = await nw.one(f"verify {won.result['id']}", as_="dm")
    assert "Максина 6 6 6 6 → 4 (Мастерски) — Флавиус 1 1 1 → 0 (Провал): побеждает Максина" in shown.text
    assert "сторона" not in shown.text
    await nw.one("tug start Флавиус 3 сила vs сила", as_="olga")
    nw.dice.extend([6, 6, 6, 1, 1, 1, 1])
    exact = await nw.one("tug roll", as_="olga")
    assert exact.text.endswith(f"Побеждает Максина: перевес в 3 успеха. #{exact.result['id']}"), exact.text


# --- combat and harm --------------------------------------------------------------------------


async def test_a_dodge_shows_the_dice_it_rolls(nw: Chat) -> None:
    """Увертка: «совершающий увертку получает +2 к своему броску на способность Уворачиваться»."""
    await maxina_and_flavius(nw)
    nw.dice.extend([6, 1, 6, 5, 3, 2, 6, 6])
    reply = await nw.one("attack Флавиус увертка", as_="olga")
    assert (
        "цель — Флавиус, увертывается (Уворачиваться 3+2); трудность 4: 6 1 6 → 2 против 5 3 2 6 6 → 3"
        in (reply.text)
    ), reply.text
    assert reply.result["sides"][1]["pool"] == 5 and reply.result["sides"][1]["modifiers"] == [2]


async def test_verify_of_a_soaked_sunburn_shows_the_soak_dice(nw: Chat) -> None:
    """«Эти повреждения не могут быть поглощены, если только вампир не владеет Стойкостью»: with
    Стойкость the soak is rolled, and verify shows its dice; without, it says no dice were rolled."""
    await maxina_and_flavius(nw)
    bare = await nw.one("sun прямой 1 Максина", as_="dm", st=True)
    told = await nw.one(f"verify {bare.result['id']}", as_="dm")
    assert told.text.endswith(": кубики не бросались"), told.text
    await nw.one("st set Максина стойкость да", as_="dm", st=True)
    nw.dice.extend([6, 1])
    soaked = await nw.one("sun прямой 1 Максина", as_="dm", st=True)
    assert "Максина поглощает повреждения (Физ. Защита 2), трудность 5: 6 1 → 1" in soaked.text
    told = await nw.one(f"verify {soaked.result['id']}", as_="dm")
    assert told.text.endswith(": 6 1 → 1"), told.text


async def test_verify_of_stealth_reads_the_outcome_in_russian(nw: Chat) -> None:
    """Скрытность: «в случае ничьи жертве кажется, что она “что-то слышала”»."""
    await maxina_and_flavius(nw)
    nw.dice.extend([6, 1, 1, 6, 1, 1])
    heard = await nw.one("sneak против Флавиус", as_="olga")
    assert heard.result["outcome"] == "heard", heard.text
    told = await nw.one(f"verify {heard.result['id']}", as_="dm")
    assert told.text.endswith(
        "Максина 6 1 1 → 1 (Сделано) — Флавиус 6 1 1 → 1 (Сделано): без победителя (что-то послышалось)"
    ), told.text
    assert "(heard)" not in told.text and "против" not in told.text
    # The system by the book's own name, not its key.
    assert "бросок по системе «Ночные скитальцы»" in told.text, told.text
    assert "nightwanderers" not in told.text


# --- Russian: usage lines in Russian words, each one accepted ---------------------------------


@pytest.mark.parametrize(
    "line",
    [
        "roll 2 трудность 5 нужно 1",
        "roll 2 против 2 трудность 3",
        "roll 2 тайно",
        "odds 4 трудность 5 нужно 2",
        "odds 2 против 3",
        "sneak 2 против 2",
        "pursue быстрота начальная против Рыцарь крови быстрота начальная могущество начальное",
        "tug start Трагандер 3 2 против 2 трудность 5",
        "grapple пул 3 сила 2 защита 2 Громила",
        "shoot Громила средняя метательное бег пул 2 защита 1",
        "attack пул 3 сила 2 защита 2 поглощение 1 Громила",
    ],
)
async def test_the_russian_words_of_the_usage_lines_are_read(nw: Chat, line: str) -> None:
    """Every option word a Russian usage line names is taken as typed."""
    await maxina_and_flavius(nw)
    await nw.one("st set Максина быстрота 1", as_="dm", st=True)
    await nw.one("st set Максина могущество 1", as_="dm", st=True)
    nw.dice.extend([6, 1, 5, 2, 4, 3] * 5)
    reply = await nw.one(line, as_="olga")
    assert reply.error is None, (line, reply.text)


@pytest.mark.parametrize(
    ("line", "words"),
    [
        ("roll", "[трудность 2-6] [нужно N] [против ПУЛ|против ИМЯ [АТРИБУТ]] [тайно]"),
        ("odds", "[трудность 2-6] [нужно N] [против ПУЛ|против ИМЯ [АТРИБУТ]]"),
        ("pursue", "pursue [быстрота начальная|продвинутая] против ДОБЫЧА"),
        ("tug start", "ПРОТИВНИК N ПУЛ против ПУЛ [трудность 2-6]"),
        ("sneak", "sneak [ПУЛ] против ИНСПЕКЦИЯ|ИМЯ"),
        ("grapple", "[пул N] [сила N] [защита N]"),
        ("roll 2 need 3", "напишите нужно 2"),
    ],
)
async def test_usage_lines_name_the_russian_words(nw: Chat, line: str, words: str) -> None:
    await maxina_and_flavius(nw)
    reply = await nw.one(line, as_="olga")
    assert reply.error is not None and words in reply.text, reply.text
    for english in ("diff", "need", " vs ", "secret", "celerity", "potence", "[pool", "[str"):
        assert english not in reply.text, (line, english, reply.text)


async def test_st_set_names_its_russian_fields(nw: Chat) -> None:
    """The English field names stay beside them in brackets, as alternatives."""
    await maxina_and_flavius(nw)
    reply = await nw.one("st set Максина", as_="dm", st=True)
    assert "максимум Здоровья (hpmax), кровь (blood), максимум крови (bloodmax)" in reply.text, reply.text


async def test_russian_help_and_texts_use_the_books_terms(nw: Chat) -> None:
    """The book says DM («за Флавиуса играет DM») and «уровень Здоровья», and «кубики» for dice."""
    from plugins.nightwanderers.helptexts import RU as HELP
    from plugins.nightwanderers.messages import RU

    texts = [*RU.values(), *(s for pair in HELP.values() for s in pair)]
    for text in texts:
        assert "Рассказчик" not in text, text
        assert " HP" not in text, text
        assert not re.search(r"\bкост", text, re.IGNORECASE), text
    turn = (await nw.one("help turn", as_="dm")).text
    assert "DM: проходит N ходов: умирающие теряют по уровню Здоровья за ход" in turn, turn


async def test_house_quotes_the_book_in_russian_and_quotes_a_wrong_value(nw: Chat) -> None:
    shown = (await nw.one("house", as_="dm")).text
    assert "«Боль»: «Потеряв Здоровье до Нормального уровня, персонаж … теряет один кубик" in shown, shown
    assert "the Normal level" not in shown and "the dice section" not in shown
    wrong = await nw.one("house set pain может", as_="dm", st=True)
    assert wrong.text == "pain принимает только вкл или выкл (on или off), а не «может».", wrong.text
    assert (await nw.one("house set pain выкл", as_="dm", st=True)).error is None


async def test_no_character_row_is_left_by_a_refusal(nw: Chat) -> None:
    """A refused ``init add`` or ``st set`` leaves no character and no initiative behind."""
    await maxina_and_flavius(nw)
    before = await count(nw, Character)
    await nw.one("init add Максина быстрота 3", as_="dm", st=True)
    await nw.one("st set Максина невооруженный 3 бой", as_="dm", st=True)
    assert await count(nw, Character) == before


# --- others of the same kind found on the way ----------------------------------------------------


@pytest.mark.parametrize(
    ("line", "said"),
    [
        ("wake 5", "Пишите wake без слов после команды: −1 BP, раз за ночь."),
        ("scene end банан", "Пишите scene end (или * * *) без слов после команды."),
        ("frenzy end сейчас", "Пишите frenzy, frenzy кровь"),
        ("boost end сейчас", "Пишите boost N"),
    ],
)
async def test_words_after_a_command_that_takes_none_are_refused(nw: Chat, line: str, said: str) -> None:
    """«Каждую ночь, просыпаясь, вампир теряет 1 BP»: ``wake 5`` is not five nights, and nothing is spent."""
    await maxina_and_flavius(nw)
    storyteller = line.startswith(("turn", "damage"))  # the Storyteller's commands
    reply = await (nw.one(line, as_="dm", st=True) if storyteller else nw.one(line, as_="olga"))
    assert reply.error is not None and reply.text.startswith(said), reply.text
    assert {p.name: p.current for p in await rows(nw, Pool) if p.character_id == 1}["blood"] == 10


async def test_blood_follows_the_kind(nw: Chat) -> None:
    """Blood is a vampire's (the book's humans hold blood only as victims): made human, Флавиус shows no
    Запас Крови and cannot spend it; a human made a vampire gets a pool."""
    await maxina_and_flavius(nw)
    await nw.one("st set Флавиус вид человек", as_="dm", st=True)
    human = (await nw.one("sheet Флавиус", as_="dm", st=True)).text
    assert human.startswith("Флавиус: человек, Гуманность 8.") and "Запас Крови" not in human, human
    assert (await nw.one("char new Смертный человек", as_="ivan")).error is None
    await nw.one("st set Смертный вид вампир", as_="dm", st=True)
    vampire = (await nw.one("sheet Смертный", as_="dm", st=True)).text
    assert "Запас Крови 10 из 10 BP (Жажды нет)." in vampire, vampire
    assert (await nw.one("wake", as_="ivan")).error is None


@pytest.mark.parametrize(
    ("line", "said"),
    [
        ("heal 0", "heal: параметр «BP» должен быть не меньше 1, а не 0."),
        ("heal много", "heal: параметр «BP» должен быть целым числом, а не «много»."),
        ("boost 21", "boost: параметр «на сколько» должен быть не больше 20, а не 21."),
        ("humanity buy 0", "humanity buy: параметр «пункты» должен быть не меньше 1, а не 0."),
        ("turn 21", "turn: параметр «ходы» должен быть не больше 20, а не 21."),
        ("turn 2 3", "turn: лишнее «3», столько эта команда не принимает."),
        ("sun прямой 0", "sun: параметр «ходы» должен быть не меньше 1, а не 0."),
        ("damage 0 Флавиус", "damage: параметр «уровни» должен быть не меньше 1, а не 0."),
    ],
)
async def test_a_count_out_of_its_declaration_is_refused_in_russian(nw: Chat, line: str, said: str) -> None:
    """The handlers read their counts typed (``params``): the router refuses a bad one in one line (with
    the usage after it), and nothing is spent."""
    await maxina_and_flavius(nw)
    storyteller = line.startswith(("turn", "damage"))  # the Storyteller's commands
    reply = await (nw.one(line, as_="dm", st=True) if storyteller else nw.one(line, as_="olga"))
    assert reply.error is not None and reply.text.startswith(said), reply.text
    assert {p.name: p.current for p in await rows(nw, Pool) if p.character_id == 1}["blood"] == 10
