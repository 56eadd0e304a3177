"""Reference copy (before fastodds) of plugins/dramatic/odds.py.

Exact Dramatic Systems odds: net successes and degrees, with Willpower, specialty and the botch rule.

Without a specialty the distribution is finite and exact. With one, a 10 can chain without end; the
distribution is exact for every value up to ``limit`` and the rest is one tail bucket whose mass is
exactly one minus the others, so degree odds (botch, failure, success) are always exact.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from plugins.dramatic.mechanics import clamp_difficulty

Dist = dict[int, Fraction]


def _mul(a: Dist, b: Dist, upper: int) -> Dist:
    out: Dist = {}
    for x, px in a.items():
        for y, py in b.items():
            if x + y <= upper:
                out[x + y] = out.get(x + y, Fraction(0)) + px * py
    return out


def _power(die: Dist, count: int, upper: int) -> Dist:
    result: Dist = {0: Fraction(1)}
    base = die
    while count:
        if count & 1:
            result = _mul(result, base, upper)
        count >>= 1
        if count:
            base = _mul(base, base, upper)
    return result


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
        return sum((p for v, p in self.successes.items() if v >= k), Fraction(0)) + self.tail

    @property
    def mean_lower_bound(self) -> Fraction:
        return sum((v * p for v, p in self.successes.items()), Fraction(0)) + (self.limit + 1) * self.tail


def roll_odds(
    pool: int,
    difficulty: int = 6,
    *,
    willpower: bool = False,
    specialty: bool = False,
    limit: int | None = None,
) -> RollOdds:
    n = max(pool, 0)
    d = clamp_difficulty(difficulty)
    limit = limit if limit is not None else min(2 * n + 10, 40)
    upper = limit + n + 1  # values up to ``limit`` stay exact: later dice lower a sum by at most n
    raw = _power(die_distribution(d, specialty, upper), n, upper)
    wp = 1 if willpower else 0
    successes: Dist = {}
    for v, p in raw.items():
        net = max(v + wp, 0)
        if net <= limit:
            successes[net] = successes.get(net, Fraction(0)) + p
    successes = dict(sorted(successes.items()))
    tail = 1 - sum(successes.values(), Fraction(0))
    botch = Fraction(d - 1, 10) ** n - Fraction(d - 2, 10) ** n
    none = successes.get(0, Fraction(0))
    return RollOdds(n, d, successes, tail, limit, botch, none - botch, 1 - none)


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
) -> ResistedOdds:
    """The attacker wins with more net successes than the defender; the defender wins ties."""
    a = roll_odds(attacker_pool, attacker_difficulty, willpower=willpower, specialty=attacker_specialty)
    b = roll_odds(defender_pool, defender_difficulty, specialty=defender_specialty)
    win = sum((pb * a.at_least(y + 1) for y, pb in b.successes.items()), Fraction(0))
    error = b.tail
    return ResistedOdds(win, 1 - win - error, error)
