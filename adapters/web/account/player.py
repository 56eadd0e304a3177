"""A player's pages: my characters, a sheet (my own only), the creation editor and my rolls.

The editor's every button is the chat command (``char set``, ``trait``, ``power add``/``remove``,
``char budget``, ``char submit``) run as the signed-in identity, so the budget checks, the refusal
texts and the audit rows are chat's. Player commands act on the active character, so a form for
another of my characters first makes it active with ``char use``, as a player would in chat.
"""

from __future__ import annotations

from typing import Any

from aiohttp import web

from adapters.web.account import nightcap, notices, roll_form
from adapters.web.account.actor import Actor, text, word
from adapters.web.account.auth import Auth
from adapters.web.account.render import OFFER, ROLLER, notice, page, see_other
from adapters.web.account.signin import not_signed_in
from adapters.web.account.store import Signed
from adapters.web.account.texts import CATALOGUE
from adapters.web.locale import request_locale
from gateway import AdapterServices, Reply, SheetForms, records
from gateway.records import Character

ROLLS_SHOWN = 50


class PlayerPages:
    def __init__(self, services: AdapterServices, auth: Auth, actor: Actor) -> None:
        self.services = services
        self.auth = auth
        self.actor = actor
        from adapters.web.account.sheets import SystemSheets  # it draws with sheet_context, below

        self.sheets = SystemSheets(services, auth, actor)

    def add_routes(self, app: web.Application) -> None:
        app.router.add_get("/me", self.mine)
        app.router.add_get("/me/new", self.to_mine)  # a reload or a bookmark of the form's address
        app.router.add_post("/me/new", self.new)
        app.router.add_post("/me/c/{id:\\d+}/play", self.play)
        app.router.add_post("/me/c/{id:\\d+}/roll", self.roll)
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
        system = str(form.get("system", nightcap.SYSTEM))
        if system != nightcap.SYSTEM and forms_of(self.services, system) is not None:
            # Night Wanderers reads words after the name as a clan: the name goes as one word.
            line, run_in = f"char new {word(str(form.get('name', '')))}", system
        else:
            line, run_in = f"char new {text(str(form.get('name', '')))}", nightcap.SYSTEM
        async with self.actor.kept_active(signed) as kept:
            replies = await self.actor.run(signed, line, run_in)
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
        if character.system != nightcap.SYSTEM:
            return await self.sheets.player(request, signed, character, messages)
        return page(
            request,
            self.auth,
            "sheet.html",
            signed=signed,
            storyteller=await self.auth.is_storyteller(signed),
            **await sheet_context(self.services, character, request_locale(request)),
            editable=character.status in nightcap.EDITABLE,
            vocab=nightcap,
            messages=messages or (),
        )

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
        if character.system != nightcap.SYSTEM:
            async with self.actor.kept_active(signed):  # it makes the character active to edit it
                return await self.sheets.player_edit(request, signed, character, fields)
        line = player_line(fields)
        if line is None:
            raise web.HTTPBadRequest(text="Unknown action.\n")
        # Chat's commands edit the active character: it is made so for the edit, then put back.
        async with self.actor.kept_active(signed):
            if await records.active_character_id(self.services.vault, signed.person_id) != character.id:
                chosen = await self.actor.run(signed, f"char use {text(character.name)}")
                if any(r.error for r in chosen):
                    replies = chosen
                else:
                    replies = await self.actor.run(signed, line)
            else:
                replies = await self.actor.run(signed, line)
        return await self.sheet(request, replies)


def forms_of(services: AdapterServices, system: str) -> SheetForms | None:
    """What the web's sheet pages offer for a system other than Nightcap (its ``sheet_forms``); None
    for a system without them, or one not installed."""
    found = services.systems().get(system)
    return found.sheet_forms if found is not None else None


def statused(services: AdapterServices) -> frozenset[str]:
    """Systems whose sheets go from creation to approved; the others' status says nothing."""
    systems = services.systems()
    approved = (name for name, system in systems.items() if system.sheet_forms and system.sheet_forms.approve)
    return frozenset({nightcap.SYSTEM, *approved})


def creatable(services: AdapterServices) -> list[str]:
    """The systems a player may make a character of here: Nightcap first, then every system with
    sheet forms, in the order they were registered."""
    systems = services.systems()
    rest = [name for name, system in systems.items() if name != nightcap.SYSTEM and system.sheet_forms]
    return [nightcap.SYSTEM, *rest] if nightcap.SYSTEM in systems else rest


def shown(services: AdapterServices, character: Character) -> bool:
    """Whether the web has sheet pages for the character's rule system."""
    return character.system == nightcap.SYSTEM or forms_of(services, character.system) is not None


def player_line(form: dict[str, str]) -> str | None:
    """The chat command line a creation editor's form stands for; None for no known action."""
    action = form.get("action", "")
    value = form.get("value", "")
    if action == "field":
        return f"char set {word(form.get('field', ''))} {text(value)}"
    if action == "trait":
        return f"trait {word(form.get('trait', ''))} {word(value)}"
    if action == "power_add":
        tier, trait = word(form.get("tier", "")), word(form.get("trait", ""))
        return f"power add {text(form.get('power', ''))} {tier} {trait}"
    if action == "power_remove":
        return f"power remove {text(form.get('power', ''))}"
    if action in ("budget", "submit"):
        return f"char {action}"
    return None


async def sheet_context(services: AdapterServices, character: Character, locale: str) -> dict[str, Any]:
    """The sheet as its rule system summarises it, and the character's newest rolls."""
    async with services.vault.transaction() as session:
        summary = await services.sheet_summary(session, character, locale)
        assert character.id is not None
        rolls = await records.rolls_of(session, character.id, ROLLS_SHOWN)
        return {"character": character, "summary": summary, "rolls": rolls}


def not_found(request: web.Request, auth: Auth) -> web.Response:
    locale = request_locale(request)
    return notice(
        request, auth, 404, CATALOGUE.t(locale, "notfound.heading"), CATALOGUE.t(locale, "notfound.body")
    )
