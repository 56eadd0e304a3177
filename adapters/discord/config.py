"""The ``[discord]`` settings table, validated here so the core knows nothing of Discord.

The bot token is a secret: it comes from ``[discord] bot_token`` in the operator's own config file or
from the environment (``GATEWAY_DISCORD_BOT_TOKEN``, then ``DISCORD_BOT_TOKEN``), never from the repo.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any, Literal

from pydantic import AliasChoices, BaseModel, ConfigDict, Field, SecretStr, field_validator, model_validator

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
    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    enabled: bool = True
    # "gateway": the bot connects out to Discord's websocket (no public server needed); "interactions":
    # Discord POSTs to /discord/interactions. None picks gateway when a bot token is set and no
    # public key is (see ``effective_mode``).
    mode: Literal["gateway", "interactions"] | None = None
    application_id: str | None = None
    public_key: str | None = None
    bot_token: SecretStr | None = None
    # A file holding the token (``gateway discord setup`` writes one, mode 0600; a container secret).
    bot_token_file: str | None = None
    # The REST base; the Gateway URL is read from ``GET {api_url}/gateway/bot``, so a fake moves both.
    api_base: str = Field("https://discord.com/api/v10", validation_alias=AliasChoices("api_url", "api_base"))
    webhooks: dict[str, str] = Field(default_factory=dict)
    # Gateway mode: channels the bot posts in by name (``stlog = "CHANNEL_ID"``), beside the webhooks.
    channels: dict[str, str] = Field(default_factory=dict)
    # Gateway mode: ``!roll 3`` in channels (needs the privileged Message Content intent); "" = off.
    prefix: str | None = None
    # Gateway mode: the shard count (None: Discord's recommendation from /gateway/bot) and which of
    # them this process runs (None: all). Past 2,500 guilds Discord requires more than one.
    shards: int | None = Field(None, ge=1)
    shard_ids: list[int] | None = None
    # Gateway mode: bulk-overwrite the slash commands when connected: "global", a guild id (shows at
    # once, for testing), or "off" (``gateway discord register`` does it by hand).
    sync_commands: str = "global"
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

    @field_validator("channels")
    @classmethod
    def _channels(cls, value: dict[str, str]) -> dict[str, str]:
        for name, channel in value.items():
            if not re.fullmatch(r"\d{5,25}", str(channel).strip()):
                raise ValueError(
                    f"[discord.channels] {name}: a channel id (digits), got {str(channel)[:40]!r}"
                )
        return {name: str(channel).strip() for name, channel in value.items()}

    @field_validator("sync_commands")
    @classmethod
    def _sync(cls, value: str) -> str:
        value = value.strip()
        if value not in ("global", "off") and not value.isdigit():
            raise ValueError('[discord] sync_commands: "global", "off" or a guild id')
        return value

    @model_validator(mode="after")
    def _names_once(self) -> DiscordSettings:
        both = sorted(set(self.channels) & set(self.webhooks))
        if both:
            raise ValueError(f"[discord] {', '.join(both)}: named in both webhooks and channels; keep one")
        if self.shard_ids is not None and (
            self.shards is None or any(not 0 <= i < self.shards for i in self.shard_ids)
        ):
            raise ValueError("[discord] shard_ids: each in 0 .. shards-1, and shards set")
        return self

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
        if self.bot_token_file:
            try:
                token = Path(self.bot_token_file).expanduser().read_text(encoding="utf-8").strip()
            except OSError:
                token = ""
            if token:
                return token
        for env in TOKEN_ENV:
            if os.environ.get(env):
                return os.environ[env]
        return None

    @property
    def effective_mode(self) -> str:
        """The mode in force: the setting, else gateway with a token and no public key."""
        if self.mode is not None:
            return self.mode
        return "gateway" if self.token() and not self.public_key else "interactions"

    @property
    def gateway_mode(self) -> bool:
        return self.effective_mode == "gateway"

    @property
    def configured(self) -> bool:
        return bool(self.public_key or self.webhooks or (self.gateway_mode and self.token()))


def load(section: dict[str, Any]) -> DiscordSettings:
    return DiscordSettings.model_validate(section)
