"""Whose language the adapter's own words are in: the reader's, as the router picks it (the person's
``lang``, else the channel's), else the language of their Discord client, else the channel's rule
system's, else ``[gateway] locale`` (``AdapterServices.reader_locale``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from adapters.discord import interactions as ix
from gateway import AdapterServices


async def reader_locale(services: AdapterServices, interaction: Mapping[str, Any]) -> str:
    """The language of the person who sent ``interaction`` (or clicked), in its channel."""
    return await services.reader_locale(
        ix.sender(interaction), ix.channel(interaction), ix.locale(interaction)
    )
