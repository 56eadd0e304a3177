"""Dramatic Systems' rolls (Willpower, specialty, retries, resisted), their odds, and the end of a scene."""

from __future__ import annotations

from fractions import Fraction
from functools import partial
from typing import Any

from gateway import CommandContext, CommandSet, Invocation, Offloaded, Reply, UserError, faces, scene
from gateway.characters import active_character, find_character
from gateway.i18n import percent
from gateway.rules.pool_sum import Pool, PoolExpr
from gateway.vault import repo
from gateway.vault.models import Character
from plugins.dramatic import mechanics, odds
from plugins.dramatic.characters import WP
from plugins.dramatic.config import DramaticSettings
from plugins.dramatic.mechanics import SYSTEM
from plugins.dramatic.messages import t
from plugins.dramatic.parse import ROLL_USAGE, SideRequest, parse_roll
from plugins.dramatic.sheet import SCHEMA

COMMANDS = CommandSet(SYSTEM)
ODDS_USAGE = "odds " + ROLL_USAGE[5:]
SCENE_MARKER = "* * *"


def resolve_pool(expr: PoolExpr, character: Character | None, who: str = "you") -> Pool:
    """Numbers and trait names to dice, traits rated from ``character``'s sheet."""
    return SCHEMA.pool(expr, SCHEMA.load(character.sheet) if character is not None else None, who)


def dice_text(ctx: CommandContext, pool: int, label: str) -> str:
    if label:
        return t(ctx, "dice.labelled", label=label, n=max(pool, 0))
    return t(ctx, "dice", n=max(pool, 0))


def difficulty_text(ctx: CommandContext, difficulty: int, asked: int, base: int, failures: int) -> str:
    if failures:
        return t(ctx, "difficulty.retry", d=difficulty, base=base, failures=failures)
    if asked != difficulty:
        return t(ctx, "difficulty.clamped", d=difficulty, asked=asked)
    return t(ctx, "difficulty", d=difficulty)


def body(ctx: CommandContext, roll: mechanics.Roll) -> dict[str, str]:
    return {
        "faces": faces(roll.original) or t(ctx, "faces.none"),
        "extra": t(ctx, "specialty", extra=faces(roll.extra)) if roll.extra else "",
        "wp": t(ctx, "willpower") if roll.willpower else "",
    }


def asked_difficulty(ctx: CommandContext, side: SideRequest) -> int:
    """The difficulty a side asked for: its own, or the setting's default."""
    return (
        side.difficulty
        if side.difficulty is not None
        else ctx.settings_for(DramaticSettings).default_difficulty
    )


def retry_kind(ctx: CommandContext, character: Character | None) -> str:
    """The roller's retry record: the failures of their latest action here, until the scene ends."""
    return f"retry:{scene.roller_key(ctx, character)}"


async def _opponent_character(ctx: CommandContext, side: SideRequest) -> Character | None:
    if len(side.words) > 1:
        return await find_character(ctx.session, SYSTEM, side.words[0])
    return None


