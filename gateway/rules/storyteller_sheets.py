"""Characters whose sheet a Storyteller sets: the ``char``, ``char new``, ``char use``, ``sheet``
and ``st set NAME FIELD VALUE`` commands of one rule system, all in its catalogue's words (keys
``char.list``, ``char.list.none``, ``char.used``, ``st.set``, ``yes``, ``no`` and ``err.char_usage``,
``err.char_name``, ``err.char_taken``, ``err.char_not_yours``, ``err.no_active``,
``err.no_character``, ``err.st_usage``, ``err.st_value``).

A system subclasses ``StorytellerSheets``, names its system and ``TraitWords``, and overrides the
hooks: what ``char new`` takes after the name (``new_params``) and the sheet it makes, how a sheet
reads, and the fields ``st set`` knows besides the traits.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import Any, ClassVar

from gateway.core.commands import Command, CommandContext
from gateway.core.errors import UserError
from gateway.core.params import Param
from gateway.core.types import Invocation, Reply
from gateway.features.characters import active_character, create_character, find_character, owned_characters
from gateway.rules import sheet_params as P
from gateway.rules.numbers import is_digits
from gateway.rules.trait_words import TraitWords
from gateway.vault.models import Character


@dataclass(frozen=True)
class NewCharacter:
    """What ``char new`` makes: the name's words, the sheet, its pools and the ``created`` message."""

    name_words: list[str]
    sheet: dict[str, Any]
    pools: dict[str, tuple[int, int]] | None
    message: str
    params: dict[str, Any]


