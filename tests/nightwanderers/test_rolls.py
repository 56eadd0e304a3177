"""Night Wanderers rolls, quality and contests through the router (RULINGS, "Night Wanderers")."""

from __future__ import annotations

from gateway.testing import Chat
from gateway.vault.models import RollLog
from tests.helpers.chat import count, make_character, rows


async def test_maxina_persuades_flavius(nw: Chat) -> None:
    """The book's example: Maxina's Persuasion is 2, difficulty 4, Olga rolls 1 and 5: one success,
    "Я сделаю это" (done); Flavius grudgingly accepts the alibi."""
    await make_character(nw, "olga", "Максина", persuasion=2)
    nw.dice.extend([1, 5])
    reply = await nw.one("roll убеждение diff 4", as_="olga")
    result = reply.result
    assert (result["kind"], result["system"]) == ("roll", "nightwanderers")
    assert (result["pool"], result["dice"], result["successes"], result["degree"]) == (2, [1, 5], 1, "done")
    assert result["difficulty"] == 4 and result["trait"] == "persuasion"
    assert (
        reply.text == f"Максина: Убеждение 2, 2 кубика, трудность 4: 1 5 → 1 успех (Сделано). #{result['id']}"
    )
    await nw.one("lang en", as_="olga")
    nw.dice.extend([1, 5])
    english = await nw.one("roll persuasion", as_="olga")
    assert english.text == (
        f"Максина rolls Persuasion 2, 2 dice at difficulty 4: 1 5 → 1 success (Done). #{english.result['id']}"
    )


async def test_flavius_with_evidence_raises_difficulty_or_asks_two(nw: Chat) -> None:
    nw.dice.extend([1, 5, 1, 5, 1, 5])
    at5 = (await nw.one("roll 2 diff 5")).result
    at6 = (await nw.one("roll 2 diff 6")).result
    two = await nw.one("roll 2 need 2")
    assert (at5["successes"], at5["degree"]) == (1, "done")
    assert (at6["successes"], at6["degree"]) == (0, "failure")
    assert (two.result["successes"], two.result["degree"]) == (1, "failure")
    assert two.text.startswith("Alice: 2 кубика, трудность 4, нужно 2 успеха: 1 5 → 1 успех (Провал).")


async def test_quality_table(nw: Chat) -> None:
    cases = [
        ([1, 2, 3, 1], "failure", 0),
        ([4, 1, 1, 1], "done", 1),
        ([4, 5, 1, 1], "good", 2),
        ([4, 5, 6, 1], "excellent", 3),
        ([4, 5, 6, 6], "masterful", 4),
    ]
    for faces, degree, successes in cases:
        nw.dice.extend(faces)
        result = (await nw.one("roll 4")).result
        assert (result["successes"], result["degree"]) == (successes, degree)
    nw.dice.extend([6, 6, 6, 6, 6])
    assert (await nw.one("roll 5")).result["degree"] == "masterful"
    names = []
    for faces in ([1], [6]):
        nw.dice.extend(faces)
        names.append((await nw.one("roll 1")).text)
    assert "(Провал)" in names[0] and "(Сделано)" in names[1]


async def test_difficulty_above_six_is_lowered_to_six(nw: Chat) -> None:
    nw.dice.extend([5, 6])
    reply = await nw.one("roll 2 diff 8")
    assert reply.result["difficulty"] == 6 and reply.result["successes"] == 1
    assert "Трудность 8 заменена на 6" in reply.text
    nw.dice.extend([1, 2])
    assert (await nw.one("roll 2 diff 1")).result["difficulty"] == 2


async def test_dhavilland_contests(nw: Chat) -> None:
    """Example 1: d'Havilland (Seduction 4) 1 3 4 6 = 2 against Ravenwood (4) 2 5 6 6 = 3.
    Example 2: d'Havilland (Persuasion 4) 1 3 5 5 = 2 against the mortal (ПА 2) 3 6 = 1."""
    await make_character(nw, "eva", "Д'Хавиланд", seduction=4, persuasion=4)
    await make_character(nw, "ivy", "Равенвуд", seduction=4)
    await nw.one("char use Д'Хавиланд", as_="eva")
    nw.dice.extend([1, 3, 4, 6, 2, 5, 6, 6])
    first = await nw.one("roll соблазн vs Равенвуд соблазн", as_="eva")
    assert first.result["winner"] == 1
    assert [s["successes"] for s in first.result["sides"]] == [2, 3]
    assert first.text.endswith(f"Побеждает Равенвуд. #{first.result['id']}")
    nw.dice.extend([1, 3, 5, 5, 3, 6])
    second = await nw.one("roll persuasion vs 2", as_="eva")
    assert second.result["winner"] == 0 and [s["successes"] for s in second.result["sides"]] == [2, 1]


async def test_contest_ties_roll_again(nw: Chat) -> None:
    nw.dice.extend([4, 4, 1, 6])
    result = (await nw.one("roll 1 vs 1")).result
    assert result["rerolls"] == 1 and result["winner"] == 1
    assert result["sides"][0]["dice"] == [4, 1] and result["sides"][1]["dice"] == [4, 6]


async def test_rolls_are_logged(nw: Chat) -> None:
    nw.dice.extend([6, 6])
    reply = await nw.one("roll 2")
    logged = await rows(nw, RollLog)
    assert logged[-1].public_id == reply.result["id"] and logged[-1].degree == "good"
    assert (await nw.stlog())[-1].text == reply.text


async def test_bad_input(nw: Chat) -> None:
    before = await count(nw, RollLog)
    for line, needle in [
        ("roll 4 diff", "не указан параметр «трудность»"),
        ("roll сила", "активного персонажа"),
        ("roll магия", "Неизвестный атрибут"),
        ("roll 0", "хотя бы один кубик"),
        ("roll 99", "максимума"),
        ("roll 2 need 3", "нужно"),
        ("roll", "Пишите roll"),
    ]:
        reply = await nw.one(line)
        assert reply.error is not None and needle in reply.text, (line, reply.text)
    assert await count(nw, RollLog) == before


async def test_odds(nw: Chat) -> None:
    reply = await nw.one("odds 4 diff 5")
    assert reply.result["exact"] == "65/81"
    assert reply.text == (
        "Шансы для 4 кубиков, трудность 5, нужно 1: успех 80,2\u00a0%; Сделано 39,5\u00a0%,"
        " Хорошо 29,6\u00a0%, Прекрасно 9,9\u00a0%, Мастерски 1,2\u00a0%."
    )
    contest = await nw.one("odds 4 vs 4")
    assert contest.result["exact"] == ["1/2", "1/2"]


async def test_odds_carry_the_web_pages_chart_in_russian(nw: Chat) -> None:
    """Issue 17: the picture Discord and Matrix show is the web page's chart, from the odds the
    command worked out (``web_tools.odds_charts``), in the reader's language."""
    from gateway.rules.charts import chart_from_result
    from plugins.nightwanderers.web_tools import tool_odds

    reply = await nw.one("odds 4 diff 5")
    chart = chart_from_result(reply.result)
    assert chart is not None and chart.title == "Шансы «Ночных скитальцев»"
    page = tool_odds({"pool": 4, "difficulty": 5, "need": 1}, "ru", {})
    assert [p.title for p in chart.panels] == [c.title for c in page]
    assert [[(b.label, b.exact) for b in p.bars] for p in chart.panels] == [
        [(label, f"{v.numerator}/{v.denominator}") for label, v in c.rows] for c in page
    ]
