"""Pravidla, the Czech vampire rules: d6 pools against a target number, contests with re-rolled
ties, tug of war, and initiative by switched-on powers, Stamina, Wits and a die. Messages in Czech
by default (``lang en`` for English)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from gateway import CommandSet, DegreeColour, RuleSystem, hookimpl
from gateway.rules.retire import retire_commands
from gateway.rules.roll_distribution import RollDistribution
from gateway.rules.roll_text import catalogue_roll_text
from plugins.pravidla import commands, scene_commands, stats, web_tools
from plugins.pravidla.characters_commands import CHARACTERS
from plugins.pravidla.config import PravidlaSettings
from plugins.pravidla.help import in_czech
from plugins.pravidla.house import PravidlaHouseRules
from plugins.pravidla.mechanics import SYSTEM
from plugins.pravidla.messages import CATALOGUE
from plugins.pravidla.params import with_params
from plugins.pravidla.sheet import PravidlaSheet
from plugins.pravidla.sheet_spec import SHEET

# Every command with its typed parameters (``plugins.pravidla.params``) and its Czech help
# (``plugins.pravidla.help``): the decorated sets are complete once their modules are imported, above.
COMMANDS = CommandSet(SYSTEM).include(
    in_czech(
        with_params(
            CommandSet(SYSTEM).include(
                commands.COMMANDS,
                CHARACTERS.commands(
                    "Pravidla",
                    "make a Pravidla character and make it active",
                    "char new NAME",
                    "show a character sheet",
                    "Storyteller: set a sheet field (audited)",
                ),
                scene_commands.COMMANDS,
                scene_commands.INITIATIVE.commands(
                    scene_commands.init_join_command,
                    scene_commands.init_add_command,
                    "init add NAME [STAMINA WITS] [hunting] [celerity basic|advanced]",
                    "Storyteller: put the initiative in order",
                ),
            )
        )
    )
)
COMMANDS.include(retire_commands(SYSTEM))  # char retire, st retire (gateway.rules.retire)


class Pravidla(RuleSystem):
    def roll_text(self, roll: Mapping[str, Any], locale: str) -> str:
        # ``verify`` with the degree in the reader's language (the core's line keeps the stored word).
        return catalogue_roll_text(CATALOGUE, roll, locale)

    def roll_distribution(self, roll: Mapping[str, Any]) -> RollDistribution | None:
        return stats.roll_distribution(roll)


PRAVIDLA = Pravidla(
    SYSTEM,
    "Pravidla",
    "d6 pool against a target number (usually 4)",
    default_locale="cs",
    locales=("cs", "en"),
    describe="Czech vampire rules: count the dice that reach the target number.",
    commands=COMMANDS,
    # ``stats`` and ``verify`` name the results as the book does (``degree.<label>``).
    catalogue=CATALOGUE,
    degree_colours={"failure": DegreeColour.FAILURE, "success": DegreeColour.SUCCESS},
    settings_model=PravidlaSettings,
    sheet_model=PravidlaSheet,
    house_rules=PravidlaHouseRules,
    sheet=SHEET,
    web_tools=(web_tools.TOOL,),
)


@hookimpl
def gateway_register_rule_systems(register: Callable[[RuleSystem], None]) -> None:
    register(PRAVIDLA)
