"""Goodness of fit of counted dice and results to their exact odds. Pure.

Faces: Pearson's chi-square of each face's count against ``dice / sides``. Results: rolls of
different pools and difficulties have different odds, so the counts of each result are compared
with their exact expectation by ``(O - E)ᵀ V⁻¹ (O - E)``, ``V`` being the exact covariance of the
counts (the sum over rolls of ``diag(p) - p pᵀ``, one category left out to make it invertible).
When every roll has the same odds this is Pearson's X² exactly; with mixed odds it is its correct
generalisation (Pearson's X² over pooled odds would be chi-square only for identical rolls). Cells
expecting fewer than ``MIN_EXPECTED`` are pooled with their neighbour first, so that the
chi-square approximation holds; a test left with no degree of freedom gives no p-value.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from gateway.features.stats.pvalue import chi_square_p

MIN_EXPECTED = 5.0


@dataclass(frozen=True)
class Fit:
    statistic: float
    df: int
    p: float


def pooled(labels: Sequence[str], expected: Mapping[str, float]) -> list[list[str]]:
    """``labels`` (in their natural order) grouped so that each group expects at least
    ``MIN_EXPECTED``: neighbours are merged from the low end, and a short last group joins the one
    before it."""
    groups: list[list[str]] = []
    current: list[str] = []
    mass = 0.0
    for label in labels:
        current.append(label)
        mass += expected.get(label, 0.0)
        if mass >= MIN_EXPECTED:
            groups.append(current)
            current, mass = [], 0.0
    if current:
        if groups:
            groups[-1].extend(current)
        else:
            groups.append(current)
    return groups


def pearson(observed: Mapping[str, int], expected: Mapping[str, float], labels: Sequence[str]) -> Fit | None:
    """Pearson's X² over pooled cells; None with fewer than two cells after pooling."""
    groups = pooled(labels, expected)
    if len(groups) < 2:
        return None
    statistic = 0.0
    for group in groups:
        e = sum(expected.get(label, 0.0) for label in group)
        o = sum(observed.get(label, 0) for label in group)
        statistic += (o - e) ** 2 / e
    df = len(groups) - 1
    return Fit(statistic, df, chi_square_p(statistic, df))


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float] | None:
    """``matrix⁻¹ vector`` by Gaussian elimination with partial pivoting; None when singular."""
    n = len(vector)
    rows = [[*row, value] for row, value in zip(matrix, vector, strict=True)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(rows[r][col]))
        if abs(rows[pivot][col]) < 1e-12:
            return None
        rows[col], rows[pivot] = rows[pivot], rows[col]
        for r in range(col + 1, n):
            factor = rows[r][col] / rows[col][col]
            for c in range(col, n + 1):
                rows[r][c] -= factor * rows[col][c]
    out = [0.0] * n
    for r in range(n - 1, -1, -1):
        out[r] = (rows[r][n] - sum(rows[r][c] * out[c] for c in range(r + 1, n))) / rows[r][r]
    return out


def mixed(
    groups: Sequence[tuple[int, Mapping[str, Fraction]]],
    observed: Mapping[str, int],
    labels: Sequence[str],
) -> Fit | None:
    """The results test: ``groups`` are (rolls, exact odds of each label) for each kind of roll
    counted, ``observed`` the count of each label over all of them. None when the pooled cells
    leave no degree of freedom."""
    expected: dict[str, float] = {}
    for count, odds in groups:
        for label, p in odds.items():
            expected[label] = expected.get(label, 0.0) + count * float(p)
    cells = pooled([label for label in labels if expected.get(label, 0.0) > 0], expected)
    if len(cells) < 2:
        return None
    kept = cells[:-1]  # the last cell is implied by the others (the counts add up to the rolls)
    k = len(kept)
    covariance = [[0.0] * k for _ in range(k)]
    for count, odds in groups:
        cell_p = [float(sum((odds.get(label, Fraction(0)) for label in cell), Fraction(0))) for cell in kept]
        for i in range(k):
            for j in range(k):
                covariance[i][j] += count * ((cell_p[i] if i == j else 0.0) - cell_p[i] * cell_p[j])
    diff = [
        sum(observed.get(label, 0) for label in cell) - sum(expected.get(label, 0.0) for label in cell)
        for cell in kept
    ]
    solved = _solve(covariance, diff)
    if solved is None:
        return None
    statistic = max(0.0, sum(d * s for d, s in zip(diff, solved, strict=True)))
    return Fit(statistic, k, chi_square_p(statistic, k))
