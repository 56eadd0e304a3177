"""Typed settings: a TOML file (``--config PATH`` or ``GATEWAY_CONFIG``) with environment overrides.

Every key can be overridden as ``GATEWAY_<SECTION>__<KEY>`` (``GATEWAY_HTTP__PORT=9000``); the common
ones also have short names (``GATEWAY_VAULT_URL``, ``GATEWAY_DICE_SEED``, ``GATEWAY_DICE_SCRIPT``).
Rule-system and adapter sections (``[nightcap]``, ``[irc.libera]``, ``[discord]``, ...) are kept as raw
tables here and validated by the system or adapter that owns them, so the core knows no platform; their
keys are overridden the same way (``GATEWAY_NIGHTCAP__ESSENCE_MAX=12``, ``GATEWAY_IRC__LIBERA__PORT``),
a value that reads as a JSON list or table (``[3, 6]``) taken as one.
"""

from __future__ import annotations

import contextlib
import json
import os
from contextvars import ContextVar
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field
from pydantic_settings import (
    BaseSettings,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    TomlConfigSettingsSource,
)

SHORT_ENV = {
    "GATEWAY_VAULT_URL": ("vault", "url"),
    "GATEWAY_VAULT_OWNER": ("vault", "owner"),
    "GATEWAY_DICE_SEED": ("dice", "seed"),
    "GATEWAY_DICE_SCRIPT": ("dice", "script"),
    "GATEWAY_LOG_FORMAT": ("log", "format"),
}


# The TOML file for the Settings being built right now (pydantic-settings reads sources in a classmethod).
_CONFIG_PATH: ContextVar[str | None] = ContextVar("gateway_config_path", default=None)


class Section(BaseModel):
    model_config = ConfigDict(extra="forbid")


def default_offload_workers() -> int:
    """One fewer than the CPUs (one is the event loop's), at least 1, at most 4."""
    return min(4, max(1, (os.cpu_count() or 2) - 1))


def machine_timezone() -> str:
    """This machine's IANA zone: ``TZ``, else ``/etc/localtime``'s link, else ``/etc/timezone``;
    ``UTC`` when none names a zone. A Second Life chronicle sets ``America/Los_Angeles`` (SLT)."""
    from zoneinfo import ZoneInfo

    candidates = [os.environ.get("TZ", "").removeprefix(":")]
    with contextlib.suppress(OSError):
        candidates.append(os.readlink("/etc/localtime").partition("zoneinfo/")[2])
    with contextlib.suppress(OSError):
        candidates.append(Path("/etc/timezone").read_text(encoding="utf-8").strip())
    for name in candidates:
        if not name or name.startswith("/"):
            continue
        try:
            ZoneInfo(name)
        except (ValueError, OSError, KeyError):  # ZoneInfoNotFoundError is a KeyError
            continue
        return name
    return "UTC"


class GatewaySection(Section):
    default_system: str = "nightcap"
    locale: str = "en"
    prefix: str = "!"
    max_pool: int = Field(50, ge=1, le=1000)
    # The chronicle's day (check-in, nights): the machine's zone unless set (Second Life: SLT,
    # America/Los_Angeles; `gateway init` writes it for a Second Life group).
    timezone: str = Field(default_factory=machine_timezone)
    # Processes for heavy pure work (exact odds), so that it never holds the event loop
    # (``gateway.core.offload``); 0 computes on the loop. Started on first need, one at a time.
    offload_workers: int = Field(default_factory=default_offload_workers, ge=0, le=64)
    # Seconds one such computation may take, waiting for a worker included; past it, the command
    # is answered with one short line and nothing is kept.
    offload_timeout: float = Field(10.0, gt=0, le=600)
    # A TrueType font for the odds pictures on Discord and Matrix (``gateway.rules.charts``); None: the
    # first common system font (DejaVu Sans, Noto Sans, Liberation Sans) with Czech and Cyrillic.
    chart_font: str | None = None
    # Seconds ``stats`` waits for a first count of a large scope's rolls; past it, it answers how
    # far the count is while the count goes on in the background (``gateway.features.stats.store``).
    stats_wait: float = Field(5.0, ge=0, le=600)


