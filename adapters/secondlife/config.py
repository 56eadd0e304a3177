"""The ``[secondlife]`` settings table, validated here so the core knows nothing about Second Life."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, SecretStr, field_validator

# What a simulator's HTTP-in accepts and an LSL caller reads by default (protocols.md §1.1, §1.2).
SL_BODY_LIMIT = 2048
SL_BODY_LIMIT_RAISED = 16384
# llOwnerSay / llSay / llRegionSayTo: design for at most 1023 UTF-8 bytes per line (protocols.md §1.3).
CHAT_LINE_BYTES = 1023


class SecondLifeConfig(BaseModel):
    """``[secondlife]``. Only ``shared_secret`` is required; every other key has a default."""

    model_config = ConfigDict(extra="forbid")

    enabled: bool = True
    # The llHMAC key every HUD and relay holds in its no-modify config script.
    shared_secret: SecretStr
    # X-SecondLife-Shard values accepted; "Production" is the main grid, "Testing" the beta grid.
    shards: list[str] = Field(default_factory=lambda: ["Production"])
    # A signed request is accepted this many seconds either side of the gateway clock.
    timestamp_window: int = Field(120, ge=5, le=3600)
    # Per-object token bucket: a burst, refilled at a rate (SL's own throttle is ~25 per 20 s).
    rate_burst: int = Field(25, ge=1)
    rate_per_second: float = Field(1.25, gt=0)
    # Largest request body accepted (a command line is at most 2000 characters).
    max_request_bytes: int = Field(8192, ge=256, le=65536)
    # Pushes to HTTP-in URLs: timeout (the simulator gives a script ~25 s to answer), parallel pushes.
    push_timeout: float = Field(25.0, gt=0)
    push_concurrency: int = Field(16, ge=1, le=64)
    # Ceiling of the backoff after failed pushes (timeouts, refused connections, 5xx without
    # Retry-After): a HUD that answers again is served within this many seconds. A push costs the
    # gateway little and a lagging region comes back within seconds, so the ceiling is low.
    retry_max_delay: float = Field(4.0, gt=0, le=300)
    # Largest push body; a simulator truncates HTTP-in bodies at 2048 bytes.
    push_max_bytes: int = Field(2047, ge=512, le=SL_BODY_LIMIT)
    # Largest push body for relays, which re-say it with llRegionSay (1023 bytes with the envelope).
    relay_max_bytes: int = Field(900, ge=256, le=960)
    # A row whose object's URL is dead is looked at again after this many seconds (a new
    # registration wakes it at once).
    dead_retry: float = Field(600.0, gt=0)
    # Registrations dead (or rows unroutable) for longer than this are forgotten and their rows fail.
    forget_after_hours: float = Field(48.0, gt=0)
    # Ignored: refresh notices are queued with the Storyteller's edit itself (``refresh``), not found
    # by polling. Still accepted so that older config files load.
    refresh_poll: float = Field(2.0, gt=0)

    @field_validator("shared_secret")
    @classmethod
    def _secret_usable(cls, value: SecretStr) -> SecretStr:
        secret = value.get_secret_value()
        if len(secret) < 16:
            raise ValueError("shared_secret must be at least 16 characters long")
        if "\x00" in secret:
            raise ValueError("shared_secret cannot contain NUL (llHMAC cannot take it)")
        return value

    @field_validator("shards")
    @classmethod
    def _shards(cls, value: list[str]) -> list[str]:
        if not value:
            raise ValueError("shards needs at least one grid name, e.g. ['Production']")
        return value

    @property
    def secret(self) -> bytes:
        return self.shared_secret.get_secret_value().encode("utf-8")
