"""Characters whose players fill in their own dots sheet until a Storyteller approves it: the
``char``, ``char new``, ``char use``, ``sheet``, ``set``, ``st set`` and ``st approve`` commands of
one rule system, built from its ``DotsSchema`` and its messages (catalogue keys ``char.created``,
``char.used``, ``char.list``, ``char.none``, ``none``, ``set.done`` and ``approved``).

A system subclasses ``PlayerSheets``, names its system, schema, catalogue and ``set_usage``, and
overrides the hooks for what only it has: the pools of a new character, what its sheet adds, and
the pool a Storyteller may set with ``st set`` (Story Points, Willpower).
"""

from __future__ import annotations

from functools import partial
from typing import Any, ClassVar

from pydantic import BaseModel

from gateway.core.commands import Command, CommandContext
from gateway.core.errors import PermissionDenied, UserError
from gateway.core.i18n import Catalogue
from gateway.core.types import Invocation, Reply
from gateway.features.characters import (
    active_character,
    create_character,
    find_character,
    lock_character,
    owned_characters,
    require_active,
)
from gateway.rules import sheet_params as P
from gateway.rules.dots_sheet import DotsSchema, trait_title
from gateway.rules.numbers import whole_number
from gateway.vault.models import Character


def shown(value: Any) -> str:
    if isinstance(value, list):
        return ", ".join(value) or "-"
    return str(value) if value not in (None, "") else "-"


