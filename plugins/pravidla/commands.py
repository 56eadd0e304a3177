"""Pravidla commands: roll, odds, characters and the sheet. Tug of war and initiative: scene.py."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from gateway.characters import active_character, create_character, find_character, owned_characters
from gateway.commands import CommandContext
from gateway.errors import UserError
from gateway.i18n import percent
from gateway.rules import binomial
from gateway.rules.roll_words import ParseError, Term, read_term, split_roll
from gateway.types import Invocation, Reply
from gateway.vault.models import Character
from plugins.pravidla import config, mechanics
from plugins.pravidla.messages import CATALOGUE
from plugins.pravidla.sheet import (
    CS_INSTRUMENTAL,
    TRAITS,
    PravidlaSheet,
    fold,
    match_power,
    match_trait,
    trait_name,
)

SYSTEM = mechanics.SYSTEM
ROLL_OPTIONS = {"tn": "target", "cc": "target", "need": "need"}


def t(ctx: CommandContext, key: str, /, **params: Any) -> str:
    return CATALOGUE.t(ctx.locale, key, **params)


def fail(ctx: CommandContext, key: str, /, **params: Any) -> UserError:
    return UserError(t(ctx, key, **params))


def traits_list(ctx: CommandContext) -> str:
    return ", ".join(trait_name(tr, ctx.locale) for tr in TRAITS)


def faces(dice: tuple[int, ...] | list[int]) -> str:
    return " ".join(str(f) for f in dice)


@dataclass(frozen=True)
class Pool:
    """A side's dice: ``trait`` is set when the pool came from a sheet."""

    dice: int
    base: int
    term: Term
    trait: str | None = None

    @property
    def label(self) -> str:
        return f"{self.base}{self.term.label}"

    def describe(self, ctx: CommandContext) -> str:
        if self.trait:
            return t(ctx, "side.trait", trait=trait_name(self.trait, ctx.locale), label=self.label)
        return t(ctx, "side.number", pool=self.dice)

    def result_fields(self) -> dict[str, Any]:
        fields: dict[str, Any] = {"modifiers": list(self.term.modifiers)}
        if self.trait:
            fields["trait"] = self.trait
        return fields


def resolve_trait(ctx: CommandContext, word: str) -> str:
    trait, options = match_trait(word)
    if trait is not None:
        return trait
    if options:
        names = " / ".join(trait_name(o, ctx.locale) for o in options)
        raise fail(ctx, "err.ambiguous_trait", word=word[:40], options=names)
    raise fail(ctx, "err.unknown_trait", word=word[:40], traits=traits_list(ctx))


def build_pool(ctx: CommandContext, term: Term, character: Character | None) -> Pool:
    """A number of dice, or a trait rating from ``character``'s sheet, plus modifiers; checked."""
    if term.number is not None:
        pool = Pool(term.number + sum(term.modifiers), term.number, term)
    else:
        trait = resolve_trait(ctx, term.base)
        if character is None:
            raise fail(ctx, "err.trait_needs_character", trait=trait_name(trait, ctx.locale))
        base = PravidlaSheet.of(character.sheet).rating(trait)
        pool = Pool(base + sum(term.modifiers), base, term, trait)
    check_pool(ctx, pool.dice)
    return pool


def check_pool(ctx: CommandContext, dice: int) -> None:
    if dice < 1:
        raise fail(ctx, "err.pool_min", pool=dice)
    if dice > ctx.settings.gateway.max_pool:
        raise fail(ctx, "err.pool_max", pool=dice, max=ctx.settings.gateway.max_pool)


def check_target(ctx: CommandContext, target: int) -> int:
    if not mechanics.MIN_TARGET <= target <= mechanics.MAX_TARGET:
        raise fail(ctx, "err.target")
    return target


def read_pool_term(ctx: CommandContext, words: tuple[str, ...], usage: str) -> Term:
    if not words:
        raise fail(ctx, usage)
    term = read_term(words)
    if term is None:
        raise fail(ctx, "err.bad_pool", word=" ".join(words)[:40], traits=traits_list(ctx))
    return term


