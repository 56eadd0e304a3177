"""Challenges between players, across platforms: ``challenge``, ``defend``, ``concede``.

A pending challenge lives in a ``KeyValue`` row, never in memory; its deadline is read from
``ctx.now``."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any

from gateway import CommandContext, CommandSet, Invocation, Reply, UserError
from gateway.core.payloads import reply_payload
from gateway.features.characters import require_active
from gateway.vault import repo
from gateway.vault.models import Character
from plugins.nightcap import mechanics, render, rulings
from plugins.nightcap import params as P
from plugins.nightcap.config import SYSTEM, NightcapSettings
from plugins.nightcap.conflict_commands import (
    ESSENCE,
    WILLPOWER,
    damage_of,
    ensure_can_act,
    kv_claim,
    kv_get,
    kv_put,
    kv_scan,
    last_channel,
    match_character_prefix,
    split_channel,
)
from plugins.nightcap.house import dice
from plugins.nightcap.pools import PoolSpec, parse_side
from plugins.nightcap.power_sides import (
    PowerChoice,
    choose_power,
    power_label,
    power_side,
)
from plugins.nightcap.roll_commands import spend_willpower
from plugins.nightcap.sides import character_side, pool_words, side_result
from plugins.nightcap.store import check_can_pay, overrule, pay, require_approved
from plugins.nightcap.words import nothing_after, split_power_words

COMMANDS = CommandSet(SYSTEM)
CHALLENGES = "nightcap.challenge"
CHALLENGE_USAGE = "challenge NAME TRAIT [+N|-N] [wp] (challenge alone lists, challenge cancel withdraws)"
DEFEND_USAGE = "defend TRAIT [+N|-N] [wp], or defend power NAME [TIER] [+N|-N] [wp]"


async def notify(ctx: CommandContext, channel_key: str, text: str, result: dict[str, Any]) -> None:
    """Send a message to another channel (another platform, perhaps) through the outbox."""
    if channel_key == ctx.channel.key:
        return
    platform, address = split_channel(channel_key)
    await ctx.enqueue(platform, address, reply_payload(Reply(text=text, result=result), recipient=None))


def _ts(value: str) -> datetime:
    return datetime.fromisoformat(value)


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


@COMMANDS.command(
    "challenge", "challenge another character to a contest", CHALLENGE_USAGE, params=P.CHALLENGE
)
async def challenge_command(ctx: CommandContext, inv: Invocation) -> list[Reply]:
    replies = await sweep_challenges(ctx)
    challenger = await require_active(ctx, SYSTEM)
    words = list(inv.words)
    if not words:
        return [*replies, await _list_challenges(ctx, challenger)]
    if len(words) == 1 and words[0].casefold() in ("cancel", "withdraw"):
        return [*replies, await _withdraw(ctx, challenger)]
    damage = await ensure_can_act(ctx.session, challenger, "challenge")
    target, rest = await match_character_prefix(ctx, words)
    if target is None:
        raise UserError(
            f"Whom do you challenge? No character is called {words[0][:40]!r}. Write {CHALLENGE_USAGE}."
        )
    if target.id == challenger.id:
        raise UserError("A character cannot challenge themselves.")
    return [*replies, *await open_challenge(ctx, challenger, target, damage, spec=parse_side(rest))]


async def redirected_challenge(
    ctx: CommandContext, challenger: Character, target: Character, spec: PoolSpec
) -> list[Reply]:
    """``roll TRAIT vs NAME TRAIT`` against another player's character, opened as a challenge: the
    other player states their own trait and Willpower with defend (or concedes)."""
    damage = await ensure_can_act(ctx.session, challenger, "roll")
    if target.id == challenger.id:
        raise UserError("A character cannot challenge themselves.")
    return redirected(await open_challenge(ctx, challenger, target, damage, spec=spec), target.name, "roll")


def redirected(replies: list[Reply], target: str, command: str) -> list[Reply]:
    """A challenge opened by ``command`` in place of rolling another player's dice, saying why."""
    note = f"{target} is another player's character and rolls for themselves: "
    last = replies[-1]
    replies[-1] = replace(last, text=note + last.text, result={**(last.result or {}), "redirected": command})
    return replies


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
    await ensure_can_act(ctx.session, target, "challenge", own=False)
    power_data: dict[str, Any] | None = None
    if power is not None:
        choice, mods, wp = power
        built = power_side(ctx, choice, mods, wp, damage)
        spec = built.side.spec
        power_data = choice.describe(await check_can_pay(ctx, choice))
    else:
        assert spec is not None
        spec, ruling = await overrule(ctx, challenger, spec)
        built = character_side(ctx, spec, challenger, damage)
        built.side.label += rulings.note(ruling)
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
    timeout = ctx.settings_for(NightcapSettings).challenge_timeout_seconds
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


@COMMANDS.command("defend", "answer a challenge with your own roll", DEFEND_USAGE, params=P.DEFEND)
async def defend_command(ctx: CommandContext, inv: Invocation) -> list[Reply]:
    replies = await sweep_challenges(ctx)
    defender = await require_active(ctx, SYSTEM)
    words = str(inv.args["pool"]).split()
    data = await _claim_challenge_against(ctx, defender)
    defender_damage = await ensure_can_act(ctx.session, defender, "defend")
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
        spec, ruling = await overrule(ctx, defender, parse_side(words))
        right = character_side(ctx, spec, defender, defender_damage)
        right.side.label += rulings.note(ruling)
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
    left_roll = mechanics.roll(left.pool, ctx.dice, left_spec.willpower, **dice(ctx))
    right_roll = mechanics.roll(right.pool, ctx.dice, spec.willpower, **dice(ctx))
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


@COMMANDS.command("concede", "give a challenge up without rolling", "concede", params=())
async def concede_command(ctx: CommandContext, inv: Invocation) -> list[Reply]:
    nothing_after(inv, "concede")
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
