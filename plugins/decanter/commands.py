"""Decanter's commands: rolls, odds, Story Points, Conditions, extended contests, scenes, sheets."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from fractions import Fraction
from typing import Any

from gateway import scene
from gateway.characters import (
    active_character,
    create_character,
    find_character,
    lock_character,
    owned_characters,
    pool_value,
    require_active,
)
from gateway.commands import CommandContext
from gateway.errors import PermissionDenied, UserError
from gateway.types import Invocation, Reply
from gateway.vault import repo
from gateway.vault.models import Character
from plugins.decanter import mechanics, odds, sheet, state
from plugins.decanter.config import decanter_settings
from plugins.decanter.mechanics import SYSTEM
from plugins.decanter.messages import CATALOGUE
from plugins.decanter.parse import PoolExpr, RollRequest, parse_dc, parse_roll

SP = "story_points"


def t(ctx: CommandContext, key: str, /, **params: Any) -> str:
    return CATALOGUE.t(ctx.locale, key, **params)


def roller_key(ctx: CommandContext, character: Character | None) -> str:
    return f"c{character.id}" if character is not None else f"p{ctx.person.id}"


# ---------------------------------------------------------------- pools


@dataclass(frozen=True)
class Pool:
    dice: int
    label: str


def resolve_pool(expr: PoolExpr, character: Character | None, who: str = "you") -> Pool:
    """Numbers and trait names to a number of dice, with a label such as ``Dexterity 3 + Firearms 2``."""
    data = sheet.load(character.sheet) if character is not None else None
    total = 0
    parts: list[str] = []
    named = False
    for sign, word in expr.terms:
        if word.isdigit():
            total += sign * int(word)
            parts.append(f"{'-' if sign < 0 else '+'}{word}")
            continue
        trait = sheet.match_trait(word)
        if trait is None:
            raise UserError(
                f"Unknown trait {word[:40]!r}. Roll numbers (roll 3+2 dc 4) or Attribute + Skill names"
                " (roll dex+firearms dc 4)."
            )
        if data is None:
            raise UserError(
                f"{sheet.title(trait)} is a trait, and {who} have no active Decanter character: roll numbers,"
                " or make one with char new NAME."
            )
        rating = data.rating(trait)
        total += rating
        parts.append(f"+{sheet.title(trait)} {rating}")
        named = True
    label = " ".join(parts).lstrip("+").replace(" +", " + ").replace(" -", " - ")
    if not named:
        label = expr.text if len(expr.terms) > 1 else ""
    return Pool(total, label)


def dice_text(ctx: CommandContext, pool: int, label: str) -> str:
    if label:
        return t(ctx, "dice.labelled", label=label, n=pool)
    return t(ctx, "dice", n=pool)


def quality_text(ctx: CommandContext, quality: int) -> str:
    name = mechanics.QUALITY_NAMES[quality]
    return t(ctx, "with_quality", quality=t(ctx, f"quality.{name}")) if name else ""


def faces(values: Any) -> str:
    return " ".join(str(v) for v in values)


def outcome_text(ctx: CommandContext, successes: int, degree: str, dc: int | None) -> str:
    if degree == "extra" and dc is not None:
        return t(ctx, "outcome.extra", n=successes, degree=t(ctx, "degree.extra"), extra=successes - dc)
    return t(ctx, "outcome", n=successes, degree=t(ctx, f"degree.{degree}"))


def faces_text(ctx: CommandContext, roll: mechanics.Roll) -> str:
    if roll.quality in (-1, 1):
        first = roll.dice[: roll.pool]
        if roll.take_half:
            return t(
                ctx,
                "faces.half",
                first=faces(first) or t(ctx, "faces.none"),
                a=roll.results[0],
                b=roll.results[1],
            )
        second = roll.dice[roll.pool :]
        return t(
            ctx,
            "faces.two",
            first=faces(first) or t(ctx, "faces.none"),
            a=roll.results[0],
            second=faces(second) or t(ctx, "faces.none"),
            b=roll.results[1],
        )
    if roll.quality in (-2, 2) and roll.rerolled:
        return t(ctx, "faces.reroll", first=faces(roll.dice[: roll.pool]), again=faces(roll.rerolled))
    return faces(roll.dice) or t(ctx, "faces.none")


def aid_text(ctx: CommandContext, helpers: list[mechanics.Aid], bonus: int) -> str:
    if not helpers:
        return ""
    shown = ", ".join(
        t(
            ctx,
            "aid.npc" if h.npc else "aid.pc",
            pool=h.pool if h.npc else f"{faces(h.dice) or '-'}",
            successes=h.successes,
        )
        for h in helpers
    )
    return " (" + t(ctx, "aid", bonus=bonus, helpers=len(helpers), shown=shown) + ")"


# ---------------------------------------------------------------- roll


async def roll_command(ctx: CommandContext, inv: Invocation) -> Reply | list[Reply]:
    request = parse_roll(inv.words)
    character = await active_character(ctx, SYSTEM)
    who = character.name if character else ctx.name
    config = decanter_settings(ctx.settings)
    base = resolve_pool(request.pool, character)
    if request.opponent is not None:
        return await _contest(ctx, request, character, who, base)
    extended: dict[str, Any] | None = None
    ext_row = None
    if request.ext:
        ext_row = await scene.get(ctx.session, ctx.channel.key, SYSTEM, f"ext:{roller_key(ctx, character)}")
        if ext_row is None or ext_row.data.get("done"):
            raise UserError(
                f"{who} has no extended contest running here: start one with ext DC K, e.g. ext 4 3."
            )
        if request.dc is not None or request.npc is not None:
            raise UserError("An extended roll takes its DC from the contest: leave dc and vs out.")
        extended = dict(ext_row.data)
    dc = request.dc
    npc_pool: int | None = None
    if request.npc is not None:
        if dc is not None:
            raise UserError("Against an NPC the DC comes from its pool: write vs npc 6 without dc.")
        npc_pool = max(request.npc.number(), 0)
        dc = mechanics.npc_dc(npc_pool)
    if extended is not None:
        dc = int(extended["dc"])
    if dc is None:
        raise UserError(
            "Which DC? Write roll 3+2 dc 4, roll 5 dc hard, or roll 5 vs npc 6 (names: easy, routine,"
            " challenging, formidable, hard, very hard, almost impossible, superhuman)."
        )
    if request.half and request.quality in (-2, 2):
        raise UserError(
            "Take Half works with Advantage or Disadvantage only: Major qualities need dice to re-roll."
        )
    # Helpers roll first: their successes become the bonus dice of this roll.
    helpers = [mechanics.aid(pool, ctx.dice, npc=npc) for pool, npc in request.aids]
    bonus = mechanics.aid_bonus(helpers, config.aid_max)
    pool = max(base.dice, 0) + bonus
    if pool > ctx.settings.gateway.max_pool:
        raise UserError(f"A pool of {pool} is above the maximum of {ctx.settings.gateway.max_pool} dice.")
    roll = mechanics.roll(
        pool, ctx.dice, dc=dc, quality=request.quality, half=request.half, force=request.force
    )
    result = roll.as_result()
    result.update(
        who=who,
        base_pool=base.dice,
        label=base.label,
        qualities=list(request.qualities),
        bonus_dice=bonus,
        aid=[h.as_result() for h in helpers],
        dc_title=mechanics.dc_title(dc),
        secret=request.secret,
        rolled_at=ctx.now.isoformat(),
    )
    if npc_pool is not None:
        result["npc_pool"] = npc_pool
    if character is not None:
        result["character"] = character.name
    if extended is not None and ext_row is not None:
        extended["rolls"] = [*extended["rolls"], roll.successes]
        extended["total"] = int(extended["total"]) + roll.successes
        if len(extended["rolls"]) >= int(extended["multiplier"]):
            extended["done"] = True
            extended["outcome"] = mechanics.degree(extended["total"], int(extended["target"]))
        ext_row.data = extended
        ext_row.updated_at = ctx.now
        ctx.session.add(ext_row)
        result["extended"] = _ext_summary(extended)
    char_id = character.id if character else None
    roll_id = await ctx.log_roll(result, character_id=char_id, name=who)
    text = roll_line(ctx, who, roll, result, roll_id)
    await ctx.stlog(
        ("(secret) " if request.secret else "") + text, kind="roll", result=result, character_id=char_id
    )
    return Reply(text=text, private=request.secret, result=result)


def _ext_summary(extended: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": extended["id"],
        "dc": extended["dc"],
        "multiplier": extended["multiplier"],
        "target": extended["target"],
        "roll": len(extended["rolls"]),
        "rolls": list(extended["rolls"]),
        "total": extended["total"],
        "done": bool(extended.get("done")),
        "outcome": extended.get("outcome"),
    }


def against_text(ctx: CommandContext, result: dict[str, Any]) -> str:
    dc = int(result["dc"])
    if "extended" in result:
        ext = result["extended"]
        return t(ctx, "against.extended", dc=dc, at=ext["roll"], of=ext["multiplier"])
    if "npc_pool" in result:
        return t(ctx, "against.npc", npc=t(ctx, "dice", n=result["npc_pool"]), dc=dc)
    return t(ctx, "against.dc", dc=dc, title=mechanics.dc_title(dc).title())


def roll_line(
    ctx: CommandContext, who: str, roll: mechanics.Roll, result: dict[str, Any], roll_id: str
) -> str:
    helpers = [mechanics.Aid(a["pool"], a["npc"], tuple(a["dice"]), a["successes"]) for a in result["aid"]]
    common = {
        "who": who,
        "dice": dice_text(ctx, roll.pool, result["label"] if not result["bonus_dice"] else ""),
        "quality": quality_text(ctx, roll.quality),
        "against": against_text(ctx, result),
        "aid": aid_text(ctx, helpers, result["bonus_dice"]),
        "id": roll_id,
    }
    if roll.automatic:
        text = t(ctx, "roll.automatic", degree=t(ctx, "degree.automatic"), **common)
    elif roll.take_half and roll.quality == 0:
        text = t(
            ctx, "roll.half", outcome=outcome_text(ctx, roll.successes, str(roll.degree), roll.dc), **common
        )
    else:
        text = t(
            ctx,
            "roll.line",
            faces=faces_text(ctx, roll),
            outcome=outcome_text(ctx, roll.successes, str(roll.degree), roll.dc),
            **common,
        )
    ext = result.get("extended")
    if ext:
        if ext["done"]:
            extra = t(
                ctx,
                "extended.done",
                total=ext["total"],
                target=ext["target"],
                degree=t(ctx, f"degree.{ext['outcome']}"),
            )
        else:
            extra = t(
                ctx,
                "extended.progress",
                total=ext["total"],
                target=ext["target"],
                done=ext["roll"],
                of=ext["multiplier"],
            )
        text = f"{text} {extra}"
    return text


async def _contest(
    ctx: CommandContext, request: RollRequest, character: Character | None, who: str, base: Pool
) -> Reply:
    opponent = request.opponent
    assert opponent is not None
    if request.dc is not None or request.half or request.force or request.aids or request.ext:
        raise UserError(
            "A contest between characters has no DC, Take Half, force, aid or ext: write roll POOL vs POOL."
        )
    other: Character | None = None
    if len(opponent.words) > 1:
        other = await find_character(ctx.session, SYSTEM, opponent.words[0])
    _, expr = opponent.split(other is not None)
    right = resolve_pool(expr, other, "they")
    max_pool = ctx.settings.gateway.max_pool
    for pool in (base.dice, right.dice):
        if pool > max_pool:
            raise UserError(f"A pool of {pool} is above the maximum of {max_pool} dice.")
    outcome = mechanics.contest(
        base.dice, right.dice, ctx.dice, left_quality=request.quality, right_quality=opponent.quality
    )
    right_name = other.name if other is not None else t(ctx, "opponent")
    result = outcome.as_result()
    result["who"] = who
    result["secret"] = request.secret
    for side, name_, pool, qualities in (
        (result["sides"][0], who, base, request.qualities),
        (result["sides"][1], right_name, right, opponent.qualities),
    ):
        side.update(who=name_, label=pool.label, base_pool=pool.dice, qualities=list(qualities))
    char_id = character.id if character else None
    roll_id = await ctx.log_roll(result, character_id=char_id, name=who)
    sides_text = [
        t(
            ctx,
            "contest.side",
            name=name_,
            dice=dice_text(ctx, roll.pool, pool.label),
            quality=quality_text(ctx, roll.quality),
            faces=faces_text(ctx, roll),
            n=roll.successes,
        )
        for name_, roll, pool in ((who, outcome.sides[0], base), (right_name, outcome.sides[1], right))
    ]
    if outcome.winner is None:
        text = t(ctx, "contest.unbroken", left=sides_text[0], right=sides_text[1], id=roll_id)
    else:
        how = t(ctx, f"contest.by.{outcome.decided_by}", rerolls=len(outcome.rounds) - 1)
        text = t(
            ctx,
            "contest.win",
            left=sides_text[0],
            right=sides_text[1],
            winner=who if outcome.winner == 0 else right_name,
            how=how,
            id=roll_id,
        )
    await ctx.stlog(
        ("(secret) " if request.secret else "") + text, kind="roll", result=result, character_id=char_id
    )
    return Reply(text=text, private=request.secret, result=result)


# ---------------------------------------------------------------- odds


def percent(p: Fraction) -> str:
    return f"{float(p) * 100:.1f}%"


async def odds_command(ctx: CommandContext, inv: Invocation) -> Reply:
    request = parse_roll(inv.words)
    character = await active_character(ctx, SYSTEM)
    config = decanter_settings(ctx.settings)
    base = resolve_pool(request.pool, character)
    max_pool = ctx.settings.gateway.max_pool
    if request.opponent is not None:
        other: Character | None = None
        if len(request.opponent.words) > 1:
            other = await find_character(ctx.session, SYSTEM, request.opponent.words[0])
        _, expr = request.opponent.split(other is not None)
        right = resolve_pool(expr, other, "they")
        if max(base.dice, right.dice) > max_pool:
            raise UserError(f"Odds stop at pools of {max_pool} dice.")
        chances = odds.contest_odds(base.dice, right.dice, request.quality, request.opponent.quality)
        text = t(
            ctx,
            "odds.contest",
            left=dice_text(ctx, max(base.dice, 0), base.label) + quality_text(ctx, request.quality),
            right=dice_text(ctx, max(right.dice, 0), right.label)
            + quality_text(ctx, request.opponent.quality),
            win=percent(chances.left),
            lose=percent(chances.right),
        )
        result = {
            "kind": "odds",
            "system": SYSTEM,
            "contest": True,
            "left_pool": base.dice,
            "right_pool": right.dice,
            "win": float(chances.left),
            "lose": float(chances.right),
            "unbroken": float(chances.unbroken),
        }
        return Reply(text=text, private=True, result=result)
    if request.half and request.quality in (-2, 2):
        raise UserError("Take Half works with Advantage or Disadvantage only.")
    dc = request.dc
    npc_pool = None
    if request.npc is not None:
        npc_pool = max(request.npc.number(), 0)
        dc = mechanics.npc_dc(npc_pool)
    pool = max(base.dice, 0)
    helpers_max = sum(p if not npc else p // 2 for p, npc in request.aids)
    if pool + min(helpers_max, config.aid_max) > max_pool or any(p > max_pool for p, _ in request.aids):
        raise UserError(f"Odds stop at pools of {max_pool} dice.")
    chances = odds.roll_odds(
        pool,
        dc=dc,
        quality=request.quality,
        half=request.half,
        force=request.force,
        helpers=request.aids,
        aid_cap=config.aid_max,
    )
    aid = ""
    if request.aids:
        aid = f" + aid ({', '.join(('npc ' if npc else '') + str(p) for p, npc in request.aids)})"
    dice = dice_text(ctx, pool, base.label)
    quality = quality_text(ctx, request.quality)
    result: dict[str, Any] = {
        "kind": "odds",
        "system": SYSTEM,
        "pool": pool,
        "dc": dc,
        "quality": mechanics.QUALITY_NAMES[request.quality],
        "take_half": request.half,
        "successes": {str(k): float(v) for k, v in chances.successes.items()},
        "degrees": {k: float(v) for k, v in chances.degrees.items()},
        "mean": float(chances.mean),
    }
    if dc is None:
        top = max(chances.successes) if chances.successes else 0
        spread = ", ".join(
            t(ctx, "odds.at_least", k=k, p=percent(chances.at_least(k))) for k in range(1, min(top, 8) + 1)
        )
        text = t(
            ctx,
            "odds.plain",
            dice=dice,
            quality=quality,
            aid=aid,
            spread=spread or "0",
            mean=f"{float(chances.mean):.2f}",
        )
        return Reply(text=text, private=True, result=result)
    against = (
        t(ctx, "against.npc", npc=t(ctx, "dice", n=npc_pool), dc=dc)
        if npc_pool is not None
        else t(ctx, "against.dc", dc=dc, title=mechanics.dc_title(dc).title())
    )
    if chances.degrees.get("automatic") == 1:
        text = t(ctx, "odds.automatic", dice=dice, against=against)
    else:
        d = chances.degrees
        text = t(
            ctx,
            "odds.degrees",
            dice=dice,
            quality=quality,
            against=against,
            aid=aid,
            botch=percent(d.get("botch", Fraction(0))),
            setback=percent(d.get("setback", Fraction(0))),
            success=percent(d.get("success", Fraction(0)) + d.get("automatic", Fraction(0))),
            extra=percent(d.get("extra", Fraction(0))),
            mean=f"{float(chances.mean):.2f}",
        )
    return Reply(text=text, private=True, result=result)


# ---------------------------------------------------------------- story points


async def _character_named(ctx: CommandContext, name: str) -> Character:
    character = await find_character(ctx.session, SYSTEM, name)
    if character is None:
        raise UserError(f"No Decanter character called {name[:60]!r}.")
    return character


def _int(word: str, what: str) -> int:
    try:
        value = int(word)
    except ValueError:
        raise UserError(f"{what} is a whole number, not {word[:20]!r}.") from None
    if abs(value) > 1000:
        raise UserError(f"{what} stops at 1000.")
    return value


async def sp_command(ctx: CommandContext, inv: Invocation) -> Reply:
    cap = decanter_settings(ctx.settings).story_point_cap
    if inv.words:
        if not ctx.storyteller:
            raise PermissionDenied("sp NAME needs the Storyteller role; sp alone shows your own points.")
        character = await _character_named(ctx, " ".join(inv.words))
    else:
        character = await require_active(ctx, SYSTEM)
    assert character.id is not None
    await state.ensure_pool(ctx.session, character.id, SP, cap)
    current, maximum = await pool_value(ctx.session, character.id, SP) or (0, cap)
    return Reply(
        text=t(ctx, "sp.show", name=character.name, n=current, cap=maximum),
        result={
            "kind": "story_points",
            "system": SYSTEM,
            "character": character.name,
            "current": current,
            "cap": maximum,
        },
    )


async def _gain(ctx: CommandContext, character_id: int, amount: int) -> tuple[int, int, int]:
    """Gain ``amount`` Story Points atomically under the cap: (now, cap, lost over the cap)."""
    cap = decanter_settings(ctx.settings).story_point_cap
    await state.ensure_pool(ctx.session, character_id, SP, cap)
    before, _ = await pool_value(ctx.session, character_id, SP) or (0, cap)
    await repo.gain_pool(ctx.session, character_id, SP, amount)
    after, _ = await pool_value(ctx.session, character_id, SP) or (0, cap)
    return after, cap, max(before + amount - after, 0)


async def sp_give_command(ctx: CommandContext, inv: Invocation) -> Reply:
    if len(inv.words) < 2:
        raise UserError("Write sp give NAME N, e.g. sp give Mira 2 (a negative N takes points away).")
    character = await _character_named(ctx, " ".join(inv.words[:-1]))
    amount = _int(inv.words[-1], "The number of Story Points")
    assert character.id is not None
    if amount >= 0:
        total, cap, lost = await _gain(ctx, character.id, amount)
        key = "sp.give_lost" if lost else "sp.give"
        text = t(ctx, key, name=character.name, n=amount, total=total, cap=cap, lost=lost)
    else:
        cap = decanter_settings(ctx.settings).story_point_cap
        await state.ensure_pool(ctx.session, character.id, SP, cap)
        current, _ = await pool_value(ctx.session, character.id, SP) or (0, cap)
        taken = min(-amount, current)
        await repo.spend_pool(ctx.session, character.id, SP, taken)
        total, lost = current - taken, 0
        text = t(ctx, "sp.take", name=character.name, n=taken, total=total, cap=cap)
    await ctx.audit("decanter.story_points", character_id=character.id, field_name=SP, old=None, new=amount)
    await ctx.stlog(text, kind="story_points", character_id=character.id)
    return Reply(
        text=text,
        result={
            "kind": "story_points",
            "system": SYSTEM,
            "character": character.name,
            "current": total,
            "cap": cap,
            "lost": lost,
        },
    )


async def _amendable(ctx: CommandContext, character: Character, what: str) -> tuple[dict[str, Any], str]:
    """The character's latest roll here, if it can still be changed: (its result, its id)."""
    assert character.id is not None
    row = await state.latest_roll(ctx.session, character.id, ctx.channel.key, SYSTEM)
    if row is None:
        raise UserError(f"{character.name} has no roll here to {what}.")
    result = dict(row.result)
    if result.get("kind") != "roll" or result.get("dc") is None:
        raise UserError(
            f"{character.name}'s latest roll here (#{row.public_id}) is a contest;"
            f" {what} works on a roll against a DC."
        )
    window = decanter_settings(ctx.settings).bonus_window
    rolled_at = datetime.fromisoformat(result["rolled_at"]) if result.get("rolled_at") else row.created_at
    if ctx.now - rolled_at > timedelta(seconds=window):
        raise UserError(
            f"{character.name}'s latest roll here (#{row.public_id}) is more than {window:g} seconds old:"
            f" Story Points change a roll only right after it."
        )
    return result, row.public_id


