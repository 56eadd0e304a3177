"""Nightcap, the primary rule system: d10 pools, 7+ succeeds, 10 counts twice, 1 takes one away.

Rules (pure: no vault, no event loop; ``tests/core/test_pure_rules.py`` checks it): ``mechanics`` (dice),
``pools`` and ``words`` (reading a command's words), ``sides`` (a side's pool and label), ``chargen`` (the
creation budget), ``powers`` and ``power_sides`` (tiers, costs, a power in a contest), ``checkin``,
``health``, ``wounds``, ``acting`` (who may act), ``rulings``, ``npc_rolls``, ``sheet``, ``view``,
``odds``, ``combat``, ``initiative``, ``extended``, ``teamwork``. Command code: ``store`` (the vault
helpers) and by topic, each with its own ``COMMANDS``: ``roll_commands``, ``character_commands``
(sheets and creation), ``play_commands`` (powers, health, check-in), ``power_contest_commands``,
``storyteller_commands`` (``st ...``, with ``st_roll_commands`` and ``export_commands``), and the
conflict commands ``odds_commands``, ``challenge_commands``, ``extended_commands``, ``team_commands``,
``combat_commands`` (sharing ``conflict_commands``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from gateway import CommandSet, DegreeColour, RuleSystem, hookimpl
from gateway.rules.retire import retire_commands
from gateway.rules.roll_distribution import RollDistribution
from plugins.nightcap import (
    challenge_commands,
    character_commands,
    combat_commands,
    extended_commands,
    odds_commands,
    play_commands,
    power_contest_commands,
    roll_commands,
    stats,
    storyteller_commands,
    team_commands,
    web_tools,
)
from plugins.nightcap.config import SYSTEM, NightcapSettings
from plugins.nightcap.house import NightcapHouseRules
from plugins.nightcap.sheet import TRAITS, NightcapSheet
from plugins.nightcap.sheet_spec import SHEET

COMMANDS = CommandSet(SYSTEM).include(
    roll_commands.COMMANDS,
    character_commands.COMMANDS,
    play_commands.COMMANDS,
    power_contest_commands.COMMANDS,
    storyteller_commands.COMMANDS,
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
