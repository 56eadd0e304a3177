"""Night Wanderers' house rules (pain, the default difficulty) through the router, and seeded rolls
at a house-ruled difficulty against the exact odds."""

from __future__ import annotations

from collections import Counter

import pytest

from gateway.core.dice import SeededDice
from gateway.rules import binomial
from gateway.testing import Chat, start_chat
from plugins.nightwanderers import mechanics as m
from plugins.nightwanderers import odds
from tests.helpers.chi_square import binned_chi_square, chi_square_bound
from tests.helpers.house_rules import house
from tests.nightwanderers.test_blood import maxina


@pytest.mark.parametrize("difficulty", [3, 5])
def test_seeded_rolls_at_a_default_difficulty_follow_the_exact_odds(difficulty: int) -> None:
    rolls, pool = 20_000, 5
    dice = SeededDice(400 + difficulty)
    observed = Counter(m.roll(pool, dice, difficulty).successes for _ in range(rolls))
    expected = dict(enumerate(binomial.distribution(pool, difficulty, sides=m.SIDES)))
    stat, df = binned_chi_square(observed, expected, rolls)
    assert df >= 2 and stat < chi_square_bound(df), (stat, df)
    qualities = Counter(m.roll(pool, dice, difficulty).degree for _ in range(rolls))
    exact = odds.qualities(pool, difficulty, 1)
    names = sorted(exact)
    index = {name: i for i, name in enumerate(names)}
    stat, df = binned_chi_square(
        Counter({index[k]: v for k, v in qualities.items()}), {index[k]: p for k, p in exact.items()}, rolls
    )
    assert stat < chi_square_bound(max(df, 1)), (stat, df)


async def test_pain_off(nw: Chat) -> None:
    await maxina(nw, persuasion=3)
    await nw.one("damage 5 Maxina", as_="st", st=True)  # 20 of 25: Normal, one die of pain
    await house(nw, "pain off", st="st")
    nw.dice.extend([6, 6, 6])
    reply = await nw.one("roll persuasion", as_="olga")
    assert reply.error is None and reply.result is not None, reply.text
    assert (reply.result["pool"], reply.result["pain"]) == (3, 0)
    assert "Боль" not in reply.text


async def test_default_difficulty(nw: Chat) -> None:
    await house(nw, "default_difficulty 6", st="st")
    nw.dice.extend([5, 6])
    reply = await nw.one("roll 2")
    assert reply.error is None and reply.result is not None
    assert (reply.result["difficulty"], reply.result["successes"]) == (6, 1)
    odds_reply = await nw.one("odds 2")
    assert odds_reply.error is None and odds_reply.result is not None
    assert odds_reply.result["difficulty"] == 6


async def test_the_setting_is_the_default(vault_url: str) -> None:
    chat = await start_chat(vault_url, nightwanderers={"default_difficulty": 3})
    try:
        assert (await chat.one("system nightwanderers", as_="st", st=True)).error is None
        assert (await chat.one("lang en")).error is None
        shown = await chat.one("house")
        assert "* default_difficulty = 3 (book: 4;" in shown.text
    finally:
        await chat.gateway.stop()
