"""Player commands for sheets: char new/use/set/submit/budget/list, trait, power add/remove, sheet, prove.

Every creation edit is checked against the budget (``chargen``) on the sheet as it would be after the
edit; a refusal changes nothing. Approved sheets are locked: only Storytellers edit them.
"""

from __future__ import annotations

from typing import Any

from gateway import CommandContext, CommandSet, Invocation, PermissionDenied, Reply, UserError
from gateway.features.characters import (
    create_character,
    find_character,
    owned_characters,
    rename_character,
)
from gateway.vault.models import Character
from plugins.nightcap import chargen, view
from plugins.nightcap import params as P
from plugins.nightcap.config import NightcapSettings
from plugins.nightcap.export_commands import render
from plugins.nightcap.powers import tier_or_error
from plugins.nightcap.sheet import FIELDS, MAX_FIELD, find_power, new_sheet, trait_or_error
from plugins.nightcap.store import (
    APPROVED,
    SUBMITTED,
    SYSTEM,
    initial_pools,
    my_character,
    open_for_edit,
    pool_values,
    require_approved,
    sheet_of,
    sync_maxima,
)
from plugins.nightcap.words import nothing_after

COMMANDS = CommandSet(SYSTEM)

CHAR_USAGE = (
    "char new NAME | char use NAME | char set FIELD TEXT | char submit | char budget | char list"
    " | char retire NAME"
)


async def write_field(ctx: CommandContext, character: Character, field: str, text: str) -> tuple[Any, str]:
    """Set a narrative field to ``text``, or rename the character for ``name`` (through the core, so
    name keys stay unique); the old and the new value, for the audit row."""
    if field == "name":
        old = await rename_character(ctx.session, character, text)
        return old, character.name
    sheet = sheet_of(character)
    old = sheet["fields"].get(field, "")
    sheet["fields"][field] = text
    character.sheet = sheet
    return old, text


# Alone it takes nothing: a word after it names a subcommand (the router runs ``char new`` itself).
@COMMANDS.command("char", "character commands", CHAR_USAGE, params=())
async def char_command(ctx: CommandContext, inv: Invocation) -> Reply:
    if inv.words:
        raise UserError(f"Unknown char command {inv.words[0][:20]!r}. Write {CHAR_USAGE}.")
    raise UserError(f"Write {CHAR_USAGE}.")


@COMMANDS.command(
    "char new",
    "start a character (creation mode) and make it active",
    "char new NAME",
    params=P.CHAR_NEW,
    private=True,
)
async def char_new(ctx: CommandContext, inv: Invocation) -> Reply:
    sheet = new_sheet()
    character = await create_character(ctx, inv.args["name"], sheet, initial_pools(ctx, sheet))
    await ctx.audit("char.new", character_id=character.id, new=character.name)
    b = ctx.settings_for(NightcapSettings).budget
    return Reply(
        text=(
            f"{character.name} is made and active, in creation. Traits start at {b.base}: place"
            f" {b.trait_points} points with trait NAME N (none above {b.trait_max}, one at most at"
            f" {b.trait_max}); {b.power_dots} power dots with power add NAME TIER TRAIT; fields with"
            " char set FIELD TEXT. char budget shows what is left; char submit when done."
        ),
        private=True,
        result={"kind": "character", "name": character.name, "status": character.status},
    )


@COMMANDS.command(
    "char use", "make one of your characters the active one", "char use NAME", params=P.CHAR_USE, private=True
)
async def char_use(ctx: CommandContext, inv: Invocation) -> Reply:
    name = str(inv.args["name"])
    character = await find_character(ctx.session, SYSTEM, name)
    if character is None or character.owner_id != ctx.person.id:
        raise UserError(f"You have no Nightcap character called {name[:60]}: char list shows yours.")
    ctx.person.active_character_id = character.id
    ctx.session.add(ctx.person)
    return Reply(
        text=f"{character.name} is now your active character ({character.status}).",
        private=True,
        result={"kind": "character", "name": character.name, "status": character.status},
    )


@COMMANDS.command("char list", "your characters", "char list", params=(), private=True)
async def char_list(ctx: CommandContext, inv: Invocation) -> Reply:
    nothing_after(inv, "char list")
    assert ctx.person.id is not None
    mine = await owned_characters(ctx.session, ctx.person.id, SYSTEM)
    if not mine:
        return Reply(
            text="You have no Nightcap characters yet: char new NAME makes one.",
            private=True,
            result={"kind": "characters", "characters": []},
        )
    active = ctx.person.active_character_id
    parts = [f"{c.name} ({c.status}{', active' if c.id == active else ''})" for c in mine]
    return Reply(
        text=f"Your characters: {', '.join(parts)}.",
        private=True,
        result={
            "kind": "characters",
            "characters": [{"name": c.name, "status": c.status, "active": c.id == active} for c in mine],
        },
    )