async def right_side(
    ctx: CommandContext, words: tuple[str, ...], left: Pool, usage: str
) -> tuple[Pool, Character | None]:
    """``vs 2`` (an NPC's dice) or ``vs NAME`` (that character's same trait, as the book says)."""
    if not words:
        raise fail(ctx, usage)
    term = read_term(words)
    if term is not None and term.number is not None:
        return build_pool(ctx, term, None), None
    name = " ".join(words)
    other = await find_character(ctx.session, SYSTEM, name)
    if other is None:
        raise fail(ctx, "err.no_character", name=name[:60])
    if left.trait is None:
        raise fail(ctx, "err.vs_name_needs_trait")
    base = PravidlaSheet.of(other.sheet).rating(left.trait)
    pool = Pool(base, base, Term(left.trait), left.trait)
    check_pool(ctx, pool.dice)
    return pool, other


def who_of(ctx: CommandContext, character: Character | None) -> str:
    return character.name if character else ctx.name


async def roll_command(ctx: CommandContext, inv: Invocation) -> Reply:
    settings = config.load(ctx.settings)
    try:
        words = split_roll(inv.words, ROLL_OPTIONS)
    except ParseError as exc:
        raise fail(ctx, exc.key, **exc.params) from None
    character = await active_character(ctx, SYSTEM)
    left = build_pool(ctx, read_pool_term(ctx, words.left, "err.roll_usage"), character)
    target = check_target(ctx, words.options.get("target", settings.default_target))
    secret = "secret" in words.flags
    who = who_of(ctx, character)
    char_id = character.id if character else None
    if words.right is None:
        need = words.options.get("need", 1)
        if not 1 <= need <= left.dice:
            raise fail(ctx, "err.need", pool=left.dice)
        rolled = mechanics.roll(left.dice, ctx.dice, target, need)
        result = {**rolled.as_result(), **left.result_fields(), "who": who, "secret": secret}
        roll_id = await ctx.log_roll(result, character_id=char_id, name=who)
        key = ("roll.trait" if left.trait else "roll.number") + (".need" if need > 1 else "")
        text = t(
            ctx,
            key,
            who=who,
            pool=left.dice,
            trait=trait_name(left.trait, ctx.locale) if left.trait else "",
            trait_ins=CS_INSTRUMENTAL.get(left.trait or "", ""),
            label=left.label,
            target=target,
            need=need,
            faces=faces(rolled.dice),
            s=rolled.successes,
            degree=t(ctx, f"degree.{rolled.degree}"),
            id=roll_id,
        )
    else:
        if "need" in words.options:
            raise fail(ctx, "err.roll_usage")
        right, other = await right_side(ctx, words.right, left, "err.roll_usage")
        try:
            outcome = mechanics.contest(left.dice, right.dice, ctx.dice, target, settings.max_rerolls)
        except mechanics.Stalemate:
            raise fail(ctx, "err.stalemate", n=settings.max_rerolls) from None
        against = other.name if other else t(ctx, "npc")
        result = outcome.as_result()
        result["sides"][0].update(left.result_fields(), who=who)
        result["sides"][1].update(right.result_fields(), who=against)
        result.update(who=who, secret=secret)
        roll_id = await ctx.log_roll(result, character_id=char_id, name=who)
        a, b = outcome.rounds[-1]
        text = t(
            ctx,
            "contest.rerolled" if len(outcome.rounds) > 1 else "contest",
            left=who,
            right=against,
            left_pool=left.describe(ctx),
            right_pool=right.describe(ctx),
            target=target,
            left_faces=faces(a),
            right_faces=faces(b),
            ls=outcome.sides[0].successes,
            rs=outcome.sides[1].successes,
            n=len(outcome.rounds) - 1,
            winner=who if outcome.winner == 0 else against,
            id=roll_id,
        )
    await ctx.stlog(("(secret) " if secret else "") + text, kind="roll", result=result, character_id=char_id)
    return Reply(text=text, private=secret, result=result)