def _reread(result: dict[str, Any]) -> None:
    dc = int(result["dc"])
    result["degree"] = mechanics.reread(int(result["successes"]), dc, int(result.get("downgraded", 0)))
    result["total"] = result["successes"]
    result.pop("extra_successes", None)
    result.pop("shortfall", None)
    if result["degree"] == "extra":
        result["extra_successes"] = int(result["successes"]) - dc
    elif result["degree"] in ("botch", "setback"):
        result["shortfall"] = mechanics.shortfall(int(result["successes"]), dc)


def _describe(ctx: CommandContext, result: dict[str, Any]) -> str:
    return outcome_text(ctx, int(result["successes"]), str(result["degree"]), int(result["dc"]))


async def sp_bonus_command(ctx: CommandContext, inv: Invocation) -> Reply:
    if len(inv.words) > 1:
        raise UserError("Write sp bonus N, e.g. sp bonus 2: N Story Points become N extra successes.")
    amount = _int(inv.words[0], "The number of Story Points") if inv.words else 1
    if amount < 1:
        raise UserError("Spend at least 1 Story Point: sp bonus 1.")
    character = await require_active(ctx, SYSTEM)
    assert character.id is not None
    result, previous_id = await _amendable(ctx, character, "add successes to")
    if result.get("automatic"):
        raise UserError(f"#{previous_id} was an automatic success: it needs no Story Points.")
    await state.ensure_pool(ctx.session, character.id, SP, decanter_settings(ctx.settings).story_point_cap)
    if not await repo.spend_pool(ctx.session, character.id, SP, amount):
        current, _ = await pool_value(ctx.session, character.id, SP) or (0, 0)
        raise UserError(f"{character.name} has {current} Story Points, not {amount}.")
    before = _describe(ctx, result)
    result["successes"] = int(result["successes"]) + amount
    result["bonus"] = int(result.get("bonus", 0)) + amount
    result["amends"] = result.get("amends") or previous_id
    result["previous"] = previous_id
    _reread(result)
    if "extended" in result:
        await _amend_extended(ctx, character, result, amount)
    roll_id = await ctx.log_roll(result, character_id=character.id, name=character.name)
    left, _ = await pool_value(ctx.session, character.id, SP) or (0, 0)
    text = t(
        ctx,
        "sp.bonus",
        name=character.name,
        n=amount,
        roll=previous_id,
        before=before,
        outcome=_describe(ctx, result),
        left=left,
        id=roll_id,
    )
    ext = result.get("extended")
    if ext and ext["done"]:
        text += " " + t(
            ctx,
            "extended.done",
            total=ext["total"],
            target=ext["target"],
            degree=t(ctx, f"degree.{ext['outcome']}"),
        )
    elif ext:
        text += " " + t(
            ctx,
            "extended.progress",
            total=ext["total"],
            target=ext["target"],
            done=ext["roll"],
            of=ext["multiplier"],
        )
    await ctx.stlog(text, kind="story_points", result=result, character_id=character.id)
    return Reply(text=text, result=result)


