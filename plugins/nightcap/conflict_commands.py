"""Nightcap conflict commands: exact odds, challenges between players (across platforms), extended
actions and teamwork. Combat (init, attack, st soak) is in ``combat_commands``.

Every piece of state lives in the vault, never in memory: pending challenges and extended actions in
``KeyValue`` rows, teams in the channel's ``SceneState``. Deadlines are read from ``ctx.now``.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from fractions import Fraction
from typing import Any

from gateway.characters import active_character, find_character, require_active
from gateway.commands import Command, CommandContext, Role
from gateway.errors import PermissionDenied, UserError
from gateway.rules.numbers import is_digits
from gateway.types import Invocation, Reply
from gateway.vault import repo
from gateway.vault.models import Character
from plugins.nightcap import extended, mechanics, odds, render, teamwork
from plugins.nightcap.conflict_support import (
    ESSENCE,
    WILLPOWER,
    Built,
    character_side,
    conflict_settings,
    damage_of,
    ensure_can_act,
    kv_claim,
    kv_get,
    kv_put,
    kv_scan,
    last_channel,
    load_scene,
    match_character_prefix,
    save_scene,
    split_channel,
)
from plugins.nightcap.pools import PoolSpec, parse_roll, parse_side
from plugins.nightcap.power_sides import (
    PowerChoice,
    check_can_pay,
    choose_power,
    pay,
    power_label,
    power_side,
    split_power_words,
)
from plugins.nightcap.rolls import SYSTEM, spend_willpower, split_opponent
from plugins.nightcap.store import require_approved

CHALLENGES = "nightcap.challenge"
EXTENDED = "nightcap.extended"
TEAM = "team"

ODDS_USAGE = (
    "odds POOL [+N|-N] [wp] [vs [NAME] POOL [+N|-N] [wp]], e.g. odds 5, odds physical +1 wp, odds 6 vs 4,"
    " odds social vs Dorian mental"
)
CHALLENGE_USAGE = "challenge NAME TRAIT [+N|-N] [wp] (challenge alone lists, challenge cancel withdraws)"
DEFEND_USAGE = "defend TRAIT [+N|-N] [wp], or defend power NAME [TIER] [+N|-N] [wp]"
EXTENDED_USAGE = (
    "extended start TARGET ROLLS [TRAIT] | extended roll [TRAIT] [+N|-N] [wp] | extended status"
    " | extended abandon"
)
TEAM_USAGE = (
    "team start TRAIT [+N|-N] | team roll [wp] | team status | team cancel; helpers: assist [LEADER] [wp]"
)


# --- small helpers ----------------------------------------------------------------------------


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


def pool_words(pool: int) -> str:
    return "a chance die" if pool <= 0 else f"{pool} {'die' if pool == 1 else 'dice'}"


def side_result(built: Built, roll: mechanics.Roll) -> dict[str, Any]:
    return {**roll.as_result(), **built.extras()}


async def notify(ctx: CommandContext, channel_key: str, text: str, result: dict[str, Any]) -> None:
    """Send a message to another channel (another platform, perhaps) through the outbox."""
    if channel_key == ctx.channel.key:
        return
    platform, address = split_channel(channel_key)
    await ctx.enqueue(
        platform,
        address,
        {"text": text, "kind": "reply", "private": False, "error": None, "result": result, "recipient": None},
    )


def _ts(value: str) -> datetime:
    return datetime.fromisoformat(value)


# --- odds -------------------------------------------------------------------------------------


def _odds_text(label: str, o: odds.RollOdds) -> str:
    degrees = " · ".join(f"{name.title()} {percent(p)}" for name, p in o.degrees.items())
    return f"{label}: {degrees} · at least 1: {percent(o.at_least_one)}"


def _side_label(built: Built) -> str:
    wp = " wp" if built.side.spec.willpower else ""
    label = built.label
    return f"{label} ({pool_words(built.pool)}){wp}" if label else f"{pool_words(built.pool)}{wp}"


async def odds_command(ctx: CommandContext, inv: Invocation) -> Reply:
    words, opponent_name = split_opponent(inv.words)
    request = parse_roll(words)
    character = await active_character(ctx, SYSTEM)
    damage = await damage_of(ctx.session, character) if character else 0
    left = character_side(ctx, request.sides[0], character, damage)
    left_odds = odds.roll_odds(left.pool, left.side.spec.willpower)
    result: dict[str, Any] = {"kind": "odds", "system": SYSTEM, "contest": False}
    if len(request.sides) == 1:
        result.update(left_odds.as_result())
        result.update(left.extras())
        text = "Odds for " + _odds_text(_side_label(left), left_odds)
        return Reply(text=text, private=request.secret, result=result)
    spec = request.sides[1]
    other = character  # vs TRAIT: the caller's own trait, as in roll
    if opponent_name is not None:
        other = await find_character(ctx.session, SYSTEM, opponent_name)
        if other is None:
            raise UserError(
                f"No Nightcap character called {opponent_name[:60]}: write vs NAME TRAIT or vs 4."
            )
    right = character_side(ctx, spec, other, await damage_of(ctx.session, other) if other else 0)
    right_odds = odds.roll_odds(right.pool, spec.willpower)
    contest = odds.contest_odds(left_odds, right_odds)
    data = contest.as_result()
    data["sides"][0].update(left.extras())
    data["sides"][1].update(right.extras())
    result.update(
        contest=True, degrees=data["sides"][0]["degrees"], totals=data["sides"][0]["totals"], **data
    )

    def wins(side: str) -> str:
        bands = ", ".join(f"{b} {percent(p)}" for b, p in contest.margins[side].items())
        return f"{percent(contest.outcomes[side])} ({bands})"

    text = (
        f"Odds {_side_label(left)} vs {_side_label(right)}: left wins {wins('left')} · right wins"
        f" {wins('right')} · deadlock {percent(contest.outcomes['deadlock'])} · both botch"
        f" {percent(contest.outcomes['both_botch'])}"
    )
    return Reply(text=text, private=request.secret, result=result)


# --- challenges between players ----------------------------------------------------------------


def _challenge_text(data: dict[str, Any]) -> str:
    c = data["challenger"]
    spec = c["label"] + (" with Willpower" if c["willpower"] else "")
    return f"{c['name']} challenges {data['target']['name']} ({spec})"


async def _refund(ctx: CommandContext, side: dict[str, Any]) -> str:
    """Give back what a challenger paid for a roll that never happened; says what came back."""
    back = []
    if side.get("character_id") is None:
        return ""
    if side.get("willpower"):
        await repo.gain_pool(ctx.session, side["character_id"], WILLPOWER, 1)
        back.append("Willpower")
    essence = (side.get("power") or {}).get("essence", 0)
    if essence:
        await repo.gain_pool(ctx.session, side["character_id"], ESSENCE, essence)
        back.append(f"{essence} Essence")
    return f" {' and '.join(back)} returned." if back else ""


async def sweep_challenges(ctx: CommandContext) -> list[Reply]:
    """Expire every challenge past its deadline: Willpower back, the challenger told where they play.

    Expired challenges are remembered in ``ctx.extra["expired"]`` so a late answer can say so."""
    here: list[Reply] = []
    expired: list[dict[str, Any]] = ctx.extra.setdefault("expired", [])
    for row in await kv_scan(ctx.session, CHALLENGES):
        data = row.value
        if _ts(data["expires_at"]) > ctx.now or not await kv_claim(ctx.session, CHALLENGES, row.key):
            continue
        expired.append(data)
        back = await _refund(ctx, data["challenger"])
        text = (
            f"{data['target']['name']} did not answer {data['challenger']['name']}'s challenge in time.{back}"
        )
        result = {"kind": "challenge", "system": SYSTEM, "status": "expired", **_public(data)}
        await ctx.stlog(
            text, kind="challenge", result=result, character_id=data["challenger"]["character_id"]
        )
        if data["challenger"]["channel"] == ctx.channel.key:
            here.append(Reply(text=text, result=result))
        else:
            await notify(ctx, data["challenger"]["channel"], text, result)
    return here


def _public(data: dict[str, Any]) -> dict[str, Any]:
    return {
        "challenger": {
            k: data["challenger"].get(k)
            for k in ("name", "character_id", "label", "willpower", "channel", "power")
        },
        "target": dict(data["target"]),
        "expires_at": data["expires_at"],
    }


async def _challenges_of(ctx: CommandContext, character: Character) -> tuple[list[dict], list[dict]]:
    """(challenges this character made, challenges made against it), still pending."""
    made, against = [], []
    for row in await kv_scan(ctx.session, CHALLENGES):
        if row.value["challenger"]["character_id"] == character.id:
            made.append(row.value)
        if row.value["target"]["character_id"] == character.id:
            against.append(row.value)
    return made, against


async def challenge_command(ctx: CommandContext, inv: Invocation) -> list[Reply]:
    replies = await sweep_challenges(ctx)
    challenger = await require_active(ctx, SYSTEM)
    words = list(inv.words)
    if not words:
        return [*replies, await _list_challenges(ctx, challenger)]
    if len(words) == 1 and words[0].casefold() in ("cancel", "withdraw"):
        return [*replies, await _withdraw(ctx, challenger)]
    damage = await ensure_can_act(ctx.session, challenger)
    target, rest = await match_character_prefix(ctx, words)
    if target is None:
        raise UserError(
            f"Whom do you challenge? No character is called {words[0][:40]!r}. Write {CHALLENGE_USAGE}."
        )
    if target.id == challenger.id:
        raise UserError("A character cannot challenge themselves.")
    return [*replies, *await open_challenge(ctx, challenger, target, damage, spec=parse_side(rest))]


async def open_challenge(
    ctx: CommandContext,
    challenger: Character,
    target: Character,
    damage: int,
    *,
    spec: PoolSpec | None = None,
    power: tuple[PowerChoice, list[int], bool] | None = None,
) -> list[Reply]:
    """Open a challenge with a trait (``spec``) or a power (choice, modifiers, Willpower). Willpower and
    Essence are paid now, when declared; both come back if the challenge ends without a roll."""
    replies = await sweep_challenges(ctx)
    await ensure_can_act(ctx.session, target)
    power_data: dict[str, Any] | None = None
    if power is not None:
        choice, mods, wp = power
        built = power_side(ctx, choice, mods, wp, damage)
        spec = built.side.spec
        power_data = choice.describe(await check_can_pay(ctx, choice))
    else:
        assert spec is not None
        built = character_side(ctx, spec, challenger, damage)
    made, _ = await _challenges_of(ctx, challenger)
    if made:
        raise UserError(
            f"{challenger.name} already has a challenge waiting on {made[0]['target']['name']}:"
            " challenge cancel withdraws it."
        )
    if await kv_get(ctx.session, CHALLENGES, str(target.id)) is not None:
        raise UserError(f"{target.name} already has a challenge to answer; wait for it to be settled.")
    if power is not None:
        await pay(ctx, power[0])
    if spec.willpower:
        await spend_willpower(ctx, challenger)  # declared now, fixed before any die is shown
    timeout = conflict_settings(ctx).challenge_timeout_seconds
    expires = ctx.now + timedelta(seconds=timeout)
    data = {
        "challenger": {
            "character_id": challenger.id,
            "person_id": ctx.person.id,
            "name": challenger.name,
            "pool": spec.base,
            "modifiers": list(spec.modifiers),
            "willpower": spec.willpower,
            "label": built.label or pool_words(built.pool),
            "channel": ctx.channel.key,
            "power": power_data,
        },
        "target": {"character_id": target.id, "name": target.name},
        "created_at": ctx.now.isoformat(),
        "expires_at": expires.isoformat(),
    }
    await kv_put(ctx.session, CHALLENGES, str(target.id), data, ctx.now)
    minutes = _duration(timeout)
    answer = "defend power NAME [TIER] [+N|-N] [wp], defend TRAIT" if power_data else "defend TRAIT"
    text = (
        f"{_challenge_text(data)}. {target.name} answers with {answer} [+N|-N] [wp], or concede,"
        f" within {minutes}."
    )
    result = {"kind": "challenge", "system": SYSTEM, "status": "pending", **_public(data)}
    await ctx.stlog(text, kind="challenge", result=result, character_id=challenger.id)
    where = await last_channel(ctx.session, target)
    if where is not None:
        result["notified"] = where if where != ctx.channel.key else None
        await notify(ctx, where, text, result)
    return [*replies, Reply(text=text, result=result)]


def _duration(seconds: int) -> str:
    if seconds % 60 == 0:
        minutes = seconds // 60
        return f"{minutes} minute{'s' if minutes != 1 else ''}"
    return f"{seconds} seconds"


async def _list_challenges(ctx: CommandContext, character: Character) -> Reply:
    made, against = await _challenges_of(ctx, character)
    lines = [f"{_challenge_text(d)}, open until {_ts(d['expires_at']):%H:%M:%S} UTC" for d in made + against]
    text = "; ".join(lines) if lines else f"No challenges are waiting for or on {character.name}."
    result = {"kind": "challenges", "system": SYSTEM, "pending": [_public(d) for d in made + against]}
    return Reply(text=text, private=True, result=result)


async def _withdraw(ctx: CommandContext, character: Character) -> Reply:
    made, _ = await _challenges_of(ctx, character)
    if not made:
        raise UserError(f"{character.name} has no challenge waiting to withdraw.")
    data = made[0]
    if not await kv_claim(ctx.session, CHALLENGES, str(data["target"]["character_id"])):
        raise UserError("That challenge was settled a moment ago.")
    back = await _refund(ctx, data["challenger"])
    text = f"{character.name} withdraws the challenge to {data['target']['name']}.{back}"
    result = {"kind": "challenge", "system": SYSTEM, "status": "withdrawn", **_public(data)}
    await ctx.stlog(text, kind="challenge", result=result, character_id=character.id)
    return Reply(text=text, result=result)


async def _claim_challenge_against(ctx: CommandContext, defender: Character) -> dict[str, Any]:
    row = await kv_get(ctx.session, CHALLENGES, str(defender.id))
    if row is None:
        for late in ctx.extra.get("expired", []):
            if late["target"]["character_id"] == defender.id:
                raise UserError(
                    f"{late['challenger']['name']}'s challenge ran out at"
                    f" {_ts(late['expires_at']):%H:%M:%S} UTC; there is nothing left to answer."
                )
        raise UserError(f"Nobody is challenging {defender.name} right now.")
    data = dict(row.value)
    if not await kv_claim(ctx.session, CHALLENGES, str(defender.id)):
        raise UserError("That challenge was settled a moment ago.")
    return data


async def defend_command(ctx: CommandContext, inv: Invocation) -> list[Reply]:
    replies = await sweep_challenges(ctx)
    defender = await require_active(ctx, SYSTEM)
    words = list(inv.words)
    if not words:
        raise UserError(f"Defend with which trait? Write {DEFEND_USAGE}.")
    data = await _claim_challenge_against(ctx, defender)
    defender_damage = await ensure_can_act(ctx.session, defender)
    defence: PowerChoice | None = None
    if words[0].casefold() == "power":
        require_approved(defender, "power use")
        name_words, chosen, mods, wp, _ = split_power_words(words[1:])
        if not name_words:
            raise UserError("Defend with which power? Write defend power NAME [TIER] [+N|-N] [wp].")
        defence = choose_power(defender, name_words, chosen)
        defence_before = await check_can_pay(ctx, defence)
        right = power_side(ctx, defence, mods, wp, defender_damage)
        spec = right.side.spec
    else:
        spec = parse_side(words)
        right = character_side(ctx, spec, defender, defender_damage)
    challenger = await ctx.session.get(Character, data["challenger"]["character_id"])
    if challenger is None:
        raise UserError("The challenger's character no longer exists; the challenge is void.")
    c = data["challenger"]
    attack_power = c.get("power")
    left_spec = PoolSpec(base=c["pool"], modifiers=tuple(c["modifiers"]), willpower=c["willpower"])
    extra = attack_power["tier_dice"] if attack_power else 0
    left = character_side(ctx, left_spec, challenger, await damage_of(ctx.session, challenger), extra=extra)
    if attack_power:
        tier = attack_power["tier"].title()
        left.side.label = power_label(attack_power["name"], tier, left.side.label, extra)
    if defence is not None:
        await pay(ctx, defence)
    if spec.willpower:
        await spend_willpower(ctx, defender)
    # Both Willpower declarations are fixed now; only then are the dice thrown, challenger first.
    left_roll = mechanics.roll(left.pool, ctx.dice, left_spec.willpower)
    right_roll = mechanics.roll(right.pool, ctx.dice, spec.willpower)
    outcome = mechanics.contest(left_roll, right_roll)
    result = outcome.as_result()
    result.update(
        context="challenge",
        sides=[side_result(left, left_roll), side_result(right, right_roll)],
        names=[challenger.name, defender.name],
        character_ids=[challenger.id, defender.id],
        who=f"{challenger.name} vs {defender.name}",
        powers=[attack_power, defence.describe(defence_before) if defence else None],
    )
    roll_id = await ctx.log_roll(result, character_id=defender.id, name=result["who"])
    text = "Challenge: " + render.contest_line(
        challenger.name, outcome, roll_id, (left.label, right.label), defender.name
    )
    paid = [
        f"{n} pays {p['essence']} Essence"
        for n, p in zip(result["names"], result["powers"], strict=True)
        if p
    ]
    if paid:
        text = f"{text.removesuffix(f' #{roll_id}')} ({', '.join(paid)}) #{roll_id}"
    await ctx.stlog(text, kind="challenge", result=result, character_id=defender.id)
    await notify(ctx, c["channel"], text, result)
    return [*replies, Reply(text=text, result=result)]


async def concede_command(ctx: CommandContext, inv: Invocation) -> list[Reply]:
    replies = await sweep_challenges(ctx)
    defender = await require_active(ctx, SYSTEM)
    data = await _claim_challenge_against(ctx, defender)
    back = await _refund(ctx, data["challenger"])
    winner = data["challenger"]["name"]
    text = f"{defender.name} concedes to {winner}: no dice, {winner} wins.{back}"
    result = {"kind": "challenge", "system": SYSTEM, "status": "conceded", "winner": 0, **_public(data)}
    await ctx.stlog(text, kind="challenge", result=result, character_id=defender.id)
    await notify(ctx, data["challenger"]["channel"], text, result)
    return [*replies, Reply(text=text, result=result)]


# --- extended actions -------------------------------------------------------------------------


async def _actor(ctx: CommandContext) -> tuple[Character | None, str, str]:
    """(active character or None, state key, display name): one extended action per character, or per
    person when they roll bare numbers without a character."""
    character = await active_character(ctx, SYSTEM)
    if character is not None:
        return character, f"c{character.id}", character.name
    return None, f"p{ctx.person.id}", ctx.name


def _extended_status(name: str, state: extended.Extended) -> str:
    comp = " Complication pending." if state.complication else ""
    return (
        f"{name}'s extended action: {state.accumulated}/{state.target} successes after {state.made} of"
        f" {state.rolls} rolls ({state.left} left).{comp}"
    )


def _extended_result(state: extended.Extended, **extra: Any) -> dict[str, Any]:
    return {"kind": "extended", "system": SYSTEM, "state": state.as_dict(), **extra}


async def extended_command(ctx: CommandContext, inv: Invocation) -> Reply:
    _, key, name = await _actor(ctx)
    row = await kv_get(ctx.session, EXTENDED, key)
    offers = " or ".join(f"extended start {t} {r} ({why})" for t, r, why in extended.DEFAULTS)
    if inv.words:
        raise UserError(f"Write {EXTENDED_USAGE}.")
    if row is None:
        text = f"No extended action under way for {name}. Start one with {offers}, adding a trait to roll."
        return Reply(
            text=text, result={"kind": "extended", "system": SYSTEM, "state": None, "offers": _offers()}
        )
    state = extended.Extended.from_dict(row.value["state"])
    return Reply(text=_extended_status(name, state), result=_extended_result(state, offers=_offers()))


def _offers() -> list[dict[str, Any]]:
    return [{"target": t, "rolls": r, "for": why} for t, r, why in extended.DEFAULTS]


def _int(word: str, what: str) -> int:
    if not is_digits(word):
        raise UserError(f"{what} is a whole number; write {EXTENDED_USAGE}.")
    return int(word)


async def extended_start(ctx: CommandContext, inv: Invocation) -> Reply:
    character, key, name = await _actor(ctx)
    words = list(inv.words)
    if len(words) < 2:
        offers = " or ".join(f"extended start {t} {r}" for t, r, _ in extended.DEFAULTS)
        raise UserError(f"Write extended start TARGET ROLLS [TRAIT], e.g. {offers}.")
    target, rolls = _int(words[0], "The target"), _int(words[1], "The number of rolls")
    pool_word = None
    if len(words) > 2:
        spec = parse_side(words[2:])
        if spec.modifiers or spec.willpower:
            raise UserError("Modifiers and wp go on each roll: extended roll [+N|-N] [wp].")
        character_side(ctx, spec, character, 0)  # checks the trait (and that there is a character)
        pool_word = spec.base
    if character is not None:
        await ensure_can_act(ctx.session, character)
    if await kv_get(ctx.session, EXTENDED, key) is not None:
        raise UserError(f"{name} already has an extended action under way: extended abandon ends it first.")
    try:
        state = extended.start(target, rolls, pool_word)
    except extended.ExtendedError as exc:
        raise UserError(str(exc)) from exc
    await kv_put(ctx.session, EXTENDED, key, {"name": name, "state": state.as_dict()}, ctx.now)
    what = f" rolling {pool_word.title()}" if pool_word and not is_digits(pool_word) else ""
    text = f"{name} starts an extended action{what}: {target} successes in {rolls} rolls."
    result = _extended_result(state, status="started")
    await ctx.stlog(text, kind="extended", result=result, character_id=character.id if character else None)
    return Reply(text=text, result=result)


async def extended_roll(ctx: CommandContext, inv: Invocation) -> Reply:
    character, key, name = await _actor(ctx)
    row = await kv_get(ctx.session, EXTENDED, key)
    if row is None:
        raise UserError(f"{name} has no extended action under way: extended start TARGET ROLLS [TRAIT].")
    state = extended.Extended.from_dict(row.value["state"])
    words = list(inv.words)
    if state.pool is not None:
        if words and not (words[0][:1] in "+-" or words[0].casefold() in ("wp", "willpower")):
            raise UserError(
                f"This extended action rolls {state.pool.title()}: write extended roll [+N|-N] [wp]."
            )
        words = [state.pool, *words]
    elif not words:
        raise UserError("Roll what? Write extended roll TRAIT [+N|-N] [wp] (or fix it at extended start).")
    spec = parse_side(words)
    damage = await ensure_can_act(ctx.session, character) if character else 0
    built = character_side(ctx, spec, character, damage)
    if spec.willpower:
        await spend_willpower(ctx, character)
    roll = mechanics.roll(built.pool, ctx.dice, spec.willpower)
    state = extended.step(state, roll)
    result = side_result(built, roll)
    result.update(
        kind="extended", who=name, extended=state.as_dict(), status=state.status, reason=state.reason
    )
    char_id = character.id if character else None
    roll_id = await ctx.log_roll(result, character_id=char_id, name=name)
    line = render.roll_line(name, roll, roll_id, built.label)
    if state.status == extended.SUCCESS:
        after = f" Done: {state.accumulated}/{state.target} after {state.made} rolls."
    elif state.reason == "second_botch":
        after = " A second botch: the attempt fails."
    elif state.status == extended.FAILED:
        after = f" Out of rolls at {state.accumulated}/{state.target}: the attempt fails."
    elif roll.degree == "botch":
        after = (
            " Botch: progress lost, a complication for the Storyteller."
            f" {state.accumulated}/{state.target}, {state.left} rolls left."
        )
    else:
        after = f" {state.accumulated}/{state.target}, {state.left} rolls left."
    text = line + " —" + after
    if state.status == extended.ACTIVE:
        await kv_put(ctx.session, EXTENDED, key, {"name": name, "state": state.as_dict()}, ctx.now)
    else:
        await kv_claim(ctx.session, EXTENDED, key)
    await ctx.stlog(text, kind="extended", result=result, character_id=char_id)
    return Reply(text=text, result=result)


async def extended_status(ctx: CommandContext, inv: Invocation) -> Reply:
    _, key, name = await _actor(ctx)
    row = await kv_get(ctx.session, EXTENDED, key)
    if row is None:
        raise UserError(f"{name} has no extended action under way.")
    state = extended.Extended.from_dict(row.value["state"])
    return Reply(text=_extended_status(name, state), result=_extended_result(state))


async def extended_abandon(ctx: CommandContext, inv: Invocation) -> Reply:
    character, key, name = await _actor(ctx)
    row = await kv_get(ctx.session, EXTENDED, key)
    if row is None or not await kv_claim(ctx.session, EXTENDED, key):
        raise UserError(f"{name} has no extended action to abandon.")
    state = extended.Extended.from_dict(row.value["state"])
    text = f"{name} abandons the extended action at {state.accumulated}/{state.target}."
    result = _extended_result(state, status="abandoned")
    await ctx.stlog(text, kind="extended", result=result, character_id=character.id if character else None)
    return Reply(text=text, result=result)


# --- teamwork ---------------------------------------------------------------------------------


async def _teams(ctx: CommandContext) -> tuple[Any, dict[str, dict[str, Any]]]:
    row = await load_scene(ctx.session, ctx.channel.key, TEAM)
    return row, dict(row.data.get("teams", {})) if row is not None else {}


async def _save_teams(ctx: CommandContext, row: Any, teams: dict[str, dict[str, Any]]) -> None:
    await save_scene(ctx.session, row, ctx.channel.key, TEAM, {"teams": teams}, ctx.now)


def _team_result(team: teamwork.Team, **extra: Any) -> dict[str, Any]:
    return {"kind": "team", "system": SYSTEM, "team": team.as_dict(), **extra}


def _helpers_text(team: teamwork.Team) -> str:
    if not team.helpers:
        return "no helpers yet"
    return ", ".join(f"{h.name} ({'a sure success' if h.willpower else '+1 die'})" for h in team.helpers)


async def team_start(ctx: CommandContext, inv: Invocation) -> Reply:
    character, key, name = await _actor(ctx)
    if not inv.words:
        raise UserError(f"Write {TEAM_USAGE}.")
    spec = parse_side(list(inv.words))
    if spec.willpower:
        raise UserError("The leader declares Willpower on the roll itself: team roll wp.")
    damage = await ensure_can_act(ctx.session, character) if character else 0
    built = character_side(ctx, spec, character, damage)
    row, teams = await _teams(ctx)
    if key in teams:
        raise UserError(f"{name} already leads a team action here: team roll or team cancel.")
    team = teamwork.Team(
        leader_key=key,
        leader_name=name,
        pool_word=spec.base,
        modifiers=spec.modifiers,
        leader_character_id=character.id if character else None,
    )
    teams[key] = {**team.as_dict(), "label": built.label or pool_words(built.pool)}
    await _save_teams(ctx, row, teams)
    text = (
        f"{name} leads a team action ({teams[key]['label']}). Helpers: assist {name}, or assist {name} wp"
        f" to spend Willpower for a sure success; up to {teamwork.MAX_HELPERS} count."
    )
    return Reply(text=text, result=_team_result(team, status="open"))


async def assist_command(ctx: CommandContext, inv: Invocation) -> Reply:
    character, key, name = await _actor(ctx)
    words = list(inv.words)
    wp = bool(words) and words[-1].casefold() in ("wp", "willpower")
    if wp:
        words = words[:-1]
    row, teams = await _teams(ctx)
    if not teams:
        raise UserError("Nobody is leading a team action here: the leader writes team start TRAIT.")
    if words:
        wanted = " ".join(words).casefold()
        found = [k for k, t in teams.items() if t["leader_name"].casefold() == wanted]
        if not found:
            leaders = ", ".join(t["leader_name"] for t in teams.values())
            raise UserError(f"No team action led by {' '.join(words)[:40]!r} here. Leading now: {leaders}.")
        leader = found[0]
    elif len(teams) == 1:
        leader = next(iter(teams))
    else:
        leaders = ", ".join(t["leader_name"] for t in teams.values())
        raise UserError(f"Several team actions are open here ({leaders}): write assist LEADER [wp].")
    if character is not None:
        await ensure_can_act(ctx.session, character)
    team = teamwork.Team.from_dict(teams[leader])
    helper = teamwork.Helper(
        key=key, name=name, willpower=wp, character_id=character.id if character else None
    )
    try:
        team = teamwork.add_helper(team, helper)
    except teamwork.TeamError as exc:
        raise UserError(str(exc)) from exc
    if wp:
        await spend_willpower(ctx, character)  # paid from the helper's own pool, now
    teams[leader] = {**team.as_dict(), "label": teams[leader]["label"]}
    await _save_teams(ctx, row, teams)
    gives = "a sure success (1 Willpower spent)" if wp else "+1 die"
    text = f"{name} helps {team.leader_name}: {gives}. Team: {_helpers_text(team)}."
    return Reply(text=text, result=_team_result(team, status="open", helper=name))


async def _leader_team(ctx: CommandContext) -> tuple[Any, dict[str, dict[str, Any]], str, teamwork.Team]:
    _, key, name = await _actor(ctx)
    row, teams = await _teams(ctx)
    if key not in teams:
        raise UserError(f"{name} leads no team action here: team start TRAIT [+N|-N].")
    return row, teams, key, teamwork.Team.from_dict(teams[key])


async def team_roll(ctx: CommandContext, inv: Invocation) -> Reply:
    character, _, name = await _actor(ctx)
    words = [w.casefold() for w in inv.words]
    if any(w not in ("wp", "willpower") for w in words) or len(words) > 1:
        raise UserError("Write team roll, or team roll wp to spend Willpower.")
    wp = bool(words)
    row, teams, key, team = await _leader_team(ctx)
    damage = await ensure_can_act(ctx.session, character) if character else 0
    spec = PoolSpec(base=team.pool_word, modifiers=team.modifiers, willpower=wp)
    built = character_side(ctx, spec, character, damage, extra=team.dice_bonus)
    if wp:
        await spend_willpower(ctx, character)
    roll = teamwork.with_bonus(mechanics.roll(built.pool, ctx.dice, wp), team.success_bonus)
    del teams[key]
    await _save_teams(ctx, row, teams)
    result = side_result(built, roll)
    result.update(
        kind="team",
        who=name,
        helpers=[{"name": h.name, "willpower": h.willpower} for h in team.helpers],
        helper_dice=team.dice_bonus,
        helper_successes=team.success_bonus,
    )
    char_id = character.id if character else None
    roll_id = await ctx.log_roll(result, character_id=char_id, name=name)
    bonus = []
    if team.dice_bonus:
        bonus.append(f"+{team.dice_bonus} {'die' if team.dice_bonus == 1 else 'dice'}")
    if team.success_bonus:
        bonus.append(f"+{team.success_bonus} sure")
    label = built.label + (f" team {' '.join(bonus)}" if bonus else "")
    text = render.roll_line(name, roll, roll_id, label.strip()) + f" — with {_helpers_text(team)}"
    await ctx.stlog(text, kind="team", result=result, character_id=char_id)
    return Reply(text=text, result=result)


async def team_status(ctx: CommandContext, inv: Invocation) -> Reply:
    _, teams = await _teams(ctx)
    if not teams:
        return Reply(
            text="No team actions are open here.", result={"kind": "teams", "system": SYSTEM, "teams": []}
        )
    lines = [
        f"{t['leader_name']} ({t['label']}): {_helpers_text(teamwork.Team.from_dict(t))}"
        for t in teams.values()
    ]
    return Reply(
        text="; ".join(lines), result={"kind": "teams", "system": SYSTEM, "teams": list(teams.values())}
    )


async def team_cancel(ctx: CommandContext, inv: Invocation) -> Reply:
    if inv.words:
        if not ctx.storyteller:
            raise PermissionDenied("Cancelling someone else's team action needs the Storyteller role.")
        row, teams = await _teams(ctx)
        wanted = " ".join(inv.words).casefold()
        key = next((k for k, t in teams.items() if t["leader_name"].casefold() == wanted), None)
        if key is None:
            raise UserError(f"No team action led by {' '.join(inv.words)[:40]!r} here.")
        team = teamwork.Team.from_dict(teams[key])
    else:
        row, teams, key, team = await _leader_team(ctx)
    for h in team.helpers:
        if h.willpower and h.character_id is not None:
            await repo.gain_pool(ctx.session, h.character_id, WILLPOWER, 1)
    del teams[key]
    await _save_teams(ctx, row, teams)
    refunds = sum(1 for h in team.helpers if h.willpower)
    back = f" Willpower returned to {refunds} helper{'s' if refunds != 1 else ''}." if refunds else ""
    text = f"{team.leader_name}'s team action is called off.{back}"
    return Reply(text=text, result=_team_result(team, status="cancelled"))


def commands() -> list[Command]:
    """Every conflict command, for the Nightcap plugin to register."""
    from plugins.nightcap import combat_commands as cc

    def c(name: str, handler: Any, summary: str, usage: str, role: Role = "player") -> Command:
        return Command(name, handler, summary, usage, system=SYSTEM, role=role)

    return [
        c("odds", odds_command, "exact odds of a roll or a contest", ODDS_USAGE, "anyone"),
        c("challenge", challenge_command, "challenge another character to a contest", CHALLENGE_USAGE),
        c("defend", defend_command, "answer a challenge with your own roll", DEFEND_USAGE),
        c("concede", concede_command, "give a challenge up without rolling", "concede"),
        c("init start", cc.init_start, "open a fight in this channel", cc.INIT_USAGE),
        c(
            "init join",
            cc.init_join,
            "join the fight (Storytellers: add an NPC)",
            "init join [NAME [PHYSICAL]]",
        ),
        c("init roll", cc.init_roll, "roll Physical for order, for everyone not yet rolled", "init roll"),
        c("init next", cc.init_next, "pass the turn on", "init next"),
        c("init list", cc.init_list, "show the order and the round", "init list", "anyone"),
        c("init move", cc.init_move, "put someone at a place in the order (ties)", "init move NAME POS"),
        c("init end", cc.init_end, "end the fight", "init end"),
        c(
            "attack",
            cc.attack_command,
            "attack: a contest whose margin, less soak, is damage",
            cc.ATTACK_USAGE,
        ),
        c("st soak", cc.st_soak, "set a character's or NPC's soak", "st soak NAME N", "storyteller"),
        c("extended", extended_command, "show your extended action, or the defaults", EXTENDED_USAGE),
        c(
            "extended start",
            extended_start,
            "start an extended action",
            "extended start TARGET ROLLS [TRAIT]",
        ),
        c("extended roll", extended_roll, "roll the next step", "extended roll [TRAIT] [+N|-N] [wp]"),
        c("extended status", extended_status, "show your extended action", "extended status"),
        c("extended abandon", extended_abandon, "give your extended action up", "extended abandon"),
        c("team start", team_start, "lead a team action", "team start TRAIT [+N|-N]"),
        c("team roll", team_roll, "roll for the team", "team roll [wp]"),
        c("team status", team_status, "show the open team actions here", "team status", "anyone"),
        c("team cancel", team_cancel, "call a team action off", "team cancel [LEADER]"),
        c(
            "assist",
            assist_command,
            "help a team leader: +1 die, or wp for a sure success",
            "assist [LEADER] [wp]",
        ),
    ]
