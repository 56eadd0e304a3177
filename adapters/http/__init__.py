"""The HTTP API adapter: ``POST /api/v1/command`` for scripts and web front ends, with bearer tokens."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from adapters.http.api import HttpApiAdapter
from gateway import AdapterServices, AdapterSpec, hookimpl


def build(services: AdapterServices, section: dict[str, Any]) -> HttpApiAdapter | None:
    return HttpApiAdapter(services) if services.settings.http.enabled else None


@hookimpl
def gateway_register_adapters(register: Callable[[AdapterSpec], None]) -> None:
    register(AdapterSpec(platform="http", build=build))
