"""Dramatic Systems: d10 pools against a difficulty, 1s cancel, Willpower, specialties, retries."""

from __future__ import annotations

from collections.abc import Callable

from gateway import CommandSet, RuleSystem, hookimpl
from gateway.rules.retire import retire_commands
from plugins.dramatic import rolls
from plugins.dramatic.characters import CHARACTERS
from plugins.dramatic.config import DramaticSettings
from plugins.dramatic.house import DramaticHouseRules
from plugins.dramatic.mechanics import SYSTEM
from plugins.dramatic.sheet import DramaticSheet

DRAMATIC = RuleSystem(
    name=SYSTEM,
    title="Dramatic Systems",
    dice="d10 against a difficulty (default 6); 1s cancel successes",
    describe="A common set of rules for characters from several classic game lines.",
    settings_model=DramaticSettings,
    sheet_model=DramaticSheet,
    house_rules=DramaticHouseRules,
)

COMMANDS = CommandSet(SYSTEM).include(rolls.COMMANDS, CHARACTERS.commands())
COMMANDS.include(retire_commands(SYSTEM))  # char retire, st retire (gateway.rules.retire)


@hookimpl
def gateway_register_rule_systems(register: Callable[[RuleSystem], None]) -> None:
    register(DRAMATIC)


gateway_register_commands = COMMANDS.hookimpl()


# ``stats`` names the results as the book does (``degree.<label>`` in the catalogue).
from gateway.rules.roll_distribution import DEGREE_NAMES  # noqa: E402
from plugins.dramatic.messages import CATALOGUE as _NAMES  # noqa: E402
from plugins.dramatic.stats import gateway_roll_distribution as gateway_roll_distribution  # noqa: E402
from plugins.dramatic.summary import gateway_sheet_summary as gateway_sheet_summary  # noqa: E402
from plugins.dramatic.web_tools import gateway_web_tools as gateway_web_tools  # noqa: E402

DRAMATIC.extra[DEGREE_NAMES] = _NAMES
