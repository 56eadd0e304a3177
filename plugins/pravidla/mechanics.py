"""Pravidla's dice as pure functions (RULINGS, "Pravidla"). Dice come in; no I/O, no clock.

A pool of d6 against a target number (usually 4): every die showing the target or more is a success,
and the action succeeds with at least ``need`` successes (usually 1; a Storyteller may ask for 2).
Contests roll both sides against the same target; a tie is rolled again (unless the channel's
``contest_ties`` house rule settles it). A tug of war is a series
of contests whose differences move a running balance until one side leads by N. Initiative goes by
switched-on powers, then Stamina (Kondice), then Wits (Rozum), then a die (higher first, re-rolled
while tied). Celerity's extra actions come after everyone's first action.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from gateway import ContestResult, DiceSource, RollResult
from gateway.rules.initiative import Order, rank
from gateway.rules.power_words import PowerWords
from gateway.rules.ties import (
    Contest,
    TieRule,
    break_ties,
    contest_rounds,
    count_successes,
    decide,
    every_face,
)
from gateway.rules.ties import Stalemate as Stalemate
from plugins.pravidla.config import PravidlaSettings
from plugins.pravidla.sheet import fold

SYSTEM = "pravidla"
SIDES = 6
DEGREES = ("failure", "success")
MIN_TARGET, MAX_TARGET = 2, 6


@dataclass(frozen=True)
class Roll:
    pool: int
    target: int
    need: int
    dice: tuple[int, ...]
    successes: int
    degree: str

    def result(self) -> RollResult:
        # ``total``: what the roll log's total column and verify show
        details = {"target": self.target, "need": self.need}
        return RollResult(
            SYSTEM, self.pool, self.dice, self.successes, self.degree, self.successes, details=details
        )

    def as_result(self) -> dict[str, Any]:
        return self.result().as_json()


def score(pool: int, faces: Sequence[int], target: int = 4, need: int = 1) -> Roll:
    """Read already-rolled faces: successes, and success when there are at least ``need`` of them."""
    successes = count_successes(faces, target)
    return Roll(pool, target, need, tuple(faces), successes, DEGREES[successes >= need])


def roll(pool: int, dice: DiceSource, target: int = 4, need: int = 1) -> Roll:
    return score(pool, [dice.roll(SIDES) for _ in range(pool)], target, need)


def contest(
    left: int,
    right: int,
    dice: DiceSource,
    target: int = 4,
    max_rounds: int = 100,
    ties: TieRule = "reroll",
) -> Contest[Roll]:
    """The attacker (left) rolls, then the defender; more successes wins; a tie is rolled again
    (the book), or settled by ``ties``: the attacker or the defender wins it, or nobody does."""
    rounds, sa, sb = contest_rounds(
        left, right, dice, sides=SIDES, target=target, max_rounds=max_rounds, ties=ties
    )
    winner, tie = decide(sa, sb, ties)
    all_a, all_b = every_face(rounds)
    sides = (
        Roll(left, target, 1, all_a, sa, DEGREES[winner == 0]),
        Roll(right, target, 1, all_b, sb, DEGREES[winner == 1]),
    )
    return Contest(SYSTEM, sides, tuple(rounds), winner, tie)


@dataclass(frozen=True)
class TugRound:
    """One round of a tug of war. ``balance`` > 0: the left side leads by that much."""

    left: Roll
    right: Roll
    difference: int
    balance: int
    lead: int
    winner: int | None

    def result(self) -> ContestResult:
        details = {"action": "tug", "difference": self.difference, "balance": self.balance, "lead": self.lead}
        return ContestResult(SYSTEM, (self.left.result(), self.right.result()), self.winner, details)

    def as_result(self) -> dict[str, Any]:
        return self.result().as_json()


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


def initiative(combatants: Sequence[Combatant], dice: DiceSource, max_rounds: int = 100) -> Order:
    """Sort by the criteria (stable in joining order), then one die each inside a full tie."""

    def settle(group: Sequence[str], rolls: dict[str, list[int]]) -> list[str]:
        return break_ties(group, dice, rolls, sides=SIDES, max_rounds=max_rounds)

    return rank(SYSTEM, combatants, settle)


# The powers ``init join`` and ``init add`` name (``init join lovecký celerita pokročilá``).
POWERS = PowerWords(
    fold=fold,
    flags={"hunting": frozenset({"hunt", "hunting", "instinct", "instinkt", "lovecky"})},
    levelled={"celerity": frozenset({"celerity", "celerita"})},
    levels={"basic": 1, "zakladni": 1, "1": 1, "advanced": 2, "pokrocila": 2, "2": 2},
)


def initiative_order(
    entries: Sequence[Mapping[str, Any]], settings: PravidlaSettings, dice: DiceSource
) -> dict[str, Any]:
    """The initiative tracker's entries in the book's order (switched-on powers, then Stamina, then
    Wits, then a die; higher first), as a result; Celerity's extra actions from the settings."""
    extra = {0: 0, 1: settings.celerity_basic_extra, 2: settings.celerity_advanced_extra}
    combatants = [
        Combatant(
            name=e["name"],
            hunting=bool(e["hunting"]),
            celerity=int(e["celerity"]),
            stamina=int(e["stamina"]),
            wits=int(e["wits"]),
            extra_actions=extra[int(e["celerity"])],
        )
        for e in entries
    ]
    return initiative(combatants, dice, settings.max_rerolls).as_result()
