"""Decanter: d10 Attribute + Skill pools against a Difficulty Class, Story Points and Conditions."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from gateway import CommandSet, DegreeColour, RuleSystem, hookimpl
from gateway.rules.retire import retire_commands
from gateway.rules.roll_distribution import RollDistribution
from plugins.decanter import (
    conditions_commands,
    extended_commands,
    rolls_commands,
    spending_commands,
    stats,
    story_points_commands,
    web_tools,
)
from plugins.decanter.characters_commands import CHARACTERS
from plugins.decanter.config import DecanterSettings
from plugins.decanter.house import DecanterHouseRules
from plugins.decanter.mechanics import SYSTEM
from plugins.decanter.messages import CATALOGUE
from plugins.decanter.params import with_params
from plugins.decanter.sheet import DecanterSheet
from plugins.decanter.sheet_spec import SHEET

COMMANDS = CommandSet(SYSTEM).include(
    with_params(
        CommandSet(SYSTEM).include(
            rolls_commands.COMMANDS,
            story_points_commands.COMMANDS,
            spending_commands.COMMANDS,
            conditions_commands.COMMANDS,
            extended_commands.COMMANDS,
            CHARACTERS.commands(),
        )
    )
)
COMMANDS.include(retire_commands(SYSTEM))  # char retire, st retire (gateway.rules.retire)


class Decanter(RuleSystem):
    def roll_distribution(self, roll: Mapping[str, Any]) -> RollDistribution | None:
        return stats.roll_distribution(roll)


DECANTER = Decanter(
    SYSTEM,
    "Decanter",
    "d10, 6-9 succeeds, 10 counts twice, 1 takes one away; against a DC",
    describe="Attribute + Skill against a Difficulty Class, with Story Points and Conditions.",
    commands=COMMANDS,
    # ``stats`` names the results as the book does (``degree.<label>`` in the catalogue).
    catalogue=CATALOGUE,
    degree_colours={
        "botch": DegreeColour.BOTCH,
        "setback": DegreeColour.FAILURE,
        "success": DegreeColour.SUCCESS,
        "extra": DegreeColour.STRONG,
    },
    settings_model=DecanterSettings,
    house_rules=DecanterHouseRules,
    sheet_model=DecanterSheet,
    sheet=SHEET,
    web_tools=(web_tools.TOOL,),
)


@hookimpl
def gateway_register_rule_systems(register: Callable[[RuleSystem], None]) -> None:
    register(DECANTER)
