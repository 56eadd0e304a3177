"""Issue 19, Night Wanderers mechanics (second pass): each test quotes the book's passage it follows
and scripts the dice. Every one of them failed before the change."""

from __future__ import annotations

from gateway.testing import Chat


async def cast(nw: Chat) -> None:
    """Maxina (vampire, Dragazhar), Tragander (vampire, Tom's) and Ivan (human)."""
    for line, who in (("char new Maxina dragazhar", "olga"), ("char new Tragander tragander", "tom")):
        assert (await nw.one(line, as_=who)).error is None
    assert (await nw.one("char new Ivan human", as_="ivan")).error is None
    for name, traits in {
        "Maxina": {"brawl": 3, "strength": 2, "defence": 2, "dodge": 1, "psyche": 1},
        "Tragander": {"strength": 4},
        "Ivan": {"defence": 1, "brawl": 2, "strength": 3},
    }.items():
        for field, value in traits.items():
            assert (await nw.one(f"st set {name} {field} {value}", as_="st", st=True)).error is None


async def test_a_successful_dodge_gives_minus_one_on_the_next_initiative_roll_once(nw: Chat) -> None:
    """ "Если увертывающийся набирает больше Успехов, чем атакующий, он получает более высокую
    инициативу в следующем ходу (-1)"; "Бросаются 2d6 и вычисляется, у кого меньшее значение – тот
    ходит первым. В случае ничьи каждый бросает 1d6 - выкинувший наименьшее число ходит первым.\""""
    await cast(nw)
    nw.dice.extend([4, 1, 5, 5, 1])  # Ivan 1 success; Maxina dodges with 1 + 2 dice: 2 successes
    dodged = await nw.one("attack Maxina dodge", as_="ivan")
    assert dodged.result["dodge_initiative"] is True
    for line in ("init add Maxina", "init add Ivan"):
        assert (await nw.one(line, as_="st", st=True)).error is None
    # Maxina 3+4 = 7, -1 = 6; Ivan 3+3 = 6: a tie, 1d6 each: 2 against 5, Maxina first.
    nw.dice.extend([3, 4, 3, 3, 2, 5])
    first = await nw.one("init roll", as_="st", st=True)
    assert first.result["order"] == ["Maxina", "Ivan"] and first.result["bonuses"] == {"Maxina": -1}
    assert first.text.startswith("Maxina: -1 к броску 2d6 на инициативу за удачную увертку в прошлом ходу.")
    # The same dice again: the bonus is spent, 7 against 6 puts Ivan first.
    nw.dice.extend([3, 4, 3, 3])
    second = await nw.one("init roll", as_="st", st=True)
    assert second.result["order"] == ["Ivan", "Maxina"] and second.result["bonuses"] == {}


async def test_a_dodge_on_the_run_has_no_bonus(nw: Chat) -> None:
    """ "Защищающийся может также уклонятся на бегу, но в этом случае он не получает бонусов к его
    способности Уворачиваться."
    """
    await cast(nw)
    await nw.one("st set Ivan shooting 1", as_="st", st=True)
    # Ivan's shot: 1 success; Maxina's Dodge 1, no +2: one die, 5: 1 -- a hit; her soak 1 1.
    nw.dice.extend([4, 5, 1, 1])
    ran = await nw.one("shoot Maxina medium thrown run", as_="ivan")
    assert ran.error is None, ran.text
    assert ran.result["sides"][1]["pool"] == 1 and ran.result["run"] is True
    assert "Увертка на бегу: без бонуса к Уворачиванию." in ran.text


async def test_ranged_dodge_gives_no_initiative(nw: Chat) -> None:
    """Ranged: "Защищающийся увертывается так же, как описано выше, но не имеет большей инициативе в
    следующем ходе.\""""
    await cast(nw)
    await nw.one("st set Maxina shooting 1", as_="st", st=True)
    nw.dice.extend([4, 5, 5, 1])
    assert (await nw.one("shoot Maxina medium thrown dodge", as_="ivan")).result["hit"] is False
    await nw.one("init add Maxina", as_="st", st=True)
    await nw.one("init add Ivan", as_="st", st=True)
    nw.dice.extend([3, 4, 3, 3])
    assert (await nw.one("init roll", as_="st", st=True)).result["order"] == ["Ivan", "Maxina"]