async def _amend_extended(
    ctx: CommandContext, character: Character, result: dict[str, Any], amount: int
) -> None:
    row = await scene.get(ctx.session, ctx.channel.key, SYSTEM, f"ext:{roller_key(ctx, character)}")
    ext = dict(result["extended"])
    if row is None or row.data.get("id") != ext["id"]:
        raise UserError("That extended contest is gone, so its roll can no longer change.")
    data = dict(row.data)
    rolls = list(data["rolls"])
    rolls[ext["roll"] - 1] += amount
    data["rolls"] = rolls
    data["total"] = int(data["total"]) + amount
    if data.get("done"):
        data["outcome"] = mechanics.degree(data["total"], int(data["target"]))
    row.data = data
    row.updated_at = ctx.now
    ctx.session.add(row)
    result["extended"] = {**_ext_summary(data), "roll": ext["roll"]}


async def downgrade_command(ctx: CommandContext, inv: Invocation) -> Reply:
    if len(inv.words) > 1:
        raise UserError("Write downgrade, or downgrade N for N steps (extra → success → setback → botch).")
    steps = _int(inv.words[0], "The number of steps") if inv.words else 1
    if steps < 1:
        raise UserError("Downgrade by at least one step.")
    character = await require_active(ctx, SYSTEM)
    assert character.id is not None
    result, previous_id = await _amendable(ctx, character, "downgrade")
    if "extended" in result:
        raise UserError("A roll of an extended contest adds to a total; downgrade works on single rolls.")
    current = str(result["degree"])
    room = mechanics.steps_available(current)
    if steps > room:
        raise UserError(
            f"#{previous_id} is {t(ctx, f'degree.{current}')}: it can go down {room} more"
            f" {'step' if room == 1 else 'steps'} at most."
        )
    before = t(ctx, f"degree.{current}")
    after_degree = mechanics.step_down(current, steps)
    result["downgraded"] = int(result.get("downgraded", 0)) + steps
    result["degree"] = after_degree
    result.pop("extra_successes", None)
    result.pop("shortfall", None)
    result["amends"] = result.get("amends") or previous_id
    result["previous"] = previous_id
    total, cap, lost = await _gain(ctx, character.id, steps)
    roll_id = await ctx.log_roll(result, character_id=character.id, name=character.name)
    key = "sp.downgrade_lost" if lost else "sp.downgrade"
    text = t(
        ctx,
        key,
        name=character.name,
        roll=previous_id,
        n=steps,
        before=before,
        after=t(ctx, f"degree.{after_degree}"),
        gained=steps,
        total=total,
        cap=cap,
        lost=lost,
        id=roll_id,
    )
    await ctx.stlog(text, kind="story_points", result=result, character_id=character.id)
    return Reply(text=text, result=result)


