"""Exact Dramatic Systems odds: net successes and degrees, with Willpower, specialty and the botch rule.

Without a specialty the distribution is finite and exact. With one, a 10 can chain without end; the
distribution is exact for every value up to ``limit`` and the rest is one tail bucket whose mass is
exactly one minus the others, so degree odds (botch, failure, success) are always exact.

House rules (keyword arguments, the book's by default; see ``mechanics``) that only move the
specialty's extra dice keep the fast polynomial path; the others go through ``_house_counts``, a
convolution over the dice that keeps what the botch and the cancelling need.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from gateway.rules.counts import cumulative, exact_sum, power
from plugins.dramatic.mechanics import Double, Explode, clamp_difficulty, doubles, explodes

Dist = dict[int, Fraction]


def chain_distribution(difficulty: int, upper: int) -> Dist:
    """Successes from the extra dice one 10 starts (values up to ``upper``; exact there)."""
    d = clamp_difficulty(difficulty)
    tenth = Fraction(1, 10)
    out: Dist = {}
    for j in range(upper + 1):
        p = tenth**j * Fraction(d - 1, 10)
        if j >= 1:
            p += tenth ** (j - 1) * Fraction(10 - d, 10)
        out[j] = p
    return out


def die_distribution(difficulty: int, specialty: bool, upper: int) -> Dist:
    """One original die's contribution: a 1 is -1, a face at or above the difficulty +1 (a 10 with a
    specialty adds its chain), anything else 0."""
    d = clamp_difficulty(difficulty)
    out: Dist = {-1: Fraction(1, 10), 0: Fraction(d - 2, 10), 1: Fraction(10 - d, 10)}
    if specialty:
        for j, p in chain_distribution(d, upper).items():
            if 1 + j <= upper:
                out[1 + j] = out.get(1 + j, Fraction(0)) + Fraction(1, 10) * p
    else:
        out[1] += Fraction(1, 10)
    return {k: v for k, v in out.items() if v}


@dataclass(frozen=True)
class RollOdds:
    pool: int
    difficulty: int
    successes: Dist  # net successes 0..limit, exact
    tail: Fraction  # P(net successes > limit); zero without a specialty unless the pool is huge
    limit: int
    botch: Fraction
    failure: Fraction
    success: Fraction

    def at_least(self, k: int) -> Fraction:
        return exact_sum([*(p for v, p in self.successes.items() if v >= k), self.tail])

    @property
    def mean_lower_bound(self) -> Fraction:
        return exact_sum([*(v * p for v, p in self.successes.items()), (self.limit + 1) * self.tail])


def _die_polynomial(difficulty: int, specialty: bool) -> tuple[int, ...]:
    """One die as an integer polynomial ``R`` (see ``_net_counts``)."""
    d = difficulty
    if not specialty:
        # 10 * P(x) * x = 1 + (d-2) x + (11-d) x^2: a 1, a face below d, a face at d or more.
        return (1, d - 2, 11 - d)
    # With a specialty a face v >= 1 has chance c / 10^(v+1), c = 99 - 9d (a 10 chains on: another
    # success with 1/10, a stop with (10-d)/10 or (d-1)/10). With y = x/10 that makes
    # 100 y P(x) = Q(y) = 1 + a y + b (y^2 + y^3 + ...) with a = 10(d-2), b = 10c, and
    # Q(y) (1 - y) = R(y) = 1 + (a-1) y + (b-a) y^2, a finite polynomial.
    a, b = 10 * (d - 2), 10 * (99 - 9 * d)
    return (1, a - 1, b - a)


# Bounded; an entry is at most limit + 1 (41) integers, so 512 of them are a few hundred kB.
@lru_cache(maxsize=512)
def _net_counts(n: int, d: int, specialty: bool, wp: int, limit: int) -> tuple[tuple[int, ...], int]:
    """(counts of net successes 0..limit, denominator), exact; the rest of the mass is the tail.

    Without a specialty P(v) = r[v+n] / 10^n with r = R^n. With one, P^n = Q(y)^n / (100 y)^n and
    Q^n = R^n / (1-y)^n (dividing by 1-y is a prefix sum), so P(v) = q[v+n] / 10^(v+2n).
    """
    top = limit - wp  # the highest dice total whose net count is kept
    if limit < 0 or top < -n:
        return (0,) * (limit + 1 if limit >= 0 else 0), 1
    size = top + n + 1  # coefficients of index 0..top+n (dice totals -n..top)
    coefficients = power(_die_polynomial(d, specialty), n, size)
    if specialty:
        coefficients = coefficients + (0,) * (size - len(coefficients))
        for _ in range(n):
            coefficients = tuple(cumulative(coefficients))
        exponent = top + 2 * n  # the largest denominator's power of ten
        scaled = [c * 10 ** (exponent - (k + n)) for k, c in enumerate(coefficients)]
        denominator = 10**exponent
    else:
        scaled = list(coefficients)
        denominator = 10**n
    net = [0] * (limit + 1)
    for k, c in enumerate(scaled):
        net[max(k - n + wp, 0)] += c
    return tuple(net), denominator


@dataclass(frozen=True)
class Rules:
    """A roll's house rules, as the counting needs them."""

    explode: bool
    ten: int  # what a 10 reaching the difficulty is worth
    ones_cancel: bool = True
    botch: bool = True
    willpower_cancelable: bool = True

    @property
    def book(self) -> bool:
        """Whether the book's counting (a specialty's extra dice or none) reads this roll."""
        return self.ten == 1 and self.ones_cancel and self.botch and self.willpower_cancelable


