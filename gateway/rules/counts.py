"""Exact distributions as integer counts over one common denominator (pure).

A die or a pool is a polynomial: ``counts[i]`` is the number of equally likely ways (out of a
denominator kept beside it) to get the i-th value. Python integers are exact and far faster than
``Fraction`` arithmetic, so the odds modules work in counts and make ``Fraction``s only at the end.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import accumulate

Counts = tuple[int, ...]


def convolve(a: Sequence[int], b: Sequence[int], length: int | None = None) -> Counts:
    """The product of two polynomials, keeping the first ``length`` coefficients (all if None)."""
    if not a or not b:
        return ()
    size = len(a) + len(b) - 1 if length is None else min(length, len(a) + len(b) - 1)
    out = [0] * size
    for i, x in enumerate(a[:size]):
        if x:
            for j, y in enumerate(b[: size - i], i):
                out[j] += x * y
    return tuple(out)


def power(base: Sequence[int], n: int, length: int | None = None) -> Counts:
    """``base`` to the ``n``-th power (n >= 0) by repeated squaring, truncated like ``convolve``."""
    result: Counts = (1,)
    square = tuple(base)
    while n:
        if n & 1:
            result = convolve(result, square, length)
        n >>= 1
        if n:
            square = convolve(square, square, length)
    return result


def cumulative(counts: Sequence[int]) -> list[int]:
    """Prefix sums: element i is the sum of ``counts[0..i]``."""
    return list(accumulate(counts))
