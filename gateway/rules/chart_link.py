"""The end of an ``odds`` reply in chat: a link to the same odds as a chart on the web pages
(``/tools/...``), when ``[web] public_url`` is set and the web pages are on. Every rule system's
``odds`` ends its text with this one helper."""

from __future__ import annotations

from collections.abc import Mapping
from urllib.parse import urlencode

from gateway.core.i18n import Catalogue
from gateway.core.settings import Settings

WORDS = Catalogue(
    {"en": {"chart": " Chart: {url}"}, "cs": {"chart": " Graf: {url}"}, "ru": {"chart": " График: {url}"}}
)


def chart_url(
    settings: Settings, tool: str, house: Mapping[str, str] | None = None, **fields: int | bool | None
) -> str | None:
    """``https://dice.example.org/tools/TOOL?pool=5&dc=3`` (fields left None are left out; True is
    1; ``house`` adds the channel's switches, ``gateway.core.web_tool.house_query``), or None without a
    public address or with the web pages off."""
    web = settings.section("web")
    base = web.get("public_url")
    if not base or web.get("enabled", True) is False:
        return None
    values: dict[str, str | int] = {k: int(v) for k, v in fields.items() if v is not None}
    values.update(house or {})
    query = urlencode(values)
    return f"{str(base).rstrip('/')}/tools/{tool}" + (f"?{query}" if query else "")


def chart_link(
    settings: Settings,
    locale: str,
    tool: str,
    house: Mapping[str, str] | None = None,
    **fields: int | bool | None,
) -> str:
    """`` Chart: URL`` in ``locale`` to append to an odds line, or "" (see ``chart_url``)."""
    url = chart_url(settings, tool, house, **fields)
    return WORDS.t(locale, "chart", url=url) if url else ""
