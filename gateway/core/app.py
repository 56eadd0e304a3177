"""Builds a running gateway: vault, plugins, router, adapters, outbox, and the aiohttp application.

Start-up order is vault, event listener (PostgreSQL), plugins, adapters, outbox, heartbeat; shutdown
runs in reverse. ``/healthz`` is liveness (the process is up and started), ``/readyz`` readiness (the
vault answers and is migrated, ``gateway.ops.readiness``), ``/metrics`` Prometheus (``gateway.ops.metrics``).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterable
from datetime import datetime
from typing import TYPE_CHECKING, Any

import structlog

from gateway.core.adapter import Adapter
from gateway.core.dice import DiceSource, dice_from_settings
from gateway.core.heap import freeze_startup_heap, loading
from gateway.core.plugins import Plugins, build_plugin_manager, core_plugins, idle_adapters
from gateway.core.services import Services
from gateway.core.settings import Settings
from gateway.delivery.heartbeat import Heartbeat
from gateway.features.stats.store import stop_folds
from gateway.ops.readiness import Readiness
from gateway.vault.models import utcnow
from gateway.vault.notify import Listener

if TYPE_CHECKING:  # aiohttp only for a process that serves HTTP (build_app): not the console
    from aiohttp import web

    from gateway.ops.metrics import Metrics

log = structlog.get_logger(__name__)


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
        skip_idle_adapters: bool = False,
    ) -> None:
        self.settings = settings
        platforms = None if platforms is None else list(platforms)
        block = list(settings.plugins.block)
        if skip_idle_adapters and platforms is not None:
            # Not imported at all (``gateway console``): adapters neither served nor configured.
            block += idle_adapters(platforms, lambda name: bool(settings.section(name)))
        with loading():
            pm = build_plugin_manager(block, extra=[*core_plugins(), *extra_plugins])
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
        self.readiness = Readiness(vault, self.plugins.migration_locations())
        self.heartbeat = Heartbeat(self.services, self.adapters)
        # Called once everything has started (``gateway serve`` prints its start-up block).
        self.on_started: Callable[[], None] | None = None
        self.metrics: Metrics | None = None
        if settings.metrics.enabled:
            from gateway.ops.metrics import Metrics  # Prometheus' client: for a process that serves /metrics

            self.metrics = Metrics(self.services)
            self.services.router.observe = self.metrics.command

    async def upgrade_vault(self) -> None:
        from gateway.vault.migrate import upgrade  # Alembic: only when there is something to do

        await upgrade(self.services.vault, self.plugins.migration_locations())

    async def start(self, app: web.Application | None = None) -> None:
        # A current vault (every start but the first after an update) needs no Alembic.
        sqlite = self.settings.vault.auto_upgrade and self.services.vault.dialect == "sqlite"
        if sqlite and not (await self.readiness.check(fresh=True)).ready:
            await self.upgrade_vault()
        if self.listener is not None:
            await self.listener.start()
        for adapter in self.adapters.values():
            await adapter.start()
        await self.outbox.start(self.adapters)
        await self.heartbeat.start()
        verdict = await self.readiness.check(fresh=True)
        if not verdict.ready:
            log.warning("vault not ready: /readyz answers 503 until it is", reason=verdict.reason)
        self.services.state["ready"] = True
        self.plugins.startup(app)
        freeze_startup_heap()
        log.info("gateway started", adapters=sorted(self.adapters), vault=self.services.vault.dialect)
        if self.on_started is not None:
            self.on_started()

    async def stop(self, app: web.Application | None = None) -> None:
        self.services.state["ready"] = False
        self.plugins.shutdown(app)
        await self.heartbeat.stop()
        await self.outbox.stop()
        try:
            for adapter in reversed(list(self.adapters.values())):
                # One adapter failing to stop must not keep the others running, nor the vault open.
                try:
                    await adapter.stop()
                except Exception:
                    log.exception("adapter failed to stop", platform=adapter.platform)
            if self.listener is not None:
                await self.listener.stop()
            await self.services.offload.shutdown()
            await stop_folds(self.services.vault)
            await self.services.events.close()
        finally:
            await self.services.vault.dispose()


def build_app(gateway: Gateway) -> web.Application:
    from aiohttp import web

    state = gateway.services.state

    async def healthz(request: web.Request) -> web.Response:
        if not state.get("ready"):
            return web.json_response({"status": "starting"}, status=503)
        return web.json_response({"status": "ok"})

    async def readyz(request: web.Request) -> web.Response:
        if not state.get("ready"):
            return web.Response(status=503, text="starting\n")
        verdict = await gateway.readiness.check()
        return web.Response(status=200 if verdict.ready else 503, text=verdict.reason + "\n")

    app = web.Application(client_max_size=64 * 1024)
    # Neither carries data, so neither asks who is calling (a load balancer, systemd, a probe).
    app.router.add_get("/healthz", healthz)
    app.router.add_get("/readyz", readyz)
    if gateway.metrics is not None:
        from gateway.ops import metrics

        app.router.add_get("/metrics", metrics.handler(gateway.metrics, gateway.settings.metrics.token))
    for adapter in gateway.adapters.values():
        adapter.add_routes(app)

    async def lifecycle(app: web.Application) -> AsyncIterator[None]:
        await gateway.start(app)
        yield
        await gateway.stop(app)

    app.cleanup_ctx.append(lifecycle)
    return app
