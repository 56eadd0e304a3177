"""Error pages a person can read: a 404, a 405 or a 500 in the site's own frame, in the reader's
language, with a way back. Only for a browser (a request that accepts HTML); an API client of
another adapter on the same server keeps aiohttp's plain answer."""

from __future__ import annotations

import aiohttp_jinja2
import structlog
from aiohttp import web
from aiohttp.typedefs import Handler

log = structlog.get_logger(__name__)

SHOWN = (404, 405, 500)


def _wants_html(request: web.Request) -> bool:
    return "text/html" in request.headers.get("Accept", "") and not request.path.startswith("/static/")


def error_page(request: web.Request, status: int) -> web.Response:
    response = aiohttp_jinja2.render_template("error.html", request, {"status": status}, status=status)
    response.headers["Cache-Control"] = "no-store"
    return response


@web.middleware
async def error_pages(request: web.Request, handler: Handler) -> web.StreamResponse:
    try:
        return await handler(request)
    except web.HTTPException as exc:
        if exc.status not in SHOWN or not _wants_html(request):
            raise
        response = error_page(request, exc.status)
        if exc.status == 405 and "Allow" in exc.headers:
            response.headers["Allow"] = exc.headers["Allow"]
        return response
    except Exception:
        if not _wants_html(request):
            raise
        log.exception("web page error", path=request.path)
        return error_page(request, 500)
