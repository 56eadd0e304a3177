"""Storyteller commands for Nightcap (role ``storyteller``; the router refuses everyone else).

Roster and search, approval, edits that ignore every creation limit, pools by hand, NPC and stat rolls,
announcements and emotes to the whole chronicle, and the Discord sheet export. Every edit writes an
audit row (who, when, what, old, new) and a Storyteller-log entry.
"""

from __future__ import annotations

from typing import Any, Literal

from sqlmodel import select

from gateway import CommandContext, CommandSet, Invocation, Reply, UserError
from gateway.core.payloads import broadcast_payload
from gateway.features.characters import (
    characters_in,
    find_character,
    lock_character,
    owner_names,
    set_pool,
    take_character,
)
from gateway.vault import repo
from gateway.vault.models import ChannelRow, Character
from plugins.nightcap import approval, chargen, rulings, st_roll_commands, view
from plugins.nightcap import params as P
from plugins.nightcap.character_commands import write_field
from plugins.nightcap.config import NightcapSettings
from plugins.nightcap.export_commands import export_target, queue_export, queue_exports
from plugins.nightcap.export_commands import render as render_sheet
from plugins.nightcap.powers import tier_or_error
from plugins.nightcap.rulings import RULING, describe
from plugins.nightcap.sheet import (
    DAMAGE,
    ESSENCE,
    MAX_FIELD,
    WILLPOWER,
    find_power,
    trait_or_error,
)
from plugins.nightcap.store import (
    APPROVED,
    CREATION,
    SUBMITTED,
    SYSTEM,
    fill_pools,
    pool_values,
    sheet_of,
    sync_maxima,
)

COMMANDS = CommandSet(SYSTEM)
ST_POWER_USAGE = "st power NAME add POWER TIER TRAIT | st power NAME remove POWER"
ST_POOL_USAGE = "st pool NAME willpower|essence|health N | st pool NAME willpower|essence max N"

POOL_WORDS = {
    "willpower": WILLPOWER,
    "wp": WILLPOWER,
    "essence": ESSENCE,
    "ess": ESSENCE,
    "health": DAMAGE,
    "damage": DAMAGE,
}
POOL_TITLES = {WILLPOWER: "Willpower", ESSENCE: "Essence", DAMAGE: "Health (damage)"}


async def locked(ctx: CommandContext, name: str) -> Character:
    """The character the router bound as ``name``, row-locked for an edit."""
    character = await find_character(ctx.session, SYSTEM, name)
    if character is None:
        raise UserError(f"No Nightcap character called {name[:60]}: st search TEXT finds one.")
    assert character.id is not None
    return await lock_character(ctx.session, character.id)


async def named(
    ctx: CommandContext, words: tuple[str, ...] | list[str], usage: str, rest: int = 0
) -> tuple[Character, list[str]]:
    """The character named by the leading words (all of them when ``rest`` is 0; otherwise the longest
    run that names one, leaving at least ``rest`` words), row-locked for an edit; and the words after it."""
    words = list(words)
    if len(words) < 1 + rest:
        raise UserError(f"Write {usage}.")
    head, tail = (words[: len(words) - rest], words[len(words) - rest :]) if rest else (words, [])
    if rest:
        found = await take_character(ctx.session, SYSTEM, head)
    else:
        exact = await find_character(ctx.session, SYSTEM, " ".join(head))
        found = (exact, []) if exact is not None else None
    if found is None:
        name = " ".join(head) if not rest else head[0]
        raise UserError(f"No Nightcap character called {name[:60]}: st search TEXT finds one.")
    character, leftover = found
    assert character.id is not None
    return await lock_character(ctx.session, character.id), leftover + tail


async def record_edit(
    ctx: CommandContext, character: Character, action: str, field: str | None, old: Any, new: Any, text: str
) -> None:
    """The audit row and the Storyteller-log entry every Storyteller edit leaves."""
    character.updated_at = ctx.now
    ctx.session.add(character)
    await ctx.audit(action, character_id=character.id, field_name=field, old=old, new=new)
    await ctx.stlog(
        f"Storyteller {ctx.name}: {text}",
        kind="st_edit",
        result={
            "kind": "st_edit",
            "action": action,
            "character": character.name,
            "field": field,
            "old": old,
            "new": new,
        },
        character_id=character.id,
    )


# -- roster -------------------------------------------------------------------------------------------


