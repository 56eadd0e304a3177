"""Decanter's settings: the ``[decanter]`` table of the settings file (every key optional)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class DecanterSettings(BaseModel):
    model_config = ConfigDict(extra="forbid")

    story_point_cap: int = Field(10, ge=0, le=1000)
    """Most Story Points a character can hold; points gained above it are lost."""
    bonus_window: float = Field(120.0, ge=0)
    """Seconds after a roll during which ``sp bonus`` and ``downgrade`` may still change it."""
    aid_max: int = Field(5, ge=0, le=100)
    """Most bonus dice Aid Another can add to one roll."""