async def test_in_torpor_a_vampire_cannot_heal_or_feed_and_blood_given_brings_it_out(nw: Chat) -> None:
    """ "Он еще “жив”, но парализован и не может двигаться или что-либо делать. Чтобы выйти из
    Оцепенения он должен восстановить хотя бы один пункт Запаса Крови.\""""
    await cast(nw)
    await nw.one("damage 25 Maxina", as_="st", st=True)
    healed = await nw.one("heal", as_="olga")
    assert healed.error is not None and "в Оцепенении" in healed.text and "лечиться" in healed.text
    assert (await nw.one("feed 2", as_="olga")).error is not None
    assert (await nw.one("sheet", as_="olga")).result["hp"] == 0
    await nw.one("st set Maxina blood 8", as_="st", st=True)
    full = await nw.one("give 4 Maxina", as_="tom")  # 1 for health, 2 for the pool: room for 3
    assert (
        full.error is not None
        and full.text == "Maxina: Запас Крови почти полон, можно принять не больше 3 BP."
    )
    given = await nw.one("give 2 Maxina", as_="tom")
    assert given.error is None, given.text
    assert given.result["hp"] == 1 and given.result["blood"] == 9 and given.result["status"] == "active"
    assert "Maxina: первый BP сразу восстанавливает 1 уровень Здоровья." in given.text
    assert "Maxina выходит из Оцепенения." in given.text
    # At 0 BP too: she cannot feed herself; one BP given wakes her.
    await nw.one("st set Maxina blood 0", as_="st", st=True)
    assert (await nw.one("feed 1", as_="olga")).error is not None
    woke = await nw.one("give 1 Maxina", as_="tom")
    assert woke.result["blood"] == 1 and woke.result["status"] == "active"
    assert (await nw.one("sheet", as_="tom")).result["blood"] == 7  # Tragander gave 3 of his 10


async def test_indirect_sun_takes_one_level_every_two_turns_across_commands(nw: Chat) -> None:
    """ "Непрямой солнечный свет (вампир чем-то закутан или прикрыт) снимает один уровень Здоровья каждые
    два хода." A small fire burns "как непрямой солнечный свет".\""""
    await cast(nw)
    once = await nw.one("sun indirect 1", as_="olga")
    assert once.result["damage"] == 0 and once.result["carried"] == 1
    assert "Один ход без повреждений засчитан" in once.text
    twice = await nw.one("sun indirect 1", as_="olga")
    assert twice.result["damage"] == 1 and twice.result["carried"] == 0 and twice.result["target"]["hp"] == 24
    assert (await nw.one("sun indirect 3", as_="olga")).result["damage"] == 1  # one turn carried again
    assert (await nw.one("sun indirect 1", as_="olga")).result["damage"] == 1
    assert (await nw.one("fire small 1", as_="olga")).result["damage"] == 0  # its own count
    assert (await nw.one("fire small 1", as_="olga")).result["damage"] == 1
    await nw.one("sun indirect 1", as_="olga")
    await nw.one("scene end", as_="st", st=True)  # the episode ends: the odd turn is forgotten
    assert (await nw.one("sun indirect 1", as_="olga")).result["damage"] == 0


async def test_a_bite_takes_one_health_level(nw: Chat) -> None:
    """ "Укус снимает только один уровень Здоровья\""""
    await cast(nw)
    nw.dice.extend([4, 4, 4, 1])  # Maxina 3 successes against Ivan's none
    bite = await nw.one("attack Ivan fangs", as_="olga")
    assert bite.result["hit"] is True and bite.result["damage"] == 1 and bite.result["target"]["hp"] == 9
    assert "Укус снимает 1 уровень Здоровья (глубокие повреждения)." in bite.text


