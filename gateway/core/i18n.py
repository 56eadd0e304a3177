"""Message catalogues with plural forms, so no plugin glues translated fragments together.

Each plugin keeps a ``Catalogue``: locale -> key -> template. Templates use ``str.format`` fields, and
``{n:plural:die:dice}`` picks the word form for ``n`` by the locale's plural rule (Czech and Russian
have three forms: ``{n:plural:kostka:kostky:kostek}``, ``{n:plural:кость:кости:костей}``).
"""

from __future__ import annotations

import string
from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any, Protocol

from gateway.core.errors import UserError


class HasLocale(Protocol):
    @property
    def locale(self) -> str: ...


def _plural_en(n: int) -> int:
    return 0 if n == 1 else 1


def _plural_cs(n: int) -> int:
    return 0 if n == 1 else 1 if 2 <= n <= 4 else 2


def _plural_ru(n: int) -> int:
    n = abs(n)
    if n % 10 == 1 and n % 100 != 11:
        return 0
    if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        return 1
    return 2


PLURAL_RULES: dict[str, Callable[[int], int]] = {"en": _plural_en, "cs": _plural_cs, "ru": _plural_ru}
LANGUAGES = {"en": "English", "cs": "čeština", "ru": "русский"}


class _Formatter(string.Formatter):
    def __init__(self, locale: str) -> None:
        self.rule = PLURAL_RULES.get(locale, _plural_en)

    def format_field(self, value: Any, format_spec: str) -> str:
        if format_spec.startswith("plural:"):
            forms = format_spec.split(":")[1:]
            return forms[min(self.rule(int(value)), len(forms) - 1)]
        return super().format_field(value, format_spec)


class Catalogue:
    """Templates by locale; a key missing in a locale falls back to English."""

    def __init__(self, messages: Mapping[str, Mapping[str, str]], fallback: str = "en") -> None:
        if fallback not in messages:
            raise ValueError("a catalogue needs its fallback locale")
        self.messages = messages
        self.fallback = fallback

    @property
    def locales(self) -> tuple[str, ...]:
        return tuple(self.messages)

    def t(self, locale: str, key: str, /, **params: Any) -> str:
        table = self.messages.get(locale, self.messages[self.fallback])
        template = table.get(key) or self.messages[self.fallback][key]
        return _Formatter(locale if locale in self.messages else self.fallback).format(template, **params)

    def say(self, ctx: HasLocale, key: str, /, **params: Any) -> str:
        """``t`` in the locale of a command context (or anything with a ``locale``)."""
        return self.t(ctx.locale, key, **params)

    def refusal(self, ctx: HasLocale, key: str, /, **params: Any) -> UserError:
        """The message as a ``UserError`` for a handler to raise."""
        return UserError(self.say(ctx, key, **params))


DECIMAL_COMMA = frozenset({"cs", "ru"})


def percent(locale: str, value: Fraction | float) -> str:
    """A share as a percentage with one decimal: ``80.2%`` in English, ``80,2 %`` in Czech and Russian."""
    text = f"{float(value) * 100:.1f}"
    if locale in DECIMAL_COMMA:
        return text.replace(".", ",") + "\u00a0%"
    return text + "%"
