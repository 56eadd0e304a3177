"""Decanter's fast exact odds give the very same Fractions (and dict orders) as the code they
replaced (tests/helpers/odds_reference/decanter.py): every quality, Take Half, force, DCs and aid
on small pools, contests of 0..12 against 0..12, random mid-size cases, and a few pools of 50."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from plugins.decanter import odds
from tests.helpers.odds_reference import assert_same
from tests.helpers.odds_reference import decanter as reference

QUALITIES = (-2, -1, 0, 1, 2)
HELPERS: tuple[tuple[tuple[int, bool], ...], ...] = (
    (),
    ((3, False),),
    ((0, False), (5, True)),
    ((4, True), (2, False), (6, False)),
)


def both(name: str, *args: Any, **kwargs: Any) -> tuple[Any, Any]:
    """The reference's and the new module's answer (or the ValueError each raises)."""
    answers = []
    for module in (reference, odds):
        try:
            answers.append(getattr(module, name)(*args, **kwargs))
        except ValueError as error:
            answers.append(str(error))
    return answers[0], answers[1]


@pytest.mark.parametrize("half", [False, True])
@pytest.mark.parametrize("quality", QUALITIES)
def test_pools_on_a_grid(quality: int, half: bool) -> None:
    for pool in range(-1, 13):
        assert_same(*both("pool_distribution", pool, quality, half))


@pytest.mark.parametrize("cap", [-1, 0, 1, 5, 9])
@pytest.mark.parametrize("helpers", HELPERS)
def test_aid(helpers: Sequence[tuple[int, bool]], cap: int) -> None:
    assert_same(*both("aid_distribution", helpers, cap))


@pytest.mark.parametrize("helpers", HELPERS)
@pytest.mark.parametrize("half", [False, True])
@pytest.mark.parametrize("quality", QUALITIES)
def test_rolls_on_a_grid(quality: int, half: bool, helpers: Sequence[tuple[int, bool]]) -> None:
    for pool in range(0, 13):
        for dc in (None, 0, 1, 3, 8):
            for force in (False, True):
                for cap in (0, 2, 5):
                    old, new = both(
                        "roll_odds",
                        pool,
                        dc=dc,
                        quality=quality,
                        half=half,
                        force=force,
                        helpers=helpers,
                        aid_cap=cap,
                    )
                    assert_same(old, new)
                    if not isinstance(old, str):
                        assert old.mean == new.mean
                        assert [old.at_least(k) for k in range(-1, 9)] == [
                            new.at_least(k) for k in range(-1, 9)
                        ]


@pytest.mark.parametrize("right_quality", QUALITIES)
@pytest.mark.parametrize("left_quality", QUALITIES)
def test_contests_on_a_grid(left_quality: int, right_quality: int) -> None:
    for left in range(-1, 13):
        for right in range(-1, 13):
            assert_same(*both("contest_odds", left, right, left_quality, right_quality))


@settings(max_examples=40, deadline=None)
@given(
    left=st.integers(0, 30),
    right=st.integers(0, 30),
    qualities=st.tuples(st.sampled_from(QUALITIES), st.sampled_from(QUALITIES)),
    dc=st.none() | st.integers(0, 20),
    half=st.booleans(),
    helpers=st.lists(st.tuples(st.integers(0, 20), st.booleans()), max_size=3),
)
def test_random_mid_size(
    left: int,
    right: int,
    qualities: tuple[int, int],
    dc: int | None,
    half: bool,
    helpers: list[tuple[int, bool]],
) -> None:
    assert_same(*both("contest_odds", left, right, *qualities))
    assert_same(*both("contest_odds", left, left, *qualities))
    assert_same(*both("roll_odds", left, dc=dc, quality=qualities[0], half=half, helpers=helpers))


@pytest.mark.parametrize("quality", QUALITIES)
def test_fifty_against_fifty(quality: int) -> None:
    assert_same(*both("contest_odds", 50, 50, quality, quality))


def test_fifty_with_aid() -> None:
    assert_same(*both("roll_odds", 45, dc=30, quality=2, helpers=[(50, False), (50, False), (20, True)]))
    assert_same(*both("contest_odds", 50, 49, 2, -1))
