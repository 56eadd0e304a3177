"""Dramatic Systems' rolls (Willpower, specialty, retries, resisted), their odds, and the end of a scene."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import partial
from typing import Any

from gateway import CommandContext, CommandSet, Invocation, Offloaded, Reply, UserError, faces
from gateway.core import scene
from gateway.core.i18n import percent
from gateway.core.web_tool import house_query, in_locale
from gateway.features.characters import active_character, find_character
from gateway.rules.chart_link import chart_link
from gateway.rules.charts import chart_result, contest_chart
from gateway.rules.dots_sheet import trait_title
from gateway.rules.house_rules import changed_result, note, odds_note
from gateway.vault import repo
from gateway.vault.models import Character, SceneState
from plugins.dramatic import mechanics, odds, retries, store, web_tools
from plugins.dramatic.abilities import PRIMARY, Substitution, kind_of, secondary_key, substitute
from plugins.dramatic.house import WEB_HOUSE, DramaticHouseRules
from plugins.dramatic.mechanics import SYSTEM
from plugins.dramatic.messages import t
from plugins.dramatic.parse import OPPONENT_USAGE, ROLL_USAGE, RollRequest, SideRequest, parse_roll
from plugins.dramatic.pools import ReadPool, read_pool
from plugins.dramatic.sheet import SCHEMA, WP

COMMANDS = CommandSet(SYSTEM)
ODDS_USAGE = ROLL_USAGE.replace("roll ", "odds ")  # its examples too
SCENE_MARKER = "* * *"


@dataclass(frozen=True)
class Side:
    """One side's pool, read against its sheet, and the book's substitution if the roll asks one."""

    pool: ReadPool
    substitution: Substitution | None

    @property
    def dice(self) -> int:
        return self.pool.dice

    @property
    def label(self) -> str:
        return self.pool.label

    @property
    def adjustment(self) -> int:
        return self.substitution.adjustment if self.substitution else 0

    @property
    def action(self) -> str:
        """What makes two rolls one action: the pool, and the Ability it stands in for."""
        stated = self.substitution.stated if self.substitution else ""
        return f"{self.pool.action} for {stated}" if stated else self.pool.action


def read_side(
    ctx: CommandContext,
    side: SideRequest,
    character: Character | None,
    skip_name: bool,
    who: str = "you",
    usage: str = ROLL_USAGE,
) -> Side:
    """The pool of ``side`` from ``character``'s sheet, its substitution, and the pool's bounds checked:
    the book rolls "a number of d10's equal to your dice pool", so a pool of no dice is refused, not
    rolled as nothing."""
    sheet = SCHEMA.load(character.sheet) if character is not None else None
    expr = side.pool(skip_name)
    pool = read_pool(expr, sheet, who)
    max_pool = ctx.settings.gateway.max_pool
    if pool.dice > max_pool:
        raise UserError(f"A pool of {pool.dice} is above the maximum of {max_pool} dice.")
    if pool.dice < 1:
        shown = pool.label or expr.text
        raise UserError(f"A pool needs at least one die; {shown[:60]} makes {pool.dice}. Write {usage}.")
    substitution = None
    if side.stated is not None:
        kind = kind_of(side.stated)
        stated = (SCHEMA.match_trait(side.stated) or "") if kind == PRIMARY else secondary_key([side.stated])
        substitution = substitute(stated, kind, pool.abilities)
    return Side(pool, substitution)


def dice_text(ctx: CommandContext, pool: int, label: str) -> str:
    if label:
        return t(ctx, "dice.labelled", label=label, n=max(pool, 0))
    return t(ctx, "dice", n=max(pool, 0))


def difficulty_text(
    ctx: CommandContext, difficulty: int, asked: int, base: int, failures: int, side: Side | None = None
) -> str:
    """``difficulty 7``, or with what changed it: a substitution, retries, a clamp."""
    changes = []
    if side is not None and side.substitution is not None:
        sub = side.substitution
        used, stated = trait_title(sub.used), trait_title(sub.stated)
        changes.append(t(ctx, "change.substitution", adj=sub.adjustment, used=used, stated=stated))
    if failures:
        changes.append(t(ctx, "change.retry", failures=failures))
    if changes:
        return t(ctx, "difficulty.adjusted", d=difficulty, base=base, changes=", ".join(changes))
    if asked != difficulty:
        return t(ctx, "difficulty.clamped", d=difficulty, asked=asked)
    return t(ctx, "difficulty", d=difficulty)


def lacking_text(ctx: CommandContext, side: Side) -> str:
    """The book: "If you don't have the ability at all, then consult the Lack of Ability guidelines"
    (which it does not give): the roll says so, for the Storyteller to rule."""
    if not side.pool.lacking:
        return ""
    return t(ctx, "lacking", names=" and ".join(trait_title(a) for a in side.pool.lacking))


def body(ctx: CommandContext, roll: mechanics.Roll) -> dict[str, str]:
    return {
        "faces": faces(roll.original) or t(ctx, "faces.none"),
        "extra": t(ctx, "specialty", extra=faces(roll.extra)) if roll.extra else "",
        "wp": t(ctx, "willpower") if roll.willpower else "",
    }


def house(ctx: CommandContext) -> DramaticHouseRules:
    return ctx.house_rules(DramaticHouseRules)


def asked_difficulty(ctx: CommandContext, side: SideRequest) -> int:
    """The difficulty a side asked for: its own, or the channel's default (a house rule whose own
    default is ``[dramatic] default_difficulty``)."""
    return side.difficulty if side.difficulty is not None else house(ctx).default_difficulty


def _reader(roll: mechanics.Roll, act_default: Attempt | None) -> Callable[[DramaticHouseRules], Hashable]:
    """How ``roll``'s dice read under other switches (for ``changed_result``). ``act_default``: the
    attempt, when its difficulty came from the default, which a switch then moves."""
    tens = 10 in roll.original

    def read(rules: DramaticHouseRules) -> Hashable:
        difficulty = roll.difficulty
        if act_default is not None:
            base = mechanics.clamp_difficulty(rules.default_difficulty)
            difficulty = mechanics.retry_difficulty(
                base + act_default.side.adjustment, act_default.retry.failures
            )
        extra = roll.extra
        if not mechanics.explodes(rules.tens_explode, roll.specialty):
            extra = ()
        elif tens and not extra:
            return "dice not rolled"  # these switches would have rolled more dice
        dice = rules.dice()
        del dice["tens_explode"]
        again = mechanics.score(
            roll.pool,
            difficulty,
            roll.original,
            extra,
            willpower=roll.willpower,
            specialty=roll.specialty,
            **dice,
        )
        return again.successes, again.degree

    return read


def house_note(
    ctx: CommandContext, rolls: list[tuple[mechanics.Roll, Attempt | None]]
) -> tuple[str, list[str]]:
    """The roll line's note naming the house rules that changed these rolls, and their names."""
    rules = house(ctx)
    names: list[str] = []
    for roll, act in rolls:
        names += [n for n in changed_result(rules, _reader(roll, act)) if n not in names]
    return note(ctx.locale, rules, names), names


