"""Pravidla characters and sheets: the shared Storyteller-set sheet commands
(``gateway.rules.storyteller_sheets``) with Pravidla's sheet and its powers."""

from __future__ import annotations

from typing import Any

from gateway import CommandContext, Invocation, UserError
from gateway.rules.numbers import is_signed
from gateway.rules.storyteller_sheets import NewCharacter, StorytellerSheets
from gateway.vault.models import Character
from plugins.pravidla.commands import WORDS, t
from plugins.pravidla.config import PravidlaSettings
from plugins.pravidla.mechanics import SYSTEM
from plugins.pravidla.sheet import (
    LEVELS,
    MAX_RATING,
    NO,
    POWER_WORDS,
    TRAITS,
    YES,
    PravidlaSheet,
    fold,
    match_power,
    trait_name,
)

# What ``bad_value`` is told a field takes (the shared ``set_trait`` says "0-10").
CHOICE, LEVELLED = "yes / no", "0 / 1 / 2"


class PravidlaCharacters(StorytellerSheets):
    system = SYSTEM
    words = WORDS

    def new_sheet(self, ctx: CommandContext, inv: Invocation) -> NewCharacter:
        sheet = PravidlaSheet.new(ctx.settings_for(PravidlaSettings).starting_rating)
        return NewCharacter(list(inv.words), sheet.dump(), None, "char.created", {})

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
                raise self.bad_value(ctx, field_word, CHOICE, value)
            field, old, new = "hunting", sheet.hunting, folded in YES
            sheet.hunting = new
        elif power in ("celerity", "potence"):
            if folded not in LEVELS:
                raise self.bad_value(ctx, field_word, LEVELLED, value)
            field, old, new = power, getattr(sheet, power), LEVELS[folded]
            setattr(sheet, power, new)
        else:
            field, old, new = self.set_trait(ctx, sheet, field_word, value)
        character.sheet = sheet.dump()
        character.updated_at = ctx.now
        ctx.session.add(character)
        return field, old, new

    def field_label(self, ctx: CommandContext, field_word: str) -> str:
        """The field as the reader's language names it (``sarm`` -> Šarm, ``hunting`` -> Lovecký
        instinkt), or the word as written when it names nothing."""
        power = match_power(field_word)
        if power is not None:
            return t(ctx, f"field.{power}")
        trait, _ = self.words.traits.match(field_word)
        return trait_name(trait, ctx.locale) if trait else field_word[:40]

    def bad_value(self, ctx: CommandContext, field_word: str, allowed: str, value: str) -> UserError:
        """One sentence per kind of field: a range, the three levels, yes or no."""
        field, value = self.field_label(ctx, field_word), value[:20]
        if allowed == CHOICE:
            return self.fail(ctx, "err.st_choice", field=field, value=value)
        if allowed == LEVELLED:
            return self.fail(ctx, "err.st_levels", field=field, value=value)
        key = "err.st_range" if is_signed(value) else "err.st_not_number"  # -1 is a number, out of range
        return self.fail(ctx, key, field=field, low=0, high=MAX_RATING, value=value)

    def t(self, ctx: CommandContext, key: str, /, **params: Any) -> str:
        """``st.set`` of a power: its name and levels in the reader's words ("Celerita žádná →
        základní"); the shared ``st_set`` names only traits and shows numbers as they are."""
        if key == "st.set" and params.get("field") in POWER_WORDS:
            power = params["field"]
            params["field"] = t(ctx, f"field.{power}")
            if power != "hunting":
                params["old"], params["new"] = (t(ctx, f"level.{params[k]}") for k in ("old", "new"))
        return super().t(ctx, key, **params)


CHARACTERS = PravidlaCharacters()
