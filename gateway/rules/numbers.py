"""Reading a number a person typed, refusing it in one line that names what it was for.

Every plugin reads user numbers through here. ``str.isdigit`` is not enough: it accepts ``²``, ``①``
and ``१२``, which ``int`` then refuses or reads, and ``lstrip("+-")`` lets ``++1`` through. Only
ASCII digits, at most one leading sign where a sign means something, and few enough digits that the
value always fits the 64-bit integers orjson and the databases store.
"""

from __future__ import annotations

import re

from gateway.core.errors import UserError

# In regular expressions on user text write ``[0-9]``: ``\d`` matches every Unicode decimal digit.
# 18 digits stay below 2**63; longer runs of digits are no number anyone means.
MAX_DIGITS = 18
_UNSIGNED = re.compile(rf"[0-9]{{1,{MAX_DIGITS}}}")
_SIGNED = re.compile(rf"[+-]?[0-9]{{1,{MAX_DIGITS}}}")
_LONG = re.compile(r"[+-]?[0-9]+")


def is_digits(word: str) -> bool:
    """``word`` is a plain count: ASCII digits only, no sign (``3``, not ``²``, ``+3`` or ``३``)."""
    return _UNSIGNED.fullmatch(word) is not None


def is_signed(word: str) -> bool:
    """``word`` is ASCII digits with at most one leading ``+`` or ``-`` (``-2``, ``+1``, not ``++1``)."""
    return _SIGNED.fullmatch(word) is not None


def read_int(word: str, *, signed: bool = False) -> int | None:
    """``word`` as an int when it is one (see ``is_digits`` / ``is_signed``), else None."""
    ok = is_signed(word) if signed else is_digits(word)
    return int(word) if ok else None


def clamped(word: str) -> int:
    """A ``[+-]?[0-9]+`` word (a regular expression matched it) as an int, runs longer than
    MAX_DIGITS as ±10**MAX_DIGITS: past every bound, so the caller's check refuses it, without ``int``
    meeting thousands of digits (slow, and refused past 4,300)."""
    digits = word.lstrip("+-")
    if len(digits) <= MAX_DIGITS:
        return int(word)
    return -(10**MAX_DIGITS) if word.startswith("-") else 10**MAX_DIGITS


def whole_number(
    word: str, what: str, limit: int = 1000, *, low: int | None = None, signed: bool = True
) -> int:
    """``word`` as an int from ``low`` (default -``limit``) to ``limit``; ``what`` starts the refusal
    ("Willpower"). ``signed=False`` refuses a leading sign."""
    value = read_int(word, signed=signed)
    if value is None:
        if _LONG.fullmatch(word):
            raise UserError(f"{what} stops at {limit}.")
        raise UserError(f"{what} is a whole number, not {word[:20]!r}.")
    floor = -limit if low is None else low
    if value > limit:
        raise UserError(f"{what} stops at {limit}.")
    if value < floor:
        raise UserError(f"{what} starts at {floor}.")
    return value
