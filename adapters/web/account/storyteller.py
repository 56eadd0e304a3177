"""A Storyteller's pages: the roster, a character's management profile with its audit history, the
live Storyteller log and Manage STs.

Every route asks the vault whether the signed-in identity is a Storyteller, on every request (and a
live log's stream again at each heartbeat), so ``st remove`` takes the pages away at once. Every
button is the ``st`` chat command run as that identity: the same handler, audit and log line.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from datetime import datetime

from aiohttp import web

from adapters.web.account import store
from adapters.web.account.actor import Actor, word
from adapters.web.account.auth import TOKEN, Auth
from adapters.web.account.live import LiveLog, Viewer, serve
from adapters.web.account.log_view import LogView, grouped
from adapters.web.account.notices import mark_waiting
from adapters.web.account.player import by, not_found, shown, statused
from adapters.web.account.render import notice, page, see_other
from adapters.web.account.roll_view import sides
from adapters.web.account.sheets import SheetPages
from adapters.web.account.signin import not_signed_in
from adapters.web.account.texts import CATALOGUE
from adapters.web.locale import request_locale
from adapters.web.people import named, seen
from adapters.web.times import time_element
from gateway import AdapterServices, Reply, UserError
from gateway.features import profiles, records
from gateway.features.characters import characters_in, find_character, owner_names
from gateway.features.records import StlogLine
from gateway.features.since import parse_since

ROSTER_SHOWN = 100
AUDIT_SHOWN = 50
LOG_SHOWN = 100
CHARACTERS_FROM = 500  # the character filter offers those in this many newest rolls and other lines
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
        view = LogView.of(request.query, self.services.settings.gateway.timezone)
        name = " ".join(request.query.get("name", "").split())[:60]
        since_text = request.query.get("since", "").strip()[:40]
        problem, since = None, None
        async with self.services.vault.transaction() as session:
            if name and view.character_id is None:
                # A profile's link names the character (and its system); a name is looked for in
                # that system, else in each system in the order they were registered.
                wanted = request.query.get("system", "")
                systems = [wanted] if wanted in self.services.systems() else list(self.services.systems())
                for system in systems:
                    found = await find_character(session, system, name)
                    if found is not None:
                        view = replace(view, character_id=found.id)
                        break
                else:
                    problem = CATALOGUE.t(locale, "log.no_character", name=name)
            if since_text:
                try:
                    since = parse_since(
                        since_text, self.services.clock(), self.services.settings.gateway.timezone, locale
                    )
                except UserError as exc:
                    problem = exc.message
            # The kind and platform are filtered in the query, so a narrow view still fills its page;
            # the platform menu offers those of the lines the other filters leave.
            rolls_only = {"rolls": True, "lines": False}.get(view.kind)
            lines, seen = [], []
            if not problem:
                lines = seen = await records.stlog_lines(
                    session,
                    character_id=view.character_id,
                    since=since,
                    limit=LOG_SHOWN,
                    rolls_only=rolls_only,
                    platform=view.platform or None,
                )
                if view.platform:
                    seen = await records.stlog_lines(
                        session,
                        character_id=view.character_id,
                        since=since,
                        limit=LOG_SHOWN,
                        rolls_only=rolls_only,
                    )
            characters = await records.stlog_characters(session, CHARACTERS_FROM)
            if view.character_id is not None and view.character_id not in {c[0] for c in characters}:
                chosen = await records.character(session, view.character_id)
                if chosen is not None and chosen.id is not None:
                    characters.append((chosen.id, chosen.name, chosen.system))
        platforms = sorted({line.channel_key.partition(":")[0] for line in seen} | {view.platform} - {""})
        known = self.services.systems()
        shown = [
            ((line, sides(line.result, known.get(str(line.result.get("system"))))), *_placed(line))
            for line in lines
            if view.admits(
                is_roll=bool(line.result.get("id")),
                channel_key=line.channel_key,
                character_id=line.character_id,
            )
        ]
        titles = {key: system.title for key, system in known.items()}
        named_twice = {n for n, count in Counter(n for _, n, _ in characters).items() if count > 1}
        return page(
            request,
            self.auth,
            "log.html",
            signed=signed,
            storyteller=True,
            groups=grouped(view, shown, locale),
            view=view,
            characters=[
                (i, f"{n} ({titles.get(s, s)})" if n in named_twice else n) for i, n, s in characters
            ],
            since=since_text,
            platforms=platforms,
            problem=problem,
            stream="/st/log/stream" + view.stream_query(),
            stamp=lambda moment: time_element(moment, view.zone, seconds=True),
        )

    async def stream(self, request: web.Request) -> web.StreamResponse:
        signed = await self._storyteller(request)
        if isinstance(signed, web.Response):
            return signed
        view = LogView.of(request.query, self.services.settings.gateway.timezone)
        viewer = Viewer(view, request_locale(request))
        return await serve(request, self.live, viewer, lambda: self._still(request, signed))

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


def _placed(line: StlogLine) -> tuple[datetime, str, str]:
    """What places a line in its group: its moment, channel and kind."""
    return line.created_at, line.channel_key, line.kind
