"""Nightcap combat commands: initiative (``init ...``), ``attack`` with soak and the Health track, and
``st soak``. The fight lives in the channel's ``SceneState`` (kind ``combat``), so it survives restarts."""

from __future__ import annotations

from dataclasses import replace as dc_replace
from typing import Any

from gateway import CommandContext, CommandSet, Invocation, PermissionDenied, Reply, UserError
from gateway.features.characters import find_character, require_active
from gateway.vault import repo
from gateway.vault.models import Character, SceneState
from plugins.nightcap import combat, initiative, mechanics, render, rulings
from plugins.nightcap import params as P
from plugins.nightcap.acting import check_in_play, incapacitated_refusal
from plugins.nightcap.combat import HEALTH_LEVELS
from plugins.nightcap.config import SYSTEM
from plugins.nightcap.conflict_commands import (
    DAMAGE,
    WILLPOWER,
    damage_pool,
    ensure_can_act,
    health_of,
    load_scene,
    match_character_prefix,
    save_scene,
)
from plugins.nightcap.house import dice
from plugins.nightcap.initiative import Combat, Combatant
from plugins.nightcap.pools import parse_side
from plugins.nightcap.roll_commands import spend_willpower
from plugins.nightcap.sides import Built, character_side, rating_side, soak_of, trait_rating
from plugins.nightcap.store import overrule
from plugins.nightcap.words import nothing_after

COMMANDS = CommandSet(SYSTEM)
COMBAT = "combat"
INIT_USAGE = (
    "init start | init join [NAME N] | init roll | init next | init list | init move NAME POS | init wp [off]"
    " | init end"
)
ATTACK_USAGE = "attack TARGET [TRAIT] [+weapon] [-N] [wp] [vs TRAIT [+N|-N]] [as NAME]"
MAX_NPC_RATING = 20


# --- state ------------------------------------------------------------------------------------


async def _load(ctx: CommandContext) -> tuple[SceneState | None, Combat | None]:
    row = await load_scene(ctx.session, ctx.channel.key, COMBAT)
    return row, (Combat.from_dict(row.data) if row is not None else None)


async def _require(ctx: CommandContext) -> tuple[SceneState | None, Combat]:
    row, fight = await _load(ctx)
    if fight is None:
        raise UserError("There is no fight in this channel: init start opens one.")
    return row, fight


async def _save(ctx: CommandContext, row: SceneState | None, fight: Combat) -> None:
    await save_scene(ctx.session, row, ctx.channel.key, COMBAT, fight.as_dict(), ctx.now)


def _me(ctx: CommandContext) -> str:
    return f"p{ctx.person.id}"


def _runs_fight(ctx: CommandContext, fight: Combat) -> bool:
    return ctx.storyteller or fight.started_by == _me(ctx)


async def _health(ctx: CommandContext, c: Combatant) -> tuple[int, int]:
    """(damage, levels) of a combatant: an NPC's from the fight, a character's from their pool."""
    if c.npc or c.character_id is None:
        return c.damage, HEALTH_LEVELS
    character = await ctx.session.get(Character, c.character_id)
    return await health_of(ctx.session, character) if character else (0, HEALTH_LEVELS)


async def _out(ctx: CommandContext, fight: Combat) -> frozenset[str]:
    """Everyone Incapacitated: they take no more turns."""
    out = set()
    for c in fight.combatants:
        if combat.incapacitated(*await _health(ctx, c)):
            out.add(c.key)
    return frozenset(out)


async def _order_result(ctx: CommandContext, fight: Combat, **extra: Any) -> dict[str, Any]:
    health = {c.key: await _health(ctx, c) for c in fight.combatants}
    out = {key for key, h in health.items() if combat.incapacitated(*h)}
    partners = initiative.tie_partners(fight.combatants)
    entries = []
    for position, c in enumerate((c for c in fight.combatants if c.initiative is not None), start=1):
        entries.append(
            {
                "position": position,
                "name": c.name,
                "initiative": c.initiative,
                "physical": c.physical,
                "faces": list(c.faces),
                "roll_id": c.roll_id,
                "tied": c.tied,
                "tied_with": partners.get(c.key, []),
                "npc": c.npc,
                "character_id": c.character_id,
                "acted": c.key in fight.acted,
                "current": c.key == fight.current,
                "incapacitated": c.key in out,
                "damage": health[c.key][0],
            }
        )
    current = fight.find(fight.current) if fight.current else None
    return {
        "kind": "initiative",
        "system": SYSTEM,
        "round": fight.round,
        "current": current.name if current else None,
        "order": entries,
        "waiting": [c.name for c in initiative.unrolled(fight)],
        **extra,
    }


