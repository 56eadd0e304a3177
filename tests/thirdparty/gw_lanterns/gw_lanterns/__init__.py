"""Lanterns: a small original rule system written as a third party would, against the public API.

Roll a pool of d6; every 5 or 6 is a light. Meet the difficulty (``dc``, 1 by default) in lights and
the lantern is ``lit``; twice the difficulty is a ``blaze``; fewer is a ``flicker``; no light at all
is ``dark``. Burning a point of oil adds two dice. A sheet: three ratings (Wit, Nerve, Craft, 0-5),
an Oil pool (0-5), a Calling (keeper, seeker, mender) and notes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gateway import (
    Catalogue,
    Character,
    Choice,
    Command,
    CommandContext,
    DegreeColour,
    EditLines,
    Invocation,
    Param,
    PermissionDenied,
    Reply,
    RuleSystem,
    SheetAction,
    SheetField,
    SheetGroup,
    SheetSpec,
    UserError,
    create_character,
    find_character,
    hookimpl,
    pools_of,
    require_active,
)

SYSTEM = "lanterns"
RATINGS = ("wit", "nerve", "craft")
CALLINGS = ("keeper", "seeker", "mender")
FIELDS = (*RATINGS, "oil", "calling", "notes")
OIL_MAX = 5

CATALOGUE = Catalogue(
    {
        "en": {
            "created": "{name} lights a lantern: your Lanterns character now.",
            "used": "{name} is your active Lanterns character.",
            "sheet": "{name} ({status}): Wit {wit}, Nerve {nerve}, Craft {craft}; Oil {oil}/{oil_max};"
            " {calling}. {notes}",
            "set": "{name}: {field} {old} → {new}.",
            "roll": "{name} lights {pool}: {faces} → {lights} of {dc} → {degree} #{id}",
            "burn": "{name} burns {amount} oil: {left} left.",
            "degree.dark": "dark",
            "degree.flicker": "flicker",
            "degree.lit": "lit",
            "degree.blaze": "blaze",
        }
    }
)
DEGREE_COLOURS = {
    "dark": DegreeColour.BOTCH,
    "flicker": DegreeColour.FAILURE,
    "lit": DegreeColour.SUCCESS,
    "blaze": DegreeColour.BEST,
}


def degree_of(lights: int, dc: int) -> str:
    """The degree word: pure, for the tests and ``verify`` alike."""
    if lights == 0:
        return "dark"
    if lights < dc:
        return "flicker"
    return "blaze" if lights >= 2 * dc else "lit"


def pool_size(words: list[str], sheet: dict[str, Any]) -> int:
    """``wit+nerve``, ``3``, ``craft+2``: the sum of the named ratings and numbers."""
    total = 0
    for word in "+".join(words).replace(" ", "").split("+"):
        if not word:
            continue
        if word.isdigit():
            total += int(word)
        elif word.casefold() in RATINGS:
            total += int(sheet.get(word.casefold(), 0))
        else:
            raise UserError(f"No trait {word[:20]!r}: roll wit, nerve, craft or a number.")
    if not 1 <= total <= 20:
        raise UserError("A lantern pool is 1 to 20 dice.")
    return total


# --- typed parameters ---------------------------------------------------------------------------
POOL = Param("pool", "pool", "ratings and numbers joined by +, e.g. wit+nerve", required=True)
TRAIT = Param("trait", "trait", "the rating rolled alone", required=True)
DC = Param("dc", "integer", "lights needed, 1 to 5", minimum=1, maximum=5, keyword="dc")
OIL = Param("oil", "flag", "burn a point of oil for two more dice", keyword="oil")
AMOUNT = Param("amount", "integer", "points of oil burnt", required=True, minimum=1, maximum=OIL_MAX)
FIELD = Param("field", "choice", "which field of the sheet", required=True, choices=FIELDS)
VALUE = Param("value", "text", "its new value", required=True)
WHO = Param("name", "character", "the character's name", required=True)


async def light(ctx: CommandContext, inv: Invocation) -> Reply:
    character = await require_active(ctx, SYSTEM)
    words = inv.args["pool"]
    return await _roll(ctx, character, words if isinstance(words, list) else [words], inv.args)


async def steady(ctx: CommandContext, inv: Invocation) -> Reply:
    character = await require_active(ctx, SYSTEM)
    return await _roll(ctx, character, [inv.args["trait"]], inv.args)


async def _roll(ctx: CommandContext, character: Character, words: list[str], args: Any) -> Reply:
    sheet = dict(character.sheet or {})
    dice = pool_size(words, sheet)
    dc = int(args.get("dc") or 1)
    if args.get("oil"):
        await _spend(ctx, character, 1)
        dice += 2
    faces = [ctx.dice.roll(6) for _ in range(dice)]
    lights = sum(1 for f in faces if f >= 5)
    degree = degree_of(lights, dc)
    result = {
        "kind": "roll",
        "system": SYSTEM,
        "pool": dice,
        "dice": faces,
        "successes": lights,
        "total": lights,
        "degree": degree,
        "dc": dc,
    }
    roll_id = await ctx.log_roll(result)
    text = CATALOGUE.say(
        ctx,
        "roll",
        name=character.name,
        pool="+".join(words),
        faces=" ".join(map(str, faces)),
        lights=lights,
        dc=dc,
        degree=CATALOGUE.say(ctx, f"degree.{degree}"),
        id=roll_id,
    )
    await ctx.stlog(text, kind="roll", result=result)
    return Reply(text=text, result=result)


async def _spend(ctx: CommandContext, character: Character, amount: int) -> int:
    assert character.id is not None
    oil = (await pools_of(ctx.session, character.id))["oil"]
    if oil.current < amount:
        raise UserError(f"{character.name} has {oil.current} oil, not {amount}.")
    oil.current -= amount
    ctx.session.add(oil)
    return oil.current


async def burn(ctx: CommandContext, inv: Invocation) -> Reply:
    character = await require_active(ctx, SYSTEM)
    amount = int(inv.args["amount"])
    left = await _spend(ctx, character, amount)
    text = CATALOGUE.say(ctx, "burn", name=character.name, amount=amount, left=left)
    return Reply(text=text, result={"kind": "pool", "system": SYSTEM, "oil": left})


async def gauge(ctx: CommandContext, inv: Invocation) -> Reply:
    """The oil left, told to the player alone (declared ``private=True``)."""
    character = await require_active(ctx, SYSTEM)
    assert character.id is not None
    oil = (await pools_of(ctx.session, character.id))["oil"]
    text = f"{character.name}'s lantern holds {oil.current} of {oil.maximum} oil."
    return Reply(text=text, private=True, result={"kind": "pool", "system": SYSTEM, "oil": oil.current})


async def char_new(ctx: CommandContext, inv: Invocation) -> Reply:
    sheet: dict[str, Any] = {**dict.fromkeys(RATINGS, 1), "calling": "keeper", "notes": ""}
    character = await create_character(ctx, str(inv.args["name"]), sheet, {"oil": (3, OIL_MAX)})
    text = CATALOGUE.say(ctx, "created", name=character.name)
    return Reply(text=text, result={"kind": "character", "system": SYSTEM, "character": character.name})


async def char_use(ctx: CommandContext, inv: Invocation) -> Reply:
    character = await _named(ctx, str(inv.args["name"]))
    if character.owner_id != ctx.person.id:
        raise PermissionDenied(f"{character.name} is not yours.")
    ctx.person.active_character_id = character.id
    ctx.session.add(ctx.person)
    return Reply(text=CATALOGUE.say(ctx, "used", name=character.name))


async def _named(ctx: CommandContext, name: str) -> Character:
    character = await find_character(ctx.session, SYSTEM, name)
    if character is None:
        raise UserError(f"No Lanterns character called {name[:60]!r}.")
    return character


async def sheet(ctx: CommandContext, inv: Invocation) -> Reply:
    name = inv.args.get("name")
    character = await (_named(ctx, str(name)) if name else require_active(ctx, SYSTEM))
    if character.owner_id != ctx.person.id and not ctx.storyteller:
        raise PermissionDenied(f"{character.name}'s sheet is for its player and the Storytellers.")
    assert character.id is not None
    oil = (await pools_of(ctx.session, character.id))["oil"]
    data = dict(character.sheet or {})
    text = CATALOGUE.say(
        ctx,
        "sheet",
        name=character.name,
        status=character.status,
        oil=oil.current,
        oil_max=oil.maximum,
        calling=str(data.get("calling", "")).title(),
        notes=data.get("notes", ""),
        **{k: data.get(k, 0) for k in RATINGS},
    ).rstrip()
    result = {"kind": "sheet", "system": SYSTEM, "character": character.name, "sheet": data}
    return Reply(text=text, private=True, result=result)


async def set_own(ctx: CommandContext, inv: Invocation) -> Reply:
    character = await require_active(ctx, SYSTEM)
    if character.status == "approved":
        raise UserError(f"{character.name}'s sheet is approved; a Storyteller changes it with st set.")
    return await _set(ctx, character, str(inv.args["field"]), str(inv.args["value"]), storyteller=False)


async def st_set(ctx: CommandContext, inv: Invocation) -> Reply:
    character = await _named(ctx, str(inv.args["name"]))
    return await _set(ctx, character, str(inv.args["field"]), str(inv.args["value"]), storyteller=True)


async def _set(
    ctx: CommandContext, character: Character, field: str, value: str, *, storyteller: bool
) -> Reply:
    assert character.id is not None
    data = dict(character.sheet or {})
    if field == "oil":
        if not storyteller:
            raise PermissionDenied("Only a Storyteller refills oil.")
        new: Any = _number(value, field, OIL_MAX)
        pool = (await pools_of(ctx.session, character.id))["oil"]
        old: Any = pool.current
        pool.current = new
        ctx.session.add(pool)
    else:
        old = data.get(field)
        if field in RATINGS:
            new = _number(value, field, 5)
        elif field == "calling":
            new = value.casefold()
            if new not in CALLINGS:
                raise UserError(f"A calling is {', '.join(CALLINGS)}.")
        else:
            new = value[:500]
        data[field] = new
        character.sheet = data
        character.updated_at = ctx.now
        ctx.session.add(character)
    await ctx.audit(f"{SYSTEM}.set", character_id=character.id, field_name=field, old=old, new=new)
    text = CATALOGUE.say(ctx, "set", name=character.name, field=field.title(), old=old, new=new)
    return Reply(text=text, result={"kind": "sheet_edit", "system": SYSTEM, "field": field, "new": new})


def _number(value: str, field: str, maximum: int) -> int:
    if not value.strip().isdigit() or int(value) > maximum:
        raise UserError(f"{field.title()} goes from 0 to {maximum}.")
    return int(value)


async def st_approve(ctx: CommandContext, inv: Invocation) -> Reply:
    character = await _named(ctx, str(inv.args["name"]))
    character.status = "approved"
    character.updated_at = ctx.now
    ctx.session.add(character)
    return Reply(text=f"{character.name}'s sheet is approved.")


def _command(
    name: str, handler: Any, summary: str, *params: Param, role: Any = "player", private: bool = False
) -> Command:
    return Command(name, handler, summary, params=params, role=role, private=private)


COMMANDS = [
    _command("light", light, "roll a lantern pool", POOL, DC, OIL),
    _command("steady", steady, "roll one rating", TRAIT, DC, OIL),
    _command("burn", burn, "burn oil", AMOUNT),
    _command("gauge", gauge, "how much oil your lantern holds, for you alone", private=True),
    _command(
        "char new", char_new, "make a Lanterns character", Param("name", "text", "its name", required=True)
    ),
    _command(
        "char use",
        char_use,
        "pick your active character",
        Param("name", "own_character", "one of yours", required=True),
    ),
    _command(
        "sheet",
        sheet,
        "show a sheet",
        Param("name", "character", "whose sheet (default: yours)"),
        private=True,
    ),
    _command("set", set_own, "set a field of your unapproved sheet", FIELD, VALUE),
    _command("st set", st_set, "set any character's field", WHO, FIELD, VALUE, role="storyteller"),
    _command("st approve", st_approve, "approve a sheet", WHO, role="storyteller"),
]

PLAYER_LINES = EditLines(player="set {key} {value}", storyteller="st set {name} {key} {value}")


def _rating(key: str) -> SheetField:
    return SheetField(key, "rating", {"en": key.title()}, group="ratings", maximum=5, default=0)


SHEET = SheetSpec(
    fields=(
        *(_rating(key) for key in RATINGS),
        SheetField(
            "oil",
            "pool",
            {"en": "Oil"},
            group="lamp",
            edit="storyteller",
            maximum=OIL_MAX,
            lines=EditLines(storyteller="st set {name} oil {value}"),
        ),
        SheetField(
            "calling",
            "choice",
            {"en": "Calling"},
            group="lamp",
            choices=tuple(Choice(c, {"en": c.title()}) for c in CALLINGS),
        ),
        SheetField("notes", "text", {"en": "Notes"}, group="lamp", multiline=True, max_length=500),
    ),
    groups=(SheetGroup("ratings", {"en": "Ratings"}), SheetGroup("lamp", {"en": "The Lamp"})),
    lines={"rating": PLAYER_LINES, "choice": PLAYER_LINES, "text": PLAYER_LINES},
    actions=(SheetAction("approve", {"en": "Approve"}, "st approve {name}", statuses=("creation",)),),
)

LANTERNS = RuleSystem(
    SYSTEM,
    "Lanterns",
    "d6 pools, 5+ is a light",
    commands=COMMANDS,
    catalogue=CATALOGUE,
    sheet=SHEET,
    degree_colours=DEGREE_COLOURS,
)


@hookimpl
def gateway_register_rule_systems(register: Callable[[RuleSystem], None]) -> None:
    register(LANTERNS)