async def test_grapple_damage_each_turn_bite_drink_and_a_blow_breaks_free(nw: Chat) -> None:
    """ "Захват: Атакующий делает бросок на Атрибут Силы (Трудность 4). Атакованный автоматически
    защищается (бросок Трюка «Физ. Защита» с Трудностью 4) ... После этого атакующий каждый ход наносит
    повреждения схваченному, до тех пор, пока защищающийся не нанесет по нему удачный удар. Кроме того,
    если атакующий является вампиром, он может ... укусить его. Укус снимает только один уровень
    Здоровья, но после него вампир может начать сосать кровь из жертвы." And "Потеряв 5 и больше BP,
    смертный нуждается в госпитализации.\""""
    await cast(nw)
    await nw.one("st set Maxina blood 4", as_="st", st=True)
    assert (await nw.one("drink", as_="olga")).error is not None  # no hold yet
    nw.dice.extend([4, 1, 1])  # Strength 2: 1 success; Ivan's Defence 1: none
    held = await nw.one("grapple Ivan", as_="olga")
    assert held.result["held"] is True and held.result["sides"][0]["trait"] == "strength"
    assert "Захват удался: Maxina держит цель (Ivan)" in held.text
    hurt = await nw.one("grapple damage", as_="olga")
    assert hurt.result["damage"] == 2 and hurt.result["target"]["hp"] == 8
    assert (await nw.one("drink", as_="olga")).error is not None  # no bite yet
    bite = await nw.one("bite", as_="olga")
    assert bite.result["damage"] == 1 and bite.result["target"]["hp"] == 7
    drink = await nw.one("drink 3", as_="olga")
    assert drink.result["blood"] == 7 and drink.result["drained"] == 3
    assert "Maxina пьёт кровь 3 хода, жертва — Ivan: +3 BP, теперь 7 BP." in drink.text
    more = await nw.one("drink 2", as_="olga")
    assert more.result["drained"] == 5 and "нуждается в госпитализации" in more.text
    # Ivan (7 of 10: Normal, pain -1: one die) strikes back: 4 against 1 1; Maxina soaks 1 1.
    nw.dice.extend([4, 1, 1, 1, 1])
    blow = await nw.one("attack Maxina", as_="ivan")
    assert blow.result["hit"] is True and blow.result["broke_free"] is True
    assert "Ivan наносит удачный удар и вырывается из захвата." in blow.text
    assert (await nw.one("grapple damage", as_="olga")).error is not None
    # Caught again, the blood he lost this episode still counts: 5 more and he is drained.
    nw.dice.extend([4, 1, 1])
    assert (await nw.one("grapple Ivan", as_="olga")).result["held"] is True
    await nw.one("bite", as_="olga")
    drained = await nw.one("drink 6", as_="olga")  # only 5 BP are left in him: 5 turns
    assert drained.result["turns"] == 5 and drained.result["drained"] == 10
    assert "Из жертвы выпита вся кровь: она умирает." in drained.text
    assert (await nw.one("sheet", as_="ivan")).result["status"] == "dead"


async def test_pursuit_by_celerity_then_potence_then_2d6_lower_wins(nw: Chat) -> None:
    """ "Успех погони рассчитывается также, как и Инициатива ... Продвинутая Быстрота (активная),
    Начальная Быстрота (активная), Продвинутое Могущество, Начальное Могущество. Бросаются 2d6 ...
    Пример: ... У нее есть начальное Могущество, так же как и у Рыцаря крови ... у Максины выпало 3, а у
    Рыцаря крови 4. Максина ловит преследуемого.\""""
    await cast(nw)
    await nw.one("st set Maxina celerity 1", as_="st", st=True)
    assert (await nw.one("st set Maxina potence 1", as_="st", st=True)).error is None
    nw.dice.extend([1, 2, 2, 2])
    caught = await nw.one("pursue celerity basic vs Рыцарь celerity basic potence basic", as_="olga")
    assert caught.result["caught"] is True and caught.result["decided_by"] == "dice"
    assert caught.result["rolls"] == {"Maxina": [1, 2], "Рыцарь": [2, 2]}
    assert "Maxina настигает добычу: Рыцарь." in caught.text
    by_power = await nw.one("pursue celerity basic vs Рыцарь potence advanced", as_="olga")
    assert by_power.result["caught"] is True and by_power.result["decided_by"] == "celerity.1"
    away = await nw.one("pursue vs Рыцарь celerity basic", as_="olga")
    assert away.result["caught"] is False and "Рыцарь уходит" in away.text
    # Her Могущество is on the sheet: it beats a quarry without it, no dice.
    assert (await nw.one("pursue vs Рыцарь", as_="olga")).result["decided_by"] == "potence.1"
    assert (await nw.one("pursue celerity advanced vs Рыцарь", as_="olga")).error is not None


