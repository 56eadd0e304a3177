"""The name a mistyped word most likely meant (``phisical`` -> ``physical``), for "Did you mean"
in an unknown-trait refusal. Pure: difflib over the names it is given, after the caller's folding."""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable

from gateway.core.suggest import CUTOFF


def closest(word: str, names: Iterable[str], fold: Callable[[str], str] = str.casefold) -> str | None:
    """The one name of ``names`` closest to ``word`` once both are folded, if close enough; else None."""
    by_key: dict[str, str] = {}
    for name in names:
        by_key.setdefault(fold(name), name)
    key = fold(word)
    if not key:
        return None
    found = difflib.get_close_matches(key, list(by_key), n=1, cutoff=CUTOFF)
    return by_key[found[0]] if found else None
