"""Exact odds of an expression: every total's probability as a fraction, by convolution.

A distribution is whole-number weights over a run of totals and one denominator, so the work is
integer arithmetic: sums of dice are convolutions, done by packing each list of weights into one
integer (Kronecker substitution) and multiplying those, which Python does far faster than a loop
over pairs; n dice alike are one die's distribution raised to the n-th power by squaring. Keep and
drop use the order-statistics recurrence over faces (highest face first), never the outcomes one by
one. Exploding dice and ``rr`` rerolls go as deep as the roller does (``MAX_DEPTH``), so the odds
are exact for the dice as they are rolled.

A computation that would pass ``BUDGET`` is refused (``TooLarge``) before it is done, so that
``odds`` answers within its bound or says the expression is too large. Pure: no I/O."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from math import comb, gcd

from gateway.features.notation.parse import (
    MAX_DEPTH,
    Dice,
    Expression,
    Negative,
    Node,
    NotationError,
    Number,
    parse,
)

# Bits of packed weights one multiplication may handle, and steps a recurrence may take: measured
# to keep one ``odds`` under about 200 ms on one core (see tests/bench/notation_odds.py).
BUDGET_BITS = 2_000_000
BUDGET_STEPS = 400_000
MAX_TOTALS = 100_000  # distinct totals a distribution may have


class TooLarge(NotationError):
    """The exact odds would take too long here."""

    def __init__(self) -> None:
        super().__init__("odds_too_large")


@dataclass(frozen=True)
class Dist:
    """``weights[i]`` is the weight of total ``low + i``; they add up to ``denominator``."""

    low: int
    weights: tuple[int, ...]
    denominator: int

    @staticmethod
    def point(value: int) -> Dist:
        return Dist(value, (1,), 1)

    def probabilities(self) -> dict[int, Fraction]:
        d = self.denominator
        return {self.low + i: Fraction(w, d) for i, w in enumerate(self.weights) if w}


def _check_size(n: int) -> None:
    if n > MAX_TOTALS:
        raise TooLarge()


def _pack(weights: tuple[int, ...] | list[int], size: int) -> int:
    return int.from_bytes(b"".join(w.to_bytes(size, "little") for w in weights), "little")


def _multiply(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    """The convolution of two weight lists (Kronecker substitution)."""
    if len(a) == 1 or len(b) == 1:
        (x,), ys = (a, b) if len(a) == 1 else (b, a)
        return tuple(x * y for y in ys)
    bits = max(a).bit_length() + max(b).bit_length() + min(len(a), len(b)).bit_length() + 1
    size = (bits + 7) // 8
    length = len(a) + len(b) - 1
    _check_size(length)
    if length * size * 8 > BUDGET_BITS:
        raise TooLarge()
    product = (_pack(a, size) * _pack(b, size)).to_bytes(length * size, "little")
    return tuple(int.from_bytes(product[i * size : (i + 1) * size], "little") for i in range(length))


def add(a: Dist, b: Dist) -> Dist:
    return Dist(a.low + b.low, _multiply(a.weights, b.weights), a.denominator * b.denominator)


def negate(a: Dist) -> Dist:
    return Dist(-(a.low + len(a.weights) - 1), tuple(reversed(a.weights)), a.denominator)


def power(a: Dist, n: int) -> Dist:
    """The sum of ``n`` independent copies of ``a``."""
    result: Dist | None = None
    square = a
    while n:
        if n & 1:
            result = square if result is None else add(result, square)
        n >>= 1
        if n:
            square = add(square, square)
    assert result is not None
    return result


def from_map(weights: dict[int, int], denominator: int) -> Dist:
    present = [k for k, w in weights.items() if w]
    low, high = min(present), max(present)
    _check_size(high - low + 1)
    return Dist(low, tuple(weights.get(k, 0) for k in range(low, high + 1)), denominator)


def combine(a: Dist, b: Dist, op: Callable[[int, int], int]) -> Dist:
    """``op`` of two independent values, pair by pair (products and quotients)."""
    pairs = sum(1 for w in a.weights if w) * sum(1 for w in b.weights if w)
    if pairs > BUDGET_STEPS:
        raise TooLarge()
    out: dict[int, int] = {}
    for i, wa in enumerate(a.weights):
        if not wa:
            continue
        for j, wb in enumerate(b.weights):
            if wb:
                key = op(a.low + i, b.low + j)
                out[key] = out.get(key, 0) + wa * wb
    return from_map(out, a.denominator * b.denominator)


def _face_weights(term: Dice) -> tuple[dict[int, int], int]:
    """One die's face after its rerolls: weight per face and the denominator."""
    faces = list(term.faces)
    s = len(faces)
    if term.reroll is None:
        return {f: 1 for f in faces}, s
    taken = [f for f in faces if term.reroll.condition(f)]
    c = len(taken)
    if term.reroll.once:
        return {f: (0 if f in taken else s) + c for f in faces}, s * s
    depth = MAX_DEPTH
    stays = sum(c**j * s ** (depth - j) for j in range(depth))
    return {f: (0 if f in taken else stays) + c**depth for f in faces}, s ** (depth + 1)


