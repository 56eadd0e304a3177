"""Decanter's house rules: each die switch against its exact odds (full enumeration with every dice
quality, and a seeded chi-square), and every switch through the router with scripted dice."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest

from gateway.core.dice import SeededDice
from gateway.testing import Chat
from plugins.decanter import mechanics as m
from plugins.decanter import odds
from tests.helpers.chi_square import binned_chi_square, chi_square_bound
from tests.helpers.enumerate import outcomes
from tests.helpers.house_rules import house, rolled

SWITCHES: list[dict[str, bool]] = [
    {"tens_double": False},
    {"ones_subtract": False},
    {"tens_double": False, "ones_subtract": False},
]


@pytest.mark.parametrize("switches", SWITCHES)
@pytest.mark.parametrize("quality", [-2, -1, 0, 1, 2])
@pytest.mark.parametrize("pool", [1, 2])
def test_exact_odds_equal_the_enumerated_dice(switches: dict[str, bool], quality: int, pool: int) -> None:
    found, residual = outcomes(lambda d: m.roll(pool, d, quality=quality, **switches).successes)
    assert residual == 0
    assert odds.pool_distribution(pool, quality, **switches) == found


@pytest.mark.parametrize("switches", SWITCHES)
def test_reread_faces_matches_the_roll(switches: dict[str, bool]) -> None:
    dice = SeededDice(5)
    for quality in (-2, -1, 0, 1, 2):
        for _ in range(200):
            roll = m.roll(3, dice, quality=quality, **switches)
            assert m.reread_faces(roll, **switches) == roll.successes


def test_automatic_success_off_rolls_every_pool() -> None:
    book = odds.roll_odds(5, dc=2)
    assert book.degrees == {"automatic": 1}
    rolled = odds.roll_odds(5, dc=2, automatic_success=False)
    assert "automatic" not in rolled.degrees
    assert rolled.degrees["extra"] == odds.roll_odds(5, dc=2, force=True).degrees["extra"]


@pytest.mark.parametrize("switches", SWITCHES)
def test_seeded_rolls_follow_the_exact_odds(switches: dict[str, bool]) -> None:
    rolls, pool = 20_000, 6
    dice = SeededDice(200 + len(str(switches)))
    observed = Counter(m.roll(pool, dice, **switches).successes for _ in range(rolls))
    stat, df = binned_chi_square(observed, odds.pool_distribution(pool, **switches), rolls)
    assert df >= 3 and stat < chi_square_bound(df), (switches, stat, df)


def test_contest_odds_take_the_switches() -> None:
    found, residual = outcomes(lambda d: m.contest(1, 2, d, tens_double=False).winner)
    exact = odds.contest_odds(1, 2, tens_double=False)
    assert residual == 0 and (exact.left, exact.right) == (found.get(0, Fraction(0)), found[1])


# --- through the router -----------------------------------------------------------------------------


async def test_tens_count_once(dec: Chat) -> None:
    await house(dec, "tens_double off")
    result, text = await rolled(dec, "roll 3 dc 2", [10, 6, 3])
    assert (result["successes"], result["degree"]) == (2, "success")
    assert f"[house: tens_double=off] #{result['id']}" in text
    result, text = await rolled(dec, "roll 3 dc 2", [9, 6, 3])
    assert result["successes"] == 2 and "[house" not in text


async def test_ones_do_not_subtract(dec: Chat) -> None:
    await house(dec, "ones_subtract off")
    result, text = await rolled(dec, "roll 3 dc 2", [1, 6, 7])
    assert result["successes"] == 2 and "[house: ones_subtract=off]" in text


async def test_no_automatic_success(dec: Chat) -> None:
    await house(dec, "automatic_success off")
    result, text = await rolled(dec, "roll 5 dc 2", [6, 6, 2, 2, 2])
    assert (result["automatic"], result["successes"]) == (False, 2)
    assert "[house: automatic_success=off]" in text


async def test_aid_cap_and_its_setting_default(dec: Chat) -> None:
    shown = await dec.one("house")
    assert "aid_cap = 5 (book: 5;" in shown.text
    await house(dec, "aid_cap 1")
    result, _ = await rolled(dec, "roll 2 dc 3 aid 3", [6, 6, 6, 2, 2, 2])
    assert result["bonus_dice"] == 1


async def test_odds_obey(dec: Chat) -> None:
    await house(dec, "tens_double off")
    reply = await dec.one("odds 4 dc 2")
    assert reply.error is None and reply.text.endswith("[house: tens_double=off]"), reply.text
    exact = odds.roll_odds(4, dc=2, tens_double=False)
    assert reply.result is not None
    assert reply.result["successes"] == {str(k): float(v) for k, v in exact.successes.items()}


async def test_odds_carry_the_web_pages_chart_with_the_channel_s_switches(dec: Chat) -> None:
    """Issue 17: the picture Discord and Matrix show is the web page's chart (``web_tools.odds_charts``),
    made in the offload worker from the odds the command worked out, house rules included; without a
    DC only the successes."""
    from gateway.rules.charts import chart_from_result
    from plugins.decanter.web_tools import tool_odds

    await house(dec, "ones_subtract off")
    reply = await dec.one("odds 5 dc 3")
    chart = chart_from_result(reply.result)
    assert chart is not None and chart.title == "Decanter odds"
    page = tool_odds({"pool": 5, "dc": 3, "quality": 0}, "en", {"ones_subtract": False})
    book = tool_odds({"pool": 5, "dc": 3, "quality": 0}, "en", {})
    drawn = [[(b.label, b.exact) for b in p.bars] for p in chart.panels]
    assert drawn == [[(label, f"{v.numerator}/{v.denominator}") for label, v in c.rows] for c in page]
    assert drawn != [[(label, f"{v.numerator}/{v.denominator}") for label, v in c.rows] for c in book]
    reply = await dec.one("odds 5")
    chart = chart_from_result(reply.result)
    assert chart is not None and [p.title for p in chart.panels] == ["Chance of exactly this many successes"]
