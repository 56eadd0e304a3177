"""What the Second Life modules share: the identity platform, the clock, the settings they all read."""

from __future__ import annotations

from datetime import UTC, datetime

from gateway import AdapterServices

IDENTITY_PLATFORM = "sl"


def aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


class Part:
    """A piece of the adapter: the services, and the few settings every piece reads."""

    def __init__(self, services: AdapterServices) -> None:
        self.services = services

    @property
    def _owner(self) -> str | None:
        return self.services.settings.vault.owner

    @property
    def _system(self) -> str:
        return str(self.services.settings.gateway.default_system)

    def _now(self) -> datetime:
        return aware(self.services.clock())
