"""``/macro run name:<macro> values:<text>``: run one of the person's macros (issue 18), with the names
offered by autocomplete: the person's own macros and the channel's, for the channel's rule system.

The command line is ``macro NAME VALUES``, the form that runs a macro whatever its name (a macro
named like a command runs only so), and the router expands and authorises it as typed text.
``adapters.discord.slash`` puts ``command()`` beside the generated ``/macro`` subcommands;
``adapters.discord.complete`` asks ``choices`` for the names.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from gateway import AdapterServices
from gateway.core.params import Param
from gateway.features.macros import names_seen

if TYPE_CHECKING:
    from adapters.discord.slash import Slash

MACRO = "macro"  # what autocomplete offers for the name option


def command() -> Slash:
    """``/macro run``, put beside the generated ``/macro add|list|remove|show`` by
    ``adapters.discord.slash`` (imported here, so none at the top)."""
    from adapters.discord.slash import Slash

    name = Param(
        "name", "word", "the macro", required=True, texts={"cs": ("jméno", "makro"), "ru": ("имя", "макрос")}
    )
    values = Param(
        "values",
        "text",
        "its values, e.g. 3 pool=5",
        texts={
            "cs": ("hodnoty", "jeho hodnoty, např. 3 pool=5"),
            "ru": ("значения", "его значения, например 3 pool=5"),
        },
    )
    run = Slash(
        "run",
        "Run one of your macros (macro add NAME = COMMAND saves one)",
        {
            "cs": "Spustí jedno z vašich maker (macro add JMÉNO = PŘÍKAZ nějaké uloží)",
            "ru": "Запустить один из ваших макросов (macro add ИМЯ = КОМАНДА сохраняет)",
        },
        words="macro",
        params=(name, values),
        completes={"name": MACRO},
    )
    return Slash("macro", run.description, subcommands=(run,))


async def choices(
    services: AdapterServices, interaction: Mapping[str, Any], typed: str
) -> list[dict[str, str]]:
    """The names of the macros the sender sees in this channel that match what is typed."""
    from adapters.discord import interactions as ix
    from adapters.discord.complete import matching

    channel, sender = ix.channel(interaction), ix.sender(interaction)
    system = services.settings.gateway.default_system  # when the channel has chosen none
    async with services.vault.transaction() as session:
        names = await names_seen(session, sender.key, channel.key, system)
    return matching(((name, name) for name in names), typed, last_word=False)
