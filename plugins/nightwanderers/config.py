"""Night Wanderers' settings: the ``[nightwanderers]`` table of the TOML file (every key optional)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class NightWanderersSettings(BaseModel):
    model_config = ConfigDict(extra="forbid")

    default_difficulty: int = Field(4, ge=2, le=6)
    starting_rating: int = Field(1, ge=0, le=10)
    vampire_hp: int = Field(25, ge=5, le=500)
    human_hp: int = Field(10, ge=5, le=500)
    werewolf_hp: int = Field(25, ge=5, le=500)
    blood_max: int = Field(10, ge=1, le=500)
    hunger_at: int = Field(5, ge=0, le=500)
    ravenous_at: int = Field(2, ge=0, le=500)
    frenzy_difficulty: int = Field(4, ge=2, le=6)
    soak_difficulty: int = Field(5, ge=2, le=6)
    melee_difficulty: int = Field(4, ge=2, le=6)
    stealth_tie_difficulty: int = Field(3, ge=2, le=6)
    dodge_bonus: int = Field(2, ge=0, le=10)
    celerity_basic_extra: int = Field(1, ge=0, le=5)
    celerity_advanced_extra: int = Field(2, ge=0, le=5)
    night_rollover_hour: int = Field(12, ge=0, le=23)
    max_rerolls: int = Field(100, ge=1, le=10_000)
