"""``/r/ID``: the public verify page of a roll, what ``verify ID`` answers in chat (the core's own
``gateway.verify``), in the reader's language, so a player on one platform can show another table a
roll. Old 5-letter ids, a leading ``#`` and any case work as in chat; an unknown id is a 404 page."""

from __future__ import annotations

import aiohttp_jinja2
from aiohttp import web

from adapters.web.locale import request_locale
from adapters.web.tools.pages import sayer
from gateway import AdapterServices, verify

ID_MAX = 20  # ids are 1 to 16 letters; anything longer is no id


class VerifyPage:
    def __init__(self, services: AdapterServices) -> None:
        self.services = services

    async def show(self, request: web.Request) -> web.Response:
        locale = request_locale(request)
        wanted = request.match_info["roll_id"][:ID_MAX]
        context: dict[str, object] = {"tt": sayer(locale)}
        async with self.services.vault.transaction() as session:
            row = await verify.find_roll(session, wanted) if wanted.lstrip("#").isalnum() else None
            if row is not None:  # read while the unit is open
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
        return aiohttp_jinja2.render_template("verify.html", request, context)
