"""Notices, live: every signed-in page listens on ``/me/notices/stream``, and when a sheet is
submitted, approved or returned, a Storyteller's menu badge gets the new count of sheets waiting
(``event: waiting``) and the owner's News list its new items (``event: news``), without a reload.

It hears commits the way the live log does (``live.LiveLog``): the hub's after-commit ``SheetChanged``
(another process's through LISTEN/NOTIFY on PostgreSQL), or, on a SQLite file, the log's watcher
reading new lines that are not rolls (a submission, an approval and a return each write one). Nothing
polls: with no page open nothing is read, and a notice costs one count and one read per player told.
"""

from __future__ import annotations

from typing import Any

import orjson
from aiohttp import web

from adapters.web import times
from adapters.web.account import notices, store
from adapters.web.account.auth import TOKEN, Auth
from adapters.web.account.live import LiveLog, Viewer, serve
from adapters.web.account.texts import CATALOGUE
from adapters.web.locale import request_locale
from gateway import AdapterServices
from gateway.core.events import SheetChanged


def _event(name: str, data: Any) -> bytes:
    return b"event: " + name.encode() + b"\ndata: " + orjson.dumps(data) + b"\n\n"


class NoticeFeed:
    def __init__(self, services: AdapterServices, auth: Auth, live: LiveLog) -> None:
        self.services = services
        self.auth = auth
        self.live = live
        live.on_lines.append(self.refresh)
        services.events.subscribe(SheetChanged, self.changed)

    def add_routes(self, app: web.Application) -> None:
        app.router.add_get("/me/notices/stream", self.stream)

    async def stream(self, request: web.Request) -> web.StreamResponse:
        signed = await self.auth.current(request)
        if signed is None:
            raise web.HTTPUnauthorized(text="Not signed in.\n")
        storyteller = await self.auth.is_storyteller(signed)
        viewer = Viewer(None, request_locale(request), signed.person_id, storyteller)
        return await serve(request, self.live, viewer, lambda: self._still(request, viewer))

    async def _still(self, request: web.Request, viewer: Viewer) -> bool:
        """Whether the session is still live; the Storyteller badge follows the role as it is now."""
        again = await store.signed_in(
            self.services.vault,
            request.get(TOKEN, ""),
            self.services.clock(),
            self.auth.settings.session_days,
        )
        if again is not None:
            viewer.storyteller = await self.auth.is_storyteller(again)
        return again is not None

    async def changed(self, event: SheetChanged) -> None:
        if self.live.sqlite():
            return  # the approval's or submission's log line wakes the watcher, which calls refresh
        if any(notices.kind_of(action) for action in event.actions):
            await self._tell(event.owner_id)

    async def refresh(self) -> None:
        await self._tell(None)

    async def _tell(self, owner_id: int | None) -> None:
        """The badge's count to every Storyteller listening, and the News to the owner (None: to
        every player listening, when the change's owner is not known)."""
        listening = [v for v in self.live.viewers if v.view is None]
        staff = [v for v in listening if v.storyteller]
        if staff:
            count = await notices.waiting(self.services)
            for viewer in staff:
                text = CATALOGUE.t(viewer.locale, "nav.waiting", n=count)
                viewer.put(_event("waiting", {"count": count, "text": text}))
        zone = self.services.settings.gateway.timezone
        people = {v.person_id for v in listening if owner_id is None or v.person_id == owner_id}
        for person_id in people - {None}:
            assert person_id is not None
            news = await notices.of_player(self.services, person_id)
            for viewer in listening:
                if viewer.person_id != person_id:
                    continue
                items = [
                    {
                        "kind": n.kind,
                        "text": CATALOGUE.t(viewer.locale, f"notice.web.{n.kind}", name=n.name),
                        "href": f"/me/c/{n.character_id}",
                        "at": times.machine(n.at, zone),
                        "shown": times.shown(n.at, zone),
                    }
                    for n in news
                ]
                viewer.put(_event("news", items))
