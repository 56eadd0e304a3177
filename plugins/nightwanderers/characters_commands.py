"""Night Wanderers characters and sheets: the shared Storyteller-set sheet commands
(``gateway.rules.storyteller_sheets``) with clans, kinds, health and blood."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from gateway import CommandContext, Invocation, Reply, UserError
from gateway.features.characters import find_character
from gateway.rules.numbers import is_digits, is_signed
from gateway.rules.storyteller_sheets import NewCharacter, StorytellerSheets
from gateway.vault.models import Character, Pool
from plugins.nightwanderers import mechanics
from plugins.nightwanderers.commands import WORDS, Actor, fail, join, load_actor, t, torpor_key
from plugins.nightwanderers.config import NightWanderersSettings
from plugins.nightwanderers.fields import (
    ALLOWED,
    FIELDS,
    FLAGS,
    LEVELS,
    MAX_POOL,
    NO,
    NUMBERS,
    POOLS,
    RANGE,
    YES,
)
from plugins.nightwanderers.mechanics import SYSTEM
from plugins.nightwanderers.params import CHAR_NEW
from plugins.nightwanderers.sheet import (
    CLANS,
    WandererSheet,
    clan_name,
    match_clan,
    norm,
    split_clan,
    trait_name,
)
from plugins.nightwanderers.words import field_of, kind_of


def clans_list(ctx: CommandContext) -> str:
    return ", ".join(clan_name(c, ctx.locale) for c in CLANS)


def sheet_text(ctx: CommandContext, actor: Actor) -> str:
    sheet = actor.sheet
    settings = ctx.settings_for(NightWanderersSettings)
    traits = ", ".join(f"{trait_name(tr, ctx.locale)} {sheet.rating(tr)}" for tr in sheet.traits)
    # A clan is a vampire's: a human is not of "клан Человек" (the Humanity table's row for mortals).
    clan = sheet.clan if sheet.kind == "vampire" else None
    sentences = [
        t(
            ctx,
            "sheet.head" if clan else "sheet.head.kind",
            name=actor.name,
            kind=t(ctx, f"kind.{sheet.kind}"),
            clan=clan_name(clan, ctx.locale),
            humanity=sheet.humanity,
        ),
        t(ctx, "sheet.traits", traits=traits),
        t(
            ctx,
            "sheet.health",
            hp=actor.hp,
            max=actor.hp_max,
            band=t(ctx, f"band.{mechanics.band(actor.hp, actor.hp_max) or 'none'}"),
        ),
    ]
    if actor.blood is not None:
        state = mechanics.hunger(actor.blood, settings.hunger_at, settings.ravenous_at)
        sentences.append(
            t(ctx, "sheet.blood", bp=actor.blood, max=actor.blood_max, hunger=t(ctx, f"hunger.{state}"))
        )
    sentences.append(
        t(
            ctx,
            "sheet.powers",
            celerity=t(ctx, f"level.{sheet.celerity}"),
            potence=t(ctx, f"level.potence.{sheet.potence}"),
            hunting=t(ctx, "yes" if sheet.hunting else "no"),
            fortitude=t(ctx, "yes" if sheet.fortitude else "no"),
            xp=sheet.xp,
        )
    )
    if sheet.boost:
        sentences.append(t(ctx, "sheet.boost", n=sheet.boost))
    if sheet.frenzy:
        sentences.append(t(ctx, "sheet.frenzy"))
    if actor.status != "active":
        key = torpor_key(actor) if actor.status == "torpor" else f"status.{actor.status}"
        sentences.append(t(ctx, key, name=actor.name))
    return join(sentences)


def sheet_result(actor: Actor) -> dict[str, Any]:
    return {
        "kind": "sheet",
        "system": SYSTEM,
        "name": actor.name,
        "sheet": actor.character.sheet,
        "hp": actor.hp,
        "hp_max": actor.hp_max,
        "blood": actor.blood,
        "blood_max": actor.blood_max,
        "band": mechanics.band(actor.hp, actor.hp_max),
        "status": actor.status,
    }


def shown_value(ctx: CommandContext, field: str, value: str) -> str:
    """A field's value as the sheet shows it (``st set`` passes it as text: ``lesang``, ``None``)."""
    if field == "kind" and value in mechanics.KINDS:
        return t(ctx, f"kind.{value}")
    if field == "clan":
        return clan_name(None if value == "None" else value, ctx.locale)
    if field == "celerity" and value in ("0", "1", "2"):
        return t(ctx, f"level.{value}")
    if field == "potence" and value in ("0", "1", "2"):  # Могущество is neuter: «начальное»
        return t(ctx, f"level.potence.{value}")
    return value


