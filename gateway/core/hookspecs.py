"""Every hook a plugin can implement. The docstrings are the plugin API reference.

Hooks are few and synchronous: they register objects (rule systems, commands, adapters) and decide
policy. Per-message work happens on the registered objects, which are async.

A plugin is any module or object with functions marked ``@hookimpl``; it is found through the
entry-point group ``gateway.plugins``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pluggy

if TYPE_CHECKING:
    from aiohttp import web

    from gateway.core.commands import CommandContext
    from gateway.core.settings import Settings
    from gateway.core.spec import AdapterSpec, CliCommand, Command, RuleSystem
    from gateway.core.web_tool import WebTool

PROJECT = "gateway"
hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = pluggy.HookimplMarker(PROJECT)


@hookspec
def gateway_register_rule_systems(register: Callable[[RuleSystem], None]) -> None:
    """Register rule systems, one object each: ``register(RuleSystem(name=..., title=...,
    commands=...))``, or an instance of a ``RuleSystem`` subclass that answers its methods.

    The object carries everything of the system: its commands, sheet model and web forms, house
    rules, settings, web tools, degree words and colours, message catalogue. The core calls its
    methods for a character's sheet summary, a logged roll's ``verify`` text and ``stats``
    distribution, dispatching on the character's or roll's ``system``; a channel uses one system.
    """


@hookspec
def gateway_register_commands(register: Callable[[Command], None]) -> None:
    """Register commands: ``register(Command(name="help", handler=...))``. A rule system's own
    commands come with its object (``RuleSystem(commands=...)``); this hook is for the rest.

    A command with ``system=None`` works in every channel (``help``, ``verify``, ``link``). A command
    tied to a system wins over a system-free command of the same name in channels of that system.
    Names may have several words (``"st approve"``); the longest registered match is used.
    ``bare=True`` also runs the command, on chat platforms, from a line without the prefix that is
    exactly its name (Decanter's scene marker ``* * *``); elsewhere such a line stays chat.
    """


@hookspec
def gateway_register_adapters(register: Callable[[AdapterSpec], None]) -> None:
    """Register platform adapters: ``register(AdapterSpec(platform="irc", build=...))``.

    ``build(services, section)`` gets the gateway services and the raw settings table of that
    platform (``[irc]`` with its sub-tables) and returns the adapter, or None when the section does
    not configure it. One adapter object serves every account of its platform.
    """


@hookspec
def gateway_register_cli_commands(register: Callable[[CliCommand], None]) -> None:
    """Add ``gateway`` subcommands: ``register(CliCommand(name="discord register", help=..., run=...))``.

    Two-word names are grouped under their first word (``gateway discord register``, ``gateway sync
    discord``), so several plugins can share a verb. ``run(args, settings)`` returns the exit code.
    """


@hookspec
def gateway_permission(ctx: CommandContext, command: Command) -> bool | None:
    """Allow (True), deny (False) or abstain (None) on running ``command``. Any False denies.

    The router already enforces ``Command.role``; this hook adds policy (say, a channel where only
    Storytellers may roll).
    """


@hookspec
def gateway_web_tools(register: Callable[[WebTool], None]) -> None:
    """Register public web tools that belong to no rule system (a rule system's own come with its
    object, ``RuleSystem.web_tools``): ``gateway.core.web_tool.WebTool``, each served at
    ``/tools/<slug>`` and listed on ``/tools/``: a title per language, form fields (``ToolField``:
    label per language, default, bounds, or choices), and a module-level pure function
    ``odds(values, locale, house)`` from the validated form to ``OddsChart`` rows (label, exact
    ``Fraction``). The web adapter validates the form (one short line per bad field, nothing
    computed), bounds pools by ``[gateway] max_pool``, runs ``odds`` in the offload pool (its time
    bound and message, as ``odds`` in chat) and draws each chart as an SVG bar chart with its
    numbers as text. Nothing a tool does is written to the vault.
    """


@hookspec
def gateway_migration_locations() -> list[str]:
    """Folders of Alembic revisions for tables this plugin owns (a labelled branch of its own)."""
    return []


@hookspec
def gateway_configure(settings: Settings) -> None:
    """Called once with the loaded settings, before anything starts."""


@hookspec
def gateway_startup(app: web.Application | None) -> None:
    """Called when the gateway has started (the vault is ready, adapters are running). ``app`` is
    the aiohttp application the gateway serves (routes are frozen by now), None without a server
    (``gateway console``)."""


@hookspec
def gateway_shutdown(app: web.Application | None) -> None:
    """Called once while the gateway stops, before the vault closes."""
