"""Reference copy (before fastodds) of plugins/decanter/odds.py.

Exact Decanter odds by convolution: net successes and degrees, with dice qualities, Take Half,
Aid Another, automatic success and PC-against-PC contests. Pure; probabilities are ``Fraction``s."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from plugins.decanter.mechanics import MAX_CONTEST_ROUNDS, degree, is_automatic, take_half

Dist = dict[int, Fraction]

# One die's net successes, as integer weights over ten faces.
_PLAIN = {-1: 1, 0: 4, 1: 4, 2: 1}


def _die(quality: int) -> tuple[dict[int, int], int]:
    """One die's distribution as (weights, denominator) for a quality that acts die by die."""
    if quality == 2:
        # Major Advantage: a failed face (1-5) keeps its own value and adds one re-rolled die.
        weights: dict[int, int] = {1: 4 * 10, 2: 1 * 10}
        for original, count in ((-1, 1), (0, 4)):
            for value, w in _PLAIN.items():
                weights[original + value] = weights.get(original + value, 0) + count * w
        return weights, 100
    if quality == -2:
        # Major Disadvantage: a 1 still takes one away, 2-5 gives nothing, 6-10 counts only its re-roll.
        weights = {-1: 1 * 10, 0: 4 * 10}
        for value, w in _PLAIN.items():
            weights[value] = weights.get(value, 0) + 5 * w
        return weights, 100
    return dict(_PLAIN), 10


def _power(die: dict[int, int], denominator: int, count: int) -> Dist:
    """The sum of ``count`` independent dice, exactly."""
    total: dict[int, int] = {0: 1}
    for _ in range(max(count, 0)):
        step: dict[int, int] = {}
        for a, wa in total.items():
            for b, wb in die.items():
                step[a + b] = step.get(a + b, 0) + wa * wb
        total = step
    scale = denominator ** max(count, 0)
    return {k: Fraction(w, scale) for k, w in sorted(total.items())}


def pool_distribution(pool: int, quality: int = 0, half: bool = False) -> Dist:
    """Net successes of one roll of ``pool`` dice with a quality (-2..+2), or Take Half."""
    pool = max(pool, 0)
    if half and quality in (-2, 2):
        raise ValueError("Take Half works with Advantage or Disadvantage only")
    if half and quality == 0:
        return {take_half(pool): Fraction(1)}
    if quality in (-1, 1):
        single = _power(*_die(0), pool)
        other = {take_half(pool): Fraction(1)} if half else single
        return _best_of(single, other) if quality == 1 else _worst_of(single, other)
    return _power(*_die(quality), pool)


def _cdfs(a: Dist, b: Dist) -> list[tuple[int, Fraction, Fraction]]:
    """(v, P(A <= v), P(B <= v)) for every value either can take, in order."""
    out: list[tuple[int, Fraction, Fraction]] = []
    ca = cb = Fraction(0)
    for v in sorted(set(a) | set(b)):
        ca += a.get(v, Fraction(0))
        cb += b.get(v, Fraction(0))
        out.append((v, ca, cb))
    return out


def _best_of(a: Dist, b: Dist) -> Dist:
    """max(A, B): P(max <= v) = P(A <= v) P(B <= v)."""
    out: Dist = {}
    previous = Fraction(0)
    for v, ca, cb in _cdfs(a, b):
        at_most = ca * cb
        if at_most != previous:
            out[v] = at_most - previous
        previous = at_most
    return out


def _worst_of(a: Dist, b: Dist) -> Dist:
    """min(A, B): P(min > v) = P(A > v) P(B > v)."""
    out: Dist = {}
    previous = Fraction(1)  # P(min > v) just below the smallest value
    for v, ca, cb in _cdfs(a, b):
        above = (1 - ca) * (1 - cb)
        if above != previous:
            out[v] = previous - above
        previous = above
    return out


