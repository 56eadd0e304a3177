"""Ties broken with dice (pure): two pools rolled again while their successes tie (or settled by a
house rule, ``TieRule``), and tied names put in order by rolling again while tied. Dice come in;
every face is kept."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Literal, Protocol, TypeVar

from gateway.core.dice import DiceSource
from gateway.core.results import ContestResult, RollResult

Faces = tuple[int, ...]
# How a contest's tie is settled: rolled again (Pravidla's and Night Wanderers' books), won by the
# attacker (the left side, who rolls first), won by the defender, or won by nobody (a standoff).
TieRule = Literal["reroll", "attacker", "defender", "standoff"]
TIE_WINNER: dict[str, int | None] = {"attacker": 0, "defender": 1, "standoff": None}


class Scored(Protocol):
    @property
    def successes(self) -> int: ...

    def result(self) -> RollResult: ...


Side = TypeVar("Side", bound=Scored)


class Stalemate(Exception):
    """A tie was re-rolled ``max_rounds`` times without breaking (practically never happens)."""


def count_successes(faces: Sequence[int], target: int) -> int:
    return sum(1 for face in faces if face >= target)


def contest_rounds(
    left: int,
    right: int,
    dice: DiceSource,
    *,
    sides: int,
    target: int,
    max_rounds: int,
    ties: TieRule = "reroll",
) -> tuple[list[tuple[Faces, Faces]], int, int]:
    """The attacker (left) rolls, then the defender, at the same target, again while the successes
    tie (only when ``ties`` is ``reroll``; any other rule settles the first tie, so one round):
    (each round's faces, left's successes, right's successes) of the deciding round."""
    rounds: list[tuple[Faces, Faces]] = []
    for _ in range(max_rounds):
        a = tuple(dice.roll(sides) for _ in range(left))
        b = tuple(dice.roll(sides) for _ in range(right))
        rounds.append((a, b))
        sa, sb = count_successes(a, target), count_successes(b, target)
        if sa != sb or ties != "reroll":
            return rounds, sa, sb
    raise Stalemate(max_rounds)


def decide(sa: int, sb: int, ties: TieRule) -> tuple[int | None, str | None]:
    """(the winner, 0 left or 1 right or None, and the rule that settled a tie, None when the
    successes differ) of a deciding round; a ``reroll`` round never ties (``contest_rounds``)."""
    if sa != sb:
        return (0 if sa > sb else 1), None
    return TIE_WINNER[ties], ties


def read_rounds(rounds: Sequence[tuple[Faces, Faces]], target: int, ties: TieRule) -> Hashable:
    """How a contest's rolled ``rounds`` end when read at ``target`` under ``ties`` (for the roll
    line's house-rule note): (the round that decided it, the winner, the tie rule that settled it),
    or "rolled again" when every round there is ties and ``ties`` rolls it again."""
    for index, (a, b) in enumerate(rounds):
        sa, sb = count_successes(a, target), count_successes(b, target)
        if sa != sb or ties != "reroll":
            return (index, *decide(sa, sb, ties))
    return "rolled again"


@dataclass(frozen=True)
class Contest(Generic[Side]):
    """A contest of two pools: ``sides`` hold every face each side rolled (re-rolls appended) and
    the deciding round's successes; ``rounds`` keep each round's faces, left first. ``tie`` is the
    house rule that settled a tied round (``winner`` None: a standoff), None when none did."""

    system: str
    sides: tuple[Side, Side]
    rounds: tuple[tuple[Faces, Faces], ...]
    winner: int | None
    tie: str | None = None

    def result(self) -> ContestResult:
        details: dict[str, Any] = {
            "rounds": [[list(a), list(b)] for a, b in self.rounds],
            "rerolls": len(self.rounds) - 1,
        }
        if self.tie is not None:
            details["tie"] = self.tie
        return ContestResult(self.system, tuple(s.result() for s in self.sides), self.winner, details)

    def as_result(self) -> dict[str, Any]:
        return self.result().as_json()


def every_face(rounds: Sequence[tuple[Faces, Faces]]) -> tuple[Faces, Faces]:
    """All the faces each side rolled, round after round."""
    return tuple(f for r in rounds for f in r[0]), tuple(f for r in rounds for f in r[1])


def break_ties(
    names: Sequence[str],
    dice: DiceSource,
    rolls: dict[str, list[int]],
    *,
    sides: int,
    count: int = 1,
    higher_first: bool = True,
    then: Callable[[Sequence[str]], list[str]] | None = None,
    max_rounds: int = 100,
) -> list[str]:
    """Order tied ``names`` by a roll each (``count`` dice summed), in the given order; names still
    tied are settled by ``then`` (default: roll again the same way, ``max_rounds`` at most for each
    tie). Every face lands in ``rolls`` by name, and under ``""`` in the order rolled."""
    if len(names) <= 1:
        return list(names)
    for _ in range(max_rounds):
        totals: dict[str, int] = {}
        for name in names:
            faces = [dice.roll(sides) for _ in range(count)]
            rolls.setdefault(name, []).extend(faces)
            rolls.setdefault("", []).extend(faces)
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
                    break_ties(
                        group,
                        dice,
                        rolls,
                        sides=sides,
                        count=count,
                        higher_first=higher_first,
                        max_rounds=max_rounds,
                    )
                )
        return ordered
    raise Stalemate(max_rounds)
