"""Nightcap, the primary rule system: d10 pools, 7+ succeeds, 10 counts twice, 1 takes one away.

Pure rules: ``mechanics`` (dice), ``chargen`` (the creation budget), ``powers`` (tiers and costs),
``checkin`` (the day boundary), ``health``, ``sheet``, ``view``, ``odds``, ``combat``, ``extended``,
``teamwork``. Commands by topic, each module with its own ``COMMANDS``: ``rolls``, ``characters``
(sheets and creation), ``play`` (powers, health, check-in), ``power_contest``, ``storyteller``
(``st ...``), and the conflict commands ``odds_commands``, ``challenge_commands``,
``extended_commands``, ``team_commands``, ``combat_commands``.
"""

from __future__ import annotations

from collections.abc import Callable

from gateway import CommandSet, RuleSystem, hookimpl
from gateway.rules.retire import retire_commands
from plugins.nightcap import (
    challenge_commands,
    characters,
    combat_commands,
    extended_commands,
    odds_commands,
    play,
    power_contest,
    rolls,
    storyteller,
    team_commands,
)
from plugins.nightcap.config import NightcapSettings
from plugins.nightcap.house import NightcapHouseRules
from plugins.nightcap.rolls import SYSTEM
from plugins.nightcap.sheet import NightcapSheet

NIGHTCAP = RuleSystem(
    name=SYSTEM,
    title="Nightcap",
    dice="d10, 7+ succeeds, 10 counts twice, 1 takes one away",
    describe="Modern supernatural stories after midnight.",
    settings_model=NightcapSettings,
    house_rules=NightcapHouseRules,
    sheet_model=NightcapSheet,
)

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


@hookimpl
def gateway_register_rule_systems(register: Callable[[RuleSystem], None]) -> None:
    register(NIGHTCAP)


gateway_register_commands = COMMANDS.hookimpl()


from plugins.nightcap.stats import gateway_roll_distribution as gateway_roll_distribution  # noqa: E402
from plugins.nightcap.summary import gateway_sheet_summary as gateway_sheet_summary  # noqa: E402
