"""``[web]``: the web pages."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class WebSettings(BaseModel):
    model_config = ConfigDict(extra="forbid")

    # On by default: the public tools need nothing configured.
    enabled: bool = True
    # The address players open (sign-in links, chart links in chat): "https://dice.example.org".
    # None: the gateway's own HTTP address, which is only right when players reach it directly.
    public_url: str | None = None
    # A sign-in link from chat works once, for this many minutes.
    link_minutes: int = Field(default=10, ge=1, le=60)
    # A web session lasts this many days without use.
    session_days: int = Field(default=30, ge=1, le=365)
