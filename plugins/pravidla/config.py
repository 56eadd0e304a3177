"""Pravidla's settings: the ``[pravidla]`` table of the gateway's TOML file (every key optional)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class PravidlaSettings(BaseModel):
    model_config = ConfigDict(extra="forbid")

    default_target: int = Field(4, ge=2, le=6)
    starting_rating: int = Field(1, ge=0, le=10)
    celerity_basic_extra: int = Field(1, ge=0, le=5)
    celerity_advanced_extra: int = Field(2, ge=0, le=5)
    max_rerolls: int = Field(100, ge=1, le=10_000)
    max_lead: int = Field(20, ge=1, le=100)
