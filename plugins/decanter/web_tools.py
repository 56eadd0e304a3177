"""Decanter's odds page for the web (``RuleSystem.web_tools``): a pool against a DC with a dice
quality, worked by ``odds.roll_odds`` (read-only use of today's signature)."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from gateway.core.web_tool import POOL, OddsChart, ToolField, WebTool, in_locale, successes_chart
from plugins.decanter import odds
from plugins.decanter.house import WEB_HOUSE
from plugins.decanter.mechanics import SYSTEM
from plugins.decanter.messages import CATALOGUE
from plugins.decanter.parse import MAX_DC

DEGREE_ORDER = ("botch", "setback", "success", "automatic", "extra")
TITLE = {"en": "Decanter odds", "cs": "Šance v Decanteru", "ru": "Шансы Decanter"}
DEGREES = {
    "en": "Chance of each degree against DC {dc}",
    "cs": "Šance na každý stupeň proti DC {dc}",
    "ru": "Шанс каждой степени против DC {dc}",
}
QUALITIES = (
    (-2, {"en": "Major disadvantage", "cs": "Velká nevýhoda", "ru": "Большая помеха"}),
    (-1, {"en": "Disadvantage", "cs": "Nevýhoda", "ru": "Помеха"}),
    (0, {"en": "Normal dice", "cs": "Běžné kostky", "ru": "Обычные кубики"}),
    (1, {"en": "Advantage", "cs": "Výhoda", "ru": "Преимущество"}),
    (2, {"en": "Major advantage", "cs": "Velká výhoda", "ru": "Большое преимущество"}),
)
FIELDS = (
    ToolField("pool", POOL, default=4),
    ToolField(
        "dc",
        {"en": "Difficulty Class (DC)", "cs": "Obtížnost (DC)", "ru": "Сложность (DC)"},
        2,
        1,
        MAX_DC,
    ),
    ToolField(
        "quality",
        {"en": "Dice quality", "cs": "Kvalita kostek", "ru": "Качество кубиков"},
        0,
        choices=QUALITIES,
    ),
)


def tool_odds(values: Mapping[str, int], locale: str, house: Mapping[str, Any]) -> list[OddsChart]:
    """In an offload worker: the degrees against the DC, and the successes."""
    chances = odds.roll_odds(values["pool"], dc=values["dc"], quality=values["quality"], **house)
    return odds_charts(locale, values["dc"], chances.degrees, chances.successes)


def odds_charts(
    locale: str, dc: int | None, degrees: Mapping[str, Fraction], successes: Mapping[int, Fraction]
) -> list[OddsChart]:
    """The charts of worked-out odds (the page's, and chat's picture; in the offload worker, where
    the fractions' long terms are): the degrees against ``dc`` (none without one), the successes."""
    charts = [successes_chart(locale, successes)]
    if dc is not None:
        rows = tuple(
            (CATALOGUE.t(locale, f"degree.{name}"), degrees.get(name, Fraction(0)))
            for name in DEGREE_ORDER
            if name != "automatic" or name in degrees
        )
        charts.insert(0, OddsChart(in_locale(DEGREES, locale).format(dc=dc), rows))
    return charts


TOOL = WebTool(slug="decanter", system=SYSTEM, title=TITLE, fields=FIELDS, odds=tool_odds, house=WEB_HOUSE)
