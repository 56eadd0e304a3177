"""Night Wanderers ("Ночные скитальцы"): d6 pools against a difficulty of 2-6, quality by successes,
health bands with pain, the blood pool, combat, sunlight and fire, hunting and stealth. Messages in
Russian by default (``lang en`` for English)."""

from __future__ import annotations

from collections.abc import Callable

from gateway import CommandSet, RuleSystem, hookimpl
from gateway.rules.retire import retire_commands
from plugins.nightwanderers import (
    blood,
    combat,
    commands,
    experience,
    grapple,
    hazards,
    hunting,
    pursuit,
    scene,
    tug,
)
from plugins.nightwanderers.characters import CHARACTERS
from plugins.nightwanderers.config import NightWanderersSettings
from plugins.nightwanderers.entry import EntrySet
from plugins.nightwanderers.house import NightWanderersHouseRules
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
    house_rules=NightWanderersHouseRules,
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
    grapple.COMMANDS,  # nw-mech: grapple, bite, drink
    pursuit.COMMANDS,  # nw-mech: pursue
    tug.COMMANDS,  # nw-mech: tug of war
    experience.COMMANDS,  # nw-mech: humanity buy
    scene.COMMANDS,  # nw-mech: * * *, scene end, turn
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


# Registered through entry.py: every command reads Russian option words and has Russian help.
gateway_register_commands = EntrySet(SYSTEM).include(COMMANDS).hookimpl()


from gateway.rules.roll_text import roll_text_hook  # noqa: E402
from plugins.nightwanderers.messages import CATALOGUE  # noqa: E402
from plugins.nightwanderers.stats import gateway_roll_distribution as gateway_roll_distribution  # noqa: E402
from plugins.nightwanderers.summary import gateway_sheet_summary as gateway_sheet_summary  # noqa: E402

# ``verify`` with the degree in the reader's language (the core's line keeps the stored word).
gateway_roll_text = roll_text_hook(SYSTEM, CATALOGUE)
# ``stats`` names the results as the book does (``degree.<label>`` in the catalogue).
from gateway.rules.roll_distribution import DEGREE_NAMES  # noqa: E402
from plugins.nightwanderers.messages import CATALOGUE as _NAMES  # noqa: E402
from plugins.nightwanderers.web_tools import gateway_web_tools as gateway_web_tools  # noqa: E402

NIGHT_WANDERERS.extra[DEGREE_NAMES] = _NAMES