def rules(
    specialty: bool,
    tens_explode: Explode = "specialty",
    tens_double: Double = "never",
    ones_cancel: bool = True,
    botch: bool = True,
    willpower_cancelable: bool = True,
) -> Rules:
    return Rules(
        explodes(tens_explode, specialty),
        2 if doubles(tens_double, specialty) else 1,
        ones_cancel,
        botch,
        willpower_cancelable,
    )


def _chain(d: int, ten: int, cap: int) -> dict[int, int]:
    """The extra dice one exploding 10 starts, as value -> count over ``10**(cap // ten + 2)``
    (the book's ``chain_distribution``, scaled, with a 10 worth ``ten``); values above ``cap``
    are left out (their mass is the rest)."""
    deepest = cap // ten + 1
    out: dict[int, int] = {}
    for k in range(deepest + 1):  # k tens in a row, then a die that stops the chain
        base = k * ten
        for add, weight in ((1, 10 - d), (0, d - 1)):
            if weight and base + add <= cap:
                out[base + add] = out.get(base + add, 0) + weight * 10 ** (deepest - k)
    return out


# Bounded, as ``_net_counts``.
@lru_cache(maxsize=512)
def _house_counts(n: int, d: int, house: Rules, wp: int, limit: int) -> tuple[tuple[int, ...], int, int]:
    """(counts of net successes 0..limit, botch count, denominator) under ``house``, exact; the rest
    of the mass is the tail.

    A state is either "no die reached the difficulty, k ones so far" (the botch needs it, and the
    net is then -k or 0) or "some die did, net v", v kept up to ``cap``: past it, the 1s still to
    come (at most n) cannot bring the roll back to ``limit``."""
    cap = limit + n + 2
    cancel = 1 if house.ones_cancel else 0
    if house.explode:
        deepest = cap // house.ten + 1
        scale = 10 ** (deepest + 1)  # one die's denominator: 10 faces, then the chain's
        ten = {house.ten + v: c for v, c in _chain(d, house.ten, cap - house.ten).items()}
    else:
        scale = 10
        ten = {house.ten: 1}
    unit = scale // 10
    hit_values: dict[int, int] = {}
    if d <= 9:
        hit_values[1] = (10 - d) * unit
    for v, c in ten.items():
        weight = c if house.explode else c * unit
        hit_values[v] = hit_values.get(v, 0) + weight
    one, blank = unit, (d - 2) * unit
    none: list[int] = [1]  # none[k]: no hit yet, k ones
    hit: dict[int, int] = {}
    for _ in range(n):
        new_none = [0] * (len(none) + 1)
        new_hit: dict[int, int] = {}

        def add(v: int, c: int, into: dict[int, int] = new_hit) -> None:
            if v <= cap:
                into[v] = into.get(v, 0) + c

        for k, c in enumerate(none):
            if c:
                new_none[k + 1] += c * one
                new_none[k] += c * blank
                for v, w in hit_values.items():
                    add(v - k * cancel, c * w)
        for net, c in hit.items():
            add(net - cancel, c * one)
            add(net, c * blank)
            for v, w in hit_values.items():
                add(net + v, c * w)
        none, hit = new_none, new_hit
    counts = [0] * (limit + 1)
    botches = 0

    def final(net: int) -> int:
        return max(net + wp, 0) if house.willpower_cancelable else max(net, 0) + wp

    for k, c in enumerate(none):
        s = final(-k * cancel)
        if house.botch and k > 0 and s == 0:
            botches += c
        if s <= limit:
            counts[s] += c
    for net, c in hit.items():
        s = final(net)
        if s <= limit:
            counts[s] += c
    return tuple(counts), botches, scale**n


