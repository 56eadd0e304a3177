"""Exact odds for Nightcap rolls and contests (pure; no dice are thrown).

The distribution of a pool's *dice total* is the n-fold convolution of the single die's distribution
(RULINGS: 1 -> -1, 2-6 -> 0, 7-9 -> +1, 10 -> +2), kept as integer counts over ``10**n`` so that every
probability is an exact fraction; floats are only made at the very end. A pool of 0 or less is one
chance die (10 -> +1, 1 -> -1, else 0). Willpower adds +1 to the final total but the botch is still read
from the dice total (``mechanics.degree``), so the odds keep the dice total and the bonus apart.

Contests use the same reading as ``mechanics.contest``: both final totals below zero is a both-botch;
otherwise equal totals are a deadlock and the higher total wins by the margin.

House rules (keyword arguments, the book's by default; see ``mechanics``) change the die's counts
(``tens_double``, ``ones_subtract``) or take the chance die away (``chance_die``).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

from plugins.nightcap.mechanics import DEGREES, degree, face_value, margin_outcome

SIDES = 10
BANDS = ("narrow", "clear", "decisive")


def _weights(values: list[int]) -> tuple[int, tuple[int, ...]]:
    """(lowest value, counts from it upwards) for a list of equally likely values."""
    low, high = min(values), max(values)
    counts = [0] * (high - low + 1)
    for v in values:
        counts[v - low] += 1
    return low, tuple(counts)


# One die: counts over 10 of each value, from -1 upwards: (-1: 1, 0: 5, +1: 3, +2: 1).
DIE = _weights([face_value(f) for f in range(1, SIDES + 1)])
# The chance die: (-1: 1, 0: 8, +1: 1).
CHANCE = _weights([1 if f == 10 else -1 if f == 1 else 0 for f in range(1, SIDES + 1)])


@dataclass(frozen=True)
class Distribution:
    """Integer counts of each value from ``low`` upwards; probability = count / ``denominator``."""

    low: int
    counts: tuple[int, ...]
    denominator: int

    @property
    def high(self) -> int:
        return self.low + len(self.counts) - 1

    def count(self, value: int) -> int:
        i = value - self.low
        return self.counts[i] if 0 <= i < len(self.counts) else 0

    def probability(self, value: int) -> Fraction:
        return Fraction(self.count(value), self.denominator)

    def items(self) -> list[tuple[int, int]]:
        return [(self.low + i, c) for i, c in enumerate(self.counts) if c]

    def shifted(self, by: int) -> Distribution:
        return Distribution(self.low + by, self.counts, self.denominator)


def _convolve(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    out = [0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        if x:
            for j, y in enumerate(b):
                out[i + j] += x * y
    return tuple(out)


def dice_total_distribution(
    pool: int, *, tens_double: bool = True, ones_subtract: bool = True, chance_die: bool = True
) -> Distribution:
    """The exact distribution of the dice total for ``pool`` (a chance die at 0 or below)."""
    if pool <= 0:
        if not chance_die:
            return Distribution(0, (1,), 1)  # no die: a dice total of 0
        low, counts = CHANCE
        return Distribution(low, counts, SIDES)
    return _pool_distribution(pool, tens_double, ones_subtract)


@lru_cache(maxsize=256)
def _pool_distribution(pool: int, tens_double: bool = True, ones_subtract: bool = True) -> Distribution:
    # Square-and-multiply over the die's counts: O(log n) convolutions of growing length.
    if tens_double and ones_subtract:
        die_low, die_counts = DIE
    else:
        faces = range(1, SIDES + 1)
        die_low, die_counts = _weights(
            [face_value(f, tens_double=tens_double, ones_subtract=ones_subtract) for f in faces]
        )
    result: tuple[int, ...] = (1,)
    base = die_counts
    n = pool
    while n:
        if n & 1:
            result = _convolve(result, base)
        n >>= 1
        if n:
            base = _convolve(base, base)
    return Distribution(die_low * pool, result, SIDES**pool)


@dataclass(frozen=True)
class RollOdds:
    """The exact odds of one roll: each final total, each degree, and at least 1."""

    pool: int
    willpower: bool
    bonus: int
    dice: Distribution
    totals: dict[int, Fraction]
    degrees: dict[str, Fraction]

    @property
    def chance_die(self) -> bool:
        return self.pool <= 0

    @property
    def at_least_one(self) -> Fraction:
        return sum((p for t, p in self.totals.items() if t >= 1), Fraction(0))

    def final_distribution(self) -> Distribution:
        """The distribution of the final total (dice total + Willpower + bonus)."""
        return self.dice.shifted(self.added)

    @property
    def added(self) -> int:
        return (1 if self.willpower else 0) + self.bonus

    def as_result(self) -> dict[str, Any]:
        return {
            "pool": self.pool,
            "chance_die": self.chance_die,
            "willpower": self.willpower,
            "bonus": self.bonus,
            "degrees": {name: float(p) for name, p in self.degrees.items()},
            "totals": {str(t): float(p) for t, p in sorted(self.totals.items())},
            "at_least_1": float(self.at_least_one),
            "exact": {
                "denominator": str(self.dice.denominator),
                "degrees": {name: _frac(p) for name, p in self.degrees.items()},
                "at_least_1": _frac(self.at_least_one),
            },
        }


def _frac(p: Fraction) -> str:
    return f"{p.numerator}/{p.denominator}"


def roll_odds(
    pool: int,
    willpower: bool = False,
    bonus: int = 0,
    *,
    tens_double: bool = True,
    ones_subtract: bool = True,
    chance_die: bool = True,
) -> RollOdds:
    """Exact odds for ``pool`` dice, with Willpower (+1) and any guaranteed ``bonus`` successes."""
    dist = dice_total_distribution(
        pool, tens_double=tens_double, ones_subtract=ones_subtract, chance_die=chance_die
    )
    added = (1 if willpower else 0) + bonus
    degrees = {name: 0 for name in DEGREES}
    totals: dict[int, Fraction] = {}
    for dice_total, count in dist.items():
        total = dice_total + added
        degrees[degree(dice_total, total)] += count
        totals[total] = Fraction(count, dist.denominator)
    return RollOdds(
        pool=pool,
        willpower=willpower,
        bonus=bonus,
        dice=dist,
        totals=totals,
        degrees={name: Fraction(c, dist.denominator) for name, c in degrees.items()},
    )


@dataclass(frozen=True)
class ContestOdds:
    left: RollOdds
    right: RollOdds
    outcomes: dict[str, Fraction]  # left, right, deadlock, both_botch
    margins: dict[str, dict[str, Fraction]]  # side -> band -> probability

    def as_result(self) -> dict[str, Any]:
        return {
            "sides": [self.left.as_result(), self.right.as_result()],
            "outcomes": {k: float(v) for k, v in self.outcomes.items()},
            "margins": {
                side: {b: float(p) for b, p in bands.items()} for side, bands in self.margins.items()
            },
            "exact": {
                "outcomes": {k: _frac(v) for k, v in self.outcomes.items()},
                "margins": {
                    side: {b: _frac(p) for b, p in bands.items()} for side, bands in self.margins.items()
                },
            },
        }


def _band_ranges() -> list[tuple[str, int, int | None]]:
    """Margin bands as (name, lowest margin, highest margin or None), from ``margin_outcome``."""
    bands: dict[str, list[int]] = {}
    for m in range(1, 5):
        bands.setdefault(margin_outcome(m), []).append(m)
    ranges: list[tuple[str, int, int | None]] = []
    for name in BANDS:
        ms = bands[name]
        ranges.append((name, min(ms), None if name == "decisive" else max(ms)))
    return ranges


def contest_odds(left: RollOdds, right: RollOdds) -> ContestOdds:
    """Exact odds of each contest outcome and each margin band, for both sides.

    For every right total r the left totals that beat it by a band form a range, so prefix sums over
    the left counts make this linear in the number of totals. Pairs where both totals are below zero
    are both-botches and count in no band.
    """
    ld = left.final_distribution()
    rd = right.final_distribution()
    prefix = [0]
    for c in ld.counts:
        prefix.append(prefix[-1] + c)

    def left_mass(lo: int, hi: int | None) -> int:
        """Sum of left counts for totals in [lo, hi] (hi None: no upper end)."""
        lo = max(lo, ld.low)
        hi = ld.high if hi is None else min(hi, ld.high)
        if lo > hi:
            return 0
        return prefix[hi - ld.low + 1] - prefix[lo - ld.low]

    ranges = _band_ranges()
    left_bands = {name: 0 for name in BANDS}
    right_bands = {name: 0 for name in BANDS}
    deadlock = both_botch = 0
    for r, rc in rd.items():
        if r < 0:
            # A left total below 0 as well is a both-botch (deadlocks included); the right side
            # cannot win, since a lower left total would be below 0 too.
            both_botch += rc * left_mass(ld.low, -1)
            for name, lo, hi in ranges:
                left_bands[name] += rc * left_mass(max(r + lo, 0), None if hi is None else r + hi)
            continue
        deadlock += rc * ld.count(r)
        for name, lo, hi in ranges:
            left_bands[name] += rc * left_mass(r + lo, None if hi is None else r + hi)
            right_bands[name] += rc * left_mass(ld.low if hi is None else r - hi, r - lo)
    den = ld.denominator * rd.denominator
    margins = {
        "left": {n: Fraction(c, den) for n, c in left_bands.items()},
        "right": {n: Fraction(c, den) for n, c in right_bands.items()},
    }
    outcomes = {
        "left": sum(margins["left"].values(), Fraction(0)),
        "right": sum(margins["right"].values(), Fraction(0)),
        "deadlock": Fraction(deadlock, den),
        "both_botch": Fraction(both_botch, den),
    }
    return ContestOdds(left=left, right=right, outcomes=outcomes, margins=margins)
