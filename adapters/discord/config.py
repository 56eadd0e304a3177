"""The ``[discord]`` settings table, validated here so the core knows nothing of Discord.

The bot token is a secret: it comes from ``[discord] bot_token`` in the operator's own config file or
from the environment (``GATEWAY_DISCORD_BOT_TOKEN``, then ``DISCORD_BOT_TOKEN``), never from the repo.
"""

from __future__ import annotations

import os
import re
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, SecretStr, field_validator

WEBHOOK_URL = re.compile(r"/webhooks/(?P<id>\d+)/(?P<token>[\w-]+)/?$")
TOKEN_ENV = ("GATEWAY_DISCORD_BOT_TOKEN", "DISCORD_BOT_TOKEN")


class Webhook(BaseModel):
    """A named webhook target, from ``https://discord.com/api/webhooks/ID/TOKEN``."""

    name: str
    id: str
    token: str
    url: str

    @classmethod
    def parse(cls, name: str, url: str) -> Webhook:
        match = WEBHOOK_URL.search(url.split("?", 1)[0])
        if not match:
            raise ValueError(
                f"[discord.webhooks] {name}: expected https://discord.com/api/webhooks/ID/TOKEN,"
                f" got {url[:60]!r}"
            )
        return cls(name=name, id=match["id"], token=match["token"], url=url)


class RateCap(BaseModel):
    """A safety cap: at most ``requests`` per ``seconds``; ``requests = 0`` switches it off."""

    model_config = ConfigDict(extra="forbid")
    requests: int = Field(ge=0)
    seconds: float = Field(gt=0)


class DiscordSettings(BaseModel):
    model_config = ConfigDict(extra="forbid")

    enabled: bool = True
    application_id: str | None = None
    public_key: str | None = None
    bot_token: SecretStr | None = None
    api_base: str = "https://discord.com/api/v10"
    webhooks: dict[str, str] = Field(default_factory=dict)
    # Inbound interactions.
    timestamp_tolerance: float = Field(300.0, gt=0)
    reply_timeout: float = Field(2.5, gt=0, lt=3.0)
    followup_ttl: float = Field(900.0, gt=0)
    # Outbound delivery.
    username: str | None = "Nightcap"
    request_timeout: float = Field(10.0, gt=0)
    webhook_cap: RateCap = Field(default_factory=lambda: RateCap(requests=5, seconds=2.0))
    channel_cap: RateCap = Field(default_factory=lambda: RateCap(requests=30, seconds=60.0))
    max_inline_wait: float = Field(2.5, ge=0)
    # Ceiling of the backoff after failed posts (5xx without Retry-After, network errors): a webhook
    # that answers again is served within this many seconds, as a Second Life object is.
    retry_max_delay: float = Field(4.0, gt=0, le=300)
    reset_margin: float = Field(0.05, ge=0)

    @field_validator("public_key")
    @classmethod
    def _hex_key(cls, value: str | None) -> str | None:
        if value is None:
            return None
        value = value.strip()
        if not re.fullmatch(r"[0-9a-fA-F]{64}", value):
            raise ValueError("[discord] public_key is the application's 64-character hex public key")
        return value.lower()

    @field_validator("username")
    @classmethod
    def _username(cls, value: str | None) -> str | None:
        if value and (len(value) > 80 or any(w in value.casefold() for w in ("discord", "clyde"))):
            raise ValueError("[discord] username: at most 80 characters, without 'discord' or 'clyde'")
        return value or None

    @field_validator("api_base")
    @classmethod
    def _base(cls, value: str) -> str:
        return value.rstrip("/")

    @field_validator("webhooks")
    @classmethod
    def _webhooks(cls, value: dict[str, str]) -> dict[str, str]:
        for name, url in value.items():
            Webhook.parse(name, url)
        return value

    def webhook(self, name: str) -> Webhook | None:
        url = self.webhooks.get(name)
        return Webhook.parse(name, url) if url else None

    def token(self) -> str | None:
        if self.bot_token is not None and self.bot_token.get_secret_value():
            return self.bot_token.get_secret_value()
        for env in TOKEN_ENV:
            if os.environ.get(env):
                return os.environ[env]
        return None

    @property
    def configured(self) -> bool:
        return bool(self.public_key or self.webhooks)


def load(section: dict[str, Any]) -> DiscordSettings:
    return DiscordSettings.model_validate(section)