async def _opponent_character(
    ctx: CommandContext, side: SideRequest, roller: Character | None
) -> Character | None:
    """The character named first on the defender's side, if any; never the roller itself (the book:
    "Resisted rolls: Two characters roll")."""
    if len(side.words) < 2:
        return None
    other = await find_character(ctx.session, SYSTEM, side.words[0])
    if other is not None and roller is not None and other.id == roller.id:
        raise UserError(
            f"{roller.name} cannot resist {roller.name}: a resisted roll is two characters. Name the"
            f" other one, or give the defender's pool: {OPPONENT_USAGE}."
        )
    return other


@dataclass(frozen=True)
class Attempt:
    """The attacker's side of a roll with its difficulty worked out (retries and substitution)."""

    side: Side
    request: SideRequest
    asked: int
    base: int
    difficulty: int
    retry: retries.Retry
    row: SceneState | None  # the retry record's row


async def attempt(
    ctx: CommandContext,
    request: RollRequest,
    character: Character | None,
    who: str,
    *,
    lock: bool,
    usage: str = ROLL_USAGE,
) -> Attempt:
    plan, row = await store.plan(ctx, request.side, request.retry, character, who, lock)
    side_request = plan.side
    side = read_side(ctx, side_request, character, False, usage=usage)
    if plan.base is not None:
        assert plan.recorded is not None
        retries.check_same(who, plan.recorded, side.action, side_request)
        asked = base = plan.base
    else:
        asked = asked_difficulty(ctx, side_request)
        base = mechanics.clamp_difficulty(asked)
    difficulty = mechanics.retry_difficulty(base + side.adjustment, plan.failures)
    return Attempt(side, side_request, asked, base, difficulty, plan, row)


