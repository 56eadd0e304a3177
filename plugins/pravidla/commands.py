"""Pravidla commands: roll and odds, and the pools they share with the tug of war (scene_commands.py).
Characters and the sheet: characters_commands.py."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from functools import partial
from typing import Any

from gateway import CommandContext, CommandSet, Invocation, Offloaded, Reply, faces
from gateway.core.i18n import percent
from gateway.core.web_tool import in_locale
from gateway.features.characters import active_character, find_character
from gateway.rules import binomial
from gateway.rules.chart_link import chart_link
from gateway.rules.charts import chart_result
from gateway.rules.roll_words import RollWords, Term, read_term
from gateway.rules.term_pools import TermPool, contest_line, contest_result, read_opponent
from gateway.rules.ties import TieRule
from gateway.rules.trait_words import TraitWords
from gateway.rules.worker_odds import contest_odds_in
from gateway.vault.models import Character
from plugins.pravidla import mechanics, web_tools
from plugins.pravidla.config import PravidlaSettings
from plugins.pravidla.house import house, mark, mark_contest, need_for, odds_note
from plugins.pravidla.messages import CATALOGUE
from plugins.pravidla.sheet import CS_INSTRUMENTAL, TRAIT_NAMES, PravidlaSheet, trait_name

SYSTEM = mechanics.SYSTEM
COMMANDS = CommandSet(SYSTEM)
ROLL_USAGE = "roll POOL [+N|-N] [tn 2-6] [need N] [vs POOL|vs NAME] [secret]"
ROLL_OPTIONS = {"tn": "target", "cc": "target", "need": "need"}
WORDS = TraitWords(TRAIT_NAMES, CATALOGUE)
t = CATALOGUE.say
fail = CATALOGUE.refusal


def build_pool(ctx: CommandContext, term: Term, character: Character | None) -> TermPool:
    """A number of dice, or a trait rating from ``character``'s sheet, plus modifiers; checked."""
    if term.number is not None:
        pool = TermPool(term.number + sum(term.modifiers), term.number, term)
    else:
        trait = WORDS.resolve(ctx, term.base)
        if character is None:
            raise fail(ctx, "err.trait_needs_character", trait=trait_name(trait, ctx.locale))
        base = PravidlaSheet.of(character.sheet).rating(trait)
        pool = TermPool(base + sum(term.modifiers), base, term, trait)
    WORDS.check_pool(ctx, pool.dice)
    return pool


def split_words(
    ctx: CommandContext,
    words: Sequence[str],
    options: Mapping[str, str],
    flags: tuple[str, ...] = ("secret",),
) -> RollWords:
    """``WORDS.split``, refusing an option or flag said twice (``roll 3 tn 5 tn 6`` kept the last)."""
    seen: set[str] = set()
    for word in words:
        folded = word.casefold()
        name = options.get(folded) or (folded if folded in flags else None)
        if name is not None:
            if name in seen:
                raise fail(ctx, "err.option_twice", word=folded)
            seen.add(name)
    return WORDS.split(ctx, words, options, flags)


def check_target(ctx: CommandContext, target: int) -> int:
    if not mechanics.MIN_TARGET <= target <= mechanics.MAX_TARGET:
        raise fail(ctx, "err.target")
    return target


def not_self(ctx: CommandContext, roller: Character | None, other: Character | None, key: str) -> None:
    """The book's contest is "porovnán s výkonem jiného upíra nebo člověka": never the roller itself."""
    if roller is not None and other is not None and other.id == roller.id:
        raise fail(ctx, key, name=roller.name)


