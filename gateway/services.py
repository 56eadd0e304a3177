"""What the running gateway offers adapters and handlers: settings, the vault, the router, the clock."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING

from gateway.dice import DiceSource
from gateway.events import Events
from gateway.settings import Settings
from gateway.types import InboundMessage, Reply
from gateway.vault import Vault
from gateway.vault.models import utcnow

if TYPE_CHECKING:
    from gateway.leases import Leases
    from gateway.outbox import Outbox
    from gateway.plugins import Plugins
    from gateway.router import Router


@dataclass
class Services:
    settings: Settings
    vault: Vault
    plugins: Plugins
    dice: DiceSource
    clock: Callable[[], datetime] = utcnow
    router: Router | None = None
    outbox: Outbox | None = None
    # Ownership of once-per-deployment work (IRC connections, Matrix sync loops); None: all ours.
    leases: Leases | None = None
    state: dict[str, object] = field(default_factory=dict)
    # What units of work did, after they commit (``gateway.events``); the vault's own hub.
    events: Events = field(default_factory=Events)

    async def handle(self, message: InboundMessage) -> list[Reply]:
        """Run one inbound message through the router (which wakes the outbox for what it queued)."""
        assert self.router is not None, "the router is built with the services"
        return await self.router.handle(message)
