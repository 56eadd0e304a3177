"""Dramatic Systems' house rules: every switch's dice against its exact odds (full enumeration for
small pools, a seeded chi-square for larger ones), and through the router: rolls, odds, resisted."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from typing import Any

import pytest

from gateway.core.dice import SeededDice
from gateway.testing import Chat
from plugins.dramatic import mechanics as m
from plugins.dramatic import odds
from tests.helpers.chi_square import binned_chi_square, chi_square_bound
from tests.helpers.enumerate import outcomes
from tests.helpers.house_rules import house, rolled

# One switch away from the book each, then a few together.
SWITCHES: list[dict[str, Any]] = [
    {"tens_explode": "always"},
    {"tens_explode": "never"},
    {"tens_double": "always"},
    {"tens_double": "specialty"},
    {"ones_cancel": False},
    {"botch": False},
    {"willpower_cancelable": False},
    {"tens_explode": "always", "tens_double": "always", "ones_cancel": False},
    {"tens_double": "always", "willpower_cancelable": False, "botch": False},
]


def _split(found: dict[object, Fraction]) -> tuple[dict[int, Fraction], dict[str, Fraction]]:
    successes: dict[int, Fraction] = {}
    degrees: dict[str, Fraction] = {}
    for (s, degree), p in found.items():  # type: ignore[misc]
        successes[s] = successes.get(s, Fraction(0)) + p
        degrees[degree] = degrees.get(degree, Fraction(0)) + p
    return successes, degrees


@pytest.mark.parametrize("switches", SWITCHES)
@pytest.mark.parametrize(
    ("pool", "difficulty", "willpower"), [(1, 6, True), (2, 6, False), (3, 8, True), (2, 10, True)]
)
def test_exact_odds_equal_the_enumerated_dice_without_a_chain(
    switches: dict[str, Any], pool: int, difficulty: int, willpower: bool
) -> None:
    explode = m.explodes(switches.get("tens_explode", "specialty"), False)
    found, residual = outcomes(
        lambda d: (lambda r: (r.successes, r.degree))(
            m.roll(pool, difficulty, d, willpower=willpower, **switches)
        ),
        max_len=pool + 3,
    )
    exact = odds.roll_odds(pool, difficulty, willpower=willpower, **switches)
    successes, degrees = _split(found)
    if not explode:
        assert residual == 0 and exact.tail == 0
        assert exact.successes == successes
    else:  # chains of 10s without end: the exact odds lie within what enumeration left unfollowed
        for value, p in successes.items():
            assert p <= exact.successes.get(value, Fraction(0)) + exact.tail
            assert exact.successes.get(value, Fraction(0)) <= p + residual
    assert exact.botch == degrees.get("botch", Fraction(0))
    assert exact.botch + exact.failure + exact.success == 1


@pytest.mark.parametrize("switches", SWITCHES)
def test_exact_odds_with_a_specialty_bracket_the_enumeration(switches: dict[str, Any]) -> None:
    found, residual = outcomes(
        lambda d: (lambda r: (r.successes, r.degree))(m.roll(2, 6, d, specialty=True, **switches)), max_len=5
    )
    exact = odds.roll_odds(2, 6, specialty=True, **switches)
    successes, degrees = _split(found)
    for value, p in successes.items():
        assert p <= exact.successes.get(value, Fraction(0)) + exact.tail
        assert exact.successes.get(value, Fraction(0)) <= p + residual
    assert exact.botch == degrees.get("botch", Fraction(0))


def test_the_book_path_is_unchanged_by_default() -> None:
    for pool, d, wp, spec in ((5, 6, True, False), (4, 7, False, True)):
        assert odds.roll_odds(pool, d, willpower=wp, specialty=spec) == odds.roll_odds(
            pool, d, willpower=wp, specialty=spec, tens_explode="specialty", tens_double="never"
        )


@pytest.mark.parametrize("seed", [1])
@pytest.mark.parametrize("switches", SWITCHES)
def test_seeded_rolls_follow_the_exact_odds(switches: dict[str, Any], seed: int) -> None:
    rolls = 20_000
    dice = SeededDice(seed + len(str(switches)))
    pool, difficulty = 6, 7
    observed = Counter(
        (lambda r: r.successes if r.degree != "botch" else -1)(
            m.roll(pool, difficulty, dice, willpower=True, specialty=True, **switches)
        )
        for _ in range(rolls)
    )
    exact = odds.roll_odds(pool, difficulty, willpower=True, specialty=True, **switches)
    expected: dict[int, Fraction] = dict(exact.successes)
    # A botch nets 0: its own bin (-1), the rest of 0 stays at 0; the tail joins the top value.
    expected[-1] = exact.botch
    expected[0] = expected.get(0, Fraction(0)) - exact.botch
    top = max(expected)
    expected[top] += exact.tail
    capped: Counter[int] = Counter()
    for k, v in observed.items():
        capped[min(k, top)] += v
    stat, df = binned_chi_square(capped, expected, rolls)
    assert df >= 3 and stat < chi_square_bound(df), (switches, stat, df)


def test_resisted_odds_take_the_switches() -> None:
    book = odds.resisted_odds(3, 3)
    doubled = odds.resisted_odds(3, 3, tens_double="always")
    assert book != doubled
    found, residual = outcomes(
        lambda d: m.resist(m.roll(2, 6, d, ones_cancel=False), m.roll(1, 6, d, ones_cancel=False)).winner
    )
    exact = odds.resisted_odds(2, 1, ones_cancel=False)
    assert residual == 0 and (exact.attacker, exact.defender) == (found.get(0, Fraction(0)), found[1])


# --- scripted dice through the router ---------------------------------------------------------------


async def test_tens_explode_always(dra: Chat) -> None:
    await house(dra, "tens_explode always")
    result, text = await rolled(dra, "roll 2", [10, 3, 8])
    assert (result["dice"], result["successes"]) == ([10, 3, 8], 2)
    assert text.endswith(f"→ 2 successes (Success) [house: tens_explode=always] #{result['id']}")
    assert result["house_rules"] == {"tens_explode": "always"}


async def test_tens_explode_never_with_a_specialty(dra: Chat) -> None:
    await house(dra, "tens_explode never")
    result, text = await rolled(dra, "roll 2 spec", [10, 3])
    assert (result["extra_dice"], result["successes"]) == ([], 1)
    assert "[house: tens_explode=never]" in text


async def test_no_botch_and_willpower_not_cancelable(dra: Chat) -> None:
    await house(dra, "botch off")
    result, text = await rolled(dra, "roll 2", [1, 3])
    assert (result["successes"], result["degree"]) == (0, "failure")
    assert "[house: botch=off]" in text


async def test_ones_do_not_cancel(dra: Chat) -> None:
    await house(dra, "ones_cancel off")
    result, _ = await rolled(dra, "roll 3", [1, 7, 8])
    assert result["successes"] == 2


async def test_default_difficulty(dra: Chat) -> None:
    await house(dra, "default_difficulty 8")
    result, text = await rolled(dra, "roll 2", [7, 8])
    assert (result["difficulty"], result["successes"]) == (8, 1)
    assert "[house: default_difficulty=8]" in text
    result, text = await rolled(dra, "roll 2 diff 6", [7, 8])
    assert (result["difficulty"], result["successes"]) == (6, 2)
    assert "[house" not in text  # a named difficulty owes nothing to the default


async def test_odds_obey_and_name_the_switches(dra: Chat) -> None:
    await house(dra, "tens_double always", "ones_cancel off")
    reply = await dra.one("odds 4")
    assert reply.error is None
    assert reply.text.endswith("[house: tens_double=always, ones_cancel=off]")
    assert reply.result is not None
    exact = odds.roll_odds(4, 6, tens_double="always", ones_cancel=False)
    assert reply.result["degrees"]["botch"] == pytest.approx(float(exact.botch))
    assert reply.result["successes"] == {str(k): float(v) for k, v in exact.successes.items()}


async def test_resisted_names_the_rule(dra: Chat) -> None:
    await house(dra, "tens_double always")
    result, text = await rolled(dra, "roll 2 vs 2", [9, 3, 8, 7])
    assert result["winner"] == 1 and "[house" not in text  # no 10: the switch changed nothing
    # The attacker's 10 reads 2 successes, not 1: named, though the defender still wins the tie.
    result, text = await rolled(dra, "roll 2 vs 2", [10, 3, 8, 7])
    assert result["winner"] == 1 and "[house: tens_double=always]" in text
    result, text = await rolled(dra, "roll 2 vs 2", [10, 8, 8, 7])
    assert result["winner"] == 0 and result["margin"] == 1
    assert "[house: tens_double=always]" in text
