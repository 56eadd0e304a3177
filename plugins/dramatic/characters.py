"""Dramatic Systems characters and sheets: the shared player-sheet commands
(``gateway.rules.player_sheets``) with Willpower on the sheet."""

from __future__ import annotations

from typing import Any

from gateway import CommandContext, UserError
from gateway.characters import pool_value
from gateway.rules.numbers import whole_number
from gateway.rules.player_sheets import PlayerSheets
from gateway.vault.models import Character
from gateway.vault.models import Pool as PoolRow
from plugins.dramatic.config import DramaticSettings
from plugins.dramatic.mechanics import SYSTEM
from plugins.dramatic.messages import CATALOGUE
from plugins.dramatic.sheet import SCHEMA, DramaticSheet

WP = "willpower"


class DramaticCharacters(PlayerSheets):
    system = SYSTEM
    schema = SCHEMA
    catalogue = CATALOGUE
    set_usage = (
        "FIELD VALUE, with FIELD an Attribute or Ability (dots), specialties (a comma list), notes,"
        " or (Storytellers) willpower N or CURRENT/MAX"
    )

    def new_pools(self, ctx: CommandContext) -> tuple[dict[str, tuple[int, int]], dict[str, Any]]:
        wp = ctx.settings_for(DramaticSettings).willpower
        return {WP: (wp, wp)}, {"wp": wp}

    async def sheet_extras(
        self, ctx: CommandContext, character: Character, sheet: DramaticSheet
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """Willpower."""
        assert character.id is not None
        wp, wp_max = await pool_value(ctx.session, character.id, WP) or (0, 0)
        return {"wp": wp, "wp_max": wp_max}, {"willpower": {"current": wp, "maximum": wp_max}}

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
        pool = await ctx.session.get(PoolRow, (character.id, WP), populate_existing=True)
        if pool is None:
            pool = PoolRow(character_id=character.id, name=WP)
        old = f"{pool.current}/{pool.maximum}"
        pool.current, pool.maximum = current, maximum
        ctx.session.add(pool)
        return WP, old, f"{current}/{maximum}"


CHARACTERS = DramaticCharacters()
