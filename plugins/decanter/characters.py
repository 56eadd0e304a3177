"""Decanter characters and sheets: the shared player-sheet commands (``gateway.rules.player_sheets``)
with Story Points and Conditions on the sheet, and whose character a command is for."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from gateway import CommandContext, PermissionDenied, UserError
from gateway.characters import require_active
from gateway.rules.numbers import whole_number
from gateway.rules.player_sheets import PlayerSheets
from gateway.vault import repo
from gateway.vault.models import Character
from plugins.decanter import state
from plugins.decanter.config import DecanterSettings
from plugins.decanter.mechanics import SYSTEM
from plugins.decanter.messages import CATALOGUE, t
from plugins.decanter.sheet import SCHEMA, DecanterSheet

SP = state.SP


def duration_text(ctx: CommandContext, duration: str) -> str:
    return t(ctx, f"duration.{duration}")


class DecanterCharacters(PlayerSheets):
    system = SYSTEM
    schema = SCHEMA
    catalogue = CATALOGUE
    set_usage = "FIELD VALUE, with FIELD an Attribute or Skill (dots), specialties (a comma list) or notes"

    def new_pools(self, ctx: CommandContext) -> tuple[dict[str, tuple[int, int]], dict[str, Any]]:
        return {SP: (0, ctx.settings_for(DecanterSettings).story_point_cap)}, {}

    async def sheet_extras(
        self, ctx: CommandContext, character: Character, sheet: DecanterSheet
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """Story Points and Conditions."""
        assert character.id is not None
        current, maximum = await state.story_points(ctx, character.id)
        conditions = "; ".join(
            t(ctx, "cond.item", cname=c.name, duration=duration_text(ctx, c.duration))
            for c in sheet.conditions
        )
        params = {
            "sp": t(ctx, "sp.show", name=character.name, n=current, cap=maximum).rstrip("."),
            "conditions": conditions or t(ctx, "none"),
        }
        return params, {"story_points": {"current": current, "cap": maximum}}

    async def set_pool(
        self, ctx: CommandContext, character: Character, field: str, words: list[str]
    ) -> tuple[str, Any, Any] | None:
        """``st set NAME sp N``: Story Points from 0 to the cap."""
        if field not in ("sp", "story_points", "storypoints"):
            return None
        assert character.id is not None
        cap = ctx.settings_for(DecanterSettings).story_point_cap
        new = whole_number(words[0], "Story Points")
        if not 0 <= new <= cap:
            raise UserError(f"Story Points go from 0 to {cap}.")
        old, _ = await state.story_points(ctx, character.id)
        await repo.gain_pool(ctx.session, character.id, SP, new - old)
        return SP, old, new


CHARACTERS = DecanterCharacters()


def split_for(words: Sequence[str]) -> tuple[list[str], str | None]:
    """``... for CHARACTER``: the words before ``for`` and the name after it (None without one)."""
    words = list(words)
    lowered = [w.casefold() for w in words]
    if "for" not in lowered:
        return words, None
    at = lowered.index("for")
    return words[:at], " ".join(words[at + 1 :]) or None


async def target_character(ctx: CommandContext, name: str | None) -> Character:
    """``name``'s character (a Storyteller, or its owner), or the caller's active one."""
    if name is None:
        return await require_active(ctx, SYSTEM)
    character = await CHARACTERS.named(ctx, name)
    if character.owner_id != ctx.person.id and not ctx.storyteller:
        raise PermissionDenied(f"{character.name} is not yours: only a Storyteller changes another's sheet.")
    return character
