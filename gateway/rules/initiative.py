"""An initiative order (pure): combatants ranked by their key, highest first and stable in joining
order, each group of equal keys settled by the system's dice; extra actions come after everyone's
first action."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol


class Ranked(Protocol):
    @property
    def name(self) -> str: ...

    @property
    def extra_actions(self) -> int: ...

    def key(self) -> tuple[int, ...]: ...


# (tied names, the faces rolled so far by name) -> those names in order
Settle = Callable[[Sequence[str], dict[str, list[int]]], list[str]]


@dataclass(frozen=True)
class Order:
    """The acting order: ``first`` (everyone's first action), then ``extra`` passes (Celerity)."""

    system: str
    first: tuple[str, ...]
    extra: tuple[tuple[str, ...], ...]
    dice: dict[str, list[int]] = field(default_factory=dict)
    faces: tuple[int, ...] = ()  # every die in the order rolled

    def as_result(self) -> dict[str, Any]:
        return {
            "kind": "initiative",
            "system": self.system,
            "order": list(self.first),
            "extra": [list(p) for p in self.extra],
            "dice": list(self.faces),
            "rolls": self.dice,
        }


def rank(system: str, combatants: Sequence[Ranked], settle: Settle) -> Order:
    rolls: dict[str, list[int]] = {}
    first: list[str] = []
    for key in sorted({c.key() for c in combatants}, reverse=True):
        group = [c.name for c in combatants if c.key() == key]
        first.extend(settle(group, rolls))
    by_name = {c.name: c for c in combatants}
    most = max((c.extra_actions for c in combatants), default=0)
    extra = tuple(tuple(n for n in first if by_name[n].extra_actions >= k) for k in range(1, most + 1))
    flat = tuple(rolls.pop("", []))
    return Order(system, tuple(first), extra, rolls, flat)
