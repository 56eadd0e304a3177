"""The Second Life adapter: HUDs call ``/sl/v1/`` over HTTP; the gateway pushes to their HTTP-in URLs.

Four parts, one job each: ``inbound`` (the two endpoints), ``delivery`` (pushes and fan-out),
``refresh`` (HUD refresh notices after a Storyteller's edit, queued in the editing unit through
``gateway.core.events``), ``pruning`` (old replay marks, on a timer). See README.md in this folder for
the wire protocol.
"""

from __future__ import annotations

import asyncio
import contextlib

import structlog
from aiohttp import web

from adapters.secondlife.config import SecondLifeConfig
from adapters.secondlife.delivery import Delivery
from adapters.secondlife.inbound import Inbound
from adapters.secondlife.pruning import ReplayPruner
from adapters.secondlife.registry import PLATFORM
from gateway import Adapter, AdapterServices, Outbound

# Seconds between looks at the replay marks (``ReplayPruner`` itself prunes at most every ten minutes).
PRUNE_BEAT = 60.0
PRUNE_LEASE = "secondlife:prune"


log = structlog.get_logger(__name__)


class SecondLifeAdapter(Adapter):
    platform = PLATFORM

    def __init__(self, services: AdapterServices, config: SecondLifeConfig) -> None:
        self.services = services
        self.config = config
        self.pruner = ReplayPruner(services)
        self.inbound = Inbound(services, config)
        self.delivery = Delivery(services, config)
        self._tasks: list[asyncio.Task[None]] = []

    def add_routes(self, app: web.Application) -> None:
        app.router.add_post("/sl/v1/command", self.inbound.command)
        app.router.add_post("/sl/v1/register", self.inbound.register)

    async def start(self) -> None:
        await self.delivery.open()
        await self.inbound.warm_replays()
        # One process of the vault prunes (the others stand by for the lease).
        beat = self.services.leases.run(PRUNE_LEASE, lambda _lease: self._prune_beat())
        self._tasks.append(asyncio.create_task(beat, name=PRUNE_LEASE))

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._tasks.clear()
        await self.delivery.close()

    def status(self) -> dict[str, object]:
        """Objects register in the vault, not in this process (counting them is a query, and this
        reads no I/O): whether it can push to their URLs, and how many pushes run at once."""
        return {"pushing": self.delivery._http is not None, "push_concurrency": self.config.push_concurrency}

    async def _prune_beat(self) -> None:
        while True:
            try:
                await self.pruner.prune(self.inbound.shared)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("second life replay pruning failed")
            await asyncio.sleep(PRUNE_BEAT)

    async def deliver(self, message: Outbound) -> None:
        await self.delivery.deliver(message)
