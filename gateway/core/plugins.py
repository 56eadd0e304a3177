"""The plugin manager, built per application (no import-time globals) with a typed wrapper."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from importlib import import_module
from types import ModuleType
from typing import TYPE_CHECKING, Any

import pluggy
import structlog
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from gateway.core import hookspecs
from gateway.core.entry_points import group
from gateway.core.registry import Registry
from gateway.core.spec import AdapterSpec, CliCommand, Command, RuleSystem
from gateway.core.summary import SheetSummary, bare_summary
from gateway.core.system_settings import validate_system_settings
from gateway.vault.models import Character, Pool

if TYPE_CHECKING:
    from aiohttp import web
    from pydantic import BaseModel

    from gateway.core.commands import CommandContext
    from gateway.core.settings import Settings
    from gateway.core.web_pages import WebPage
    from gateway.rules.roll_distribution import RollDistribution

log = structlog.get_logger(__name__)

ENTRY_POINT_GROUP = "gateway.plugins"
ADAPTER_GROUP = "gateway.adapters"

# The core's own commands, registered like a plugin's but not installed as entry points (so they
# cannot be blocked). The one list: ``Gateway`` and ``config check`` both load these.
CORE_PLUGINS = (
    "gateway.features.builtin",
    "gateway.features.linking",
    "gateway.features.storytellers",
    "gateway.features.house_rules.commands",
    "gateway.features.macros.commands",
    "gateway.features.stats.command",
    "gateway.features.transfer.one",
    "gateway.features.notation.command",
    "gateway.features.profiles",
)


def core_plugins() -> list[ModuleType]:
    """The modules of ``CORE_PLUGINS``, imported."""
    return [import_module(name) for name in CORE_PLUGINS]


def idle_adapters(platforms: Iterable[str], configured: Callable[[str], bool]) -> list[str]:
    """The ``gateway.plugins`` names a process serving only ``platforms`` may leave unimported: the
    plugins that declare (entry-point group ``gateway.adapters``, name: the platform) that they bring
    nothing but one platform's adapter, when that platform is neither served here nor
    ``configured`` (a configured adapter may act in every process: Second Life's refresh notices
    follow each sheet edit). Read from the entry points alone, nothing imported."""
    served = set(platforms)
    idle = {ep.value for ep in group(ADAPTER_GROUP) if not (ep.name in served or configured(ep.name))}
    return [ep.name for ep in group(ENTRY_POINT_GROUP) if ep.value in idle]


class PluginError(Exception):
    """A plugin that cannot work as written (a misspelt hook): the gateway refuses to start."""


def build_plugin_manager(block: Iterable[str] = (), extra: Iterable[Any] = ()) -> pluggy.PluginManager:
    """Plugins from the ``gateway.plugins`` entry points (built-ins included), minus ``block``."""
    pm = pluggy.PluginManager(hookspecs.PROJECT)
    pm.add_hookspecs(hookspecs)
    for name in block:
        pm.set_blocked(name)
    pm.load_setuptools_entrypoints(ENTRY_POINT_GROUP)
    for plugin in extra:
        pm.register(plugin)
    _check_hooks(pm)
    log.debug("plugins loaded", plugins=sorted(n for n, _ in pm.list_name_plugin() if n))
    return pm


def _check_hooks(pm: pluggy.PluginManager) -> None:
    """Every ``@hookimpl`` must name a hook of ``gateway.core.hookspecs``: a misspelt one
    (``gateway_register_comands``) would otherwise never be called, and nobody would know why."""
    try:
        pm.check_pending()
    except pluggy.PluginValidationError as exc:
        name = pm.get_name(exc.plugin) or repr(exc.plugin)
        unknown = sorted(
            hook
            for hook in vars(pm.hook)
            if not hook.startswith("_")
            and not getattr(pm.hook, hook).has_spec()
            and any(impl.plugin is exc.plugin for impl in getattr(pm.hook, hook).get_hookimpls())
        )
        raise PluginError(
            f"plugin {name!r} implements {', '.join(unknown)}, which is not a gateway hook"
            " (misspelt? the hooks are listed in gateway/core/hookspecs.py and the README)"
        ) from exc


class Plugins:
    """Typed access to the hooks, and the registry they fill."""

    def __init__(self, pm: pluggy.PluginManager) -> None:
        self.pm = pm
        self.registry = Registry()
        # Each rule system's validated settings table (``RuleSystem.settings_model``), by system name.
        self.system_settings: dict[str, BaseModel] = {}
        pm.hook.gateway_register_rule_systems(register=self.registry.add_system)
        pm.hook.gateway_register_commands(register=self.registry.add_command)
        self.adapter_specs: list[AdapterSpec] = []
        pm.hook.gateway_register_adapters(register=self.adapter_specs.append)
        self.cli_commands: list[CliCommand] = []
        pm.hook.gateway_register_cli_commands(register=self.cli_commands.append)

    def names(self) -> list[str]:
        return sorted(name for name, plugin in self.pm.list_name_plugin() if plugin is not None)

    def systems(self) -> dict[str, RuleSystem]:
        return self.registry.systems

    def migration_locations(self) -> list[str]:
        return [loc for locs in self.pm.hook.gateway_migration_locations() for loc in locs]

    def permission(self, ctx: CommandContext, command: Command) -> bool:
        hook = self.pm.hook.gateway_permission
        if not hook.get_hookimpls():
            return True  # nobody votes (the usual case): skip the call, it runs for every command
        return all(vote is not False for vote in hook(ctx=ctx, command=command))

    def sheet_summary(
        self, character: Character, pools: dict[str, tuple[int, int]], locale: str | None = None
    ) -> SheetSummary:
        """The character's system summarises its sheet (``RuleSystem.summary``, in the book's
        language for a reader without one); else the core's name, system and status."""
        system = self.registry.systems.get(character.system)
        found = system.summary(character, pools, locale or system.default_locale) if system else None
        return (
            found if found is not None else bare_summary(character.name, character.system, character.status)
        )

    async def load_summary(
        self, session: AsyncSession, character: Character, locale: str | None = None
    ) -> SheetSummary:
        """``sheet_summary`` with the character's pools read in ``session``."""
        # Columns, not Pool objects: fresh values even where the session holds stale rows.
        found = await session.exec(
            select(Pool.name, Pool.current, Pool.maximum).where(col(Pool.character_id) == character.id)
        )
        pools = {name: (int(current), int(maximum)) for name, current, maximum in found.all()}
        return self.sheet_summary(character, pools, locale)

    def roll_text(self, roll: Mapping[str, Any], locale: str) -> str | None:
        """How the roll's own system tells a logged roll (``RuleSystem.roll_text``); None when it
        does not (the core's line) or is not installed."""
        if roll.get("kind") == "dice":  # a dice-notation roll, made in any system's channel
            # Imported here: it builds a Lark parser, which a CLI command that tells no roll skips.
            from gateway.features.notation.command import roll_text

            return roll_text(roll, locale)
        system = self.registry.systems.get(str(roll.get("system")))
        return system.roll_text(roll, locale) if system is not None else None

    def roll_distribution(self, roll: Mapping[str, Any]) -> RollDistribution | None:
        """What ``stats`` counts of a logged roll (``RuleSystem.roll_distribution`` of its system)."""
        if roll.get("kind") == "dice":
            from gateway.features.notation.command import distribution

            return distribution(roll)
        system = self.registry.systems.get(str(roll.get("system")))
        return system.roll_distribution(roll) if system is not None else None

    def web_tools(self) -> list[WebPage]:
        """Every public web tool: each rule system's (``RuleSystem.web_tools``), then those of
        ``gateway_web_tools`` (tools of no rule system), in registration order."""
        tools: list[WebPage] = [
            tool for system in self.registry.systems.values() for tool in system.web_tools
        ]
        self.pm.hook.gateway_web_tools(register=tools.append)
        return tools

    def configure(self, settings: Settings) -> None:
        self.system_settings = validate_system_settings(self.registry.systems.values(), settings)
        self.pm.hook.gateway_configure(settings=settings)

    def startup(self, app: web.Application | None) -> None:
        self.pm.hook.gateway_startup(app=app)

    def shutdown(self, app: web.Application | None) -> None:
        self.pm.hook.gateway_shutdown(app=app)