def _convolve(a: Dist, b: Dist) -> Dist:
    out: Dist = {}
    for x, px in a.items():
        for y, py in b.items():
            out[x + y] = out.get(x + y, Fraction(0)) + px * py
    return out


def aid_distribution(helpers: Sequence[tuple[int, bool]], cap: int = 5) -> Dist:
    """Bonus dice from helpers given as (pool, npc): each adds its net successes (never below 0),
    an NPC half its pool, all capped at ``cap``."""
    total: Dist = {0: Fraction(1)}
    for pool, npc in helpers:
        if npc:
            one: Dist = {take_half(pool): Fraction(1)}
        else:
            one = {}
            for v, p in pool_distribution(pool).items():
                one[max(v, 0)] = one.get(max(v, 0), Fraction(0)) + p
        total = _convolve(total, one)
    capped: Dist = {}
    for v, p in total.items():
        capped[min(v, cap)] = capped.get(min(v, cap), Fraction(0)) + p
    return capped


@dataclass(frozen=True)
class RollOdds:
    pool: int
    dc: int | None
    successes: Dist  # an automatic success counts as the DC
    degrees: dict[str, Fraction]

    @property
    def mean(self) -> Fraction:
        return sum((v * p for v, p in self.successes.items()), Fraction(0))

    def at_least(self, k: int) -> Fraction:
        return sum((p for v, p in self.successes.items() if v >= k), Fraction(0))


def roll_odds(
    pool: int,
    *,
    dc: int | None = None,
    quality: int = 0,
    half: bool = False,
    force: bool = False,
    helpers: Sequence[tuple[int, bool]] = (),
    aid_cap: int = 5,
) -> RollOdds:
    """Exact odds of one roll as the ``roll`` command makes it (helpers' bonus dice included)."""
    successes: Dist = {}
    degrees: dict[str, Fraction] = {}
    for bonus, p_bonus in aid_distribution(helpers, aid_cap).items():
        full = max(pool, 0) + bonus
        if dc is not None and not force and is_automatic(full, dc):
            successes[dc] = successes.get(dc, Fraction(0)) + p_bonus
            degrees["automatic"] = degrees.get("automatic", Fraction(0)) + p_bonus
            continue
        for v, p in pool_distribution(full, quality, half).items():
            successes[v] = successes.get(v, Fraction(0)) + p_bonus * p
            if dc is not None:
                d = degree(v, dc)
                degrees[d] = degrees.get(d, Fraction(0)) + p_bonus * p
    return RollOdds(max(pool, 0), dc, dict(sorted(successes.items())), degrees)


@dataclass(frozen=True)
class ContestOdds:
    left: Fraction
    right: Fraction
    unbroken: Fraction


def contest_odds(
    left_pool: int, right_pool: int, left_quality: int = 0, right_quality: int = 0
) -> ContestOdds:
    """PC against PC with the tie rules: larger pool wins a tie; equal pools re-roll (up to the
    mechanics' round limit, after which the contest stays unbroken)."""
    left_pool, right_pool = max(left_pool, 0), max(right_pool, 0)
    a = pool_distribution(left_pool, left_quality)
    b = pool_distribution(right_pool, right_quality)
    win = sum((pa * pb for x, pa in a.items() for y, pb in b.items() if x > y), Fraction(0))
    tie = sum((pa * pb for x, pa in a.items() for y, pb in b.items() if x == y), Fraction(0))
    lose = 1 - win - tie
    if left_pool != right_pool:
        if left_pool > right_pool:
            return ContestOdds(win + tie, lose, Fraction(0))
        return ContestOdds(win, lose + tie, Fraction(0))
    if left_pool == 0:
        return ContestOdds(Fraction(0), Fraction(0), Fraction(1))
    rounds = MAX_CONTEST_ROUNDS
    repeat = (1 - tie**rounds) / (1 - tie) if tie != 1 else Fraction(rounds)
    return ContestOdds(win * repeat, lose * repeat, tie**rounds)
