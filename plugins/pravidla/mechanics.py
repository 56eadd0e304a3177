"""Pravidla's dice as pure functions (RULINGS, "Pravidla"). Dice come in; no I/O, no clock.

A pool of d6 against a target number (usually 4): every die showing the target or more is a success,
and the action succeeds with at least ``need`` successes (usually 1; a Storyteller may ask for 2).
Contests roll both sides against the same target; a tie is rolled again. A tug of war is a series
of contests whose differences move a running balance until one side leads by N. Initiative goes by
switched-on powers, then Stamina (Kondice), then Wits (Rozum), then a die (higher first, re-rolled
while tied). Celerity's extra actions come after everyone's first action.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from gateway.dice import DiceSource

SYSTEM = "pravidla"
SIDES = 6
DEGREES = ("failure", "success")
MIN_TARGET, MAX_TARGET = 2, 6


class Stalemate(Exception):
    """A tie was re-rolled ``max_rounds`` times without breaking (practically never happens)."""


def count_successes(faces: Sequence[int], target: int) -> int:
    return sum(1 for face in faces if face >= target)


@dataclass(frozen=True)
class Roll:
    pool: int
    target: int
    need: int
    dice: tuple[int, ...]
    successes: int
    degree: str

    def as_result(self) -> dict[str, Any]:
        return {
            "kind": "roll",
            "system": SYSTEM,
            "pool": self.pool,
            "target": self.target,
            "need": self.need,
            "dice": list(self.dice),
            "successes": self.successes,
            "total": self.successes,  # what the roll log's total column and verify show
            "degree": self.degree,
        }


def score(pool: int, faces: Sequence[int], target: int = 4, need: int = 1) -> Roll:
    """Read already-rolled faces: successes, and success when there are at least ``need`` of them."""
    successes = count_successes(faces, target)
    return Roll(pool, target, need, tuple(faces), successes, DEGREES[successes >= need])


def roll(pool: int, dice: DiceSource, target: int = 4, need: int = 1) -> Roll:
    return score(pool, [dice.roll(SIDES) for _ in range(pool)], target, need)


@dataclass(frozen=True)
class Contest:
    """``sides`` hold every face each side rolled (re-rolls appended) and the deciding round's
    successes; ``rounds`` keep each round's faces, left first."""

    sides: tuple[Roll, Roll]
    rounds: tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]
    winner: int

    def as_result(self) -> dict[str, Any]:
        return {
            "kind": "contest",
            "system": SYSTEM,
            "sides": [s.as_result() for s in self.sides],
            "rounds": [[list(left), list(right)] for left, right in self.rounds],
            "rerolls": len(self.rounds) - 1,
            "winner": self.winner,
        }


def contest(left: int, right: int, dice: DiceSource, target: int = 4, max_rounds: int = 100) -> Contest:
    """The attacker (left) rolls, then the defender; more successes wins; a tie is rolled again."""
    rounds: list[tuple[tuple[int, ...], tuple[int, ...]]] = []
    for _ in range(max_rounds):
        a = tuple(dice.roll(SIDES) for _ in range(left))
        b = tuple(dice.roll(SIDES) for _ in range(right))
        rounds.append((a, b))
        sa, sb = count_successes(a, target), count_successes(b, target)
        if sa != sb:
            all_a = tuple(f for r in rounds for f in r[0])
            all_b = tuple(f for r in rounds for f in r[1])
            sides = (
                Roll(left, target, 1, all_a, sa, DEGREES[sa > sb]),
                Roll(right, target, 1, all_b, sb, DEGREES[sb > sa]),
            )
            return Contest(sides, tuple(rounds), 0 if sa > sb else 1)
    raise Stalemate(max_rounds)


@dataclass(frozen=True)
class TugRound:
    """One round of a tug of war. ``balance`` > 0: the left side leads by that much."""

    left: Roll
    right: Roll
    difference: int
    balance: int
    lead: int
    winner: int | None

    def as_result(self) -> dict[str, Any]:
        return {
            "kind": "contest",
            "system": SYSTEM,
            "action": "tug",
            "sides": [self.left.as_result(), self.right.as_result()],
            "difference": self.difference,
            "balance": self.balance,
            "lead": self.lead,
            "winner": self.winner,
        }


