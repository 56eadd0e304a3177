"""Dramatic Systems' commands: rolls (Willpower, specialty, retries, resisted), odds, scenes, sheets."""

from __future__ import annotations

from dataclasses import dataclass
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
from gateway.vault.models import Pool as PoolRow
from plugins.dramatic import mechanics, odds, sheet
from plugins.dramatic.config import dramatic_settings
from plugins.dramatic.mechanics import SYSTEM
from plugins.dramatic.messages import CATALOGUE
from plugins.dramatic.parse import PoolExpr, SideRequest, parse_roll

WP = "willpower"


def t(ctx: CommandContext, key: str, /, **params: Any) -> str:
    return CATALOGUE.t(ctx.locale, key, **params)


def roller_key(ctx: CommandContext, character: Character | None) -> str:
    return f"c{character.id}" if character is not None else f"p{ctx.person.id}"


@dataclass(frozen=True)
class Pool:
    dice: int
    label: str


def resolve_pool(expr: PoolExpr, character: Character | None, who: str = "you") -> Pool:
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
                f"Unknown trait {word[:40]!r}. Roll numbers (roll 6 diff 7) or Attribute + Ability names"
                " (roll dex+brawl)."
            )
        if data is None:
            raise UserError(
                f"{sheet.title(trait)} is a trait, and {who} have no active Dramatic Systems character:"
                " roll numbers, or make one with char new NAME."
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
        return t(ctx, "dice.labelled", label=label, n=max(pool, 0))
    return t(ctx, "dice", n=max(pool, 0))


def difficulty_text(ctx: CommandContext, difficulty: int, asked: int, base: int, failures: int) -> str:
    if failures:
        return t(ctx, "difficulty.retry", d=difficulty, base=base, failures=failures)
    if asked != difficulty:
        return t(ctx, "difficulty.clamped", d=difficulty, asked=asked)
    return t(ctx, "difficulty", d=difficulty)


def faces(values: Any) -> str:
    return " ".join(str(v) for v in values)


def body(ctx: CommandContext, roll: mechanics.Roll) -> dict[str, str]:
    return {
        "faces": faces(roll.original) or t(ctx, "faces.none"),
        "extra": t(ctx, "specialty", extra=faces(roll.extra)) if roll.extra else "",
        "wp": t(ctx, "willpower") if roll.willpower else "",
    }


async def _opponent_character(ctx: CommandContext, side: SideRequest) -> Character | None:
    if len(side.words) > 1:
        return await find_character(ctx.session, SYSTEM, side.words[0])
    return None


async def roll_command(ctx: CommandContext, inv: Invocation) -> Reply:
    request = parse_roll(inv.words)
    character = await active_character(ctx, SYSTEM)
    who = character.name if character else ctx.name
    config = dramatic_settings(ctx.settings)
    left = resolve_pool(request.side.pool(False), character)
    max_pool = ctx.settings.gateway.max_pool
    if left.dice > max_pool:
        raise UserError(f"A pool of {left.dice} is above the maximum of {max_pool} dice.")
    asked = request.side.difficulty if request.side.difficulty is not None else config.default_difficulty
    base = mechanics.clamp_difficulty(asked)
    failures = 0
    retry_kind = f"retry:{roller_key(ctx, character)}"
    retry_row = await scene.get(ctx.session, ctx.channel.key, SYSTEM, retry_kind)
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
        await scene.put(ctx.session, ctx.channel.key, SYSTEM, retry_kind, data, ctx.now)
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
    config = dramatic_settings(ctx.settings)
    other = await _opponent_character(ctx, opponent)
    right = resolve_pool(opponent.pool(other is not None), other, "they")
    max_pool = ctx.settings.gateway.max_pool
    if right.dice > max_pool:
        raise UserError(f"A pool of {right.dice} is above the maximum of {max_pool} dice.")
    right_asked = opponent.difficulty if opponent.difficulty is not None else config.default_difficulty
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


def percent(p: Fraction) -> str:
    return f"{float(p) * 100:.1f}%"


async def odds_command(ctx: CommandContext, inv: Invocation) -> Reply:
    request = parse_roll(inv.words)
    character = await active_character(ctx, SYSTEM)
    config = dramatic_settings(ctx.settings)
    left = resolve_pool(request.side.pool(False), character)
    max_pool = ctx.settings.gateway.max_pool
    if left.dice > max_pool:
        raise UserError(f"Odds stop at pools of {max_pool} dice.")
    asked = request.side.difficulty if request.side.difficulty is not None else config.default_difficulty
    base = mechanics.clamp_difficulty(asked)
    failures = 0
    if request.retry:
        row = await scene.get(ctx.session, ctx.channel.key, SYSTEM, f"retry:{roller_key(ctx, character)}")
        failures = int(row.data.get("failures", 0)) if row is not None else 0
    difficulty = mechanics.retry_difficulty(base, failures)
    wp = t(ctx, "willpower") if request.side.willpower else ""
    if request.opponent is not None:
        other = await _opponent_character(ctx, request.opponent)
        right = resolve_pool(request.opponent.pool(other is not None), other, "they")
        if right.dice > max_pool:
            raise UserError(f"Odds stop at pools of {max_pool} dice.")
        right_asked = (
            request.opponent.difficulty
            if request.opponent.difficulty is not None
            else config.default_difficulty
        )
        right_difficulty = mechanics.clamp_difficulty(right_asked)
        chances = odds.resisted_odds(
            left.dice,
            right.dice,
            difficulty,
            right_difficulty,
            willpower=request.side.willpower,
            attacker_specialty=request.side.specialty,
            defender_specialty=request.opponent.specialty,
        )
        text = t(
            ctx,
            "odds.resisted",
            left=dice_text(ctx, left.dice, left.label) + wp + " " + t(ctx, "at_difficulty", d=difficulty),
            right=dice_text(ctx, right.dice, right.label) + " " + t(ctx, "at_difficulty", d=right_difficulty),
            win=percent(chances.attacker),
            lose=percent(chances.defender),
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
    chances = odds.roll_odds(
        left.dice, difficulty, willpower=request.side.willpower, specialty=request.side.specialty
    )
    top = min(max(left.dice + 1, 1), 8)
    spread = ", ".join(
        t(ctx, "odds.at_least", k=k, p=percent(chances.at_least(k))) for k in range(2, top + 1)
    )
    text = t(
        ctx,
        "odds.line",
        dice=dice_text(ctx, left.dice, left.label),
        wp=wp,
        difficulty=t(ctx, "difficulty", d=difficulty),
        spec=t(ctx, "odds.spec") if request.side.specialty else "",
        botch=percent(chances.botch),
        failure=percent(chances.failure),
        success=percent(chances.success),
        spread=spread or t(ctx, "odds.at_least", k=1, p=percent(chances.success)),
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


async def scene_end_command(ctx: CommandContext, inv: Invocation) -> Reply:
    rows = await scene.list_prefixed(ctx.session, ctx.channel.key, SYSTEM, "retry:")
    names = [str(r.data.get("name", "?")) for r in rows if r.data.get("failures")]
    await scene.delete_prefixed(ctx.session, ctx.channel.key, SYSTEM, "retry:")
    text = t(ctx, "scene.end_cleared", names=", ".join(names)) if names else t(ctx, "scene.end")
    result = {"kind": "scene_end", "system": SYSTEM, "channel": ctx.channel.key, "retries_cleared": names}
    await ctx.stlog(text, kind="scene_end", result=result)
    return Reply(text=text, result=result)


# ---------------------------------------------------------------- characters and sheets


async def _character_named(ctx: CommandContext, name: str) -> Character:
    character = await find_character(ctx.session, SYSTEM, name)
    if character is None:
        raise UserError(f"No Dramatic Systems character called {name[:60]!r}.")
    return character


def _int(word: str, what: str) -> int:
    try:
        value = int(word)
    except ValueError:
        raise UserError(f"{what} is a whole number, not {word[:20]!r}.") from None
    if abs(value) > 1000:
        raise UserError(f"{what} stops at 1000.")
    return value


async def char_new_command(ctx: CommandContext, inv: Invocation) -> Reply:
    name = " ".join(inv.words)
    if not name:
        raise UserError("Write char new NAME, e.g. char new Mira.")
    wp = dramatic_settings(ctx.settings).willpower
    character = await create_character(ctx, name, sheet.dump(sheet.DramaticSheet()), pools={WP: (wp, wp)})
    return Reply(
        text=t(ctx, "char.created", name=character.name, wp=wp),
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
    wp, wp_max = await pool_value(ctx.session, character.id, WP) or (0, 0)
    none = t(ctx, "none")
    text = t(
        ctx,
        "sheet",
        name=character.name,
        status=character.status,
        attributes=_dots(data.attributes, sheet.ATTRIBUTES),
        abilities=_dots(data.abilities, sheet.ABILITIES) or none,
        specialties=", ".join(data.specialties) or none,
        wp=wp,
        wp_max=wp_max,
    )
    result = {
        "kind": "sheet",
        "system": SYSTEM,
        "character": character.name,
        "status": character.status,
        "sheet": sheet.dump(data),
        "willpower": {"current": wp, "maximum": wp_max},
    }
    return Reply(text=text, private=True, result=result)


SET_USAGE = (
    "FIELD VALUE, with FIELD an Attribute or Ability (dots), specialties (a comma list), notes,"
    " or (Storytellers) willpower N or CURRENT/MAX"
)


def _show(value: Any) -> str:
    if isinstance(value, list):
        return ", ".join(value) or "-"
    return str(value) if value not in (None, "") else "-"


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
    if folded in ("wp", "willpower") and storyteller:
        current_word, _, max_word = value_words[0].partition("/")
        current = _int(current_word, "Willpower")
        maximum = _int(max_word, "Willpower") if max_word else current
        if not 0 <= current <= maximum <= 10:
            raise UserError("Willpower is CURRENT/MAX with 0 <= CURRENT <= MAX <= 10, e.g. 3/6 (or just 6).")
        pool = await ctx.session.get(PoolRow, (character.id, WP), populate_existing=True)
        if pool is None:
            pool = PoolRow(character_id=character.id, name=WP)
        old = f"{pool.current}/{pool.maximum}"
        pool.current, pool.maximum = current, maximum
        ctx.session.add(pool)
        field, new = WP, f"{current}/{maximum}"
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
        maximum_dots = sheet.STORYTELLER_MAX if storyteller else sheet.PLAYER_MAX
        data, old = sheet.set_trait(data, trait, value, maximum_dots)
        field, new = trait, value
    character.sheet = sheet.dump(data)
    character.updated_at = ctx.now
    ctx.session.add(character)
    await ctx.audit(
        "dramatic.st_set" if storyteller else "dramatic.set",
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
        "dramatic.approve", character_id=character.id, field_name="status", old=old, new="approved"
    )
    text = t(ctx, "approved", name=character.name)
    await ctx.stlog(text, kind="edit", character_id=character.id)
    return Reply(
        text=text,
        result={"kind": "character", "system": SYSTEM, "character": character.name, "status": "approved"},
    )
