"""Nightcap's house rules: each dice switch against its exact odds (full enumeration, and a seeded
chi-square), and every switch through the router with scripted dice: rolls, odds, Willpower,
teamwork and wound penalties (whose default is ``[nightcap] wound_penalties``)."""

from __future__ import annotations

from collections import Counter
from collections.abc import AsyncIterator
from fractions import Fraction

import pytest

from gateway.core.dice import SeededDice
from gateway.testing import Chat, start_chat
from plugins.nightcap import mechanics as m
from plugins.nightcap import odds
from tests.conflict.helpers import make_character
from tests.helpers.chi_square import binned_chi_square, chi_square_bound
from tests.helpers.enumerate import outcomes
from tests.helpers.house_rules import house, rolled

SWITCHES: list[dict[str, bool]] = [
    {"tens_double": False},
    {"ones_subtract": False},
    {"chance_die": False},
    {"tens_double": False, "ones_subtract": False},
]


@pytest.mark.parametrize("switches", SWITCHES)
@pytest.mark.parametrize(("pool", "willpower"), [(0, True), (1, False), (2, True), (3, False)])
def test_exact_odds_equal_the_enumerated_dice(switches: dict[str, bool], pool: int, willpower: bool) -> None:
    found, residual = outcomes(
        lambda d: (lambda r: (r.total, r.degree))(m.roll(pool, d, willpower, **switches))
    )
    assert residual == 0
    exact = odds.roll_odds(pool, willpower, **switches)
    totals: dict[int, Fraction] = {}
    degrees: dict[str, Fraction] = {}
    for (total, degree), p in found.items():  # type: ignore[misc]
        totals[total] = totals.get(total, Fraction(0)) + p
        degrees[degree] = degrees.get(degree, Fraction(0)) + p
    assert exact.totals == totals
    assert {k: v for k, v in exact.degrees.items() if v} == degrees


@pytest.mark.parametrize("switches", SWITCHES)
def test_seeded_rolls_follow_the_exact_odds(switches: dict[str, bool]) -> None:
    rolls, pool = 20_000, 6
    dice = SeededDice(100 + len(str(switches)))
    observed = Counter(m.roll(pool, dice, **switches).dice_total for _ in range(rolls))
    exact = odds.dice_total_distribution(pool, **switches)
    expected = {v: Fraction(c, exact.denominator) for v, c in exact.items()}
    stat, df = binned_chi_square(observed, expected, rolls)
    assert df >= 3 and stat < chi_square_bound(df), (switches, stat, df)


def test_the_books_die_by_default() -> None:
    assert odds.roll_odds(4) == odds.roll_odds(4, tens_double=True, ones_subtract=True, chance_die=True)
    assert odds.roll_odds(0, chance_die=False).degrees["failure"] == 1


# --- through the router -----------------------------------------------------------------------------


@pytest.fixture
async def chat(vault_url: str) -> AsyncIterator[Chat]:
    chat = await start_chat(vault_url)
    yield chat
    await chat.gateway.stop()


async def test_tens_count_once(chat: Chat) -> None:
    await house(chat, "tens_double off")
    result, text = await rolled(chat, "roll 3", [10, 7, 3])
    assert (result["total"], result["degree"]) == (2, "solid")
    assert text.endswith(f"[house: tens_double=off] #{result['id']}")
    assert result["house_rules"] == {"tens_double": False}
    result, text = await rolled(chat, "roll 3", [9, 7, 3])
    assert result["total"] == 2 and "[house" not in text


async def test_ones_do_not_subtract(chat: Chat) -> None:
    await house(chat, "ones_subtract off")
    result, text = await rolled(chat, "roll 2", [1, 1])
    assert (result["dice_total"], result["degree"]) == (0, "failure")
    assert "[house: ones_subtract=off]" in text


async def test_no_chance_die(chat: Chat) -> None:
    await house(chat, "chance_die off")
    result, text = await rolled(chat, "roll 0", [])
    assert (result["dice"], result["total"], result["degree"]) == ([], 0, "failure")
    assert "[house: chance_die=off]" in text


async def test_odds_obey_and_name_the_switches(chat: Chat) -> None:
    await house(chat, "tens_double off")
    reply = await chat.one("odds 3")
    assert reply.error is None and reply.text.endswith("[house: tens_double=off]")
    assert reply.result is not None
    exact = odds.roll_odds(3, tens_double=False)
    assert (
        reply.result["exact"]["at_least_1"]
        == f"{exact.at_least_one.numerator}/{exact.at_least_one.denominator}"
    )
    contest = await chat.one("odds 3 vs 2")
    assert contest.error is None and contest.text.endswith("[house: tens_double=off]")


async def test_st_roll_obeys(chat: Chat) -> None:
    await house(chat, "tens_double off")
    chat.dice.extend([10, 10])
    reply = await chat.one("st roll 2", as_="gm", st=True)
    assert reply.error is None and reply.result is not None
    assert reply.result["total"] == 2


async def test_willpower_per_roll_zero_refuses_the_spend(chat: Chat) -> None:
    await make_character(chat, "alice", "Mira", physical=3, willpower=3)
    await house(chat, "willpower_per_roll 0")
    reply = await chat.one("roll physical wp")
    assert reply.error is not None
    assert reply.text == "Willpower is not spent on rolls in this channel (house rule willpower_per_roll 0)."
    wrong = await chat.one("house set willpower_per_roll 2", as_="gm", st=True)
    assert wrong.text == "willpower_per_roll is a whole number from 0 to 1, not 2."


async def test_teamwork_cap(chat: Chat) -> None:
    await make_character(chat, "lead", "Lena", physical=2)
    await make_character(chat, "h1", "Hal")
    await make_character(chat, "h2", "Ivy")
    await house(chat, "teamwork_cap 1")
    opened = await chat.one("team start physical", as_="lead")
    assert opened.error is None and "up to 1 count" in opened.text
    assert (await chat.one("assist", as_="h1")).error is None
    full = await chat.one("assist", as_="h2")
    assert full.text == "Lena already has 1 helpers (Hal), the most that count."


async def test_wound_penalties_per_channel(chat: Chat) -> None:
    await make_character(chat, "alice", "Mira", physical=3, damage=4)
    shown = await chat.one("house")
    assert "wound_penalties = off (book: off;" in shown.text
    result, _ = await rolled(chat, "roll physical", [7, 7, 7])
    assert result["pool"] == 3
    await house(chat, "wound_penalties on")
    result, text = await rolled(chat, "roll physical", [7, 7])
    assert (result["pool"], result["wound_penalty"]) == (2, -1)
    assert "(wounds -1)" in text


async def test_the_setting_is_the_house_rules_default(vault_url: str) -> None:
    chat = await start_chat(vault_url, nightcap={"wound_penalties": True})
    try:
        await make_character(chat, "alice", "Mira", physical=3, damage=4)
        shown = await chat.one("house")
        assert "* wound_penalties = on (book: off;" in shown.text
        result, _ = await rolled(chat, "roll physical", [7, 7])
        assert result["pool"] == 2
        await house(chat, "wound_penalties off")
        result, _ = await rolled(chat, "roll physical", [7, 7, 7])
        assert result["pool"] == 3
        reset = await chat.one("house reset wound_penalties", as_="gm", st=True)
        assert reset.text == "House rule wound_penalties is back to its default here, on, reset by Gm."
    finally:
        await chat.gateway.stop()


async def test_a_player_cannot_set_one(chat: Chat) -> None:
    reply = await chat.one("house set tens_double off", as_="alice")
    assert reply.error is not None and "Storyteller" in reply.text
