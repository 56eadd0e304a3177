"""Dramatic Systems' odds page for the web (``RuleSystem.web_tools``): a pool against a difficulty,
with or without a specialty, worked by ``odds.roll_odds`` (read-only use of today's signature)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gateway.core.web_tool import POOL, OddsChart, ToolField, WebTool, in_locale, successes_chart
from plugins.dramatic import odds
from plugins.dramatic.house import WEB_HOUSE
from plugins.dramatic.mechanics import MAX_DIFFICULTY, MIN_DIFFICULTY, SYSTEM
from plugins.dramatic.messages import CATALOGUE

TITLE = {"en": "Dramatic Systems odds", "cs": "Šance v Dramatic Systems", "ru": "Шансы Dramatic Systems"}
DEGREES = {
    "en": "Chance of each degree at difficulty {d}",
    "cs": "Šance na každý stupeň při obtížnosti {d}",
    "ru": "Шанс каждой степени при сложности {d}",
}
FIELDS = (
    ToolField("pool", POOL, default=5),
    ToolField(
        "difficulty",
        {"en": "Difficulty", "cs": "Obtížnost", "ru": "Сложность"},
        6,
        MIN_DIFFICULTY,
        MAX_DIFFICULTY,
    ),
    ToolField(
        "specialty",
        {
            "en": "Specialty (10s roll again)",
            "cs": "Specializace (desítky se hází znovu)",
            "ru": "Специализация (десятки перебрасываются)",
        },
        0,
        check=True,
    ),
)


def tool_odds(values: Mapping[str, int], locale: str, house: Mapping[str, Any]) -> list[OddsChart]:
    """In an offload worker: botch, failure and success, and the net successes."""
    chances = odds.roll_odds(
        values["pool"], values["difficulty"], specialty=bool(values["specialty"]), **house
    )
    return odds_charts(locale, chances)


def odds_charts(locale: str, chances: odds.RollOdds) -> list[OddsChart]:
    """The charts of worked-out odds (the page's, and chat's picture): no computing here."""
    rows = tuple(
        (CATALOGUE.t(locale, f"degree.{name}"), getattr(chances, name))
        for name in ("botch", "failure", "success")
    )
    return [
        OddsChart(in_locale(DEGREES, locale).format(d=chances.difficulty), rows),
        successes_chart(locale, chances.successes, chances.tail),
    ]


TOOL = WebTool(slug="dramatic", system=SYSTEM, title=TITLE, fields=FIELDS, odds=tool_odds, house=WEB_HOUSE)
