"""The Storyteller's NPC pools (pure): ``4 +1 ghoul``, one side or two around ``vs``. An NPC's pool is
just dice (RULINGS, "Contest"): a number, modifiers, and who rolls them."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from gateway import UserError
from gateway.rules.numbers import clamped
from plugins.nightcap import mechanics
from plugins.nightcap.roll_texts import say
from plugins.nightcap.words import parse_number

NPC_POOL = re.compile(r"^([0-9]+)((?:[+-][0-9]+)*)$")
MODS = re.compile(r"[+-][0-9]+")
MOD_WORD = re.compile(r"^(?:[+-][0-9]+)+$")
WILLPOWER_WORDS = ("wp", "willpower")


@dataclass(frozen=True)
class NpcSide:
    """One side of a Storyteller roll: dice, modifiers and who rolls them."""

    base: int
    modifiers: tuple[int, ...]
    who: str

    @property
    def label(self) -> str:
        return f"{self.base}{''.join(f'{m:+d}' for m in self.modifiers)}" if self.modifiers else ""


def read_npc_side(words: list[str], default: str) -> NpcSide:
    """``4 +1 ghoul`` or ``4+1 ghoul -1``: a number first, modifiers anywhere, the rest the label."""
    usage = say("st_roll.usage")
    head = NPC_POOL.match(words[0]) if words else None
    if head is None:
        raise UserError(say("st_roll.needs_number", usage=usage))
    base = parse_number(head.group(1), usage)
    mods = [clamped(m) for m in MODS.findall(head.group(2))]
    who: list[str] = []
    for word in words[1:]:
        if MOD_WORD.match(word):
            mods.extend(clamped(m) for m in MODS.findall(word))
        else:
            who.append(word)
    if any(abs(m) > 1000 for m in mods):
        raise UserError("Modifiers stop at 1000.")
    return NpcSide(base, tuple(mods), " ".join(who)[:60] or default)


def read_npc_roll(pool: str, against: str | None) -> list[NpcSide]:
    """The sides of ``st roll`` as the router bound them: ``pool``, and ``against`` after ``vs``. An
    NPC's pool is just dice (RULINGS, "Contest"), so ``wp`` is refused rather than read as a label."""
    left, right = pool.split(), against.split() if against is not None else None
    folded = [w.casefold() for w in [*left, *(right or [])]]
    if any(w in WILLPOWER_WORDS for w in folded):
        raise UserError(say("st_roll.no_willpower"))
    if right is None:
        return [read_npc_side(left, "NPC")]
    if "vs" in folded:
        raise UserError(say("st_roll.one_vs"))
    return [read_npc_side(left, "NPC"), read_npc_side(right, "the opposition")]


def npc_side_result(side: NpcSide, roll: mechanics.Roll) -> dict[str, Any]:
    return {**roll.as_result(), "who": side.who, "modifiers": list(side.modifiers)}
