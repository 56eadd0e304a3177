"""Storyteller-log entries queued straight into the vault, as a busy log channel gets them."""

from __future__ import annotations

from typing import Any

from gateway.core.app import Gateway
from gateway.vault import repo


async def queue_log(
    gateway: Gateway, texts: list[str], result: dict[str, Any] | None = None, *, where: str = "irc:test/#game"
) -> None:
    """One ``st_edit`` entry per text, for every ``[stlog] targets`` entry, in one transaction; the
    outbox is woken."""
    settings = gateway.services.settings
    async with gateway.services.vault.transaction() as session:
        for text in texts:
            await repo.write_stlog(
                session,
                targets=settings.stlog.targets,
                person_id=None,
                character_id=None,
                channel_key=where,
                kind="st_edit",
                text=text,
                result=result or {},
                now=gateway.services.clock(),
                who="test",
                where=where,
            )
    gateway.outbox.wake()
