"""Night Wanderers commands: roll and odds, plus the helpers the blood, combat, scene and character
commands share (actors with their health and blood, pools with pain)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import partial
from typing import Any

from sqlmodel import col, select, update

from gateway import CommandContext, CommandSet, Invocation, Offloaded, Reply, faces
from gateway.core.i18n import percent
from gateway.core.web_tool import in_locale
from gateway.features.characters import active_character, find_character
from gateway.rules import binomial
from gateway.rules.chart_link import chart_link
from gateway.rules.charts import chart_result
from gateway.rules.roll_words import Term, read_term
from gateway.rules.term_pools import TermPool, contest_line, contest_result
from gateway.rules.ties import TieRule
from gateway.rules.trait_words import TraitWords
from gateway.rules.worker_odds import contest_odds_in
from gateway.vault.models import Character, Pool
from plugins.nightwanderers import mechanics, odds, pairing, web_tools
from plugins.nightwanderers.config import NightWanderersSettings
from plugins.nightwanderers.house import house, mark_contest, odds_note
from plugins.nightwanderers.messages import CATALOGUE
from plugins.nightwanderers.sheet import TRAIT_NAMES, WandererSheet, trait_name

SYSTEM = mechanics.SYSTEM
COMMANDS = CommandSet(SYSTEM)
ROLL_USAGE = "roll POOL [+N|-N] [diff 2-6] [need N] [vs POOL|vs NAME [TRAIT]] [secret]"
ROLL_OPTIONS = {"diff": "difficulty", "dif": "difficulty", "сл": "difficulty", "need": "need"}
WORDS = TraitWords(TRAIT_NAMES, CATALOGUE)
TRAIT_WORDS = 3  # the most words a trait's name takes after vs NAME ("невооруженный бой +1")
t = CATALOGUE.say
fail = CATALOGUE.refusal


def join(sentences: list[str], roll_id: str | None = None) -> str:
    text = " ".join(s for s in sentences if s)
    return f"{text} #{roll_id}" if roll_id else text


# --- actors: a character with its health and blood ------------------------------------------------


@dataclass
class Actor:
    character: Character
    sheet: WandererSheet
    hp: int
    hp_max: int
    blood: int | None
    blood_max: int | None

    @property
    def id(self) -> int:
        assert self.character.id is not None
        return self.character.id

    @property
    def name(self) -> str:
        return self.character.name

    @property
    def status(self) -> str:
        return mechanics.status(self.sheet.kind, self.hp, self.blood, self.sheet.dead)

    @property
    def pain(self) -> int:
        return mechanics.pain(self.hp, self.hp_max, self.sheet.frenzy)

    def save_sheet(self, ctx: CommandContext) -> None:
        self.character.sheet = self.sheet.dump()
        self.character.updated_at = ctx.now
        ctx.session.add(self.character)


async def load_actor(ctx: CommandContext, character: Character, *, lock: bool = False) -> Actor:
    """The character with fresh pool values (read as columns, so never a stale ORM object)."""
    query = select(Pool.name, Pool.current, Pool.maximum).where(col(Pool.character_id) == character.id)
    if lock:
        query = query.with_for_update()
    rows = {name: (current, maximum) for name, current, maximum in (await ctx.session.exec(query)).all()}
    hp, hp_max = rows.get("hp", (0, 0))
    sheet = WandererSheet.of(character.sheet)
    # Blood is the vampire's: a vampire made human by st set keeps its row, unread until made one again.
    blood = rows.get("blood") if sheet.kind == "vampire" else None
    return Actor(
        character,
        sheet,
        hp,
        hp_max,
        blood[0] if blood else None,
        blood[1] if blood else None,
    )


async def set_pool(ctx: CommandContext, character_id: int, name: str, value: int) -> None:
    stmt = (
        update(Pool)
        .where(col(Pool.character_id) == character_id, col(Pool.name) == name)
        .values(current=value)
    )
    await ctx.session.exec(stmt)  # type: ignore[call-overload]


def check_able(ctx: CommandContext, actor: Actor) -> None:
    """Refuse an action from a character who cannot act."""
    current = actor.status
    if current == "dead":
        raise fail(ctx, "err.dead", name=actor.name)
    if current == "torpor":
        raise fail(ctx, "err.torpor", name=actor.name)
    if current == "unconscious":
        raise fail(ctx, "err.unconscious", name=actor.name)


async def my_actor(ctx: CommandContext, *, required: bool = True, able: bool = True) -> Actor | None:
    character = await active_character(ctx, SYSTEM)
    if character is None:
        if required:
            raise fail(ctx, "err.no_active")
        return None
    actor = await load_actor(ctx, character)
    if able:
        check_able(ctx, actor)
    return actor


async def named_actor(ctx: CommandContext, name: str) -> Actor:
    """Another character by name: yours, or anyone's for a Storyteller."""
    character = await find_character(ctx.session, SYSTEM, name)
    if character is None:
        raise fail(ctx, "err.no_character", name=name[:60])
    if character.owner_id != ctx.person.id and not ctx.storyteller:
        raise fail(ctx, "err.storyteller_other")
    return await load_actor(ctx, character)


