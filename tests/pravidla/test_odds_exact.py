"""The success-counting odds Pravidla and Night Wanderers share (gateway.rules.binomial, used by
gateway.rules.term_pools for contests) give the very same Fractions as the code they replaced
(tests/helpers/odds_reference/binomial.py), on d6 and d10, every target, small and mid-size pools."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gateway.rules import binomial
from tests.helpers.odds_reference import assert_same
from tests.helpers.odds_reference import binomial as reference


@pytest.mark.parametrize("sides", [6, 10])
def test_every_target_on_a_grid(sides: int) -> None:
    for target in range(-1, sides + 3):
        for pool in range(-1, 13):
            assert_same(
                reference.distribution(pool, target, sides=sides),
                binomial.distribution(pool, target, sides=sides),
            )
            for need in range(-1, 14):
                assert_same(
                    reference.at_least(pool, target, need, sides=sides),
                    binomial.at_least(pool, target, need, sides=sides),
                )
            for other in range(-1, 13):
                assert_same(
                    reference.contest(pool, other, target, sides=sides),
                    binomial.contest(pool, other, target, sides=sides),
                )


@settings(max_examples=60, deadline=None)
@given(left=st.integers(0, 40), right=st.integers(0, 40), target=st.integers(1, 7), need=st.integers(1, 40))
def test_random_mid_size(left: int, right: int, target: int, need: int) -> None:
    assert_same(
        reference.contest(left, right, target, sides=6), binomial.contest(left, right, target, sides=6)
    )
    assert_same(
        reference.at_least(left, target, need, sides=6), binomial.at_least(left, target, need, sides=6)
    )


@pytest.mark.parametrize("target", range(2, 7))
def test_fifty_against_fifty(target: int) -> None:
    assert_same(reference.contest(50, 50, target, sides=6), binomial.contest(50, 50, target, sides=6))
    assert_same(reference.distribution(50, target, sides=6), binomial.distribution(50, target, sides=6))
