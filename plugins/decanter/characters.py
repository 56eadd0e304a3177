"""Decanter's character words, pure: ``... for CHARACTER`` (the commands are ``characters_commands.py``)."""

from __future__ import annotations

from collections.abc import Sequence


def split_for(words: Sequence[str]) -> tuple[list[str], str | None]:
    """``... for CHARACTER``: the words before ``for`` and the name after it (None without one)."""
    words = list(words)
    lowered = [w.casefold() for w in words]
    if "for" not in lowered:
        return words, None
    at = lowered.index("for")
    return words[:at], " ".join(words[at + 1 :]) or None
