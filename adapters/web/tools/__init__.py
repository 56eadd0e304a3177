"""The public tools (no sign-in): ``/tools/`` lists them; every rule system's own pages
(``RuleSystem.web_tools``: odds forms, Nightcap's Point budget calculator and Dice roller practice
table) and the system-free ones (``gateway_web_tools``); and ``/r/ID``,
the public verify page of a roll. Each page is a plain GET form (it works without script); a static
script re-asks the server for the results as the reader types. Nothing here writes to the vault."""

from __future__ import annotations

import aiohttp_jinja2
from aiohttp import web

from adapters.web.tools.pages import ToolPages
from adapters.web.tools_texts import TOOLS_CATALOGUE
from adapters.web.verify_page import VerifyPage
from gateway import AdapterServices


def add_routes(app: web.Application, services: AdapterServices) -> None:
    pages = ToolPages(services)
    # For the frame's own templates (the home page's links): ``tools_text(locale, key)``.
    aiohttp_jinja2.get_env(app).globals["tools_text"] = TOOLS_CATALOGUE.t
    app.router.add_get("/tools", pages.redirect_index)
    app.router.add_get("/tools/", pages.index, name="tools")
    app.router.add_get("/tools/{slug}", pages.tool, name="tools.tool")
    app.router.add_get("/r/{roll_id}", VerifyPage(services).show, name="verify")