# ---------------------------------------------------------------- conditions


DURATION_WORDS = {
    "scene": "scene",
    "night": "night",
    "resolved": "resolved",
    "until-resolved": "resolved",
    "until_resolved": "resolved",
    "untilresolved": "resolved",
}


async def _target_character(ctx: CommandContext, name: str | None) -> Character:
    """``name``'s character (a Storyteller, or its owner), or the caller's active one."""
    if name is None:
        return await require_active(ctx, SYSTEM)
    character = await _character_named(ctx, name)
    if character.owner_id != ctx.person.id and not ctx.storyteller:
        raise PermissionDenied(f"{character.name} is not yours: only a Storyteller changes another's sheet.")
    return character


def _duration(ctx: CommandContext, duration: str) -> str:
    return t(ctx, f"duration.{duration}")


async def cond_command(ctx: CommandContext, inv: Invocation) -> Reply:
    name = " ".join(inv.words) or None
    if name is not None and not ctx.storyteller:
        own = await find_character(ctx.session, SYSTEM, name)
        if own is None or own.owner_id != ctx.person.id:
            raise PermissionDenied("cond NAME shows another character's Conditions to Storytellers only.")
    character = await _target_character(ctx, name)
    data = sheet.load(character.sheet)
    items = [
        t(
            ctx,
            "cond.item_full",
            cname=c.name,
            duration=_duration(ctx, c.duration),
            penalty=c.penalty or "-",
            resolution=c.resolution or "-",
        )
        if (c.penalty or c.resolution)
        else t(ctx, "cond.item", cname=c.name, duration=_duration(ctx, c.duration))
        for c in data.conditions
    ]
    text = (
        t(ctx, "cond.list", name=character.name, items="; ".join(items))
        if items
        else t(ctx, "cond.none", name=character.name)
    )
    return Reply(
        text=text,
        result={
            "kind": "conditions",
            "system": SYSTEM,
            "character": character.name,
            "conditions": [c.model_dump() for c in data.conditions],
        },
    )


