"""A Storyteller's pages: the roster, a character's management profile with its audit history, the
live Storyteller log and Manage STs.

Every route asks the vault whether the signed-in identity is a Storyteller, on every request (and a
live log's stream again at each heartbeat), so ``st remove`` takes the pages away at once. Every
button is the ``st`` chat command run as that identity: the same handler, audit and log line.
"""

from __future__ import annotations

import asyncio
import contextlib

from aiohttp import web

from adapters.web.account import store
from adapters.web.account.actor import Actor, word
from adapters.web.account.auth import TOKEN, Auth
from adapters.web.account.live import LiveLog
from adapters.web.account.notices import mark_waiting
from adapters.web.account.player import by, not_found, shown, statused
from adapters.web.account.render import notice, page, see_other
from adapters.web.account.roll_view import sides
from adapters.web.account.sheets import SheetPages
from adapters.web.account.signin import not_signed_in
from adapters.web.account.texts import CATALOGUE
from adapters.web.locale import request_locale
from adapters.web.people import named, seen
from gateway import AdapterServices, Reply, UserError
from gateway.features import profiles, records
from gateway.features.characters import characters_in, find_character, owner_names
from gateway.features.since import parse_since

ROSTER_SHOWN = 100
AUDIT_SHOWN = 50
LOG_SHOWN = 100
GATHER = 0.05  # seconds a viewer gathers lines into one write once one has arrived
HEARTBEAT = 15.0  # seconds between a live stream's keep-alives, each re-checking the role
# The roster's filters: the statuses a sheet goes through where its system approves sheets.
STATUSES = {"unlocked": ("creation", "submitted"), "approved": ("approved",), "all": None}