@COMMANDS.command(
    "st roster",
    "list characters",
    "st roster [unlocked|approved]",
    role="storyteller",
    params=P.ST_ROSTER,
    private=True,
)
async def st_roster(ctx: CommandContext, inv: Invocation) -> Reply:
    which = str(inv.args.get("which", "all"))  # the router bound one of the choices, or none
    statuses = {"unlocked": (CREATION, SUBMITTED), "approved": (APPROVED,), "all": None}
    found = await characters_in(ctx.session, SYSTEM, statuses=statuses[which])
    return await _listing(ctx, found, f"{which.title()} characters" if which != "all" else "Characters")


@COMMANDS.command(
    "st search",
    "find characters by name",
    "st search TEXT",
    role="storyteller",
    params=P.ST_SEARCH,
    private=True,
)
async def st_search(ctx: CommandContext, inv: Invocation) -> Reply:
    text = str(inv.args["text"])
    found = await characters_in(ctx.session, SYSTEM, name_contains=text)
    return await _listing(ctx, found, f"Characters matching {text[:40]!r}")


async def _listing(ctx: CommandContext, found: list[Character], title: str) -> Reply:
    owners = await owner_names(ctx.session, [c.owner_id for c in found])
    items = [{"name": c.name, "status": c.status, "owner": owners.get(c.owner_id, "?")} for c in found]
    body = ", ".join(f"{i['name']} ({i['status']}, {i['owner']})" for i in items) or "none"
    return Reply(
        text=f"{title} ({len(items)}): {body}.", private=True, result={"kind": "roster", "characters": items}
    )


@COMMANDS.command(
    "st show",
    "a character's whole sheet",
    "st show NAME",
    role="storyteller",
    params=P.ST_NAMED,
    private=True,
)
async def st_show(ctx: CommandContext, inv: Invocation) -> Reply:
    character = await locked(ctx, inv.args["name"])
    text, structured = await render_sheet(ctx, character)
    return Reply(text=text, private=True, result={"kind": "sheet", "sheet": structured})


# -- approval -----------------------------------------------------------------------------------------


@COMMANDS.command(
    "st approve",
    "approve and lock a submitted sheet, fill its pools",
    "st approve NAME [force]",
    role="storyteller",
    params=P.ST_APPROVE,
)
async def st_approve(ctx: CommandContext, inv: Invocation) -> Reply:
    character, force = await locked(ctx, inv.args["name"]), bool(inv.args["force"])
    if character.status == APPROVED:
        raise UserError(f"{character.name} is already approved.")
    old = character.status
    budget = chargen.summary(sheet_of(character), ctx.settings_for(NightcapSettings).budget)
    problems, unspent = budget["problems"], bool(budget["trait_points_left"] or budget["power_dots_left"])
    approval.check_approve(character.name, old, problems, unspent, force)
    character.status = APPROVED
    await fill_pools(ctx, character)
    text, structured = await render_sheet(ctx, character)
    character.updated_at = ctx.now
    ctx.session.add(character)
    await ctx.audit("st.approve", character_id=character.id, field_name="status", old=old, new=APPROVED)
    await ctx.stlog(
        f"Storyteller {ctx.name} approved {character.name}{approval.forced_note(old, problems)}:\n{text}",
        kind="approve",
        result={"kind": "sheet", "sheet": structured},
        character_id=character.id,
    )
    exported = await queue_export(ctx, character, "approve")
    sent = (
        f" The sheet goes to the Storyteller log and to {exported}."
        if exported
        else (" The sheet goes to the Storyteller log.")
    )
    return Reply(
        text=f"{character.name} is approved and locked{approval.forced_note(old, problems)};"
        f" Willpower and Essence are full.{sent}",
        result={"kind": "approve", "sheet": structured, "export": exported},
    )


@COMMANDS.command(
    "st unapprove",
    "return a sheet to creation",
    "st unapprove NAME",
    role="storyteller",
    params=P.ST_NAMED,
)
async def st_unapprove(ctx: CommandContext, inv: Invocation) -> Reply:
    character = await locked(ctx, inv.args["name"])
    if character.status != APPROVED:
        raise UserError(f"{character.name} is not approved ({character.status}).")
    character.status = CREATION
    await record_edit(
        ctx,
        character,
        "st.unapprove",
        "status",
        APPROVED,
        CREATION,
        f"{character.name} is unapproved and back in creation.",
    )
    problems = chargen.problems(sheet_of(character), ctx.settings_for(NightcapSettings).budget)
    return Reply(
        text=f"{character.name} is back in creation: the player can edit the sheet again."
        + approval.unapprove_note(character.name, problems),
        result={"kind": "character", "name": character.name, "status": character.status},
    )


# -- edits (no creation limits) -----------------------------------------------------------------------


