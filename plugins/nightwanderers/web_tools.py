"""Night Wanderers' odds page for the web (``RuleSystem.web_tools``): a pool against a difficulty
with the successes needed, worked by ``odds.qualities`` (read-only use of today's signature)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from gateway.core.web_tool import NEED, POOL, OddsChart, ToolField, WebTool, in_locale, successes_chart
from gateway.rules import binomial
from plugins.nightwanderers import mechanics, odds
from plugins.nightwanderers.messages import CATALOGUE

SYSTEM = "nightwanderers"
TITLE = {"en": "Night Wanderers odds", "cs": "Šance v Nočních poutnících", "ru": "Шансы «Ночных скитальцев»"}
QUALITY = {
    "en": "Chance of each quality at difficulty {d}",
    "cs": "Šance na každou kvalitu při obtížnosti {d}",
    "ru": "Шанс каждого качества при сложности {d}",
}
FIELDS = (
    ToolField("pool", POOL, default=4),
    ToolField(
        "difficulty",
        {"en": "Difficulty", "cs": "Obtížnost", "ru": "Сложность"},
        4,
        mechanics.MIN_DIFFICULTY,
        mechanics.MAX_DIFFICULTY,
    ),
    ToolField("need", NEED, 1, 1, 20),
)


def tool_odds(values: Mapping[str, int], locale: str, house: Mapping[str, Any]) -> list[OddsChart]:
    """In an offload worker: each quality, and the successes."""
    pool, diff, need = values["pool"], values["difficulty"], values["need"]
    chances = odds.qualities(pool, diff, need)
    dist = binomial.distribution(pool, diff, sides=mechanics.SIDES)
    return odds_charts(locale, diff, chances, dist)


def odds_charts(
    locale: str, diff: int, chances: Mapping[str, Fraction], dist: Sequence[Fraction]
) -> list[OddsChart]:
    """The charts of worked-out odds (the page's, and chat's picture): no computing here."""
    rows = tuple((CATALOGUE.t(locale, f"degree.{q}"), chances[q]) for q in mechanics.QUALITIES)
    return [
        OddsChart(in_locale(QUALITY, locale).format(d=diff), rows),
        successes_chart(locale, {k: Fraction(p) for k, p in enumerate(dist)}),
    ]


TOOL = WebTool(slug="nightwanderers", system=SYSTEM, title=TITLE, fields=FIELDS, odds=tool_odds)
