"""The ``roll`` command: pools from numbers or traits, Willpower, contests against a pool, secret rolls."""

from __future__ import annotations

from dataclasses import replace

from gateway import CommandContext, CommandSet, Invocation, Reply, UserError
from gateway.features.characters import active_character, find_character
from gateway.vault import repo
from gateway.vault.models import Character
from plugins.nightcap import mechanics, render, rulings, wounds
from plugins.nightcap import params as P
from plugins.nightcap.acting import check_in_play
from plugins.nightcap.config import SYSTEM
from plugins.nightcap.house import dice, house, mark, noted
from plugins.nightcap.pools import ROLL_USAGE, PoolSpec, RollRequest, parse_roll
from plugins.nightcap.sheet import match_trait
from plugins.nightcap.sides import Side, build_side, roll_side_result
from plugins.nightcap.store import able_damage, overrule
from plugins.nightcap.words import split_opponent

COMMANDS = CommandSet(SYSTEM)


async def spend_willpower(ctx: CommandContext, character: Character | None) -> None:
    if not house(ctx).willpower_per_roll:
        raise UserError("Willpower is not spent on rolls in this channel (house rule willpower_per_roll 0).")
    if character is None:
        raise UserError("Willpower needs a character: make one with char new NAME, or roll without wp.")
    assert character.id is not None
    check_in_play(character, "Willpower")
    # Below the ORM: a ``wp`` roll then opens no session.
    if not await repo.take_pool(ctx.unit, character.id, "willpower", 1):
        raise UserError(f"{character.name} has no Willpower left to spend.")


async def _roller_wound(ctx: CommandContext, specs: list[PoolSpec], character: Character | None) -> int:
    """The wound penalty on the roller's own trait sides, refusing an Incapacitated character's roll
    ("no more actions"). A roll from the sheet, or one spending the character's Willpower, is the
    character acting: their damage is read once, for both. A bare number is the whole pool (an
    NPC's, the book's practice table), so a roll of numbers only reads nothing."""
    if character is None or all(s.number is not None and not s.willpower for s in specs):
        return 0
    return wounds.penalty_for_damage(ctx, await able_damage(ctx, character, "roll"))


def _right_willpower(sides: list[Side], opponent: Character | None, character: Character | None) -> Character:
    """Whose Willpower ``wp`` on the right of ``vs`` spends: the named character's, or the roller's
    own when the right side is their own trait; an NPC's bare pool has none."""
    if sides[1].trait is None:
        raise UserError(
            "An NPC's pool is just dice and has no Willpower to spend: write wp on your own side, left of vs."
        )
    if opponent is not None:
        return opponent
    assert character is not None  # build_side refused a trait without a character
    if sides[0].spec.willpower:
        raise UserError(f"Both sides are {character.name}'s: declare Willpower on one side only.")
    return character


def _rolls_for(ctx: CommandContext, opponent: Character) -> bool:
    """Whether the caller may roll ``opponent``'s dice: their own character's, or any as a Storyteller."""
    return opponent.owner_id == ctx.person.id or ctx.storyteller


async def _challenge_instead(
    ctx: CommandContext, character: Character | None, opponent: Character, request: RollRequest
) -> list[Reply]:
    """``roll ... vs NAME TRAIT`` against another player's character: the book's contest has both
    sides state their trait and declare Willpower before the dice ("When two characters want
    incompatible things ... both roll"), so the other player answers it as a challenge."""
    from plugins.nightcap import challenge_commands  # it builds on this module

    if character is None:
        raise UserError(
            f"{opponent.name} is another player's character: a contest with them needs a character of"
            " your own (char new NAME), and they answer it."
        )
    if request.secret:
        raise UserError(
            f"{opponent.name}'s player answers this contest, so it cannot be secret: leave secret out."
        )
    return await challenge_commands.redirected_challenge(ctx, character, opponent, request.sides[0])


async def _named_alone(
    ctx: CommandContext, words: tuple[str, ...] | list[str]
) -> tuple[list[str], Character] | None:
    """``roll social vs Bob``: the words before ``vs`` and the character named after it with no
    trait (None when the right side is a number, a trait, or no character's name)."""
    lowered = [w.casefold() for w in words]
    if lowered.count("vs") != 1:
        return None
    at = lowered.index("vs")
    right = [w for w in words[at + 1 :] if w.casefold() != "secret"]
    if not right or right[0][:1] in "+-" or right[0][:1].isdigit():
        return None
    try:
        if len(right) == 1 and match_trait(right[0]) is not None:
            return None
    except UserError:
        return None  # an ambiguous trait prefix: the roll says so
    found = await find_character(ctx.session, SYSTEM, " ".join(right))
    if found is None:
        return None
    return [*words[:at], *(w for w in words[at + 1 :] if w.casefold() == "secret")], found