@COMMANDS.command(
    "st set",
    "set a narrative field",
    "st set NAME FIELD VALUE",
    role="storyteller",
    params=P.ST_SET,
)
async def st_set(ctx: CommandContext, inv: Invocation) -> Reply:
    character, field = await locked(ctx, inv.args["name"]), str(inv.args["field"])
    value = " ".join(str(inv.args["value"]).split())
    if len(value) > MAX_FIELD:
        raise UserError(f"A field holds at most {MAX_FIELD} characters; that text has {len(value)}.")
    old, new = await write_field(ctx, character, field, value)
    await record_edit(
        ctx, character, "st.set", field, old, new, f"{character.name}'s {field.title()}: {old!r} → {new!r}."
    )
    return Reply(
        text=f"{character.name}: {field.title()} is now {new}.",
        result={"kind": "field", "character": character.name, "field": field, "value": new},
    )


@COMMANDS.command(
    "st trait",
    "set a trait, no limits",
    "st trait NAME TRAIT N",
    role="storyteller",
    params=P.ST_TRAIT,
)
async def st_trait(ctx: CommandContext, inv: Invocation) -> Reply:
    character = await locked(ctx, inv.args["name"])
    name, value = trait_or_error(inv.args["trait"]), int(inv.args["value"])
    if not 0 <= value <= P.MAX_NUMBER:
        raise UserError(f"A trait is 0 to {P.MAX_NUMBER}.")
    sheet = sheet_of(character)
    old = sheet["traits"][name]
    sheet["traits"][name] = value
    character.sheet = sheet
    await sync_maxima(ctx, character)
    await record_edit(
        ctx, character, "st.trait", name, old, value, f"{character.name}'s {name.title()} {old} → {value}."
    )
    return Reply(
        text=f"{character.name}: {name.title()} {old} → {value}.",
        result={"kind": "trait", "character": character.name, "trait": name, "old": old, "value": value},
    )


@COMMANDS.command(
    "st power",
    "give, change or take a power, any tier",
    ST_POWER_USAGE,
    role="storyteller",
    params=P.ST_POWER,
)
async def st_power(ctx: CommandContext, inv: Invocation) -> Reply:
    character, args = await locked(ctx, inv.args["name"]), str(inv.args["power"]).split()
    sheet = sheet_of(character)
    if inv.args["action"] == "add":
        if len(args) < 3:  # the power's name, then its tier and trait
            raise UserError("Write st power NAME add POWER TIER TRAIT or st power NAME remove POWER.")
        power_name = " ".join(" ".join(args[:-2]).split())
        if len(power_name) > 60:
            raise UserError("A power's name is at most 60 characters long.")
        tier = tier_or_error(args[-2])
        keyed = trait_or_error(args[-1])
        new = {"name": power_name, "tier": tier.name, "trait": keyed}
        existing = next((p for p in sheet["powers"] if p["name"].casefold() == power_name.casefold()), None)
        old = dict(existing) if existing else None
        if existing is not None:
            existing.update(new)
        else:
            sheet["powers"].append(new)
        character.sheet = sheet
        what = "changes" if old else "gains"
        text = f"{character.name} {what} {view.power_text(new)}."
        await record_edit(ctx, character, "st.power", power_name, old, new, text)
        return Reply(
            text=text, result={"kind": "power", "character": character.name, "power": new, "old": old}
        )
    power = find_power(sheet, " ".join(args))
    if power is None:
        raise UserError(f"{character.name} has no power called {' '.join(args)[:60]}.")
    sheet["powers"] = [p for p in sheet["powers"] if p is not power]
    character.sheet = sheet
    text = f"{character.name} loses {view.power_text(power)}."
    await record_edit(ctx, character, "st.power", power["name"], power, None, text)
    return Reply(text=text, result={"kind": "power", "character": character.name, "removed": power})


