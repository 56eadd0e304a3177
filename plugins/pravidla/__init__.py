"""Pravidla, the Czech vampire rules: d6 pools against a target number, contests with re-rolled
ties, tug of war, and initiative by switched-on powers, Stamina, Wits and a die. Messages in Czech
by default (``lang en`` for English)."""

from __future__ import annotations

from collections.abc import Callable

from gateway import CommandSet, RuleSystem, hookimpl
from gateway.rules.retire import retire_commands
from plugins.pravidla import commands, scene
from plugins.pravidla.characters import CHARACTERS
from plugins.pravidla.config import PravidlaSettings
from plugins.pravidla.help import in_czech
from plugins.pravidla.house import PravidlaHouseRules
from plugins.pravidla.mechanics import SYSTEM
from plugins.pravidla.sheet import PravidlaSheet

PRAVIDLA = RuleSystem(
    name=SYSTEM,
    title="Pravidla",
    dice="d6 pool against a target number (usually 4)",
    default_locale="cs",
    locales=("cs", "en"),
    describe="Czech vampire rules: count the dice that reach the target number.",
    settings_model=PravidlaSettings,
    sheet_model=PravidlaSheet,
    house_rules=PravidlaHouseRules,
)

# Every command with its Czech help (``plugins.pravidla.help``): the decorated sets are complete
# once their modules are imported, above.
COMMANDS = CommandSet(SYSTEM).include(
    in_czech(
        CommandSet(SYSTEM)
        .include(
            commands.COMMANDS,
            CHARACTERS.commands(
                "Pravidla",
                "make a Pravidla character and make it active",
                "char new NAME",
                "show a character sheet",
                "Storyteller: set a sheet field (audited)",
            ),
            scene.COMMANDS,
            scene.INITIATIVE.commands(
                scene.init_join_command,
                scene.init_add_command,
                "init add NAME [STAMINA WITS] [hunting] [celerity basic|advanced]",
                "Storyteller: put the initiative in order",
            ),
        )
        .commands()
    )
)
COMMANDS.include(retire_commands(SYSTEM))  # char retire, st retire (gateway.rules.retire)


@hookimpl
def gateway_register_rule_systems(register: Callable[[RuleSystem], None]) -> None:
    register(PRAVIDLA)


gateway_register_commands = COMMANDS.hookimpl()


from gateway.rules.roll_text import roll_text_hook  # noqa: E402
from plugins.pravidla.messages import CATALOGUE  # noqa: E402
from plugins.pravidla.stats import gateway_roll_distribution as gateway_roll_distribution  # noqa: E402
from plugins.pravidla.summary import gateway_sheet_summary as gateway_sheet_summary  # noqa: E402

# ``verify`` with the degree in the reader's language (the core's line keeps the stored word).
gateway_roll_text = roll_text_hook(SYSTEM, CATALOGUE)
# ``stats`` names the results as the book does (``degree.<label>`` in the catalogue).
from gateway.rules.roll_distribution import DEGREE_NAMES  # noqa: E402
from plugins.pravidla.messages import CATALOGUE as _NAMES  # noqa: E402
from plugins.pravidla.web_tools import gateway_web_tools as gateway_web_tools  # noqa: E402

PRAVIDLA.extra[DEGREE_NAMES] = _NAMES
