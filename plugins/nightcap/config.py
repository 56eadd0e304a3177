"""The ``[nightcap]`` settings table (``NIGHTCAP.settings_model``: the core validates it at start)."""

from __future__ import annotations

from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import BaseModel, ConfigDict, Field, field_validator

from plugins.nightcap.chargen import Budget

SYSTEM = "nightcap"


def _target(value: str) -> str:
    platform, sep, address = value.partition(":")
    if not platform or not sep or not address:
        raise ValueError(f"{value!r} is not a target: write platform:address, e.g. discord:sheets")
    return value


class NightcapSettings(BaseModel):
    model_config = ConfigDict(extra="forbid")

    essence_max: int = Field(10, ge=0, le=1000)
    health_levels: int = Field(10, ge=1, le=100)
    trait_points: int = Field(6, ge=0, le=100)
    creation_trait_max: int = Field(4, ge=1, le=100)
    power_dots: int = Field(3, ge=0, le=100)
    # The check-in day boundary; None means [gateway] timezone.
    timezone: str | None = None
    # Where approved sheets are exported ("discord:sheets"); None: no export configured.
    sheet_export: str | None = None
    # Extra places every `st announce` / `st emote` goes to, besides the chronicle's channels.
    announce_targets: list[str] = Field(default_factory=list)
    # Platforms whose channels cannot be pushed to later (the HTTP API answers on the request only).
    announce_skip_platforms: list[str] = Field(default_factory=lambda: ["http"])
    # Conflict (challenge_commands, combat_commands, ...): how long a challenged player has to answer, and the
    # chronicle's wound penalties (-1 from the first threshold of damage, -2 from the second).
    challenge_timeout_seconds: int = Field(300, ge=10, le=7 * 24 * 3600)
    wound_penalties: bool = False
    wound_thresholds: tuple[int, int] = (4, 7)

    @field_validator("wound_thresholds")
    @classmethod
    def _thresholds(cls, value: tuple[int, int]) -> tuple[int, int]:
        if not 1 <= value[0] < value[1]:
            raise ValueError("wound_thresholds are two increasing damage levels, e.g. [4, 7]")
        return value

    @field_validator("timezone")
    @classmethod
    def _zone(cls, value: str | None) -> str | None:
        if value is not None:
            try:
                ZoneInfo(value)
            except (ZoneInfoNotFoundError, ValueError) as exc:
                raise ValueError(f"unknown time zone {value!r}") from exc
        return value

    @field_validator("sheet_export")
    @classmethod
    def _export(cls, value: str | None) -> str | None:
        return _target(value) if value else None

    @field_validator("announce_targets")
    @classmethod
    def _targets(cls, value: list[str]) -> list[str]:
        return [_target(v) for v in value]

    @property
    def budget(self) -> Budget:
        return Budget(
            trait_points=self.trait_points, trait_max=self.creation_trait_max, power_dots=self.power_dots
        )


def timezone(ctx: Any) -> str:
    """The check-in day boundary's zone: ``[nightcap] timezone``, else ``[gateway] timezone``."""
    return ctx.settings_for(NightcapSettings).timezone or ctx.settings.gateway.timezone
