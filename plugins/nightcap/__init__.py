"""Nightcap, the primary rule system: d10 pools, 7+ succeeds, 10 counts twice, 1 takes one away.

Pure rules: ``mechanics`` (dice), ``chargen`` (the creation budget), ``powers`` (tiers and costs),
``checkin`` (the day boundary), ``health``, ``sheet``, ``view``, ``odds``, ``combat``, ``extended``,
``teamwork``. Commands by topic, each module with its own ``COMMANDS``: ``rolls``, ``characters``
(sheets and creation), ``play`` (powers, health, check-in), ``power_contest``, ``storyteller``
(``st ...``), and the conflict commands ``odds_commands``, ``challenge_commands``,
``extended_commands``, ``team_commands``, ``combat_commands``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from gateway import CommandSet, DegreeColour, RuleSystem, hookimpl
from gateway.rules.retire import retire_commands
from gateway.rules.roll_distribution import RollDistribution
from plugins.nightcap import (
    challenge_commands,
    characters,
    combat_commands,
    extended_commands,
    odds_commands,
    play,
    power_contest,
    rolls,
    stats,
    storyteller,
    team_commands,
    web_tools,
)
from plugins.nightcap.config import NightcapSettings
from plugins.nightcap.house import NightcapHouseRules
from plugins.nightcap.rolls import SYSTEM
from plugins.nightcap.sheet import TRAITS, NightcapSheet
from plugins.nightcap.sheet_spec import SHEET

COMMANDS = CommandSet(SYSTEM).include(
    rolls.COMMANDS,
    characters.COMMANDS,
    play.COMMANDS,
    power_contest.COMMANDS,
    storyteller.COMMANDS,
    odds_commands.COMMANDS,
    challenge_commands.COMMANDS,
    extended_commands.COMMANDS,
    team_commands.COMMANDS,
    combat_commands.COMMANDS,
    retire_commands(SYSTEM),
)


class Nightcap(RuleSystem):
    def roll_distribution(self, roll: Mapping[str, Any]) -> RollDistribution | None:
        return stats.roll_distribution(roll)


NIGHTCAP = Nightcap(
    SYSTEM,
    "Nightcap",
    "d10, 7+ succeeds, 10 counts twice, 1 takes one away",
    describe="Modern supernatural stories after midnight.",
    commands=COMMANDS,
    degree_colours={
        "botch": DegreeColour.BOTCH,
        "failure": DegreeColour.FAILURE,
        "marginal": DegreeColour.PARTIAL,
        "solid": DegreeColour.SUCCESS,
        "strong": DegreeColour.STRONG,
        "overwhelming": DegreeColour.BEST,
    },
    settings_model=NightcapSettings,
    house_rules=NightcapHouseRules,
    sheet_model=NightcapSheet,
    sheet=SHEET,
    defences=TRAITS,
    web_tools=(web_tools.BUDGET, web_tools.ROLLER),
)


@hookimpl
def gateway_register_rule_systems(register: Callable[[RuleSystem], None]) -> None:
    register(NIGHTCAP)
