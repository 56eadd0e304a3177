"""Counts of logged rolls, in a shape that adds up: faces by die size, results by kind of roll
(each kind with its exact odds). Pure; ``store`` fills them from the roll log."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction

from gateway.stats.shape import RollDistribution

Signature = tuple[tuple[str, ...], tuple[tuple[str, Fraction], ...]]


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
    groups: dict[Signature, Group] = field(default_factory=dict)
    impossible: int = 0  # results their odds give no chance, faces a die cannot show

    def add(self, shape: RollDistribution | None) -> None:
        if shape is None:
            self.other += 1
            return
        self.rolls += 1
        counted = self.faces.setdefault(shape.sides, Counter())
        for face in shape.faces:
            if 1 <= face <= shape.sides:
                counted[face] += 1
            else:
                self.impossible += 1
        if shape.outcome is None or shape.exact is None:
            return
        signature = (shape.labels, tuple(sorted(shape.exact.items())))
        group = self.groups.get(signature)
        if group is None:
            group = self.groups[signature] = Group(shape.labels, shape.exact)
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
