"""Signing in with a link from chat, the sessions page, signing out.

``GET /login/TOKEN`` only shows a button (chat platforms open links to preview them, which must not
spend a one-time link); the button's POST redeems the link and starts the session. Both are rate
limited per client address with a bucket every gateway process shares.
"""

from __future__ import annotations

from aiohttp import web

from adapters.web.account import store
from adapters.web.account.auth import Auth
from adapters.web.account.render import notice, page, see_other
from adapters.web.account.texts import CATALOGUE
from adapters.web.agents import device
from adapters.web.client_address import client_address, networks
from adapters.web.locale import request_locale
from adapters.web.people import named
from gateway import AdapterServices
from gateway.delivery.rate_buckets import SharedBuckets

ATTEMPTS_BURST = 20  # sign-in attempts one address may make at once
ATTEMPTS_RATE = 0.1  # then one every ten seconds


class SignIn:
    def __init__(self, services: AdapterServices, auth: Auth) -> None:
        self.services = services
        self.auth = auth
        self.proxies = networks(auth.settings.trusted_proxies)
        self.buckets = SharedBuckets(services.vault, ATTEMPTS_BURST, ATTEMPTS_RATE, prefix="web-login:")

    def add_routes(self, app: web.Application) -> None:
        app.router.add_get("/login/{token}", self.show)
        app.router.add_post("/login/{token}", self.redeem)
        app.router.add_post("/logout", self.logout)
        app.router.add_get("/me/sessions", self.sessions)
        app.router.add_post("/me/sessions/{id:\\d+}/revoke", self.revoke)

    def _t(self, request: web.Request, key: str, **params: object) -> str:
        return CATALOGUE.t(request_locale(request), key, **params)

    async def _limited(self, request: web.Request) -> web.Response | None:
        forwarded = request.headers.getall("X-Forwarded-For", [])
        wait = await self.buckets.take(client_address(request.remote, forwarded, self.proxies))
        if wait is None:
            return None
        return notice(
            request,
            self.auth,
            429,
            self._t(request, "login.slow.heading"),
            self._t(request, "login.slow.body", seconds=max(1, round(wait))),
        )

    def _dead(self, request: web.Request) -> web.Response:
        return notice(
            request,
            self.auth,
            410,
            self._t(request, "login.dead.heading"),
            self._t(request, "login.dead.body"),
        )

    async def show(self, request: web.Request) -> web.Response:
        limited = await self._limited(request)
        if limited is not None:
            return limited
        token = request.match_info["token"]
        if not await store.link_is_live(self.services.vault, token, self.services.clock()):
            return self._dead(request)
        return page(request, self.auth, "login.html")

    async def redeem(self, request: web.Request) -> web.StreamResponse:
        if not self.auth.same_origin(request):
            raise web.HTTPForbidden(text="Cross-site request refused.\n")
        limited = await self._limited(request)
        if limited is not None:
            return limited
        now = self.services.clock()
        identity_key = await store.redeem(self.services.vault, request.match_info["token"], now)
        if identity_key is None:
            return self._dead(request)
        token = await store.open_session(
            self.services.vault, identity_key, request.headers.get("User-Agent", ""), now
        )
        response = see_other("/me")
        self.auth.set_cookie(response, token)
        return response

    async def logout(self, request: web.Request) -> web.StreamResponse:
        signed = await self.auth.current(request)
        if signed is None:
            return see_other("/")
        await self.auth.form(request)
        await store.end_one(self.services.vault, signed.session_id)
        response = see_other("/")
        self.auth.clear_cookie(response)
        return response

    async def sessions(self, request: web.Request) -> web.Response:
        signed = await self.auth.current(request)
        if signed is None:
            return not_signed_in(request, self.auth)
        rows = await store.sessions_of(self.services.vault, signed.person_id)
        storyteller = await self.auth.is_storyteller(signed)
        people = await named(self.services.vault, (row.identity_key for row in rows))
        locale = request_locale(request)

        def shown(agent: str) -> str:
            browser, system = device(agent)
            if browser and system:
                return CATALOGUE.t(locale, "sessions.device", browser=browser, system=system)
            return browser or system or CATALOGUE.t(locale, "sessions.unknown_device")

        return page(
            request,
            self.auth,
            "sessions.html",
            signed=signed,
            storyteller=storyteller,
            sessions=rows,
            people=people,
            device=shown,
        )

    async def revoke(self, request: web.Request) -> web.StreamResponse:
        signed = await self.auth.current(request)
        if signed is None:
            return not_signed_in(request, self.auth)
        await self.auth.form(request)
        session_id = int(request.match_info["id"])
        await store.revoke(self.services.vault, signed.person_id, session_id)
        response = see_other("/" if session_id == signed.session_id else "/me/sessions")
        if session_id == signed.session_id:
            self.auth.clear_cookie(response)
        return response


def not_signed_in(request: web.Request, auth: Auth) -> web.Response:
    locale = request_locale(request)
    return notice(
        request, auth, 401, CATALOGUE.t(locale, "signin.heading"), CATALOGUE.t(locale, "signin.body")
    )