class WandererCharacters(StorytellerSheets):
    system = SYSTEM
    words = WORDS
    new_params = CHAR_NEW  # the name and the clan (a picker on Discord, completed at the console)

    def usage_params(self, ctx: CommandContext) -> dict[str, Any]:
        return {"clans": clans_list(ctx)}

    def t(self, ctx: CommandContext, key: str, /, **params: Any) -> str:
        """The shared commands' lines in the book's words: ``st set`` hands over a field's and a
        value's canonical names (``humanity``, ``lesang``), which are shown as the sheet shows them."""
        if key == "st.set" and params.get("field") in FIELDS:
            field = params["field"]
            params = {**params, "field": t(ctx, f"field.{field}")}
            params.update({side: shown_value(ctx, field, params[side]) for side in ("old", "new")})
        return t(ctx, key, **params)

    def bad_value(self, ctx: CommandContext, field_word: str, allowed: str, value: str) -> UserError:
        """The refusal names the field as the sheet does, and a range in words (``от 0 до 10``)."""
        field = field_of(field_word)
        if field in FIELDS:
            label = t(ctx, f"field.{field}")
        else:
            trait, _ = WORDS.traits.match(field_word)
            label = trait_name(trait, ctx.locale) if trait else field_word[:40]
        bounds = RANGE.fullmatch(allowed)
        if allowed in ALLOWED:
            allowed = t(ctx, ALLOWED[allowed])
        elif bounds:
            allowed = t(ctx, "allowed.range", low=bounds[1], high=bounds[2])
        return super().bad_value(ctx, label, allowed, value)

    def new_sheet(self, ctx: CommandContext, inv: Invocation) -> NewCharacter:
        """``char new NAME clan CLAN`` (Discord's picker, the console's completion) or, as typed,
        ``char new NAME [CLAN]``: the last one to three words may be a clan the book names, in any
        spelling ``match_clan`` knows (Werewolves and Human make those kinds); anything else after
        the first word is refused with the clans, since a name of several words is written in
        quotes. That reading is of the words, not the bound name, which joins a quoted name's words
        (``char new "Mira Human"`` is a vampire called Mira Human)."""
        settings = ctx.settings_for(NightWanderersSettings)
        clan: str | None = inv.args.get("clan")
        if clan is not None:
            words = [str(inv.args.get("name", ""))]
        else:
            words, clan = split_clan(list(inv.words))
            if clan is None and len(words) > 1:
                raise fail(ctx, "err.unknown_clan", clan=" ".join(words[1:])[:60], clans=clans_list(ctx))
        kind = {"werewolves": "werewolf", "human": "human"}.get(clan or "", "vampire")
        hit_points = {
            "vampire": settings.vampire_hp,
            "human": settings.human_hp,
            "werewolf": settings.werewolf_hp,
        }
        hp = hit_points[kind]
        sheet = WandererSheet.new(settings.starting_rating, kind, clan)
        pools = {"hp": (hp, hp)}
        if kind == "vampire":
            pools["blood"] = (settings.blood_max, settings.blood_max)
        message = "char.created.vampire" if kind == "vampire" else "char.created.mortal"
        params = {"kind": t(ctx, f"kind.{kind}"), "hp": hp, "blood": settings.blood_max}
        return NewCharacter(words, sheet.dump(), pools, message, params)

    async def describe(self, ctx: CommandContext, character: Character) -> tuple[str, dict[str, Any]]:
        actor = await load_actor(ctx, character)
        return sheet_text(ctx, actor), sheet_result(actor)

    def check_pool(
        self, ctx: CommandContext, actor: Actor, field: str, field_word: str, value: str, row: Pool
    ) -> None:
        """A current value runs from the lowest the book allows (a vampire's Health and any blood stop
        at 0, a mortal's Health at -10, final death) to the maximum; a maximum is 1 to 1000 and never
        below the current value (lowered first, so nothing reads «Здоровье 30 из 5»)."""
        if field in ("hpmax", "bloodmax"):
            if not is_digits(value) or not 1 <= int(value) <= MAX_POOL:
                raise self.bad_value(ctx, field_word, f"1..{MAX_POOL}", value)
            if row.current > int(value):
                current = field.removesuffix("max")
                raise fail(
                    ctx,
                    "err.st_max_below",
                    name=actor.name,
                    field=t(ctx, f"field.{current}"),
                    current=row.current,
                    value=int(value),
                    pool=current,
                )
            return
        low = mechanics.DEATH_AT if field == "hp" and actor.sheet.kind != "vampire" else 0
        if not is_signed(value) or not low <= int(value) <= row.maximum:
            raise self.bad_value(ctx, field_word, f"{low}..{row.maximum}", value)

    async def st_set(self, ctx: CommandContext, inv: Invocation) -> Reply:
        """``st set NAME FIELD VALUE`` where FIELD may take two or three words (``невооруженный бой``,
        ``Физ. Защита``, ``максимум Здоровья``): when the words before them name a character, those
        words are the field, else the shared reading (the last two words are field and value)."""
        words = list(inv.words)
        for size in (3, 2):
            if len(words) < size + 2:
                continue
            field_word = " ".join(words[-1 - size : -1])
            if field_of(field_word) not in FIELDS and WORDS.traits.match(field_word)[0] is None:
                continue
            name = " ".join(words[: -1 - size])
            if await find_character(ctx.session, SYSTEM, name) is not None:
                return await super().st_set(ctx, replace(inv, words=(name, field_word, words[-1])))
        return await super().st_set(ctx, inv)

    async def set_field(
        self, ctx: CommandContext, character: Character, field_word: str, value: str
    ) -> tuple[str, Any, Any]:
        """A pool (hp, hpmax, blood, bloodmax), a flag, celerity, humanity, boost, kind, clan, or a trait."""
        actor = await load_actor(ctx, character, lock=True)
        sheet = actor.sheet
        field = field_of(field_word)
        folded = norm(value)
        old: Any
        new: Any
        if field in POOLS:
            pool_name, column = POOLS[field]
            row = await ctx.session.get(Pool, (actor.id, pool_name))
            if pool_name == "blood" and sheet.kind != "vampire":
                raise fail(ctx, "err.not_vampire", name=actor.name)
            if row is None:
                row = Pool(character_id=actor.id, name=pool_name, current=0, maximum=0)
            self.check_pool(ctx, actor, field, field_word, value, row)
            old, new = getattr(row, column), int(value)
            setattr(row, column, new)
            ctx.session.add(row)
        elif field in FLAGS:
            if folded not in YES | NO:
                raise self.bad_value(ctx, field_word, "yes / no", value)
            attr = FLAGS[field]
            old, new = getattr(sheet, attr), folded in YES
            setattr(sheet, attr, new)
            field = attr
        elif field == "celerity":
            if folded not in LEVELS:
                raise self.bad_value(ctx, field_word, "0 / 1 / 2", value)
            old, new = sheet.celerity, LEVELS[folded]
            sheet.celerity = new
        elif field in ("potence", "могущество"):  # nw-mech: Могущество for pursuit
            if folded not in LEVELS:
                raise self.bad_value(ctx, field_word, "0 / 1 / 2", value)
            old, new, field = sheet.potence, LEVELS[folded], "potence"
            sheet.potence = new
        elif field in NUMBERS:
            low, high = NUMBERS[field]
            if not is_digits(value) or not low <= int(value) <= high:
                raise self.bad_value(ctx, field_word, f"{low}-{high}", value)
            old, new = getattr(sheet, field), int(value)
            setattr(sheet, field, new)
        elif field == "kind":
            kind = kind_of(value)
            if kind not in mechanics.KINDS:
                kinds = ", ".join(t(ctx, f"kind.{k}") for k in mechanics.KINDS)
                raise self.bad_value(ctx, field_word, kinds, value)
            old, new = sheet.kind, kind
            sheet.kind = new
            if kind == "vampire" and await ctx.session.get(Pool, (actor.id, "blood")) is None:
                full = ctx.settings_for(NightWanderersSettings).blood_max  # a new vampire's pool
                ctx.session.add(Pool(character_id=actor.id, name="blood", current=full, maximum=full))
        elif field == "clan":
            clan = match_clan(value)
            if clan is None:
                raise self.bad_value(ctx, field_word, clans_list(ctx), value)
            old, new = sheet.clan, clan
            sheet.clan = clan
        else:
            field, old, new = self.set_trait(ctx, sheet, field_word, value)
        actor.save_sheet(ctx)
        return field, old, new


CHARACTERS = WandererCharacters()
