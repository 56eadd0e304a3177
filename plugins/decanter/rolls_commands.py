"""Decanter's rolls and their odds: a pool against a DC, an NPC or an extended contest (with dice
qualities, Take Half and aid), and contests between characters."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from functools import partial
from typing import Any

from gateway import CommandContext, CommandSet, Invocation, Offloaded, Reply, UserError
from gateway.core.web_tool import house_query, in_locale
from gateway.features.characters import active_character, find_character
from gateway.rules.chart_link import chart_link
from gateway.rules.charts import contest_chart
from gateway.vault.models import Character
from plugins.decanter import extended_commands, mechanics, odds, web_tools
from plugins.decanter.house import WEB_HOUSE, house, mark, odds_note
from plugins.decanter.mechanics import SYSTEM
from plugins.decanter.messages import t
from plugins.decanter.parse import OPPONENT_USAGE, ROLL_USAGE, Opponent, RollRequest, parse_roll
from plugins.decanter.render import (
    against_text,
    aid_text,
    conditions_text,
    dice_text,
    faces_text,
    outcome_text,
    quality_text,
)
from plugins.decanter.rolls import (
    RollSummary,
    Side,
    half_check,
    noted,
    percent_text,
    resolve_pool,
    roll_odds,
    rollable,
    with_conditions,
)

COMMANDS = CommandSet(SYSTEM)
ODDS_USAGE = ROLL_USAGE.replace("roll ", "odds ")  # its examples too


async def _opponent(
    ctx: CommandContext, opponent: Opponent, roller: Character | None, usage: str = ROLL_USAGE
) -> tuple[Character | None, Side]:
    """The other side of a contest: a character named first (with more words after it), or a pool.
    Never the roller's own character: the book's "PC vs. PC" is "two PCs roll dice against each other"."""
    other: Character | None = None
    if len(opponent.words) > 1:
        other = await find_character(ctx.session, SYSTEM, opponent.words[0])
    if other is not None and roller is not None and other.id == roller.id:
        raise UserError(
            f"{roller.name} cannot roll against {roller.name}: a contest is two characters. Name the other"
            f" one, or give their pool: {OPPONENT_USAGE}."
        )
    _, expr = opponent.split(other is not None)
    sheet = other.sheet if other is not None else None
    side = with_conditions(expr, resolve_pool(expr, sheet, "they"), sheet, opponent.qualities)
    rollable(side, expr, usage)
    return other, side


@COMMANDS.command(
    "roll", "roll Attribute + Skill against a DC, an NPC or another character", ROLL_USAGE, role="anyone"
)
async def roll_command(ctx: CommandContext, inv: Invocation) -> Reply | list[Reply]:
    request = parse_roll(inv.words)
    character = await active_character(ctx, SYSTEM)
    who = character.name if character else ctx.name
    sheet = character.sheet if character is not None else None
    side = with_conditions(request.pool, resolve_pool(request.pool, sheet), sheet, request.qualities)
    rollable(side, request.pool, ROLL_USAGE)
    base = side.pool
    if request.opponent is not None:
        return await _contest(ctx, request, character, who, side)
    ext_row = None
    if request.ext:
        ext_row = await extended_commands.running(ctx, character, who)
        if request.dc is not None or request.npc is not None:
            raise UserError("An extended roll takes its DC from the contest: leave dc and vs out.")
    dc = request.dc
    npc_pool: int | None = None
    if request.npc is not None:
        if dc is not None:
            raise UserError("Against an NPC the DC comes from its pool: write vs npc 6 without dc.")
        npc_pool = max(request.npc.number(), 0)
        dc = mechanics.npc_dc(npc_pool)
    if ext_row is not None:
        dc = int(ext_row.data["dc"])
    if dc is None:
        raise UserError(
            "Which DC? Write roll 3+2 dc 4, roll 5 dc hard, or roll 5 vs npc 6 (names: easy, routine,"
            " challenging, formidable, hard, very hard, almost impossible, superhuman)."
        )
    half_check(request.half, side)
    # Helpers roll first: their successes become the bonus dice of this roll.
    rules = house(ctx)
    helpers = [mechanics.aid(pool, ctx.dice, npc=npc, **rules.dice()) for pool, npc in request.aids]
    bonus = mechanics.aid_bonus(helpers, rules.aid_cap)
    pool = max(base.dice, 0) + bonus
    if pool > ctx.settings.gateway.max_pool:
        raise UserError(f"A pool of {pool} is above the maximum of {ctx.settings.gateway.max_pool} dice.")
    roll = mechanics.roll(
        pool,
        ctx.dice,
        dc=dc,
        quality=side.quality,
        half=request.half,
        force=request.force,
        automatic_success=rules.automatic_success,
        **rules.dice(),
    )
    result = roll.as_result()
    marked = mark(ctx, result, roll)
    result.update(
        who=who,
        base_pool=base.dice,
        label=base.label,
        qualities=list(request.qualities),
        conditions=side.conditions(),
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
    if ext_row is not None:
        result["extended"] = extended_commands.advance(ctx, ext_row, roll.successes)

    def line(roll_id: str) -> str:
        return noted(roll_line(ctx, who, roll, result, roll_id), roll_id, marked)

    return await _logged(ctx, request, character, who, result, line)


async def _logged(
    ctx: CommandContext,
    request: RollRequest,
    character: Character | None,
    who: str,
    result: dict[str, Any],
    line: Callable[[str], str],
) -> Reply:
    """Log the roll, then its line (which ends with the roll's id) to the Storyteller log too."""
    char_id = character.id if character else None
    text = line(await ctx.log_roll(result, character_id=char_id, name=who))
    await ctx.stlog(
        ("(secret) " if request.secret else "") + text, kind="roll", result=result, character_id=char_id
    )
    return Reply(text=text, private=request.secret, result=result)


def roll_line(
    ctx: CommandContext, who: str, roll: mechanics.Roll, result: dict[str, Any], roll_id: str
) -> str:
    helpers = [mechanics.Aid(a["pool"], a["npc"], tuple(a["dice"]), a["successes"]) for a in result["aid"]]
    common = {
        "who": who,
        "dice": dice_text(ctx, roll.pool, result["label"] if not result["bonus_dice"] else ""),
        "quality": quality_text(ctx, roll.quality) + conditions_text(ctx, result.get("conditions", ())),
        "against": against_text(ctx, int(result["dc"]), result.get("npc_pool"), result.get("extended")),
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
        text = f"{text} {extended_commands.progress_text(ctx, ext)}"
    return text


async def _contest(
    ctx: CommandContext, request: RollRequest, character: Character | None, who: str, left: Side
) -> Reply:
    opponent = request.opponent
    assert opponent is not None
    if request.dc is not None or request.half or request.force or request.aids or request.ext:
        raise UserError(
            "A contest between characters has no DC, Take Half, force, aid or ext: write roll POOL vs POOL."
        )
    other, right_side = await _opponent(ctx, opponent, character)
    base, right = left.pool, right_side.pool
    max_pool = ctx.settings.gateway.max_pool
    for dice in (base.dice, right.dice):
        if dice > max_pool:
            raise UserError(f"A pool of {dice} is above the maximum of {max_pool} dice.")
    outcome = mechanics.contest(
        base.dice,
        right.dice,
        ctx.dice,
        left_quality=left.quality,
        right_quality=right_side.quality,
        **house(ctx).dice(),
    )
    right_name = other.name if other is not None else t(ctx, "opponent")
    result = outcome.as_result()
    result["who"] = who
    result["secret"] = request.secret
    marked = mark(ctx, result, *outcome.sides)
    for side, name_, pool, qualities, taken in (
        (result["sides"][0], who, base, request.qualities, left),
        (result["sides"][1], right_name, right, opponent.qualities, right_side),
    ):
        side.update(
            who=name_,
            label=pool.label,
            base_pool=pool.dice,
            qualities=list(qualities),
            conditions=taken.conditions(),
        )

    def line(roll_id: str) -> str:
        sides_text = [
            t(
                ctx,
                "contest.side",
                name=name_,
                dice=dice_text(ctx, roll.pool, pool.label),
                quality=quality_text(ctx, roll.quality) + conditions_text(ctx, taken.conditions()),
                faces=faces_text(ctx, roll),
                n=roll.successes,
            )
            for name_, roll, pool, taken in (
                (who, outcome.sides[0], base, left),
                (right_name, outcome.sides[1], right, right_side),
            )
        ]
        if outcome.winner is None:
            text = t(ctx, "contest.unbroken", left=sides_text[0], right=sides_text[1], id=roll_id)
            return noted(text, roll_id, marked)
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
        return noted(text, roll_id, marked)

    return await _logged(ctx, request, character, who, result, line)


# ---------------------------------------------------------------- odds


@COMMANDS.command(
    "odds", "exact odds of a roll, with qualities, Take Half and aid", ODDS_USAGE, role="anyone"
)
async def odds_command(ctx: CommandContext, inv: Invocation) -> Offloaded[Any]:
    """Reads the pools here; the odds are worked out off the event loop (``gateway.core.offload``)."""
    request = parse_roll(inv.words)
    character = await active_character(ctx, SYSTEM)
    sheet = character.sheet if character is not None else None
    side = with_conditions(request.pool, resolve_pool(request.pool, sheet), sheet, request.qualities)
    rollable(side, request.pool, ODDS_USAGE)
    base = side.pool
    max_pool = ctx.settings.gateway.max_pool
    if request.opponent is not None:
        _, right_side = await _opponent(ctx, request.opponent, character, ODDS_USAGE)
        right = right_side.pool
        if max(base.dice, right.dice) > max_pool:
            raise UserError(f"Odds stop at pools of {max_pool} dice.")
        left_text = (
            dice_text(ctx, max(base.dice, 0), base.label)
            + quality_text(ctx, side.quality)
            + conditions_text(ctx, side.conditions())
        )
        right_text = (
            dice_text(ctx, max(right.dice, 0), right.label)
            + quality_text(ctx, right_side.quality)
            + conditions_text(ctx, right_side.conditions())
        )

        def render_contest(chances: odds.ContestOdds) -> Reply:
            text = t(
                ctx,
                "odds.contest",
                left=left_text,
                right=right_text,
                win=percent_text(chances.left),
                lose=percent_text(chances.right),
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
                "chart": contest_chart(
                    ctx.locale,
                    in_locale(web_tools.TITLE, ctx.locale),
                    float(chances.left),
                    float(chances.right),
                    float(chances.unbroken),
                ),
            }
            return Reply(text=text + odds_note(ctx), private=True, result=result)

        contest = partial(
            odds.contest_odds, base.dice, right.dice, side.quality, right_side.quality, **house(ctx).dice()
        )
        return Offloaded(contest, render_contest)
    half_check(request.half, side)
    dc = request.dc
    npc_pool = None
    if request.npc is not None:
        npc_pool = max(request.npc.number(), 0)
        dc = mechanics.npc_dc(npc_pool)
    pool = max(base.dice, 0)
    helpers_max = sum(p if not npc else p // 2 for p, npc in request.aids)
    if pool + min(helpers_max, house(ctx).aid_cap) > max_pool or any(p > max_pool for p, _ in request.aids):
        raise UserError(f"Odds stop at pools of {max_pool} dice.")
    single = partial(
        roll_odds,
        pool,
        ctx.locale,
        dc=dc,
        quality=side.quality,
        half=request.half,
        force=request.force,
        helpers=request.aids,
        aid_cap=house(ctx).aid_cap,
        automatic_success=house(ctx).automatic_success,
        **house(ctx).dice(),
    )
    aid = ""
    if request.aids:
        aid = f" + aid ({', '.join(('npc ' if npc else '') + str(p) for p, npc in request.aids)})"
    dice = dice_text(ctx, pool, base.label)
    quality = quality_text(ctx, side.quality) + conditions_text(ctx, side.conditions())
    against = against_text(ctx, dc, npc_pool) if dc is not None else ""

    # The web's chart has the pool, the DC and the quality (no aid, Take Half or NPC reading).
    plain = not (request.aids or request.half or request.force) and dc is not None
    link = (
        chart_link(
            ctx.settings,
            ctx.locale,
            "decanter",
            house_query(house(ctx), WEB_HOUSE),
            pool=pool,
            dc=dc,
            quality=side.quality,
        )
        if plain
        else ""
    )

    def render(chances: RollSummary) -> Reply:
        result: dict[str, Any] = {
            "kind": "odds",
            "system": SYSTEM,
            "pool": pool,
            "dc": dc,
            "quality": mechanics.QUALITY_NAMES[side.quality],
            "conditions": side.conditions(),
            "take_half": request.half,
            "successes": chances.successes,
            "degrees": {k: float(v) for k, v in chances.degrees.items()},
            "mean": chances.mean,
            "chart": chances.chart,
        }
        if dc is None:
            spread = ", ".join(
                t(ctx, "odds.at_least", k=k, p=percent_text(p)) for k, p in enumerate(chances.at_least, 1)
            )
            text = t(
                ctx,
                "odds.plain",
                dice=dice,
                quality=quality,
                aid=aid,
                spread=spread or "0",
                mean=f"{chances.mean:.2f}",
            )
            return Reply(text=text + odds_note(ctx), private=True, result=result)
        if chances.degrees.get("automatic") == 1:
            text = t(ctx, "odds.automatic", dice=dice, quality=quality, against=against)
        else:
            d = chances.degrees
            text = t(
                ctx,
                "odds.degrees",
                dice=dice,
                quality=quality,
                against=against,
                aid=aid,
                botch=percent_text(d.get("botch", Fraction(0))),
                setback=percent_text(d.get("setback", Fraction(0))),
                success=percent_text(d.get("success", Fraction(0)) + d.get("automatic", Fraction(0))),
                extra=percent_text(d.get("extra", Fraction(0))),
                mean=f"{chances.mean:.2f}",
            )
        # The link carries the channel's dice switches (aid_cap only matters with aid: no link then).
        return Reply(text=text + odds_note(ctx) + link, private=True, result=result)

    return Offloaded(single, render)
