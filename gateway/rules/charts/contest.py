"""The chart of a contest's odds for the rule systems whose web pages draw none (Decanter, Dramatic
Systems, Pravidla, Night Wanderers): who wins, and how often nobody does, in the reader's language."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from gateway.core.i18n import Catalogue
from gateway.rules.charts.model import chart_result

WORDS = Catalogue(
    {
        "en": {
            "who": "Who wins",
            "first": "The first side wins",
            "second": "The second side wins",
            "nobody": "Nobody wins",
        },
        "cs": {
            "who": "Kdo vyhraje",
            "first": "Vyhraje první strana",
            "second": "Vyhraje druhá strana",
            "nobody": "Nevyhraje nikdo",
        },
        "ru": {
            "who": "Кто победит",
            "first": "Побеждает первая сторона",
            "second": "Побеждает вторая сторона",
            "nobody": "Никто не побеждает",
        },
    }
)


def contest_chart(
    locale: str, title: str, first: Fraction | float, second: Fraction | float, nobody: Fraction | float = 0
) -> dict[str, Any]:
    """``result["chart"]`` of a contest: the first side's and the second's chance to win, and the
    chance that nobody does (a tie left standing) when there is one."""
    rows: list[tuple[str, Fraction | float]] = [
        (WORDS.t(locale, "first"), first),
        (WORDS.t(locale, "second"), second),
    ]
    if nobody:
        rows.append((WORDS.t(locale, "nobody"), nobody))
    return chart_result(title, [(WORDS.t(locale, "who"), rows)])
