"""A player's pages: my characters, a sheet (my own only) with its editor, and my rolls.

The sheet and its editor are every system's declared sheet, drawn by ``sheets``; each change is
the field's chat command run as the signed-in identity, so the budget checks, the refusal texts and
the audit rows are chat's.
"""

from __future__ import annotations

from aiohttp import web

from adapters.web.account.actor import Actor, word
from adapters.web.account.auth import Auth
from adapters.web.account.render import notice, page
from adapters.web.account.sheets import SheetPages, spec_of
from adapters.web.account.signin import not_signed_in
from adapters.web.account.store import Signed
from adapters.web.account.texts import CATALOGUE
from adapters.web.locale import request_locale
from gateway import AdapterServices, Reply, records
from gateway.records import Character

ROLLS_SHOWN = 50


class PlayerPages:
    def __init__(self, services: AdapterServices, auth: Auth, actor: Actor) -> None:
        self.services = services
        self.auth = auth
        self.actor = actor
        self.sheets = SheetPages(services, auth, actor)

    def add_routes(self, app: web.Application) -> None:
        app.router.add_get("/me", self.mine)
        app.router.add_post("/me/new", self.new)
        app.router.add_get("/me/c/{id:\\d+}", self.sheet)
        app.router.add_post("/me/c/{id:\\d+}", self.edit)

    async def mine(self, request: web.Request, messages: list[Reply] | None = None) -> web.Response:
        signed = await self.auth.current(request)
        if signed is None:
            return not_signed_in(request, self.auth)
        async with self.services.vault.unit() as unit:
            active = await records.active_character_id(unit, signed.person_id)
            characters = [
                character
                for system in self.services.systems()
                for character in await records.characters_of(unit, signed.person_id, system)
            ]
        return page(
            request,
            self.auth,
            "mine.html",
            signed=signed,
            storyteller=await self.auth.is_storyteller(signed),
            characters=characters,
            titles={name: system.title for name, system in self.services.systems().items()},
            statused=statused(self.services),
            creatable=creatable(self.services),
            active=active,
            messages=messages or (),
        )

    async def new(self, request: web.Request) -> web.Response:
        signed = await self.auth.current(request)
        if signed is None:
            return not_signed_in(request, self.auth)
        form = await self.auth.form(request)
        offered = creatable(self.services)
        system = str(form.get("system", offered[0] if offered else ""))
        if system not in offered:
            raise web.HTTPBadRequest(text="Unknown rule system.\n")
        # The name as one word: a system may read words after it (a Night Wanderers clan).
        line = f"char new {word(str(form.get('name', '')))}"
        return await self.mine(request, await self.actor.run(signed, line, system))

    async def _mine(self, signed: Signed, character_id: int) -> Character | None:
        character = await records.character(self.services.vault, character_id)
        if character is None or character.owner_id != signed.person_id or character.retired_at is not None:
            return None  # another's sheet is not found, not forbidden: nothing of it shows
        return character if shown(self.services, character) else None

    async def sheet(self, request: web.Request, messages: list[Reply] | None = None) -> web.Response:
        signed = await self.auth.current(request)
        if signed is None:
            return not_signed_in(request, self.auth)
        character = await self._mine(signed, int(request.match_info["id"]))
        if character is None:
            return not_found(request, self.auth)
        return await self.sheets.player(request, signed, character, messages)

    async def edit(self, request: web.Request) -> web.Response:
        signed = await self.auth.current(request)
        if signed is None:
            return not_signed_in(request, self.auth)
        form = await self.auth.form(request)
        character = await self._mine(signed, int(request.match_info["id"]))
        if character is None:
            return not_found(request, self.auth)
        return await self.sheets.player_edit(request, signed, character, {k: str(v) for k, v in form.items()})


def statused(services: AdapterServices) -> frozenset[str]:
    """Systems whose sheets go from creation to approved; the others' status says nothing."""
    systems = services.systems()
    return frozenset(name for name, system in systems.items() if system.sheet and system.sheet.approved)


def creatable(services: AdapterServices) -> list[str]:
    """The systems a player may make a character of here: those with a declared sheet, the gateway's
    default system (``[gateway] default_system``) first, then in the order they were registered."""
    first = services.settings.gateway.default_system
    found = [name for name, system in services.systems().items() if system.sheet is not None]
    return sorted(found, key=lambda name: name != first)


def shown(services: AdapterServices, character: Character) -> bool:
    """Whether the web has sheet pages for the character's rule system."""
    return spec_of(services, character.system) is not None


def not_found(request: web.Request, auth: Auth) -> web.Response:
    locale = request_locale(request)
    return notice(
        request, auth, 404, CATALOGUE.t(locale, "notfound.heading"), CATALOGUE.t(locale, "notfound.body")
    )
