"""Melee and ranged attacks with damage and soak. A target that is a character takes the damage on
its ``hp`` pool; an NPC is just numbers."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from gateway import CommandContext, CommandSet, Invocation, Reply, faces
from gateway.features.characters import find_character
from gateway.rules.numbers import is_digits
from gateway.rules.roll_words import Term
from plugins.nightwanderers import mechanics, tactics
from plugins.nightwanderers import store as episode
from plugins.nightwanderers.commands import (
    SYSTEM,
    WORDS,
    Actor,
    RolledPool,
    build_pool,
    fail,
    health_sentences,
    load_actor,
    log,
    my_actor,
    pain_sentences,
    refuse_self,
    roll_result,
    set_pool,
    t,
    trait_pool,
)
from plugins.nightwanderers.config import NightWanderersSettings

COMMANDS = CommandSet(SYSTEM)
RUN = {"run", "бег"}  # a dodge on the run
ATTACK_USAGE = "attack TARGET [claws|weapon|fangs] [dodge] | attack pool N str N def N [soak N]"
SHOOT_USAGE = "shoot TARGET long|medium|point arrow|thrown [dodge|run] [pool N] [def N] [soak N]"


@dataclass
class Fighter:
    """One side of a fight: a character (``actor``) or an NPC given by numbers."""

    name: str
    actor: Actor | None = None
    pool: int | None = None  # an NPC's attack or defence dice
    strength: int | None = None
    soak: int | None = None
    vampire: bool = False
    fortitude: bool = False

    @property
    def kind(self) -> str:
        if self.actor is not None:
            return self.actor.sheet.kind
        return "vampire" if self.vampire else "human"

    @property
    def has_fortitude(self) -> bool:
        return self.actor.sheet.fortitude if self.actor is not None else self.fortitude


def read_fight_words(
    ctx: CommandContext, words: tuple[str, ...], numbers: set[str], flags: set[str], usage: str
) -> tuple[dict[str, int], set[str], list[str]]:
    """``pool 3 str 2 claws dodge Maxina`` -> ({pool: 3, str: 2}, {claws, dodge}, [Maxina])."""
    found: dict[str, int] = {}
    seen: set[str] = set()
    rest: list[str] = []
    i = 0
    while i < len(words):
        word = words[i].casefold()
        if word in numbers:
            if i + 1 >= len(words) or not is_digits(words[i + 1]) or int(words[i + 1]) > 1000:
                raise fail(ctx, usage)
            found[word] = int(words[i + 1])
            i += 2
            continue
        if word in flags:
            seen.add(word)
        else:
            rest.append(words[i])
        i += 1
    return found, seen, rest


async def attacker_of(ctx: CommandContext, numbers: dict[str, int]) -> Fighter:
    """The caller's active character, or an NPC when ``pool N`` is given."""
    if "pool" in numbers:
        return Fighter(t(ctx, "npc"), pool=numbers["pool"], strength=numbers.get("str", 1), vampire=True)
    actor = await my_actor(ctx)
    assert actor is not None
    return Fighter(actor.name, actor, strength=numbers.get("str"))


async def defender_of(
    ctx: CommandContext, rest: list[str], numbers: dict[str, int], seen: set[str], usage: str
) -> Fighter:
    if rest:
        name = " ".join(rest)
        character = await find_character(ctx.session, SYSTEM, name)
        if character is not None:
            return Fighter(character.name, await load_actor(ctx, character, lock=True))
        if "def" not in numbers:
            raise fail(ctx, "err.no_character", name=name[:60])
        label = name[:60]
    else:
        label = t(ctx, "npc")
    if "def" not in numbers:
        raise fail(ctx, usage)
    return Fighter(
        label,
        pool=numbers["def"],
        soak=numbers.get("soak"),
        vampire="vampire" in seen or "soak" in numbers,
        fortitude="fortitude" in seen,
    )


