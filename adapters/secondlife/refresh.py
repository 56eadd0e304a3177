"""Sheet refresh notices: when a Storyteller edits a character, its player's HUD is told to reload.

Reads audit rows after a cursor kept in the vault (locked while read, so two gateway processes never
both send one), woken after an ``st`` command and every ``refresh_poll`` seconds otherwise.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable

import structlog
from sqlalchemy import func
from sqlmodel import col, select

from adapters.secondlife import registry
from adapters.secondlife.common import IDENTITY_PLATFORM, Part
from adapters.secondlife.registry import PLATFORM
from gateway import Services
from gateway.vault import repo
from gateway.vault.models import Audit, Character, IdentityLink, KeyValue

log = structlog.get_logger(__name__)

CURSOR_SCOPE = "secondlife"


class Refresher(Part):
    def __init__(self, services: Services, poll: float, also: Callable[[], Awaitable[None]]) -> None:
        super().__init__(services)
        self.poll = poll
        self._also = also  # housekeeping that runs on the same beat (pruning replay marks)
        self._kick = asyncio.Event()

    def kick(self) -> None:
        """Look now (a Storyteller command ran), not at the next poll."""
        self._kick.set()

    async def watch(self) -> None:
        while True:
            try:
                await self.refresh_once()
                await self._also()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("second life refresh watcher failed")
            self._kick.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._kick.wait(), self.poll)

    async def _watch(self) -> None:
        while True:
            try:
                await self._refresh_once()
                await self._prune()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("second life refresh watcher failed")
            self._kick.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._kick.wait(), self.config.refresh_poll)

    async def refresh_once(self) -> int:
        """Queue a refresh notice to the Player HUD of every character a Storyteller just edited.

        Reads audit rows after a cursor kept in the vault (locked while read, so two gateway
        processes never both send one). Returns the number of notices queued.
        """
        queued = 0
        async with self.services.vault.transaction() as session:
            found = await session.exec(
                select(KeyValue)
                .where(col(KeyValue.scope) == CURSOR_SCOPE, col(KeyValue.key) == "audit-cursor")
                .with_for_update()
            )
            cursor = found.first()
            if cursor is None:
                # A fresh vault: start after the newest audit row. Two processes starting together
                # both get here (locking an absent row locks nothing): the upsert lets one create it.
                top = (await session.exec(select(func.max(Audit.id)))).one()
                start = {"id": int(top or 0)}
                values = {
                    "scope": CURSOR_SCOPE,
                    "key": "audit-cursor",
                    "value": start,
                    "updated_at": self._now(),
                }
                cursor, created = await repo.locked_or_created(session, KeyValue, values)
                if created:
                    return 0
            rows = list(
                (
                    await session.exec(
                        select(Audit)
                        .where(col(Audit.id) > int(cursor.value.get("id", 0)))
                        .order_by(col(Audit.id))
                        .limit(500)
                    )
                ).all()
            )
            if not rows:
                return 0
            actions: dict[int, set[str]] = {}
            for row in rows:
                if row.character_id is not None:
                    actions.setdefault(row.character_id, set())
            now = self._now()
            for character_id in actions:
                character = await session.get(Character, character_id)
                if character is None:
                    continue
                # A player's own edits answered their own HUD already; tell them about the others'.
                acts = {
                    r.action
                    for r in rows
                    if r.character_id == character_id and r.actor_id != character.owner_id
                }
                if not acts:
                    continue
                links = await session.exec(
                    select(IdentityLink).where(
                        col(IdentityLink.person_id) == character.owner_id,
                        col(IdentityLink.platform) == IDENTITY_PLATFORM,
                    )
                )
                for link in links.all():
                    route = f"player-hud/{link.key.partition(':')[2]}"
                    if await registry.get(session, route) is None:
                        continue
                    text = f"{character.name}: a Storyteller changed your sheet ({', '.join(sorted(acts))})."
                    payload = {"kind": "refresh", "text": text, "char": character.name}
                    await repo.enqueue(session, PLATFORM, route, payload, now=now)
                    queued += 1
            cursor.value = {"id": rows[-1].id}
            session.add(cursor)
        if queued and self.services.outbox is not None:
            self.services.outbox.wake()
        return queued
