"""The declarations a plugin hands the gateway: rule systems, commands, adapters, CLI commands.

A leaf module (it imports nothing of the gateway at run time), so that ``gateway`` can re-export
these and any module can import them without an import cycle.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from pydantic import BaseModel

    from gateway.adapter import Adapter
    from gateway.commands import CommandContext
    from gateway.offload import Awaited, Offloaded
    from gateway.services import AdapterServices
    from gateway.types import Invocation, Reply

Role = Literal["anyone", "player", "storyteller"]
# An ``Offloaded`` answer is computed off the event loop (an ``Awaited`` one awaited) once the
# handler's unit has ended.
Handler = Callable[
    ["CommandContext", "Invocation"], Awaitable["Sequence[Reply] | Reply | Offloaded[Any] | Awaited | None"]
]


@dataclass(frozen=True)
class Command:
    """A command. ``role``: ``anyone`` (unverified identities too), ``player`` (a verified identity,
    the default) or ``storyteller``. ``usage`` is shown by ``help`` and in errors.

    ``bare``: on chat platforms (``prefixed`` messages) the command also runs without the prefix when
    the whole message is exactly its name, such as Decanter's scene marker ``* * *``. Such a line in a
    channel whose system has no command of that name stays ordinary chat: no reply, nothing written.

    ``claims``: a system-free command with it takes the lines whose words after its name it accepts,
    even where the channel's system has a command of that name (``roll 2d6+3`` is dice notation in
    every channel); other lines go to the system's command of that name, and under an alias to
    nothing (``r 2d6`` rolls notation; ``r 3`` may call a macro named ``r``).
    """

    name: str
    handler: Handler
    summary: str
    usage: str = ""
    system: str | None = None
    role: Role = "player"
    aliases: tuple[str, ...] = ()
    bare: bool = False
    # ``help`` in other languages: locale -> (summary, usage). A locale missing here shows English.
    texts: Mapping[str, tuple[str, str]] = field(default_factory=dict, hash=False, compare=False)
    claims: Callable[[Sequence[str]], bool] | None = field(default=None, hash=False, compare=False)

    def summary_in(self, locale: str) -> str:
        return self.texts[locale][0] if locale in self.texts else self.summary

    def usage_in(self, locale: str) -> str:
        return self.texts[locale][1] if locale in self.texts else self.usage


@dataclass(frozen=True)
class RuleSystem:
    """A game system. ``sheet_fields`` documents the sheet; ``locales`` are its message languages.

    ``settings_model``: a pydantic model of the system's ``[<name>]`` settings table, validated at
    start (a bad table stops the gateway naming the field); handlers read it with
    ``ctx.settings_for(Model)``.

    ``sheet_model``: a pydantic model a stored sheet document (``Character.sheet``) must satisfy;
    ``gateway import characters`` refuses a sheet it rejects. None: any JSON object is taken.

    ``house_rules``: a ``gateway.house_rules.HouseRules`` model of the system's switches (each
    field's default is the book's rule); a channel's are changed with ``house set`` and handlers
    read them as ``ctx.house_rules(Model)``. None: the system has none."""

    name: str
    title: str
    dice: str
    default_locale: str = "en"
    locales: tuple[str, ...] = ("en",)
    describe: str = ""
    extra: dict[str, Any] = field(default_factory=dict)
    settings_model: type[BaseModel] | None = None
    sheet_model: type[BaseModel] | None = None
    house_rules: type[BaseModel] | None = None


@dataclass(frozen=True)
class AdapterSpec:
    """A platform. ``build(services, section)`` returns the adapter, or None when the platform's
    settings table does not configure it. ``everywhere(services, section)``, if given, runs in every
    gateway process built with these settings, also one that does not run this adapter
    (``gateway console`` beside ``gateway serve`` on one vault): the place to subscribe to events
    for work that must go with each change whichever process makes it (Second Life queues its HUD
    refresh notices in the unit that edited the sheet)."""

    platform: str
    build: Callable[[AdapterServices, dict[str, Any]], Adapter | None]
    everywhere: Callable[[AdapterServices, dict[str, Any]], None] | None = None


@dataclass(frozen=True)
class CliCommand:
    """A ``gateway`` subcommand a plugin adds: ``name`` is one word (``"status"``) or two
    (``"discord register"``, ``"sync discord"``); commands sharing a first word are grouped under it.
    ``configure(parser)`` adds the arguments; ``run(args, settings)`` returns the exit code."""

    name: str
    help: str
    run: Callable[[Any, Any], int]
    configure: Callable[[Any], None] | None = None
