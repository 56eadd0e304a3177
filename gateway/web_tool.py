"""What a rule system's web tool is (``gateway_web_tools``): a form of whole-number fields and a pure
function from the validated form to odds charts. The web adapter draws the form, validates it, runs
the function in the offload pool and draws each chart as an SVG bar chart with its numbers as text."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

# locale -> text; a locale left out falls back to English ("en" is required).
Texts = Mapping[str, str]


def in_locale(texts: Texts, locale: str) -> str:
    return texts.get(locale) or texts["en"]


@dataclass(frozen=True)
class ToolField:
    """One whole-number input. ``high=None`` bounds it by ``[gateway] max_pool`` (a pool of dice).
    ``choices`` makes it a select of (value, label); ``check`` a checkbox (0 or 1)."""

    name: str
    label: Texts
    default: int
    low: int = 0
    high: int | None = None
    choices: tuple[tuple[int, Texts], ...] = ()
    check: bool = False


@dataclass(frozen=True)
class OddsChart:
    """One chart: a title and (label, exact probability) rows, drawn in this order."""

    title: str
    rows: tuple[tuple[str, Fraction], ...]


@dataclass(frozen=True)
class WebTool:
    """A page at ``/tools/<slug>``. ``odds(values, locale)`` gets every field's validated value by
    name and the reader's language, and returns the charts: a module-level pure function (it runs in
    an offload worker, so it and its answer must pickle)."""

    slug: str
    system: str
    title: Texts
    fields: tuple[ToolField, ...]
    odds: Callable[[Mapping[str, int], str], Sequence[OddsChart]]
    intro: Texts = field(default_factory=dict)


# Words every system's odds page uses (each system adds its own in its web_tools module).
POOL: Texts = {"en": "Dice", "cs": "Počet kostek", "ru": "Костей"}
NEED: Texts = {"en": "Successes needed", "cs": "Potřebné úspěchy", "ru": "Нужно успехов"}
SUCCESSES: Texts = {
    "en": "Chance of exactly this many successes",
    "cs": "Šance na přesně tolik úspěchů",
    "ru": "Шанс ровно на столько успехов",
}
MORE: Texts = {"en": "{n} or more", "cs": "{n} a více", "ru": "{n} и больше"}


def successes_chart(
    locale: str, counts: Mapping[int, Fraction], tail: Fraction = Fraction(0), shown: int = 12
) -> OddsChart:
    """P(exactly k successes) for k from the lowest up; past ``shown`` rows (or with a ``tail`` of
    mass above the last value) the rest is one "N or more" row."""
    values = sorted(counts)
    rows = [(str(k), counts[k]) for k in values[:shown]]
    rest = sum((counts[k] for k in values[shown:]), Fraction(0)) + tail
    if rest:
        first = values[shown] if len(values) > shown else (values[-1] + 1 if values else 0)
        rows.append((in_locale(MORE, locale).format(n=first), rest))
    return OddsChart(in_locale(SUCCESSES, locale), tuple(rows))
