"""Night Wanderers' quality odds give the very same Fractions, in the same order, as the code they
replaced (tests/helpers/odds_reference/nightwanderers.py); its successes and contests are
gateway.rules.binomial, held to its reference in tests/pravidla/test_odds_exact.py."""

from __future__ import annotations

import pytest

from plugins.nightwanderers import odds
from tests.helpers.odds_reference import assert_same
from tests.helpers.odds_reference import nightwanderers as reference


@pytest.mark.parametrize("difficulty", range(0, 9))
def test_qualities_on_a_grid(difficulty: int) -> None:
    for pool in [*range(-1, 13), 25, 50]:
        for need in range(-1, 8):
            assert_same(reference.qualities(pool, difficulty, need), odds.qualities(pool, difficulty, need))
