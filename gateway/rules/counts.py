"""Exact distributions as integer counts over one common denominator (pure).

A die or a pool is a polynomial: ``counts[i]`` is the number of equally likely ways (out of a
denominator kept beside it) to get the i-th value. Python integers are exact and far faster than
``Fraction`` arithmetic, so the odds modules work in counts and make ``Fraction``s only at the end.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from fractions import Fraction
from itertools import accumulate
from math import lcm

Counts = tuple[int, ...]


def convolve(a: Sequence[int], b: Sequence[int], length: int | None = None) -> Counts:
    """The product of two polynomials, keeping the first ``length`` coefficients (all if None)."""
    if not a or not b:
        return ()
    size = len(a) + len(b) - 1 if length is None else min(length, len(a) + len(b) - 1)
    if min(a) >= 0 and min(b) >= 0:
        return _packed_product(a, b, size)
    out = [0] * size
    for i, x in enumerate(a[:size]):
        if x:
            for j, y in enumerate(b[: size - i], i):
                out[j] += x * y
    return tuple(out)


def _packed_product(a: Sequence[int], b: Sequence[int], size: int) -> Counts:
    """Kronecker substitution: with coefficients >= 0, each polynomial packed into one integer
    (one fixed-width slot per coefficient, wide enough for any coefficient of the product) is
    multiplied by CPython's Karatsuba in one call instead of len(a) * len(b) products."""
    bits = max(a).bit_length() + max(b).bit_length() + min(len(a), len(b)).bit_length()
    width = bits // 8 + 1

    def pack(p: Sequence[int]) -> int:
        return int.from_bytes(b"".join(c.to_bytes(width, "little") for c in p), "little")

    packed = pack(a)
    product = packed * (packed if a is b else pack(b))
    raw = product.to_bytes((len(a) + len(b)) * width, "little")
    return tuple(int.from_bytes(raw[i * width : (i + 1) * width], "little") for i in range(size))


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


def exact_sum(terms: Iterable[Fraction]) -> Fraction:
    """The sum of ``terms``, exactly: numerators over the least common denominator, then one
    reduction (adding Fractions one by one reduces at every step)."""
    fractions = list(terms)
    if not fractions:
        return Fraction(0)
    denominator = lcm(*(f.denominator for f in fractions))
    return Fraction(sum(f.numerator * (denominator // f.denominator) for f in fractions), denominator)