@COMMANDS.command(
    "st pool",
    "set a pool (or its maximum) by hand",
    ST_POOL_USAGE,
    role="storyteller",
    params=P.ST_POOL,
)
async def st_pool(ctx: CommandContext, inv: Invocation) -> Reply:
    usage = "st pool NAME willpower|essence|health N, or st pool NAME willpower|essence max N"
    character, word = await locked(ctx, inv.args["name"]), str(inv.args["pool"])
    pool_name = POOL_WORDS.get(word.casefold())
    if pool_name is None:
        raise UserError(f"Unknown pool {word[:20]!r}. Write {usage}.")
    set_max = "max" in inv.args
    if set_max == ("amount" in inv.args):  # one of N and max N
        raise UserError(f"Write {usage}.")
    value = int(inv.args["max" if set_max else "amount"])
    if not 0 <= value <= P.MAX_NUMBER:
        raise UserError(f"A pool is 0 to {P.MAX_NUMBER}.")
    assert character.id is not None
    pools = await pool_values(ctx, character)
    current, maximum = pools[pool_name]
    title = POOL_TITLES[pool_name]
    if set_max:
        if pool_name == DAMAGE:
            raise UserError(
                f"The Health track has {maximum} levels for everyone (setting [nightcap] health_levels)."
            )
        sheet = sheet_of(character)
        sheet["max"][pool_name] = value
        character.sheet = sheet
        await sync_maxima(ctx, character)
        text = f"{character.name}'s {title} maximum {maximum} → {value}."
        await record_edit(ctx, character, "st.pool_max", pool_name, maximum, value, text)
        return Reply(
            text=text, result={"kind": "pool", "character": character.name, "pool": pool_name, "max": value}
        )
    if value > maximum:
        more = (
            "the Health track ends there (Incapacitated)"
            if pool_name == DAMAGE
            else f"raise it first with st pool {character.name} {pool_name} max {value}"
        )
        raise UserError(f"{character.name}'s {title} maximum is {maximum}: {more}.")
    await set_pool(ctx.session, character.id, pool_name, current=value)
    text = f"{character.name}'s {title} {current} → {value} (of {maximum})."
    await record_edit(ctx, character, "st.pool", pool_name, current, value, text)
    return Reply(
        text=text, result={"kind": "pool", "character": character.name, "pool": pool_name, "current": value}
    )


# -- rolls --------------------------------------------------------------------------------------------


@COMMANDS.command(
    "st roll",
    "an NPC or situational roll, or two pools against each other",
    "st roll N [+N|-N] [LABEL] [vs N [+N|-N] [LABEL]] [secret]",
    role="storyteller",
    params=P.ST_ROLL,
)
async def st_roll(ctx: CommandContext, inv: Invocation) -> Reply:
    return await st_roll_commands.npc_roll(ctx, inv)


@COMMANDS.command(
    "st rollstat",
    "roll a character's trait",
    "st rollstat NAME TRAIT [+N|-N] [wp] [secret]",
    role="storyteller",
    params=P.ST_ROLLSTAT,
)
async def st_rollstat(ctx: CommandContext, inv: Invocation) -> Reply:
    return await st_roll_commands.stat_roll(ctx, inv, named)


# -- the whole chronicle ------------------------------------------------------------------------------


def _own_channel(ctx: CommandContext) -> list[tuple[str, str]]:
    """The caller's channel as a target when the reply does not reach it (a Second Life HUD's answer
    goes to the HUD alone, not to its region); nothing where the reply is said in the channel."""
    if ctx.message.replies_reach_channel:
        return []
    return [(ctx.channel.platform, ctx.channel.key[len(ctx.channel.platform) + 1 :])]


async def chronicle_targets(ctx: CommandContext) -> list[tuple[str, str]]:
    """Every channel of the chronicle: each non-direct channel the vault has seen that plays Nightcap,
    on a platform that can be pushed to, plus ``[nightcap] announce_targets``. The caller's own channel
    is left out when it gets the reply, and included (under the same rules) when it does not."""
    ns = ctx.settings_for(NightcapSettings)
    default = ctx.settings.gateway.default_system
    rows = (await ctx.session.exec(select(ChannelRow))).all()
    targets: list[tuple[str, str]] = []
    for row in sorted(rows, key=lambda r: r.key):
        if row.key == ctx.channel.key and not _own_channel(ctx):
            continue
        if (row.system or default) != SYSTEM:
            continue
        if (row.settings or {}).get("direct") or row.platform in ns.announce_skip_platforms:
            continue
        targets.append((row.platform, row.key[len(row.platform) + 1 :]))
    for target in ns.announce_targets:
        pair = repo.split_target(target)
        if pair not in targets:
            targets.append(pair)
    return targets


async def _broadcast(
    ctx: CommandContext, kind: Literal["announce", "emote"], text: str, everywhere: bool
) -> Reply:
    targets = await chronicle_targets(ctx) if everywhere else _own_channel(ctx)
    payload = broadcast_payload(kind, text, who=ctx.name, where=ctx.channel.key)
    for platform, address in targets:
        await ctx.enqueue(platform, address, payload)
    logged = text if kind == "announce" else f"Storyteller {ctx.name} emotes: {text}"
    await ctx.stlog(logged, kind=kind, result={"kind": kind, "text": text, "targets": len(targets)})
    return Reply(
        text=text,
        result={"kind": kind, "text": text, "targets": [f"{p}:{a}" for p, a in targets]},
    )