def fighter_pool(ctx: CommandContext, fighter: Fighter, trait: str, bonus: int = 0) -> RolledPool:
    """A bonus (a dodge's +2) is a modifier of the pool, so the line shows it: «Уворачиваться 3+2»."""
    bonuses = (bonus,) if bonus else ()
    if fighter.actor is not None:
        return trait_pool(ctx, fighter.actor, trait, Term(trait, bonuses))
    assert fighter.pool is not None
    return build_pool(ctx, Term(str(fighter.pool), bonuses), None)


def refuse_own_target(ctx: CommandContext, attacker: Fighter, defender: Fighter) -> None:
    """A character does not attack or grapple itself (the book's fights are with another)."""
    if attacker.actor is not None and defender.actor is not None:
        refuse_self(ctx, attacker.actor, defender.actor.character)


async def soak_and_harm(
    ctx: CommandContext, defender: Fighter, damage: int, deep: bool, result: dict[str, Any]
) -> list[str]:
    """Soak (vampires only; deep damage only with Fortitude), then take the damage."""
    settings = ctx.settings_for(NightWanderersSettings)
    sentences: list[str] = []
    can_soak = defender.kind == "vampire" and (not deep or defender.has_fortitude)
    if defender.kind == "vampire" and deep and not defender.has_fortitude:
        sentences.append(t(ctx, "soak.deep"))
    if can_soak and damage > 0 and (defender.actor is not None or defender.soak is not None):
        if defender.actor is not None:
            pool = trait_pool(ctx, defender.actor, "defence")
        else:
            pool = build_pool(ctx, Term(str(defender.soak)), None)
        soak = mechanics.roll(pool.dice, ctx.dice, settings.soak_difficulty, 1, pool.pain)
        result["soak"] = {**soak.as_result(), **pool.result_fields()}
        if "dice" not in result and "sides" not in result:
            # Harm with no attack roll (sun, fire, a hold): the soak's dice are the roll's, for verify.
            result.update(dice=list(soak.dice), successes=soak.successes, total=soak.successes)
        if soak.successes >= 1:
            damage = mechanics.halve(damage)
            key = "soak.halved"
        else:
            key = "soak.failed"
        sentences.append(
            t(
                ctx,
                key,
                defender=defender.name,
                soak_pool=pool.describe(ctx, WORDS),
                diff=soak.difficulty,
                faces=faces(soak.dice),
                s=soak.successes,
                damage=damage,
            )
        )
        sentences += pain_sentences(ctx, pool)
    result["damage"] = damage
    result["deep"] = deep
    if defender.actor is not None:
        sentences += await harm(ctx, defender.actor, damage, deep, result)
    return sentences


async def harm(
    ctx: CommandContext, actor: Actor, damage: int, deep: bool, result: dict[str, Any]
) -> list[str]:
    outcome = mechanics.take_damage(actor.sheet.kind, actor.hp, damage, deep)
    await set_pool(ctx, actor.id, "hp", outcome.after)
    if outcome.dead:
        actor.sheet.dead = True
        actor.save_sheet(ctx)
    actor.hp = outcome.after
    if actor.status == "unconscious":  # "каждый ход теряют по единице здоровья": see ``turn``
        await episode.remember(ctx, "dying", actor.id)
    result["target"] = {
        "name": actor.name,
        "hp_before": outcome.before,
        "hp": outcome.after,
        "status": actor.status,
        "band": mechanics.band(actor.hp, actor.hp_max),
    }
    return health_sentences(ctx, actor)


def strength_of(fighter: Fighter) -> int:
    """Strength as given for an NPC (``str N``, default 1), else the character's rating."""
    if fighter.strength is not None:
        return fighter.strength
    return fighter.actor.sheet.rating("strength") if fighter.actor else 1


Side = tuple[Fighter, RolledPool, mechanics.Roll]


def exchange(ctx: CommandContext, key: str, attack: Side, defence: Side, diff: int) -> list[str]:
    """The line of a blow or a grapple (attacker's roll against the defender's) and any pain."""
    (attacker, attack_pool, a), (defender, defence_pool, d) = attack, defence
    line = t(
        ctx,
        key,
        attacker=attacker.name,
        attack_pool=attack_pool.describe(ctx, WORDS),
        defender=defender.name,
        defence_pool=defence_pool.describe(ctx, WORDS),
        diff=diff,
        attack_faces=faces(a.dice),
        a=a.successes,
        defence_faces=faces(d.dice),
        d=d.successes,
    )
    return [line, *pain_sentences(ctx, attack_pool, defence_pool)]