def _order_text(result: dict[str, Any]) -> str:
    parts = []
    for e in result["order"]:
        notes = [str(e["initiative"])]
        if e["tied"]:
            notes.append(f"tied with {' and '.join(e['tied_with'])}" if e.get("tied_with") else "tied")
        if e["incapacitated"]:
            notes.append("Incapacitated")
        mark = "▶ " if e["current"] else ""
        parts.append(f"{e['position']}. {mark}{e['name']} ({', '.join(notes)})")
    text = f"Round {result['round']}: " + ", ".join(parts) if parts else "Nobody has rolled for order yet"
    if result["waiting"]:
        text += f". Not rolled yet: {', '.join(result['waiting'])}"
    if any(e["tied"] for e in result["order"]):
        text += ". Ties are for the Storyteller: init move NAME POS"
    return text + "."


# --- init -------------------------------------------------------------------------------------


@COMMANDS.command("init start", "open a fight in this channel", INIT_USAGE, params=())
async def init_start(ctx: CommandContext, inv: Invocation) -> Reply:
    nothing_after(inv, "init start")
    row, fight = await _load(ctx)
    if fight is not None:
        raise UserError(f"A fight is already on here (round {fight.round}): init end closes it first.")
    fight = Combat(started_by=_me(ctx))
    await _save(ctx, row, fight)
    text = "A fight starts. Join with init join; when everyone is in, init roll sets the order."
    await ctx.stlog(f"{ctx.name} starts a fight in {ctx.channel.key}.", kind="combat")
    return Reply(
        text=text, result={"kind": "initiative", "system": SYSTEM, "round": 0, "order": [], "waiting": []}
    )


async def _roll_for(ctx: CommandContext, fight: Combat, people: list[Combatant]) -> tuple[Combat, list[str]]:
    """Roll Physical with no modifiers for each of ``people`` (in joining order) and slot them in."""
    rolls: dict[str, tuple[int, tuple[int, ...], str | None]] = {}
    lines = []
    for c in people:
        rating = c.physical
        if c.character_id is not None:
            character = await ctx.session.get(Character, c.character_id)
            if character is not None:
                rating = trait_rating(character, "physical")
        roll = mechanics.roll(rating, ctx.dice, **dice(ctx))
        label = f"Physical {rating}"
        result = {**roll.as_result(), "kind": "initiative_roll", "who": c.name, "trait": "physical"}
        roll_id = await ctx.log_roll(result, character_id=c.character_id, name=c.name)
        body = f"{render.roll_body(roll, label)} #{roll_id}"
        await ctx.stlog(
            f"{c.name} rolls for order: {body}", kind="initiative", result=result, character_id=c.character_id
        )
        lines.append(f"{c.name} {body}")
        rolls[c.key] = (roll.total, roll.dice, roll_id)
        if rating != c.physical:
            fight = initiative.set_npc(fight, c.key, physical=rating)
    return initiative.record_rolls(fight, rolls, await _out(ctx, fight)), lines