class PlayerSheets:
    """``set_usage`` describes FIELD VALUE in refusals and help."""

    system: ClassVar[str]
    schema: ClassVar[DotsSchema[Any]]
    catalogue: ClassVar[Catalogue]
    set_usage: ClassVar[str]

    # --- hooks --------------------------------------------------------------------------------------

    def new_pools(self, ctx: CommandContext) -> tuple[dict[str, tuple[int, int]], dict[str, Any]]:
        """A new character's pools (name -> (current, maximum)) and more ``char.created`` parameters."""
        return {}, {}

    async def sheet_extras(
        self, ctx: CommandContext, character: Character, sheet: Any
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """More ``sheet`` message parameters (it gets name, status, attributes, the learned group by
        its field name and specialties) and more result fields."""
        return {}, {}

    async def set_pool(
        self, ctx: CommandContext, character: Character, field: str, words: list[str]
    ) -> tuple[str, Any, Any] | None:
        """A Storyteller's ``st set`` of a pool: (field, old, new) once written, or None when the
        folded ``field`` names no pool of this system."""
        return None

    # ------------------------------------------------------------------------------------------------

    @property
    def title(self) -> str:
        return self.schema.title

    def t(self, ctx: CommandContext, key: str, /, **params: Any) -> str:
        return self.catalogue.say(ctx, key, **params)

    def reply(
        self, text: str, kind: str, character: Character, *, private: bool = False, **fields: Any
    ) -> Reply:
        """A reply about one character: its result is ``kind``, the system, the character's name and
        ``fields``."""
        result = {"kind": kind, "system": self.system, "character": character.name, **fields}
        return Reply(text=text, private=private, result=result)

    def commands(self) -> list[Command]:
        command = partial(Command, system=self.system)
        listed = f"list your {self.title} characters"
        new = f"make a {self.title} character and make it active"
        return [
            command("char", self.char_list, listed, "char", params=P.NONE),
            # What replies name (``char retire``'s refusals, Nightcap's): the same list.
            command("char list", self.char_list, listed, "char list", params=P.NONE),
            command("char new", self.char_new, new, "char new NAME", params=P.CHAR_NEW),
            command(
                "char use",
                self.char_use,
                "make one of your characters active",
                "char use NAME",
                params=P.CHAR_USE,
            ),
            command(
                "sheet", self.sheet, "show a character sheet", "sheet [NAME]", params=P.SHEET, private=True
            ),
            command(
                "set", self.set, "set a field on your unapproved sheet", "set " + self.set_usage, params=P.SET
            ),
            command(
                "st set",
                self.st_set,
                "set any character's field (audited)",
                "st set NAME " + self.set_usage,
                role="storyteller",
                params=P.ST_SET,
            ),
            command(
                "st approve",
                self.st_approve,
                "approve and lock a sheet",
                "st approve NAME",
                role="storyteller",
                params=P.ST_APPROVE,
            ),
        ]

    async def named(self, ctx: CommandContext, name: str) -> Character:
        """The character of this system called ``name``, or a refusal."""
        character = await find_character(ctx.session, self.system, name)
        if character is None:
            raise UserError(f"No {self.title} character called {name[:60]!r}.")
        return character

    def _named_reply(self, ctx: CommandContext, key: str, character: Character, **params: Any) -> Reply:
        return self.reply(
            self.t(ctx, key, name=character.name, **params), "character", character, id=character.id
        )

    async def char_new(self, ctx: CommandContext, inv: Invocation) -> Reply:
        name = " ".join(inv.words)
        if not name:
            raise UserError("Write char new NAME, e.g. char new Mira.")
        pools, params = self.new_pools(ctx)
        character = await create_character(ctx, name, self.schema.dump(self.schema.model()), pools=pools)
        return self._named_reply(ctx, "char.created", character, **params)

    async def char_use(self, ctx: CommandContext, inv: Invocation) -> Reply:
        name = " ".join(inv.words)
        if not name:
            raise UserError("Write char use NAME.")
        character = await self.named(ctx, name)
        if character.owner_id != ctx.person.id:
            raise PermissionDenied(f"{character.name} is not yours.")
        ctx.person.active_character_id = character.id
        ctx.session.add(ctx.person)
        return self._named_reply(ctx, "char.used", character)

    async def char_list(self, ctx: CommandContext, inv: Invocation) -> Reply:
        if inv.words:  # ``char banana`` is no list
            raise UserError(
                f"Write char or char list to list your characters; char new NAME makes one, char use NAME"
                f" picks one. No char {inv.words[0][:20]!r}."
            )
        assert ctx.person.id is not None
        mine = await owned_characters(ctx.session, ctx.person.id, self.system)
        if not mine:
            return Reply(
                text=self.t(ctx, "char.none"),
                result={"kind": "characters", "system": self.system, "characters": []},
            )
        active = await active_character(ctx, self.system)
        text = self.t(
            ctx,
            "char.list",
            names=", ".join(c.name for c in mine),
            active=active.name if active else self.t(ctx, "none"),
        )
        return Reply(
            text=text,
            private=True,
            result={"kind": "characters", "system": self.system, "characters": [c.name for c in mine]},
        )

    async def sheet(self, ctx: CommandContext, inv: Invocation) -> Reply:
        name = " ".join(inv.words) or None
        if name is None:
            character = await require_active(ctx, self.system)
        else:
            character = await self.named(ctx, name)
            if character.owner_id != ctx.person.id and not ctx.storyteller:
                raise PermissionDenied(f"{character.name}'s sheet is for its player and the Storytellers.")
        data = self.schema.load(character.sheet)
        assert character.id is not None
        params, extra = await self.sheet_extras(ctx, character, data)
        none = self.t(ctx, "none")
        learned = self.schema.learned_field
        text = self.t(
            ctx,
            "sheet",
            name=character.name,
            status=character.status,
            attributes=self.schema.dots(data, "attributes"),
            specialties=", ".join(data.specialties) or none,
            **{learned: self.schema.dots(data, learned) or none},
            **params,
        )
        return self.reply(
            text,
            "sheet",
            character,
            private=True,
            status=character.status,
            sheet=self.schema.dump(data),
            **extra,
        )

    async def set(self, ctx: CommandContext, inv: Invocation) -> Reply:
        character = await require_active(ctx, self.system)
        if character.status == "approved":
            raise UserError(
                f"{character.name}'s sheet is approved and locked; a Storyteller can change it with st set."
            )
        return await self.apply_set(ctx, character, list(inv.words), storyteller=False)

    async def st_set(self, ctx: CommandContext, inv: Invocation) -> Reply:
        words = list(inv.words)
        if len(words) < 3:
            raise UserError(f"Write st set NAME {self.set_usage} (quote a name with spaces).")
        character = await self.named(ctx, words[0])
        return await self.apply_set(ctx, character, words[1:], storyteller=True)

    async def apply_set(
        self, ctx: CommandContext, character: Character, words: list[str], *, storyteller: bool
    ) -> Reply:
        if len(words) < 2:
            raise UserError(f"Write {'st set NAME ' if storyteller else 'set '}{self.set_usage}.")
        field_word, value_words = words[0], words[1:]
        assert character.id is not None
        character = await lock_character(ctx.session, character.id)
        data = self.schema.load(character.sheet)
        folded = field_word.casefold()
        pool = await self.set_pool(ctx, character, folded, value_words) if storyteller else None
        if pool is not None:
            field, old, new = pool
        else:
            field, old, new, data = self._set_field(data, field_word, value_words, storyteller)
        character.sheet = self.schema.dump(data)
        character.updated_at = ctx.now
        ctx.session.add(character)
        await ctx.audit(
            f"{self.system}.st_set" if storyteller else f"{self.system}.set",
            character_id=character.id,
            field_name=field,
            old=old,
            new=new,
        )
        text = self.t(
            ctx,
            "set.done",
            name=character.name,
            field=field.replace("_", " ").title(),
            old=shown(old),
            new=shown(new),
        )
        if storyteller:
            await ctx.stlog(text, kind="edit", character_id=character.id)
        return self.reply(text, "sheet_edit", character, field=field, old=old, new=new)

    def _set_field(
        self, data: BaseModel, field_word: str, value_words: list[str], storyteller: bool
    ) -> tuple[str, Any, Any, BaseModel]:
        """Notes, specialties or a trait: (field, old, new, the changed sheet)."""
        folded = field_word.casefold()
        if folded in ("notes", "note"):
            new = " ".join(value_words)[:1000]
            return _replaced(data, "notes", new)
        if folded in ("specialties", "specialty", "specs"):
            items = [s.strip() for s in " ".join(value_words).split(",") if s.strip()]
            return _replaced(data, "specialties", items)
        trait = self.schema.match_trait(field_word)
        if trait is None:
            raise UserError(f"No field {field_word[:40]!r}. Write {self.set_usage}.")
        if len(value_words) != 1:
            raise UserError(f"Write {trait_title(trait)} as one number of dots.")
        value = whole_number(value_words[0], trait_title(trait))
        maximum = self.schema.storyteller_max if storyteller else self.schema.player_max
        data, old = self.schema.set_trait(data, trait, value, maximum)
        return trait, old, value, data

    async def st_approve(self, ctx: CommandContext, inv: Invocation) -> Reply:
        name = " ".join(inv.words)
        if not name:
            raise UserError("Write st approve NAME.")
        character = await self.named(ctx, name)
        old = character.status
        character.status = "approved"
        character.updated_at = ctx.now
        ctx.session.add(character)
        await ctx.audit(
            f"{self.system}.approve", character_id=character.id, field_name="status", old=old, new="approved"
        )
        text = self.t(ctx, "approved", name=character.name)
        await ctx.stlog(text, kind="edit", character_id=character.id)
        return self.reply(text, "character", character, status="approved")


def _replaced(data: BaseModel, field: str, new: Any) -> tuple[str, Any, Any, BaseModel]:
    """(field, its old value, ``new``, a copy of the sheet with it): for the fields every such sheet
    model has (``notes``, ``specialties``) but ``BaseModel`` does not declare."""
    return field, getattr(data, field), new, data.model_copy(update={field: new})
