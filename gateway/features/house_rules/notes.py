"""Which house rules changed a roll's result: the ones whose book value, on the same dice, reads
the roll differently. Pure: the caller says how a roll is read under a set of switches."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from typing import TypeVar

from gateway.features.house_rules.declare import HouseRules, book_rules
from gateway.features.house_rules.messages import shown, t

H = TypeVar("H", bound=HouseRules)


def changed_result(house: H, read: Callable[[H], Hashable]) -> list[str]:
    """The switches set away from the book whose book value would have read the roll otherwise
    (``read(switches)``: the roll's outcome under those switches, on the dice it showed)."""
    book = book_rules(type(house))
    differ = house.away_from_book()
    if not differ:
        return []
    outcome = read(house)
    return [name for name in differ if read(house.model_copy(update={name: getattr(book, name)})) != outcome]


def note(locale: str, house: HouseRules, names: list[str]) -> str:
    """`` [house: tens_double=always]`` for a roll line; empty when no house rule changed it."""
    if not names:
        return ""
    parts = ", ".join(f"{n}={shown(locale, getattr(house, n))}" for n in names)
    return t(locale, "roll.note", names=parts)


def odds_note(locale: str, house: HouseRules, names: Iterable[str] | None = None) -> str:
    """The note an ``odds`` line ends with: every switch set away from the book (of ``names``,
    when given: the ones that move the odds), since each moves them."""
    changed = house.away_from_book()
    wanted = changed if names is None else [n for n in changed if n in set(names)]
    return note(locale, house, list(wanted))


def logged_note(locale: str, recorded: object) -> str:
    """The note of a logged roll (``result["house_rules"]``: switch -> the value that changed its
    result), as its roll line showed it; empty when there is none (or it is not such a mapping)."""
    if not isinstance(recorded, dict) or not recorded:
        return ""
    parts = ", ".join(f"{n}={shown(locale, v)}" for n, v in recorded.items())
    return t(locale, "roll.note", names=parts)