@COMMANDS.command(
    "init join",
    "join the fight (Storytellers: add an NPC)",
    "init join [NAME [PHYSICAL]]",
    params=P.INIT_JOIN,
)
async def init_join(ctx: CommandContext, inv: Invocation) -> Reply:
    row, fight = await _require(ctx)
    wanted, physical_arg = inv.args.get("name"), inv.args.get("physical")
    character: Character | None
    if not wanted:
        character = await require_active(ctx, SYSTEM)
        key, name, physical, npc = (
            f"c:{character.id}",
            character.name,
            trait_rating(character, "physical"),
            False,
        )
        char_id: int | None = character.id
        check_in_play(character, "init join")
    else:
        character = await find_character(ctx.session, SYSTEM, wanted) if physical_arg is None else None
        if character is not None:
            if character.owner_id != ctx.person.id and not ctx.storyteller:
                raise PermissionDenied(
                    f"Adding {character.name}, who is not yours, needs the Storyteller role."
                )
            key, name, physical, npc = (
                f"c:{character.id}",
                character.name,
                trait_rating(character, "physical"),
                False,
            )
            char_id = character.id
            check_in_play(character, "init join", own=character.owner_id == ctx.person.id)
        else:
            if not ctx.storyteller:
                raise PermissionDenied("Adding an NPC (init join NAME PHYSICAL) needs the Storyteller role.")
            if physical_arg is None:
                raise UserError("An NPC joins with a name and a Physical rating: init join Ghoul 4.")
            physical = int(physical_arg)
            if not 0 <= physical <= MAX_NPC_RATING:
                raise UserError(f"An NPC's Physical is 0 to {MAX_NPC_RATING}.")
            name = " ".join(wanted.split())[:60]
            if await find_character(ctx.session, SYSTEM, name) is not None:
                raise UserError(f"{name} is a character's name; give the NPC another one.")
            key, npc, char_id = f"npc:{name.casefold()}", True, None
    try:
        fight, joined = initiative.join(fight, key, name, physical, character_id=char_id, npc=npc)
    except initiative.CombatError as exc:
        raise UserError(str(exc)) from exc
    text = f"{name} joins the fight (Physical {physical})."
    if fight.rolled:
        fight, lines = await _roll_for(ctx, fight, [joined])
        text += f" Order roll: {lines[0]}."
    await _save(ctx, row, fight)
    return Reply(text=text, result=await _order_result(ctx, fight, joined=name))


@COMMANDS.command("init roll", "roll Physical for order, for everyone not yet rolled", "init roll", params=())
async def init_roll(ctx: CommandContext, inv: Invocation) -> Reply:
    # The book: "Each combatant rolls Physical with no modifiers" (so no +N, no wp, no other trait).
    nothing_after(inv, "init roll", ": each combatant rolls Physical with no modifiers and no Willpower")
    row, fight = await _require(ctx)
    people = initiative.unrolled(fight)
    if not fight.combatants:
        raise UserError("Nobody has joined the fight yet: init join.")
    if not people:
        raise UserError("Everyone has rolled already; the order holds for the whole fight (init list).")
    fight, lines = await _roll_for(ctx, fight, people)
    await _save(ctx, row, fight)
    result = await _order_result(ctx, fight, rolls=lines)
    return Reply(text="Order rolls: " + "; ".join(lines) + ". " + _order_text(result), result=result)


@COMMANDS.command("init next", "pass the turn on", "init next", params=())
async def init_next(ctx: CommandContext, inv: Invocation) -> Reply:
    nothing_after(inv, "init next")
    row, fight = await _require(ctx)
    current = fight.find(fight.current) if fight.current else None
    mine = current is not None and current.character_id is not None and await _owns(ctx, current.character_id)
    if not (mine or _runs_fight(ctx, fight)):
        who = current.name if current else "nobody"
        raise PermissionDenied(
            f"It is {who}'s turn: they, the Storyteller or whoever started the fight pass it on."
        )
    try:
        fight, new_round = initiative.advance(fight, await _out(ctx, fight))
    except initiative.CombatError as exc:
        raise UserError(str(exc)) from exc
    await _save(ctx, row, fight)
    result = await _order_result(ctx, fight, new_round=new_round)
    now = fight.find(fight.current) if fight.current else None
    head = f"Round {fight.round} begins. " if new_round else ""
    text = f"{head}{now.name} acts." if now else f"{head}Nobody is left who can act."
    return Reply(text=text, result=result)


async def _owns(ctx: CommandContext, character_id: int) -> bool:
    character = await ctx.session.get(Character, character_id)
    return character is not None and character.owner_id == ctx.person.id


@COMMANDS.command("init list", "show the order and the round", "init list", role="anyone", params=())
async def init_list(ctx: CommandContext, inv: Invocation) -> Reply:
    nothing_after(inv, "init list")
    _, fight = await _require(ctx)
    result = await _order_result(ctx, fight)
    return Reply(text=_order_text(result), result=result)


@COMMANDS.command(
    "init move", "put someone at a place in the order (ties)", "init move NAME POS", params=P.INIT_MOVE
)
async def init_move(ctx: CommandContext, inv: Invocation) -> Reply:
    row, fight = await _require(ctx)
    if not _runs_fight(ctx, fight):
        raise PermissionDenied("init move needs the Storyteller role (or to have started this fight).")
    who = fight.find_name(inv.args["name"])
    if who is None:
        raise UserError(f"Nobody called {inv.args['name'][:40]!r} is in this fight.")
    try:
        fight = initiative.move(fight, who.key, int(inv.args["position"]), await _out(ctx, fight))
    except initiative.CombatError as exc:
        raise UserError(str(exc)) from exc
    await _save(ctx, row, fight)
    result = await _order_result(ctx, fight)
    return Reply(text=_order_text(result), result=result)


