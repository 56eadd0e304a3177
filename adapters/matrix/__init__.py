"""The Matrix adapter: bot accounts on any homeserver (mautrix client API, no appservice needed).

Each ``[matrix.<name>]`` table is an account. Commands typed in joined rooms (``!roll 3``) run through
the router; replies and Storyteller-log lines leave through the outbox as ``m.notice`` events with HTML.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from adapters.matrix.adapter import MatrixAdapter
from adapters.matrix.settings import MatrixSettings
from gateway import AdapterServices, AdapterSpec, hookimpl


def build(services: AdapterServices, section: dict[str, Any]) -> MatrixAdapter | None:
    settings = MatrixSettings.from_section(section)
    if not settings.enabled or not settings.accounts:
        return None
    return MatrixAdapter(services, settings)


@hookimpl
def gateway_register_adapters(register: Callable[[AdapterSpec], None]) -> None:
    register(AdapterSpec(platform="matrix", build=build))
