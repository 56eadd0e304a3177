"""Channel settings an adapter may set outside a command: the rule system a channel plays (``gateway
console --system``). In chat the ``system`` command does it, with the Storyteller check and an audit."""

from __future__ import annotations

from gateway.core.types import Channel
from gateway.vault import repo
from gateway.vault.models import ChannelRow
from gateway.vault.repo import Db, within


async def set_system(db: Db, channel: Channel, system: str) -> None:
    """The channel plays ``system`` from now on (the channel is created on first sight)."""
    async with within(db) as unit:
        row = await repo.resolve_channel(unit.session, channel)
        row.system = system
        unit.session.add(row)


async def system_of(db: Db, channel: Channel) -> str | None:
    """The rule system the channel has chosen; None when it has chosen none (the default applies)."""
    async with within(db) as unit:
        row = await unit.session.get(ChannelRow, channel.key)
        return None if row is None else row.system
