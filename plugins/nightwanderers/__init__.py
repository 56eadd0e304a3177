"""Night Wanderers ("Ночные скитальцы"): d6 pools against a difficulty of 2-6, quality by successes,
health bands with pain, the blood pool, combat, sunlight and fire, hunting and stealth. Messages in
Russian by default (``lang en`` for English)."""

from __future__ import annotations

from collections.abc import Callable

from gateway import CommandSet, RuleSystem, hookimpl
from gateway.rules.retire import retire_commands
from plugins.nightwanderers import blood, combat, commands, hazards, hunting, scene
from plugins.nightwanderers.characters import CHARACTERS
from plugins.nightwanderers.config import NightWanderersSettings
from plugins.nightwanderers.mechanics import SYSTEM
from plugins.nightwanderers.sheet import WandererSheet

NIGHT_WANDERERS = RuleSystem(
    name=SYSTEM,
    title="Night Wanderers",
    dice="d6 pool against a difficulty of 2-6",
    default_locale="ru",
    locales=("ru", "en"),
    describe="Ночные скитальцы: vampires of an imperial city, their blood and their Beast.",
    settings_model=NightWanderersSettings,
    sheet_model=WandererSheet,
)

COMMANDS = CommandSet(SYSTEM).include(
    commands.COMMANDS,
    CHARACTERS.commands(
        "Night Wanderers",
        "make a character (vampire unless the clan says otherwise)",
        "char new NAME [CLAN]",
        "show a character sheet with health and blood",
        "Storyteller: set a sheet field, health or blood (audited)",
    ),
    blood.COMMANDS,
    combat.COMMANDS,
    hazards.COMMANDS,
    hunting.COMMANDS,
    scene.INITIATIVE.commands(
        scene.init_join_command,
        scene.init_add_command,
        "init add NAME [hunting] [celerity basic|advanced]",
        "Storyteller: put the initiative in order (2d6, lower first)",
    ),
)
COMMANDS.include(retire_commands(SYSTEM))  # char retire, st retire (gateway.rules.retire)


@hookimpl
def gateway_register_rule_systems(register: Callable[[RuleSystem], None]) -> None:
    register(NIGHT_WANDERERS)


gateway_register_commands = COMMANDS.hookimpl()


from plugins.nightwanderers.summary import gateway_sheet_summary as gateway_sheet_summary  # noqa: E402
