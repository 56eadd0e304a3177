"""Notation to offer as someone types (Discord's autocomplete): examples of each feature, and for a
number typed, that pool and dice of that many. Pure."""

from __future__ import annotations

EXAMPLES = (
    "d20",
    "2d6+3",
    "4d6kh3",
    "d20 adv",
    "d20 dis",
    "3d6!",
    "4d6r1",
    "6d10>=7f1",
    "4dF",
    "d%",
    "6x 4d6kh3",
)
SIDES = (6, 10, 20, 8, 4, 12, 100)


def suggestions(typed: str) -> list[str]:
    """What to offer for ``typed``: ``5`` gives the pool ``5``, ``5d6``, ``5d10`` ...; a start of
    notation (``4d``) the examples it begins and its common dice; nothing typed the examples."""
    typed = " ".join(typed.split())
    if typed.isdigit() and 0 < int(typed) <= 1000:
        return [typed, *(f"{typed}d{s}" for s in SIDES), f"{typed}d10>=7"]
    if typed.endswith("d") and typed[:-1].isdigit():
        return [f"{typed}{s}" for s in SIDES]
    found = [e for e in EXAMPLES if e.startswith(typed.casefold())]
    return found or ([typed] if typed else list(EXAMPLES))
