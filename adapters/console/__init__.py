"""The console adapter: the operator's own terminal.

``gateway console`` runs a read-eval-print loop (``repl.py``). Under ``gateway serve`` the adapter
reads commands from the terminal when stdin is one, and prints Storyteller-log lines addressed to
``console``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from adapters.console.adapter import ConsoleAdapter
from gateway.hookspecs import hookimpl
from gateway.registry import AdapterSpec
from gateway.services import Services


def build(services: Services, section: dict[str, Any]) -> ConsoleAdapter | None:
    if section.get("enabled", True) is False:
        return None
    return ConsoleAdapter(services, section)


@hookimpl
def gateway_register_adapters(register: Callable[[AdapterSpec], None]) -> None:
    register(AdapterSpec(platform="console", build=build))
