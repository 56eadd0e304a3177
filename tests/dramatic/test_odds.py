"""Dramatic Systems' exact odds against full enumeration of the real mechanics for small pools."""

from __future__ import annotations

from fractions import Fraction

import pytest

from plugins.dramatic import mechanics as m
from plugins.dramatic import odds
from tests.helpers.enumerate import outcomes


def _by_degree(found: dict[object, Fraction]) -> dict[str, Fraction]:
    out: dict[str, Fraction] = {}
    for (_, degree), p in found.items():  # type: ignore[misc]
        out[degree] = out.get(degree, Fraction(0)) + p
    return out


def _by_successes(found: dict[object, Fraction]) -> dict[int, Fraction]:
    out: dict[int, Fraction] = {}
    for (successes, _), p in found.items():  # type: ignore[misc]
        out[successes] = out.get(successes, Fraction(0)) + p
    return out


@pytest.mark.parametrize("willpower", [False, True])
@pytest.mark.parametrize("difficulty", [2, 3, 6, 9, 10])
@pytest.mark.parametrize("pool", [0, 1, 2, 3])
def test_plain_rolls(pool: int, difficulty: int, willpower: bool) -> None:
    found, residual = outcomes(
        lambda d: (lambda r: (r.successes, r.degree))(m.roll(pool, difficulty, d, willpower=willpower))
    )
    assert residual == 0
    exact = odds.roll_odds(pool, difficulty, willpower=willpower)
    assert exact.tail == 0
    assert exact.successes == _by_successes(found)
    degrees = _by_degree(found)
    assert (exact.botch, exact.failure, exact.success) == (
        degrees.get("botch", Fraction(0)),
        degrees.get("failure", Fraction(0)),
        degrees.get("success", Fraction(0)),
    )


@pytest.mark.parametrize(
    ("pool", "difficulty", "willpower"), [(1, 6, False), (2, 6, True), (2, 10, False), (3, 4, False)]
)
def test_specialty_within_the_unfollowed_chains(pool: int, difficulty: int, willpower: bool) -> None:
    """Chains of 10s have no end: enumeration follows them to a depth; the exact odds must lie between
    what was enumerated and that plus the mass of the chains not followed."""
    found, residual = outcomes(
        lambda d: (lambda r: (r.successes, r.degree))(
            m.roll(pool, difficulty, d, willpower=willpower, specialty=True)
        ),
        max_len=pool + 3,
    )
    assert 0 < residual < Fraction(1, 100)
    exact = odds.roll_odds(pool, difficulty, willpower=willpower, specialty=True)
    for value, p in _by_successes(found).items():
        assert p <= exact.successes[value] <= p + residual
    degrees = _by_degree(found)
    assert exact.botch == degrees["botch"]  # a botch never has a 10 to follow
    assert (
        degrees.get("failure", Fraction(0)) <= exact.failure <= degrees.get("failure", Fraction(0)) + residual
    )
    assert degrees["success"] <= exact.success <= degrees["success"] + residual
    assert exact.botch + exact.failure + exact.success == 1


@pytest.mark.parametrize(("left", "right", "d_left", "d_right"), [(2, 1, 6, 6), (1, 2, 4, 8), (2, 2, 6, 6)])
def test_resisted(left: int, right: int, d_left: int, d_right: int) -> None:
    found, residual = outcomes(lambda d: m.resist(m.roll(left, d_left, d), m.roll(right, d_right, d)).winner)
    assert residual == 0
    exact = odds.resisted_odds(left, right, d_left, d_right)
    assert (exact.attacker, exact.defender, exact.error) == (found.get(0, Fraction(0)), found[1], 0)


def test_resisted_with_a_specialty() -> None:
    found, residual = outcomes(
        lambda d: m.resist(m.roll(1, 6, d, specialty=True), m.roll(1, 6, d, specialty=True)).winner,
        max_len=5,
    )
    exact = odds.resisted_odds(1, 1, attacker_specialty=True, defender_specialty=True)
    assert found[0] <= exact.attacker <= found[0] + residual
    assert 0 < exact.error < Fraction(1, 10**10)


def test_large_pool_is_a_distribution() -> None:
    chances = odds.roll_odds(30, 7, willpower=True, specialty=True)
    assert sum(chances.successes.values()) + chances.tail == 1
    assert chances.botch == Fraction(6, 10) ** 30 - Fraction(5, 10) ** 30
