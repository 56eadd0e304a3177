"""Night Wanderers ("Ночные скитальцы"): d6 pools against a difficulty of 2-6, quality by successes,
health bands with pain, the blood pool, combat, sunlight and fire, hunting and stealth. Messages in
Russian by default (``lang en`` for English)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from gateway import CommandSet, DegreeColour, RuleSystem, hookimpl
from gateway.rules.retire import retire_commands
from gateway.rules.roll_distribution import RollDistribution
from gateway.rules.roll_text import catalogue_roll_text
from plugins.nightwanderers import (
    blood_commands,
    combat_commands,
    commands,
    experience_commands,
    grapple_commands,
    hazards_commands,
    hunting_commands,
    pursuit_commands,
    scene_commands,
    stats,
    tug_commands,
    web_tools,
)
from plugins.nightwanderers.characters_commands import CHARACTERS
from plugins.nightwanderers.config import NightWanderersSettings
from plugins.nightwanderers.entry import EntrySet
from plugins.nightwanderers.house import NightWanderersHouseRules
from plugins.nightwanderers.mechanics import SYSTEM
from plugins.nightwanderers.messages import CATALOGUE
from plugins.nightwanderers.params import with_params
from plugins.nightwanderers.sheet import WandererSheet
from plugins.nightwanderers.sheet_spec import SHEET

COMMANDS = CommandSet(SYSTEM).include(
    with_params(
        CommandSet(SYSTEM).include(
            commands.COMMANDS,
            CHARACTERS.commands(
                "Night Wanderers",
                "make a character (vampire unless the clan says otherwise)",
                "char new NAME [CLAN]",
                "show a character sheet with health and blood",
                "Storyteller: set a sheet field, health or blood (audited)",
            ),
            blood_commands.COMMANDS,
            combat_commands.COMMANDS,
            hazards_commands.COMMANDS,
            hunting_commands.COMMANDS,
            grapple_commands.COMMANDS,  # nw-mech: grapple, bite, drink
            pursuit_commands.COMMANDS,  # nw-mech: pursue
            tug_commands.COMMANDS,  # nw-mech: tug of war
            experience_commands.COMMANDS,  # nw-mech: humanity buy
            scene_commands.COMMANDS,  # nw-mech: * * *, scene end, turn
            scene_commands.INITIATIVE.commands(
                scene_commands.init_join_command,
                scene_commands.init_add_command,
                "init add NAME [hunting] [celerity basic|advanced]",
                "Storyteller: put the initiative in order (2d6, lower first)",
            ),
        )
    )
)
COMMANDS.include(retire_commands(SYSTEM))  # char retire, st retire (gateway.rules.retire)


class NightWanderers(RuleSystem):
    def roll_text(self, roll: Mapping[str, Any], locale: str) -> str:
        # ``verify`` with the degree in the reader's language (the core's line keeps the stored word).
        return catalogue_roll_text(CATALOGUE, roll, locale)

    def roll_distribution(self, roll: Mapping[str, Any]) -> RollDistribution | None:
        return stats.roll_distribution(roll)


NIGHT_WANDERERS = NightWanderers(
    SYSTEM,
    "Night Wanderers",
    "d6 pool against a difficulty of 2-6",
    default_locale="ru",
    locales=("ru", "en"),
    titles={"ru": "Ночные скитальцы"},
    describe="Ночные скитальцы: vampires of an imperial city, their blood and their Beast.",
    # Through entry.py: every command reads Russian option words and has Russian help.
    commands=EntrySet(SYSTEM).include(COMMANDS),
    # ``stats`` and ``verify`` name the results as the book does (``degree.<label>``).
    catalogue=CATALOGUE,
    degree_colours={
        "failure": DegreeColour.FAILURE,
        "done": DegreeColour.PARTIAL,
        "good": DegreeColour.SUCCESS,
        "excellent": DegreeColour.STRONG,
        "masterful": DegreeColour.BEST,
    },
    settings_model=NightWanderersSettings,
    house_rules=NightWanderersHouseRules,
    sheet_model=WandererSheet,
    sheet=SHEET,
    web_tools=(web_tools.TOOL,),
)


@hookimpl
def gateway_register_rule_systems(register: Callable[[RuleSystem], None]) -> None:
    register(NIGHT_WANDERERS)
