"""Exact Decanter odds by convolution: net successes and degrees, with dice qualities, Take Half,
Aid Another, automatic success and PC-against-PC contests. Pure; probabilities are ``Fraction``s.

House rules (keyword arguments, the book's by default; see ``mechanics``): ``tens_double`` and
``ones_subtract`` change the die (``Die``), ``automatic_success`` off rolls every pool."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property, lru_cache
from itertools import pairwise
from math import lcm

from gateway.rules.counts import convolve, cumulative, exact_sum, power
from plugins.decanter.mechanics import MAX_CONTEST_ROUNDS, degree, face_value, is_automatic, take_half

Dist = dict[int, Fraction]

# The die's switches: (tens_double, ones_subtract); the book's is (True, True).
Die = tuple[bool, bool]
BOOK: Die = (True, True)


def _plain(die: Die) -> dict[int, int]:
    """One die's net successes, as integer weights over ten faces (the book's: -1: 1, 0: 4, 1: 4, 2: 1)."""
    weights: dict[int, int] = {}
    for face in range(1, 11):
        value = face_value(face, *die)
        weights[value] = weights.get(value, 0) + 1
    return weights


def _die(quality: int, die: Die = BOOK) -> tuple[dict[int, int], int]:
    """One die's distribution as (weights, denominator) for a quality that acts die by die."""
    plain = _plain(die)
    one = face_value(1, *die)
    if quality == 2:
        # Major Advantage: a failed face (1-5) keeps its own value and adds one re-rolled die.
        weights: dict[int, int] = {}
        for face in range(1, 11):
            own = face_value(face, *die)
            if face >= 6:
                weights[own] = weights.get(own, 0) + 10
                continue
            for value, w in plain.items():
                weights[own + value] = weights.get(own + value, 0) + w
        return weights, 100
    if quality == -2:
        # Major Disadvantage: a 1 still takes one away, 2-5 gives nothing, 6-10 counts only its re-roll.
        weights = {one: 1 * 10}
        weights[0] = weights.get(0, 0) + 4 * 10
        for value, w in plain.items():
            weights[value] = weights.get(value, 0) + 5 * w
        return weights, 100
    return plain, 10


@dataclass(frozen=True)
class _Counts:
    """A distribution as integer counts: P(low + i) = counts[i] / denominator."""

    low: int
    counts: tuple[int, ...]
    denominator: int

    def items(self) -> list[tuple[int, int]]:
        return [(self.low + i, c) for i, c in enumerate(self.counts) if c]

    def at_most(self, value: int) -> int:
        """The count of every value up to ``value``."""
        i = min(value - self.low, len(self.counts) - 1)
        return self._cumulative[i] if i >= 0 else 0

    @cached_property
    def _cumulative(self) -> list[int]:
        return cumulative(self.counts)

    def dist(self) -> Dist:
        return {v: Fraction(c, self.denominator) for v, c in self.items()}


def _point(value: int) -> _Counts:
    return _Counts(value, (1,), 1)


def _power(quality: int, count: int, die: Die = BOOK) -> _Counts:
    """The sum of ``count`` independent dice, exactly."""
    weights, denominator = _die(quality, die)
    low = min(weights)
    row = [weights.get(v, 0) for v in range(low, max(weights) + 1)]
    count = max(count, 0)
    return _Counts(low * count, power(row, count), denominator**count)


# Bounded: a pool of 50 with Major Advantage is ~200 counts of up to ~330 bits (~25 kB with its prefix
# sums), so 256 pools stay under 10 MB, and every pool up to 50 in each quality fits.
@lru_cache(maxsize=256)
def _pool_counts(pool: int, quality: int, half: bool, die: Die = BOOK) -> _Counts:
    if half and quality == 0:
        return _point(take_half(pool))
    if quality in (-1, 1):
        single = _power(0, pool, die)
        other = _point(take_half(pool)) if half else single
        return _best_of(single, other) if quality == 1 else _worst_of(single, other)
    return _power(quality, pool, die)


def pool_distribution(
    pool: int, quality: int = 0, half: bool = False, *, tens_double: bool = True, ones_subtract: bool = True
) -> Dist:
    """Net successes of one roll of ``pool`` dice with a quality (-2..+2), or Take Half."""
    return _checked(pool, quality, half, (tens_double, ones_subtract)).dist()


def _checked(pool: int, quality: int, half: bool, die: Die = BOOK) -> _Counts:
    if half and quality in (-2, 2):
        raise ValueError("Take Half works with Advantage or Disadvantage only")
    return _pool_counts(max(pool, 0), quality, half, die)


def _span(a: _Counts, b: _Counts) -> range:
    return range(min(a.low, b.low), max(a.low + len(a.counts), b.low + len(b.counts)))


def _best_of(a: _Counts, b: _Counts) -> _Counts:
    """max(A, B): P(max <= v) = P(A <= v) P(B <= v)."""
    span = _span(a, b)
    at_most = [a.at_most(v) * b.at_most(v) for v in span]
    return _Counts(
        span.start, tuple(y - x for x, y in pairwise([0, *at_most])), a.denominator * b.denominator
    )


def _worst_of(a: _Counts, b: _Counts) -> _Counts:
    """min(A, B): P(min > v) = P(A > v) P(B > v)."""
    span = _span(a, b)
    above = [(a.denominator - a.at_most(v)) * (b.denominator - b.at_most(v)) for v in span]
    total = a.denominator * b.denominator
    return _Counts(span.start, tuple(x - y for x, y in pairwise([total, *above])), total)


