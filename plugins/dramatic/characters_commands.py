"""Dramatic Systems characters and sheets: the shared player-sheet commands
(``gateway.rules.player_sheets``) with Willpower on the sheet."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from gateway import CommandContext, UserError
from gateway.features.characters import pool_value
from gateway.rules.dots_sheet import trait_title
from gateway.rules.numbers import whole_number
from gateway.rules.player_sheets import PlayerSheets
from gateway.vault.models import Character
from gateway.vault.models import Pool as PoolRow
from plugins.dramatic.abilities import is_secondary_name, secondary_key
from plugins.dramatic.config import DramaticSettings
from plugins.dramatic.mechanics import SYSTEM
from plugins.dramatic.messages import CATALOGUE
from plugins.dramatic.sheet import SCHEMA, WP, DramaticSheet


class DramaticCharacters(PlayerSheets):
    system = SYSTEM
    schema = SCHEMA
    catalogue = CATALOGUE
    set_usage = (
        "FIELD VALUE, with FIELD an Attribute or Ability (dots), secondary NAME N (a secondary Ability),"
        " specialties (a comma list), notes, or (Storytellers) willpower N or CURRENT/MAX"
    )

    def new_pools(self, ctx: CommandContext) -> tuple[dict[str, tuple[int, int]], dict[str, Any]]:
        wp = ctx.settings_for(DramaticSettings).willpower
        return {WP: (wp, wp)}, {"wp": wp}

    async def sheet_extras(
        self, ctx: CommandContext, character: Character, sheet: DramaticSheet
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """Willpower and the secondary Abilities."""
        assert character.id is not None
        wp, wp_max = await pool_value(ctx.session, character.id, WP) or (0, 0)
        secondary = ", ".join(f"{trait_title(k)} {v}" for k, v in sorted(sheet.secondary.items()))
        params = {"wp": wp, "wp_max": wp_max, "secondary": secondary or self.t(ctx, "none")}
        return params, {"willpower": {"current": wp, "maximum": wp_max}}

    def _set_field(
        self, data: BaseModel, field_word: str, value_words: list[str], storyteller: bool
    ) -> tuple[str, Any, Any, BaseModel]:
        """``secondary NAME N``: a secondary Ability (0 takes it off); the rest as every dots sheet."""
        if field_word.casefold() not in ("secondary", "secondaries"):
            return super()._set_field(data, field_word, value_words, storyteller)
        if len(value_words) < 2:
            raise UserError("Write secondary NAME N, e.g. secondary gang_lore 2 (0 takes it off).")
        key = secondary_key(value_words[:-1])
        if not is_secondary_name(key):
            raise UserError(
                f"{key[:40]!r} cannot name a secondary Ability: it reads as an Attribute or primary"
                " Ability (or is no word). Pick another name."
            )
        value = whole_number(value_words[-1], trait_title(key))
        maximum = self.schema.storyteller_max if storyteller else self.schema.player_max
        if not 0 <= value <= maximum:
            raise UserError(f"{trait_title(key)} goes from 0 to {maximum}.")
        assert isinstance(data, DramaticSheet)
        secondary = {**data.secondary, key: value}
        if value == 0:
            secondary.pop(key)
        old = data.secondary.get(key, 0)
        return f"secondary {key}", old, value, data.model_copy(update={"secondary": secondary})

    async def set_pool(
        self, ctx: CommandContext, character: Character, field: str, words: list[str]
    ) -> tuple[str, Any, Any] | None:
        """``st set NAME willpower 3/6`` (or just 6): current and maximum, 0 to 10."""
        if field not in ("wp", "willpower"):
            return None
        current_word, _, max_word = words[0].partition("/")
        current = whole_number(current_word, "Willpower")
        maximum = whole_number(max_word, "Willpower") if max_word else current
        if not 0 <= current <= maximum <= 10:
            raise UserError("Willpower is CURRENT/MAX with 0 <= CURRENT <= MAX <= 10, e.g. 3/6 (or just 6).")
        assert character.id is not None
        pool = await ctx.session.get(PoolRow, (character.id, WP), populate_existing=True)
        if pool is None:
            pool = PoolRow(character_id=character.id, name=WP)
        old = f"{pool.current}/{pool.maximum}"
        pool.current, pool.maximum = current, maximum
        ctx.session.add(pool)
        return WP, old, f"{current}/{maximum}"


CHARACTERS = DramaticCharacters()
