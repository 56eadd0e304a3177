"""Dramatic Systems' settings: the ``[dramatic]`` table of the settings file (every key optional)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class DramaticSettings(BaseModel):
    model_config = ConfigDict(extra="forbid")

    default_difficulty: int = Field(6, ge=2, le=10)
    """The difficulty of a roll that names none."""
    willpower: int = Field(5, ge=0, le=10)
    """Willpower (current and maximum) of a new character, until a Storyteller sets it."""
