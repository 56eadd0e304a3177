"""The values ``st set`` takes for a power that is on or off (yes / no) and for one with levels
(0 none, 1 basic, 2 advanced): the English words and digits every system takes, plus the words of
the system's own language, folded as its sheet folds them (pure)."""

from __future__ import annotations

YES = frozenset({"yes", "on", "1", "true"})
NO = frozenset({"no", "off", "0", "false"})


def yes_no(yes: str, no: str) -> tuple[frozenset[str], frozenset[str]]:
    """The words for on and for off, with the language's own ``yes`` and ``no``."""
    return YES | {yes}, NO | {no}


def levels(none: str, basic: str, advanced: str) -> dict[str, int]:
    """Each word for a level (``0``, ``none``, the language's ``none``, ...) and the level."""
    return {
        **{word: 0 for word in ("0", "none", none)},
        **{word: 1 for word in ("1", "basic", basic)},
        **{word: 2 for word in ("2", "advanced", advanced)},
    }
