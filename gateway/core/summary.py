"""What a character sheet shows, in a shape every platform can draw: ``SheetSummary``.

The core derives it from a rule system's declared sheet (``RuleSystem.sheet``, a
``gateway.core.sheet_spec.SheetSpec``; ``RuleSystem.summary``); adapters (a Discord embed, a Second Life
HUD, console completion) render the summary and know no rules. The value is small,
frozen and JSON-serialisable (``as_json`` / ``from_json``): it travels in outbox payloads and in a
HUD's state. ``key`` fields are the words commands take (``physical``, ``hp``); ``label`` fields are
shown as they are, already in the book's language (``Síla``, ``Здоровье``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class RatedTrait:
    """A rating: ``group`` is the sheet's heading (``Attributes``), None where the sheet has none."""

    key: str
    label: str
    rating: int
    max: int | None = None
    group: str | None = None


@dataclass(frozen=True)
class PoolMeter:
    """A spendable resource (Willpower, Health, Blood): ``current`` of ``max``."""

    key: str
    label: str
    current: int
    max: int


@dataclass(frozen=True)
class Power:
    """A power, discipline or merit: ``tier`` is its level as the sheet keeps it, ``trait`` the
    trait it rolls with, where the system has those."""

    name: str
    tier: str | int | None = None
    trait: str | None = None


@dataclass(frozen=True)
class FreeField:
    """A line of text: concept, clan, notes."""

    label: str
    text: str


@dataclass(frozen=True)
class SheetSummary:
    name: str
    system: str
    status: str
    traits: tuple[RatedTrait, ...] = ()
    pools: tuple[PoolMeter, ...] = ()
    powers: tuple[Power, ...] = ()
    fields: tuple[FreeField, ...] = ()

    def as_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "system": self.system,
            "status": self.status,
            "traits": [[t.key, t.label, t.rating, t.max, t.group] for t in self.traits],
            "pools": [[p.key, p.label, p.current, p.max] for p in self.pools],
            "powers": [[p.name, p.tier, p.trait] for p in self.powers],
            "fields": [[f.label, f.text] for f in self.fields],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> SheetSummary:
        return cls(
            name=str(data["name"]),
            system=str(data["system"]),
            status=str(data["status"]),
            traits=tuple(RatedTrait(*t) for t in data.get("traits") or ()),
            pools=tuple(PoolMeter(*p) for p in data.get("pools") or ()),
            powers=tuple(Power(*p) for p in data.get("powers") or ()),
            fields=tuple(FreeField(*f) for f in data.get("fields") or ()),
        )


def bare_summary(name: str, system: str, status: str) -> SheetSummary:
    """The core's answer when no rule system summarises the sheet: who, which system, what status."""
    return SheetSummary(name=name, system=system, status=status)
