"""Decanter's exact odds against full enumeration of the real mechanics for small pools."""

from __future__ import annotations

from fractions import Fraction

import pytest

from plugins.decanter import mechanics as m
from plugins.decanter import odds
from tests.helpers.enumerate import PrefixDice, outcomes


def enumerated_successes(pool: int, quality: int = 0, half: bool = False) -> dict[int, Fraction]:
    found, residual = outcomes(lambda d: m.roll(pool, d, quality=quality, half=half).successes)
    assert residual == 0
    return {int(k): v for k, v in found.items()}  # type: ignore[call-overload]


@pytest.mark.parametrize("pool", [0, 1, 2, 3])
def test_plain_pools(pool: int) -> None:
    assert odds.pool_distribution(pool) == enumerated_successes(pool)


@pytest.mark.parametrize("quality", [-2, -1, 1, 2])
@pytest.mark.parametrize("pool", [1, 2])
def test_qualities(pool: int, quality: int) -> None:
    assert odds.pool_distribution(pool, quality) == enumerated_successes(pool, quality)


@pytest.mark.parametrize("quality", [-1, 0, 1])
@pytest.mark.parametrize("pool", [1, 3])
def test_take_half(pool: int, quality: int) -> None:
    assert odds.pool_distribution(pool, quality, half=True) == enumerated_successes(pool, quality, True)


@pytest.mark.parametrize(
    ("pool", "dc", "quality"), [(2, 1, 0), (2, 2, 1), (2, 2, -1), (2, 3, 2), (2, 1, -2), (3, 1, 0)]
)
def test_degrees_with_automatic_success(pool: int, dc: int, quality: int) -> None:
    found, _ = outcomes(lambda d: m.roll(pool, d, dc=dc, quality=quality).degree)
    assert odds.roll_odds(pool, dc=dc, quality=quality).degrees == found


def test_forced_roll_degrees() -> None:
    found, _ = outcomes(lambda d: m.roll(3, d, dc=1, force=True).degree)
    assert odds.roll_odds(3, dc=1, force=True).degrees == found
    assert odds.roll_odds(3, dc=1).degrees == {"automatic": Fraction(1)}


def test_aid_another() -> None:
    def aided(d: PrefixDice) -> str | None:
        helpers = [m.aid(1, d), m.aid(2, d, npc=True)]
        return m.roll(1 + m.aid_bonus(helpers, cap=2), d, dc=2).degree

    found, residual = outcomes(aided)
    assert residual == 0
    assert odds.roll_odds(1, dc=2, helpers=[(1, False), (2, True)], aid_cap=2).degrees == found


def _contest(left: int, right: int, lq: int = 0, rq: int = 0) -> object:
    return lambda d: m.contest(left, right, d, left_quality=lq, right_quality=rq).winner


@pytest.mark.parametrize(
    ("left", "right", "lq", "rq"), [(2, 1, 0, 0), (2, 1, 0, -1), (1, 2, 0, 0), (1, 1, 0, 0)]
)
def test_contests(left: int, right: int, lq: int, rq: int) -> None:
    found, residual = outcomes(_contest(left, right, lq, rq), max_len=4 if left == right else 12)  # type: ignore[arg-type]
    exact = odds.contest_odds(left, right, lq, rq)
    if left != right:
        assert residual == 0
        assert (found.get(0, Fraction(0)), found.get(1, Fraction(0))) == (exact.left, exact.right)
        return
    # Equal pools re-roll ties: enumeration stops after a few rounds, the rest is the residual.
    for side, value in ((0, exact.left), (1, exact.right)):
        assert found[side] <= value <= found[side] + residual
    assert residual < Fraction(1, 5)


def test_distributions_sum_to_one() -> None:
    for quality in range(-2, 3):
        assert sum(odds.pool_distribution(12, quality).values()) == 1
    chances = odds.roll_odds(10, dc=4, quality=1, helpers=[(3, False)])
    assert sum(chances.degrees.values()) == 1
    contest = odds.contest_odds(4, 4, 1, 0)
    assert contest.left + contest.right + contest.unbroken == 1
