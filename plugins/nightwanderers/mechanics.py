"""Night Wanderers' rules as pure functions (RULINGS, "Night Wanderers"). Dice come in; no I/O.

d6 pools against a difficulty of 2-6 (a computed value outside is brought back into the range);
every die at or above the difficulty is a success and one is needed. The number of successes gives
the quality. Health runs in five equal bands with pain penalties; blood pays for healing,
disciplines and physical boosts; combat, sunlight, fire, hunting and stealth follow the book.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from gateway import ContestResult, DiceSource, RollResult
from gateway.rules.initiative import Order, rank
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

SYSTEM = "nightwanderers"
SIDES = 6
MIN_DIFFICULTY, MAX_DIFFICULTY = 2, 6
QUALITIES = ("failure", "done", "good", "excellent", "masterful")
BANDS = ("optimal", "normal", "medium", "dangerous", "critical")
KINDS = ("vampire", "human", "werewolf")
DISCIPLINE_COST = {"basic": 1, "advanced": 2}
# Hunting: a Mind roll, difficulty by ground.
TERRAIN = {
    "feeding": 2,  # кормушка: bars, night clubs, theatres
    "business": 3,  # деловая часть города
    "residential": 4,  # жилые кварталы
    "slums": 4,  # трущобы
    "suburbs": 4,  # пригороды
    "countryside": 5,  # деревня
    "wilderness": 6,  # дикая местность
}
# Ranged: difficulty by distance (point-blank not with a bow); damage = successes + bonus.
RANGE_DIFFICULTY = {"long": 5, "medium": 4, "point": 3}
MISSILE_BONUS = {"thrown": 1, "arrow": 3}
# Blood a victim holds (feeding takes 1 BP a turn).
VICTIM_BLOOD = {"human": 10, "cow": 5, "dog": 2, "cat": 1}
HOSPITAL_AFTER = 5
DEATH_AT = -10  # a human or werewolf dies for good at -10 HP


def clamp_difficulty(value: int) -> int:
    """The book: difficulty is 2 to 6; a higher computed value is lowered to 6 (and a lower one
    raised to 2, since a d6 has no face below 1)."""
    return max(MIN_DIFFICULTY, min(MAX_DIFFICULTY, value))


def quality(successes: int, need: int = 1) -> str:
    """1 done, 2 good, 3 excellent, 4+ masterful; fewer than ``need`` is a failure."""
    if successes < max(1, need):
        return "failure"
    return QUALITIES[min(successes, 4)]


@dataclass(frozen=True)
class Roll:
    pool: int
    difficulty: int
    need: int
    dice: tuple[int, ...]
    successes: int
    degree: str
    pain: int = 0

    def result(self) -> RollResult:
        # ``total``: what the roll log's total column and verify show
        details = {"difficulty": self.difficulty, "need": self.need, "pain": self.pain}
        return RollResult(
            SYSTEM, self.pool, self.dice, self.successes, self.degree, self.successes, details=details
        )

    def as_result(self) -> dict[str, Any]:
        return self.result().as_json()


def score(pool: int, faces: Sequence[int], difficulty: int = 4, need: int = 1, pain: int = 0) -> Roll:
    successes = count_successes(faces, difficulty)
    return Roll(pool, difficulty, need, tuple(faces), successes, quality(successes, need), pain)


def roll(pool: int, dice: DiceSource, difficulty: int = 4, need: int = 1, pain: int = 0) -> Roll:
    return score(pool, [dice.roll(SIDES) for _ in range(pool)], difficulty, need, pain)


# --- health and pain ------------------------------------------------------------------------------


def band(hp: int, max_hp: int) -> str | None:
    """Five equal bands from the top (25 HP: 25-21 Optimal, 20-16 Normal, ... 5-1 Critical;
    10 HP: 10-9, 8-7, 6-5, 4-3, 2-1). None at 0 HP or below."""
    if hp <= 0 or max_hp <= 0:
        return None
    return BANDS[min(4, max(0, (max_hp - hp) * 5 // max_hp))]


def pain(hp: int, max_hp: int, frenzy: bool = False) -> int:
    """Dice lost to pain: Normal band 1, Medium and worse 2; a vampire in frenzy feels none."""
    if frenzy:
        return 0
    current = band(hp, max_hp)
    if current in (None, "optimal"):
        return 0 if current == "optimal" else 2
    return 1 if current == "normal" else 2


def after_pain(pool: int, penalty: int) -> tuple[int, int]:
    """(dice rolled, dice actually lost): at least one die is always rolled."""
    dice = max(1, pool - penalty)
    return dice, max(0, pool - dice)


def status(kind: str, hp: int, blood: int | None, dead: bool = False) -> str:
    """``active``, ``torpor`` (a vampire at 0 HP or 0 BP), ``unconscious`` (a human or werewolf at
    0 HP or less, losing 1 HP a turn) or ``dead``."""
    if dead or (kind != "vampire" and hp <= DEATH_AT):
        return "dead"
    if kind == "vampire":
        return "torpor" if hp <= 0 or (blood is not None and blood <= 0) else "active"
    return "unconscious" if hp <= 0 else "active"


@dataclass(frozen=True)
class Harm:
    """Damage taken: HP before and after, and whether it was the final death."""

    before: int
    after: int
    dead: bool


def take_damage(kind: str, hp: int, damage: int, deep: bool) -> Harm:
    """A vampire stops at 0 HP (torpor); deep damage (fire, sun, a vampire's fangs and claws) past 0
    destroys a vampire in torpor. A human or werewolf goes below 0 and dies at -10."""
    if kind == "vampire":
        raw = hp - damage
        return Harm(hp, max(0, raw), deep and damage > 0 and raw < 0)
    after = max(DEATH_AT, hp - damage)
    return Harm(hp, after, after <= DEATH_AT)


def halve(damage: int) -> int:
    """A successful soak: half the damage, rounded down, but at least 1."""
    return max(1, damage // 2) if damage > 0 else 0


# --- blood ----------------------------------------------------------------------------------------


def boost_cost(n: int, already: int = 0) -> int:
    """Raising a physical attribute by n costs 1+2+...+n BP; on top of an existing boost of
    ``already`` the next points cost already+1, already+2, ... (so 3 in one go or in steps is 6)."""
    total = already + n
    return total * (total + 1) // 2 - already * (already + 1) // 2


def hunger(blood: int, hunger_at: int = 5, ravenous_at: int = 2) -> str:
    """``sated``, ``hungry`` (<= 5: frenzy check on sight or smell of blood), ``ravenous`` (<= 2:
    frenzy check near any living being, +1 difficulty when blood is seen) or ``torpor`` (0)."""
    if blood <= 0:
        return "torpor"
    if blood <= ravenous_at:
        return "ravenous"
    if blood <= hunger_at:
        return "hungry"
    return "sated"


def frenzy_difficulty(base: int, state: str, blood_seen: bool) -> int:
    return clamp_difficulty(base + (1 if state == "ravenous" and blood_seen else 0))


# --- contests, combat, stealth --------------------------------------------------------------------


def contest(
    left: int,
    right: int,
    dice: DiceSource,
    difficulty: int = 4,
    pains: tuple[int, int] = (0, 0),
    max_rounds: int = 100,
    ties: TieRule = "reroll",
) -> Contest[Roll]:
    """Both roll at the same difficulty, the attacker first; more successes wins; ties roll again
    (the book), or are settled by ``ties``: the attacker or the defender wins, or nobody does."""
    rounds, sa, sb = contest_rounds(
        left, right, dice, sides=SIDES, target=difficulty, max_rounds=max_rounds, ties=ties
    )
    winner, tie = decide(sa, sb, ties)
    all_a, all_b = every_face(rounds)
    sides = (
        Roll(left, difficulty, 1, all_a, sa, quality(sa) if winner == 0 else "failure", pains[0]),
        Roll(right, difficulty, 1, all_b, sb, quality(sb) if winner == 1 else "failure", pains[1]),
    )
    return Contest(SYSTEM, sides, tuple(rounds), winner, tie)


def attack_hits(attack: int, defence: int) -> bool:
    """The attacker hits with at least one success and at least as many as the defender."""
    return attack >= 1 and attack >= defence


@dataclass(frozen=True)
class Stealth:
    sneak: Roll
    inspection: Roll
    outcome: str  # unseen | noticed | heard

    @property
    def winner(self) -> int | None:
        return {"unseen": 0, "noticed": 1, "heard": None}[self.outcome]

    def result(self) -> ContestResult:
        sides = (self.sneak.result(), self.inspection.result())
        return ContestResult(SYSTEM, sides, self.winner, {"action": "stealth", "outcome": self.outcome})

    def as_result(self) -> dict[str, Any]:
        return self.result().as_json()


def stealth(
    sneak_pool: int,
    inspection_pool: int,
    dice: DiceSource,
    inspection_difficulty: int = 4,
    pains: tuple[int, int] = (0, 0),
) -> Stealth:
    """Sneak at 4 against Inspection at 4 (3 right after a tie): a tie is "heard something"."""
    a = roll(sneak_pool, dice, 4, pain=pains[0])
    b = roll(inspection_pool, dice, inspection_difficulty, pain=pains[1])
    if a.successes > b.successes:
        outcome = "unseen"
    elif b.successes > a.successes:
        outcome = "noticed"
    else:
        outcome = "heard"
    return Stealth(a, b, outcome)


def exposure(source: str, strength: str, turns: int = 0, surprise: bool = False) -> int:
    """Sun: direct 1 HP a turn, indirect 1 HP every two turns. A small fire burns like indirect sun
    (1 HP when it takes one by surprise), a large fire like direct sun (2 HP by surprise)."""
    if source == "fire" and surprise:
        return 1 if strength == "small" else 2
    direct = (source == "sun" and strength == "direct") or (source == "fire" and strength == "large")
    return turns if direct else turns // 2


# --- initiative -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Combatant:
    name: str
    hunting: bool = False
    celerity: int = 0  # 0 none, 1 basic, 2 advanced (active)
    extra_actions: int = 0

    def key(self) -> tuple[int, int, int]:
        return (int(self.hunting), int(self.celerity >= 2), int(self.celerity >= 1))


def initiative(combatants: Sequence[Combatant], dice: DiceSource, max_rounds: int = 100) -> Order:
    """Active Hunting Instinct, then Advanced, then Basic Celerity; then 2d6, the lower total first;
    a tie there: 1d6 each, lower first, rolled again while tied. Extra actions after everyone's first."""

    def settle(group: Sequence[str], rolls: dict[str, list[int]]) -> list[str]:
        def one_die(tied: Sequence[str]) -> list[str]:
            return break_ties(tied, dice, rolls, sides=SIDES, higher_first=False, max_rounds=max_rounds)

        return break_ties(
            group, dice, rolls, sides=SIDES, count=2, higher_first=False, then=one_die, max_rounds=max_rounds
        )

    return rank(SYSTEM, combatants, settle)