def _counts(
    pool: int, difficulty: int, house: Rules, willpower: bool, limit: int | None
) -> tuple[int, int, int, tuple[int, ...], int, Fraction]:
    """(dice, difficulty, limit, net counts, denominator, botch) as ``roll_odds`` reads its arguments."""
    n = max(pool, 0)
    d = clamp_difficulty(difficulty)
    limit = limit if limit is not None else min(2 * n + 10, 40)
    wp = 1 if willpower else 0
    if house.book:
        counts, denominator = _net_counts(n, d, house.explode, wp, limit)
        botch = Fraction((d - 1) ** n - (d - 2) ** n, 10**n)
    else:
        counts, botches, denominator = _house_counts(n, d, house, wp, limit)
        botch = Fraction(botches, denominator)
    return n, d, limit, counts, denominator, botch


def roll_odds(
    pool: int,
    difficulty: int = 6,
    *,
    willpower: bool = False,
    specialty: bool = False,
    limit: int | None = None,
    tens_explode: Explode = "specialty",
    tens_double: Double = "never",
    ones_cancel: bool = True,
    botch: bool = True,
    willpower_cancelable: bool = True,
) -> RollOdds:
    house = rules(specialty, tens_explode, tens_double, ones_cancel, botch, willpower_cancelable)
    n, d, limit, counts, denominator, botched = _counts(pool, difficulty, house, willpower, limit)
    successes = {v: Fraction(c, denominator) for v, c in enumerate(counts) if c}
    tail = Fraction(denominator - sum(counts), denominator)
    none = successes.get(0, Fraction(0))
    return RollOdds(n, d, successes, tail, limit, botched, none - botched, 1 - none)


@dataclass(frozen=True)
class ResistedOdds:
    attacker: Fraction
    defender: Fraction
    error: Fraction  # at most this much probability is unaccounted for (specialty tails)


def resisted_odds(
    attacker_pool: int,
    defender_pool: int,
    attacker_difficulty: int = 6,
    defender_difficulty: int = 6,
    *,
    willpower: bool = False,
    attacker_specialty: bool = False,
    defender_specialty: bool = False,
    tens_explode: Explode = "specialty",
    tens_double: Double = "never",
    ones_cancel: bool = True,
    botch: bool = True,
    willpower_cancelable: bool = True,
) -> ResistedOdds:
    """The attacker wins with more net successes than the defender; the defender wins ties."""
    switches = (tens_explode, tens_double, ones_cancel, botch, willpower_cancelable)
    attacker = rules(attacker_specialty, *switches)
    defender = rules(defender_specialty, *switches)
    *_, a, a_den, _ = _counts(attacker_pool, attacker_difficulty, attacker, willpower, None)
    *_, b, b_den, _ = _counts(defender_pool, defender_difficulty, defender, False, None)
    # P(attacker > y) = 1 - P(attacker <= y), the attacker's tail lying above every value kept.
    at_most = cumulative(a)
    win = sum(c * (a_den - at_most[min(y, len(a) - 1)]) for y, c in enumerate(b) if c)
    denominator = a_den * b_den
    error = (b_den - sum(b)) * a_den  # the defender's tail, unaccounted for
    return ResistedOdds(
        Fraction(win, denominator),
        Fraction(denominator - win - error, denominator),
        Fraction(error, denominator),
    )
