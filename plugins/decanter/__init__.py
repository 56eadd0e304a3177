"""Decanter: d10 Attribute + Skill pools against a Difficulty Class, Story Points and Conditions."""

from __future__ import annotations

from collections.abc import Callable

from gateway import CommandSet, RuleSystem, hookimpl
from gateway.rules.retire import retire_commands
from plugins.decanter import conditions, extended, rolls, spending, story_points
from plugins.decanter.characters import CHARACTERS
from plugins.decanter.config import DecanterSettings
from plugins.decanter.house import DecanterHouseRules
from plugins.decanter.mechanics import SYSTEM
from plugins.decanter.sheet import DecanterSheet

DECANTER = RuleSystem(
    name=SYSTEM,
    title="Decanter",
    dice="d10, 6-9 succeeds, 10 counts twice, 1 takes one away; against a DC",
    describe="Attribute + Skill against a Difficulty Class, with Story Points and Conditions.",
    settings_model=DecanterSettings,
    house_rules=DecanterHouseRules,
    sheet_model=DecanterSheet,
)

COMMANDS = CommandSet(SYSTEM).include(
    rolls.COMMANDS,
    story_points.COMMANDS,
    spending.COMMANDS,
    conditions.COMMANDS,
    extended.COMMANDS,
    CHARACTERS.commands(),
)
COMMANDS.include(retire_commands(SYSTEM))  # char retire, st retire (gateway.rules.retire)


@hookimpl
def gateway_register_rule_systems(register: Callable[[RuleSystem], None]) -> None:
    register(DECANTER)


gateway_register_commands = COMMANDS.hookimpl()


# ``stats`` names the results as the book does (``degree.<label>`` in the catalogue).
from gateway.rules.roll_distribution import DEGREE_NAMES  # noqa: E402
from plugins.decanter.messages import CATALOGUE as _NAMES  # noqa: E402
from plugins.decanter.stats import gateway_roll_distribution as gateway_roll_distribution  # noqa: E402
from plugins.decanter.summary import gateway_sheet_summary as gateway_sheet_summary  # noqa: E402
from plugins.decanter.web_tools import gateway_web_tools as gateway_web_tools  # noqa: E402

DECANTER.extra[DEGREE_NAMES] = _NAMES