def _chain(term: Dice, value: Callable[[int], int]) -> Dist:
    """What an explosion adds: a fresh die's ``value``, and the next explosion's on an exploding
    face, ``MAX_DEPTH`` dice deep at most. Built from the deepest die up:
    ``chain(k) = s**(depth-k) * stay + explode * chain(k+1)`` as polynomials."""
    assert term.explode is not None
    faces = list(term.faces)
    s = len(faces)
    values = [value(f) for f in faces]
    low = min(values)
    span = max(values) - low + 1
    # One die's chain reaches MAX_DEPTH + 1 dice: refuse at once what could not be worked out.
    length = span * (MAX_DEPTH + 1)
    bits = (MAX_DEPTH + 1) * s.bit_length()
    n = term.count
    if length * n * bits * n > BUDGET_BITS or length * MAX_DEPTH * len(faces) > BUDGET_STEPS * 10:
        raise TooLarge()
    chain = Dist(low, tuple(values.count(low + i) for i in range(span)), s)  # the deepest die
    stay = [(v, 1) for f, v in zip(faces, values, strict=True) if not term.explode(f)]
    boom = [v for f, v in zip(faces, values, strict=True) if term.explode(f)]
    for _ in range(MAX_DEPTH - 1):
        first = min(low, low + chain.low)
        last = max(low + span - 1, max(boom) + chain.low + len(chain.weights) - 1)
        grown = [0] * (last - first + 1)
        for v in boom:
            at = v + chain.low - first
            for i, w in enumerate(chain.weights):
                grown[at + i] += w
        for v, w in stay:
            grown[v - first] += w * chain.denominator
        chain = Dist(first, tuple(grown), chain.denominator * s)
    return chain


def _one_die(term: Dice, value: Callable[[int], int]) -> Dist:
    """One die of ``term`` (rerolls, then explosions), as the sum of ``value`` over its faces."""
    first, denominator = _face_weights(term)
    if term.explode is None:
        out: dict[int, int] = {}
        for f, w in first.items():
            out[value(f)] = out.get(value(f), 0) + w
        return from_map(out, denominator)
    chain = _chain(term, value)
    weights: dict[int, int] = {}
    for f, w in first.items():
        if not w:
            continue
        if term.explode(f):
            for i, cw in enumerate(chain.weights):
                if cw:
                    key = value(f) + chain.low + i
                    weights[key] = weights.get(key, 0) + w * cw
        else:
            weights[value(f)] = weights.get(value(f), 0) + w * chain.denominator
    return from_map(weights, denominator * chain.denominator)


