"""Who a request is, on the server, for every route: the session cookie, the Storyteller check, CSRF.

The cookie holds a random token (HttpOnly, SameSite=Lax, Secure when ``public_url`` is https); the
vault holds its hash (``store``). Every POST carries ``csrf``, an HMAC of the session's token,
compared in constant time; without it the request is refused before anything is read or run.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from aiohttp import web
from multidict import MultiDictProxy

from adapters.web.account import store
from adapters.web.account.tokens import csrf_for, csrf_ok
from adapters.web.config import WebSettings
from gateway import AdapterServices
from gateway.features import roles

COOKIE = "gw_session"
SIGNED = web.RequestKey("web_signed", store.Signed)
TOKEN = web.RequestKey("web_token", str)


class NotSignedIn(web.HTTPException):
    status_code = 401


class Auth:
    def __init__(self, services: AdapterServices, settings: WebSettings) -> None:
        self.services = services
        self.settings = settings
        self.secure = (settings.public_url or "").startswith("https://")

    def set_cookie(self, response: web.StreamResponse, token: str) -> None:
        response.set_cookie(
            COOKIE,
            token,
            max_age=int(timedelta(days=self.settings.session_days).total_seconds()),
            httponly=True,
            samesite="Lax",
            secure=self.secure,
            path="/",
        )

    def clear_cookie(self, response: web.StreamResponse) -> None:
        response.del_cookie(COOKIE, path="/")

    async def current(self, request: web.Request) -> store.Signed | None:
        """The request's live session, or None (read once per request)."""
        if SIGNED in request:
            return request[SIGNED]
        token = request.cookies.get(COOKIE)
        if not token:
            return None
        signed = await store.signed_in(
            self.services.vault, token, self.services.clock(), self.settings.session_days
        )
        if signed is not None:
            request[SIGNED] = signed
            request[TOKEN] = token
        return signed

    async def is_storyteller(self, signed: store.Signed) -> bool:
        """Asked again on every request: a Storyteller removed with ``st remove`` loses the pages at once."""
        async with self.services.vault.unit() as unit:
            return await roles.is_storyteller(unit, signed.identity_key, self.services.settings.vault.owner)

    def csrf(self, request: web.Request) -> str:
        return csrf_for(request[TOKEN]) if TOKEN in request else ""

    async def form(self, request: web.Request) -> MultiDictProxy[Any]:
        """A POST's form, once its CSRF token and origin are checked; else 403, nothing done."""
        if not self.same_origin(request):
            raise web.HTTPForbidden(text="Cross-site request refused.\n")
        data = await request.post()
        if TOKEN not in request or not csrf_ok(request[TOKEN], _text(data.get("csrf"))):
            raise web.HTTPForbidden(text="Missing or wrong CSRF token: reload the page and try again.\n")
        return data

    @staticmethod
    def same_origin(request: web.Request) -> bool:
        """A browser names the page a POST comes from; another site's page is refused."""
        origin = request.headers.get("Origin")
        if origin is None or origin == "null":
            return origin is None
        return origin.split("://", 1)[-1] == request.host


def _text(value: object) -> str | None:
    return value if isinstance(value, str) else None
