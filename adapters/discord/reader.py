"""Whose language the adapter's own words are in: the reader's, as the router picks it
(``locale_for``: the person's ``lang``, else the channel's), else the language of their Discord
client, else ``[gateway] locale``. The rule system's own default is the router's business and not
reachable through ``AdapterServices``; the client's language stands in for it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from adapters.discord import interactions as ix
from gateway import AdapterServices
from gateway.core_messages import locale_for
from gateway.vault.sender import resolve_sender


async def reader_locale(services: AdapterServices, interaction: Mapping[str, Any]) -> str:
    """The language of the person who sent ``interaction`` (or clicked), in its channel."""
    async with services.vault.unit() as unit:
        sender = await resolve_sender(unit, ix.sender(interaction), ix.channel(interaction))
        person, channel = sender.person_locale, sender.channel_locale
    fallback = ix.locale(interaction) or services.settings.gateway.locale
    return locale_for(person, channel, fallback)
