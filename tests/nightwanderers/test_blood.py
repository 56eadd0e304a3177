"""Health bands and pain, the blood pool, frenzy and torpor for Night Wanderers."""

from __future__ import annotations

from gateway.testing import Chat
from gateway.vault.models import Audit, Pool
from tests.helpers.chat import rows


async def pools(chat: Chat) -> dict[str, tuple[int, int]]:
    return {p.name: (p.current, p.maximum) for p in await rows_of_pool(chat)}


async def rows_of_pool(chat: Chat) -> list[Pool]:
    from sqlmodel import select

    async with chat.services.vault.transaction() as session:
        return list((await session.exec(select(Pool))).all())


async def maxina(nw: Chat, **traits: int) -> None:
    """Maxina of the Dragazhar (char new NAME CLAN), with traits set by the Storyteller."""
    assert (await nw.one("char new Maxina dragazhar", as_="olga")).error is None
    for field, value in traits.items():
        assert (await nw.one(f"st set Maxina {field} {value}", as_="st", st=True)).error is None


async def test_new_vampire_has_25_hp_and_a_blood_pool_human_10(nw: Chat) -> None:
    await maxina(nw)
    human = await nw.one("char new Ivan человек", as_="ivan")
    assert human.error is None, human.text
    sheet = await nw.one("sheet", as_="olga")
    assert sheet.result["hp"] == 25 and sheet.result["blood"] == 10 and sheet.result["band"] == "optimal"
    assert sheet.result["sheet"]["clan"] == "dragazhar" and sheet.result["sheet"]["humanity"] == 5
    ivan = await nw.one("sheet", as_="ivan")
    assert (
        ivan.result["hp"] == 10 and ivan.result["blood"] is None and ivan.result["sheet"]["kind"] == "human"
    )


async def test_pain_normal_band_one_die_medium_two_at_least_one(nw: Chat) -> None:
    await maxina(nw, persuasion=3, strength=1)
    await nw.one("damage 5 Maxina", as_="st", st=True)  # 20 of 25: Normal
    nw.dice.extend([6, 6])
    normal = await nw.one("roll persuasion", as_="olga")
    assert (normal.result["pool"], normal.result["pain"], normal.result["pool_before_pain"]) == (2, 1, 3)
    assert "Боль отнимает 1 кубик." in normal.text
    await nw.one("damage 5 Maxina", as_="st", st=True)  # 15: Medium
    nw.dice.extend([6])
    assert (await nw.one("roll persuasion", as_="olga")).result["pain"] == 2
    nw.dice.extend([6])
    weak = (await nw.one("roll сила", as_="olga")).result  # Strength 1: still one die
    assert (weak["pool"], weak["pain"]) == (1, 0)
    nw.dice.extend([6, 6, 6])
    assert (await nw.one("roll 3", as_="olga")).result["pain"] == 0  # a bare number is rolled as written


async def test_frenzy_ignores_pain(nw: Chat) -> None:
    await maxina(nw, persuasion=3)
    await nw.one("damage 12 Maxina", as_="st", st=True)
    await nw.one("st set Maxina frenzy yes", as_="st", st=True)
    nw.dice.extend([1, 1, 1])
    assert (await nw.one("roll persuasion", as_="olga")).result["pain"] == 0


async def test_wake_costs_one_bp_once_a_night(nw: Chat) -> None:
    await maxina(nw)
    woke = await nw.one("wake", as_="olga")
    assert woke.text == "Maxina просыпается и теряет 1 BP: осталось 9 из 10."
    twice = await nw.one("wake", as_="olga")
    assert twice.error is not None and "пробуждение этой ночью уже было" in twice.text
    nw.clock.advance(hours=8)  # 04:00 next morning, Pacific: still the same night
    assert (await nw.one("wake", as_="olga")).error is not None
    nw.clock.advance(hours=16)
    assert (await nw.one("wake", as_="olga")).result["blood"] == 8


async def test_heal_one_bp_one_hp(nw: Chat) -> None:
    await maxina(nw)
    assert "нет ран" in (await nw.one("heal", as_="olga")).text
    await nw.one("damage 4 Maxina", as_="st", st=True)
    healed = await nw.one("heal 3", as_="olga")
    assert (healed.result["hp"], healed.result["blood"]) == (24, 7)
    assert (await nw.one("heal 2", as_="olga")).error is not None  # only 1 damage left
    assert await pools(nw) == {"hp": (24, 25), "blood": (7, 10)}


async def test_discipline_costs_basic_one_advanced_two(nw: Chat) -> None:
    await maxina(nw)
    assert (await nw.one("discipline basic", as_="olga")).result["blood"] == 9
    advanced = await nw.one("discipline advanced Быстрота", as_="olga")
    assert advanced.result["blood"] == 7 and advanced.result["spent"] == 2
    assert (
        advanced.text
        == "Maxina использует продвинутый уровень Дисциплины (Быстрота) за 2 BP: осталось 7 из 10."
    )


