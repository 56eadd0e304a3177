"""Reference copy (before fastodds) of plugins/nightwanderers/odds.py.

Exact odds for Night Wanderers, as fractions: the chance of each quality (pure; no dice).
Successes and contests with re-rolled ties are ``gateway.rules.binomial`` on d6."""

from __future__ import annotations

from fractions import Fraction

from plugins.nightwanderers.mechanics import QUALITIES, SIDES, quality
from tests.helpers.odds_reference.binomial import distribution


def qualities(pool: int, difficulty: int, need: int = 1) -> dict[str, Fraction]:
    """P(each quality): failure, done, good, excellent, masterful."""
    out = dict.fromkeys(QUALITIES, Fraction(0))
    for k, p in enumerate(distribution(pool, difficulty, sides=SIDES)):
        out[quality(k, need)] += p
    return out