@COMMANDS.command(
    "roll", "roll a pool against a difficulty, or a resisted roll with vs", ROLL_USAGE, role="anyone"
)
async def roll_command(ctx: CommandContext, inv: Invocation) -> Reply:
    request = parse_roll(inv.words)
    character = await active_character(ctx, SYSTEM)
    who = character.name if character else ctx.name
    left = resolve_pool(request.side.pool(False), character)
    max_pool = ctx.settings.gateway.max_pool
    if left.dice > max_pool:
        raise UserError(f"A pool of {left.dice} is above the maximum of {max_pool} dice.")
    asked = asked_difficulty(ctx, request.side)
    base = mechanics.clamp_difficulty(asked)
    failures = 0
    kind = retry_kind(ctx, character)
    retry_row = await scene.get(ctx.session, ctx.channel.key, SYSTEM, kind)
    if request.retry:
        if retry_row is None:
            raise UserError(
                f"Nothing to retry: {who}'s latest roll here did not fail (or the scene has ended)."
                " Roll without retry."
            )
        if retry_row.data.get("botched"):
            raise UserError(
                f"{who}'s latest roll here botched: whether and how to try again is the Storyteller's call."
                " Roll without retry if they allow it."
            )
        failures = int(retry_row.data.get("failures", 0))
    difficulty = mechanics.retry_difficulty(base, failures)
    char_id = character.id if character else None
    if request.side.willpower:
        if character is None or char_id is None:
            raise UserError("Willpower needs a character: make one with char new NAME, or roll without wp.")
        # Declared before the roll: spent before any die is shown.
        if not await repo.spend_pool(ctx.session, char_id, WP, 1):
            raise UserError(f"{character.name} has no Willpower left to spend.")
    if request.opponent is not None:
        return await _resisted(ctx, request.opponent, character, who, left, asked, difficulty, request)
    roll = mechanics.roll(
        left.dice, difficulty, ctx.dice, willpower=request.side.willpower, specialty=request.side.specialty
    )
    result = roll.as_result()
    result.update(
        who=who,
        label=left.label,
        requested_difficulty=asked,
        base_difficulty=base,
        retry=failures,
        secret=request.secret,
    )
    if character is not None:
        result["character"] = character.name
    # The retry record: the latest action here, its failures so far.
    if roll.degree == "success":
        if retry_row is not None:
            await ctx.session.delete(retry_row)
    else:
        data = (
            {"botched": True, "name": who}
            if roll.degree == "botch"
            else {"failures": failures + 1, "name": who, "difficulty": base}
        )
        await scene.put(ctx.session, ctx.channel.key, SYSTEM, kind, data, ctx.now)
    roll_id = await ctx.log_roll(result, character_id=char_id, name=who)
    text = t(
        ctx,
        "roll.line",
        who=who,
        dice=dice_text(ctx, left.dice, left.label),
        difficulty=difficulty_text(ctx, difficulty, asked, base, failures),
        outcome=t(ctx, "outcome", n=roll.successes, degree=t(ctx, f"degree.{roll.degree}")),
        id=roll_id,
        **body(ctx, roll),
    )
    await ctx.stlog(
        ("(secret) " if request.secret else "") + text, kind="roll", result=result, character_id=char_id
    )
    return Reply(text=text, private=request.secret, result=result)


async def _resisted(
    ctx: CommandContext,
    opponent: SideRequest,
    character: Character | None,
    who: str,
    left: Pool,
    asked: int,
    difficulty: int,
    request: Any,
) -> Reply:
    other = await _opponent_character(ctx, opponent)
    right = resolve_pool(opponent.pool(other is not None), other, "they")
    max_pool = ctx.settings.gateway.max_pool
    if right.dice > max_pool:
        raise UserError(f"A pool of {right.dice} is above the maximum of {max_pool} dice.")
    right_asked = asked_difficulty(ctx, opponent)
    right_difficulty = mechanics.clamp_difficulty(right_asked)
    attacker = mechanics.roll(
        left.dice, difficulty, ctx.dice, willpower=request.side.willpower, specialty=request.side.specialty
    )
    defender = mechanics.roll(right.dice, right_difficulty, ctx.dice, specialty=opponent.specialty)
    outcome = mechanics.resist(attacker, defender)
    right_name = other.name if other is not None else t(ctx, "opponent")
    result = outcome.as_result()
    result["who"] = who
    result["secret"] = request.secret
    for side, name, pool, wanted in (
        (result["sides"][0], who, left, asked),
        (result["sides"][1], right_name, right, right_asked),
    ):
        side.update(who=name, label=pool.label, requested_difficulty=wanted)
    char_id = character.id if character else None
    roll_id = await ctx.log_roll(result, character_id=char_id, name=who)
    sides = [
        t(
            ctx,
            "side",
            name=name,
            dice=dice_text(ctx, roll.pool, pool.label),
            difficulty=difficulty_text(ctx, roll.difficulty, wanted, roll.difficulty, 0),
            n=roll.successes,
            **body(ctx, roll),
        )
        for name, roll, pool, wanted in (
            (who, attacker, left, asked),
            (right_name, defender, right, right_asked),
        )
    ]
    if outcome.winner == 0:
        text = t(
            ctx,
            "resisted.attacker",
            left=sides[0],
            right=sides[1],
            winner=who,
            margin=outcome.margin,
            id=roll_id,
        )
    else:
        how = t(ctx, "resisted.tie" if attacker.successes == defender.successes else "resisted.more")
        text = t(
            ctx, "resisted.defender", left=sides[0], right=sides[1], winner=right_name, how=how, id=roll_id
        )
    await ctx.stlog(
        ("(secret) " if request.secret else "") + text, kind="roll", result=result, character_id=char_id
    )
    return Reply(text=text, private=request.secret, result=result)


def _percent(p: Fraction) -> str:
    return percent("en", p)