COND_ADD_USAGE = (
    "cond add NAME [scene|night|resolved] [penalty TEXT] [resolution TEXT] [for CHARACTER],"
    ' e.g. cond add Shaken scene penalty "Disadvantage on Composure rolls"'
)


def parse_condition(words: tuple[str, ...]) -> tuple[str, str, str, str, str | None]:
    """(name, duration, penalty, resolution, for-character) from ``cond add`` words."""
    if not words:
        raise UserError(f"Which Condition? Write {COND_ADD_USAGE}.")
    name = words[0].strip()
    duration: str | None = None
    texts: dict[str, list[str]] = {"penalty": [], "resolution": []}
    target: str | None = None
    segment: str | None = None
    rest = list(words[1:])
    i = 0
    while i < len(rest):
        word = rest[i]
        folded = word.casefold()
        if folded in ("penalty", "resolution"):
            segment = folded
        elif folded == "for":
            if i + 1 >= len(rest):
                raise UserError("for needs a character's name after it.")
            target = rest[i + 1]
            i += 1
            segment = None
        elif (
            segment is None
            and folded == "until"
            and i + 1 < len(rest)
            and rest[i + 1].casefold() == "resolved"
        ):
            duration = "resolved"
            i += 1
        elif segment is None and folded in DURATION_WORDS:
            if duration is not None:
                raise UserError("Give a Condition one duration: scene, night or resolved.")
            duration = DURATION_WORDS[folded]
        elif segment is not None:
            texts[segment].append(word)
        else:
            raise UserError(
                f"I cannot read {word[:40]!r} there. Write {COND_ADD_USAGE} (quote a name with spaces)."
            )
        i += 1
    return name, duration or "resolved", " ".join(texts["penalty"]), " ".join(texts["resolution"]), target


