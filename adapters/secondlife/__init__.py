"""Second Life: Player HUDs, Storyteller HUDs and region relays talking to the gateway over HTTP.

Configured by the ``[secondlife]`` table (``shared_secret`` at least); without it the adapter is off.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from adapters.secondlife.adapter import SecondLifeAdapter
from adapters.secondlife.config import SecondLifeConfig
from adapters.secondlife.refresh import Refresher
from gateway import AdapterServices, AdapterSpec, hookimpl


def _configured(section: dict[str, Any]) -> bool:
    return bool(section) and section.get("enabled") is not False


def build(services: AdapterServices, section: dict[str, Any]) -> SecondLifeAdapter | None:
    if not _configured(section):
        return None
    return SecondLifeAdapter(services, SecondLifeConfig.model_validate(section))


def everywhere(services: AdapterServices, section: dict[str, Any]) -> None:
    """Refresh notices go with every sheet edit, in whichever process makes it."""
    if _configured(section):
        Refresher(services).subscribe()


@hookimpl
def gateway_register_adapters(register: Callable[[AdapterSpec], None]) -> None:
    register(AdapterSpec(platform="secondlife", build=build, everywhere=everywhere))
