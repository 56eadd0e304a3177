"""Dramatic Systems' fast exact odds give the very same Fractions as the code they replaced
(tests/helpers/odds_reference/dramatic.py): a grid of small pools with every option, random
mid-size cases, and a few pools of 50."""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from plugins.dramatic import odds
from tests.helpers.odds_reference import assert_same
from tests.helpers.odds_reference import dramatic as reference

DIFFICULTIES = range(1, 12)  # 1 and 11 are clamped to 2 and 10


@pytest.fixture(autouse=True, scope="module")
def _remembered() -> Iterator[None]:
    """The reference's resisted odds reuse its roll odds (pure, frozen) instead of redoing them for
    every pair: the grids stay complete and take seconds instead of minutes."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(reference, "roll_odds", cache(reference.roll_odds))
        yield


@pytest.mark.parametrize("specialty", [False, True])
@pytest.mark.parametrize("willpower", [False, True])
@pytest.mark.parametrize("difficulty", DIFFICULTIES)
def test_rolls_on_a_grid(difficulty: int, willpower: bool, specialty: bool) -> None:
    for pool in range(-1, 13):
        kwargs = {"willpower": willpower, "specialty": specialty}
        assert_same(
            reference.roll_odds(pool, difficulty, **kwargs), odds.roll_odds(pool, difficulty, **kwargs)
        )


@pytest.mark.parametrize("limit", [0, 1, 3, 12])
@pytest.mark.parametrize("willpower", [False, True])
def test_a_limit_of_your_own(limit: int, willpower: bool) -> None:
    for pool in range(0, 9):
        for difficulty in (2, 6, 10):
            old = reference.roll_odds(pool, difficulty, willpower=willpower, specialty=True, limit=limit)
            new = odds.roll_odds(pool, difficulty, willpower=willpower, specialty=True, limit=limit)
            assert_same(old, new)
            for k in range(-1, limit + 3):
                assert old.at_least(k) == new.at_least(k)
            assert old.mean_lower_bound == new.mean_lower_bound


@pytest.mark.parametrize("defender_specialty", [False, True])
@pytest.mark.parametrize("attacker_specialty", [False, True])
@pytest.mark.parametrize("willpower", [False, True])
@pytest.mark.parametrize("difficulties", [(6, 6), (2, 10), (10, 3)])
def test_resisted_on_a_grid(
    difficulties: tuple[int, int], willpower: bool, attacker_specialty: bool, defender_specialty: bool
) -> None:
    options = {
        "willpower": willpower,
        "attacker_specialty": attacker_specialty,
        "defender_specialty": defender_specialty,
    }
    for left in range(0, 13):
        for right in range(0, 13):
            assert_same(
                reference.resisted_odds(left, right, *difficulties, **options),
                odds.resisted_odds(left, right, *difficulties, **options),
            )


@settings(max_examples=40, deadline=None)
@given(
    left=st.integers(0, 25),
    right=st.integers(0, 25),
    difficulties=st.tuples(st.integers(0, 12), st.integers(0, 12)),
    willpower=st.booleans(),
    specialties=st.tuples(st.booleans(), st.booleans()),
)
def test_random_mid_size(
    left: int, right: int, difficulties: tuple[int, int], willpower: bool, specialties: tuple[bool, bool]
) -> None:
    old = reference.roll_odds(left, difficulties[0], willpower=willpower, specialty=specialties[0])
    new = odds.roll_odds(left, difficulties[0], willpower=willpower, specialty=specialties[0])
    assert_same(old, new)
    assert [old.at_least(k) for k in range(0, 10)] == [new.at_least(k) for k in range(0, 10)]
    options = {
        "willpower": willpower,
        "attacker_specialty": specialties[0],
        "defender_specialty": specialties[1],
    }
    assert_same(
        reference.resisted_odds(left, right, *difficulties, **options),
        odds.resisted_odds(left, right, *difficulties, **options),
    )


@pytest.mark.parametrize("difficulty", [2, 6, 10])
def test_fifty_with_a_specialty(difficulty: int) -> None:
    assert_same(
        reference.roll_odds(50, difficulty, willpower=True, specialty=True),
        odds.roll_odds(50, difficulty, willpower=True, specialty=True),
    )


def test_fifty_against_fifty() -> None:
    options = {"willpower": True, "attacker_specialty": True, "defender_specialty": True}
    assert_same(reference.resisted_odds(50, 50, 7, 5, **options), odds.resisted_odds(50, 50, 7, 5, **options))
    assert_same(reference.resisted_odds(50, 50), odds.resisted_odds(50, 50))
