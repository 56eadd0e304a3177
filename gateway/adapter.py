"""The adapter contract. An adapter knows its platform and nothing about rules.

Inbound: authenticate the traffic, build an ``InboundMessage``, call ``services.handle(message)``.
Outbound: ``deliver(outbound)`` sends one outbox row; raise ``RetryLater`` (a failed attempt,
optionally with the adapter's own delay), ``Throttled`` (the target answered "wait": ``Retry-After``,
a 429; not an attempt) or ``DeliveryFailed`` (never retried). The outbox worker of the platform calls
``deliver`` for rows of one target in order, one at a time.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

if TYPE_CHECKING:
    from aiohttp import web

    from gateway.types import Outbound


class Adapter:
    platform: ClassVar[str]

    def add_routes(self, app: web.Application) -> None:
        """Add HTTP routes to the gateway's server (before it starts). Default: none."""

    async def start(self) -> None:
        """Connect, log in, start loops. Must return; long-running work goes in tasks."""

    async def stop(self) -> None:
        """Disconnect cleanly. Pending outbox rows stay pending for the next start."""

    async def deliver(self, message: Outbound) -> None:
        """Deliver one outbox row or raise ``RetryLater`` / ``Throttled`` / ``DeliveryFailed``."""
        raise NotImplementedError
