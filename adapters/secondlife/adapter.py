"""The Second Life adapter: HUDs call ``/sl/v1/`` over HTTP; the gateway pushes to their HTTP-in URLs.

Four parts, one job each: ``inbound`` (the two endpoints), ``delivery`` (pushes and fan-out),
``refresh`` (HUD refresh notices after a Storyteller's edit), ``pruning`` (old replay marks). See
README.md in this folder for the wire protocol.
"""

from __future__ import annotations

import asyncio
import contextlib

from aiohttp import web

from adapters.secondlife.config import SecondLifeConfig
from adapters.secondlife.delivery import Delivery
from adapters.secondlife.inbound import Inbound
from adapters.secondlife.pruning import ReplayPruner
from adapters.secondlife.refresh import Refresher
from adapters.secondlife.registry import PLATFORM
from gateway import Adapter, Outbound, Services


class SecondLifeAdapter(Adapter):
    platform = PLATFORM

    def __init__(self, services: Services, config: SecondLifeConfig) -> None:
        self.services = services
        self.config = config
        self.pruner = ReplayPruner(services)
        self.refresher = Refresher(services, config.refresh_poll, also=self.pruner.prune)
        self.inbound = Inbound(services, config, storyteller_command=self.refresher.kick)
        self.delivery = Delivery(services, config)
        self._tasks: list[asyncio.Task[None]] = []

    def add_routes(self, app: web.Application) -> None:
        app.router.add_post("/sl/v1/command", self.inbound.command)
        app.router.add_post("/sl/v1/register", self.inbound.register)

    async def start(self) -> None:
        await self.delivery.open()
        await self.inbound.warm_replays()
        await self.refresher.refresh_once()  # creates the audit cursor before the first request
        self._tasks.append(asyncio.create_task(self.refresher.watch(), name="secondlife:refresh"))

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._tasks.clear()
        await self.delivery.close()

    async def deliver(self, message: Outbound) -> None:
        await self.delivery.deliver(message)
