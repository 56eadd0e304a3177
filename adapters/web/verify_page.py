"""``/r/ID``: the public verify page of a roll, what ``verify ID`` answers in chat (the core's own
``gateway.features.verify``), in the reader's language, so a player on one platform can show another table a
roll. Old 5-letter ids, a leading ``#`` and any case work as in chat; an unknown id is a 404 page.

A secret roll is shown only to a signed-in reader who rolled it or is a Storyteller; anyone else gets
the page that says the roll exists and is secret, as ``verify`` says in chat. Such pages vary by reader,
so no cache keeps them (``Cache-Control: private, no-store``)."""

from __future__ import annotations

from dataclasses import dataclass

import aiohttp_jinja2
from aiohttp import web

from adapters.web.account import AUTH_KEY
from adapters.web.locale import request_locale
from adapters.web.tools.pages import sayer
from gateway import AdapterServices
from gateway.features import verify

ID_MAX = 20  # ids are 1 to 16 letters; anything longer is no id
PRIVATE = "private, no-store"


@dataclass(frozen=True)
class Reader:
    person_id: int | None = None
    identity_key: str | None = None
    storyteller: bool = False


class VerifyPage:
    def __init__(self, services: AdapterServices) -> None:
        self.services = services

    async def show(self, request: web.Request) -> web.Response:
        locale = request_locale(request)
        wanted = request.match_info["roll_id"][:ID_MAX]
        context: dict[str, object] = {"tt": sayer(locale)}
        reader = await self._reader(request)  # before the page's unit: units do not nest
        template, secret = "verify.html", False
        async with self.services.vault.transaction() as session:
            row = await verify.find_roll(session, wanted) if wanted.lstrip("#").isalnum() else None
            if row is not None:  # read while the unit is open
                secret = verify.is_secret(row)
                if not verify.may_see(
                    row,
                    person_id=reader.person_id,
                    identity_key=reader.identity_key,
                    storyteller=reader.storyteller,
                ):
                    template = "verify_secret.html"
                    context.update(id=row.public_id, message=verify.secret_answer(row, locale).text)
                else:
                    system = self.services.systems().get(row.system)
                    context.update(
                        id=row.public_id,
                        who=row.display_name,
                        identity=row.identity_key,
                        where=row.channel_key,
                        when=row.created_at.strftime("%Y-%m-%d %H:%M:%S UTC"),
                        system=system.title if system else row.system,
                        line=verify.verify_answer(self.services, row, locale).text,
                        detail=verify.roll_detail(self.services, row, locale),
                    )
        if row is None:
            context["message"] = verify.not_found(locale, wanted)
            return aiohttp_jinja2.render_template("verify_missing.html", request, context, status=404)
        response = aiohttp_jinja2.render_template(template, request, context)
        if secret:
            response.headers["Cache-Control"] = PRIVATE
        return response

    async def _reader(self, request: web.Request) -> Reader:
        """Who reads: the signed-in person and whether a Storyteller; nobody without a session (or
        without the account pages, which sign people in)."""
        auth = request.app.get(AUTH_KEY)
        if auth is None:
            return Reader()
        signed = await auth.current(request)
        if signed is None:
            return Reader()
        storyteller = await auth.is_storyteller(signed)
        return Reader(signed.person_id, signed.identity_key, storyteller)
