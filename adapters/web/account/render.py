"""Pages of the signed-in part: the account catalogue (``a(key)``), the CSRF token and who is signed
in, on top of the site's own context (``t``, ``locale``, ``languages``)."""

from __future__ import annotations

from typing import Any

import aiohttp_jinja2
from aiohttp import web

from adapters.web.account.auth import Auth
from adapters.web.account.notices import WAITING
from adapters.web.account.roll_view import sides
from adapters.web.account.texts import CATALOGUE
from adapters.web.locale import request_locale
from gateway.features.records import Character

# A character of the signed-in player's that is not the one chat rolls as: the layout offers to make
# it so (set by the player's sheet page, so every system's sheet template gets the offer).
OFFER = web.RequestKey("web_offer", Character)
# The roll form under a player's own sheet (``roll_form.RollForm``), set the same way.
ROLLER: web.RequestKey[Any] = web.RequestKey("web_roller", object)


def page(
    request: web.Request,
    auth: Auth,
    template: str,
    *,
    status: int = 200,
    storyteller: bool = False,
    **context: Any,
) -> web.Response:
    locale = request_locale(request)

    def a(key: str, /, **params: Any) -> str:
        return CATALOGUE.t(locale, key, **params)

    values = {"a": a, "csrf": auth.csrf(request), "storyteller": storyteller, "messages": (), **context}
    values.setdefault("signed", None)
    values.setdefault("offer", request.get(OFFER))
    values.setdefault("roller", request.get(ROLLER))
    values.setdefault("waiting", request.get(WAITING, 0))
    known = auth.services.systems()
    values["roll_sides"] = lambda result: sides(result, known.get(str(result.get("system"))))
    response = aiohttp_jinja2.render_template(f"account/{template}", request, values, status=status)
    response.headers["Cache-Control"] = "no-store"  # a signed-in page is nobody else's
    return response


def notice(request: web.Request, auth: Auth, status: int, heading: str, body: str) -> web.Response:
    """A page of one heading and one line: not signed in, not yours, a used link."""
    return page(request, auth, "notice.html", status=status, heading=heading, body=body)


def see_other(location: str) -> web.Response:
    """303 to ``location``: after a POST, the browser GETs the page that shows its outcome."""
    return web.Response(status=303, headers={"Location": location})