@lru_cache(maxsize=64)
def _aid_counts(helpers: tuple[tuple[int, bool], ...], cap: int, die: Die = BOOK) -> _Counts:
    """Bonus dice 0..cap: capping each partial sum is exact, since no helper takes any away."""
    if cap <= 0:
        return _point(cap)  # every total is capped to it
    total: tuple[int, ...] = (1,)
    denominator = 1
    for pool, npc in helpers:
        one = _point(take_half(pool)) if npc else _pool_counts(max(pool, 0), 0, False, die)
        clamped = [0] * (max(one.low + len(one.counts), 1))
        for v, c in one.items():
            clamped[max(v, 0)] += c
        summed = list(convolve(total, clamped))
        total = (*summed[:cap], sum(summed[cap:]))
        denominator *= one.denominator
    return _Counts(0, total, denominator)


def aid_distribution(
    helpers: Sequence[tuple[int, bool]], cap: int = 5, *, tens_double: bool = True, ones_subtract: bool = True
) -> Dist:
    """Bonus dice from helpers given as (pool, npc): each adds its net successes (never below 0),
    an NPC half its pool, all capped at ``cap``."""
    return _aid_counts(tuple(helpers), cap, (tens_double, ones_subtract)).dist()


@dataclass(frozen=True)
class RollOdds:
    pool: int
    dc: int | None
    successes: Dist  # an automatic success counts as the DC
    degrees: dict[str, Fraction]

    @property
    def mean(self) -> Fraction:
        return exact_sum(v * p for v, p in self.successes.items())

    def at_least(self, k: int) -> Fraction:
        return exact_sum(p for v, p in self.successes.items() if v >= k)


def roll_odds(
    pool: int,
    *,
    dc: int | None = None,
    quality: int = 0,
    half: bool = False,
    force: bool = False,
    helpers: Sequence[tuple[int, bool]] = (),
    aid_cap: int = 5,
    tens_double: bool = True,
    ones_subtract: bool = True,
    automatic_success: bool = True,
) -> RollOdds:
    """Exact odds of one roll as the ``roll`` command makes it (helpers' bonus dice included)."""
    die = (tens_double, ones_subtract)
    aid = _aid_counts(tuple(helpers), aid_cap, die)
    rolls: list[tuple[int, _Counts | None]] = []  # (bonus count, the pool's counts or None if automatic)
    for bonus, c_bonus in aid.items():
        full = max(pool, 0) + bonus
        automatic = dc is not None and not force and automatic_success and is_automatic(full, dc)
        rolls.append((c_bonus, None if automatic else _checked(full, quality, half, die)))
    scale = lcm(*(r.denominator for _, r in rolls if r is not None))
    successes: dict[int, int] = {}
    degrees: dict[str, int] = {}
    for c_bonus, counts in rolls:
        if counts is None:
            assert dc is not None
            successes[dc] = successes.get(dc, 0) + c_bonus * scale
            degrees["automatic"] = degrees.get("automatic", 0) + c_bonus * scale
            continue
        weight = c_bonus * (scale // counts.denominator)
        for v, c in counts.items():
            successes[v] = successes.get(v, 0) + weight * c
            if dc is not None:
                d = degree(v, dc)
                degrees[d] = degrees.get(d, 0) + weight * c
    denominator = aid.denominator * scale
    return RollOdds(
        max(pool, 0),
        dc,
        {v: Fraction(c, denominator) for v, c in sorted(successes.items())},
        {d: Fraction(c, denominator) for d, c in degrees.items()},
    )


@dataclass(frozen=True)
class ContestOdds:
    left: Fraction
    right: Fraction
    unbroken: Fraction


def contest_odds(
    left_pool: int,
    right_pool: int,
    left_quality: int = 0,
    right_quality: int = 0,
    *,
    tens_double: bool = True,
    ones_subtract: bool = True,
) -> ContestOdds:
    """PC against PC with the tie rules: larger pool wins a tie; equal pools re-roll (up to the
    mechanics' round limit, after which the contest stays unbroken)."""
    left_pool, right_pool = max(left_pool, 0), max(right_pool, 0)
    die = (tens_double, ones_subtract)
    a = _pool_counts(left_pool, left_quality, False, die)
    b = _pool_counts(right_pool, right_quality, False, die)
    total = a.denominator * b.denominator
    win = sum(c * (a.denominator - a.at_most(y)) for y, c in b.items())
    tie = sum(c * a.counts[y - a.low] for y, c in b.items() if 0 <= y - a.low < len(a.counts))
    lose = total - win - tie
    if left_pool != right_pool:
        if left_pool > right_pool:
            return ContestOdds(Fraction(win + tie, total), Fraction(lose, total), Fraction(0))
        return ContestOdds(Fraction(win, total), Fraction(lose + tie, total), Fraction(0))
    if left_pool == 0:
        return ContestOdds(Fraction(0), Fraction(0), Fraction(1))
    rounds = MAX_CONTEST_ROUNDS
    if tie == total:
        return ContestOdds(Fraction(win * rounds, total), Fraction(lose * rounds, total), Fraction(1))
    # Re-rolled ties: P(left) = P(left wins a round) / (1 - t) * (1 - t^rounds), t = P(a round ties).
    # Built in this order, no step takes the gcd of two huge numbers (t^rounds has ``rounds`` times
    # the digits of t), only of a huge and a small one.
    tied = Fraction(tie, total) ** rounds
    settled = 1 - tied
    return ContestOdds(Fraction(win, total - tie) * settled, Fraction(lose, total - tie) * settled, tied)
