"""Second Life: Player HUDs, Storyteller HUDs and region relays talking to the gateway over HTTP.

Configured by the ``[secondlife]`` table (``shared_secret`` at least); without it the adapter is off.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from adapters.secondlife.adapter import SecondLifeAdapter
from adapters.secondlife.config import SecondLifeConfig
from gateway import AdapterServices, AdapterSpec, hookimpl


def build(services: AdapterServices, section: dict[str, Any]) -> SecondLifeAdapter | None:
    if not section or section.get("enabled") is False:
        return None
    return SecondLifeAdapter(services, SecondLifeConfig.model_validate(section))


@hookimpl
def gateway_register_adapters(register: Callable[[AdapterSpec], None]) -> None:
    register(AdapterSpec(platform="secondlife", build=build))