def refuse_self(ctx: CommandContext, me: Actor | None, other: Character | None) -> None:
    """Refuse a contest, attack or chase whose other side is the actor's own character: «Иногда
    персонаж вступает в конфликт с другой личностью» (Споры)."""
    if me is not None and other is not None and other.id == me.id:
        raise fail(ctx, "err.self_contest", name=me.name)


def torpor_key(actor: Actor) -> str:
    """A vampire in torpor for want of Health (its blood still in it) is told so; the book's "at least
    one BP" is for one drained of blood."""
    return "status.torpor.hp" if actor.blood and actor.hp <= 0 else "status.torpor"


def health_sentences(ctx: CommandContext, actor: Actor) -> list[str]:
    current = actor.status
    if current == "torpor":
        return [t(ctx, torpor_key(actor), name=actor.name)]
    if current in ("dead", "unconscious"):
        return [t(ctx, f"status.{current}", name=actor.name)]
    band = mechanics.band(actor.hp, actor.hp_max) or "none"
    return [t(ctx, "harm.hp", name=actor.name, hp=actor.hp, max=actor.hp_max, band=t(ctx, f"band.{band}"))]


def hunger_sentences(ctx: CommandContext, actor: Actor) -> list[str]:
    if actor.blood is None:
        return []
    settings = ctx.settings_for(NightWanderersSettings)
    state = mechanics.hunger(actor.blood, settings.hunger_at, settings.ravenous_at)
    if state == "sated":
        return []
    key = {"hungry": "note.hungry", "ravenous": "note.ravenous", "torpor": "note.torpor"}[state]
    return [t(ctx, key, name=actor.name, bp=actor.blood)]


# --- pools ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RolledPool(TermPool):
    """A side's dice after modifiers and pain; ``asked`` is the pool before pain."""

    asked: int = 0
    pain: int = 0

    def more_fields(self) -> dict[str, Any]:
        return {"pool_before_pain": self.asked}


def trait_pool(
    ctx: CommandContext, actor: Actor, trait: str, term: Term | None = None, bonus: int = 0
) -> RolledPool:
    """A trait rating (with any blood boost) + modifiers + bonus, minus pain (at least one die)."""
    term = term or Term(trait)
    base = actor.sheet.rating(trait)
    asked = base + sum(term.modifiers) + bonus
    WORDS.check_pool(ctx, asked)
    dice, lost = mechanics.after_pain(asked, actor.pain if house(ctx).pain else 0)
    return RolledPool(dice, base, term, trait, asked=asked, pain=lost)


def build_pool(ctx: CommandContext, term: Term, actor: Actor | None, bonus: int = 0) -> RolledPool:
    if term.number is not None:
        dice = term.number + sum(term.modifiers) + bonus
        WORDS.check_pool(ctx, dice)
        return RolledPool(dice, term.number, term, asked=dice)
    trait = WORDS.resolve(ctx, term.base)
    if actor is None:
        raise fail(ctx, "err.trait_needs_character", trait=trait_name(trait, ctx.locale))
    return trait_pool(ctx, actor, trait, term, bonus)


async def pool_or_trait(
    ctx: CommandContext, words: Sequence[str], usage: str, trait: str
) -> tuple[Actor | None, RolledPool]:
    """The pool the words give (``usage`` when they give none), or without words the active
    character's ``trait``."""
    if words:
        term = WORDS.term(ctx, words, usage)
        actor = await my_actor(ctx, required=False, able=term.number is None)
        return actor, build_pool(ctx, term, actor)
    actor = await my_actor(ctx)
    assert actor is not None
    return actor, trait_pool(ctx, actor, trait)


def pain_sentences(ctx: CommandContext, *pools: RolledPool) -> list[str]:
    return [t(ctx, "note.pain", n=p.pain) for p in pools if p.pain]


def roll_sentence(ctx: CommandContext, who: str, pool: RolledPool, rolled: mechanics.Roll) -> str:
    key = ("roll.trait" if pool.trait else "roll.number") + (".need" if rolled.need > 1 else "")
    return t(
        ctx,
        key,
        who=who,
        pool=pool.dice,
        trait=trait_name(pool.trait, ctx.locale) if pool.trait else "",
        label=pool.label,
        diff=rolled.difficulty,
        need=rolled.need,
        faces=faces(rolled.dice),
        s=rolled.successes,
        degree=t(ctx, f"degree.{rolled.degree}"),
    )