class StorytellerPages:
    def __init__(self, services: AdapterServices, auth: Auth, actor: Actor, live: LiveLog) -> None:
        self.services = services
        self.auth = auth
        self.actor = actor
        self.live = live
        self.sheets = SheetPages(services, auth, actor)

    def add_routes(self, app: web.Application) -> None:
        app.router.add_get("/st", self.roster)
        app.router.add_get("/st/c/{id:\\d+}", self.profile)
        app.router.add_post("/st/c/{id:\\d+}", self.act)
        app.router.add_post("/st/c/{id:\\d+}/portrait", self.remove_portrait)
        app.router.add_get("/st/log", self.log)
        app.router.add_get("/st/log/stream", self.stream)
        app.router.add_get("/st/storytellers", self.storytellers)
        app.router.add_post("/st/storytellers", self.manage)

    async def _storyteller(self, request: web.Request) -> store.Signed | web.Response:
        signed = await self.auth.current(request)
        if signed is None:
            return not_signed_in(request, self.auth)
        if not await self.auth.is_storyteller(signed):
            locale = request_locale(request)
            return notice(
                request,
                self.auth,
                403,
                CATALOGUE.t(locale, "st.only.heading"),
                CATALOGUE.t(locale, "st.only.body"),
            )
        await mark_waiting(request, self.services)
        return signed

    async def roster(self, request: web.Request) -> web.Response:
        signed = await self._storyteller(request)
        if isinstance(signed, web.Response):
            return signed
        show = request.query.get("show", "unlocked")
        show = show if show in STATUSES else "unlocked"
        query = " ".join(request.query.get("q", "").split())[:60]
        wanted = request.query.get("system", "")
        systems = [wanted] if wanted in self.services.systems() else list(self.services.systems())
        async with self.services.vault.transaction() as session:
            found = [
                character
                for system in systems
                for character in await characters_in(
                    session,
                    system,
                    statuses=None if query else STATUSES[show],
                    name_contains=query or None,
                    limit=ROSTER_SHOWN,
                )
                if shown(self.services, character)
            ]
            found = sorted(found, key=lambda c: (c.name.casefold(), c.system))[:ROSTER_SHOWN]
            owners = await owner_names(session, [c.owner_id for c in found])
        return page(
            request,
            self.auth,
            "roster.html",
            signed=signed,
            storyteller=True,
            characters=found,
            owners=owners,
            titles={name: system.title for name, system in self.services.systems().items()},
            statused=statused(self.services),
            show=show,
            query=query,
            system=wanted if wanted in self.services.systems() else "",
            shown=ROSTER_SHOWN,
        )

    async def profile(
        self,
        request: web.Request,
        messages: list[Reply] | None = None,
        errors: dict[str, str] | None = None,
        typed: dict[str, str] | None = None,
    ) -> web.Response:
        signed = await self._storyteller(request)
        if isinstance(signed, web.Response):
            return signed
        async with self.services.vault.transaction() as session:
            character = await records.character(session, int(request.match_info["id"]))
            if character is None or character.retired_at is not None or not shown(self.services, character):
                return not_found(request, self.auth)
            assert character.id is not None
            history = await records.audit_of(session, character.id, AUDIT_SHOWN)
            owner = (await owner_names(session, [character.owner_id])).get(character.owner_id, "?")
        people = await named(self.services.vault, (h.actor_key for h in history))
        extra = {"owner": owner, "history": history, "people": people}
        return await self.sheets.profile(request, signed, character, extra, messages, errors, typed)

    async def act(self, request: web.Request) -> web.Response:
        signed = await self._storyteller(request)
        if isinstance(signed, web.Response):
            return signed
        form = await self.auth.form(request)
        character = await records.character(self.services.vault, int(request.match_info["id"]))
        if character is None or character.retired_at is not None or not shown(self.services, character):
            return not_found(request, self.auth)
        messages, errors, typed = await self.sheets.act(
            signed, character, {k: str(v) for k, v in form.items()}
        )
        return await self.profile(request, messages, errors, typed)

    async def remove_portrait(self, request: web.Request) -> web.Response:
        """A Storyteller takes a portrait off a sheet (one unfit for the table); only the player sets one."""
        signed = await self._storyteller(request)
        if isinstance(signed, web.Response):
            return signed
        await self.auth.form(request)
        character = await records.character(self.services.vault, int(request.match_info["id"]))
        if character is None or character.id is None or character.retired_at is not None:
            return not_found(request, self.auth)
        await profiles.remove_portrait(self.services.vault, character.id, self.services.clock(), by(signed))
        return see_other(f"/st/c/{character.id}")

    async def log(self, request: web.Request) -> web.Response:
        signed = await self._storyteller(request)
        if isinstance(signed, web.Response):
            return signed
        locale = request_locale(request)
        name = " ".join(request.query.get("name", "").split())[:60]
        since_text = request.query.get("since", "").strip()[:40]
        problem, since, character = None, None, None
        async with self.services.vault.transaction() as session:
            if name:
                # A profile's link names the system; a typed name is looked for in each system.
                wanted = request.query.get("system", "")
                systems = [wanted] if wanted in self.services.systems() else list(self.services.systems())
                for system in systems:  # in the order they were registered
                    character = await find_character(session, system, name)
                    if character is not None:
                        break
                if character is None:
                    problem = CATALOGUE.t(locale, "log.no_character", name=name)
            if since_text:
                try:
                    since = parse_since(
                        since_text, self.services.clock(), self.services.settings.gateway.timezone, locale
                    )
                except UserError as exc:
                    problem = exc.message
            lines = (
                []
                if problem
                else await records.stlog_lines(
                    session, character_id=character.id if character else None, since=since, limit=LOG_SHOWN
                )
            )
        kind = request.query.get("kind", "")
        kind = kind if kind in ("rolls", "lines") else ""
        platform = request.query.get("platform", "")
        platforms = sorted({line.channel_key.partition(":")[0] for line in lines})
        lines = [
            line
            for line in lines
            if (not kind or (kind == "rolls") == bool(line.result.get("id")))
            and (not platform or line.channel_key.partition(":")[0] == platform)
        ]
        stream = "/st/log/stream" + (f"?character={character.id}" if character else "")
        known = self.services.systems()
        return page(
            request,
            self.auth,
            "log.html",
            signed=signed,
            storyteller=True,
            lines=[
                (line, sides(line.result, known.get(str(line.result.get("system")))))
                for line in reversed(lines)
            ],
            name=name,
            since=since_text,
            kind=kind,
            platform=platform,
            platforms=sorted({*platforms, *([platform] if platform else [])}),
            problem=problem,
            stream=stream,
        )

    async def stream(self, request: web.Request) -> web.StreamResponse:
        signed = await self._storyteller(request)
        if isinstance(signed, web.Response):
            return signed
        wanted = request.query.get("character", "")
        viewer = await self.live.watch(int(wanted) if wanted.isdigit() else None)
        response = web.StreamResponse(
            headers={"Content-Type": "text/event-stream", "Cache-Control": "no-store"}
        )
        try:
            await response.prepare(request)
            await response.write(b": live\n\n")
            while True:
                try:
                    item = await asyncio.wait_for(viewer.queue.get(), HEARTBEAT)
                except TimeoutError:
                    if await self._still(request, signed) is False:
                        break
                    await response.write(b": ping\n\n")
                    continue
                # A short window gathers what follows into one write: at 100 rolls a second a viewer
                # wakes 20 times, not 100 (it waits on its queue first, so an idle log costs nothing).
                await asyncio.sleep(GATHER)
                waiting = [item]
                while not viewer.queue.empty():
                    waiting.append(viewer.queue.get_nowait())
                await response.write(b"".join(waiting))
        except ConnectionResetError:
            return response  # the browser went away
        finally:
            self.live.leave(viewer)  # also when the server stops (the handler is cancelled)
        with contextlib.suppress(ConnectionResetError):
            await response.write_eof()  # the session ended or the role was taken away
        return response

    async def _still(self, request: web.Request, signed: store.Signed) -> bool:
        """Whether the stream's session is still live and still a Storyteller's."""
        token = request.get(TOKEN, "")
        again = await store.signed_in(
            self.services.vault, token, self.services.clock(), self.auth.settings.session_days
        )
        return again is not None and await self.auth.is_storyteller(again)

    async def storytellers(self, request: web.Request, messages: list[Reply] | None = None) -> web.Response:
        signed = await self._storyteller(request)
        if isinstance(signed, web.Response):
            return signed
        (listed,) = await self.actor.run(signed, "st list")
        result = listed.result or {}
        keys = [key for person in result.get("storytellers", ()) for key in person["identities"]]
        owner = result.get("owner")
        people = await named(self.services.vault, [*keys, *([owner] if owner else [])])
        storytellers = [
            (person["name"], [people[key] for key in person["identities"]])
            for person in result.get("storytellers", ())
        ]
        already = set(keys) | {owner}
        return page(
            request,
            self.auth,
            "storytellers.html",
            signed=signed,
            storyteller=True,
            owner=people.get(owner) if owner else None,
            storytellers=storytellers,
            candidates=[one for one in await seen(self.services.vault) if one.key not in already],
            messages=messages or (),
        )

    async def manage(self, request: web.Request) -> web.Response:
        signed = await self._storyteller(request)
        if isinstance(signed, web.Response):
            return signed
        form = await self.auth.form(request)
        verb = str(form.get("action", ""))
        if verb not in ("add", "remove"):
            raise web.HTTPBadRequest(text="Unknown action.\n")
        replies = await self.actor.run(signed, f"st {verb} {word(str(form.get('identity', '')))}")
        if not await self.auth.is_storyteller(signed):  # removed themselves
            return await self._storyteller(request)  # type: ignore[return-value]
        return await self.storytellers(request, replies)
