"""The sheet pages of the rule systems other than Nightcap: the player's sheet and editor at
``/me/c/ID`` and the Storyteller's profile at ``/st/c/ID`` hand their characters here. What the
forms offer comes from the system object (``RuleSystem.sheet_forms``: which FIELD words ``set`` and
``st set`` take, named in the system's own words, and whether players edit before approval).

The sheet is the system's ``SheetSummary`` (``RuleSystem.summary``) drawn generically, in the
language chat answers that person in for that system (Pravidla's Czech, Night Wanderers' Russian)
unless the page's language was chosen. Every form is the system's chat command (``set``, ``st set``,
``st approve``) run in a web channel of the character's system, so refusals are chat's.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from aiohttp import web

from adapters.web.account.actor import Actor, text, word
from adapters.web.account.auth import Auth
from adapters.web.account.player import forms_of, sheet_context
from adapters.web.account.render import page
from adapters.web.account.store import Signed
from adapters.web.account.texts import CATALOGUE
from adapters.web.locale import COOKIE
from gateway import AdapterServices, Identity, Reply, SheetForms, records
from gateway.i18n import LANGUAGES
from gateway.records import Character
from gateway.summary import RatedTrait, SheetSummary


class SystemSheets:
    def __init__(self, services: AdapterServices, auth: Auth, actor: Actor) -> None:
        self.services = services
        self.auth = auth
        self.actor = actor

    async def locale(self, request: web.Request, signed: Signed, system: str) -> str:
        """The page's chosen language (``?lang=``, its cookie), else the one chat answers in."""
        for choice in (request.query.get("lang"), request.cookies.get(COOKIE)):
            if choice in LANGUAGES:
                return choice
        known = self.services.systems().get(system)
        identity = Identity(signed.platform, signed.id, signed.display_name, verified=True)
        channel = self.actor.channel(signed, system)
        return await self.services.reader_locale(identity, channel, known.default_locale if known else None)

    def forms(self, character: Character) -> SheetForms:
        """The sheet forms of the character's system (the pages are only reached for such systems)."""
        forms = forms_of(self.services, character.system)
        if forms is None:
            raise web.HTTPNotFound(text="No sheet pages for this rule system.\n")
        return forms

    async def context(self, request: web.Request, signed: Signed, character: Character) -> dict[str, Any]:
        forms = self.forms(character)
        locale = await self.locale(request, signed, character.system)
        known = self.services.systems().get(character.system)
        drawn = await sheet_context(self.services, character, locale)
        return {
            **drawn,
            "groups": groups(drawn["summary"]),
            "forms": forms,
            "choices": forms.fields(locale),
            "system_title": known.title if known else character.system,
            "sheet_locale": locale,
            "sa": partial(CATALOGUE.t, locale),  # the sheet's own headings, in the sheet's language
        }

    async def player(
        self, request: web.Request, signed: Signed, character: Character, messages: list[Reply] | None = None
    ) -> web.Response:
        forms = self.forms(character)
        return page(
            request,
            self.auth,
            "system_sheet.html",
            signed=signed,
            storyteller=await self.auth.is_storyteller(signed),
            **await self.context(request, signed, character),
            editable=forms.player_set and character.status != "approved",
            messages=messages or (),
        )

    async def player_edit(
        self, request: web.Request, signed: Signed, character: Character, form: dict[str, str]
    ) -> web.Response:
        """``set FIELD VALUE`` on the character, made active first with ``char use`` as in chat."""
        if form.get("action") != "set" or not self.forms(character).player_set:
            raise web.HTTPBadRequest(text="Unknown action.\n")
        system = character.system
        if await records.active_character_id(self.services.vault, signed.person_id) != character.id:
            chosen = await self.actor.run(signed, f"char use {word(character.name)}", system)
            if any(r.error for r in chosen):
                return await self.player(request, signed, character, chosen)
        line = f"set {word(form.get('field', ''))} {text(form.get('value', ''))}"
        replies = await self.actor.run(signed, line, system)
        fresh = await records.character(self.services.vault, character.id or 0)
        return await self.player(request, signed, fresh or character, replies)

    async def profile(
        self,
        request: web.Request,
        signed: Signed,
        character: Character,
        extra: dict[str, Any],
        messages: list[Reply] | None = None,
    ) -> web.Response:
        return page(
            request,
            self.auth,
            "system_profile.html",
            signed=signed,
            storyteller=True,
            **await self.context(request, signed, character),
            **extra,
            messages=messages or (),
        )

    async def act(self, signed: Signed, character: Character, form: dict[str, str]) -> list[Reply]:
        line = storyteller_line(self.forms(character), character.name, form)
        if line is None:
            raise web.HTTPBadRequest(text="Unknown action.\n")
        return await self.actor.run(signed, line, character.system)


def groups(summary: SheetSummary) -> list[tuple[str | None, list[RatedTrait]]]:
    """The sheet's traits under their headings, in the sheet's order (Attributes before Skills)."""
    found: dict[str | None, list[RatedTrait]] = {}
    for trait in summary.traits:
        found.setdefault(trait.group, []).append(trait)
    return list(found.items())


def storyteller_line(forms: SheetForms, name: str, form: dict[str, str]) -> str | None:
    """The ``st`` command line a profile's form stands for; None for no known action. A Pravidla or
    Night Wanderers ``st set`` reads its last two words as field and value, so the value is one word."""
    who = word(name)
    action = form.get("action", "")
    if action == "set":
        value = text(form.get("value", "")) if forms.player_set else word(form.get("value", ""))
        return f"st set {who} {word(form.get('field', ''))} {value}"
    if action == "approve" and forms.approve:
        return f"st approve {who}"
    return None
