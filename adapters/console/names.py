"""The console's prompt wired to the running gateway: the names a Tab offers (one short read of
the vault), refreshed on the event hub's sheet events, and the history file."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

from prompt_toolkit.input import Input
from prompt_toolkit.output import Output

from adapters.console.complete import Names, NameSource
from adapters.console.prompt import ConsolePrompt, history_path, make_history
from gateway import AdapterServices, Channel, Command, Identity
from gateway.core.events import Approved, SheetChanged
from gateway.features import channels, records
from gateway.features.characters import characters_in, player_characters
from gateway.features.house_rules.declare import switches
from gateway.features.macros import names_seen

CHARACTERS = 500  # names offered at most: a Tab menu, not a roster
PEOPLE = 300  # people seen offered at most, newest first

Commands = Callable[[str], Iterable[Command]]  # a system's visible commands (the plugin registry)


async def load_names(
    services: AdapterServices, commands: Commands, channel: Channel, sender: Identity, storyteller: bool
) -> Names:
    """Command names of the channel's rule system (Storyteller ones for a Storyteller), the trait
    and pool names of the sender's active character (else of the system's first character: the
    console knows no rules, a sheet shows what a system calls its traits), every character's name, and
    the macros the sender sees in the channel (``gateway.features.macros.names_seen``), with the prefix."""
    system = await channels.system_of(services.vault, channel) or services.settings.gateway.default_system
    shown_commands = [c for c in commands(system) if storyteller or c.role != "storyteller"]
    names = sorted({name for command in shown_commands for name in (command.name, *command.aliases)})
    params = {name: c.params for c in shown_commands for name in (c.name, *c.aliases) if c.params}
    async with services.vault.transaction() as session:
        everyone = await characters_in(session, system, limit=CHARACTERS)
        player = await player_characters(session, sender.key, system, CHARACTERS)
        active = player.active if player is not None else None
        shown = active if active is not None and active.system == system else next(iter(everyone), None)
        traits: tuple[str, ...] = ()
        powers: tuple[str, ...] = ()
        if shown is not None:
            summary = await services.sheet_summary(session, shown, player.locale if player else None)
            traits = tuple(dict.fromkeys([*(t.key for t in summary.traits), *(p.key for p in summary.pools)]))
            # Powers are the active character's own: another's sheet only shows what traits are called.
            powers = tuple(p.name for p in summary.powers) if shown is active else ()
        macros = await names_seen(session, sender.key, channel.key, system)
        seen = await records.identities_seen(session, PEOPLE)
    prefix = services.settings.gateway.prefix
    return Names(
        tuple(names),
        traits,
        tuple(c.name for c in everyone),
        tuple(prefix + m for m in macros),
        params=params,
        powers=powers,
        own_characters=tuple(player.names) if player is not None else (),
        house_rules=house_rules(services, system),
        people=people(seen),
    )


def people(seen: Iterable[tuple[str, str]]) -> tuple[str, ...]:
    """What a person parameter is offered for the identities seen (key, display name): the name where
    no other identity has it (the router reads it back to that key), else the key itself."""
    pairs = list(seen)
    counts = Counter(name.casefold() for _, name in pairs)
    shown = (name if counts[name.casefold()] == 1 and ":" not in name else key for key, name in pairs)
    return tuple(dict.fromkeys(shown))


def house_rules(services: AdapterServices, system: str) -> tuple[str, ...]:
    """The names of the system's house-rule switches (``house set NAME``), from its declaration."""
    plugins = getattr(services, "plugins", None)
    rule_system = plugins.registry.systems.get(system) if plugins is not None else None
    model = getattr(rule_system, "house_rules", None)
    return tuple(switches(model)) if model is not None else ()


def visible_commands(services: AdapterServices) -> Commands:
    """The registry's commands of a system. The gateway's services hold the plugins; the adapter
    protocol does not promise them, so a stand-in without them completes no command."""
    plugins = getattr(services, "plugins", None)
    if plugins is None:
        return lambda system: ()
    visible: Commands = plugins.registry.visible
    return visible


def console_prompt(
    services: AdapterServices,
    channel: Channel,
    sender: Identity,
    *,
    storyteller: bool,
    message: str,
    section: dict[str, Any],
    input: Input | None = None,
    output: Output | None = None,
) -> ConsolePrompt:
    commands = visible_commands(services)
    source = NameSource(lambda: load_names(services, commands, channel, sender, storyteller))
    for kind in (SheetChanged, Approved):  # a new, renamed or approved character: read names again
        services.events.subscribe(kind, source.on_event)
    history = make_history(history_path(section, services.settings.vault.url))
    return ConsolePrompt(message, source, history, input=input, output=output)
