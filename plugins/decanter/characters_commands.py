"""Decanter characters and sheets: the shared player-sheet commands (``gateway.rules.player_sheets``)
with Story Points and Conditions on the sheet, and whose character a command is for."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from gateway import CommandContext, PermissionDenied, UserError
from gateway.features.characters import require_active
from gateway.rules.numbers import whole_number
from gateway.rules.player_sheets import PlayerSheets
from gateway.vault import repo
from gateway.vault.models import Character
from plugins.decanter import store
from plugins.decanter.config import DecanterSettings
from plugins.decanter.mechanics import SYSTEM
from plugins.decanter.messages import CATALOGUE, t
from plugins.decanter.sheet import KINDS, SCHEMA, SP, DecanterSheet


def duration_text(ctx: CommandContext, duration: str) -> str:
    return t(ctx, f"duration.{duration}")


class DecanterCharacters(PlayerSheets):
    system = SYSTEM
    schema = SCHEMA
    catalogue = CATALOGUE
    set_usage = (
        "FIELD VALUE, with FIELD an Attribute or Skill (dots), specialties (a comma list), notes,"
        " kind (mortal, ghoul or vampire); Storytellers also xp, stains, hunger and sp"
    )
    counters = ("xp", "stains", "hunger")

    def new_pools(self, ctx: CommandContext) -> tuple[dict[str, tuple[int, int]], dict[str, Any]]:
        return {SP: (0, ctx.settings_for(DecanterSettings).story_point_cap)}, {}

    async def sheet_extras(
        self, ctx: CommandContext, character: Character, sheet: DecanterSheet
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """Story Points and Conditions."""
        assert character.id is not None
        current, maximum = await store.story_points(ctx, character.id)
        conditions = "; ".join(
            t(ctx, "cond.item", cname=c.name, duration=duration_text(ctx, c.duration))
            for c in sheet.conditions
        )
        marks = [t(ctx, "sheet.xp", n=sheet.xp)]
        if sheet.kind:
            marks.insert(0, t(ctx, f"kind.{sheet.kind}"))
        if sheet.stains:
            marks.append(t(ctx, "sheet.stains", n=sheet.stains))
        if sheet.hunger:
            marks.append(t(ctx, "sheet.craving" if sheet.kind == "ghoul" else "sheet.hunger", n=sheet.hunger))
        params = {
            "sp": t(ctx, "sp.show", name=character.name, n=current, cap=maximum).rstrip(".")
            + "; "
            + ", ".join(marks),
            "conditions": conditions or t(ctx, "none"),
        }
        return params, {"story_points": {"current": current, "cap": maximum}}

    def _set_field(
        self, data: BaseModel, field_word: str, value_words: list[str], storyteller: bool
    ) -> tuple[str, Any, Any, BaseModel]:
        """``kind`` (anyone who may edit the sheet) and the Roll Bonus's counters (Storytellers)."""
        folded = field_word.casefold()
        if folded in ("kind", "type", "creature"):
            kind = " ".join(value_words).casefold()
            if kind not in KINDS:
                raise UserError("kind is mortal, ghoul or vampire.")
            old = getattr(data, "kind", None)
            return "kind", old, kind, data.model_copy(update={"kind": kind})
        key = {"stain": "stains", "craving": "hunger", "experience": "xp"}.get(folded, folded)
        if key in self.counters:
            if not storyteller:
                raise PermissionDenied(f"Only a Storyteller sets {key}: st set NAME {key} N.")
            if len(value_words) != 1:
                raise UserError(f"Write {key} as one number.")
            value = whole_number(value_words[0], key.title(), 100000, low=0)
            return key, getattr(data, key), value, data.model_copy(update={key: value})
        return super()._set_field(data, field_word, value_words, storyteller)

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
        old, _ = await store.story_points(ctx, character.id)
        await repo.gain_pool(ctx.session, character.id, SP, new - old)
        return SP, old, new


CHARACTERS = DecanterCharacters()


async def target_character(ctx: CommandContext, name: str | None) -> Character:
    """``name``'s character (a Storyteller, or its owner), or the caller's active one."""
    if name is None:
        return await require_active(ctx, SYSTEM)
    character = await CHARACTERS.named(ctx, name)
    if character.owner_id != ctx.person.id and not ctx.storyteller:
        raise PermissionDenied(f"{character.name} is not yours: only a Storyteller changes another's sheet.")
    return character