async def test_tug_of_war_the_books_arm_wrestling(nw: Chat) -> None:
    """Example 3: "DM решает, что выиграет вампир, первым набравший 3 Успеха. В Ходе 1 Максина выкидывает
    2 Успеха, ее противник 1 ... В Ходе 2 Tragander выкидывает 2 Успеха, Максина не одного. Успехи
    Tragander не только “отменяют” Успехи Максины в предыдущем ходе но и, складываясь с уже имеющимся у
    него Успехом, обеспечивают ему победу в этом ходу".\""""
    await cast(nw)
    await nw.one("st set Maxina strength 4", as_="st", st=True)
    started = await nw.one("tug start Tragander 3 strength vs strength", as_="olga")
    assert started.error is None, started.text
    assert started.result["tug"]["pools"] == [4, 4] and started.result["tug"]["goal"] == 3
    nw.dice.extend([4, 5, 1, 1, 4, 1, 1, 1])
    one = await nw.one("tug roll", as_="olga")
    assert one.result["balance"] == 1 and "Maxina впереди: перевес 1 из 3." in one.text
    nw.dice.extend([1, 1, 1, 1, 5, 5, 1, 1])
    two = await nw.one("tug roll", as_="olga")
    assert two.result["balance"] == -1 and "Tragander впереди" in two.text
    nw.dice.extend([1, 1, 1, 1, 6, 6, 1, 1])
    three = await nw.one("tug roll", as_="olga")
    assert three.result["winner"] == 1 and "Побеждает Tragander: перевес в 3 успеха." in three.text
    assert (await nw.one("tug", as_="olga")).result["tug"] is None


async def test_the_end_of_an_episode_ends_frenzy_and_the_blood_boost(nw: Chat) -> None:
    """ "Безумие кончается с концом эпизода"; the scene marker is `* * *`."""
    await cast(nw)
    nw.dice.extend([1])
    assert (await nw.one("frenzy", as_="olga")).result["frenzy"] is True
    assert (await nw.one("boost 1", as_="olga")).error is None
    ended = await nw.one("* * *", as_="st", st=True)
    assert ended.result["ended"] == ["Maxina"]
    assert ended.text == "Эпизод окончен. Безумие, усиление кровью и прочие эффекты эпизода прошли: Maxina."
    sheet = (await nw.one("sheet", as_="olga")).result["sheet"]
    assert sheet["frenzy"] is False and sheet["boost"] == 0
    assert (await nw.one("scene end", as_="olga")).text == "Эпизод окончен."


async def test_feeding_that_sates_ends_a_frenzy(nw: Chat) -> None:
    """ "Безумие кончается ... пока ее источник не буде уничтожен (вампир насытится ...)\""""
    await cast(nw)
    await nw.one("st set Maxina blood 3", as_="st", st=True)
    await nw.one("st set Maxina frenzy yes", as_="st", st=True)
    fed = await nw.one("feed 4", as_="olga")
    assert "Maxina насыщается, и Безумие проходит." in fed.text
    assert (await nw.one("sheet", as_="olga")).result["sheet"]["frenzy"] is False


async def test_a_dying_human_loses_one_hp_a_turn(nw: Chat) -> None:
    """ "оборотень и человек падают без сознания и каждый ход теряют по единице здоровья, если оно
    опустится до – 10 наступает Окончательная Смерть.\""""
    await cast(nw)
    await nw.one("damage 10 Ivan", as_="st", st=True)
    turn = await nw.one("turn", as_="st", st=True)
    assert turn.result["dying"][0]["hp"] == -1
    assert turn.text.startswith("Проходит 1 ход. Ivan теряет 1 уровень Здоровья.")
    assert (await nw.one("turn 2", as_="st", st=True)).result["dying"][0]["hp"] == -3
    dead = await nw.one("turn 7", as_="st", st=True)
    assert dead.result["dying"][0]["status"] == "dead" and "Окончательная Смерть" in dead.text
    assert (await nw.one("turn", as_="st", st=True)).result["dying"] == []
    assert (await nw.one("turn", as_="olga")).error == "forbidden"


