"""Dramatic Systems' dice as pure functions (RULINGS, "Dramatic Systems"). Dice come in; no I/O.

d10 pool against a difficulty (default 6, clamped to 2..10). Each die at or above the difficulty is a
success; each 1 cancels one. Willpower adds one automatic success that 1s can cancel too. A botch is
at least one 1 and no die reaching the difficulty, whatever Willpower adds. Net successes are never
below 0. With a specialty each 10 rolls one more die (again on a 10); an extra die that reaches the
difficulty adds a success, and a 1 on it cancels nothing.

House rules (``plugins.dramatic.house``) arrive as keyword arguments whose defaults are the book's:
``tens_explode`` (``specialty``: a 10 rolls one more die with a specialty; ``always``; ``never``),
``tens_double`` (``never``; ``always``: a 10 that reaches the difficulty counts two successes;
``specialty``: only with a specialty), ``ones_cancel``, ``botch`` and ``willpower_cancelable``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from gateway import ContestResult, DiceSource, RollResult

SIDES = 10
SYSTEM = "dramatic"
DEFAULT_DIFFICULTY = 6
MIN_DIFFICULTY = 2
MAX_DIFFICULTY = 10
DEGREES = ("botch", "failure", "success")
Explode = Literal["specialty", "always", "never"]
Double = Literal["never", "always", "specialty"]
# A chain of 10s this long has probability 10**-1000; the cap only guarantees termination.
MAX_EXTRA_DICE = 1000


def clamp_difficulty(difficulty: int) -> int:
    return max(MIN_DIFFICULTY, min(MAX_DIFFICULTY, difficulty))


def retry_difficulty(difficulty: int, failures: int) -> int:
    """Trying the same thing again after ``failures`` failures: +1 difficulty each, then clamped."""
    return clamp_difficulty(difficulty + max(failures, 0))


@dataclass(frozen=True)
class Roll:
    pool: int
    difficulty: int
    original: tuple[int, ...]
    extra: tuple[int, ...]
    willpower: bool
    specialty: bool
    hits: int  # original dice at or above the difficulty
    extra_hits: int  # specialty dice at or above the difficulty
    ones: int  # 1s among the original dice
    successes: int  # net, never below 0
    degree: str

    @property
    def dice(self) -> tuple[int, ...]:
        return self.original + self.extra

    def result(self) -> RollResult:
        details = {
            "difficulty": self.difficulty,
            "extra_dice": list(self.extra),
            "willpower": self.willpower,
            "specialty": self.specialty,
            "hits": self.hits,
            "extra_hits": self.extra_hits,
            "ones": self.ones,
        }
        return RollResult(
            SYSTEM, self.pool, self.dice, self.successes, self.degree, self.successes, details=details
        )

    def as_result(self) -> dict[str, Any]:
        return self.result().as_json()


def explodes(tens_explode: str, specialty: bool) -> bool:
    """Whether a 10 rolls one more die on this roll."""
    return tens_explode == "always" or (tens_explode == "specialty" and specialty)


def doubles(tens_double: str, specialty: bool) -> bool:
    """Whether a 10 counts two successes on this roll."""
    return tens_double == "always" or (tens_double == "specialty" and specialty)


def score(
    pool: int,
    difficulty: int,
    original: tuple[int, ...],
    extra: tuple[int, ...] = (),
    *,
    willpower: bool = False,
    specialty: bool = False,
    tens_double: Double = "never",
    ones_cancel: bool = True,
    botch: bool = True,
    willpower_cancelable: bool = True,
) -> Roll:
    """Read already-rolled faces (``extra``: the specialty dice, in the order rolled)."""
    ten = 2 if doubles(tens_double, specialty) else 1
    hits = sum(1 for f in original if f >= difficulty)
    ones = sum(1 for f in original if f == 1)
    value = sum(ten if f == 10 else 1 for f in original if f >= difficulty)
    extra_hits = sum(1 for f in extra if f >= difficulty)
    extra_value = sum(ten if f == 10 else 1 for f in extra if f >= difficulty)
    cancel = ones if ones_cancel else 0
    wp = 1 if willpower else 0
    if willpower_cancelable:
        successes = max(value + extra_value + wp - cancel, 0)
    else:
        successes = max(value + extra_value - cancel, 0) + wp
    # The book's botch always nets 0; a Willpower success that 1s cannot cancel saves the roll.
    botched = botch and ones > 0 and hits == 0 and successes == 0
    read = "botch" if botched else "success" if successes > 0 else "failure"
    return Roll(
        pool, difficulty, original, extra, willpower, specialty, hits, extra_hits, ones, successes, read
    )


def roll(
    pool: int,
    difficulty: int,
    dice: DiceSource,
    *,
    willpower: bool = False,
    specialty: bool = False,
    tens_explode: Explode = "specialty",
    tens_double: Double = "never",
    ones_cancel: bool = True,
    botch: bool = True,
    willpower_cancelable: bool = True,
) -> Roll:
    """Roll ``pool`` d10 at ``difficulty`` (clamped to 2..10); a pool of 0 or less rolls no dice."""
    difficulty = clamp_difficulty(difficulty)
    original = tuple(dice.roll(SIDES) for _ in range(max(pool, 0)))
    extra: list[int] = []
    if explodes(tens_explode, specialty):
        pending = sum(1 for f in original if f == 10)
        while pending and len(extra) < MAX_EXTRA_DICE:
            face = dice.roll(SIDES)
            extra.append(face)
            pending -= 1
            if face == 10:
                pending += 1
    return score(
        max(pool, 0),
        difficulty,
        original,
        tuple(extra),
        willpower=willpower,
        specialty=specialty,
        tens_double=tens_double,
        ones_cancel=ones_cancel,
        botch=botch,
        willpower_cancelable=willpower_cancelable,
    )


@dataclass(frozen=True)
class Resisted:
    """Both roll; successes cancel one for one; the defender (side 1) wins ties."""

    sides: tuple[Roll, Roll]
    margin: int  # the attacker's successes left after cancelling, never below 0
    winner: int

    def result(self) -> ContestResult:
        return ContestResult(
            SYSTEM, tuple(s.result() for s in self.sides), self.winner, {"margin": self.margin}
        )

    def as_result(self) -> dict[str, Any]:
        return self.result().as_json()


def resist(attacker: Roll, defender: Roll) -> Resisted:
    margin = attacker.successes - defender.successes
    return Resisted((attacker, defender), max(margin, 0), 0 if margin > 0 else 1)