@COMMANDS.command(
    "roll", "roll a pool against a difficulty, or a resisted roll with vs", ROLL_USAGE, role="anyone"
)
async def roll_command(ctx: CommandContext, inv: Invocation) -> Reply:
    request = parse_roll(inv.words)
    character = await active_character(ctx, SYSTEM)
    who = character.name if character else ctx.name
    act = await attempt(ctx, request, character, who, lock=True)
    left, failures = act.side, act.retry.failures
    char_id = character.id if character else None
    willpower, specialty = act.request.willpower, act.request.specialty
    if willpower:
        if character is None or char_id is None:
            raise UserError("Willpower needs a character: make one with char new NAME, or roll without wp.")
        # Declared before the roll: spent before any die is shown.
        if not await repo.spend_pool(ctx.session, char_id, WP, 1):
            raise UserError(f"{character.name} has no Willpower left to spend.")
    if request.opponent is not None:
        return await _resisted(ctx, request.opponent, character, who, act, request)
    roll = mechanics.roll(
        left.dice, act.difficulty, ctx.dice, willpower=willpower, specialty=specialty, **house(ctx).dice()
    )
    noted, changed = house_note(ctx, [(roll, _default_attempt(act))])
    result = roll.as_result()
    if changed:
        result["house_rules"] = {n: getattr(house(ctx), n) for n in changed}
    result.update(
        who=who,
        label=left.label,
        requested_difficulty=act.asked,
        base_difficulty=act.base,
        retry=failures,
        substitution=left.adjustment,
        lacking=list(left.pool.lacking),
        reflex=act.request.reflex,
        secret=request.secret,
    )
    if character is not None:
        result["character"] = character.name
    if not act.request.reflex:  # the book: "Reflex" rolls don't count as actions
        await store.record(ctx, character, act.row, act.retry, roll.degree, who, act.base, left.action)
    roll_id = await ctx.log_roll(result, character_id=char_id, name=who)
    text = t(
        ctx,
        "roll.line",
        who=who,
        dice=dice_text(ctx, left.dice, left.label),
        difficulty=difficulty_text(ctx, act.difficulty, act.asked, act.base, failures, left),
        lacking=lacking_text(ctx, left) + (t(ctx, "reflex") if act.request.reflex else ""),
        outcome=t(ctx, "outcome", n=roll.successes, degree=t(ctx, f"degree.{roll.degree}")) + noted,
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
    act: Attempt,
    request: RollRequest,
) -> Reply:
    other = await _opponent_character(ctx, opponent, character)
    left = act.side
    right = read_side(ctx, opponent, other, other is not None, "they")
    right_asked = asked_difficulty(ctx, opponent)
    right_base = mechanics.clamp_difficulty(right_asked)
    right_difficulty = mechanics.clamp_difficulty(right_base + right.adjustment)
    switches = house(ctx).dice()
    attacker = mechanics.roll(
        left.dice,
        act.difficulty,
        ctx.dice,
        willpower=act.request.willpower,
        specialty=act.request.specialty,
        **switches,
    )
    defender = mechanics.roll(
        right.dice, right_difficulty, ctx.dice, specialty=opponent.specialty, **switches
    )
    outcome = mechanics.resist(attacker, defender)
    right_name = other.name if other is not None else t(ctx, "opponent")
    # The defender's difficulty is moved by the default only when it named none and has no adjustment.
    noted, changed = house_note(ctx, [(attacker, _default_attempt(act)), (defender, None)])
    result = outcome.as_result()
    if changed:
        result["house_rules"] = {n: getattr(house(ctx), n) for n in changed}
    result["who"] = who
    result["secret"] = request.secret
    for part, name, pool, wanted in (
        (result["sides"][0], who, left, act.asked),
        (result["sides"][1], right_name, right, right_asked),
    ):
        part.update(
            who=name,
            label=pool.label,
            requested_difficulty=wanted,
            substitution=pool.adjustment,
            lacking=list(pool.pool.lacking),
        )
    char_id = character.id if character else None
    roll_id = await ctx.log_roll(result, character_id=char_id, name=who)
    sides = [
        t(
            ctx,
            "side",
            name=name,
            dice=dice_text(ctx, roll.pool, pool.label),
            difficulty=difficulty_text(ctx, roll.difficulty, wanted, base, 0, pool),
            lacking=lacking_text(ctx, pool),
            n=roll.successes,
            **body(ctx, roll),
        )
        for name, roll, pool, wanted, base in (
            (who, attacker, left, act.asked, act.base),
            (right_name, defender, right, right_asked, right_base),
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
    if noted:
        text = f"{text.removesuffix(f' #{roll_id}')}{noted} #{roll_id}"
    await ctx.stlog(
        ("(secret) " if request.secret else "") + text, kind="roll", result=result, character_id=char_id
    )
    return Reply(text=text, private=request.secret, result=result)


def _default_attempt(act: Attempt) -> Attempt | None:
    """``act`` when its difficulty is the channel's default (it named none, and no retry fixed it)."""
    return act if act.request.difficulty is None and act.retry.base is None else None


def _odds_note(ctx: CommandContext) -> str:
    rules = house(ctx)
    return odds_note(ctx.locale, rules, rules.dice())


def _percent(p: Fraction) -> str:
    return percent("en", p)


@COMMANDS.command(
    "odds", "exact odds of a roll, with Willpower, specialty and resisted rolls", ODDS_USAGE, role="anyone"
)
async def odds_command(ctx: CommandContext, inv: Invocation) -> Offloaded[Any]:
    """Reads the pools here; the odds are worked out off the event loop (``gateway.core.offload``)."""
    request = parse_roll(inv.words)
    character = await active_character(ctx, SYSTEM)
    who = character.name if character else ctx.name
    act = await attempt(ctx, request, character, who, lock=False, usage=ODDS_USAGE)
    left, difficulty = act.side, act.difficulty
    request = replace(request, side=act.request)
    wp = t(ctx, "willpower") if request.side.willpower else ""
    ruled = _odds_note(ctx)
    if request.opponent is not None:
        other = await _opponent_character(ctx, request.opponent, character)
        right = read_side(ctx, request.opponent, other, other is not None, "they", ODDS_USAGE)
        right_base = mechanics.clamp_difficulty(asked_difficulty(ctx, request.opponent))
        right_difficulty = mechanics.clamp_difficulty(right_base + right.adjustment)
        resisted = partial(
            odds.resisted_odds,
            left.dice,
            right.dice,
            difficulty,
            right_difficulty,
            willpower=request.side.willpower,
            attacker_specialty=request.side.specialty,
            defender_specialty=request.opponent.specialty,
            **house(ctx).dice(),
        )
        left_text = dice_text(ctx, left.dice, left.label) + wp + " " + t(ctx, "at_difficulty", d=difficulty)
        right_text = (
            dice_text(ctx, right.dice, right.label) + " " + t(ctx, "at_difficulty", d=right_difficulty)
        )

        def render_resisted(chances: odds.ResistedOdds) -> Reply:
            text = (
                t(
                    ctx,
                    "odds.resisted",
                    left=left_text,
                    right=right_text,
                    win=_percent(chances.attacker),
                    lose=_percent(chances.defender),
                )
                + ruled
            )
            result = {
                "kind": "odds",
                "system": SYSTEM,
                "contest": True,
                "win": float(chances.attacker),
                "lose": float(chances.defender),
                "error": float(chances.error),
                "chart": contest_chart(
                    ctx.locale,
                    in_locale(web_tools.TITLE, ctx.locale),
                    float(chances.attacker),
                    float(chances.defender),
                ),
            }
            return Reply(text=text, private=True, result=result)

        return Offloaded(resisted, render_resisted)
    single = partial(
        odds.roll_odds,
        left.dice,
        difficulty,
        willpower=request.side.willpower,
        specialty=request.side.specialty,
        **house(ctx).dice(),
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
        text += ruled
        # The web's chart has no Willpower; it takes the channel's dice switches.
        if not request.side.willpower:
            text += chart_link(
                ctx.settings,
                ctx.locale,
                "dramatic",
                house_query(house(ctx), WEB_HOUSE),
                pool=left.dice,
                difficulty=difficulty,
                specialty=request.side.specialty,
            )
        result = {
            "kind": "odds",
            "system": SYSTEM,
            # The web page's charts (``web_tools.odds_charts``), for Discord's and Matrix's picture.
            "chart": chart_result(
                in_locale(web_tools.TITLE, ctx.locale),
                [(c.title, c.rows) for c in web_tools.odds_charts(ctx.locale, chances)],
            ),
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
    SCENE_MARKER, "end the scene in this channel (clears retry penalties)", SCENE_MARKER, bare=True, params=()
)
@COMMANDS.command("scene end", "end the scene in this channel (same as * * *)", "scene end", params=())
async def scene_end_command(ctx: CommandContext, inv: Invocation) -> Reply:
    rows = await scene.list_prefixed(ctx.session, ctx.channel.key, SYSTEM, "retry:")
    names = [str(r.data.get("name", "?")) for r in rows if r.data.get("failures")]
    await scene.delete_prefixed(ctx.session, ctx.channel.key, SYSTEM, "retry:")
    text = t(ctx, "scene.end_cleared", names=", ".join(names)) if names else t(ctx, "scene.end")
    result = {"kind": "scene_end", "system": SYSTEM, "channel": ctx.channel.key, "retries_cleared": names}
    await ctx.stlog(text, kind="scene_end", result=result)
    return Reply(text=text, result=result)
