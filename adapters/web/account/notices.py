"""Notices: a Storyteller is told of a sheet submitted, a player of their sheet approved or returned
to creation. In chat: in the unit that made the change (``SheetChanged``, before its commit, so a
notice exists exactly when the change does), a private message through the outbox to the channel
where the person last rolled, on a platform other than the web; nothing polls. On the web: the
player's page lists the last fortnight's approvals and returns of their characters, and the
Storyteller's menu counts the sheets waiting (both read with the page)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from aiohttp import web

from adapters.web.account.texts import CATALOGUE
from adapters.web.config import WebSettings
from gateway import AdapterServices, Reply
from gateway.core.events import SheetChanged
from gateway.core.payloads import reply_payload
from gateway.delivery.queue import Unit, enqueue
from gateway.features import records

WAITING = web.RequestKey("web_waiting", int)  # sheets waiting, for the menu's badge
SHOWN_DAYS = 14
SHOWN = 10


def kind_of(action: str) -> str | None:
    """``submitted``, ``approved`` or ``returned`` for the audit actions that tell of one."""
    verb = action.rpartition(".")[2]
    return {"submit": "submitted", "approve": "approved", "unapprove": "returned"}.get(verb)


class Notices:
    def __init__(self, services: AdapterServices, settings: WebSettings) -> None:
        self.services = services
        self.wanted = {"submitted"} if settings.notify_submitted else set()
        if settings.notify_reviewed:
            self.wanted |= {"approved", "returned"}
        if self.wanted:
            services.events.subscribe_in_unit(SheetChanged, self.changed)

    async def changed(self, unit: Unit, event: SheetChanged) -> None:
        kinds = {kind for kind in map(kind_of, event.actions) if kind in self.wanted}
        if not kinds:
            return
        character = await records.character(unit, event.character_id)
        if character is None:
            return
        for kind in sorted(kinds):
            if kind == "submitted":
                people = [p for p in await records.storyteller_ids(unit) if p != event.actor_id]
            else:
                people = [event.owner_id] if event.owner_id not in (None, event.actor_id) else []
            for person_id in people:
                assert person_id is not None
                await self._tell(unit, person_id, kind, character.name)

    async def _tell(self, unit: Unit, person_id: int, kind: str, name: str) -> None:
        """A private message where the person last rolled (not on the web); none if they never did."""
        last = await records.last_rolled_in(unit, person_id)
        if last is None:
            return
        channel_key, identity_key, display_name, locale = last
        locale = locale if locale in CATALOGUE.locales else "en"
        text = CATALOGUE.t(locale, f"notice.chat.{kind}", name=name)
        platform, _, target = channel_key.partition(":")
        payload = reply_payload(
            Reply(text=text, private=True, result={"kind": "notice", "notice": kind, "character": name}),
            recipient=identity_key.partition(":")[2],
            recipient_name=display_name,
        )
        await enqueue(unit, platform, target, payload, now=self.services.clock())


@dataclass(frozen=True)
class Notice:
    kind: str
    character_id: int
    name: str
    at: datetime


async def of_player(services: AdapterServices, person_id: int) -> list[Notice]:
    """The player's characters approved or returned in the last fortnight, newest first."""
    since = services.clock() - timedelta(days=SHOWN_DAYS)
    rows = await records.reviews_of(services.vault, person_id, since, SHOWN)
    return [
        Notice(kind, character_id, name, at)
        for action, character_id, name, at in rows
        if (kind := kind_of(action)) is not None
    ]


async def waiting(services: AdapterServices) -> int:
    """Sheets submitted and not yet approved or returned: the Storyteller's badge."""
    return await records.submitted_count(services.vault)


async def mark_waiting(request: web.Request, services: AdapterServices) -> None:
    """The badge's count for this request's menu (a Storyteller's page)."""
    request[WAITING] = await waiting(services)
