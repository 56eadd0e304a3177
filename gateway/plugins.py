"""The plugin manager, built per application (no import-time globals) with a typed wrapper."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pluggy
import structlog

from gateway import hookspecs
from gateway.registry import AdapterSpec, CliCommand, Registry, RuleSystem

log = structlog.get_logger(__name__)

ENTRY_POINT_GROUP = "gateway.plugins"


def build_plugin_manager(block: Iterable[str] = (), extra: Iterable[Any] = ()) -> pluggy.PluginManager:
    """Plugins from the ``gateway.plugins`` entry points (built-ins included), minus ``block``."""
    pm = pluggy.PluginManager(hookspecs.PROJECT)
    pm.add_hookspecs(hookspecs)
    for name in block:
        pm.set_blocked(name)
    pm.load_setuptools_entrypoints(ENTRY_POINT_GROUP)
    for plugin in extra:
        pm.register(plugin)
    log.debug("plugins loaded", plugins=sorted(n for n, _ in pm.list_name_plugin() if n))
    return pm


class Plugins:
    """Typed access to the hooks, and the registry they fill."""

    def __init__(self, pm: pluggy.PluginManager) -> None:
        self.pm = pm
        self.registry = Registry()
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

    def permission(self, ctx: Any, command: Any) -> bool:
        hook = self.pm.hook.gateway_permission
        if not hook.get_hookimpls():
            return True  # nobody votes (the usual case): skip the call, it runs for every command
        return all(vote is not False for vote in hook(ctx=ctx, command=command))

    def configure(self, settings: Any) -> None:
        self.pm.hook.gateway_configure(settings=settings)

    def startup(self, app: Any) -> None:
        self.pm.hook.gateway_startup(app=app)

    def shutdown(self, app: Any) -> None:
        self.pm.hook.gateway_shutdown(app=app)
