"""Rolling a parsed expression with a ``DiceSource``: every face drawn in order (the first die, its
rerolls, its explosions, then the next die), so ``GATEWAY_DICE_SCRIPT`` reads naturally. Pure but
for the dice source."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from gateway.core.dice import DiceSource
from gateway.features.notation.parse import (
    MAX_DEPTH,
    Dice,
    Expression,
    Negative,
    Node,
    NotationError,
    Number,
)


@dataclass(frozen=True)
class TermRoll:
    """One dice term as rolled. The lists run over every face drawn: ``kept`` counts towards the
    value; ``exploded`` marks a die added by an explosion; ``rerolled`` a face rolled again (and so
    not kept). ``value`` is the sum of the kept faces, or the net successes when ``successes`` is set."""

    term: Dice
    faces: tuple[int, ...]
    kept: tuple[bool, ...]
    exploded: tuple[bool, ...]
    rerolled: tuple[bool, ...]
    value: int
    successes: int | None = None

    def as_result(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "term": self.term.text,
            "sides": "F" if self.term.fate else self.term.sides,
            "faces": list(self.faces),
            "kept": list(self.kept),
            "exploded": list(self.exploded),
            "rerolled": list(self.rerolled),
            "value": self.value,
        }
        if self.successes is not None:
            out["successes"] = self.successes
        return out


@dataclass(frozen=True)
class Outcome:
    """One result of an expression: its total and its dice terms in order."""

    total: int
    rolls: tuple[TermRoll, ...]

    @property
    def successes(self) -> int | None:
        counted = [r.successes for r in self.rolls if r.successes is not None]
        return sum(counted) if counted else None


def _draw(term: Dice, dice: DiceSource) -> int:
    face = dice.roll(term.sides)
    return face - 2 if term.fate else face


def roll_term(term: Dice, dice: DiceSource) -> TermRoll:
    faces: list[int] = []
    exploded: list[bool] = []
    rerolled: list[bool] = []
    for _ in range(term.count):
        face = _draw(term, dice)
        if term.reroll is not None:
            times = 0
            limit = 1 if term.reroll.once else MAX_DEPTH
            while term.reroll.condition(face) and times < limit:
                faces.append(face)
                exploded.append(False)
                rerolled.append(True)
                face = _draw(term, dice)
                times += 1
        faces.append(face)
        exploded.append(False)
        rerolled.append(False)
        depth = 0
        while term.explode is not None and term.explode(face) and depth < MAX_DEPTH:
            face = _draw(term, dice)
            faces.append(face)
            exploded.append(True)
            rerolled.append(False)
            depth += 1
    standing = [i for i, r in enumerate(rerolled) if not r]
    kept_at = set(standing)
    if term.keep is not None:
        # Highest first (lowest first for kl), the earlier die first among equal faces.
        sign = -1 if term.keep.high else 1
        order = sorted(standing, key=lambda i: (sign * faces[i], i))
        kept_at = set(order[: term.keep.count])
    kept = tuple(i in kept_at for i in range(len(faces)))
    if term.success is not None:
        hits = sum(1 for i in kept_at if term.success(faces[i]))
        misses = sum(1 for i in kept_at if term.failure is not None and term.failure(faces[i]))
        value = hits - misses
        return TermRoll(term, tuple(faces), kept, tuple(exploded), tuple(rerolled), value, value)
    value = sum(faces[i] for i in kept_at)
    return TermRoll(term, tuple(faces), kept, tuple(exploded), tuple(rerolled), value)


def evaluate(node: Node, values: Iterator[int]) -> int:
    """``node``'s value, its dice terms' values taken from ``values`` left to right."""
    if isinstance(node, Number):
        return node.value
    if isinstance(node, Dice):
        return next(values)
    if isinstance(node, Negative):
        return -evaluate(node.operand, values)
    left, right = evaluate(node.left, values), evaluate(node.right, values)
    if node.op == "+":
        return left + right
    if node.op == "-":
        return left - right
    if node.op == "*":
        return left * right
    if right == 0:
        raise NotationError("divide_by_zero")
    return left // right  # rounds down (towards minus infinity), as the README says


def roll_once(expression: Expression, dice: DiceSource) -> Outcome:
    rolls = tuple(roll_term(term, dice) for term in expression.terms)
    return Outcome(evaluate(expression.body, iter(r.value for r in rolls)), rolls)


def roll(expression: Expression, dice: DiceSource) -> list[Outcome]:
    """``expression.repeat`` separate results, in order."""
    return [roll_once(expression, dice) for _ in range(expression.repeat)]
