"""Reading what a command's typed parameters leave as words (pure): numbers, trailing modifiers and
``wp``/``secret``, a named opponent after ``vs``, a power's name and tier."""

from __future__ import annotations

import re

from gateway import Invocation, UserError
from gateway.rules.numbers import clamped, read_int
from plugins.nightcap.powers import Tier, match_tier
from plugins.nightcap.sheet import match_trait

MOD = re.compile(r"^[+-][0-9]+$")
_FLAG = re.compile(r"^(?:[+-][0-9]+|wp|willpower|secret)$", re.IGNORECASE)
_TRAILING_MODS = re.compile(r"(?:[+-][0-9]+)+$")


def parse_number(word: str, usage: str) -> int:
    value = read_int(word, signed=True)
    if value is None:
        raise UserError(f"{word[:20]!r} is not a number. Write {usage}.")
    if abs(value) > 1000:
        raise UserError(f"Numbers here stop at 1000. Write {usage}.")
    return value


def nothing_after(inv: Invocation, command: str, why: str = "") -> None:
    """Refuse words a command does not take, rather than drop them silently."""
    if inv.words:
        raise UserError(f"{command} takes nothing after it{why}. Write {command}.")


def split_roll_words(words: tuple[str, ...] | list[str]) -> tuple[list[str], list[int], bool, bool]:
    """Trailing modifiers, ``wp`` and ``secret`` off the end of a command: (rest, mods, wp, secret)."""
    rest = list(words)
    mods: list[int] = []
    wp = secret = False
    while rest:
        word = rest[-1].casefold()
        if MOD.match(word):
            mods.insert(0, clamped(word))
        elif word in ("wp", "willpower"):
            wp = True
        elif word == "secret":
            secret = True
        else:
            break
        rest.pop()
    if any(abs(m) > 1000 for m in mods):
        raise UserError("Modifiers stop at 1000.")
    return rest, mods, wp, secret


def split_power_words(words: list[str]) -> tuple[list[str], Tier | None, list[int], bool, bool]:
    """``Mind Lock adept +1 wp`` -> (name words, tier, modifiers, wp, secret)."""
    rest, mods, wp, secret = split_roll_words(words)
    chosen = None
    if len(rest) > 1:
        try:
            chosen = match_tier(rest[-1])
        except UserError:
            chosen = None
        if chosen is not None:
            rest = rest[:-1]
    return rest, chosen, mods, wp, secret


def split_opponent(words: tuple[str, ...] | list[str]) -> tuple[list[str], str | None]:
    """``... vs Dorian Gray mental +1`` -> (``... vs mental +1``, ``Dorian Gray``): a named opponent's
    trait. Without a name before the trait (``vs mental``) the trait is the roller's own."""
    lowered = [w.casefold() for w in words]
    if lowered.count("vs") != 1:
        return list(words), None
    at = lowered.index("vs")
    right = list(words[at + 1 :])
    core = [i for i, w in enumerate(right) if not _FLAG.match(w)]
    if len(core) < 2:
        return list(words), None
    try:
        last = match_trait(_TRAILING_MODS.sub("", right[core[-1]]))
    except UserError:
        last = None
    if last is None:
        return list(words), None
    name_at = set(core[:-1])
    name = " ".join(right[i] for i in core[:-1])
    kept = [w for i, w in enumerate(right) if i not in name_at]
    return [*words[: at + 1], *kept], name
