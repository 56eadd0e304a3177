"""The browser harness itself: Chromium starts, loads a page served over loopback, runs its script."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web
from aiohttp.test_utils import TestServer


async def test_chromium_renders_a_page_served_on_loopback(new_page: Callable[..., Awaitable[Any]]) -> None:
    async def index(request: web.Request) -> web.Response:
        html = "<!doctype html><title>t</title><p id=p>before</p><script src=/s.js></script>"
        return web.Response(text=html, content_type="text/html")

    async def script(request: web.Request) -> web.Response:
        js = "document.getElementById('p').textContent = 'after';"
        return web.Response(text=js, content_type="text/javascript")

    app = web.Application()
    app.router.add_get("/", index)
    app.router.add_get("/s.js", script)
    server = TestServer(app, host="127.0.0.1")
    await server.start_server()
    try:
        page = await new_page(phone=True)
        await page.goto(str(server.make_url("/")))
        assert await page.text_content("#p") == "after"
        assert (await page.evaluate("window.innerWidth")) == 390
    finally:
        await server.close()
