"""Dramatic Systems: d10 pools against a difficulty, 1s cancel, Willpower, specialties, retries."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from gateway import CommandSet, DegreeColour, RuleSystem, hookimpl
from gateway.rules.retire import retire_commands
from gateway.rules.roll_distribution import RollDistribution
from plugins.dramatic import rolls_commands, stats, web_tools
from plugins.dramatic.characters_commands import CHARACTERS
from plugins.dramatic.config import DramaticSettings
from plugins.dramatic.house import DramaticHouseRules
from plugins.dramatic.mechanics import SYSTEM
from plugins.dramatic.messages import CATALOGUE
from plugins.dramatic.params import with_params
from plugins.dramatic.sheet import DramaticSheet
from plugins.dramatic.sheet_spec import SHEET

COMMANDS = CommandSet(SYSTEM).include(
    with_params(CommandSet(SYSTEM).include(rolls_commands.COMMANDS, CHARACTERS.commands()))
)
COMMANDS.include(retire_commands(SYSTEM))  # char retire, st retire (gateway.rules.retire)


class Dramatic(RuleSystem):
    def roll_distribution(self, roll: Mapping[str, Any]) -> RollDistribution | None:
        return stats.roll_distribution(roll)


DRAMATIC = Dramatic(
    SYSTEM,
    "Dramatic Systems",
    "d10 against a difficulty (default 6); 1s cancel successes",
    describe="A common set of rules for characters from several classic game lines.",
    commands=COMMANDS,
    # ``stats`` names the results as the book does (``degree.<label>`` in the catalogue).
    catalogue=CATALOGUE,
    degree_colours={
        "botch": DegreeColour.BOTCH,
        "failure": DegreeColour.FAILURE,
        "success": DegreeColour.SUCCESS,
    },
    settings_model=DramaticSettings,
    sheet_model=DramaticSheet,
    house_rules=DramaticHouseRules,
    sheet=SHEET,
    web_tools=(web_tools.TOOL,),
)


@hookimpl
def gateway_register_rule_systems(register: Callable[[RuleSystem], None]) -> None:
    register(DRAMATIC)
