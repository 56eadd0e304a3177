"""The second pass's Night Wanderers rules as pure functions (dice come in; no I/O): initiative with
a dodge's bonus, pursuit, tug of war, exposure carried across turns, dismemberment and the price of
Humanity. The book's passages are quoted where each rule is applied."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from gateway import ContestResult, DiceSource
from gateway.rules.initiative import Order, rank
from gateway.rules.power_words import PowerWords
from gateway.rules.ties import break_ties
from plugins.nightwanderers.config import NightWanderersSettings
from plugins.nightwanderers.mechanics import SIDES, SYSTEM, Combatant, Roll, quality, roll
from plugins.nightwanderers.sheet import norm

DISMEMBER_TURNS = 5  # "На расчленение требуется 5 ходов."
HUMANITY_XP = 10  # "Стоимость 1 пункта Гуманности равна 10 очкам опыта."
HUMANITY_MAX = 10  # "Из возможных 10."
BITE_DAMAGE = 1  # "Укус снимает только один уровень Здоровья"


# The powers ``init join`` and ``init add`` name (``init join охотничий быстрота продвинутая``).
POWERS = PowerWords(
    fold=norm,
    flags={"hunting": frozenset({"hunt", "hunting", "instinct", "инстинкт", "охотничий"})},
    levelled={"celerity": frozenset({"celerity", "быстрота"})},
    levels={"basic": 1, "начальная": 1, "1": 1, "advanced": 2, "продвинутая": 2, "2": 2},
)


# --- 2d6, the lower first ------------------------------------------------------------------------


def lower_first(
    group: Sequence[str],
    dice: DiceSource,
    rolls: dict[str, list[int]],
    bonuses: Mapping[str, int],
    max_rounds: int = 100,
) -> list[str]:
    """2d6 each (plus any bonus: a dodge's -1), the lower total first; a tie: 1d6 each, the lower
    first, rolled again while tied. Every face lands in ``rolls`` (by name, and under ``""``)."""
    if len(group) <= 1:
        return list(group)
    totals: dict[str, int] = {}
    for name in group:
        faces = [dice.roll(SIDES), dice.roll(SIDES)]
        rolls.setdefault(name, []).extend(faces)
        rolls.setdefault("", []).extend(faces)
        totals[name] = sum(faces) + bonuses.get(name, 0)
    ordered: list[str] = []
    for value in sorted(set(totals.values())):
        tied = [n for n in group if totals[n] == value]
        ordered += break_ties(tied, dice, rolls, sides=SIDES, higher_first=False, max_rounds=max_rounds)
    return ordered


def initiative(
    combatants: Sequence[Combatant], dice: DiceSource, bonuses: Mapping[str, int], max_rounds: int = 100
) -> Order:
    """The book's initiative (powers, then 2d6 lower first) with a bonus on the 2d6 total: "Если
    увертывающийся набирает больше Успехов, чем атакующий, он получает более высокую инициативу в
    следующем ходу (-1)" -- lower goes first, so -1 on the total."""

    def settle(group: Sequence[str], rolls: dict[str, list[int]]) -> list[str]:
        return lower_first(group, dice, rolls, bonuses, max_rounds)

    return rank(SYSTEM, combatants, settle)


def initiative_order(
    entries: Sequence[Mapping[str, Any]],
    settings: NightWanderersSettings,
    dice: DiceSource,
    bonuses: Mapping[str, int] | None = None,
) -> dict[str, Any]:
    """The initiative tracker's entries in order, as a result: Celerity's extra actions from the
    settings, ``bonuses`` (a dodge's -1, by case-folded name) on each one's 2d6, and the bonuses used."""
    extra = {0: 0, 1: settings.celerity_basic_extra, 2: settings.celerity_advanced_extra}
    combatants = [
        Combatant(e["name"], bool(e["hunting"]), int(e["celerity"]), extra[int(e["celerity"])])
        for e in entries
    ]
    by_name = {e["name"]: (bonuses or {}).get(e["name"].casefold(), 0) for e in entries}
    order = initiative(combatants, dice, by_name, settings.max_rerolls).as_result()
    order["bonuses"] = {name: bonus for name, bonus in by_name.items() if bonus}
    return order


# --- pursuit -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Runner:
    """A side of a chase: active Celerity (0, 1 basic, 2 advanced) and Могущество (0, 1, 2)."""

    name: str
    celerity: int = 0
    potence: int = 0
    extra_actions: int = 0

    def key(self) -> tuple[int, int, int, int]:
        """Продвинутая Быстрота (активная), Начальная Быстрота (активная), Продвинутое Могущество,
        Начальное Могущество: compared in that order."""
        return (
            int(self.celerity >= 2),
            int(self.celerity >= 1),
            int(self.potence >= 2),
            int(self.potence >= 1),
        )


@dataclass(frozen=True)
class Chase:
    pursuer: Runner
    quarry: Runner
    caught: bool
    decided_by: str  # the power that decided it, or "dice"
    rolls: dict[str, list[int]]
    faces: tuple[int, ...]

    def as_result(self) -> dict[str, Any]:
        return {
            "kind": "pursuit",
            "system": SYSTEM,
            "pursuer": self.pursuer.name,
            "quarry": self.quarry.name,
            "caught": self.caught,
            "decided_by": self.decided_by,
            "rolls": self.rolls,
            "dice": list(self.faces),
        }


DECIDERS = ("celerity.2", "celerity.1", "potence.2", "potence.1")


def pursuit(pursuer: Runner, quarry: Runner, dice: DiceSource, max_rounds: int = 100) -> Chase:
    """ "Успех погони рассчитывается также, как и Инициатива": the powers in the book's order, then
    2d6, the lower wins; a tie: 1d6 (lower wins, rolled again while tied). The pursuer who comes
    first catches the quarry (the book's example: Maxina 3 against the knight's 4 catches him)."""
    a, b = pursuer.key(), quarry.key()
    if a != b:
        first_difference = next(i for i in range(len(a)) if a[i] != b[i])
        return Chase(pursuer, quarry, a > b, DECIDERS[first_difference], {}, ())
    rolls: dict[str, list[int]] = {}
    # Names may coincide (two NPCs): order by position tags so the dice stay with their side.
    order = lower_first(["pursuer", "quarry"], dice, rolls, {}, max_rounds)
    faces = tuple(rolls.pop("", []))
    named = {pursuer.name: rolls.get("pursuer", []), quarry.name: rolls.get("quarry", [])}
    return Chase(pursuer, quarry, order[0] == "pursuer", "dice", named, faces)


# --- tug of war ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class TugRound:
    """One round: both roll at the same difficulty; the difference in successes moves the running
    balance (> 0: the left side leads); the first side whose lead reaches ``goal`` wins."""

    left: Roll
    right: Roll
    balance: int
    goal: int

    @property
    def winner(self) -> int | None:
        if self.balance >= self.goal:
            return 0
        return 1 if self.balance <= -self.goal else None

    def result(self) -> ContestResult:
        details = {
            "action": "tug",
            "difference": self.left.successes - self.right.successes,
            "balance": self.balance,
            "goal": self.goal,
        }
        return ContestResult(SYSTEM, (self.left.result(), self.right.result()), self.winner, details)

    def as_result(self) -> dict[str, Any]:
        return self.result().as_json()


def tug_round(
    balance: int, goal: int, pools: tuple[int, int], dice: DiceSource, difficulty: int = 4
) -> TugRound:
    """Example 3: "В Ходе 1 Максина выкидывает 2 Успеха, ее противник 1 ... В Ходе 2 Tragander
    выкидывает 2 Успеха, Максина не одного. Успехи Tragander не только "отменяют" Успехи Максины в
    предыдущем ходе но и, складываясь с уже имеющимся у него Успехом, обеспечивают ему победу в
    этом ходу". A tied round moves nothing."""
    a = roll(pools[0], dice, difficulty)
    b = roll(pools[1], dice, difficulty)
    after = balance + a.successes - b.successes
    a = Roll(
        a.pool, difficulty, 1, a.dice, a.successes, quality(a.successes) if after > balance else "failure"
    )
    b = Roll(
        b.pool, difficulty, 1, b.dice, b.successes, quality(b.successes) if after < balance else "failure"
    )
    return TugRound(a, b, after, goal)


# --- exposure, dismemberment, Humanity -----------------------------------------------------------


def slow_exposure(carried: int, turns: int) -> tuple[int, int]:
    """ "Непрямой солнечный свет ... снимает один уровень Здоровья каждые два хода" (and a small fire
    burns "как непрямой солнечный свет"): (damage, turns carried to the next exposure). A turn left
    over is kept, so two ``sun indirect 1`` in a row take 1 HP."""
    total = max(0, carried) + turns
    return total // 2, total % 2


def dismember(done: int, turns: int) -> tuple[int, bool]:
    """(turns of work done, whether the body is now dismembered): "На расчленение требуется 5 ходов"."""
    total = min(DISMEMBER_TURNS, done + turns)
    return total, total >= DISMEMBER_TURNS


def humanity_cost(points: int) -> int:
    """Experience for ``points`` of Humanity: 10 each."""
    return HUMANITY_XP * points