async def cond_add_command(ctx: CommandContext, inv: Invocation) -> Reply:
    name, duration, penalty, resolution, target = parse_condition(inv.words)
    character = await _target_character(ctx, target)
    assert character.id is not None
    character = await lock_character(ctx.session, character.id)
    data = sheet.load(character.sheet)
    if any(c.name.casefold() == name.casefold() for c in data.conditions):
        raise UserError(f"{character.name} already has the Condition {name}; resolve it first to change it.")
    try:
        condition = sheet.Condition(
            name=name,
            penalty=penalty,
            resolution=resolution,
            duration=duration,
            channel=ctx.channel.key,
            gained_at=ctx.now.isoformat(),
        )
    except ValueError:
        raise UserError(
            "A Condition's name is 1 to 60 characters; penalty and resolution up to 300."
        ) from None
    data = data.model_copy(update={"conditions": [*data.conditions, condition]})
    character.sheet = sheet.dump(data)
    character.updated_at = ctx.now
    ctx.session.add(character)
    if ctx.storyteller and character.owner_id != ctx.person.id:
        await ctx.audit(
            "decanter.condition_add",
            character_id=character.id,
            field_name="conditions",
            new=condition.model_dump(),
        )
    text = t(ctx, "cond.added", name=character.name, cname=name, duration=_duration(ctx, duration))
    await ctx.stlog(text, kind="condition", character_id=character.id)
    return Reply(
        text=text,
        result={
            "kind": "condition",
            "system": SYSTEM,
            "character": character.name,
            "added": condition.model_dump(),
        },
    )


async def cond_resolve_command(ctx: CommandContext, inv: Invocation) -> Reply:
    words = list(inv.words)
    target: str | None = None
    lowered = [w.casefold() for w in words]
    if "for" in lowered:
        at = lowered.index("for")
        target = " ".join(words[at + 1 :]) or None
        words = words[:at]
    if not words:
        raise UserError("Write cond resolve NAME [for CHARACTER].")
    name = " ".join(words)
    character = await _target_character(ctx, target)
    assert character.id is not None
    character = await lock_character(ctx.session, character.id)
    data = sheet.load(character.sheet)
    kept = [c for c in data.conditions if c.name.casefold() != name.casefold()]
    if len(kept) == len(data.conditions):
        raise UserError(f"{character.name} has no Condition called {name[:60]!r}.")
    gone = next(c for c in data.conditions if c.name.casefold() == name.casefold())
    character.sheet = sheet.dump(data.model_copy(update={"conditions": kept}))
    character.updated_at = ctx.now
    ctx.session.add(character)
    if ctx.storyteller and character.owner_id != ctx.person.id:
        await ctx.audit(
            "decanter.condition_resolve",
            character_id=character.id,
            field_name="conditions",
            old=gone.model_dump(),
        )
    text = t(ctx, "cond.resolved", name=character.name, cname=gone.name)
    await ctx.stlog(text, kind="condition", character_id=character.id)
    return Reply(
        text=text,
        result={
            "kind": "condition",
            "system": SYSTEM,
            "character": character.name,
            "resolved": gone.model_dump(),
        },
    )


async def end_period(ctx: CommandContext, durations: tuple[str, ...]) -> list[dict[str, Any]]:
    """Expire Conditions of ``durations`` gained in this channel, on every Decanter character."""
    expired_all: list[dict[str, Any]] = []
    for character in await state.characters_of(ctx.session, SYSTEM):
        conditions = (character.sheet or {}).get("conditions") or []
        if not conditions:
            continue
        kept, expired = mechanics.expire_conditions(conditions, ctx.channel.key, durations)
        if expired:
            character.sheet = {**character.sheet, "conditions": kept}
            character.updated_at = ctx.now
            ctx.session.add(character)
            expired_all += [{"character": character.name, **c} for c in expired]
    return expired_all


