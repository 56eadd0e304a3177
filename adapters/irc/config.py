"""Settings of the IRC adapter: ``[irc]`` holds defaults, each ``[irc.<network>]`` table is one network.

```toml
[irc]
colour = false                 # a default for every network below

[irc.libera]
host = "irc.libera.chat"
nick = "nightcap"
nick_fallbacks = ["nightcap_", "nightcap2"]
sasl_username = "nightcap"
sasl_password_env = "LIBERA_PASSWORD"
channels = ["#nightcap", "#nightcap-st secretkey"]
```
"""

from __future__ import annotations

import os
import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

Verb = Literal["PRIVMSG", "NOTICE"]
NETWORK_NAME = re.compile(r"^[A-Za-z0-9_.-]{1,40}$")


class ChannelConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str
    key: str | None = None

    @field_validator("name")
    @classmethod
    def _channel_name(cls, v: str) -> str:
        if not v or v[0] not in "#&+!" or any(c in v for c in " ,\x07\r\n\0"):
            raise ValueError(
                f"{v!r} is not an IRC channel name (it starts with # and has no spaces or commas)"
            )
        return v


class NetworkConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str
    enabled: bool = True
    host: str
    port: int | None = Field(None, ge=1, le=65535)
    tls: bool = True
    tls_verify: bool = True
    tls_ca_file: str | None = None
    password: str | None = None
    nick: str = "nightcap"
    nick_fallbacks: list[str] = Field(default_factory=list)
    username: str | None = None
    realname: str = "Nightcap gateway"
    sasl_username: str | None = None
    sasl_password: str | None = None
    sasl_password_env: str | None = None
    channels: list[ChannelConfig] = Field(default_factory=list)
    prefix: str = "!"
    trust_nicks: bool = False
    reply_verb: Verb = "PRIVMSG"
    private_verb: Verb = "NOTICE"
    error_verb: Verb = "NOTICE"
    errors_to: Literal["user", "channel"] = "user"
    stlog_verb: Verb = "PRIVMSG"
    colour: bool = True
    # Sopel's flood defaults: a burst of 4, one line a second, long lines dearer (``pacing.py``).
    send_interval: float = Field(1.0, ge=0)
    send_burst: int = Field(4, ge=1)
    send_penalty_bytes: int = Field(50, ge=1)
    send_penalty_ratio: float = Field(1.4, gt=0)
    send_max_cost: float = Field(2.0, ge=1)
    # Storyteller-log entries: short lines joined into fewer, and past this many lines cut with a
    # pointer to ``st log`` (0: never cut).
    log_merge: bool = True
    log_max_lines: int = Field(4, ge=0)
    reconnect_min: float = Field(2.0, gt=0)
    reconnect_max: float = Field(300.0, gt=0)
    connect_timeout: float = Field(20.0, gt=0)
    ping_interval: float = Field(90.0, gt=0)
    ping_timeout: float = Field(60.0, gt=0)
    retry_delay: float = Field(5.0, gt=0)
    quit_message: str = "Nightcap gateway signing off"
    # Storyteller-log channels (irc-protect): modes the bot sets there when it is an operator (with
    # +k and the channel's configured key), and whether sheets and secret rolls may go to such a
    # channel while anyone can join it (no +k, no +i).
    log_modes: str = "s"
    allow_unprotected_log: bool = False
    # Replies in a private conversation with the bot (its query); private replies to a command said
    # in a channel keep ``private_verb``.
    query_verb: Verb = "PRIVMSG"

    @field_validator("channels", mode="before")
    @classmethod
    def _channels(cls, value: Any) -> Any:
        """``"#chan"``, ``"#chan key"`` or ``{name = "#chan", key = "key"}``."""
        if not isinstance(value, list):
            return value
        out = []
        for item in value:
            if isinstance(item, str):
                name, _, key = item.strip().partition(" ")
                out.append({"name": name, "key": key.strip() or None})
            else:
                out.append(item)
        return out

    @model_validator(mode="after")
    def _checks(self) -> NetworkConfig:
        if not NETWORK_NAME.match(self.name):
            raise ValueError(f"network name {self.name!r}: use letters, digits, '.', '_' or '-'")
        if not self.prefix:
            raise ValueError("prefix must not be empty on IRC: a channel is full of ordinary chat")
        for nick in self.nicks:
            if not nick or any(c in nick for c in " ,*?!@#:\r\n\0") or nick[0] in "$:&#+~%0123456789-":
                raise ValueError(f"{nick!r} is not a valid IRC nick")
        if not re.fullmatch(r"[A-Za-z]*", self.log_modes.lstrip("+")):
            raise ValueError(f'log_modes {self.log_modes!r}: channel mode letters, like "s" or "si"')
        if self.reconnect_max < self.reconnect_min:
            raise ValueError("reconnect_max must be at least reconnect_min")
        if self.log_max_lines == 1:
            raise ValueError("log_max_lines must be 0 (no limit) or at least 2 (a line and the pointer)")
        if bool(self.sasl_username) != bool(self.sasl_password or self.sasl_password_env):
            raise ValueError("SASL needs both sasl_username and sasl_password (or sasl_password_env)")
        return self

    @property
    def nicks(self) -> list[str]:
        return [self.nick, *self.nick_fallbacks]

    @property
    def effective_port(self) -> int:
        return self.port or (6697 if self.tls else 6667)

    @property
    def sasl_secret(self) -> str | None:
        if self.sasl_password:
            return self.sasl_password
        if self.sasl_password_env:
            secret = os.environ.get(self.sasl_password_env)
            if not secret:
                raise ValueError(f"environment variable {self.sasl_password_env} (SASL password) is not set")
            return secret
        return None


def parse_section(section: dict[str, Any]) -> list[NetworkConfig]:
    """Networks from the raw ``[irc]`` table: plain keys are defaults, sub-tables are networks."""
    defaults = {k: v for k, v in section.items() if not isinstance(v, dict)}
    networks = []
    for name, table in section.items():
        if isinstance(table, dict):
            networks.append(NetworkConfig(**{**defaults, **table, "name": name}))
    return networks