@COMMANDS.command(
    "char set",
    "set a narrative field while in creation",
    f"char set FIELD TEXT; FIELD is one of {', '.join(FIELDS)}; TEXT up to {MAX_FIELD} characters",
    params=P.CHAR_SET,
    private=True,
)
async def char_set(ctx: CommandContext, inv: Invocation) -> Reply:
    field = str(inv.args["field"])  # the router read a field's name, or a unique beginning of one
    text = " ".join(str(inv.args["text"]).split())
    if len(text) > MAX_FIELD:
        raise UserError(f"A field holds at most {MAX_FIELD} characters; that text has {len(text)}.")
    character = await my_character(ctx, lock=True)
    note = open_for_edit(character)
    old, new = await write_field(ctx, character, field, text)
    character.updated_at = ctx.now
    ctx.session.add(character)
    await ctx.audit("char.set", character_id=character.id, field_name=field, old=old, new=new)
    return Reply(
        text=f"{character.name}: {field.title()} is now {new}.{note}",
        private=True,
        result={"kind": "field", "character": character.name, "field": field, "value": new},
    )


@COMMANDS.command("trait", "set a trait while in creation", "trait NAME N", params=P.TRAIT_SET, private=True)
async def trait_command(ctx: CommandContext, inv: Invocation) -> Reply:
    trait, value = trait_or_error(inv.args["trait"]), int(inv.args["value"])
    character = await my_character(ctx, lock=True)
    note = open_for_edit(character)  # a refusal below rolls the withdrawal back too
    sheet = sheet_of(character)
    budget = ctx.settings_for(NightcapSettings).budget
    chargen.check_trait(sheet, trait, value, budget)
    old = sheet["traits"][trait]
    sheet["traits"][trait] = value
    character.sheet = sheet
    character.updated_at = ctx.now
    ctx.session.add(character)
    await sync_maxima(ctx, character)
    await ctx.audit("char.trait", character_id=character.id, field_name=trait, old=old, new=value)
    left = budget.trait_points - chargen.traits_spent(sheet["traits"], budget)
    return Reply(
        text=f"{character.name}: {trait.title()} {value}. {chargen.remaining(left, 'trait point')}.{note}",
        private=True,
        result={
            "kind": "trait",
            "character": character.name,
            "trait": trait,
            "value": value,
            **chargen.left_fields(left),
        },
    )


@COMMANDS.command("power", "power commands", "power add|remove|use ...", params=())
async def power_command(ctx: CommandContext, inv: Invocation) -> Reply:
    raise UserError("Write power add NAME TIER TRAIT, power remove NAME or power use NAME [TIER].")


@COMMANDS.command(
    "power add",
    "learn a power while in creation",
    "power add NAME TIER TRAIT",
    params=P.POWER_ADD,
    private=True,
)
async def power_add(ctx: CommandContext, inv: Invocation) -> Reply:
    name = " ".join(str(inv.args["name"]).split())
    if len(name) > 60:
        raise UserError("A power's name is at most 60 characters long.")
    tier, trait = tier_or_error(inv.args["tier"]), trait_or_error(inv.args["trait"])
    character = await my_character(ctx, lock=True)
    note = open_for_edit(character)
    sheet = sheet_of(character)
    same = next((p for p in sheet["powers"] if p["name"].casefold() == name.casefold()), None)
    if same is not None:
        raise UserError(f"{character.name} already has a power called {same['name']}.")
    budget = ctx.settings_for(NightcapSettings).budget
    chargen.check_power(sheet, name, tier, budget)
    power = {"name": name, "tier": tier.name, "trait": trait}
    sheet["powers"].append(power)
    character.sheet = sheet
    character.updated_at = ctx.now
    ctx.session.add(character)
    await ctx.audit("char.power", character_id=character.id, field_name=name, new=power)
    left = budget.power_dots - chargen.dots_spent(sheet["powers"])
    return Reply(
        text=f"{character.name} learns {view.power_text(power)}."
        f" {chargen.remaining(left, 'power dot')}.{note}",
        private=True,
        result={
            "kind": "power",
            "character": character.name,
            "power": power,
            **chargen.left_fields(left),
        },
    )


@COMMANDS.command(
    "power remove", "drop a power while in creation", "power remove NAME", params=P.POWER_REMOVE, private=True
)
async def power_remove(ctx: CommandContext, inv: Invocation) -> Reply:
    character = await my_character(ctx, lock=True)
    note = open_for_edit(character)
    sheet = sheet_of(character)
    power = find_power(sheet, inv.args["name"])
    if power is None:
        raise UserError(f"{character.name} has no power called {inv.args['name'][:60]}.")
    sheet["powers"] = [p for p in sheet["powers"] if p is not power]
    character.sheet = sheet
    character.updated_at = ctx.now
    ctx.session.add(character)
    await ctx.audit("char.power", character_id=character.id, field_name=power["name"], old=power)
    left = ctx.settings_for(NightcapSettings).budget.power_dots - chargen.dots_spent(sheet["powers"])
    return Reply(
        text=f"{character.name} forgets {power['name']}. {chargen.remaining(left, 'power dot')}.{note}",
        private=True,
        result={
            "kind": "power",
            "character": character.name,
            "removed": power,
            **chargen.left_fields(left),
        },
    )


