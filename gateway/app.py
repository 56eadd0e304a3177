"""Builds a running gateway: vault, plugins, router, adapters, outbox, and the aiohttp application.

Start-up order is vault, event listener (PostgreSQL), plugins, adapters, outbox; shutdown runs in
reverse.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterable
from datetime import datetime
from typing import Any

import structlog
from aiohttp import web

from gateway import builtin, linking, storytellers
from gateway.adapter import Adapter
from gateway.dice import DiceSource, dice_from_settings
from gateway.plugins import Plugins, build_plugin_manager
from gateway.services import Services
from gateway.settings import Settings
from gateway.vault.migrate import upgrade
from gateway.vault.models import utcnow
from gateway.vault.notify import Listener

log = structlog.get_logger(__name__)

SERVICES_KEY = web.AppKey("services", Services)


class Gateway:
    """The gateway's parts, built from settings. ``start``/``stop`` bring them up and down."""

    def __init__(
        self,
        settings: Settings,
        *,
        dice: DiceSource | None = None,
        clock: Callable[[], datetime] = utcnow,
        extra_plugins: Iterable[Any] = (),
        platforms: Iterable[str] | None = None,
    ) -> None:
        self.settings = settings
        pm = build_plugin_manager(
            settings.plugins.block, extra=[builtin, linking, storytellers, *extra_plugins]
        )
        self.plugins = Plugins(pm)
        self.plugins.configure(settings)
        self.services = Services(
            settings,
            self.plugins,
            dice=dice or dice_from_settings(settings.dice.seed, settings.dice.script),
            clock=clock,
        )
        self.adapters: dict[str, Adapter] = {}
        for spec in self.plugins.adapter_specs:
            if spec.everywhere is not None:
                spec.everywhere(self.services, settings.section(spec.platform))
            if platforms is not None and spec.platform not in platforms:
                continue
            adapter = spec.build(self.services, settings.section(spec.platform))
            if adapter is not None:
                self.adapters[spec.platform] = adapter
        self.outbox = self.services.outbox
        # Other processes on a PostgreSQL vault: their events and queued rows reach this one.
        vault = self.services.vault
        self.listener = Listener(vault.url, self.services.events) if vault.notifies else None

    async def upgrade_vault(self) -> None:
        await upgrade(self.services.vault, self.plugins.migration_locations())

    async def start(self, app: web.Application | None = None) -> None:
        if self.settings.vault.auto_upgrade and self.services.vault.dialect == "sqlite":
            await self.upgrade_vault()
        if self.listener is not None:
            await self.listener.start()
        for adapter in self.adapters.values():
            await adapter.start()
        await self.outbox.start(self.adapters)
        self.services.state["ready"] = True
        self.plugins.startup(app)
        log.info("gateway started", adapters=sorted(self.adapters), vault=self.services.vault.dialect)

    async def stop(self, app: web.Application | None = None) -> None:
        self.services.state["ready"] = False
        self.plugins.shutdown(app)
        await self.outbox.stop()
        for adapter in reversed(list(self.adapters.values())):
            await adapter.stop()
        if self.listener is not None:
            await self.listener.stop()
        await self.services.events.close()
        await self.services.vault.dispose()


async def healthz(request: web.Request) -> web.Response:
    services = request.app[SERVICES_KEY]
    if not services.state.get("ready"):
        return web.json_response({"status": "starting"}, status=503)
    return web.json_response({"status": "ok"})


def build_app(gateway: Gateway) -> web.Application:
    app = web.Application(client_max_size=64 * 1024)
    app[SERVICES_KEY] = gateway.services
    app.router.add_get("/healthz", healthz)
    for adapter in gateway.adapters.values():
        adapter.add_routes(app)

    async def lifecycle(app: web.Application) -> AsyncIterator[None]:
        await gateway.start(app)
        yield
        await gateway.stop(app)

    app.cleanup_ctx.append(lifecycle)
    return app
