"""Decanter's dice as pure functions (RULINGS, "Decanter"). No I/O, no clock: dice come in.

d10 pools: 6-9 is one success, 10 two, 1 takes one away, 2-5 nothing. A roll is read against a
Difficulty Class: net successes <= 0 botch, below the DC setback, equal success, above it extra
successes. A pool more than double the DC succeeds automatically unless the roll is forced.

House rules (``plugins.decanter.house``) arrive as keyword arguments whose defaults are the book's:
``tens_double`` (a 10 is two successes; off: one), ``ones_subtract`` (a 1 takes one away; off:
nothing) and ``automatic_success`` (off: every pool rolls).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from gateway import ContestResult, DiceSource, RollResult

SIDES = 10
SYSTEM = "decanter"

DC_TABLE: dict[str, int] = {
    "easy": 1,
    "routine": 2,
    "challenging": 3,
    "formidable": 4,
    "hard": 5,
    "very hard": 6,
    "almost impossible": 7,
    "superhuman": 8,
}
DEGREES = ("botch", "setback", "success", "extra")
# The scale of dice qualities; qualities add and the sum is clamped to [-2, +2].
QUALITY_STEPS = {"mdis": -2, "dis": -1, "adv": 1, "madv": 2}
QUALITY_NAMES = {
    -2: "major_disadvantage",
    -1: "disadvantage",
    0: None,
    1: "advantage",
    2: "major_advantage",
}
EXTENDED_MULTIPLIERS = range(2, 6)
MAX_CONTEST_ROUNDS = 100


def face_value(face: int, tens_double: bool = True, ones_subtract: bool = True) -> int:
    """6-9: one success; 10: two; 1: takes one away; 2-5: nothing."""
    if face == 10:
        return 2 if tens_double else 1
    if face >= 6:
        return 1
    if face == 1:
        return -1 if ones_subtract else 0
    return 0


def net(faces: Iterable[int], tens_double: bool = True, ones_subtract: bool = True) -> int:
    return sum(face_value(f, tens_double, ones_subtract) for f in faces)


def is_success_face(face: int) -> bool:
    return face >= 6


def dc_by_name(name: str) -> int | None:
    """``hard`` -> 5, ``very hard`` / ``very-hard`` / ``veryhard`` -> 6; None for no such name."""
    key = "".join(ch for ch in name.casefold() if ch.isalpha())
    for title, dc in DC_TABLE.items():
        if key == title.replace(" ", ""):
            return dc
    return None


def dc_title(dc: int) -> str:
    """The table's name for a DC (8 and above are Superhuman)."""
    for title, value in DC_TABLE.items():
        if value == min(dc, 8):
            return title
    return "easy"


def npc_dc(npc_pool: int) -> int:
    """NPCs never roll: the DC against them is half their pool, rounded down, plus one."""
    return max(npc_pool, 0) // 2 + 1


def is_automatic(pool: int, dc: int) -> bool:
    """A pool more than double the DC needs no roll."""
    return pool > 2 * dc


def degree(successes: int, dc: int) -> str:
    if successes <= 0:
        return "botch"
    if successes < dc:
        return "setback"
    if successes == dc:
        return "success"
    return "extra"


def shortfall(successes: int, dc: int) -> int:
    """How far a roll fell short: many Conditions cost (DC - rolled successes) to resist."""
    return max(dc - max(successes, 0), 0)


def combine_qualities(steps: Iterable[int]) -> int:
    """Qualities add on the scale and the sum is clamped: Major Advantage + Disadvantage = Advantage."""
    return max(-2, min(2, sum(steps)))


def take_half(pool: int) -> int:
    return max(pool, 0) // 2


def step_down(current: str, steps: int) -> str:
    """Downgrade a degree by ``steps`` (extra -> success -> setback -> botch); automatic counts as success."""
    ladder = list(DEGREES)
    at = ladder.index("success" if current == "automatic" else current)
    if steps > at:
        raise ValueError(f"cannot step {current} down {steps} times")
    return ladder[at - steps]


def steps_available(current: str) -> int:
    """How many downgrade steps a degree has left before botch."""
    return list(DEGREES).index("success" if current == "automatic" else current)


@dataclass(frozen=True)
class Roll:
    """One Decanter roll. ``dice`` has every face in the order rolled (a second roll or re-rolled dice
    are appended). ``successes`` is the net result after qualities; ``degree`` is None without a DC."""

    pool: int
    dc: int | None
    quality: int
    dice: tuple[int, ...]
    successes: int
    degree: str | None
    automatic: bool = False
    forced: bool = False
    take_half: bool = False
    # Advantage / Disadvantage: the two results and which was kept (the take-half "roll" has no dice).
    results: tuple[int, ...] = ()
    kept: int | None = None
    rerolled: tuple[int, ...] = ()

    @property
    def extra_successes(self) -> int:
        if self.dc is None or self.degree != "extra":
            return 0
        return self.successes - self.dc

    def result(self) -> RollResult:
        data: dict[str, Any] = {
            "dc": self.dc,
            "quality": QUALITY_NAMES[self.quality],
            "automatic": self.automatic,
            "forced": self.forced,
            "take_half": self.take_half,
        }
        if self.degree == "extra":
            data["extra_successes"] = self.extra_successes
        if self.dc is not None and self.degree in ("botch", "setback"):
            data["shortfall"] = shortfall(self.successes, self.dc)
        if self.results:
            data["results"] = list(self.results)
            data["kept"] = self.kept
        if self.quality in (-2, 2):
            data["rerolled"] = list(self.rerolled)
        return RollResult(
            SYSTEM, self.pool, self.dice, self.successes, self.degree, self.successes, details=data
        )

    def as_result(self) -> dict[str, Any]:
        return self.result().as_json()


