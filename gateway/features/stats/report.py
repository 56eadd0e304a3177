"""``stats``'s figures from a tally: each face's count against the expected, each result's count
against its exact expectation, the two tests and one verdict. Pure."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from gateway.features.stats.fit import Fit, mixed, pearson
from gateway.features.stats.tally import Tally

UNUSUAL = 0.01  # below this (after the correction for several tests) the dice are called unusual


@dataclass(frozen=True)
class FaceTest:
    sides: int
    counts: tuple[int, ...]  # faces 1..sides
    expected: float
    fit: Fit | None


@dataclass(frozen=True)
class ResultTest:
    labels: tuple[str, ...]
    observed: tuple[int, ...]
    expected: tuple[float, ...]
    fit: Fit | None


@dataclass(frozen=True)
class Report:
    tally: Tally
    faces: tuple[FaceTest, ...]
    results: ResultTest | None
    p: float | None  # the smallest p-value times the number of tests (Bonferroni), at most 1

    @property
    def verdict(self) -> str:
        """``fair``, ``unusual``, ``impossible`` (a result or face fair dice cannot give) or
        ``too_few`` (no test had enough data)."""
        if self.tally.impossible:
            return "impossible"
        if self.p is None:
            return "too_few"
        return "unusual" if self.p < UNUSUAL else "fair"


def face_test(sides: int, counted: Counter[int]) -> FaceTest:
    n = sum(counted.values())
    labels = [str(f) for f in range(1, sides + 1)]
    expected = n / sides
    fit = pearson({str(f): c for f, c in counted.items()}, dict.fromkeys(labels, expected), labels)
    return FaceTest(sides, tuple(counted.get(f, 0) for f in range(1, sides + 1)), expected, fit)


def result_test(tally: Tally) -> ResultTest | None:
    if not tally.groups:
        return None
    labels: list[str] = []
    observed: Counter[str] = Counter()
    expected: dict[str, float] = {}
    for group in tally.groups.values():
        labels.extend(label for label in group.labels if label not in labels)
        observed.update(group.observed)
        for label, p in group.odds.items():
            expected[label] = expected.get(label, 0.0) + group.rolls * float(p)
    groups = [(g.rolls, g.odds) for g in tally.groups.values()]
    fit = mixed(groups, observed, labels)
    labels = [label for label in labels if expected.get(label, 0.0) > 0 or observed.get(label, 0)]
    return ResultTest(
        tuple(labels),
        tuple(observed.get(label, 0) for label in labels),
        tuple(expected.get(label, 0.0) for label in labels),
        fit,
    )


def report(tally: Tally) -> Report:
    faces = tuple(face_test(sides, c) for sides, c in sorted(tally.faces.items()) if sum(c.values()))
    results = result_test(tally)
    fits = [t.fit for t in faces if t.fit] + ([results.fit] if results and results.fit else [])
    p = min(1.0, min(f.p for f in fits) * len(fits)) if fits else None
    return Report(tally, faces, results, p)
