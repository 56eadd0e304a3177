"""What a rule system's web tool is (``gateway_web_tools``): a form of whole-number fields and a pure
function from the validated form to odds charts. The web adapter draws the form, validates it, runs
the function in the offload pool and draws each chart as an SVG bar chart with its numbers as text.

A tool may also take some of its system's house rules (``WebTool.house``): the page shows them as
fields named ``house.NAME``, read like ``house set`` reads them, and chat's ``odds`` links carry a
channel's switches in the same fields, so the chart shows the odds that channel rolls with."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from pydantic import BaseModel

from gateway.features.house_rules.declare import HouseRules, WrongValue, build, parse_value, switches
from gateway.features.house_rules.messages import shown
from gateway.features.house_rules.messages import t as house_text

# locale -> text; a locale left out falls back to English ("en" is required).
Texts = Mapping[str, str]


def in_locale(texts: Texts, locale: str) -> str:
    return texts.get(locale) or texts["en"]


# A text field's check: (value, locale) -> the line saying what is wrong, or None. Pure and quick:
# it runs on the web adapter's loop before anything is computed.
TextCheck = Callable[[str, str], str | None]


@dataclass(frozen=True)
class ToolField:
    """One whole-number input. ``high=None`` bounds it by ``[gateway] max_pool`` (a pool of dice).
    ``choices`` makes it a select of (value, label); ``check`` a checkbox (0 or 1). ``text`` (its
    default) makes it a line of text of at most ``max_length`` characters instead, its value a
    ``str`` that ``check_text`` (if given) accepts."""

    name: str
    label: Texts
    default: int
    low: int = 0
    high: int | None = None
    choices: tuple[tuple[int, Texts], ...] = ()
    check: bool = False
    text: str | None = None
    max_length: int = 200
    check_text: TextCheck | None = None


@dataclass(frozen=True)
class OddsChart:
    """One chart: a title and (label, exact probability) rows, drawn in this order."""

    title: str
    rows: tuple[tuple[str, Fraction], ...]


@dataclass(frozen=True)
class WebTool:
    """A page at ``/tools/<slug>``. ``odds(values, locale, house)`` gets every field's validated
    value by name, the reader's language and the values of the house rules named in ``house`` (the
    switches of the system's ``house_rules`` model its odds function takes as keywords), and returns
    the charts: a module-level pure function (it runs in an offload worker, so it and its answer
    must pickle). A value is an ``int``, or a ``str`` for a ``text`` field. Raising
    ``gateway.core.offload.TooLong`` says the odds take too long to work out, as passing the bound does."""

    slug: str
    system: str
    title: Texts
    fields: tuple[ToolField, ...]
    odds: Callable[[Mapping[str, Any], str, Mapping[str, Any]], Sequence[OddsChart]]
    intro: Texts = field(default_factory=dict)
    house: tuple[str, ...] = ()


HOUSE_FIELD = "house.{name}"


def house_word(value: object) -> str:
    """A switch's value as a query string carries it: ``on``/``off``, a number, a word."""
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


def house_query(house: HouseRules, names: Iterable[str]) -> dict[str, str]:
    """The fields (``house.NAME`` -> value) of the switches among ``names`` set away from the book:
    what a link to a tool needs to show the odds a channel with ``house`` rolls with."""
    wanted = set(names)
    changed = house.away_from_book()
    return {HOUSE_FIELD.format(name=n): house_word(v) for n, v in changed.items() if n in wanted}


@dataclass(frozen=True)
class HouseField:
    """One house-rule field of a tool's form, as the page draws it."""

    name: str
    kind: str  # "bool", "int" or "choice"
    options: tuple[tuple[str, str], ...]  # (query word, shown word) of a bool or a choice
    low: int | None
    high: int | None
    value: str  # the query word of the value in force
    book: str  # the shown word of the book's value
    meaning: str
    changed: bool


def read_house(
    model: type[BaseModel] | None,
    settings: BaseModel | None,
    names: Sequence[str],
    query: Mapping[str, str],
    locale: str,
) -> tuple[dict[str, Any], list[HouseField], list[str]]:
    """The switches ``names`` of ``model`` from ``query`` (absent: the defaults, as in a channel
    with none set): their values for the odds function, the form's fields, and one line in
    ``locale`` for each value the switch does not take (``house set``'s refusal)."""
    if model is None or not issubclass(model, HouseRules) or not names:
        return {}, [], []
    declared = switches(model)
    stored: dict[str, Any] = {}
    errors: list[str] = []
    for name in names:
        raw = query.get(HOUSE_FIELD.format(name=name), "").strip()
        if not raw:
            continue
        spec = declared[name]
        try:
            stored[name] = parse_value(spec, raw[:40])
        except WrongValue:
            errors.append(
                house_text(
                    locale,
                    f"wrong.{spec.kind}",
                    name=name,
                    value=raw[:40],
                    low=spec.low,
                    high=spec.high,
                    choices=", ".join(spec.choices),
                )
            )
    rules = build(model, settings, stored)
    book = model()
    fields: list[HouseField] = []
    for name in names:
        spec, value = declared[name], getattr(rules, name)
        options: tuple[tuple[str, str], ...] = ()
        if spec.kind == "bool":
            options = tuple((house_word(v), shown(locale, v)) for v in (True, False))
        elif spec.kind == "choice":
            options = tuple((c, c) for c in spec.choices)
        fields.append(
            HouseField(
                name,
                spec.kind,
                options,
                spec.low,
                spec.high,
                house_word(value),
                shown(locale, getattr(book, name)),
                spec.meaning_in(locale),
                value != getattr(book, name),
            )
        )
    return {name: getattr(rules, name) for name in names}, fields, errors


# Words every system's odds page uses (each system adds its own in its web_tools module).
POOL: Texts = {"en": "Dice", "cs": "Počet kostek", "ru": "Кубиков"}
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