@COMMANDS.command("attack", "melee attack with damage and soak", ATTACK_USAGE)
async def attack_command(ctx: CommandContext, inv: Invocation) -> Reply:
    """Melee: the attacker's Brawl at 4 against the defender's Defence at 4 (or Dodge +2 when the
    defender dodges); a hit with at least one success and as many as the defender's. Damage is
    Strength, +1 with claws or a weapon; a bite (fangs) takes one Health level; a vampire's claws and
    fangs do deep damage."""
    settings = ctx.settings_for(NightWanderersSettings)
    numbers, seen, rest = read_fight_words(
        ctx,
        inv.words,
        {"pool", "str", "def", "soak"},
        {"claws", "weapon", "fangs", "dodge", "vampire", "fortitude", "when"},
        "err.attack_usage",
    )
    attacker = await attacker_of(ctx, numbers)
    defender = await defender_of(ctx, rest, numbers, seen, "err.attack_usage")
    refuse_own_target(ctx, attacker, defender)
    diff = settings.melee_difficulty
    dodge = "dodge" in seen
    attack_pool = fighter_pool(ctx, attacker, "brawl")
    defence_pool = fighter_pool(
        ctx, defender, "dodge" if dodge else "defence", settings.dodge_bonus if dodge else 0
    )
    a = mechanics.roll(attack_pool.dice, ctx.dice, diff, 1, attack_pool.pain)
    d = mechanics.roll(defence_pool.dice, ctx.dice, diff, 1, defence_pool.pain)
    hit = mechanics.attack_hits(a.successes, d.successes)
    strength = strength_of(attacker)
    armed = bool(seen & {"claws", "weapon"})
    deep = bool(seen & {"claws", "fangs"}) and attacker.kind == "vampire"
    damage = strength + (1 if armed else 0) if hit else 0
    bite = "fangs" in seen and not armed
    if hit and bite:  # "Укус снимает только один уровень Здоровья"
        damage = tactics.BITE_DAMAGE
    result: dict[str, Any] = {
        "kind": "contest",
        "system": SYSTEM,
        "action": "melee",
        "sides": [
            {**roll_result(attack_pool, a, attacker.name)},
            {**roll_result(defence_pool, d, defender.name), "dodge": dodge},
        ],
        "winner": 0 if hit else 1,
        "hit": hit,
        "damage": 0,
    }
    key = "attack.line.dodge" if dodge else "attack.line"
    sentences = exchange(ctx, key, (attacker, attack_pool, a), (defender, defence_pool, d), diff)
    if hit:
        key = "attack.hit.bite" if bite else "attack.hit.deep" if deep else "attack.hit"
        sentences.append(t(ctx, key, damage=damage))
        sentences += await soak_and_harm(ctx, defender, damage, deep, result)
        if await episode.break_hold(ctx, defender.name, attacker.name):
            result["broke_free"] = True
            sentences.append(t(ctx, "grapple.broken", target=attacker.name, holder=defender.name))
    else:
        sentences.append(t(ctx, "attack.miss"))
        if dodge and d.successes > a.successes:
            # "он получает более высокую инициативу в следующем ходу (-1)": -1 on the next 2d6 here
            result["dodge_initiative"] = True
            await episode.give_initiative_bonus(ctx, defender.name, -1)
            sentences.append(t(ctx, "attack.dodge_initiative", defender=defender.name))
    return await log(ctx, result, sentences, attacker.actor)


