"""A player's pages: my characters, a sheet (my own only) with its editor, and my rolls.

The sheet and its editor are every system's declared sheet, drawn by ``sheets``; each change is
the field's chat command run as the signed-in identity, so the budget checks, the refusal texts and
the audit rows are chat's.
"""

from __future__ import annotations

from aiohttp import web

from adapters.web.account import notices, portraits, roll_form
from adapters.web.account.actor import Actor, word
from adapters.web.account.auth import Auth
from adapters.web.account.render import OFFER, ROLLER, notice, page, see_other
from adapters.web.account.sheets import SheetPages, spec_of
from adapters.web.account.signin import not_signed_in
from adapters.web.account.store import Signed
from adapters.web.account.texts import CATALOGUE
from adapters.web.locale import request_locale
from gateway import AdapterServices, Reply
from gateway.features import profiles, records
from gateway.features.records import Character

ROLLS_SHOWN = 50


class PlayerPages:
    def __init__(self, services: AdapterServices, auth: Auth, actor: Actor) -> None:
        self.services = services
        self.auth = auth
        self.actor = actor
        self.sheets = SheetPages(services, auth, actor)
        self.portraits = portraits.PortraitFiles(services, auth)

    def add_routes(self, app: web.Application) -> None:
        app.router.add_get("/me", self.mine)
        app.router.add_get("/me/new", self.to_mine)  # a reload or a bookmark of the form's address
        app.router.add_post("/me/new", self.new)
        app.router.add_post("/me/c/{id:\\d+}/play", self.play)
        app.router.add_post("/me/c/{id:\\d+}/roll", self.roll)
        app.router.add_get("/me/c/{id:\\d+}", self.sheet)
        app.router.add_post("/me/c/{id:\\d+}", self.edit)
        app.router.add_post("/me/c/{id:\\d+}/portrait", self.portrait)
        self.portraits.add_routes(app)

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
        storyteller = await self.auth.is_storyteller(signed)
        if storyteller:
            await notices.mark_waiting(request, self.services)
        return page(
            request,
            self.auth,
            "mine.html",
            signed=signed,
            storyteller=storyteller,
            notices=await notices.of_player(self.services, signed.person_id),
            characters=characters,
            titles={name: system.title for name, system in self.services.systems().items()},
            statused=statused(self.services),
            creatable=creatable(self.services),
            active=active,
            messages=messages or (),
        )

    async def to_mine(self, request: web.Request) -> web.Response:
        return see_other("/me")

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
        async with self.actor.kept_active(signed) as kept:
            replies = await self.actor.run(signed, line, system)
        if kept.made is None:
            return await self.mine(request, replies)  # refused: the reason, beside the form
        # Its page, by GET: a reload shows the sheet again instead of creating another.
        return see_other(f"/me/c/{kept.made}?made=1")

    async def play(self, request: web.Request) -> web.Response:
        """The one way the web changes the active chat character: the player asks for it."""
        signed = await self.auth.current(request)
        if signed is None:
            return not_signed_in(request, self.auth)
        await self.auth.form(request)
        character = await self._mine(signed, int(request.match_info["id"]))
        if character is None:
            return not_found(request, self.auth)
        replies = await self.actor.run(signed, f"char use {word(character.name)}", character.system)
        if any(r.error for r in replies):
            return await self.sheet(request, replies)
        return see_other(f"/me/c/{character.id}?playing=1")

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
        messages = [*(messages or ()), *await self._chat_notes(request, signed, character)]
        if await self.auth.is_storyteller(signed):  # the menu's badge, as on every other page
            await notices.mark_waiting(request, self.services)
        return await self.sheets.player(request, signed, character, messages)

    async def _chat_notes(self, request: web.Request, signed: Signed, character: Character) -> list[Reply]:
        """Whether the character is the one chat rolls as, said on its page, and the offer to make it
        so (the layout draws the button from ``OFFER``)."""
        locale = request_locale(request)
        active = await records.active_character_id(self.services.vault, signed.person_id)
        notes = []
        if request.query.get("made") == "1":
            notes.append(Reply(text=CATALOGUE.t(locale, "mine.made", name=character.name)))
        if active == character.id:
            if request.query.get("playing") == "1":
                notes.append(Reply(text=CATALOGUE.t(locale, "mine.playing", name=character.name)))
        else:
            request[OFFER] = character
        if character.status == "approved" or character.system not in statused(self.services):
            params = roll_form.roll_params(self.services, character.system)
            request[ROLLER] = roll_form.RollForm(
                f"/me/c/{character.id}/roll",
                roll_form.fields(params, locale),
                await roll_form.channels_played(self.services, signed, character.system, locale),
            )
        return notes

    async def roll(self, request: web.Request) -> web.Response:
        """A roll from the sheet: as the player, in a channel where they play, as that character."""
        signed = await self.auth.current(request)
        if signed is None:
            return not_signed_in(request, self.auth)
        form = {k: str(v) for k, v in (await self.auth.form(request)).items()}
        character = await self._mine(signed, int(request.match_info["id"]))
        if character is None:
            return not_found(request, self.auth)
        locale = request_locale(request)
        channel = form.get("channel", roll_form.WEB_ONLY)
        played = dict(await roll_form.channels_played(self.services, signed, character.system, locale))
        if channel != roll_form.WEB_ONLY and channel not in played:
            raise web.HTTPBadRequest(text="Not a channel you play in.\n")
        line = roll_form.line(roll_form.roll_params(self.services, character.system), form)
        web_channel = self.actor.channel(signed, character.system)
        async with self.actor.kept_active(signed):  # the roll is the sheet's character's
            chosen = await self.actor.run(signed, f"char use {word(character.name)}", character.system)
            if any(r.error for r in chosen):
                replies = chosen
            else:
                replies = await roll_form.roll(self.services, signed, channel, line, web_channel)
        return await self.sheet(request, replies)

    async def edit(self, request: web.Request) -> web.Response:
        signed = await self.auth.current(request)
        if signed is None:
            return not_signed_in(request, self.auth)
        form = await self.auth.form(request)
        character = await self._mine(signed, int(request.match_info["id"]))
        if character is None:
            return not_found(request, self.auth)
        fields = {k: str(v) for k, v in form.items()}
        async with self.actor.kept_active(signed):  # chat's commands edit the active character: put back
            return await self.sheets.player_edit(request, signed, character, fields)

    async def portrait(self, request: web.Request) -> web.Response:
        """The sheet's portrait form (multipart): a picture kept, or removed; a refusal beside it."""
        signed = await self.auth.current(request)
        if signed is None:
            return not_signed_in(request, self.auth)
        try:
            form = await self.auth.form(request)
        except web.HTTPRequestEntityTooLarge:  # past what any request may carry: unread, nothing kept
            form = None
        character = await self._mine(signed, int(request.match_info["id"]))
        if character is None or character.id is None:
            return not_found(request, self.auth)
        limit = self.auth.settings.portrait_kib
        if form is None:
            found: portraits.Picture | portraits.Refusal = portraits.Refusal(
                413, "sheets.portrait.too_large", {"max": limit}
            )
        elif form.get("action") == "remove":
            await profiles.remove_portrait(
                self.services.vault, character.id, self.services.clock(), by(signed)
            )
            return see_other(f"/me/c/{character.id}")
        else:
            found = portraits.checked(form.get("portrait"), limit)
        if isinstance(found, portraits.Refusal):
            locale = await self.sheets.locale(request, signed, character.system)
            return await self.sheets.player(
                request,
                signed,
                character,
                status=found.status,
                portrait_error=CATALOGUE.t(locale, found.key, **found.values),
            )
        await profiles.set_portrait(
            self.services.vault,
            character.id,
            found.data,
            found.content_type,
            self.services.clock(),
            by(signed),
        )
        return see_other(f"/me/c/{character.id}")


def by(signed: Signed) -> profiles.By:
    return profiles.By(signed.person_id, signed.identity_key)


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