@COMMANDS.command("char budget", "trait points and power dots left", "char budget", params=(), private=True)
async def char_budget(ctx: CommandContext, inv: Invocation) -> Reply:
    nothing_after(inv, "char budget")
    character = await my_character(ctx)
    sheet = sheet_of(character)
    budget = ctx.settings_for(NightcapSettings).budget
    result = chargen.summary(sheet, budget)
    result["character"] = character.name
    prefix = (
        f"{character.name} is approved; the creation budget no longer binds. "
        if character.status == APPROVED
        else f"{character.name}. "
    )
    return Reply(
        text=f"{prefix}Traits: {view.traits_line(sheet)}. {view.budget_text(sheet, budget)}",
        private=True,
        result=result,
    )


@COMMANDS.command(
    "char submit", "hand a finished sheet to the Storytellers", "char submit", params=(), private=True
)
async def char_submit(ctx: CommandContext, inv: Invocation) -> Reply:
    nothing_after(inv, "char submit")
    character = await my_character(ctx, lock=True)
    if character.status == APPROVED:
        raise UserError(f"{character.name} is already approved.")
    if character.status == SUBMITTED:
        raise UserError(f"{character.name} is already submitted and waiting for a Storyteller.")
    sheet = sheet_of(character)
    chargen.check_submit(character.name, sheet, ctx.settings_for(NightcapSettings).budget)
    old = character.status
    character.status = SUBMITTED
    character.updated_at = ctx.now
    ctx.session.add(character)
    await ctx.audit("char.submit", character_id=character.id, field_name="status", old=old, new=SUBMITTED)
    text, structured = await render(ctx, character, owner=ctx.person.display_name)
    await ctx.stlog(
        f"{ctx.name} submitted {character.name} for approval (st approve {character.name}).\n{text}",
        kind="submit",
        result={"kind": "sheet", "sheet": structured},
        character_id=character.id,
    )
    return Reply(
        text=f"{character.name} is submitted: a Storyteller will read the sheet and approve it.",
        private=True,
        result={"kind": "character", "name": character.name, "status": character.status},
    )


async def own_or_named(ctx: CommandContext, inv: Invocation, command: str, others: str) -> Character:
    """The character ``command [NAME]`` is about: the caller's active one without NAME, else the one
    named, if it is the caller's own or the caller is a Storyteller; ``others`` says what the
    player of someone else's character may do instead. A name is never ignored."""
    name = inv.args.get("name")
    if not name:
        return await my_character(ctx)
    character = await find_character(ctx.session, SYSTEM, name)
    if character is None:
        raise UserError(f"No Nightcap character called {name[:60]}. Write {command} [NAME].")
    if character.owner_id != ctx.person.id and not ctx.storyteller:
        raise PermissionDenied(f"{character.name} is another player's character: {others}")
    return character


@COMMANDS.command(
    "sheet",
    "your whole sheet (or one of your characters'), privately",
    "sheet [NAME]",
    params=P.OWN_OR_NAMED,
    private=True,
)
async def sheet_command(ctx: CommandContext, inv: Invocation) -> Reply:
    character = await own_or_named(
        ctx, inv, "sheet", "ask their player to prove it, or a Storyteller to read it."
    )
    owner = ctx.person.display_name if character.owner_id == ctx.person.id else None
    text, structured = await render(ctx, character, owner=owner)
    return Reply(text=text, private=True, result={"kind": "sheet", "sheet": structured})


@COMMANDS.command(
    "prove",
    "show traits, Willpower and Essence to the scene (approved sheets)",
    "prove [NAME]",
    aliases=("+prove",),
    params=P.OWN_OR_NAMED,
)
async def prove_command(ctx: CommandContext, inv: Invocation) -> Reply:
    # The book: "+prove Prints your core traits ...": a player proves their own; a Storyteller, who
    # would otherwise "Ask for +prove", may print anyone's.
    character = await own_or_named(ctx, inv, "prove", "only their player proves it (ask them).")
    require_approved(character, "prove")
    sheet = sheet_of(character)
    pools = await pool_values(ctx, character)
    structured = view.sheet_dict(character.name, character.status, sheet, pools, ctx.name)
    return Reply(
        text=view.prove_text(character.name, sheet, pools),
        result={
            "kind": "prove",
            "name": character.name,
            "traits": structured["traits"],
            "willpower": structured["pools"]["willpower"],
            "essence": structured["pools"]["essence"],
        },
    )
