"""The adapter contract. An adapter knows its platform and nothing about rules.

Inbound: authenticate the traffic, build an ``InboundMessage``, call ``services.handle(message)``.
Outbound: ``deliver(outbound)`` sends one outbox row, or says why not with one of
(``gateway/core/errors.py``):

- ``RetryLater``: this attempt failed (a timeout, a 5xx, a dropped request). It is retried until
  the row was queued ``[outbox] retry_hours`` ago, then it is dead (kept for an operator). The
  outbox picks the delay with its ``Backoff`` (``gateway/delivery/pacing.py``); an adapter may name
  a policy of its own (``RetryLater(reason, backoff=...)``: a lower ceiling, another jitter), never
  a delay.
- ``Throttled(reason, delay)``: the target answered "wait" (``Retry-After``, a 429, a rate limit),
  or the row is another gateway process's to send. Not an attempt.
- ``TargetAbsent(reason, delay)``: the target, or our session with it, is not there yet (no object
  registered, a dead URL, a network not connected). Not an attempt; bound the wait yourself where
  it can last for ever, and raise ``DeliveryFailed`` after it.
- ``DeliveryFailed``: never deliverable (a deleted webhook, a 404 for good): dead at once.
- ``Settled``: the adapter settled the row itself.

The outbox worker of the platform calls ``deliver`` for rows of one target in order, one at a time.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

if TYPE_CHECKING:
    from aiohttp import web

    from gateway.core.types import Outbound


class Adapter:
    platform: ClassVar[str]
    # A lease name (``"discord:delivery"``) when the platform's outbox rows must be delivered by one
    # process of the vault at a time (a rate limit kept in memory that is really the whole deployment's):
    # the outbox worker then runs under that lease (``gateway/delivery/leases.py``), and a standby's rows wait
    # for the owner. None: every process delivers.
    delivery_lease: str | None = None

    def add_routes(self, app: web.Application) -> None:
        """Add HTTP routes to the gateway's server (before it starts). Default: none."""

    async def start(self) -> None:
        """Connect, log in, start loops. Must return; long-running work goes in tasks."""

    async def stop(self) -> None:
        """Disconnect cleanly. Pending outbox rows stay pending for the next start."""

    async def delivery_started(self) -> None:
        """With a ``delivery_lease``: this process has just become the one that delivers; load what the
        previous owner left in the vault (Discord: its rate-limit buckets). Default: nothing."""

    async def delivery_stopped(self) -> None:
        """With a ``delivery_lease``: this process has stopped delivering (the lease lost, or a stop);
        save what the next owner needs. Only the owner calls this, so a standby never overwrites the
        owner's state with its own. Default: nothing."""

    def status(self) -> dict[str, object]:
        """What ``gateway status`` shows of this adapter in this process (its heartbeat writes it to
        the vault as JSON): connection state it already keeps, read without I/O. Default: nothing."""
        return {}

    def can_post(self, target: str) -> bool:
        """Whether this adapter can ever deliver to ``target`` as configured (a Discord channel with no
        webhook cannot be posted to). Rows a command queues for a target that cannot be posted to are
        not queued at all, instead of dying at their first attempt. Read without I/O. Default: yes."""
        return True

    async def deliver(self, message: Outbound) -> None:
        """Deliver one outbox row or raise ``RetryLater`` / ``Throttled`` / ``TargetAbsent`` /
        ``DeliveryFailed`` / ``Settled`` (see the module docstring)."""
        raise NotImplementedError
