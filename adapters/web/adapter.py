"""The web adapter: Jinja2 templates (autoescaped), the static assets, the security headers every
page carries, and the page routes. Pages are answered on the request, so nothing is ever pushed
through the outbox to the web."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import aiohttp_jinja2
import jinja2
from aiohttp import web
from aiohttp.typedefs import Handler

from adapters.web import account, tools
from adapters.web.config import WebSettings
from adapters.web.errors import error_pages
from adapters.web.locale import COOKIE, request_locale
from adapters.web.people import platform_label
from adapters.web.texts import CATALOGUE
from adapters.web.times import time_element
from gateway import Adapter, AdapterServices, DeliveryFailed, Outbound
from gateway.core.i18n import LANGUAGES

HERE = Path(__file__).parent
# No inline script or style anywhere: every script and stylesheet is a file under /static/.
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",  # sign-in links carry a token: never send them on
    "X-Frame-Options": "DENY",
}
LANG_COOKIE_SECONDS = 365 * 24 * 3600


def _page_context(timezone: str) -> Callable[[web.Request], Awaitable[dict[str, Any]]]:
    async def context(request: web.Request) -> dict[str, Any]:
        return _context(request, timezone)

    return context


def _context(request: web.Request, timezone: str) -> dict[str, Any]:
    locale = request_locale(request)

    def t(key: str, **params: Any) -> str:
        return CATALOGUE.t(locale, key, **params)

    def lang_href(code: str) -> str:
        """The language switcher's link: this page's query (a form's values) kept, ``lang`` set."""
        query = [(k, v) for k, v in request.query.items() if k != "lang"] + [("lang", code)]
        return "?" + urlencode(query)

    return {
        "locale": locale,
        "t": t,
        "languages": LANGUAGES,
        "path": request.path,
        "lang_href": lang_href,
        "when": lambda moment, seconds=False: time_element(moment, timezone, seconds),
        "platform_label": platform_label,
    }


async def _secure_headers(request: web.Request, response: web.StreamResponse) -> None:
    if not response.content_type.startswith(("text/html", "text/event-stream", "image/svg")):
        return
    for name, value in HEADERS.items():
        response.headers.setdefault(name, value)


@web.middleware
async def _remember_language(request: web.Request, handler: Handler) -> web.StreamResponse:
    """``?lang=cs`` is kept in a cookie, so the next page (and the next visit) is Czech too."""
    response = await handler(request)
    chosen = request.query.get("lang")
    if chosen in LANGUAGES and request.cookies.get(COOKIE) != chosen and not response.prepared:
        response.set_cookie(COOKIE, chosen, max_age=LANG_COOKIE_SECONDS, samesite="Lax", httponly=True)
    return response


async def _favicon(request: web.Request) -> web.StreamResponse:
    raise web.HTTPMovedPermanently("/static/favicon.svg")


class WebAdapter(Adapter):
    platform = "web"

    def __init__(self, services: AdapterServices, settings: WebSettings) -> None:
        self.services = services
        self.settings = settings

    def add_routes(self, app: web.Application) -> None:
        aiohttp_jinja2.setup(
            app,
            loader=jinja2.PackageLoader("adapters.web", "templates"),
            autoescape=True,  # everything a user typed is escaped, in every template
            undefined=jinja2.StrictUndefined,  # a misspelt variable fails the page, not blanks it
            context_processors=[_page_context(self.services.settings.gateway.timezone)],
        )
        app.on_response_prepare.append(_secure_headers)
        app.middlewares.append(_remember_language)
        app.middlewares.append(error_pages)  # inside: its pages get the language cookie too
        app.router.add_static("/static/", HERE / "static", name="static")
        app.router.add_get("/favicon.ico", _favicon)  # asked for by browsers before any page names one
        app.router.add_get("/", self.home, name="home")
        tools.add_routes(app, self.services)  # the public tools and /r/ID (adapters/web/tools)
        account.install(app, self.services, self.settings)  # sign-in, players' and Storytellers' pages

    @aiohttp_jinja2.template("home.html")
    async def home(self, request: web.Request) -> dict[str, Any]:
        return {}

    async def deliver(self, message: Outbound) -> None:
        raise DeliveryFailed("the web is answered on the request; there is nowhere to push later")
