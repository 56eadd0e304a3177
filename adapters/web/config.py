"""``[web]``: the web pages."""

from __future__ import annotations

from ipaddress import ip_network

from pydantic import BaseModel, ConfigDict, Field, field_validator

from gateway.features.profiles import PORTRAIT_KIB


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
    # Reverse proxies in front of the gateway, by address ("127.0.0.1", "10.0.0.0/8"). A request
    # from one of them is keyed (sign-in rate limit) on X-Forwarded-For's right-most address that
    # is not a trusted proxy; from any other peer the header is ignored. Empty: never trusted.
    trusted_proxies: list[str] = Field(default_factory=list)
    # Notices in chat (a private message where the person last rolled): to every Storyteller when a
    # sheet is submitted; to the player when their sheet is approved or returned to creation.
    notify_submitted: bool = True
    notify_reviewed: bool = True
    # A character's portrait, uploaded on its web sheet: at most this many KiB (PNG, JPEG, WebP or
    # GIF; below the 1 MiB a web request may carry).
    portrait_kib: int = Field(default=PORTRAIT_KIB, ge=16, le=1000)

    @field_validator("trusted_proxies")
    @classmethod
    def _addresses(cls, value: list[str]) -> list[str]:
        for entry in value:
            ip_network(entry.strip(), strict=False)  # ValueError names the entry
        return value
