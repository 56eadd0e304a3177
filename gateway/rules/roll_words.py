"""Reading roll words (pure): a pool term (dice or a trait word with ``+N``/``-N``), ``OPTION N``
pairs such as ``tn 5`` or ``diff 5``, flag words and the two sides of ``vs``."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from gateway.rules.numbers import clamped, is_digits, read_int

# A hyphen inside a trait word (``self-control``) is part of it; one before digits starts a modifier,
# so ``physical -1`` (joined ``physical-1``) reads as the trait and -1.
TERM = re.compile(r"^(?P<base>[0-9]+|[^\W\d_](?:[\w'.]|-(?![0-9]))*)?(?P<mods>(?:[+-][0-9]+)*)$")
MOD = re.compile(r"[+-][0-9]+")
MAX_NUMBER = 1000


class ParseError(Exception):
    """A parse problem: ``key`` names the catalogue message, ``params`` fill it."""

    def __init__(self, key: str, **params: object) -> None:
        super().__init__(key)
        self.key = key
        self.params = params


@dataclass(frozen=True)
class Term:
    """A pool word: a number of dice or a trait word, with ``+N``/``-N`` modifiers."""

    base: str
    modifiers: tuple[int, ...] = ()

    @property
    def number(self) -> int | None:
        return read_int(self.base)

    @property
    def label(self) -> str:
        return "".join(f"{m:+d}" for m in self.modifiers)


def read_term(words: Sequence[str]) -> Term | None:
    """``["charm", "+1"]`` -> Term("charm", (1,)); None when the words are no pool term."""
    joined = "".join(words)
    match = TERM.match(joined)
    if not joined or not match or not match.group("base"):
        return None
    mods = tuple(clamped(m) for m in MOD.findall(match.group("mods")))
    base = match.group("base")
    if any(n > MAX_NUMBER for n in ([clamped(base)] if is_digits(base[:1]) else []) + [abs(m) for m in mods]):
        return None
    return Term(base=base, modifiers=mods)


@dataclass(frozen=True)
class RollWords:
    left: tuple[str, ...]
    right: tuple[str, ...] | None
    options: dict[str, int]
    flags: frozenset[str]


def split_roll(
    words: tuple[str, ...] | list[str],
    options: dict[str, str],
    flags: tuple[str, ...] = ("secret",),
) -> RollWords:
    """Separate ``OPTION N`` pairs (``options`` maps each spelling to its name), flag words and the
    two sides around ``vs``. Raises ParseError."""
    left: list[str] = []
    right: list[str] | None = None
    found: dict[str, int] = {}
    seen: set[str] = set()
    i = 0
    while i < len(words):
        word = words[i]
        folded = word.casefold()
        if folded in options:
            name = options[folded]
            value = read_int(words[i + 1], signed=True) if i + 1 < len(words) else None
            if value is None or abs(value) > MAX_NUMBER:
                raise ParseError("err.option", word=word, example=4)
            found[name] = value
            i += 2
            continue
        if folded in flags:
            seen.add(folded)
        elif folded == "vs":
            if right is not None:
                raise ParseError("err.two_vs")
            right = []
        elif right is not None:
            right.append(word)
        else:
            left.append(word)
        i += 1
    return RollWords(tuple(left), tuple(right) if right is not None else None, found, frozenset(seen))


def split_once(words: Sequence[str], separator: str = "vs") -> tuple[list[str], list[str] | None]:
    """The words before and after ``separator`` (any case), None after when it is absent.
    Raises ValueError when it stands more than once."""
    folded = [w.casefold() for w in words]
    if folded.count(separator) > 1:
        raise ValueError(separator)
    if separator not in folded:
        return list(words), None
    at = folded.index(separator)
    return list(words[:at]), list(words[at + 1 :])
