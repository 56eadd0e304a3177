"""The IRC adapter: several networks at once, IRCv3 identity, paced output. See ``adapter.py``.

Built on a small client of our own on asyncio streams (``client.py``); the README's IRC section says
why no library was used.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from adapters.irc.adapter import IrcAdapter
from adapters.irc.config import parse_section
from gateway import AdapterServices, AdapterSpec, hookimpl


def build(services: AdapterServices, section: dict[str, Any]) -> IrcAdapter | None:
    networks = [n for n in parse_section(section) if n.enabled]
    if not networks:
        return None
    return IrcAdapter(services, networks)


@hookimpl
def gateway_register_adapters(register: Callable[[AdapterSpec], None]) -> None:
    register(AdapterSpec(platform="irc", build=build))