@COMMANDS.command("init end", "end the fight", "init end", params=())
async def init_end(ctx: CommandContext, inv: Invocation) -> Reply:
    nothing_after(inv, "init end")
    row, fight = await _require(ctx)
    if not _runs_fight(ctx, fight):
        raise PermissionDenied("init end needs the Storyteller role (or to have started this fight).")
    result = await _order_result(ctx, fight, ended=True)
    assert row is not None
    await ctx.session.delete(row)
    text = f"The fight ends after {max(fight.round, 0)} round{'s' if fight.round != 1 else ''}."
    back = [c for c in fight.combatants if c.willpower and c.character_id is not None]
    for c in back:  # declared for a defence that never came
        assert c.character_id is not None
        await repo.gain_pool(ctx.session, c.character_id, WILLPOWER, 1)
    if back:
        text += f" Willpower declared for a defence is returned to {', '.join(c.name for c in back)}."
    await ctx.stlog(text, kind="combat", result=result)
    return Reply(text=text, result=result)


@COMMANDS.command(
    "init wp", "declare Willpower for your next defence in this fight", "init wp [off]", params=P.INIT_WP
)
async def init_wp(ctx: CommandContext, inv: Invocation) -> Reply:
    """The book's contest: "Willpower may be spent by either, and is declared before the dice"; an
    attack comes on someone else's turn, so the defender declares it beforehand. The point is paid
    now (as a challenger's is) and returned by init wp off or when the fight ends unused."""
    off = "off" in inv.args  # the router bound the one word it may have
    row, fight = await _require(ctx)
    character = await require_active(ctx, SYSTEM)
    assert character.id is not None
    me = fight.find(f"c:{character.id}")
    if me is None:
        raise UserError(f"{character.name} is not in this fight: init join first.")
    if off:
        if not me.willpower:
            raise UserError(f"{character.name} has no Willpower declared for a defence.")
        await repo.gain_pool(ctx.session, character.id, WILLPOWER, 1)
        text = (
            f"{character.name} takes back the Willpower declared for the next defence; the point is returned."
        )
    else:
        if me.willpower:
            raise UserError(
                f"{character.name} has already declared Willpower for the next defence (init wp off takes"
                " it back)."
            )
        await ensure_can_act(ctx.session, character, "init wp")
        await spend_willpower(ctx, character)  # declared and paid before any die
        text = (
            f"{character.name} declares Willpower for the next defence: 1 point spent now, +1 to the roll"
            " against the next attack in this fight (init wp off takes it back)."
        )
    fight = initiative.set_npc(fight, me.key, willpower=not off)
    await _save(ctx, row, fight)
    result = {"kind": "defence_willpower", "system": SYSTEM, "name": character.name, "declared": not off}
    await ctx.stlog(text, kind="combat", result=result, character_id=character.id)
    return Reply(text=text, result=result)


async def take_turn(ctx: CommandContext, character: Character) -> None:
    """A power used by a character in this channel's fight with an order is their turn's "one
    meaningful action — a strike, a power": held to their turn as an attack is, and marked taken.
    Outside a fight, or for a Storyteller, nothing is held."""
    row, fight = await _load(ctx)
    key = f"c:{character.id}"
    if fight is None or fight.find(key) is None:
        return
    if not ctx.storyteller:
        refusal = initiative.turn_refusal(fight, key, character.name)
        if refusal is not None:
            raise UserError(refusal)
    if fight.rolled and fight.current == key:
        await _save(ctx, row, dc_replace(fight, action_taken=True))


# --- attack -----------------------------------------------------------------------------------