async def test_turn_rolls_the_initiative_again(nw: Chat) -> None:
    await cast(nw)
    await nw.one("init add Maxina", as_="st", st=True)
    await nw.one("init add Ivan", as_="st", st=True)
    nw.dice.extend([1, 1, 6, 6])
    replies = await nw.say("turn", as_="st", st=True)
    assert len(replies) == 2 and replies[1].result["order"] == ["Maxina", "Ivan"]


async def test_dismemberment_takes_five_turns_and_is_final_death(nw: Chat) -> None:
    """ "Вампир может также получить Окончательную Смерть, если будет расчленен ... На расчленение
    требуется 5 ходов.\""""
    await cast(nw)
    refused = await nw.one("dismember Maxina", as_="tom")
    assert refused.error is not None and "сопротивляться" in refused.text
    await nw.one("damage 25 Maxina", as_="st", st=True)
    three = await nw.one("dismember Maxina 3", as_="tom")
    assert three.result["turns"] == 3 and three.result["dead"] is False
    assert three.text.startswith("Maxina: расчленение, 3 хода из 5.")
    done = await nw.one("dismember Maxina 2", as_="tom")
    assert done.result["dead"] is True and "Maxina: Окончательная Смерть." in done.text
    assert (await nw.one("sheet", as_="olga")).result["status"] == "dead"


async def test_humanity_costs_ten_experience_a_point(nw: Chat) -> None:
    """ "Стоимость 1 пункта Гуманности равна 10 очкам опыта." (Драгазар: 5, "Из возможных 10".)"""
    await cast(nw)
    assert (await nw.one("st set Maxina xp 25", as_="st", st=True)).error is None
    bought = await nw.one("humanity buy 2", as_="olga")
    assert (bought.result["humanity"], bought.result["xp"], bought.result["spent"]) == (7, 5, 20)
    assert bought.text == ("Maxina: +2 Гуманности за 20 очков опыта; Гуманность теперь 7, опыта осталось 5.")
    poor = await nw.one("humanity buy", as_="olga")
    assert poor.error is not None and poor.text == "Maxina: 5 очков опыта, а нужно 10."
    await nw.one("st set Maxina xp 100", as_="st", st=True)
    assert (await nw.one("humanity buy 4", as_="olga")).error is not None  # 7 + 4 > 10


async def test_new_commands_have_russian_help_and_names(nw: Chat) -> None:
    # `help grapple` is the topic (its commands with their summaries); one command shows its usage.
    topic = (await nw.one("help grapple", as_="olga")).text
    assert "захват: Сила (Трудность 4)" in topic
    help_text = (await nw.one("help grapple damage", as_="olga")).text
    assert "ход захвата" in help_text and "или захват ход" in help_text, help_text
    await cast(nw)
    nw.dice.extend([4, 1, 1])  # an NPC in Russian option words: пул 2 сила 3 against Ivan's Defence 1
    npc = await nw.one("захват пул 2 сила 3 Ivan", as_="st", st=True)
    assert npc.result["held"] is True, npc.text
    hurt = await nw.one("захват ход Ivan", as_="st", st=True)  # the Storyteller names the one held
    assert hurt.result["damage"] == 3 and hurt.result["target"]["hp"] == 7
    assert (await nw.one("ход", as_="st", st=True)).result["kind"] == "turn"
    assert (await nw.one("конец эпизода", as_="st", st=True)).result["kind"] == "scene_end"


async def test_drinking_a_vampire_dry_is_diablerie(nw: Chat) -> None:
    """ "Вампиры могут пить кровь других вампиров и даже полностью опустошать их. Это называется
    Диаблери"
    """
    await cast(nw)
    await nw.one("st set Maxina strength 4", as_="st", st=True)
    await nw.one("st set Maxina blood 2", as_="st", st=True)
    await nw.one("st set Tragander blood 2", as_="st", st=True)
    await nw.one("st set Tragander defence 1", as_="st", st=True)
    nw.dice.extend([4, 1, 1, 1, 1])
    assert (await nw.one("grapple Tragander", as_="olga")).result["held"] is True
    await nw.one("bite", as_="olga")
    dry = await nw.one("drink 2", as_="olga")
    assert dry.result["blood"] == 4 and "Tragander: выпита вся кровь вампира. Это Диаблери." in dry.text
    assert (await nw.one("sheet", as_="tom")).result["status"] == "torpor"
    assert (await nw.one("drink", as_="olga")).error is not None  # nothing left
