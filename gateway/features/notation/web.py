"""The web's notation odds page (``/tools/dice``): an expression in a text field, its exact odds as
two charts, every total and at least each total. Registered with ``gateway_web_tools``."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from gateway.core.hookspecs import hookimpl
from gateway.core.offload import TooLong
from gateway.core.web_tool import OddsChart, ToolField, WebTool
from gateway.features.notation.messages import t
from gateway.features.notation.odds import odds
from gateway.features.notation.parse import NotationError, parse
from gateway.features.notation.text import chart_rows

SLUG = "dice"


def check(text: str, locale: str) -> str | None:
    """The line saying what is wrong with the expression typed, or None."""
    try:
        parse(text)
    except NotationError as error:
        return t(locale, error.key, **error.params)
    return None


def charts(values: Mapping[str, Any], locale: str, house: Mapping[str, Any]) -> Sequence[OddsChart]:
    """In an offload worker: the two charts of the expression's odds; too large is ``TooLong``."""
    try:
        found = odds(str(values["expression"]))
    except NotationError:
        raise TooLong() from None
    return (
        OddsChart(t(locale, "chart.exact"), tuple(chart_rows(locale, found, at_least=False))),
        OddsChart(t(locale, "chart.at_least"), tuple(chart_rows(locale, found, at_least=True))),
    )


TOOL = WebTool(
    slug=SLUG,
    system="notation",
    title={
        "en": "Dice notation odds",
        "cs": "Šance hodu v kostkové notaci",
        "ru": "Шансы броска в нотации кубиков",
    },
    fields=(
        ToolField(
            "expression",
            {"en": "Expression", "cs": "Výraz", "ru": "Выражение"},
            0,
            text="2d6+3",
            check_text=check,
        ),
    ),
    odds=charts,
    intro={
        "en": "Any expression roll takes in chat: 2d6+3, 4d6kh3, 6d10>=7f1, 4dF, d20 adv.",
        "cs": "Jakýkoli výraz, který bere roll v chatu: 2d6+3, 4d6kh3, 6d10>=7f1, 4dF, d20 adv.",
        "ru": "Любое выражение, которое roll принимает в чате: 2d6+3, 4d6kh3, 6d10>=7f1, 4dF, d20 adv.",
    },
)


@hookimpl
def gateway_web_tools(register: Callable[[WebTool], None]) -> None:
    register(TOOL)
