"""The signed-in part of the web: sign-in links from chat (``plugin``: the ``web`` command), sessions
and CSRF (``auth``, ``store``), players' pages, Storytellers' pages and the live Storyteller log.
Every action is a chat command line run through the router as the signed-in identity (``actor``)."""

from __future__ import annotations

from aiohttp import web

from adapters.web.account.actor import Actor
from adapters.web.account.auth import Auth
from adapters.web.account.live import LiveLog
from adapters.web.account.macros import MacroPages
from adapters.web.account.notice_stream import NoticeFeed
from adapters.web.account.notices import Notices
from adapters.web.account.player import PlayerPages
from adapters.web.account.signin import SignIn
from adapters.web.account.storyteller import StorytellerPages
from adapters.web.config import WebSettings
from gateway import AdapterServices

LIVE_KEY = web.AppKey("web_live", LiveLog)
AUTH_KEY = web.AppKey("web_auth", Auth)  # who a request is, for public pages that vary by reader (/r/ID)


def install(app: web.Application, services: AdapterServices, settings: WebSettings) -> None:
    auth = app[AUTH_KEY] = Auth(services, settings)
    actor = Actor(services)
    live = app[LIVE_KEY] = LiveLog(services)
    Notices(services, settings)  # chat notices of submissions, approvals and returns, in the changing unit

    async def close_live(app: web.Application) -> None:
        await live.close()

    app.on_cleanup.append(close_live)
    SignIn(services, auth).add_routes(app)
    PlayerPages(services, auth, actor).add_routes(app)
    StorytellerPages(services, auth, actor, live).add_routes(app)
    MacroPages(services, auth, actor).add_routes(app)
    NoticeFeed(services, auth, live).add_routes(app)