class Fighter:
    """One side of an attack: a character, or an NPC from this channel's fight."""

    def __init__(self, name: str, character: Character | None = None, npc: Combatant | None = None) -> None:
        self.name = name
        self.character = character
        self.npc = npc

    @property
    def character_id(self) -> int | None:
        return self.character.id if self.character else None

    async def health(self, ctx: CommandContext) -> tuple[int, int]:
        if self.character is not None:
            return await health_of(ctx.session, self.character)
        return (self.npc.damage if self.npc else 0), HEALTH_LEVELS

    async def damage(self, ctx: CommandContext) -> int:
        return (await self.health(ctx))[0]

    def soak(self) -> int:
        if self.character is not None:
            return soak_of(self.character)
        return self.npc.soak if self.npc else 0

    async def side(self, ctx: CommandContext, words: list[str], *, ruled: bool = False) -> Built:
        """The fighter's pool; ``ruled``: the Storyteller's pending ruling (``st mod``) replaces the
        modifiers the player wrote."""
        spec = parse_side(words)
        damage = await self.damage(ctx)
        if self.character is not None:
            ruling = None
            if ruled:
                spec, ruling = await overrule(ctx, self.character, spec)
            built = character_side(ctx, spec, self.character, damage)
            built.side.label += rulings.note(ruling)
            return built
        rating = self.npc.physical if self.npc else 0
        if self.npc is None and spec.number is None:
            raise UserError(f"{self.name} is not in this fight, so roll a number of dice for them.")
        return rating_side(ctx, spec, rating, self.name, damage)


def _split(words: list[str], keyword: str) -> tuple[list[str], list[str] | None]:
    lowered = [w.casefold() for w in words]
    if keyword not in lowered:
        return words, None
    at = len(lowered) - 1 - lowered[::-1].index(keyword)
    return words[:at], words[at + 1 :]


def _with_default_trait(words: list[str]) -> list[str]:
    if not words or words[0][:1] in "+-" or words[0].casefold() in ("wp", "willpower"):
        return ["physical", *words]
    return words


async def _find_fighter(
    ctx: CommandContext, words: list[str], fight: Combat | None
) -> tuple[Fighter, list[str]]:
    """The fighter named by the leading words (a character, else an NPC in the fight), and the rest."""
    character, rest = await match_character_prefix(ctx, words)
    if character is not None:
        return Fighter(character.name, character=character), rest
    if fight is not None:
        for n in range(len(words), 0, -1):
            npc = fight.find_name(" ".join(words[:n]))
            if npc is not None:
                if npc.character_id is not None:
                    found = await ctx.session.get(Character, npc.character_id)
                    return Fighter(npc.name, character=found), words[n:]
                return Fighter(npc.name, npc=npc), words[n:]
    raise UserError(f"Nobody called {words[0][:40]!r} is a character or in this fight. Write {ATTACK_USAGE}.")


async def _attacker(ctx: CommandContext, as_words: list[str] | None, fight: Combat | None) -> Fighter:
    if as_words is None:
        character = await require_active(ctx, SYSTEM)
        return Fighter(character.name, character=character)
    if not as_words:
        raise UserError(f"Attack as whom? Write {ATTACK_USAGE}.")
    try:
        fighter, rest = await _find_fighter(ctx, as_words, fight)
    except UserError:
        if not ctx.storyteller:
            raise
        name = " ".join(" ".join(as_words).split())[:60]
        return Fighter(name)  # an NPC outside the fight: a Storyteller rolls a number for them
    if rest:
        raise UserError(f"Nobody called {' '.join(as_words)[:40]!r} is a character or in this fight.")
    mine = fighter.character is not None and fighter.character.owner_id == ctx.person.id
    if not (mine or ctx.storyteller):
        raise PermissionDenied(f"Attacking as {fighter.name} needs the Storyteller role.")
    return fighter


def _key_in(fighter: Fighter, fight: Combat) -> str | None:
    """The fighter's key in ``fight``, or None when they are not in it."""
    if fighter.npc is not None:
        return fighter.npc.key
    if fighter.character is not None and fight.find(f"c:{fighter.character.id}") is not None:
        return f"c:{fighter.character.id}"
    return None


def _check_turn(ctx: CommandContext, attacker: Fighter, defender: Fighter, fight: Combat | None) -> bool:
    """Hold a player's attack in a fight to the book's turn: "Your turn. One meaningful action — a
    strike, a power, a run for the door". True when this attack is the acting combatant's action on
    their turn (it is then marked taken). A Storyteller's attacks are not held: they may override."""
    if fight is None:
        return False
    key = _key_in(attacker, fight)
    if key is None:
        if not ctx.storyteller and attacker.character is not None and _key_in(defender, fight) is not None:
            raise UserError(f"{attacker.name} is not in this fight: init join first, then act on your turn.")
        return False
    if not ctx.storyteller:
        refusal = initiative.turn_refusal(fight, key, attacker.name)
        if refusal is not None:
            raise UserError(refusal)
    return fight.rolled and fight.current == key