def tug_round(balance: int, lead: int, left: int, right: int, dice: DiceSource, target: int = 4) -> TugRound:
    """Both sides roll once; the difference in successes moves the balance; a lead of ``lead`` wins.
    A tied round moves nothing and is not rolled again (the next round is the re-roll)."""
    a = roll(left, dice, target)
    b = roll(right, dice, target)
    difference = a.successes - b.successes
    new_balance = balance + difference
    winner = 0 if new_balance >= lead else 1 if new_balance <= -lead else None
    a = Roll(a.pool, target, 1, a.dice, a.successes, DEGREES[difference > 0])
    b = Roll(b.pool, target, 1, b.dice, b.successes, DEGREES[difference < 0])
    return TugRound(a, b, difference, new_balance, lead, winner)


@dataclass(frozen=True)
class Combatant:
    """Someone in the initiative order. ``celerity``: 0 none, 1 basic, 2 advanced (switched on)."""

    name: str
    hunting: bool = False
    celerity: int = 0
    stamina: int = 0
    wits: int = 0
    extra_actions: int = 0

    def key(self) -> tuple[int, int, int, int, int]:
        """The book's criteria in order; higher goes first on each."""
        return (int(self.hunting), int(self.celerity >= 2), int(self.celerity >= 1), self.stamina, self.wits)


@dataclass(frozen=True)
class Order:
    """The acting order: ``first`` (everyone's first action), then ``extra`` passes (Celerity)."""

    first: tuple[str, ...]
    extra: tuple[tuple[str, ...], ...]
    dice: dict[str, list[int]] = field(default_factory=dict)
    faces: tuple[int, ...] = ()  # every die in the order rolled

    def as_result(self) -> dict[str, Any]:
        return {
            "kind": "initiative",
            "system": SYSTEM,
            "order": list(self.first),
            "extra": [list(p) for p in self.extra],
            "dice": list(self.faces),
            "rolls": self.dice,
        }


def break_ties(
    names: Sequence[str],
    dice: DiceSource,
    rolls: dict[str, list[int]],
    *,
    sides: int = SIDES,
    count: int = 1,
    higher_first: bool = True,
    then: Callable[[Sequence[str]], list[str]] | None = None,
    max_rounds: int = 100,
) -> list[str]:
    """Order tied ``names`` by a roll each (``count`` dice summed), in the given order; names still
    tied are settled by ``then`` (default: roll again the same way). Every face lands in ``rolls``."""
    if len(names) <= 1:
        return list(names)
    for _ in range(max_rounds):
        totals: dict[str, int] = {}
        for name in names:
            faces = [dice.roll(sides) for _ in range(count)]
            rolls.setdefault(name, []).extend(faces)
            rolls.setdefault("", []).extend(faces)  # "" keeps every face in the order rolled
            totals[name] = sum(faces)
        values = sorted(set(totals.values()), reverse=higher_first)
        if len(values) == 1 and then is None:
            continue  # everyone tied again: the whole group rolls once more
        ordered: list[str] = []
        for value in values:
            group = [n for n in names if totals[n] == value]
            if len(group) == 1:
                ordered.extend(group)
            elif then is not None:
                ordered.extend(then(group))
            else:
                ordered.extend(
                    break_ties(group, dice, rolls, sides=sides, count=count, higher_first=higher_first)
                )
        return ordered
    raise Stalemate(max_rounds)


def initiative(combatants: Sequence[Combatant], dice: DiceSource, max_rounds: int = 100) -> Order:
    """Sort by the criteria (stable in joining order), then one die each inside a full tie."""
    rolls: dict[str, list[int]] = {}
    keys = sorted({c.key() for c in combatants}, reverse=True)
    first: list[str] = []
    for key in keys:
        group = [c.name for c in combatants if c.key() == key]
        first.extend(break_ties(group, dice, rolls, max_rounds=max_rounds))
    by_name = {c.name: c for c in combatants}
    most = max((c.extra_actions for c in combatants), default=0)
    extra = tuple(tuple(n for n in first if by_name[n].extra_actions >= k) for k in range(1, most + 1))
    flat = tuple(rolls.pop("", []))
    return Order(tuple(first), extra, rolls, flat)