async def test_boost_by_three_costs_six(nw: Chat) -> None:
    """The book: raising a physical attribute by 3 costs 6 BP (1+2+3)."""
    await maxina(nw, strength=2)
    boost = await nw.one("boost 3", as_="olga")
    assert (boost.result["spent"], boost.result["blood"], boost.result["boost"]) == (6, 4, 3)
    nw.dice.extend([1] * 5)
    assert (await nw.one("roll сила", as_="olga")).result["pool"] == 5
    await nw.one("boost end", as_="olga")
    nw.dice.extend([1, 1])
    assert (await nw.one("roll сила", as_="olga")).result["pool"] == 2


async def test_boost_in_steps_costs_the_same(nw: Chat) -> None:
    await maxina(nw)
    assert (await nw.one("boost 1", as_="olga")).result["spent"] == 1
    assert (await nw.one("boost 2", as_="olga")).result["spent"] == 5  # points 2 and 3
    assert (await nw.one("sheet", as_="olga")).result["blood"] == 4


async def test_not_enough_blood_is_refused_and_nothing_spent(nw: Chat) -> None:
    await maxina(nw)
    refused = await nw.one("boost 4", as_="olga")  # 10 BP for 1+2+3+4 = 10 is fine ...
    assert refused.error is None and refused.result["blood"] == 0
    await nw.one("st set Maxina blood 5", as_="st", st=True)
    again = await nw.one("boost 3", as_="olga")  # +5, +6, +7 on top of 4 = 18 BP
    assert again.error is not None and "нужно 18" in again.text
    assert (await nw.one("sheet", as_="olga")).result["blood"] == 5


async def test_hunger_and_ravenous_prompt_frenzy_checks_and_torpor_at_zero(nw: Chat) -> None:
    await maxina(nw, psyche=3, persuasion=2)
    await nw.one("st set Maxina blood 7", as_="st", st=True)
    await nw.one("lang en", as_="olga")
    hungry = await nw.one("discipline advanced", as_="olga")
    assert "Maxina is hungry (5 BP): the sight or smell of blood calls for a frenzy check" in hungry.text
    ravenous = await nw.one("discipline advanced", as_="olga")
    assert "Maxina is ravenous (3 BP)" not in ravenous.text and "hungry (3 BP)" in ravenous.text
    ravenous = await nw.one("discipline basic", as_="olga")
    assert "Maxina is ravenous (2 BP)" in ravenous.text
    nw.dice.extend([4, 4, 4])
    check = await nw.one("frenzy blood", as_="olga")
    assert check.result["difficulty"] == 5 and check.result["frenzy"] is True  # ravenous + blood: 4 + 1
    assert "falls into frenzy" in check.text
    await nw.one("frenzy end", as_="olga")
    nw.dice.extend([4, 1, 1])
    calm = await nw.one("frenzy", as_="olga")
    assert calm.result["difficulty"] == 4 and calm.result["frenzy"] is False
    empty = await nw.one("discipline advanced", as_="olga")
    assert empty.result["blood"] == 0 and "falls into torpor" in empty.text
    refused = await nw.one("roll persuasion", as_="olga")
    assert refused.error is not None and "torpor" in refused.text
    fed = await nw.one("st set Maxina blood 1", as_="st", st=True)
    assert fed.error is None
    nw.dice.extend([1, 1])
    assert (await nw.one("roll persuasion", as_="olga")).error is None


async def test_frenzy_check_at_four_when_only_hungry(nw: Chat) -> None:
    await maxina(nw, psyche=2)
    await nw.one("st set Maxina blood 4", as_="st", st=True)
    nw.dice.extend([4, 1])
    assert (await nw.one("frenzy blood", as_="olga")).result["difficulty"] == 4


async def test_feeding(nw: Chat) -> None:
    await maxina(nw)
    await nw.one("st set Maxina blood 2", as_="st", st=True)
    fed = await nw.one("feed 5", as_="olga")
    assert fed.result["blood"] == 7 and "нуждается в госпитализации" in fed.text
    cat = await nw.one("feed cat", as_="olga")
    assert cat.result["gained"] == 1 and cat.result["blood"] == 8
    full = await nw.one("feed cow", as_="olga")
    assert full.result["gained"] == 2 and full.result["blood"] == 10  # capped at the maximum
    assert (await nw.one("feed 3 cat", as_="olga")).error is not None  # a cat holds 1 BP


async def test_storyteller_edits_are_audited(nw: Chat) -> None:
    await maxina(nw)
    assert (await nw.one("st set Maxina hp 12", as_="olga")).error == "forbidden"
    edit = await nw.one("st set Maxina hp 12", as_="st", st=True)
    assert edit.text == "Maxina: Здоровье: 25 → 12." and edit.result["band"] == "medium"
    await nw.one("st set Maxina fortitude да", as_="st", st=True)
    await nw.one("st set Maxina celerity 2", as_="st", st=True)
    await nw.one("st set Maxina clan tragander", as_="st", st=True)
    audits = [
        (a.field_name, a.old_value, a.new_value) for a in await rows(nw, Audit) if a.action == "sheet.set"
    ]
    assert audits == [
        ("hp", "25", "12"),
        ("fortitude", "false", "true"),
        ("celerity", "0", "2"),
        ("clan", "dragazhar", "tragander"),
    ]