@COMMANDS.command("shoot", "ranged attack (shoot or throw)", SHOOT_USAGE)
async def shoot_command(ctx: CommandContext, inv: Invocation) -> Reply:
    """Ranged: Shooting at 5 (long), 4 (medium) or 3 (point-blank, not with a bow). A hit needs one
    success, and as many as the defender's dodge (+2 dice, same difficulty) when they dodge.
    Damage = successes + 1 (thrown) or + 3 (arrows); a vampire may soak it."""
    settings = ctx.settings_for(NightWanderersSettings)
    numbers, seen, rest = read_fight_words(
        ctx,
        inv.words,
        {"pool", "def", "soak"},
        {
            "long",
            "medium",
            "point",
            "arrow",
            "arrows",
            "thrown",
            "dodge",
            "run",
            "бег",
            "vampire",
            "fortitude",
        },
        "err.shoot_usage",
    )
    ranges = [r for r in mechanics.RANGE_DIFFICULTY if r in seen]
    missiles = [m for m in ("arrow", "thrown") if m in seen or (m == "arrow" and "arrows" in seen)]
    if len(ranges) != 1 or len(missiles) != 1:
        raise fail(ctx, "err.shoot_usage")
    distance, missile = ranges[0], missiles[0]
    if distance == "point" and missile == "arrow":
        raise fail(ctx, "err.bow_point_blank")
    # "Защищающийся может также уклонятся на бегу, но в этом случае он не получает бонусов к его
    # способности Уворачиваться": ``run`` is a dodge on the run, without the +2.
    running = bool(seen & RUN)
    dodge = "dodge" in seen or running
    if not dodge and not rest and "def" not in numbers:
        numbers["def"] = 0  # an NPC target that does not dodge needs no defence dice
    attacker = await attacker_of(ctx, numbers)
    defender = await defender_of(ctx, rest, numbers, seen, "err.shoot_usage")
    refuse_own_target(ctx, attacker, defender)
    diff = mechanics.RANGE_DIFFICULTY[distance]
    attack_pool = fighter_pool(ctx, attacker, "shooting")
    a = mechanics.roll(attack_pool.dice, ctx.dice, diff, 1, attack_pool.pain)
    sentences = [
        t(
            ctx,
            "shoot.line",
            attacker=attacker.name,
            attack_pool=attack_pool.describe(ctx, WORDS),
            defender=defender.name,
            range=t(ctx, f"range.{distance}"),
            diff=diff,
            attack_faces=faces(a.dice),
            a=a.successes,
        ),
        *pain_sentences(ctx, attack_pool),
    ]
    sides: list[dict[str, Any]] = [roll_result(attack_pool, a, attacker.name)]
    defence_successes = 0
    if dodge:
        defence_pool = fighter_pool(ctx, defender, "dodge", 0 if running else settings.dodge_bonus)
        d = mechanics.roll(defence_pool.dice, ctx.dice, diff, 1, defence_pool.pain)
        defence_successes = d.successes
        sides.append({**roll_result(defence_pool, d, defender.name), "dodge": True})
        sentences.append(
            t(
                ctx,
                "shoot.dodge",
                defender=defender.name,
                defence_pool=defence_pool.describe(ctx, WORDS),
                defence_faces=faces(d.dice),
                d=d.successes,
            )
        )
        if running:
            sentences.append(t(ctx, "shoot.run"))
        sentences += pain_sentences(ctx, defence_pool)
    hit = mechanics.attack_hits(a.successes, defence_successes)
    damage = a.successes + mechanics.MISSILE_BONUS[missile] if hit else 0
    result: dict[str, Any] = {
        "kind": "contest" if dodge else "roll",
        "system": SYSTEM,
        "action": "ranged",
        "range": distance,
        "missile": missile,
        "hit": hit,
        "damage": 0,
        "winner": (0 if hit else 1) if dodge else None,
    }
    if dodge:
        result["sides"] = sides
        result["run"] = running
    else:
        result.update(sides[0])
        result["kind"], result["action"] = "roll", "ranged"
    if hit:
        sentences.append(t(ctx, "attack.hit", damage=damage))
        sentences += await soak_and_harm(ctx, defender, damage, False, result)
    else:
        sentences.append(t(ctx, "attack.miss"))
    return await log(ctx, result, sentences, attacker.actor)
