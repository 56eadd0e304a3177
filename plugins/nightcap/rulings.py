"""The Storyteller's last word on modifiers ("You own the modifiers. Players can set their own on
the HUD, and you can overrule any of them"): ``st mod NAME +N|-N [REASON]`` rules the modifier of
that character's next roll from their sheet. Whatever the player proposes on that roll is replaced
by the ruling, the line shows both, and the ruling is spent. ``st mod NAME 0`` rules "no modifier";
``st mod NAME clear`` withdraws a ruling not used yet; ``st mod NAME`` shows it.

The ruling sits in the sheet document (key ``st_modifier``), which every roll reads already, so a
roll without one costs nothing more; using one is a row-locked write, so two rolls never both spend it."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any

from gateway import CommandContext, Invocation, Reply, UserError
from gateway.features.characters import lock_character
from gateway.rules.numbers import clamped
from gateway.vault.models import Character
from plugins.nightcap.pools import PoolSpec

RULING = "st_modifier"
ST_MOD_USAGE = "st mod NAME +N|-N [REASON] | st mod NAME clear | st mod NAME"
MAX_MODIFIER = 20
_MOD = re.compile(r"^[+-]?[0-9]+$")

Named = Callable[[CommandContext, list[str], str, int], Awaitable[tuple[Character, list[str]]]]
Record = Callable[[CommandContext, Character, str, str | None, Any, Any, str], Awaitable[None]]


def describe(ruling: dict[str, Any]) -> str:
    """``-1 (rushed)``, as the Storyteller wrote it."""
    reason = f" ({ruling['reason']})" if ruling.get("reason") else ""
    return f"{ruling['value']:+d}{reason}"


async def overrule(
    ctx: CommandContext, character: Character | None, spec: PoolSpec
) -> tuple[PoolSpec, dict[str, Any] | None]:
    """``spec`` with the Storyteller's pending ruling in place of the proposed modifiers, and the
    ruling as spent (with what was proposed); unchanged when there is none or the pool is a bare
    number (the whole pool, not read from the sheet)."""
    if character is None or character.id is None or spec.number is not None:
        return spec, None
    if not (character.sheet or {}).get(RULING):
        return spec, None
    locked = await lock_character(ctx.session, character.id)
    sheet = dict(locked.sheet or {})
    ruling = sheet.pop(RULING, None)
    if not ruling:
        return spec, None  # spent by another roll a moment ago
    locked.sheet = sheet
    ctx.session.add(locked)
    value = int(ruling["value"])
    spent = {**ruling, "proposed": list(spec.modifiers)}
    return replace(spec, modifiers=(value,) if value else ()), spent


def note(spent: dict[str, Any] | None) -> str:
    """What the roll line adds when a ruling replaced the player's modifiers."""
    if spent is None:
        return ""
    proposed = "".join(f"{m:+d}" for m in spent["proposed"]) or "none"
    return f" (Storyteller's ruling {describe(spent)}; proposed {proposed})"


async def st_mod(ctx: CommandContext, inv: Invocation, named: Named, record: Record) -> Reply:
    words = list(inv.words)
    if not words:
        raise UserError(f"Write {ST_MOD_USAGE}.")
    value_at = next(
        (i for i, w in enumerate(words) if i > 0 and (_MOD.match(w) or w.casefold() == "clear")), None
    )
    if value_at is None:
        character, _ = await named(ctx, words, ST_MOD_USAGE, 0)
        ruling = (character.sheet or {}).get(RULING)
        text = (
            f"{character.name}'s next roll is at the Storyteller's ruling {describe(ruling)}."
            if ruling
            else f"No Storyteller's ruling waits on {character.name}'s next roll."
        )
        return Reply(
            text=text, private=True, result={"kind": "ruling", "character": character.name, "ruling": ruling}
        )
    character, _ = await named(ctx, words[:value_at], ST_MOD_USAGE, 0)
    sheet = dict(character.sheet or {})
    old = sheet.get(RULING)
    if words[value_at].casefold() == "clear":
        if len(words) > value_at + 1:
            raise UserError(f"Write {ST_MOD_USAGE}.")
        if not old:
            raise UserError(f"No Storyteller's ruling waits on {character.name}'s next roll.")
        sheet.pop(RULING)
        character.sheet = sheet
        text = f"The ruling {describe(old)} on {character.name}'s next roll is withdrawn."
        await record(ctx, character, "st.mod", RULING, old, None, text)
        return Reply(text=text, result={"kind": "ruling", "character": character.name, "ruling": None})
    value = clamped(words[value_at])
    if abs(value) > MAX_MODIFIER:
        raise UserError(f"A Storyteller's modifier is -{MAX_MODIFIER} to +{MAX_MODIFIER}.")
    reason = " ".join(words[value_at + 1 :])[:80]
    ruling = {"value": value, "reason": reason, "by": ctx.name, "at": ctx.now.isoformat()}
    sheet[RULING] = ruling
    character.sheet = sheet
    text = (
        f"{character.name}'s next roll is at {describe(ruling)}, whatever modifier the player proposes"
        " (st mod NAME clear withdraws it)."
    )
    await record(ctx, character, "st.mod", RULING, old, ruling, text)
    return Reply(text=text, result={"kind": "ruling", "character": character.name, "ruling": ruling})