@COMMANDS.command("roll", "roll a pool, or a contest with vs", ROLL_USAGE, role="anyone", params=P.ROLL)
async def roll_command(ctx: CommandContext, inv: Invocation) -> Reply | list[Reply]:
    words, opponent_name = split_opponent(inv.words)
    alone = await _named_alone(ctx, words) if opponent_name is None else None
    if alone is not None:
        # ``vs Bob``: Bob's player names his own trait; the roller's own or a Storyteller names it here.
        left, named = alone
        if _rolls_for(ctx, named):
            raise UserError(f"Which of {named.name}'s traits resists? Write vs {named.name} TRAIT.")
        request = parse_roll(left)
        return await _challenge_instead(ctx, await active_character(ctx, SYSTEM), named, request)
    request = parse_roll(words)
    character = await active_character(ctx, SYSTEM)
    opponent: Character | None = None
    if opponent_name is not None:
        opponent = await find_character(ctx.session, SYSTEM, opponent_name)
        if opponent is None:
            raise UserError(
                f"No Nightcap character called {opponent_name[:60]}: write vs NAME TRAIT for another"
                " character, vs TRAIT for your own, or vs N for an NPC pool."
            )
        if not _rolls_for(ctx, opponent):
            return await _challenge_instead(ctx, character, opponent, request)
    first, ruling = await overrule(ctx, character, request.sides[0])  # the Storyteller's word
    request = replace(request, sides=(first, *request.sides[1:]))
    max_pool = ctx.settings.gateway.max_pool
    own = list(request.sides) if opponent is None else [request.sides[0]]
    wound = await _roller_wound(ctx, own, character)
    sides = [build_side(request.sides[0], character, max_pool, wound=wound)]
    if len(request.sides) == 2:
        other = opponent or character
        if opponent is not None:
            damage = await able_damage(ctx, opponent, "roll", own=False)
            wound = wounds.penalty_for_damage(ctx, damage)  # ``vs NAME TRAIT``: always a trait
        sides.append(build_side(request.sides[1], other, max_pool, wound=wound))
    # "Willpower may be spent by either, and is declared before the dice": each side's own point.
    if sides[0].spec.willpower:
        await spend_willpower(ctx, character)
    if len(sides) == 2 and sides[1].spec.willpower:
        await spend_willpower(ctx, _right_willpower(sides, opponent, character))
    who = character.name if character else ctx.name
    # The other side: a named character, the roller's own trait, or an NPC's bare pool.
    against = (opponent.name if opponent else who) if len(sides) == 2 and sides[1].trait else "NPC"
    names = (sides[0].label, sides[1].label) if against == who and len(sides) == 2 else None
    # Willpower is fixed before any die is shown: the spends above happen before the first roll.
    switches = dice(ctx)
    rolls = [mechanics.roll(side.pool, ctx.dice, side.spec.willpower, **switches) for side in sides]
    char_id = character.id if character else None
    if len(rolls) == 1:
        result = roll_side_result(sides[0], rolls[0])
        result["who"] = who
        roll_id = ctx.reserve_roll_id(result)
        text = render.roll_line(who, rolls[0], roll_id, sides[0].label)
    else:
        outcome = mechanics.contest(rolls[0], rolls[1])
        result = outcome.as_result()
        result["sides"] = [roll_side_result(s, r) for s, r in zip(sides, rolls, strict=True)]
        result["who"] = who
        result["against"] = against
        if opponent is not None:
            result["opponent"] = opponent.name
        roll_id = ctx.reserve_roll_id(result)
        text = render.contest_line(
            who, outcome, roll_id, (sides[0].label, sides[1].label), against, winner_names=names
        )
    text = noted(text, roll_id, mark(ctx, result, *rolls))
    if ruling is not None:
        result["ruling"] = ruling
        text = f"{text.removesuffix(f' #{roll_id}')}{rulings.note(ruling)} #{roll_id}"
    result["secret"] = request.secret
    line = ("(secret) " if request.secret else "") + text
    await ctx.log_roll(result, character_id=char_id, name=who, stlog=line)
    return Reply(text=text, private=request.secret, result=result)
