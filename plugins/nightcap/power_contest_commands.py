"""Powers against powers (RULINGS, "Powers against powers"): ``power use NAME [TIER] ... vs ...``.

Both sides pay their Essence up front, then roll the trait their power keys off plus one die per tier
above Basic (Adept +1 ... Legendary +4); a mundane side rolls a plain trait (or an NPC's number of dice)
with no tier dice. It resolves as a contest, and the Essence stays spent whoever wins. When either side
cannot pay, the command is refused before anything is spent.

The other side is named after ``vs``:
- ``vs NAME POWER [TIER] [+N|-N]``: that character's power. Spending another player's Essence needs
  their consent, so this is for a Storyteller, or for someone who owns both characters;
- ``vs NAME TRAIT [+N|-N]``: that character resists with a plain trait (it costs them nothing);
  another player's character resists for themselves, so this opens a challenge as ``vs NAME`` does;
- ``vs N [+N|-N]``: an NPC's plain pool;
- ``vs NAME``: a challenge; the other player answers with ``defend power POWER [TIER] [mods] [wp]`` (or
  ``defend TRAIT``, or ``concede``) within the time limit, paying their own Essence when they answer.
"""

from __future__ import annotations

from gateway import CommandContext, CommandSet, Invocation, PermissionDenied, Reply, UserError
from gateway.features.characters import take_character
from gateway.rules.numbers import is_digits
from gateway.vault.models import Character
from plugins.nightcap import mechanics, render
from plugins.nightcap import params as P
from plugins.nightcap.challenge_commands import notify, open_challenge, redirected
from plugins.nightcap.combat_commands import take_turn
from plugins.nightcap.config import SYSTEM
from plugins.nightcap.conflict_commands import ensure_can_act, last_channel
from plugins.nightcap.house import dice
from plugins.nightcap.play_commands import POWER_USE_USAGE
from plugins.nightcap.play_commands import power_use as play_power_use
from plugins.nightcap.pools import PoolSpec, parse_side
from plugins.nightcap.power_sides import (
    PowerChoice,
    choose_power,
    power_side,
)
from plugins.nightcap.roll_commands import spend_willpower
from plugins.nightcap.sheet import match_trait
from plugins.nightcap.sides import Built, character_side, rating_side
from plugins.nightcap.store import check_can_pay, my_character, pay, require_approved
from plugins.nightcap.words import split_power_words, split_roll_words

COMMANDS = CommandSet(SYSTEM)

POWER_VS_USAGE = (
    "power use NAME [TIER] [+N|-N] [wp] vs CHARACTER POWER [TIER] [+N|-N] | vs CHARACTER TRAIT [+N|-N]"
    " | vs N [+N|-N] | vs CHARACTER (they answer with defend power NAME [TIER])"
)
USAGE = f"{POWER_USE_USAGE}; {POWER_VS_USAGE}"


@COMMANDS.command(
    "power use",
    "pay a power's Essence and roll its trait; with vs, a power contest",
    USAGE,
    params=P.POWER_USE,
)
async def power_use(ctx: CommandContext, inv: Invocation) -> Reply | list[Reply]:
    """``power use``: a plain use (``play_commands.power_use``), or a contest when the words hold ``vs``."""
    if "vs" not in [w.casefold() for w in inv.words]:
        return await play_power_use(ctx, inv)
    return await power_contest(ctx, inv)