def roll_result(pool: RolledPool, rolled: mechanics.Roll, who: str, **extra: Any) -> dict[str, Any]:
    return {**rolled.as_result(), **pool.result_fields(), "who": who, **extra}


async def log(
    ctx: CommandContext,
    result: dict[str, Any],
    sentences: list[str],
    actor: Actor | None,
    *,
    private: bool = False,
) -> Reply:
    """Write the roll log and the Storyteller log, and build the reply (the id ends the line)."""
    who = actor.name if actor else ctx.name
    char_id = actor.id if actor else None
    roll_id = await ctx.log_roll(result, character_id=char_id, name=who)
    text = join(sentences, roll_id)
    await ctx.stlog(
        ("(secret) " if private else "") + text,
        kind=str(result.get("action", "roll")),
        result=result,
        character_id=char_id,
    )
    return Reply(text=text, private=private, result=result)


def difficulty_of(ctx: CommandContext, asked: int) -> tuple[int, list[str]]:
    value = mechanics.clamp_difficulty(asked)
    return value, ([t(ctx, "note.clamped", asked=asked, diff=value)] if value != asked else [])


# --- roll and odds --------------------------------------------------------------------------------


async def opponent(
    ctx: CommandContext, tokens: Sequence[str], usage: str
) -> Term | tuple[Character, Term | None]:
    """The words after ``vs``: a number of dice (an NPC's term), or a character by name, perhaps
    followed by the trait it rolls (``vs Смертный па``, ``vs Рыцарь крови физ. защита +1``). A
    whole-line name is tried first, then the last one to three words as the trait."""
    if not tokens:
        raise fail(ctx, usage)
    term = read_term(tokens)
    if term is not None and term.number is not None:
        return term
    found = await find_character(ctx.session, SYSTEM, " ".join(tokens))
    if found is not None:
        return found, None
    for size in range(1, min(TRAIT_WORDS, len(tokens) - 1) + 1):
        found = await find_character(ctx.session, SYSTEM, " ".join(tokens[:-size]))
        tail = read_term(tokens[-size:])
        if found is not None and tail is not None and tail.number is None:
            WORDS.resolve(ctx, tail.base)  # an unknown trait is refused here, by its word
            return found, tail
    raise fail(ctx, "err.no_character", name=" ".join(tokens)[:60])


async def right_side(
    ctx: CommandContext, words: tuple[str, ...], left: RolledPool, usage: str, me: Actor | None
) -> tuple[RolledPool, Actor | None]:
    """``vs 2`` (an NPC's dice), ``vs NAME TRAIT`` (that character's trait) or ``vs NAME`` (the
    trait the book pairs with the left side's, ``pairing``), with the character's pain."""
    found = await opponent(ctx, words, usage)
    if isinstance(found, Term):
        return build_pool(ctx, found, None), None
    character, term = found
    refuse_self(ctx, me, character)
    if term is None and left.trait is None:
        raise fail(ctx, "err.vs_name_needs_trait")
    other = await load_actor(ctx, character)
    if term is None:
        assert left.trait is not None
        return trait_pool(ctx, other, pairing.defence_for(left.trait)), other
    return trait_pool(ctx, other, WORDS.resolve(ctx, term.base), term), other


@COMMANDS.command("roll", "roll a d6 pool against a difficulty, or a contest", ROLL_USAGE, role="anyone")
async def roll_command(ctx: CommandContext, inv: Invocation) -> Reply:
    settings = ctx.settings_for(NightWanderersSettings)
    words = WORDS.split(ctx, inv.words, ROLL_OPTIONS)
    term = WORDS.term(ctx, words.left, "err.roll_usage")
    actor = await my_actor(ctx, required=False, able=term.number is None)
    left = build_pool(ctx, term, actor)
    diff, notes = difficulty_of(ctx, words.options.get("difficulty", house(ctx).default_difficulty))
    secret = "secret" in words.flags
    who = actor.name if actor else ctx.name
    if words.right is None:
        need = words.options.get("need", 1)
        if not 1 <= need <= left.dice:
            raise fail(ctx, "err.need", pool=left.dice)
        rolled = mechanics.roll(left.dice, ctx.dice, diff, need, left.pain)
        result = roll_result(left, rolled, who, secret=secret)
        sentences = [roll_sentence(ctx, who, left, rolled), *pain_sentences(ctx, left), *notes]
        return await log(ctx, result, sentences, actor, private=secret)
    if "need" in words.options:
        raise fail(ctx, "err.roll_usage")
    right, other = await right_side(ctx, words.right, left, "err.roll_usage", actor)
    try:
        outcome = mechanics.contest(
            left.dice,
            right.dice,
            ctx.dice,
            diff,
            (left.pain, right.pain),
            settings.max_rerolls,
            house(ctx).contest_ties,
        )
    except mechanics.Stalemate:
        raise fail(ctx, "err.stalemate", n=settings.max_rerolls) from None
    against = other.name if other else t(ctx, "npc")
    result = contest_result(outcome, left, right, who, against, secret)
    line = contest_line(ctx, WORDS, outcome, (left, right), (who, against), diff=diff)
    sentences = [line, *pain_sentences(ctx, left, right), *notes]
    # The note naming the house rules that changed the result ends the line, before its id.
    sentences[-1] += mark_contest(ctx, result, outcome, "difficulty" in words.options)
    return await log(ctx, result, sentences, actor, private=secret)


