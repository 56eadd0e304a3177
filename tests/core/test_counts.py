"""gateway.rules.counts: the packed (Kronecker) product agrees with the schoolbook one, powers with
repeated products, truncation with cutting the full product, and exact_sum with Fraction addition."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from gateway.rules.counts import convolve, exact_sum, power

coefficients = st.lists(st.integers(0, 10**40), min_size=1, max_size=12)
signed = st.lists(st.integers(-(10**6), 10**6), min_size=1, max_size=12)


def schoolbook(a: list[int], b: list[int]) -> tuple[int, ...]:
    out = [0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            out[i + j] += x * y
    return tuple(out)


@given(a=coefficients | signed, b=coefficients | signed, length=st.none() | st.integers(1, 30))
def test_products(a: list[int], b: list[int], length: int | None) -> None:
    full = schoolbook(a, b)
    assert convolve(a, b, length) == (full if length is None else full[:length])


@given(base=coefficients | signed, n=st.integers(0, 7), length=st.none() | st.integers(1, 20))
def test_powers(base: list[int], n: int, length: int | None) -> None:
    expected: tuple[int, ...] = (1,)
    for _ in range(n):
        expected = schoolbook(list(expected), base)
    assert power(base, n, length) == (expected if length is None else expected[:length])


@given(st.lists(st.fractions(), max_size=20))
def test_exact_sum(terms: list[Fraction]) -> None:
    assert exact_sum(terms) == sum(terms, Fraction(0))