async def right_side(
    ctx: CommandContext,
    words: tuple[str, ...],
    left: TermPool,
    usage: str,
    opponent: str | None = None,
    *,
    roller: Character | None,
) -> tuple[TermPool, Character | None]:
    """``vs 2`` (an NPC's dice), ``vs NAME`` (that character's same trait, as the book says), or
    ``vs TRAIT`` when the command names the ``opponent`` (a tug of war): their rating of it. The
    other character is never the ``roller``."""
    term = await _trait_term(ctx, words)
    if term is not None:
        pool, found = await _opponent_trait(ctx, term, left, opponent)
        not_self(ctx, roller, found, "err.self_contest")
        return pool, found
    other = await read_opponent(ctx, WORDS, SYSTEM, words, left.trait, usage)
    if isinstance(other, Term):
        return build_pool(ctx, other, None), None
    not_self(ctx, roller, other, "err.self_contest")
    assert left.trait is not None
    base = PravidlaSheet.of(other.sheet).rating(left.trait)
    pool = TermPool(base, base, Term(left.trait), left.trait)
    WORDS.check_pool(ctx, pool.dice)
    return pool, other


async def _trait_term(ctx: CommandContext, words: tuple[str, ...]) -> Term | None:
    """The words after vs as a trait (``kondice``, ``kondice+1``), unless a character has that name."""
    term = read_term(words) if words else None
    if term is None or term.number is not None or WORDS.traits.match(term.base)[0] is None:
        return None
    if await find_character(ctx.session, SYSTEM, " ".join(words)) is not None:
        return None
    return term


async def _opponent_trait(
    ctx: CommandContext, term: Term, left: TermPool, opponent: str | None
) -> tuple[TermPool, Character | None]:
    """The book: "hází si i protivník a to stejnou Vlastností proti stejnému cílovému číslu"."""
    trait = WORDS.resolve(ctx, term.base)
    if opponent is None:
        raise fail(ctx, "err.vs_trait")
    if left.trait is not None and left.trait != trait:
        raise fail(ctx, "err.same_trait", word=left.term.base)
    other = await find_character(ctx.session, SYSTEM, opponent)
    if other is None:
        name = trait_name(trait, ctx.locale)
        raise fail(ctx, "err.opponent_sheet", name=opponent[:60], trait=name, word=term.base[:40])
    base = PravidlaSheet.of(other.sheet).rating(trait)
    pool = TermPool(base + sum(term.modifiers), base, term, trait)
    WORDS.check_pool(ctx, pool.dice)
    return pool, other


def who_of(ctx: CommandContext, character: Character | None) -> str:
    return character.name if character else ctx.name


@COMMANDS.command("roll", "roll a d6 pool against a target number, or a contest", ROLL_USAGE, role="anyone")
async def roll_command(ctx: CommandContext, inv: Invocation) -> Reply:
    settings = ctx.settings_for(PravidlaSettings)
    words = split_words(ctx, inv.words, ROLL_OPTIONS)
    character = await active_character(ctx, SYSTEM)
    left = build_pool(ctx, WORDS.term(ctx, words.left, "err.roll_usage"), character)
    rules = house(ctx)  # its default_target defaults to ``[pravidla] default_target``
    target = check_target(ctx, words.options.get("target", rules.default_target))
    secret = "secret" in words.flags
    who = who_of(ctx, character)
    char_id = character.id if character else None
    if words.right is None:
        need = words.options.get("need", need_for(rules, left.dice))
        if not 1 <= need <= left.dice:
            raise fail(ctx, "err.need", pool=left.dice)
        rolled = mechanics.roll(left.dice, ctx.dice, target, need)
        result = {**rolled.as_result(), **left.result_fields(), "who": who, "secret": secret}
        marked = mark(ctx, result, rolled, "target" in words.options, "need" in words.options)
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
        right, other = await right_side(ctx, words.right, left, "err.roll_usage", roller=character)
        try:
            outcome = mechanics.contest(
                left.dice, right.dice, ctx.dice, target, settings.max_rerolls, rules.contest_ties
            )
        except mechanics.Stalemate:
            raise fail(ctx, "err.stalemate", n=settings.max_rerolls) from None
        against = other.name if other else t(ctx, "npc")
        result = contest_result(outcome, left, right, who, against, secret)
        marked = mark_contest(ctx, result, outcome, "target" in words.options)
        roll_id = await ctx.log_roll(result, character_id=char_id, name=who)
        text = contest_line(ctx, WORDS, outcome, (left, right), (who, against), target=target, id=roll_id)
    if marked:
        text = f"{text.removesuffix(f' #{roll_id}')}{marked} #{roll_id}"
    await ctx.stlog(("(secret) " if secret else "") + text, kind="roll", result=result, character_id=char_id)
    return Reply(text=text, private=secret, result=result)


