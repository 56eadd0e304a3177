"""The hand-written chi-square tail and the fit tests of ``stats``, against published values."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from gateway.features.stats.fit import mixed, pearson, pooled
from gateway.features.stats.pvalue import chi_square_p, upper_gamma

# (statistic, df, P(X >= statistic)): the 5%, 1% and 0.1% critical values of the usual tables
# (NIST/SEMATECH e-Handbook 1.3.6.7.4) and closed forms (df 2: exp(-x/2); df 1: erfc(sqrt(x/2))).
KNOWN = [
    (3.841, 1, 0.05),
    (6.635, 1, 0.01),
    (10.828, 1, 0.001),
    (5.991, 2, 0.05),
    (9.210, 2, 0.01),
    (16.919, 9, 0.05),
    (21.666, 9, 0.01),
    (27.877, 9, 0.001),
    (18.307, 10, 0.05),
    (67.505, 50, 0.05),
    (124.342, 100, 0.05),
]


@pytest.mark.parametrize(("statistic", "df", "p"), KNOWN)
def test_the_tail_matches_the_tables(statistic: float, df: int, p: float) -> None:
    assert chi_square_p(statistic, df) == pytest.approx(p, rel=2e-3)


@pytest.mark.parametrize("x", [0.01, 0.5, 1.0, 3.0, 10.0, 40.0, 200.0])
def test_closed_forms(x: float) -> None:
    assert chi_square_p(x, 2) == pytest.approx(math.exp(-x / 2), rel=1e-12)
    assert chi_square_p(x, 1) == pytest.approx(math.erfc(math.sqrt(x / 2)), rel=1e-10, abs=1e-300)
    # Q(1/2 + 1, x) = erfc(sqrt x) + exp(-x) / sqrt(pi x) ... and Q(n, x) for whole n is Poisson's tail.
    n = 4
    poisson = math.exp(-x) * sum(x**k / math.factorial(k) for k in range(n))
    assert upper_gamma(n, x) == pytest.approx(poisson, rel=1e-10, abs=1e-300)


def test_edges() -> None:
    assert chi_square_p(0.0, 3) == 1.0
    assert chi_square_p(-1.0, 3) == 1.0
    assert 0.0 <= chi_square_p(1e6, 3) < 1e-100
    with pytest.raises(ValueError):
        chi_square_p(1.0, 0)
    with pytest.raises(ValueError):
        upper_gamma(0.0, 1.0)


def test_small_cells_are_pooled_with_their_neighbours() -> None:
    expected = {"a": 1.0, "b": 2.0, "c": 3.0, "d": 10.0, "e": 1.0}
    assert pooled(list(expected), expected) == [["a", "b", "c"], ["d", "e"]]
    assert pooled(["a"], {"a": 1.0}) == [["a"]]


def test_pearson_by_hand() -> None:
    fit = pearson({"a": 30, "b": 10}, {"a": 20.0, "b": 20.0}, ["a", "b"])
    assert fit is not None
    assert (fit.statistic, fit.df) == (10.0, 1)
    assert fit.p == pytest.approx(0.001565, rel=1e-3)
    assert pearson({"a": 3}, {"a": 3.0}, ["a"]) is None


def test_the_mixed_test_is_pearson_for_rolls_of_one_kind() -> None:
    odds = {"x": Fraction(1, 2), "y": Fraction(1, 3), "z": Fraction(1, 6)}
    observed = {"x": 55, "y": 25, "z": 20}
    expected = {k: 100 * float(p) for k, p in odds.items()}
    one = mixed([(100, odds)], observed, ["x", "y", "z"])
    split = mixed([(60, odds), (40, odds)], observed, ["x", "y", "z"])
    plain = pearson(observed, expected, ["x", "y", "z"])
    assert one is not None and split is not None and plain is not None
    assert one.statistic == pytest.approx(plain.statistic, rel=1e-9)
    assert split.statistic == pytest.approx(plain.statistic, rel=1e-9)
    assert one.df == plain.df == 2


def test_the_mixed_test_weighs_each_kind_by_its_own_odds() -> None:
    # 100 sure successes and 100 coin flips: 150 successes is exactly what is expected...
    sure = {"s": Fraction(1), "f": Fraction(0)}
    coin = {"s": Fraction(1, 2), "f": Fraction(1, 2)}
    fit = mixed([(100, sure), (100, coin)], {"s": 150, "f": 50}, ["f", "s"])
    assert fit is not None and fit.statistic == pytest.approx(0.0, abs=1e-9)
    # ...and 160 is two standard deviations of the coins alone (variance 25), not of 200 pooled rolls.
    fit = mixed([(100, sure), (100, coin)], {"s": 160, "f": 40}, ["f", "s"])
    assert fit is not None and fit.statistic == pytest.approx(4.0, rel=1e-9)
