"""A contest's ``odds`` carries its chart for Discord's and Matrix's picture in every rule system whose
web page draws no contest (Nightcap's roller does): who wins and, where a tie can stand, how often
nobody does, in the reader's language, the same numbers the result gives."""

from __future__ import annotations

import pytest

from gateway.rules.charts import chart_from_result
from tests.helpers.chat import playing
from tests.helpers.house_rules import house


@pytest.mark.parametrize(
    ("system", "line", "first", "second", "title"),
    [
        ("decanter", "odds 3 vs 3", "win", "lose", "Decanter odds"),
        ("dramatic", "odds 5 vs 4", "win", "lose", "Dramatic Systems odds"),
        ("pravidla", "odds 3 vs 2", None, None, "Šance v Pravidlech"),
        ("nightwanderers", "odds 4 vs 3", None, None, "Шансы «Ночных скитальцев»"),
    ],
)
async def test_a_contest_s_odds_carry_who_wins(
    vault_url: str, system: str, line: str, first: str | None, second: str | None, title: str
) -> None:
    async with playing(vault_url, system) as chat:
        reply = await chat.one(line)
    assert reply.error is None and reply.result is not None, reply.text
    chart = chart_from_result(reply.result)
    assert chart is not None and chart.title == title, chart
    (panel,) = chart.panels
    drawn = [bar.probability for bar in panel.bars[:2]]
    if first is not None and second is not None:
        assert drawn == [reply.result[first], reply.result[second]]
    else:
        assert drawn == reply.result["wins"]
        assert [bar.exact for bar in panel.bars[:2]] == reply.result["exact"]


async def test_a_standoff_shows_nobody_winning_in_czech(vault_url: str) -> None:
    async with playing(vault_url, "pravidla") as chat:
        await house(chat, "contest_ties standoff")
        reply = await chat.one("odds 2 vs 2")
    chart = chart_from_result(reply.result)
    assert chart is not None and reply.result is not None
    (panel,) = chart.panels
    assert panel.title == "Kdo vyhraje"
    assert [bar.label for bar in panel.bars] == [
        "Vyhraje první strana",
        "Vyhraje druhá strana",
        "Nevyhraje nikdo",
    ]
    assert panel.bars[2].exact == reply.result["exact_tie"]
    assert abs(sum(bar.probability for bar in panel.bars) - 1) < 1e-12
