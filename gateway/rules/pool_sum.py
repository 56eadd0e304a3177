"""A pool written as a sum (pure): numbers and trait names joined by ``+`` and ``-`` (``3+2``,
``dex+firearms``, ``dex + firearms +1``), read into terms and added up into dice with a label."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from gateway.core.errors import UserError
from gateway.rules.numbers import is_digits

MAX_NUMBER = 1000
_TERM = re.compile(r"([+-]?)([^+-]+)")


@dataclass(frozen=True)
class PoolExpr:
    """Terms of a pool: (sign, word) where word is digits or a trait name."""

    terms: tuple[tuple[int, str], ...]
    text: str

    @property
    def numeric(self) -> bool:
        return all(is_digits(word) for _, word in self.terms)

    def number(self) -> int:
        return sum(sign * int(word) for sign, word in self.terms)


@dataclass(frozen=True)
class Pool:
    dice: int
    label: str


def parse_pool(words: list[str], usage: str) -> PoolExpr:
    """Read the pool words (joined, so ``dex + 1`` reads as ``dex+1``); ``usage`` ends the refusals."""
    text = "".join(words)
    if not text:
        raise UserError(f"Which pool? Write {usage}.")
    if text[-1] in "+-":
        raise UserError(f"{text[:40]!r} ends with {text[-1]}: write the next term or leave it out.")
    terms: list[tuple[int, str]] = []
    position = 0
    for match in _TERM.finditer(text):
        if match.start() != position:
            break
        position = match.end()
        sign = -1 if match.group(1) == "-" else 1
        word = match.group(2).casefold()
        if word.isascii() and word.isdigit():  # ASCII digits only: isdigit alone takes ² and ①
            if not is_digits(word) or int(word) > MAX_NUMBER:
                raise UserError(f"Numbers in a roll stop at {MAX_NUMBER}.")
        elif sign < 0:
            raise UserError(f"Only numbers can be taken away from a pool, not {word[:40]!r}.")
        elif not re.fullmatch(r"[^\W\d][\w'-]*", word):
            raise UserError(f"I cannot read {word[:40]!r} as a pool term. Write {usage}.")
        terms.append((sign, word))
    if position != len(text) or not terms:
        raise UserError(f"I cannot read {text[:40]!r} as a pool. Write {usage}.")
    return PoolExpr(tuple(terms), text)


def add_up(expr: PoolExpr, trait: Callable[[str], tuple[str, int]]) -> Pool:
    """The dice of ``expr``: numbers as they are, trait words through ``trait(word)`` -> (title,
    rating), which refuses what it cannot rate. The label names the traits (``Dexterity 3 +
    Firearms 2``); a pool of numbers only is labelled by its text when it has several terms."""
    total = 0
    parts: list[str] = []
    named = False
    for sign, word in expr.terms:
        if is_digits(word):
            total += sign * int(word)
            parts.append(f"{'-' if sign < 0 else '+'}{word}")
            continue
        title, rating = trait(word)
        total += rating
        parts.append(f"+{title} {rating}")
        named = True
    label = " ".join(parts).lstrip("+").replace(" +", " + ").replace(" -", " - ")
    if not named:
        label = expr.text if len(expr.terms) > 1 else ""
    return Pool(total, label)