async def scene_end_command(ctx: CommandContext, inv: Invocation) -> Reply:
    return await _end(ctx, ("scene",), "scene")


async def night_end_command(ctx: CommandContext, inv: Invocation) -> Reply:
    return await _end(ctx, ("scene", "night"), "night")


async def _end(ctx: CommandContext, durations: tuple[str, ...], what: str) -> Reply:
    expired = await end_period(ctx, durations)
    items = ", ".join(t(ctx, "expired.item", cname=c["name"], name=c["character"]) for c in expired)
    text = t(ctx, f"{what}.end_expired", items=items) if expired else t(ctx, f"{what}.end")
    result = {"kind": f"{what}_end", "system": SYSTEM, "channel": ctx.channel.key, "expired": expired}
    await ctx.stlog(text, kind=f"{what}_end", result=result)
    return Reply(text=text, result=result)


# ---------------------------------------------------------------- extended contests


async def ext_command(ctx: CommandContext, inv: Invocation) -> Reply:
    words = list(inv.words)
    target_name: str | None = None
    lowered = [w.casefold() for w in words]
    if "for" in lowered:
        at = lowered.index("for")
        target_name = " ".join(words[at + 1 :]) or None
        words = words[:at]
    if target_name is not None:
        character: Character | None = await _target_character(ctx, target_name)
    else:
        character = await active_character(ctx, SYSTEM)
    who = character.name if character else ctx.name
    kind = f"ext:{roller_key(ctx, character)}"
    row = await scene.get(ctx.session, ctx.channel.key, SYSTEM, kind)
    if not words:
        if row is None:
            return Reply(
                text=t(ctx, "ext.none", name=who),
                result={"kind": "extended", "system": SYSTEM, "contest": None},
            )
        data = row.data
        if data.get("done"):
            text = t(
                ctx,
                "ext.show_done",
                name=who,
                total=data["total"],
                target=data["target"],
                degree=t(ctx, f"degree.{data['outcome']}"),
            )
        else:
            text = t(
                ctx,
                "ext.show",
                name=who,
                total=data["total"],
                target=data["target"],
                done=len(data["rolls"]),
                k=data["multiplier"],
            )
        return Reply(text=text, result={"kind": "extended", "system": SYSTEM, "contest": _ext_summary(data)})
    if len(words) == 1 and words[0].casefold() == "stop":
        if row is None:
            raise UserError(f"{who} has no extended contest here.")
        await ctx.session.delete(row)
        return Reply(
            text=t(ctx, "ext.stopped", name=who),
            result={"kind": "extended", "system": SYSTEM, "contest": None},
        )
    if len(words) < 2:
        raise UserError(
            "Write ext DC K: the DC (a number or a name) and how many rolls, 2 to 5,"
            " e.g. ext 4 3 or ext hard x2."
        )
    multiplier_word = words[-1].casefold().lstrip("x×")
    if not multiplier_word.isdigit() or not 2 <= int(multiplier_word) <= 5:
        raise UserError("An extended contest multiplies the DC by 2 to 5: write ext 4 3 or ext hard x2.")
    multiplier = int(multiplier_word)
    dc = parse_dc(words[:-1] if words[0].casefold() != "dc" else words[1:-1])
    if row is not None and not row.data.get("done"):
        raise UserError(f"{who} already has an extended contest here: ext stop calls it off.")
    data = {
        "id": secrets.token_hex(4),
        "dc": dc,
        "multiplier": multiplier,
        "target": mechanics.extended_target(dc, multiplier),
        "rolls": [],
        "total": 0,
        "done": False,
        "outcome": None,
        "started_by": ctx.identity.key,
        "started_at": ctx.now.isoformat(),
    }
    await scene.put(ctx.session, ctx.channel.key, SYSTEM, kind, data, ctx.now)
    text = t(ctx, "ext.started", name=who, dc=dc, k=multiplier, target=data["target"])
    await ctx.stlog(text, kind="extended", result=data, character_id=character.id if character else None)
    return Reply(text=text, result={"kind": "extended", "system": SYSTEM, "contest": _ext_summary(data)})


# ---------------------------------------------------------------- characters and sheets


async def char_new_command(ctx: CommandContext, inv: Invocation) -> Reply:
    name = " ".join(inv.words)
    if not name:
        raise UserError("Write char new NAME, e.g. char new Mira.")
    cap = decanter_settings(ctx.settings).story_point_cap
    character = await create_character(ctx, name, sheet.dump(sheet.DecanterSheet()), pools={SP: (0, cap)})
    return Reply(
        text=t(ctx, "char.created", name=character.name),
        result={"kind": "character", "system": SYSTEM, "character": character.name, "id": character.id},
    )


async def char_use_command(ctx: CommandContext, inv: Invocation) -> Reply:
    name = " ".join(inv.words)
    if not name:
        raise UserError("Write char use NAME.")
    character = await _character_named(ctx, name)
    if character.owner_id != ctx.person.id:
        raise PermissionDenied(f"{character.name} is not yours.")
    ctx.person.active_character_id = character.id
    ctx.session.add(ctx.person)
    return Reply(
        text=t(ctx, "char.used", name=character.name),
        result={"kind": "character", "system": SYSTEM, "character": character.name, "id": character.id},
    )


async def char_list_command(ctx: CommandContext, inv: Invocation) -> Reply:
    assert ctx.person.id is not None
    mine = await owned_characters(ctx.session, ctx.person.id, SYSTEM)
    if not mine:
        return Reply(
            text=t(ctx, "char.none"), result={"kind": "characters", "system": SYSTEM, "characters": []}
        )
    active = await active_character(ctx, SYSTEM)
    text = t(
        ctx,
        "char.list",
        names=", ".join(c.name for c in mine),
        active=active.name if active else t(ctx, "none"),
    )
    return Reply(
        text=text,
        private=True,
        result={"kind": "characters", "system": SYSTEM, "characters": [c.name for c in mine]},
    )


