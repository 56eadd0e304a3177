"""Pravidla's odds page for the web (``RuleSystem.web_tools``): a pool against a target number, with
the successes needed, worked by the same ``gateway.rules.binomial`` counts as ``odds`` in chat."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from gateway.core.web_tool import NEED, POOL, OddsChart, ToolField, WebTool, in_locale, successes_chart
from gateway.rules import binomial
from plugins.pravidla import mechanics
from plugins.pravidla.messages import CATALOGUE

SYSTEM = mechanics.SYSTEM
TITLE = {"en": "Pravidla odds", "cs": "Šance v Pravidlech", "ru": "Шансы Pravidla"}
VERDICT = {
    "en": "Chance of {need} or more successes at target {tn}",
    "cs": "Šance na {need} a více úspěchů při cílovém čísle {tn}",
    "ru": "Шанс на {need} и больше успехов при целевом числе {tn}",
}
FIELDS = (
    ToolField("pool", POOL, default=5),
    ToolField(
        "target",
        {"en": "Target number", "cs": "Cílové číslo", "ru": "Целевое число"},
        4,
        mechanics.MIN_TARGET,
        mechanics.MAX_TARGET,
    ),
    ToolField("need", NEED, 1, 1, 20),
)


def tool_odds(values: Mapping[str, int], locale: str, house: Mapping[str, Any]) -> list[OddsChart]:
    """In an offload worker: success or failure with ``need``, and the successes."""
    pool, target, need = values["pool"], values["target"], values["need"]
    hit = binomial.at_least(pool, target, need, sides=mechanics.SIDES)
    dist = binomial.distribution(pool, target, sides=mechanics.SIDES)
    return odds_charts(locale, target, need, hit, dist)


def odds_charts(
    locale: str, target: int, need: int, hit: Fraction, dist: Sequence[Fraction]
) -> list[OddsChart]:
    """The charts of worked-out odds (the page's, and chat's picture): no computing here."""
    rows = ((CATALOGUE.t(locale, "degree.success"), hit), (CATALOGUE.t(locale, "degree.failure"), 1 - hit))
    return [
        OddsChart(in_locale(VERDICT, locale).format(need=need, tn=target), rows),
        successes_chart(locale, {k: Fraction(p) for k, p in enumerate(dist)}),
    ]


TOOL = WebTool(slug="pravidla", system=SYSTEM, title=TITLE, fields=FIELDS, odds=tool_odds)