def _declared(defender: Fighter, fight: Combat | None) -> str | None:
    """The defender's key when they declared Willpower for this defence with init wp."""
    if fight is None:
        return None
    key = _key_in(defender, fight)
    found = fight.find(key) if key is not None else None
    return key if found is not None and found.willpower else None


def _check_defence_willpower(
    ctx: CommandContext, defender: Fighter, written: bool, declared: str | None
) -> None:
    """``vs TRAIT wp`` spends the defender's point: for whoever rolls the defender's dice (their own
    character, any as a Storyteller); another player's character declares it with init wp."""
    if not written:
        return
    if defender.character is None:
        raise UserError("An NPC cannot spend Willpower; its pool is just dice.")
    if declared is not None:
        raise UserError(f"{defender.name} has already declared Willpower for this defence (init wp).")
    if defender.character.owner_id != ctx.person.id and not ctx.storyteller:
        raise UserError(
            f"{defender.name}'s player declares their own Willpower, before the dice: with init wp in the"
            " fight, spent on the next attack on them."
        )


def _hit_text(attacker: str, defender: str, hit: combat.Hit, after: int, levels: int) -> str:
    if not hit.hit:
        return "no damage"
    soak = f"soak {hit.soak}, " if hit.soak else ""
    out = f" {defender} is Incapacitated." if combat.incapacitated(after, levels) else ""
    return f"{soak}{hit.damage} damage ({defender} {after}/{levels}).{out}"


def _refuse_outside_fight(
    ctx: CommandContext, attacker: Fighter, defender: Fighter, fight: Combat | None
) -> None:
    """Another player's character is attacked only in a fight they are in: "Combat is a contest run in
    turns. When it starts, everyone involved rolls once for order", and the defence is rolled on the
    attacker's turn. A Storyteller, and a player attacking a character of their own, are not held."""
    target = defender.character
    if target is None or ctx.storyteller or target.owner_id == ctx.person.id:
        return
    if fight is None:
        raise UserError(
            f"{target.name} is not in a fight here: an attack is a turn in a fight (init start, then"
            f" {attacker.name} and {target.name} init join), or contest it outside one with challenge"
            f" {target.name} TRAIT."
        )
    if fight.find(f"c:{target.id}") is None:
        raise UserError(
            f"{target.name} is not in this fight: they join with init join first (or the Storyteller"
            f" adds them with init join {target.name})."
        )