async def power_contest(ctx: CommandContext, inv: Invocation) -> Reply | list[Reply]:
    lowered = [w.casefold() for w in inv.words]
    if lowered.count("vs") != 1:
        raise UserError(f"A power contest has two sides: write {POWER_VS_USAGE}.")
    at = lowered.index("vs")
    left_words, right_words = list(inv.words[:at]), list(inv.words[at + 1 :])
    name_words, chosen, mods, wp, secret = split_power_words(left_words)
    if not name_words or not right_words:
        raise UserError(f"Write {POWER_VS_USAGE}.")
    character = await my_character(ctx)
    require_approved(character, "power use")
    damage = await ensure_can_act(ctx.session, character, "power use")
    left = choose_power(character, name_words, chosen)

    if is_digits(right_words[0][:1]):
        spec = parse_side(right_words)
        if spec.willpower:
            raise UserError("An NPC side cannot spend Willpower; its pool is just dice.")
        if spec.number is None:
            raise UserError(f"Write {POWER_VS_USAGE}.")
        right_side = rating_side(ctx, spec, 0, "The NPC")
        return await _resolve(ctx, left, mods, wp, secret, damage, None, None, right_side, "NPC")

    found = await take_character(ctx.session, SYSTEM, right_words)
    if found is None:
        raise UserError(
            f"No Nightcap character called {' '.join(right_words)[:60]!r}. Write {POWER_VS_USAGE}."
        )
    other, rest = found
    if other.id == character.id:
        raise UserError("A character cannot contest their own power.")
    if not rest:
        # Their Essence is theirs to spend: the other player answers with defend power ... or a trait.
        await take_turn(ctx, character)  # once the words are read: the turn's one action
        return await open_challenge(ctx, character, other, damage, power=(left, mods, wp))
    other_damage = await ensure_can_act(ctx.session, other, "power use", own=False)
    rest_words, other_mods, other_wp, _ = split_roll_words(rest)
    rolls_other = other.owner_id == ctx.person.id or ctx.storyteller
    if other_wp and not rolls_other:
        raise UserError(
            f"{other.name}'s player declares their own Willpower, before the dice: they answer with"
            " defend and write wp there."
        )
    trait = match_trait(rest_words[0]) if len(rest_words) == 1 else None
    if trait is not None and not rolls_other:
        # "Both roll. Willpower may be spent by either": another player resists for themselves.
        await take_turn(ctx, character)
        replies = await open_challenge(ctx, character, other, damage, power=(left, mods, wp))
        return redirected(replies, other.name, "power")
    if trait is not None:
        spec = PoolSpec(base=trait, modifiers=tuple(other_mods), willpower=other_wp)
        right_side = character_side(ctx, spec, other, other_damage)
        return await _resolve(ctx, left, mods, wp, secret, damage, None, other, right_side, other.name)
    if other.owner_id != ctx.person.id and not ctx.storyteller:
        raise PermissionDenied(
            f"Spending {other.name}'s Essence is for {other.name}'s player: write power use"
            f" {left.power['name']} vs {other.name}, and they answer with defend power NAME [TIER]."
        )
    require_approved(other, "power use")
    other_names, other_tier, _, _, _ = split_power_words(rest_words)
    right = choose_power(other, other_names, other_tier)
    right_side = power_side(ctx, right, other_mods, other_wp, other_damage)
    return await _resolve(ctx, left, mods, wp, secret, damage, right, other, right_side, other.name)


async def _resolve(
    ctx: CommandContext,
    left: PowerChoice,
    mods: list[int],
    wp: bool,
    secret: bool,
    damage: int,
    right: PowerChoice | None,
    other: Character | None,
    right_side: Built,
    against: str,
) -> Reply:
    await take_turn(ctx, left.character)
    # Both sides must be able to pay before either pays.
    left_before = await check_can_pay(ctx, left)
    right_before = await check_can_pay(ctx, right) if right is not None else None
    left_side = power_side(ctx, left, mods, wp, damage)
    await pay(ctx, left)
    if right is not None:
        await pay(ctx, right)
    right_wp = right_side.side.spec.willpower
    if wp:
        await spend_willpower(ctx, left.character)
    if right_wp:  # "Willpower may be spent by either": the other character's own point
        assert other is not None
        await spend_willpower(ctx, other)
    left_roll = mechanics.roll(left_side.pool, ctx.dice, wp, **dice(ctx))
    right_roll = mechanics.roll(right_side.pool, ctx.dice, right_wp, **dice(ctx))
    outcome = mechanics.contest(left_roll, right_roll)
    who = left.character.name
    result = outcome.as_result()
    result.update(
        context="power",
        sides=[
            {**left_roll.as_result(), **left_side.extras()},
            {**right_roll.as_result(), **right_side.extras()},
        ],
        names=[who, against],
        character_ids=[left.character.id, other.id if other else None],
        powers=[left.describe(left_before), right.describe(right_before) if right else None],
        who=who,
        secret=secret,
    )
    roll_id = await ctx.log_roll(result, character_id=left.character.id, name=who)
    paid = f"{who} pays {left.cost.essence} Essence"
    if right is not None:
        paid += f", {against} pays {right.cost.essence} Essence"
    line = render.contest_line(who, outcome, roll_id, (left_side.label, right_side.label), against)
    text = f"{line.removesuffix(f' #{roll_id}')} ({paid}) #{roll_id}"
    await ctx.stlog(
        ("(secret) " if secret else "") + text, kind="power", result=result, character_id=left.character.id
    )
    if other is not None and other.owner_id != ctx.person.id and not secret:
        where = await last_channel(ctx.session, other)
        if where is not None:
            await notify(ctx, where, text, result)
    return Reply(text=text, private=secret, result=result)
