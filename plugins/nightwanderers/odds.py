"""Exact odds for Night Wanderers, as fractions: the chance of each quality (pure; no dice).
Successes and contests with re-rolled ties are ``gateway.rules.binomial`` on d6."""

from __future__ import annotations

from fractions import Fraction

from gateway.rules.binomial import counts
from plugins.nightwanderers.mechanics import QUALITIES, SIDES, quality


def qualities(pool: int, difficulty: int, need: int = 1) -> dict[str, Fraction]:
    """P(each quality): failure, done, good, excellent, masterful."""
    ways, total = counts(pool, difficulty, sides=SIDES)
    out = dict.fromkeys(QUALITIES, 0)
    for k, w in enumerate(ways):
        out[quality(k, need)] += w
    return {q: Fraction(w, total) for q, w in out.items()}