class VaultSection(Section):
    url: str = "sqlite+aiosqlite:///vault.db"
    owner: str | None = None
    busy_timeout_ms: int = 5000
    # SQLite: units that end together share one COMMIT (synchronous=NORMAL) and one WAL fsync in a
    # thread, and return only once it is done (group commit); off: synchronous=FULL, a COMMIT and an
    # fsync per unit, on the event loop. Durable either way. On for busy gateways (many HUDs); off,
    # one command at a time is about a quarter faster (no hand-offs; see tests/bench/router.py).
    group_commit: bool = False
    auto_upgrade: bool = True


class HttpSection(Section):
    enabled: bool = True
    host: str = "127.0.0.1"
    port: int = 8080
    # name -> bearer token for POST /api/v1/command; the caller's identity is ``http:<name>``.
    tokens: dict[str, str] = Field(default_factory=dict)
    # Open connections per process, always kept below the open-file limit (``gateway.ops.server``).
    max_connections: int = Field(4096, ge=8, le=1_000_000)
    # A connection with no whole request head this many seconds after it opened or was last
    # answered is closed, so silent sockets cannot pile up.
    idle_timeout: float = Field(15.0, gt=0, le=600)


class DiceSection(Section):
    seed: int | None = None
    script: str | None = None


class StlogSection(Section):
    targets: list[str] = Field(default_factory=list)


class LinkSection(Section):
    """Link codes (``link`` / ``link CODE``): lifetime and rate limits."""

    code_ttl_minutes: int = Field(10, ge=1, le=1440)
    codes_per_hour: int = Field(5, ge=1, le=1000)
    failures_per_hour: int = Field(10, ge=1, le=1000)


class LogSection(Section):
    format: Literal["auto", "pretty", "json"] = "auto"
    level: str = "info"


class PluginsSection(Section):
    block: list[str] = Field(default_factory=list)


class OutboxSection(Section):
    poll_interval: float = 0.5
    linger: float = Field(default=0.0, ge=0.0, le=1.0)
    # A row that keeps failing (timeouts, refused connections, 5xx) is retried for this many hours
    # after it was queued, then marked dead: a target that comes back within them misses nothing.
    retry_hours: float = Field(default=6.0, gt=0.0, le=24.0 * 30)
    # Optionally also give up after this many failed attempts; None: only ``retry_hours`` bounds them.
    max_attempts: int | None = Field(default=None, ge=1)
    base_delay: float = 1.0
    max_delay: float = 300.0
    # Delivered rows are transport, not records (the roll log and Storyteller log are): drop them
    # after this many hours. Dead rows stay until an operator looks at them.
    keep_delivered_hours: float = Field(default=24.0, gt=0.0)


class ClusterSection(Section):
    """Several gateway processes on one vault: work that must run once per deployment (each IRC
    network's connection, each Matrix account's sync loop) runs in the process holding its lease
    (``gateway/delivery/leases.py``); when that process dies, another takes over within this many seconds."""

    failover_seconds: float = Field(default=15.0, ge=0.2, le=3600.0)


class MetricsSection(Section):
    """Prometheus metrics at ``GET /metrics``. With ``token`` set, only a request bearing it is
    answered; without one, only requests from this machine (loopback)."""

    enabled: bool = True
    token: str | None = None


class _ShortEnvSource(PydanticBaseSettingsSource):
    def get_field_value(self, field: Any, field_name: str) -> tuple[Any, str, bool]:  # pragma: no cover
        return None, field_name, False

    def __call__(self) -> dict[str, Any]:
        data: dict[str, Any] = {}
        for env, (section, key) in SHORT_ENV.items():
            if env in os.environ:
                data.setdefault(section, {})[key] = os.environ[env]
        return data


