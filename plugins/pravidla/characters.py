"""Pravidla characters and sheets: the shared Storyteller-set sheet commands
(``gateway.rules.storyteller_sheets``) with Pravidla's sheet and its powers."""

from __future__ import annotations

from typing import Any

from gateway import CommandContext
from gateway.rules.storyteller_sheets import NewCharacter, StorytellerSheets
from gateway.vault.models import Character
from plugins.pravidla.commands import WORDS, t
from plugins.pravidla.config import PravidlaSettings
from plugins.pravidla.mechanics import SYSTEM
from plugins.pravidla.sheet import TRAITS, PravidlaSheet, fold, match_power, trait_name

YES = {"yes", "ano", "on", "1", "true"}
NO = {"no", "ne", "off", "0", "false"}
LEVELS = {
    "0": 0,
    "none": 0,
    "zadna": 0,
    "1": 1,
    "basic": 1,
    "zakladni": 1,
    "2": 2,
    "advanced": 2,
    "pokrocila": 2,
}


class PravidlaCharacters(StorytellerSheets):
    system = SYSTEM
    words = WORDS

    def new_sheet(self, ctx: CommandContext, words: list[str]) -> NewCharacter:
        sheet = PravidlaSheet.new(ctx.settings_for(PravidlaSettings).starting_rating)
        return NewCharacter(words, sheet.dump(), None, "char.created", {})

    async def describe(self, ctx: CommandContext, character: Character) -> tuple[str, dict[str, Any]]:
        sheet = PravidlaSheet.of(character.sheet)
        traits = ", ".join(f"{trait_name(tr, ctx.locale)} {sheet.rating(tr)}" for tr in TRAITS)
        text = t(
            ctx,
            "sheet",
            name=character.name,
            traits=traits,
            celerity=t(ctx, f"level.{sheet.celerity}"),
            hunting=t(ctx, "yes" if sheet.hunting else "no"),
            potence=t(ctx, f"level.{sheet.potence}"),
        )
        return text, {"kind": "sheet", "system": SYSTEM, "name": character.name, "sheet": character.sheet}

    async def set_field(
        self, ctx: CommandContext, character: Character, field_word: str, value: str
    ) -> tuple[str, Any, Any]:
        """A power (hunting yes|no, celerity and potence 0-2) or a trait."""
        sheet = PravidlaSheet.of(character.sheet)
        power = match_power(field_word)
        folded = fold(value)
        old: Any
        new: Any
        if power == "hunting":
            if folded not in YES | NO:
                raise self.bad_value(ctx, field_word, "yes / no", value)
            field, old, new = "hunting", sheet.hunting, folded in YES
            sheet.hunting = new
        elif power in ("celerity", "potence"):
            if folded not in LEVELS:
                raise self.bad_value(ctx, field_word, "0 / 1 / 2", value)
            field, old, new = power, getattr(sheet, power), LEVELS[folded]
            setattr(sheet, power, new)
        else:
            field, old, new = self.set_trait(ctx, sheet, field_word, value)
        character.sheet = sheet.dump()
        character.updated_at = ctx.now
        ctx.session.add(character)
        return field, old, new


CHARACTERS = PravidlaCharacters()