@COMMANDS.command(
    "st announce",
    "an announcement to every chronicle channel",
    "st announce TEXT",
    role="storyteller",
    params=P.ST_ANNOUNCE,
)
async def st_announce(ctx: CommandContext, inv: Invocation) -> Reply:
    text = str(inv.args["text"])
    return await _broadcast(ctx, "announce", f"Announcement from Storyteller {ctx.name}: {text}", True)


@COMMANDS.command(
    "st emote",
    "a roleplay emote, everywhere or here",
    "st emote [here] TEXT",
    role="storyteller",
    params=P.ST_EMOTE,
)
async def st_emote(ctx: CommandContext, inv: Invocation) -> Reply:
    first, _, rest = str(inv.args["text"]).partition(" ")
    here = first.casefold() == "here"  # the text's first word: this channel only
    if here and not rest.strip():
        raise UserError("Write st emote TEXT (every chronicle channel) or st emote here TEXT (this channel).")
    return await _broadcast(ctx, "emote", rest if here else str(inv.args["text"]), not here)


# -- the Discord sheet export ---------------------------------------------------------------------------


def _require_export(ctx: CommandContext) -> None:
    if export_target(ctx) is None:
        raise UserError('No sheet export is configured: set [nightcap] sheet_export = "discord:sheets".')


@COMMANDS.command(
    "st export",
    "send one sheet to the sheet export",
    "st export NAME",
    role="storyteller",
    params=P.ST_NAMED,
)
async def st_export(ctx: CommandContext, inv: Invocation) -> Reply:
    _require_export(ctx)
    character = await locked(ctx, inv.args["name"])
    target = await queue_export(ctx, character, "export")
    await ctx.audit("st.export", character_id=character.id, new=target)
    return Reply(
        text=f"{character.name}'s sheet is queued for {target}.",
        result={"kind": "export", "characters": [character.name], "target": target},
    )


@COMMANDS.command(
    "st sync", "send every approved sheet to the sheet export", "st sync", role="storyteller", params=()
)
async def st_sync(ctx: CommandContext, inv: Invocation) -> Reply:
    _require_export(ctx)
    if inv.words:
        raise UserError("Write st sync, with nothing after it.")
    found = await characters_in(ctx.session, SYSTEM, statuses=(APPROVED,), limit=100_000)
    target = await queue_exports(ctx, found, "sync") if found else None
    await ctx.audit("st.sync", new=len(found))
    target = target or ctx.settings_for(NightcapSettings).sheet_export
    return Reply(
        text=f"{len(found)} approved {'sheet' if len(found) == 1 else 'sheets'} queued for {target};"
        " the export sends them paced.",
        result={"kind": "export", "characters": [c.name for c in found], "target": target},
    )


# -- the Storyteller's modifiers ----------------------------------------------------------------------


@COMMANDS.command(
    "st mod",
    "rule the modifier of a character's next roll, over what the player proposes",
    rulings.ST_MOD_USAGE,
    role="storyteller",
    params=P.ST_MOD,
)
async def st_mod(ctx: CommandContext, inv: Invocation) -> Reply:
    change = rulings.read_st_mod(list(inv.words))
    character = await locked(ctx, change.name)
    sheet = dict(character.sheet or {})
    old = sheet.get(RULING)
    if change.value is None and not change.clear:
        text = (
            f"{character.name}'s next roll is at the Storyteller's ruling {describe(old)}."
            if old
            else f"No Storyteller's ruling waits on {character.name}'s next roll."
        )
        return Reply(
            text=text, private=True, result={"kind": "ruling", "character": character.name, "ruling": old}
        )
    if change.clear:
        if not old:
            raise UserError(f"No Storyteller's ruling waits on {character.name}'s next roll.")
        sheet.pop(RULING)
        character.sheet = sheet
        text = f"The ruling {describe(old)} on {character.name}'s next roll is withdrawn."
        await record_edit(ctx, character, "st.mod", RULING, old, None, text)
        return Reply(text=text, result={"kind": "ruling", "character": character.name, "ruling": None})
    ruling = {"value": change.value, "reason": change.reason, "by": ctx.name, "at": ctx.now.isoformat()}
    sheet[RULING] = ruling
    character.sheet = sheet
    text = (
        f"{character.name}'s next roll is at {describe(ruling)}, whatever modifier the player proposes"
        " (st mod NAME clear withdraws it)."
    )
    await record_edit(ctx, character, "st.mod", RULING, old, ruling, text)
    return Reply(text=text, result={"kind": "ruling", "character": character.name, "ruling": ruling})