async def odds_command(ctx: CommandContext, inv: Invocation) -> Reply:
    settings = config.load(ctx.settings)
    try:
        words = split_roll(inv.words, ROLL_OPTIONS, flags=())
    except ParseError as exc:
        raise fail(ctx, exc.key, **exc.params) from None
    character = await active_character(ctx, SYSTEM)
    left = build_pool(ctx, read_pool_term(ctx, words.left, "err.odds_usage"), character)
    target = check_target(ctx, words.options.get("target", settings.default_target))
    if words.right is None:
        need = words.options.get("need", 1)
        if not 1 <= need <= left.dice:
            raise fail(ctx, "err.need", pool=left.dice)
        dist = binomial.distribution(left.dice, target, sides=mechanics.SIDES)
        chance = binomial.at_least(left.dice, target, need, sides=mechanics.SIDES)
        table = ", ".join(f"{k}: {percent(ctx.locale, p)}" for k, p in enumerate(dist))
        text = t(
            ctx,
            "odds.roll",
            pool=left.dice,
            target=target,
            need=need,
            chance=percent(ctx.locale, chance),
            table=table,
        )
        result = {
            "kind": "odds",
            "system": SYSTEM,
            "pool": left.dice,
            "target": target,
            "need": need,
            "chance": float(chance),
            "exact": str(chance),
            "distribution": [float(p) for p in dist],
        }
        return Reply(text=text, result=result)
    right, _ = await right_side(ctx, words.right, left, "err.odds_usage")
    first, second, tie = binomial.contest(left.dice, right.dice, target, sides=mechanics.SIDES)
    text = t(
        ctx,
        "odds.contest",
        left=left.dice,
        right=right.dice,
        target=target,
        first=percent(ctx.locale, first),
        second=percent(ctx.locale, second),
        tie=percent(ctx.locale, tie),
    )
    result = {
        "kind": "odds",
        "system": SYSTEM,
        "pools": [left.dice, right.dice],
        "target": target,
        "wins": [float(first), float(second)],
        "exact": [str(first), str(second)],
        "tie_per_round": float(tie),
    }
    return Reply(text=text, result=result)


# --- characters and the sheet -------------------------------------------------------------------


async def char_command(ctx: CommandContext, inv: Invocation) -> Reply:
    if inv.words:
        raise fail(ctx, "err.char_usage")
    assert ctx.person.id is not None
    mine = await owned_characters(ctx.session, ctx.person.id, SYSTEM)
    if not mine:
        return Reply(text=t(ctx, "char.list.none"), private=True)
    active = ctx.person.active_character_id
    names = ", ".join(f"{c.name}{' *' if c.id == active else ''}" for c in mine)
    return Reply(
        text=t(ctx, "char.list", names=names),
        private=True,
        result={"kind": "characters", "system": SYSTEM, "names": [c.name for c in mine]},
    )


async def char_new_command(ctx: CommandContext, inv: Invocation) -> Reply:
    name = " ".join(" ".join(inv.words).split())
    if not name or len(name) > 60:
        raise fail(ctx, "err.char_name")
    if await find_character(ctx.session, SYSTEM, name) is not None:
        raise fail(ctx, "err.char_taken", name=name)
    sheet = PravidlaSheet.new(config.load(ctx.settings).starting_rating)
    character = await create_character(ctx, name, sheet.dump())
    await ctx.audit("character.create", character_id=character.id, new=character.name)
    return Reply(
        text=t(ctx, "char.created", name=character.name),
        result={"kind": "character", "system": SYSTEM, "name": character.name, "sheet": sheet.dump()},
    )


async def own_character(ctx: CommandContext, name: str) -> Character:
    character = await find_character(ctx.session, SYSTEM, name)
    if character is None or character.owner_id != ctx.person.id:
        raise fail(ctx, "err.char_not_yours", name=name[:60])
    return character