def _kept(term: Dice) -> Dist:
    """The sum of the kept dice of ``term`` (no explosions): faces from the best down (the worst up
    for ``kl``), counting how many dice show each face, C(rest, c) ways each."""
    assert term.keep is not None
    weights, denominator = _face_weights(term)
    n, k = term.count, term.keep.count
    faces = sorted(weights, reverse=term.keep.high)
    if len(faces) * n * k * (k * max(abs(f) for f in faces) + 1) > BUDGET_STEPS * 10:
        raise TooLarge()
    below = [sum(weights[g] for g in faces[i + 1 :]) for i in range(len(faces))]
    done: dict[int, int] = {}
    # (dice placed, sum kept) -> weight, while fewer than k dice are placed.
    states: dict[tuple[int, int], int] = {(0, 0): 1}
    for at, face in enumerate(faces):
        w = weights[face]
        step: dict[tuple[int, int], int] = {}
        for (placed, total), weight in states.items():
            for c in range(n - placed + 1):
                if c and not w:
                    break
                ways = weight * comb(n - placed, c) * w**c
                now = placed + c
                kept_sum = total + face * min(c, k - placed)
                if now >= k:
                    # The rest show lower faces, whatever they are: weight ``below`` each.
                    rest = n - now
                    if rest and not below[at]:
                        continue
                    done[kept_sum] = done.get(kept_sum, 0) + ways * below[at] ** rest
                else:
                    step[(now, kept_sum)] = step.get((now, kept_sum), 0) + ways
        states = step
    return from_map(done, denominator**n)


def term_odds(term: Dice) -> Dist:
    if term.keep is not None:
        if term.explode is not None:
            raise NotationError("odds_keep_explode")
        if term.success is not None:
            raise NotationError("odds_keep_success")
        return _kept(term)
    if term.success is not None:
        success, failure = term.success, term.failure

        def value(face: int) -> int:
            return int(success(face)) - int(failure is not None and failure(face))

        return _many(_one_die(term, value), term.count)
    return _many(_one_die(term, lambda face: face), term.count)


def _many(die: Dist, n: int) -> Dist:
    """``n`` dice alike, refused at once when the last product would pass the budget."""
    if (n * len(die.weights)) * (n * die.denominator.bit_length()) > 2 * BUDGET_BITS:
        raise TooLarge()
    return power(die, n)


def node_odds(node: Node) -> Dist:
    if isinstance(node, Number):
        return Dist.point(node.value)
    if isinstance(node, Dice):
        return term_odds(node)
    if isinstance(node, Negative):
        return negate(node_odds(node.operand))
    left, right = node_odds(node.left), node_odds(node.right)
    if node.op == "+":
        return add(left, right)
    if node.op == "-":
        return add(left, negate(right))
    if node.op == "*":
        return combine(left, right, lambda x, y: x * y)
    if any(right.low + i == 0 for i, w in enumerate(right.weights) if w):
        raise NotationError("odds_divide_by_zero")
    return combine(left, right, lambda x, y: x // y)


@dataclass(frozen=True)
class Odds:
    """Every total's exact probability (ascending totals) and the mean."""

    expression: str
    totals: tuple[tuple[int, Fraction], ...]
    mean: Fraction
    successes: bool

    def at_least(self) -> list[tuple[int, Fraction]]:
        out: list[tuple[int, Fraction]] = []
        rest = Fraction(1)
        for total, p in self.totals:
            out.append((total, rest))
            rest -= p
        return out


def odds(text: str) -> Odds:
    """The exact odds of one result of ``text`` (of one set for ``6x ...``). In an offload worker:
    the expression comes as text and is parsed here."""
    expression: Expression = parse(text)
    dist = node_odds(expression.body)
    g = dist.denominator
    for w in dist.weights:
        g = gcd(g, w)
        if g == 1:
            break
    # One gcd for all: the Fractions are built in lowest terms from there on.
    den = dist.denominator // g
    totals = tuple((dist.low + i, Fraction(w // g, den)) for i, w in enumerate(dist.weights) if w)
    mean = Fraction(sum((dist.low + i) * w for i, w in enumerate(dist.weights)), dist.denominator)
    return Odds(expression.text, totals, mean, expression.counts_successes)