def _roll_odds(pool: int, target: int, need: int) -> tuple[list[Fraction], Fraction]:
    """In an offload worker: the distribution of successes and the chance of ``need`` of them."""
    dist = binomial.distribution(pool, target, sides=mechanics.SIDES)
    return dist, binomial.at_least(pool, target, need, sides=mechanics.SIDES)


def _contest_odds(
    locale: str, pools: tuple[int, int], target: int, ties: TieRule
) -> tuple[str, dict[str, Any]]:
    """In an offload worker: a contest's chances with ties settled by ``ties``, told in ``locale``."""
    told = ("target", "target")  # the target number in the message, and its key in the result
    title, sides = web_tools.TITLE, mechanics.SIDES
    return contest_odds_in(
        locale, title, WORDS, SYSTEM, pools, sides=sides, target=target, name=told, ties=ties
    )


@COMMANDS.command(
    "odds", "exact chances of a roll or a contest", "odds POOL [tn 2-6] [need N] [vs POOL]", role="anyone"
)
async def odds_command(ctx: CommandContext, inv: Invocation) -> Offloaded[Any]:
    """Reads the pools here; the chances are worked out off the event loop (``gateway.core.offload``)."""
    words = split_words(ctx, inv.words, ROLL_OPTIONS, flags=())
    character = await active_character(ctx, SYSTEM)
    left = build_pool(ctx, WORDS.term(ctx, words.left, "err.odds_usage"), character)
    target = check_target(ctx, words.options.get("target", house(ctx).default_target))
    too_long = t(ctx, "err.too_long")
    if words.right is None:
        need = words.options.get("need", need_for(house(ctx), left.dice))
        if not 1 <= need <= left.dice:
            raise fail(ctx, "err.need", pool=left.dice)

        def render_roll(odds: tuple[list[Fraction], Fraction]) -> Reply:
            dist, chance = odds
            table = ", ".join(f"{k}: {percent(ctx.locale, p)}" for k, p in enumerate(dist))
            text = t(
                ctx,
                "odds.roll",
                pool=left.dice,
                target=target,
                need=need,
                chance=percent(ctx.locale, chance),
                table=table,
            ) + chart_link(ctx.settings, ctx.locale, "pravidla", pool=left.dice, target=target, need=need)
            result = {
                "kind": "odds",
                "system": SYSTEM,
                "pool": left.dice,
                "target": target,
                "need": need,
                "chance": float(chance),
                "exact": str(chance),
                "distribution": [float(p) for p in dist],
                # The web page's charts (``web_tools.odds_charts``), for Discord's and Matrix's picture.
                "chart": chart_result(
                    in_locale(web_tools.TITLE, ctx.locale),
                    [
                        (c.title, c.rows)
                        for c in web_tools.odds_charts(ctx.locale, target, need, chance, dist)
                    ],
                ),
            }
            return Reply(text=text, result=result)

        return Offloaded(partial(_roll_odds, left.dice, target, need), render_roll, too_long)
    right, _ = await right_side(ctx, words.right, left, "err.odds_usage", roller=character)
    noted = odds_note(ctx)

    def render_contest(told: tuple[str, dict[str, Any]]) -> Reply:
        text, result = told
        return Reply(text=text + noted, result=result)

    compute = partial(_contest_odds, ctx.locale, (left.dice, right.dice), target, house(ctx).contest_ties)
    return Offloaded(compute, render_contest, too_long)
