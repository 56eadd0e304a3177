"""The ``[matrix]`` settings: one sub-table per bot account, validated here (the core knows no platform).

```toml
[matrix.main]
homeserver = "https://matrix.example.org"
user_id = "@nightcap:example.org"
password = "..."            # used for the first login only; the token then lives in the vault
rooms = ["#game:example.org"]
allowed_inviters = ["@storyteller:example.org", "@*:example.org"]
```
"""

from __future__ import annotations

import os
import re
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

ACCOUNT_NAME = re.compile(r"^[A-Za-z0-9_-]{1,40}$")
USER_ID = re.compile(r"^@[^:\s]+:[^\s]+$")


class AccountSettings(BaseModel):
    """One bot account on one homeserver."""

    model_config = ConfigDict(extra="forbid")

    homeserver: str
    user_id: str
    password: str | None = None
    access_token: str | None = None
    # Names of environment variables holding the password or token (keeps secrets out of the file).
    password_env: str | None = None
    access_token_env: str | None = None
    device_id: str | None = None
    device_name: str = "Nightcap gateway"
    # Room ids (!abc:server) or aliases (#game:server) to join at start.
    rooms: list[str] = Field(default_factory=list)
    # Invites from these users are accepted; glob patterns such as "@*:example.org" work.
    allowed_inviters: list[str] = Field(default_factory=list)
    # Invites to these rooms are accepted from anyone (the rooms in ``rooms`` count too).
    allowed_rooms: list[str] = Field(default_factory=list)
    # The command prefix in this account's rooms; default: [gateway] prefix.
    prefix: str | None = None
    # Long-poll time of one /sync request, seconds.
    sync_timeout: float = Field(30.0, gt=0, le=300)
    # Ceiling of the back-off between retries after network errors, seconds.
    retry_max_delay: float = Field(60.0, gt=0, le=3600)
    # Timeout of one ordinary request (send, join, login), seconds.
    request_timeout: float = Field(30.0, gt=0, le=300)

    @field_validator("homeserver")
    @classmethod
    def _url(cls, value: str) -> str:
        if not re.match(r"^https?://[^\s/]+", value):
            raise ValueError("homeserver must be an http(s) URL such as https://matrix.example.org")
        return value.rstrip("/")

    @field_validator("user_id")
    @classmethod
    def _user_id(cls, value: str) -> str:
        if not USER_ID.match(value):
            raise ValueError("user_id must be a full Matrix id such as @nightcap:example.org")
        return value

    @field_validator("prefix")
    @classmethod
    def _prefix(cls, value: str | None) -> str | None:
        if value is not None and (not value or value != value.strip()):
            raise ValueError("prefix must be non-empty and without spaces around it")
        return value

    @model_validator(mode="after")
    def _credentials(self) -> AccountSettings:
        if self.password_env and not self.password:
            self.password = os.environ.get(self.password_env) or None
        if self.access_token_env and not self.access_token:
            self.access_token = os.environ.get(self.access_token_env) or None
        if not self.password and not self.access_token:
            raise ValueError("set password (first login) or access_token (or their *_env variables)")
        return self


class MatrixSettings(BaseModel):
    model_config = ConfigDict(extra="forbid")

    enabled: bool = True
    # End-to-end encryption with mautrix's crypto (the ``matrix-e2ee`` extra): on when installed;
    # without the packages, or with ``false``, encrypted rooms are refused.
    encryption: bool = True
    accounts: dict[str, AccountSettings] = Field(default_factory=dict)

    @classmethod
    def from_section(cls, section: dict[str, Any]) -> MatrixSettings:
        """``[matrix]``: sub-tables are accounts, plain keys are options of the adapter."""
        accounts = {k: v for k, v in section.items() if isinstance(v, dict)}
        options = {k: v for k, v in section.items() if not isinstance(v, dict)}
        for name in accounts:
            if not ACCOUNT_NAME.match(name):
                raise ValueError(f"[matrix.{name}]: account names use letters, digits, - and _ only")
        return cls(**options, accounts=accounts)