async def char_use_command(ctx: CommandContext, inv: Invocation) -> Reply:
    if not inv.words:
        raise fail(ctx, "err.char_usage")
    character = await own_character(ctx, " ".join(inv.words))
    ctx.person.active_character_id = character.id
    ctx.session.add(ctx.person)
    return Reply(text=t(ctx, "char.used", name=character.name), private=True)


def sheet_text(ctx: CommandContext, character: Character) -> str:
    sheet = PravidlaSheet.of(character.sheet)
    traits = ", ".join(f"{trait_name(tr, ctx.locale)} {sheet.rating(tr)}" for tr in TRAITS)
    return t(
        ctx,
        "sheet",
        name=character.name,
        traits=traits,
        celerity=t(ctx, f"level.{sheet.celerity}"),
        hunting=t(ctx, "yes" if sheet.hunting else "no"),
        potence=t(ctx, f"level.{sheet.potence}"),
    )


async def sheet_command(ctx: CommandContext, inv: Invocation) -> Reply:
    if inv.words:
        name = " ".join(inv.words)
        character = await find_character(ctx.session, SYSTEM, name)
        if character is None or (character.owner_id != ctx.person.id and not ctx.storyteller):
            raise fail(ctx, "err.char_not_yours", name=name[:60])
    else:
        character = await active_character(ctx, SYSTEM)
        if character is None:
            raise fail(ctx, "err.no_active")
    return Reply(
        text=sheet_text(ctx, character),
        private=True,
        result={"kind": "sheet", "system": SYSTEM, "name": character.name, "sheet": character.sheet},
    )


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


async def st_set_command(ctx: CommandContext, inv: Invocation) -> Reply:
    """``st set NAME FIELD VALUE``: the name may have spaces; the last two words are field and value."""
    if len(inv.words) < 3:
        raise fail(ctx, "err.st_usage", traits=traits_list(ctx))
    name, field_word, value = " ".join(inv.words[:-2]), inv.words[-2], inv.words[-1]
    character = await find_character(ctx.session, SYSTEM, name)
    if character is None:
        raise fail(ctx, "err.no_character", name=name[:60])
    sheet = PravidlaSheet.of(character.sheet)
    power = match_power(field_word)
    folded = fold(value)
    if power == "hunting":
        if folded not in YES | NO:
            raise fail(ctx, "err.st_value", field=field_word, allowed="yes / no", value=value[:20])
        field, old, new = "hunting", sheet.hunting, folded in YES
        sheet.hunting = new
    elif power in ("celerity", "potence"):
        if folded not in LEVELS:
            raise fail(ctx, "err.st_value", field=field_word, allowed="0 / 1 / 2", value=value[:20])
        field, old, new = power, getattr(sheet, power), LEVELS[folded]
        setattr(sheet, power, new)
    else:
        trait = resolve_trait(ctx, field_word)
        if not value.isdigit() or int(value) > 10:
            raise fail(ctx, "err.st_value", field=field_word, allowed="0-10", value=value[:20])
        field, old, new = trait, sheet.rating(trait), int(value)
        sheet.traits = {**sheet.traits, trait: new}
    character.sheet = sheet.dump()
    character.updated_at = ctx.now
    ctx.session.add(character)
    await ctx.audit("sheet.set", character_id=character.id, field_name=field, old=old, new=new)
    label = trait_name(field, ctx.locale) if field in TRAITS else field

    def shown(value: object) -> str:
        return t(ctx, "yes" if value else "no") if isinstance(value, bool) else str(value)

    text = t(ctx, "st.set", name=character.name, field=label, old=shown(old), new=shown(new))
    await ctx.stlog(
        text, kind="st_edit", result={"field": field, "old": old, "new": new}, character_id=character.id
    )
    return Reply(
        text=text,
        result={"kind": "sheet", "system": SYSTEM, "name": character.name, "sheet": character.sheet},
    )
