"""The language of a page: ``?lang=`` (remembered in a cookie), the ``lang`` cookie, then the
browser's Accept-Language; English when none of them names a language the gateway ships."""

from __future__ import annotations

from aiohttp import web

from gateway.core.i18n import LANGUAGES

COOKIE = "lang"


def _accepted(header: str) -> list[str]:
    ranked: list[tuple[float, int, str]] = []
    for position, part in enumerate(header.split(",")):
        tag, _, params = part.strip().partition(";")
        quality = 1.0
        if params.strip().startswith("q="):
            try:
                quality = float(params.strip()[2:])
            except ValueError:
                quality = 0.0
        if tag:
            ranked.append((-quality, position, tag.split("-")[0].lower()))
    return [tag for _, _, tag in sorted(ranked) if tag]


def request_locale(request: web.Request) -> str:
    for choice in (request.query.get("lang"), request.cookies.get(COOKIE)):
        if choice in LANGUAGES:
            return choice
    for tag in _accepted(request.headers.get("Accept-Language", "")):
        if tag in LANGUAGES:
            return tag
    return "en"
