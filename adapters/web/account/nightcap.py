"""The words of Nightcap's chat commands that the web forms offer (the pages build command lines
from them; the rules and refusals stay the commands'). The book's Storyteller HUD enforces no
limits, so its forms offer every tier; a player's creation editor offers the creation tiers."""

from __future__ import annotations

SYSTEM = "nightcap"
FIELDS = ("name", "origin", "subgroup", "aptitude", "advantage", "weakness")
TRAITS = ("physical", "mental", "social", "spirit")
CREATION_TIERS = ("basic", "adept", "advanced")
ALL_TIERS = (*CREATION_TIERS, "epic", "legendary")
POOLS = ("willpower", "essence", "health")
EDITABLE = ("creation", "submitted")  # a player's editor is open for these statuses
STATUSES = {"unlocked": ("creation", "submitted"), "approved": ("approved",), "all": None}