def _roll_odds(pool: int, diff: int, need: int) -> tuple[dict[str, Fraction], list[Fraction]]:
    """In an offload worker: the chance of each quality, and the distribution of successes."""
    return odds.qualities(pool, diff, need), binomial.distribution(pool, diff, sides=mechanics.SIDES)


def _contest_odds(
    locale: str, pools: tuple[int, int], diff: int, ties: TieRule
) -> tuple[str, dict[str, Any]]:
    """In an offload worker: a contest's chances with ties settled by ``ties``, told in ``locale``."""
    told = ("diff", "difficulty")  # the target number in the message, and its key in the result
    title, sides = web_tools.TITLE, mechanics.SIDES
    return contest_odds_in(
        locale, title, WORDS, SYSTEM, pools, sides=sides, target=diff, name=told, ties=ties
    )


@COMMANDS.command(
    "odds", "exact chances of a roll or a contest", "odds POOL [diff 2-6] [need N] [vs POOL]", role="anyone"
)
async def odds_command(ctx: CommandContext, inv: Invocation) -> Offloaded[Any]:
    """Reads the pools here; the chances are worked out off the event loop (``gateway.core.offload``)."""
    words = WORDS.split(ctx, inv.words, ROLL_OPTIONS, flags=())
    term = WORDS.term(ctx, words.left, "err.odds_usage")
    actor = await my_actor(ctx, required=False, able=False)
    left = build_pool(ctx, term, actor)
    diff, notes = difficulty_of(ctx, words.options.get("difficulty", house(ctx).default_difficulty))
    too_long = t(ctx, "err.too_long")
    if words.right is None:
        need = words.options.get("need", 1)
        if not 1 <= need <= left.dice:
            raise fail(ctx, "err.need", pool=left.dice)
        pains = pain_sentences(ctx, left)

        def render_roll(chances: tuple[dict[str, Fraction], list[Fraction]]) -> Reply:
            table, distribution = chances
            chance = 1 - table["failure"]
            text = t(
                ctx,
                "odds.roll",
                pool=left.dice,
                diff=diff,
                need=need,
                chance=percent(ctx.locale, chance),
                **{q: percent(ctx.locale, p) for q, p in table.items() if q != "failure"},
            ) + chart_link(
                ctx.settings, ctx.locale, "nightwanderers", pool=left.dice, difficulty=diff, need=need
            )
            result = {
                "kind": "odds",
                "system": SYSTEM,
                "pool": left.dice,
                "difficulty": diff,
                "need": need,
                "chance": float(chance),
                "exact": str(chance),
                "qualities": {q: float(p) for q, p in table.items()},
                "distribution": [float(p) for p in distribution],
                # The web page's charts (``web_tools.odds_charts``), for Discord's and Matrix's picture.
                "chart": chart_result(
                    in_locale(web_tools.TITLE, ctx.locale),
                    [(c.title, c.rows) for c in web_tools.odds_charts(ctx.locale, diff, table, distribution)],
                ),
            }
            return Reply(text=join([text, *pains, *notes]), result=result)

        return Offloaded(partial(_roll_odds, left.dice, diff, need), render_roll, too_long)
    right, _ = await right_side(ctx, words.right, left, "err.odds_usage", actor)
    noted = odds_note(ctx)

    def render_contest(told: tuple[str, dict[str, Any]]) -> Reply:
        text, result = told
        return Reply(text=join([text, *notes]) + noted, result=result)

    compute = partial(_contest_odds, ctx.locale, (left.dice, right.dice), diff, house(ctx).contest_ties)
    return Offloaded(compute, render_contest, too_long)
