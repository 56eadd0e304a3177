"""``/macro name:<macro> values:<text>``: run one of the person's macros (issue 18), with the names
offered by autocomplete: the person's own macros and the channel's, for the channel's rule system.

The command line is ``macro NAME VALUES``, the form that runs a macro whatever its name (a macro
named like a command runs only so), and the router expands and authorises it as typed text.
``adapters.discord.slash`` lists ``command()`` with its own; ``adapters.discord.complete`` asks
``choices`` for the names.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from gateway import AdapterServices
from gateway.macros import names_seen

if TYPE_CHECKING:
    from adapters.discord.slash import Slash

MACRO = "macro"  # the ``complete`` kind of the name option


def command() -> Slash:
    """``/macro``, for ``adapters.discord.slash.COMMANDS`` (imported there, so none at the top here)."""
    from adapters.discord.slash import Opt, Slash

    name = Opt(
        "name",
        "the macro",
        required=True,
        max_length=40,
        complete=MACRO,
        texts={"cs": ("jméno", "makro"), "ru": ("имя", "макрос")},
    )
    values = Opt(
        "values",
        "its values, e.g. 3 pool=5",
        raw=True,
        max_length=1800,
        texts={
            "cs": ("hodnoty", "jeho hodnoty, např. 3 pool=5"),
            "ru": ("значения", "его значения, например 3 pool=5"),
        },
    )
    return Slash(
        "macro",
        "Run one of your macros (macro add NAME = COMMAND saves one)",
        (name, values),
        texts={
            "cs": ("", "Spustí jedno z vašich maker (macro add JMÉNO = PŘÍKAZ nějaké uloží)"),
            "ru": ("", "Запустить один из ваших макросов (macro add ИМЯ = КОМАНДА сохраняет)"),
        },
    )


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
