"""Counts of logged rolls, in a shape that adds up: faces by die size, results by kind of roll
(each kind with its exact odds). Pure; ``store`` fills them from the roll log."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction

from gateway.rules.roll_distribution import RollDistribution

# A kind of roll is its labels and exact odds; groups are keyed by a small number standing for that
# value (the same number in every tally of the process, so tallies merge). Rule systems hand the
# same odds object to every roll of a kind (they cache them), so the number is looked up by the
# object first: hashing the Fractions was most of the cost of counting a roll.
_NUMBERS: dict[tuple[tuple[str, ...], tuple[tuple[str, Fraction], ...]], int] = {}
_BY_OBJECT: dict[int, tuple[Mapping[str, Fraction], tuple[str, ...], int]] = {}
MAX_OBJECTS = 4096


def signature(labels: tuple[str, ...], exact: Mapping[str, Fraction]) -> int:
    known = _BY_OBJECT.get(id(exact))
    if known is not None and known[0] is exact and known[1] == labels:
        return known[2]
    number = _NUMBERS.setdefault((labels, tuple(sorted(exact.items()))), len(_NUMBERS))
    if len(_BY_OBJECT) >= MAX_OBJECTS:
        _BY_OBJECT.clear()
    _BY_OBJECT[id(exact)] = (exact, labels, number)
    return number


@dataclass
class Group:
    """Rolls of one kind (the same exact odds) and how their results fell."""

    labels: tuple[str, ...]
    odds: Mapping[str, Fraction]
    rolls: int = 0
    observed: Counter[str] = field(default_factory=Counter)


@dataclass
class Tally:
    rolls: int = 0  # rolls counted (their faces, and their results where they have exact odds)
    other: int = 0  # logged rolls of kinds the rule system does not count (initiative, harm, ...)
    faces: dict[int, Counter[int]] = field(default_factory=dict)  # sides -> face -> count
    groups: dict[int, Group] = field(default_factory=dict)  # by ``signature``
    impossible: int = 0  # results their odds give no chance, faces a die cannot show

    def add(self, shape: RollDistribution | None) -> None:
        if shape is None:
            self.other += 1
            return
        self.rolls += 1
        counted = self.faces.get(shape.sides)
        if counted is None:
            counted = self.faces[shape.sides] = Counter()
        for face in shape.faces:
            if 1 <= face <= shape.sides:
                counted[face] += 1
            else:
                self.impossible += 1
        if shape.outcome is None or shape.exact is None:
            return
        key = signature(shape.labels, shape.exact)
        group = self.groups.get(key)
        if group is None:
            group = self.groups[key] = Group(shape.labels, shape.exact)
        group.rolls += 1
        group.observed[shape.outcome] += 1
        if not shape.exact.get(shape.outcome):
            self.impossible += 1

    def merge(self, other: Tally) -> None:
        self.rolls += other.rolls
        self.other += other.other
        self.impossible += other.impossible
        for sides, counted in other.faces.items():
            self.faces.setdefault(sides, Counter()).update(counted)
        for signature, group in other.groups.items():
            mine = self.groups.get(signature)
            if mine is None:
                mine = self.groups[signature] = Group(group.labels, group.odds)
            mine.rolls += group.rolls
            mine.observed.update(group.observed)

    @property
    def dice(self) -> int:
        return sum(sum(c.values()) for c in self.faces.values())

    @property
    def judged(self) -> int:
        """Rolls whose result is compared with exact odds."""
        return sum(g.rolls for g in self.groups.values())