@COMMANDS.command(
    "attack", "attack: a contest whose margin, less soak, is damage", ATTACK_USAGE, params=P.ATTACK
)
async def attack_command(ctx: CommandContext, inv: Invocation) -> Reply:
    words = list(inv.words)
    if not words:
        raise UserError(f"Attack whom? Write {ATTACK_USAGE}.")
    row, fight = await _load(ctx)
    words, as_words = _split(words, "as")
    words, vs_words = _split(words, "vs")
    attacker = await _attacker(ctx, as_words, fight)
    if not words:
        raise UserError(f"Attack whom? Write {ATTACK_USAGE}.")
    defender, attack_words = await _find_fighter(ctx, words, fight)
    if defender.name == attacker.name:
        raise UserError("Nobody attacks themselves here.")
    if attacker.character is not None:
        own = attacker.character.owner_id == ctx.person.id
        await ensure_can_act(ctx.session, attacker.character, "attack", own=own)
    else:
        attacker_health = await attacker.health(ctx)
        if combat.incapacitated(*attacker_health):
            raise incapacitated_refusal(attacker.name, *attacker_health)
    if defender.character is not None:
        check_in_play(defender.character, "attack", own=False)
    _refuse_outside_fight(ctx, attacker, defender, fight)
    on_turn = _check_turn(ctx, attacker, defender, fight)
    before, levels = await defender.health(ctx)
    if combat.incapacitated(before, levels):
        raise UserError(f"{defender.name} is already Incapacitated.")
    left = await attacker.side(ctx, _with_default_trait(attack_words), ruled=True)
    right = await defender.side(ctx, _with_default_trait(vs_words or []))
    declared = _declared(defender, fight)
    _check_defence_willpower(ctx, defender, right.side.spec.willpower, declared)
    if left.side.spec.willpower:
        if attacker.character is None:
            raise UserError("An NPC cannot spend Willpower; its pool is just dice.")
        await spend_willpower(ctx, attacker.character)
    if right.side.spec.willpower:
        assert defender.character is not None
        await spend_willpower(ctx, defender.character)
    # Both declarations are fixed (a standing one was paid with init wp); only now the dice.
    defence_wp = right.side.spec.willpower or declared is not None
    left_roll = mechanics.roll(left.pool, ctx.dice, left.side.spec.willpower, **dice(ctx))
    right_roll = mechanics.roll(right.pool, ctx.dice, defence_wp, **dice(ctx))
    outcome = mechanics.contest(left_roll, right_roll)
    hit = combat.attack_damage(outcome, defender.soak())
    after = combat.take_damage(before, hit.damage, levels)
    if defender.character is not None:
        if hit.damage:
            await damage_pool(ctx.session, defender.character)
            assert defender.character.id is not None
            await repo.gain_pool(ctx.session, defender.character.id, DAMAGE, hit.damage)
    elif fight is not None and defender.npc is not None and hit.damage:
        fight = initiative.set_npc(fight, defender.npc.key, damage=after)
    if fight is not None:
        if declared is not None:
            fight = initiative.set_npc(fight, declared, willpower=False)  # spent on this defence
        if on_turn:
            fight = dc_replace(fight, action_taken=True)  # "Your turn. One meaningful action"
        await _save(ctx, row, fight)
    result = outcome.as_result()
    result.update(
        kind="attack",
        sides=[{**left_roll.as_result(), **left.extras()}, {**right_roll.as_result(), **right.extras()}],
        attacker=attacker.name,
        defender=defender.name,
        character_ids=[attacker.character_id, defender.character_id],
        hit=hit.hit,
        soak=hit.soak,
        damage=hit.damage,
        health={"before": before, "after": after, "levels": levels},
        incapacitated=combat.incapacitated(after, levels),
        who=attacker.name,
    )
    roll_id = await ctx.log_roll(result, character_id=attacker.character_id, name=attacker.name)
    line = render.contest_line(attacker.name, outcome, roll_id, (left.label, right.label), defender.name)
    line = line.removesuffix(f" #{roll_id}")
    damage_text = _hit_text(attacker.name, defender.name, hit, after, levels)
    text = f"{attacker.name} attacks {defender.name}: {line} — {damage_text} #{roll_id}"
    await ctx.stlog(text, kind="attack", result=result, character_id=attacker.character_id)
    return Reply(text=text, result=result)


# --- st soak ----------------------------------------------------------------------------------


@COMMANDS.command(
    "st soak", "set a character's or NPC's soak", "st soak NAME N", role="storyteller", params=P.ST_SOAK
)
async def st_soak(ctx: CommandContext, inv: Invocation) -> Reply:
    wanted, soak = str(inv.args["name"]), int(inv.args["soak"])
    if not 0 <= soak <= HEALTH_LEVELS:
        raise UserError(f"Soak is 0 to {HEALTH_LEVELS}.")
    character = await find_character(ctx.session, SYSTEM, wanted)
    if character is not None:
        old = soak_of(character)
        character.sheet = {**character.sheet, "soak": soak}
        ctx.session.add(character)
        await ctx.audit("st soak", character_id=character.id, field_name="soak", old=old, new=soak)
        name = character.name
        await ctx.stlog(
            f"{ctx.name} sets {name}'s soak to {soak} (was {old}).", kind="st", character_id=character.id
        )
    else:
        row, fight = await _load(ctx)
        npc = fight.find_name(wanted) if fight else None
        if fight is None or npc is None:
            raise UserError(f"No character or NPC in this fight is called {wanted[:40]!r}.")
        old = npc.soak
        fight = initiative.set_npc(fight, npc.key, soak=soak)
        await _save(ctx, row, fight)
        name = npc.name
        await ctx.audit("st soak", field_name=f"npc:{name}", old=old, new=soak)
        await ctx.stlog(f"{ctx.name} sets {name}'s soak to {soak} (was {old}).", kind="st")
    return Reply(
        text=f"{name} now soaks {soak}.",
        result={"kind": "soak", "system": SYSTEM, "name": name, "soak": soak},
    )