def roll_faces(count: int, dice: DiceSource) -> tuple[int, ...]:
    return tuple(dice.roll(SIDES) for _ in range(max(count, 0)))


def _read(successes: int, dc: int | None) -> str | None:
    return None if dc is None else degree(successes, dc)


def roll(
    pool: int,
    dice: DiceSource,
    *,
    dc: int | None = None,
    quality: int = 0,
    half: bool = False,
    force: bool = False,
    tens_double: bool = True,
    ones_subtract: bool = True,
    automatic_success: bool = True,
) -> Roll:
    """Roll ``pool`` d10 with a dice quality (-2..+2), or Take Half; read against ``dc`` when given.

    A pool of 0 or less rolls no dice (no successes: a botch). ``half`` with Major Advantage or Major
    Disadvantage is refused (ValueError): there are no dice to re-roll.
    """
    pool = max(pool, 0)
    quality = combine_qualities([quality])

    def net(faces: Iterable[int]) -> int:
        return sum(face_value(f, tens_double, ones_subtract) for f in faces)

    if dc is not None and not force and automatic_success and is_automatic(pool, dc):
        return Roll(pool, dc, quality, (), dc, "automatic", automatic=True, take_half=half)
    if half and quality in (-2, 2):
        raise ValueError("Take Half works with Advantage or Disadvantage only")
    if half and quality == 0:
        value = take_half(pool)
        return Roll(pool, dc, 0, (), value, _read(value, dc), forced=force, take_half=True)
    if quality in (-1, 1):
        first = roll_faces(pool, dice)
        a = net(first)
        if half:
            second: tuple[int, ...] = ()
            b = take_half(pool)
        else:
            second = roll_faces(pool, dice)
            b = net(second)
        pick = max if quality == 1 else min
        value = pick(a, b)
        kept = 0 if value == a else 1
        return Roll(
            pool,
            dc,
            quality,
            first + second,
            value,
            _read(value, dc),
            forced=force,
            take_half=half,
            results=(a, b),
            kept=kept,
        )
    faces = roll_faces(pool, dice)
    if quality == 2:
        # Major Advantage: every failed die (1-5) is rolled once more; those dice's net successes add.
        again = tuple(dice.roll(SIDES) for f in faces if not is_success_face(f))
        value = net(faces) + net(again)
    elif quality == -2:
        # Major Disadvantage: every successful die (6-10) is rolled again; only the re-rolls count,
        # and the original 1s still take successes away.
        again = tuple(dice.roll(SIDES) for f in faces if is_success_face(f))
        value = net(again) - (sum(1 for f in faces if f == 1) if ones_subtract else 0)
    else:
        again = ()
        value = net(faces)
    return Roll(pool, dc, quality, faces + again, value, _read(value, dc), forced=force, rerolled=again)


def reread_faces(roll: Roll, *, tens_double: bool = True, ones_subtract: bool = True) -> int:
    """The net successes ``roll``'s own faces give under other die switches (an automatic or a
    take-half roll has none: its value stands)."""
    if roll.automatic or (roll.take_half and roll.quality == 0):
        return roll.successes

    def net_(faces: Iterable[int]) -> int:
        return net(faces, tens_double, ones_subtract)

    pool = roll.pool
    faces, again = roll.dice[:pool], roll.dice[pool:]
    if roll.quality in (-1, 1):
        a = net_(faces)
        b = take_half(pool) if roll.take_half else net_(again)
        return max(a, b) if roll.quality == 1 else min(a, b)
    if roll.quality == 2:
        return net_(faces) + net_(again)
    if roll.quality == -2:
        return net_(again) - (sum(1 for f in faces if f == 1) if ones_subtract else 0)
    return net_(faces)


def reread(successes: int, dc: int, downgrade_steps: int = 0) -> str:
    """The degree of ``successes`` against ``dc`` after a Story Point bonus and any downgrades."""
    read = degree(successes, dc)
    return step_down(read, downgrade_steps) if downgrade_steps else read


@dataclass(frozen=True)
class Aid:
    """One helper's contribution. A player character rolls their pool; an NPC takes half."""

    pool: int
    npc: bool
    dice: tuple[int, ...]
    successes: int

    def as_result(self) -> dict[str, Any]:
        return {"pool": self.pool, "npc": self.npc, "dice": list(self.dice), "successes": self.successes}


