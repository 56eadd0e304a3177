"""The web adapter: server-rendered pages on the gateway's own aiohttp server (aiohttp-jinja2).

Public tools (the book's calculators and odds charts), the public verify page of a roll, and, after a
sign-in link from chat, players' and Storytellers' pages. Every asset is served by the gateway.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from adapters.web.config import WebSettings
from gateway import AdapterServices, AdapterSpec, hookimpl

if TYPE_CHECKING:
    from adapters.web.adapter import WebAdapter


def build(services: AdapterServices, section: dict[str, Any]) -> WebAdapter | None:
    # Imported here: the package is also the parent of the web commands' module (adapters.web.commands),
    # which every process loads, and the adapter brings aiohttp and Jinja2.
    from adapters.web.adapter import WebAdapter

    settings = WebSettings.model_validate(section)
    return WebAdapter(services, settings) if settings.enabled else None


@hookimpl
def gateway_register_adapters(register: Callable[[AdapterSpec], None]) -> None:
    register(AdapterSpec(platform="web", build=build))