def _dots(values: dict[str, int], names: tuple[str, ...]) -> str:
    return ", ".join(f"{sheet.title(n)} {values[n]}" for n in names if values.get(n))


async def sheet_command(ctx: CommandContext, inv: Invocation) -> Reply:
    name = " ".join(inv.words) or None
    if name is None:
        character = await require_active(ctx, SYSTEM)
    else:
        character = await _character_named(ctx, name)
        if character.owner_id != ctx.person.id and not ctx.storyteller:
            raise PermissionDenied(f"{character.name}'s sheet is for its player and the Storytellers.")
    data = sheet.load(character.sheet)
    assert character.id is not None
    cap = decanter_settings(ctx.settings).story_point_cap
    await state.ensure_pool(ctx.session, character.id, SP, cap)
    current, maximum = await pool_value(ctx.session, character.id, SP) or (0, cap)
    none = t(ctx, "none")
    conditions = "; ".join(
        t(ctx, "cond.item", cname=c.name, duration=_duration(ctx, c.duration)) for c in data.conditions
    )
    text = t(
        ctx,
        "sheet",
        name=character.name,
        status=character.status,
        attributes=_dots(data.attributes, sheet.ATTRIBUTES),
        skills=_dots(data.skills, sheet.SKILLS) or none,
        specialties=", ".join(data.specialties) or none,
        sp=t(ctx, "sp.show", name=character.name, n=current, cap=maximum).rstrip("."),
        conditions=conditions or none,
    )
    result = {
        "kind": "sheet",
        "system": SYSTEM,
        "character": character.name,
        "status": character.status,
        "sheet": sheet.dump(data),
        "story_points": {"current": current, "cap": maximum},
    }
    return Reply(text=text, private=True, result=result)


SET_USAGE = "FIELD VALUE, with FIELD an Attribute or Skill (dots), specialties (a comma list) or notes"


async def _apply_set(
    ctx: CommandContext, character: Character, words: list[str], *, storyteller: bool
) -> Reply:
    if len(words) < 2:
        raise UserError(f"Write {'st set NAME ' if storyteller else 'set '}{SET_USAGE}.")
    field_word, value_words = words[0], words[1:]
    assert character.id is not None
    character = await lock_character(ctx.session, character.id)
    data = sheet.load(character.sheet)
    folded = field_word.casefold()
    old: Any
    new: Any
    if folded in ("sp", "story_points", "storypoints") and storyteller:
        cap = decanter_settings(ctx.settings).story_point_cap
        new = _int(value_words[0], "Story Points")
        if not 0 <= new <= cap:
            raise UserError(f"Story Points go from 0 to {cap}.")
        await state.ensure_pool(ctx.session, character.id, SP, cap)
        old, _ = await pool_value(ctx.session, character.id, SP) or (0, cap)
        await repo.gain_pool(ctx.session, character.id, SP, new - old)
        field = SP
    elif folded in ("notes", "note"):
        field, old, new = "notes", data.notes, " ".join(value_words)[:1000]
        data = data.model_copy(update={"notes": new})
    elif folded in ("specialties", "specialty", "specs"):
        new = [s.strip() for s in " ".join(value_words).split(",") if s.strip()]
        field, old = "specialties", data.specialties
        data = data.model_copy(update={"specialties": new})
    else:
        trait = sheet.match_trait(field_word)
        if trait is None:
            raise UserError(f"No field {field_word[:40]!r}. Write {SET_USAGE}.")
        if len(value_words) != 1:
            raise UserError(f"Write {sheet.title(trait)} as one number of dots.")
        value = _int(value_words[0], sheet.title(trait))
        data, old = sheet.set_trait(
            data, trait, value, sheet.STORYTELLER_MAX if storyteller else sheet.PLAYER_MAX
        )
        field, new = trait, value
    character.sheet = sheet.dump(data)
    character.updated_at = ctx.now
    ctx.session.add(character)
    await ctx.audit(
        "decanter.st_set" if storyteller else "decanter.set",
        character_id=character.id,
        field_name=field,
        old=old,
        new=new,
    )
    text = t(
        ctx,
        "set.done",
        name=character.name,
        field=field.replace("_", " ").title(),
        old=_show(old),
        new=_show(new),
    )
    if storyteller:
        await ctx.stlog(text, kind="edit", character_id=character.id)
    return Reply(
        text=text,
        result={
            "kind": "sheet_edit",
            "system": SYSTEM,
            "character": character.name,
            "field": field,
            "old": old,
            "new": new,
        },
    )


def _show(value: Any) -> str:
    if isinstance(value, list):
        return ", ".join(value) or "-"
    return str(value) if value not in (None, "") else "-"


async def set_command(ctx: CommandContext, inv: Invocation) -> Reply:
    character = await require_active(ctx, SYSTEM)
    if character.status == "approved":
        raise UserError(
            f"{character.name}'s sheet is approved and locked; a Storyteller can change it with st set."
        )
    return await _apply_set(ctx, character, list(inv.words), storyteller=False)


async def st_set_command(ctx: CommandContext, inv: Invocation) -> Reply:
    words = list(inv.words)
    if len(words) < 3:
        raise UserError(f"Write st set NAME {SET_USAGE} (quote a name with spaces).")
    character = await _character_named(ctx, words[0])
    return await _apply_set(ctx, character, words[1:], storyteller=True)


async def st_approve_command(ctx: CommandContext, inv: Invocation) -> Reply:
    name = " ".join(inv.words)
    if not name:
        raise UserError("Write st approve NAME.")
    character = await _character_named(ctx, name)
    old = character.status
    character.status = "approved"
    character.updated_at = ctx.now
    ctx.session.add(character)
    await ctx.audit(
        "decanter.approve", character_id=character.id, field_name="status", old=old, new="approved"
    )
    text = t(ctx, "approved", name=character.name)
    await ctx.stlog(text, kind="edit", character_id=character.id)
    return Reply(
        text=text,
        result={"kind": "character", "system": SYSTEM, "character": character.name, "status": "approved"},
    )