class StorytellerSheets:
    system: ClassVar[str]
    words: ClassVar[TraitWords]
    # ``char new``'s typed parameters: a system whose ``new_sheet`` reads more than the name (a clan)
    # declares them here, the shared name first (Discord merges it with the other systems').
    new_params: ClassVar[tuple[Param, ...]] = P.CHAR_NEW

    # --- hooks --------------------------------------------------------------------------------------

    def new_sheet(self, ctx: CommandContext, inv: Invocation) -> NewCharacter:
        """What ``char new`` makes of its bound ``new_params`` (``inv.args``) and words."""
        raise NotImplementedError

    async def describe(self, ctx: CommandContext, character: Character) -> tuple[str, dict[str, Any]]:
        """The sheet in words, and as a result."""
        raise NotImplementedError

    async def set_field(
        self, ctx: CommandContext, character: Character, field_word: str, value: str
    ) -> tuple[str, Any, Any]:
        """``st set``: (field, old, new) once written; a trait is ``set_trait``'s."""
        raise NotImplementedError

    def usage_params(self, ctx: CommandContext) -> dict[str, Any]:
        """What fills ``err.char_usage``."""
        return {}

    # ------------------------------------------------------------------------------------------------

    def t(self, ctx: CommandContext, key: str, /, **params: Any) -> str:
        return self.words.catalogue.say(ctx, key, **params)

    def fail(self, ctx: CommandContext, key: str, /, **params: Any) -> UserError:
        return self.words.catalogue.refusal(ctx, key, **params)

    def commands(
        self, title: str, new_summary: str, new_usage: str, sheet_summary: str, st_summary: str
    ) -> list[Command]:
        command = partial(Command, system=self.system)
        listed = f"list your {title} characters"
        return [
            command("char", self.char_list, listed, "char", params=P.NONE, private=True),
            # What replies name (``char retire``'s refusals, Nightcap's): the same list.
            command("char list", self.char_list, listed, "char list", params=P.NONE, private=True),
            command("char new", self.char_new, new_summary, new_usage, params=self.new_params),
            command(
                "char use",
                self.char_use,
                "pick your active character",
                "char use NAME",
                params=P.CHAR_USE,
                private=True,
            ),
            command("sheet", self.sheet, sheet_summary, "sheet [NAME]", params=P.SHEET, private=True),
            command(
                "st set",
                self.st_set,
                st_summary,
                "st set NAME FIELD VALUE",
                role="storyteller",
                params=P.ST_SET,
            ),
        ]

    async def char_list(self, ctx: CommandContext, inv: Invocation) -> Reply:
        if inv.words:
            raise self.fail(ctx, "err.char_usage", **self.usage_params(ctx))
        assert ctx.person.id is not None
        mine = await owned_characters(ctx.session, ctx.person.id, self.system)
        if not mine:
            return Reply(text=self.t(ctx, "char.list.none"), private=True)
        active = ctx.person.active_character_id
        names = ", ".join(f"{c.name}{' *' if c.id == active else ''}" for c in mine)
        return Reply(
            text=self.t(ctx, "char.list", names=names),
            private=True,
            result={"kind": "characters", "system": self.system, "names": [c.name for c in mine]},
        )

    async def char_new(self, ctx: CommandContext, inv: Invocation) -> Reply:
        new = self.new_sheet(ctx, inv)
        name = " ".join(" ".join(new.name_words).split())
        if not name or len(name) > 60:
            raise self.fail(ctx, "err.char_name")
        if await find_character(ctx.session, self.system, name) is not None:
            raise self.fail(ctx, "err.char_taken", name=name)
        character = await create_character(ctx, name, new.sheet, new.pools)
        await ctx.audit("character.create", character_id=character.id, new=character.name)
        return Reply(
            text=self.t(ctx, new.message, name=character.name, **new.params),
            result={
                "kind": "character",
                "system": self.system,
                "name": character.name,
                "sheet": dict(new.sheet),
            },
        )

    async def char_use(self, ctx: CommandContext, inv: Invocation) -> Reply:
        if not inv.words:
            raise self.fail(ctx, "err.char_usage", **self.usage_params(ctx))
        name = " ".join(inv.words)
        character = await find_character(ctx.session, self.system, name)
        if character is None or character.owner_id != ctx.person.id:
            raise self.fail(ctx, "err.char_not_yours", name=name[:60])
        ctx.person.active_character_id = character.id
        ctx.session.add(ctx.person)
        return Reply(text=self.t(ctx, "char.used", name=character.name), private=True)

    async def sheet(self, ctx: CommandContext, inv: Invocation) -> Reply:
        if inv.words:
            name = " ".join(inv.words)
            character = await find_character(ctx.session, self.system, name)
            if character is None or (character.owner_id != ctx.person.id and not ctx.storyteller):
                raise self.fail(ctx, "err.char_not_yours", name=name[:60])
        else:
            character = await active_character(ctx, self.system)
            if character is None:
                raise self.fail(ctx, "err.no_active")
        text, result = await self.describe(ctx, character)
        return Reply(text=text, private=True, result=result)

    async def st_set(self, ctx: CommandContext, inv: Invocation) -> Reply:
        """``st set NAME FIELD VALUE``: the name may have spaces; the last two words are field and value."""
        if len(inv.words) < 3:
            raise self.fail(ctx, "err.st_usage", traits=self.words.listing(ctx))
        name, field_word, value = " ".join(inv.words[:-2]), inv.words[-2], inv.words[-1]
        character = await find_character(ctx.session, self.system, name)
        if character is None:
            raise self.fail(ctx, "err.no_character", name=name[:60])
        field, old, new = await self.set_field(ctx, character, field_word, value)
        await ctx.audit("sheet.set", character_id=character.id, field_name=field, old=old, new=new)
        label = self.words.name(ctx, field) if field in self.words.traits.traits else field

        def shown(value: object) -> str:
            return self.t(ctx, "yes" if value else "no") if isinstance(value, bool) else str(value)

        text = self.t(ctx, "st.set", name=character.name, field=label, old=shown(old), new=shown(new))
        await ctx.stlog(
            text, kind="st_edit", result={"field": field, "old": old, "new": new}, character_id=character.id
        )
        _, result = await self.describe(ctx, character)
        return Reply(text=text, result=result)

    # --- for the set_field hooks ------------------------------------------------------------------

    def bad_value(self, ctx: CommandContext, field_word: str, allowed: str, value: str) -> UserError:
        return self.fail(ctx, "err.st_value", field=field_word, allowed=allowed, value=value[:20])

    def set_trait(self, ctx: CommandContext, sheet: Any, field_word: str, value: str) -> tuple[str, int, int]:
        """A trait rated 0-10 on ``sheet.traits``: (trait, old, new)."""
        trait = self.words.resolve(ctx, field_word)
        if not is_digits(value) or int(value) > 10:
            raise self.bad_value(ctx, field_word, "0-10", value)
        old, new = int(sheet.traits.get(trait, 0)), int(value)
        sheet.traits = {**sheet.traits, trait: new}
        return trait, old, new