def aid(
    pool: int, dice: DiceSource, *, npc: bool = False, tens_double: bool = True, ones_subtract: bool = True
) -> Aid:
    if npc:
        return Aid(pool, True, (), take_half(pool))
    faces = roll_faces(pool, dice)
    return Aid(pool, False, faces, net(faces, tens_double, ones_subtract))


def aid_bonus(helpers: Sequence[Aid], cap: int = 5) -> int:
    """Helpers' successes become bonus dice, never negative, at most ``cap`` in all."""
    return min(cap, sum(max(h.successes, 0) for h in helpers))


@dataclass(frozen=True)
class Contest:
    """PC against PC: the more net successes wins; equal successes go to the larger pool; equal pools
    re-roll until the tie breaks (``rounds`` lists each round's successes, left first)."""

    sides: tuple[Roll, Roll]
    winner: int | None
    decided_by: str  # successes | pool | reroll | unbroken
    rounds: tuple[tuple[int, int], ...] = field(default=())

    def result(self) -> ContestResult:
        details = {"decided_by": self.decided_by, "rounds": [list(r) for r in self.rounds]}
        return ContestResult(SYSTEM, tuple(s.result() for s in self.sides), self.winner, details)

    def as_result(self) -> dict[str, Any]:
        return self.result().as_json()


def contest(
    left_pool: int,
    right_pool: int,
    dice: DiceSource,
    *,
    left_quality: int = 0,
    right_quality: int = 0,
    max_rounds: int = MAX_CONTEST_ROUNDS,
    tens_double: bool = True,
    ones_subtract: bool = True,
) -> Contest:
    die = {"tens_double": tens_double, "ones_subtract": ones_subtract}
    left = roll(left_pool, dice, quality=left_quality, **die)
    right = roll(right_pool, dice, quality=right_quality, **die)
    rounds = [(left.successes, right.successes)]
    if left.successes != right.successes:
        return Contest(
            (left, right), 0 if left.successes > right.successes else 1, "successes", tuple(rounds)
        )
    if left.pool != right.pool:
        return Contest((left, right), 0 if left.pool > right.pool else 1, "pool", tuple(rounds))
    if left.pool == 0:
        return Contest((left, right), None, "unbroken", tuple(rounds))
    dice_left, dice_right = list(left.dice), list(right.dice)
    while len(rounds) < max_rounds:
        again_left = roll(left.pool, dice, quality=left_quality, **die)
        again_right = roll(right.pool, dice, quality=right_quality, **die)
        dice_left += again_left.dice
        dice_right += again_right.dice
        rounds.append((again_left.successes, again_right.successes))
        if again_left.successes != again_right.successes:
            final = (_merge(again_left, dice_left), _merge(again_right, dice_right))
            winner = 0 if again_left.successes > again_right.successes else 1
            return Contest(final, winner, "reroll", tuple(rounds))
    return Contest((left, right), None, "unbroken", tuple(rounds))


def judge(left: int, right: int, left_pool: int, right_pool: int) -> tuple[int, str] | None:
    """PC vs PC read again after a Roll Bonus: (winner, decided by) on successes, then the larger
    pool; None for equal successes of equal pools, which only a re-roll breaks."""
    if left != right:
        return (0 if left > right else 1), "successes"
    if left_pool != right_pool:
        return (0 if left_pool > right_pool else 1), "pool"
    return None


def _merge(last: Roll, all_dice: list[int]) -> Roll:
    """The final round's reading, with every face of every round in ``dice``."""
    return Roll(
        last.pool,
        None,
        last.quality,
        tuple(all_dice),
        last.successes,
        None,
        results=last.results,
        kept=last.kept,
        rerolled=last.rerolled,
    )


def extended_target(dc: int, multiplier: int) -> int:
    if multiplier not in EXTENDED_MULTIPLIERS:
        raise ValueError("an extended contest multiplies the DC by 2 to 5")
    return dc * multiplier


def extended_total(rolls: Iterable[int]) -> int:
    """An extended contest "adds up their total successes": each roll adds its net successes, and a
    roll below zero (a botch, which has none) adds nothing rather than taking earlier ones away."""
    return sum(max(successes, 0) for successes in rolls)


def gain_points(current: int, amount: int, cap: int) -> tuple[int, int]:
    """Story Points after gaining ``amount`` with a cap: (new total, points lost over the cap)."""
    total = current + amount
    return min(total, cap), max(total - cap, 0)


DURATIONS = ("scene", "night", "resolved")


def expire_conditions(
    conditions: Sequence[dict[str, Any]], channel: str, durations: Iterable[str]
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Split conditions into (kept, expired): those of ``durations`` gained in ``channel`` expire."""
    ending = set(durations)
    kept: list[dict[str, Any]] = []
    expired: list[dict[str, Any]] = []
    for condition in conditions:
        if condition.get("duration") in ending and condition.get("channel") == channel:
            expired.append(condition)
        else:
            kept.append(condition)
    return kept, expired
