"""Nightcap's ``odds``: exact chances of a roll or a contest, with wounds, Willpower and powers."""

from __future__ import annotations

from fractions import Fraction
from functools import partial
from typing import Any

from gateway import CommandContext, CommandSet, Invocation, Offloaded, Reply, UserError
from gateway.core.web_tool import house_query
from gateway.features.characters import active_character, find_character
from gateway.rules.chart_link import chart_link
from gateway.rules.house_rules import odds_note
from plugins.nightcap import odds, odds_chart
from plugins.nightcap import params as P
from plugins.nightcap.config import SYSTEM
from plugins.nightcap.conflict_commands import damage_of
from plugins.nightcap.house import dice, house
from plugins.nightcap.pools import parse_roll
from plugins.nightcap.sides import Built, character_side, pool_words
from plugins.nightcap.words import split_opponent

COMMANDS = CommandSet(SYSTEM)
ODDS_USAGE = (
    "odds POOL [+N|-N] [wp] [vs [NAME] POOL [+N|-N] [wp]], e.g. odds 5, odds physical +1 wp, odds 6 vs 4,"
    " odds social vs Dorian mental"
)


def percent(p: Fraction | float) -> str:
    value = float(p)
    if p == 0:
        return "0%"
    if p == 1:
        return "100%"
    if value < 0.001:
        return "<0.1%"
    if value > 0.999:
        return ">99.9%"
    return f"{value * 100:.1f}%"


def _odds_text(label: str, o: odds.RollOdds) -> str:
    degrees = " · ".join(f"{name.title()} {percent(p)}" for name, p in o.degrees.items())
    return f"{label}: {degrees} · at least 1: {percent(o.at_least_one)}"


def _side_label(built: Built) -> str:
    wp = " wp" if built.side.spec.willpower else ""
    label = built.label
    return f"{label} ({pool_words(built.pool)}){wp}" if label else f"{pool_words(built.pool)}{wp}"


def _single(pool: int, willpower: bool, switches: dict[str, bool]) -> tuple[odds.RollOdds, dict[str, Any]]:
    """In an offload worker: a roll's odds, and its result fields (exact fractions as text, whose
    decimal conversion is no work for the event loop). ``switches``: the dice's house rules."""
    chances = odds.roll_odds(pool, willpower, **switches)
    return chances, chances.as_result()


def _contest(
    left_pool: int, left_wp: bool, right_pool: int, right_wp: bool, switches: dict[str, bool]
) -> tuple[odds.ContestOdds, dict[str, Any]]:
    """In an offload worker: both sides' odds and the contest's, and its result fields."""
    contest = odds.contest_odds(
        odds.roll_odds(left_pool, left_wp, **switches), odds.roll_odds(right_pool, right_wp, **switches)
    )
    return contest, contest.as_result()


def _odds_note(ctx: CommandContext) -> str:
    rules = house(ctx)
    return odds_note(ctx.locale, rules, rules.dice())


@COMMANDS.command("odds", "exact odds of a roll or a contest", ODDS_USAGE, role="anyone", params=P.ODDS)
async def odds_command(ctx: CommandContext, inv: Invocation) -> Offloaded[Any]:
    """Reads the sides here; the odds are worked out off the event loop (``gateway.core.offload``)."""
    words, opponent_name = split_opponent(inv.words)
    request = parse_roll(words)
    character = await active_character(ctx, SYSTEM)
    damage = await damage_of(ctx.session, character) if character else 0
    left = character_side(ctx, request.sides[0], character, damage)
    result: dict[str, Any] = {"kind": "odds", "system": SYSTEM, "contest": False}
    switches, ruled = dice(ctx), _odds_note(ctx)
    on_page = house_query(house(ctx), switches)  # the practice table's switches, for its link
    if len(request.sides) == 1:

        def render_single(computed: tuple[odds.RollOdds, dict[str, Any]]) -> Reply:
            left_odds, data = computed
            result.update(data)
            result.update(left.extras())
            result["chart"] = odds_chart.single_chart(
                ctx.locale, left_odds.pool, left_odds.chance_die, dict(left_odds.degrees)
            )
            text = "Odds for " + _odds_text(_side_label(left), left_odds) + ruled
            # The book's practice table has no Willpower; it takes the channel's dice switches.
            if not left.side.spec.willpower:
                text += chart_link(ctx.settings, ctx.locale, "roller", on_page, pool=left.pool)
            return Reply(text=text, private=request.secret, result=result)

        return Offloaded(partial(_single, left.pool, left.side.spec.willpower, switches), render_single)
    spec = request.sides[1]
    other = character  # vs TRAIT: the caller's own trait, as in roll
    if opponent_name is not None:
        other = await find_character(ctx.session, SYSTEM, opponent_name)
        if other is None:
            raise UserError(
                f"No Nightcap character called {opponent_name[:60]}: write vs NAME TRAIT or vs 4."
            )
    right = character_side(ctx, spec, other, await damage_of(ctx.session, other) if other else 0)

    def render_contest(computed: tuple[odds.ContestOdds, dict[str, Any]]) -> Reply:
        contest, data = computed
        data["sides"][0].update(left.extras())
        data["sides"][1].update(right.extras())
        result.update(
            contest=True, degrees=data["sides"][0]["degrees"], totals=data["sides"][0]["totals"], **data
        )
        result["chart"] = odds_chart.contest_chart(
            ctx.locale,
            (
                (contest.left.pool, contest.left.chance_die, dict(contest.left.degrees)),
                (contest.right.pool, contest.right.chance_die, dict(contest.right.degrees)),
            ),
            dict(contest.outcomes),
            {side: dict(bands) for side, bands in contest.margins.items()},
        )

        def wins(side: str) -> str:
            bands = ", ".join(f"{b} {percent(p)}" for b, p in contest.margins[side].items())
            return f"{percent(contest.outcomes[side])} ({bands})"

        text = (
            f"Odds {_side_label(left)} vs {_side_label(right)}: left wins {wins('left')} · right wins"
            f" {wins('right')} · deadlock {percent(contest.outcomes['deadlock'])} · both botch"
            f" {percent(contest.outcomes['both_botch'])}{ruled}"
        )
        if not (left.side.spec.willpower or spec.willpower):
            text += chart_link(ctx.settings, ctx.locale, "roller", on_page, pool=left.pool, opp=right.pool)
        return Reply(text=text, private=request.secret, result=result)

    compute = partial(_contest, left.pool, left.side.spec.willpower, right.pool, spec.willpower, switches)
    return Offloaded(compute, render_contest)