@COMMANDS.command(
    "odds", "exact odds of a roll, with Willpower, specialty and resisted rolls", ODDS_USAGE, role="anyone"
)
async def odds_command(ctx: CommandContext, inv: Invocation) -> Offloaded[Any]:
    """Reads the pools here; the odds are worked out off the event loop (``gateway.offload``)."""
    request = parse_roll(inv.words)
    character = await active_character(ctx, SYSTEM)
    left = resolve_pool(request.side.pool(False), character)
    max_pool = ctx.settings.gateway.max_pool
    if left.dice > max_pool:
        raise UserError(f"Odds stop at pools of {max_pool} dice.")
    base = mechanics.clamp_difficulty(asked_difficulty(ctx, request.side))
    failures = 0
    if request.retry:
        row = await scene.get(ctx.session, ctx.channel.key, SYSTEM, retry_kind(ctx, character))
        failures = int(row.data.get("failures", 0)) if row is not None else 0
    difficulty = mechanics.retry_difficulty(base, failures)
    wp = t(ctx, "willpower") if request.side.willpower else ""
    if request.opponent is not None:
        other = await _opponent_character(ctx, request.opponent)
        right = resolve_pool(request.opponent.pool(other is not None), other, "they")
        if right.dice > max_pool:
            raise UserError(f"Odds stop at pools of {max_pool} dice.")
        right_difficulty = mechanics.clamp_difficulty(asked_difficulty(ctx, request.opponent))
        resisted = partial(
            odds.resisted_odds,
            left.dice,
            right.dice,
            difficulty,
            right_difficulty,
            willpower=request.side.willpower,
            attacker_specialty=request.side.specialty,
            defender_specialty=request.opponent.specialty,
        )
        left_text = dice_text(ctx, left.dice, left.label) + wp + " " + t(ctx, "at_difficulty", d=difficulty)
        right_text = (
            dice_text(ctx, right.dice, right.label) + " " + t(ctx, "at_difficulty", d=right_difficulty)
        )

        def render_resisted(chances: odds.ResistedOdds) -> Reply:
            text = t(
                ctx,
                "odds.resisted",
                left=left_text,
                right=right_text,
                win=_percent(chances.attacker),
                lose=_percent(chances.defender),
            )
            result = {
                "kind": "odds",
                "system": SYSTEM,
                "contest": True,
                "win": float(chances.attacker),
                "lose": float(chances.defender),
                "error": float(chances.error),
            }
            return Reply(text=text, private=True, result=result)

        return Offloaded(resisted, render_resisted)
    single = partial(
        odds.roll_odds,
        left.dice,
        difficulty,
        willpower=request.side.willpower,
        specialty=request.side.specialty,
    )

    def render(chances: odds.RollOdds) -> Reply:
        top = min(max(left.dice + 1, 1), 8)
        spread = ", ".join(
            t(ctx, "odds.at_least", k=k, p=_percent(chances.at_least(k))) for k in range(2, top + 1)
        )
        text = t(
            ctx,
            "odds.line",
            dice=dice_text(ctx, left.dice, left.label),
            wp=wp,
            difficulty=t(ctx, "difficulty", d=difficulty),
            spec=t(ctx, "odds.spec") if request.side.specialty else "",
            botch=_percent(chances.botch),
            failure=_percent(chances.failure),
            success=_percent(chances.success),
            spread=spread or t(ctx, "odds.at_least", k=1, p=_percent(chances.success)),
        ).replace("; .", ".")
        result = {
            "kind": "odds",
            "system": SYSTEM,
            "pool": max(left.dice, 0),
            "difficulty": difficulty,
            "willpower": request.side.willpower,
            "specialty": request.side.specialty,
            "degrees": {
                "botch": float(chances.botch),
                "failure": float(chances.failure),
                "success": float(chances.success),
            },
            "successes": {str(k): float(v) for k, v in chances.successes.items()},
            "tail": float(chances.tail),
        }
        return Reply(text=text, private=True, result=result)

    return Offloaded(single, render)


@COMMANDS.command(
    SCENE_MARKER, "end the scene in this channel (clears retry penalties)", SCENE_MARKER, bare=True
)
@COMMANDS.command("scene end", "end the scene in this channel (same as * * *)", "scene end")
async def scene_end_command(ctx: CommandContext, inv: Invocation) -> Reply:
    rows = await scene.list_prefixed(ctx.session, ctx.channel.key, SYSTEM, "retry:")
    names = [str(r.data.get("name", "?")) for r in rows if r.data.get("failures")]
    await scene.delete_prefixed(ctx.session, ctx.channel.key, SYSTEM, "retry:")
    text = t(ctx, "scene.end_cleared", names=", ".join(names)) if names else t(ctx, "scene.end")
    result = {"kind": "scene_end", "system": SYSTEM, "channel": ctx.channel.key, "retries_cleared": names}
    await ctx.stlog(text, kind="scene_end", result=result)
    return Reply(text=text, result=result)