class _SectionEnvSource(PydanticBaseSettingsSource):
    """``GATEWAY_<SECTION>__<KEY>`` for the raw tables (rule systems', adapters'), which pydantic's own
    environment source skips: it reads only declared fields. Names are case-insensitive; the value
    stays text (the owner's model converts it) unless it reads as a JSON list or table."""

    def get_field_value(self, field: Any, field_name: str) -> tuple[Any, str, bool]:  # pragma: no cover
        return None, field_name, False

    def __call__(self) -> dict[str, Any]:
        data: dict[str, Any] = {}
        declared = set(self.settings_cls.model_fields)
        for env, raw in os.environ.items():
            name = env.casefold()
            if not name.startswith("gateway_") or "__" not in name:
                continue
            path = name[len("gateway_") :].split("__")
            if path[0] in declared or not all(path):
                continue
            table = data
            for part in path[:-1]:
                nested = table.setdefault(part, {})
                if not isinstance(nested, dict):
                    break
                table = nested
            else:
                table[path[-1]] = _env_value(raw)
        return data


def _env_value(raw: str) -> Any:
    try:
        value = json.loads(raw)
    except ValueError:
        return raw
    return value if isinstance(value, (list, dict)) else raw


class Settings(BaseSettings):
    """All settings. Unknown top-level tables are adapter sections, read with ``section()``."""

    model_config = SettingsConfigDict(
        env_prefix="GATEWAY_", env_nested_delimiter="__", extra="allow", toml_file=None
    )

    gateway: GatewaySection = Field(default_factory=GatewaySection)
    vault: VaultSection = Field(default_factory=VaultSection)
    http: HttpSection = Field(default_factory=HttpSection)
    dice: DiceSection = Field(default_factory=DiceSection)
    stlog: StlogSection = Field(default_factory=StlogSection)
    link: LinkSection = Field(default_factory=LinkSection)
    log: LogSection = Field(default_factory=LogSection)
    plugins: PluginsSection = Field(default_factory=PluginsSection)
    outbox: OutboxSection = Field(default_factory=OutboxSection)
    cluster: ClusterSection = Field(default_factory=ClusterSection)
    metrics: MetricsSection = Field(default_factory=MetricsSection)

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        sources: list[PydanticBaseSettingsSource] = [
            init_settings,
            _ShortEnvSource(settings_cls),
            env_settings,
            _SectionEnvSource(settings_cls),
        ]
        path = _CONFIG_PATH.get()
        path = os.environ.get("GATEWAY_CONFIG") if path is None else path  # "": no file at all
        if path:
            sources.append(TomlConfigSettingsSource(settings_cls, toml_file=Path(path)))
        return tuple(sources)

    def section(self, name: str) -> dict[str, Any]:
        """A raw adapter section (``[irc]``, ``[discord]``), or an empty table."""
        extra = self.model_extra or {}
        value = extra.get(name, {})
        return dict(value) if isinstance(value, dict) else {}


def load_settings(config: str | Path | None = None, **overrides: Any) -> Settings:
    """Settings from ``config`` (or ``GATEWAY_CONFIG``), the environment, then ``overrides``."""
    config = config if config is not None else os.environ.get("GATEWAY_CONFIG")
    if config is not None and not Path(config).is_file():
        raise FileNotFoundError(f"config file not found: {config}")
    token = _CONFIG_PATH.set(str(config) if config is not None else None)
    try:
        return Settings(**overrides)
    finally:
        _CONFIG_PATH.reset(token)


def settings_from(data: dict[str, Any]) -> Settings:
    """Settings from ``data`` (a parsed TOML file) and the environment, reading no file."""
    token = _CONFIG_PATH.set("")
    try:
        return Settings(**data)
    finally:
        _CONFIG_PATH.reset(token)
