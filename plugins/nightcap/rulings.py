"""The Storyteller's last word on modifiers ("You own the modifiers. Players can set their own on
the HUD, and you can overrule any of them"): ``st mod NAME +N|-N [REASON]`` rules the modifier of
that character's next roll from their sheet. Whatever the player proposes on that roll is replaced
by the ruling, the line shows both, and the ruling is spent. ``st mod NAME 0`` rules "no modifier";
``st mod NAME clear`` withdraws a ruling not used yet; ``st mod NAME`` shows it.

The ruling sits in the sheet document (key ``st_modifier``), which every roll reads already, so a
roll without one costs nothing more; using one is a row-locked write (``store.overrule``), so two rolls
never both spend it. The words of a ruling are here; ``st mod`` is in ``storyteller_commands``."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from gateway import UserError
from gateway.rules.numbers import clamped

RULING = "st_modifier"
ST_MOD_USAGE = "st mod NAME +N|-N [REASON] | st mod NAME clear | st mod NAME"
MAX_MODIFIER = 20
_MOD = re.compile(r"^[+-]?[0-9]+$")


@dataclass(frozen=True)
class StMod:
    """``st mod``'s words read: the character's name, and a new ruling (``value``, ``reason``), its
    withdrawal (``clear``), or neither (show the one waiting)."""

    name: str
    value: int | None = None
    reason: str = ""
    clear: bool = False


def read_st_mod(words: list[str]) -> StMod:
    """``Mira Vance -1 rushed``, ``Mira Vance clear``, ``Mira Vance``: the name runs to the first
    number or ``clear`` after its first word (a declaration cannot end a name there: the reason after
    the number is free text)."""
    if not words:
        raise UserError(f"Write {ST_MOD_USAGE}.")
    at = next((i for i, w in enumerate(words) if i > 0 and (_MOD.match(w) or w.casefold() == "clear")), None)
    if at is None:
        return StMod(" ".join(words))
    name = " ".join(words[:at])
    if words[at].casefold() == "clear":
        if len(words) > at + 1:
            raise UserError(f"Write {ST_MOD_USAGE}.")
        return StMod(name, clear=True)
    value = clamped(words[at])
    if abs(value) > MAX_MODIFIER:
        raise UserError(f"A Storyteller's modifier is -{MAX_MODIFIER} to +{MAX_MODIFIER}.")
    return StMod(name, value, " ".join(words[at + 1 :])[:80])


def describe(ruling: dict[str, Any]) -> str:
    """``-1 (rushed)``, as the Storyteller wrote it."""
    reason = f" ({ruling['reason']})" if ruling.get("reason") else ""
    return f"{ruling['value']:+d}{reason}"


def note(spent: dict[str, Any] | None) -> str:
    """What the roll line adds when a ruling replaced the player's modifiers."""
    if spent is None:
        return ""
    proposed = "".join(f"{m:+d}" for m in spent["proposed"]) or "none"
    return f" (Storyteller's ruling {describe(spent)}; proposed {proposed})"
