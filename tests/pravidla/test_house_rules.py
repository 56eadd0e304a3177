"""Pravidla's house rules (the default target number and the successes a roll needs): rolls, odds
and the tug of war through the router, and seeded rolls at each against the exact odds."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest

from gateway.core.dice import SeededDice
from gateway.rules import binomial
from gateway.testing import Chat, start_chat
from plugins.pravidla import mechanics as m
from tests.helpers.chi_square import binned_chi_square, chi_square_bound
from tests.helpers.house_rules import house


@pytest.mark.parametrize(("target", "need"), [(5, 1), (6, 1), (4, 2)])
def test_seeded_rolls_follow_the_exact_odds(target: int, need: int) -> None:
    rolls, pool = 20_000, 6
    dice = SeededDice(300 + target * 10 + need)
    observed = Counter(m.roll(pool, dice, target, need).successes for _ in range(rolls))
    expected = dict(enumerate(binomial.distribution(pool, target, sides=m.SIDES)))
    stat, df = binned_chi_square(observed, expected, rolls)
    assert df >= 2 and stat < chi_square_bound(df), (stat, df)
    assert binomial.at_least(pool, target, need, sides=m.SIDES) == sum(
        (p for k, p in expected.items() if k >= need), Fraction(0)
    )


async def test_default_target_and_need(pr: Chat) -> None:
    await house(pr, "default_target 5", "default_need 2", st="st")
    pr.dice.extend([4, 5, 6])
    assert (await pr.one("lang en", as_="klara")).error is None
    reply = await pr.one("roll 3", as_="klara")
    assert reply.error is None and reply.result is not None, reply.text
    assert (reply.result["target"], reply.result["need"], reply.result["successes"]) == (5, 2, 2)
    # Book: target 4 gives 3 successes, need 1: success either way, but the successes differ.
    assert reply.text.endswith(f"[house: default_target=5] #{reply.result['id']}")
    pr.dice.extend([4, 5, 6])
    named = await pr.one("roll 3 tn 4 need 1", as_="klara")
    assert named.result is not None and named.result["successes"] == 3 and "[house" not in named.text


async def test_need_is_at_most_the_pool(pr: Chat) -> None:
    await house(pr, "default_need 3", st="st")
    pr.dice.extend([5])
    reply = await pr.one("roll 1")
    assert reply.error is None and reply.result is not None and reply.result["need"] == 1


async def test_odds_obey(pr: Chat) -> None:
    await house(pr, "default_target 6", st="st")
    reply = await pr.one("odds 2")
    assert reply.error is None and reply.result is not None
    assert reply.result["target"] == 6


async def test_the_setting_is_the_default(vault_url: str) -> None:
    chat = await start_chat(vault_url, pravidla={"default_target": 5})
    try:
        assert (await chat.one("system pravidla", as_="st", st=True)).error is None
        shown = await chat.one("house")
        assert "* default_target = 5 (kniha: 4;" in shown.text
    finally:
        await chat.gateway.stop()


async def test_odds_carry_the_web_pages_chart_in_the_readers_language(pr: Chat) -> None:
    """Issue 17: the picture Discord and Matrix show is the web page's chart, drawn from the odds the
    command worked out (``web_tools.odds_charts``), in Czech here (Pravidla's own language)."""
    from gateway.rules.charts import chart_from_result
    from plugins.pravidla.web_tools import tool_odds

    reply = await pr.one("odds 3 need 2")
    chart = chart_from_result(reply.result)
    assert chart is not None
    page = tool_odds({"pool": 3, "target": reply.result["target"], "need": 2}, "cs", {})  # type: ignore[index]
    assert [p.title for p in chart.panels] == [c.title for c in page]
    assert chart.title == "Šance v Pravidlech"
    assert [[(b.label, b.exact) for b in p.bars] for p in chart.panels] == [
        [(label, f"{v.numerator}/{v.denominator}") for label, v in c.rows] for c in page
    ]
