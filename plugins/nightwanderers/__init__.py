"""Night Wanderers ("Ночные скитальцы"): d6 pools against a difficulty of 2-6, quality by successes,
health bands with pain, the blood pool, combat, sunlight and fire, hunting and stealth. Messages in
Russian by default (``lang en`` for English)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gateway.commands import Command
from gateway.hookspecs import hookimpl
from gateway.registry import RuleSystem
from plugins.nightwanderers import blood, combat, commands, config, scene
from plugins.nightwanderers.characters import CHARACTERS
from plugins.nightwanderers.mechanics import SYSTEM

NIGHT_WANDERERS = RuleSystem(
    name=SYSTEM,
    title="Night Wanderers",
    dice="d6 pool against a difficulty of 2-6",
    default_locale="ru",
    locales=("ru", "en"),
    describe="Ночные скитальцы: vampires of an imperial city, their blood and their Beast.",
)


@hookimpl
def gateway_register_rule_systems(register: Callable[[RuleSystem], None]) -> None:
    register(NIGHT_WANDERERS)


@hookimpl
def gateway_configure(settings: Any) -> None:
    config.load(settings)  # a mistake in [nightwanderers] stops the start-up with pydantic's message


@hookimpl
def gateway_register_commands(register: Callable[[Command], None]) -> None:
    def add(name: str, handler: Any, summary: str, usage: str, role: Any = "player") -> None:
        register(Command(name, handler, summary, usage, system=SYSTEM, role=role))

    add(
        "roll",
        commands.roll_command,
        "roll a d6 pool against a difficulty, or a contest",
        "roll POOL [+N|-N] [diff 2-6] [need N] [vs POOL|vs NAME] [secret]",
        "anyone",
    )
    add(
        "odds",
        commands.odds_command,
        "exact chances of a roll or a contest",
        "odds POOL [diff 2-6] [need N] [vs POOL]",
        "anyone",
    )
    for command in CHARACTERS.commands(
        "Night Wanderers",
        "make a character (vampire unless the clan says otherwise)",
        "char new NAME [CLAN]",
        "show a character sheet with health and blood",
        "Storyteller: set a sheet field, health or blood (audited)",
    ):
        register(command)
    add("wake", blood.wake_command, "wake for the night: -1 BP (once a night)", "wake")
    add("heal", blood.heal_command, "spend N BP to heal N HP", "heal [N]")
    add(
        "discipline",
        blood.discipline_command,
        "pay for a discipline: basic 1 BP, advanced 2 BP",
        "discipline basic|advanced [NAME]",
    )
    add("boost", blood.boost_command, "raise Strength and Physical by N for 1+2+...+N BP", "boost N")
    add("boost end", blood.boost_end_command, "let the blood boost fade", "boost end")
    add("feed", blood.feed_command, "feed: 1 BP a turn", "feed N [human|cow|dog|cat]")
    add(
        "frenzy",
        blood.frenzy_command,
        "frenzy check (psyche at 4, +1 ravenous and blood seen)",
        "frenzy [blood]",
    )
    add("frenzy end", blood.frenzy_end_command, "come out of frenzy", "frenzy end")
    add(
        "attack",
        combat.attack_command,
        "melee attack with damage and soak",
        "attack TARGET [claws|weapon|fangs] [dodge] | attack pool N str N def N [soak N]",
    )
    add(
        "shoot",
        combat.shoot_command,
        "ranged attack (shoot or throw)",
        "shoot TARGET long|medium|point arrow|thrown [dodge] [pool N] [def N] [soak N]",
    )
    add("sun", combat.sun_command, "sunlight damage", "sun direct|indirect TURNS [NAME]")
    add("fire", combat.fire_command, "fire damage", "fire small|large TURNS|surprise [NAME]")
    add(
        "damage",
        combat.damage_command,
        "Storyteller: take N HP from a character (audited)",
        "damage N [deep] NAME",
        "storyteller",
    )
    add("hunt", combat.hunt_command, "hunt: a Mind roll at the ground's difficulty", "hunt GROUND [POOL]")
    add(
        "sneak",
        combat.sneak_command,
        "stealth: Sneak at 4 against Inspection at 4",
        "sneak [POOL] vs INSPECTION|NAME",
    )
    for command in scene.INITIATIVE.commands(
        scene.init_join_command,
        scene.init_add_command,
        "init add NAME [hunting] [celerity basic|advanced]",
        "Storyteller: put the initiative in order (2d6, lower first)",
    ):
        register(command)
