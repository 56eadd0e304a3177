"""A sheet of dots (pure): Attributes and one group of learned traits (Skills, Abilities, ...) rated
in dots, kept as a pydantic document in ``Character.sheet``. The plugin defines the document model
(with ``attributes``, the learned group's dict, ``specialties`` and ``notes``, and whatever else its
sheet holds); a ``DotsSchema`` names the traits and does what every such sheet needs."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from pydantic import BaseModel, ValidationError

from gateway.core.errors import UserError
from gateway.rules.closest import closest
from gateway.rules.pool_sum import Pool, PoolExpr, add_up

Sheet = TypeVar("Sheet", bound=BaseModel)


def trait_title(trait: str) -> str:
    return trait.replace("_", " ").title()


def _key(word: str) -> str:
    return "".join(ch for ch in word.casefold() if ch.isalnum())


@dataclass(frozen=True)
class DotsSchema(Generic[Sheet]):
    """``title`` names the system in messages; ``learned_field`` is the model's dict of learned
    traits (``skills``); ``pool_hint`` tells how to write a pool when a trait word is unknown."""

    title: str
    model: type[Sheet]
    attributes: tuple[str, ...]
    learned: tuple[str, ...]
    learned_field: str
    abbreviations: Mapping[str, str]
    pool_hint: str
    player_max: int = 5
    storyteller_max: int = 10

    @property
    def names(self) -> tuple[str, ...]:
        return (*self.attributes, *self.learned)

    @staticmethod
    def trait_title(trait: str) -> str:
        """A trait's name as the messages write it (``animal_ken`` -> ``Animal Ken``)."""
        return trait_title(trait)

    def load(self, data: dict[str, Any]) -> Sheet:
        try:
            return self.model.model_validate(data or {})
        except ValidationError as exc:  # a hand-edited vault; say so instead of crashing
            raise UserError(
                f"This {self.title} sheet is damaged ({exc.error_count()} problems); ask a Storyteller."
            ) from None

    @staticmethod
    def dump(sheet: BaseModel) -> dict[str, Any]:
        return sheet.model_dump(mode="json")

    def rating(self, sheet: BaseModel, trait: str) -> int:
        group = "attributes" if trait in self.attributes else self.learned_field
        return int(getattr(sheet, group).get(trait, 0))

    def match_trait(self, word: str) -> str | None:
        """A trait by name, abbreviation or unique prefix; None if it is no trait."""
        key = _key(word)
        if not key:
            return None
        if key in self.abbreviations:
            return self.abbreviations[key]
        exact = [n for n in self.names if _key(n) == key]
        if exact:
            return exact[0]
        matches = [n for n in self.names if _key(n).startswith(key)]
        if len(matches) == 1:
            return matches[0]
        if len(matches) > 1:
            shown = " or ".join(trait_title(m) for m in matches[:4])
            raise UserError(f"{word[:40]!r} could be {shown}; write more of it.")
        return None

    def set_trait(self, sheet: Sheet, trait: str, value: int, maximum: int) -> tuple[Sheet, int]:
        """A copy with ``trait`` set to ``value`` (0..maximum), and the old value; a learned trait
        at 0 leaves the sheet."""
        if not 0 <= value <= maximum:
            raise UserError(f"{trait_title(trait)} goes from 0 to {maximum}.")
        old = self.rating(sheet, trait)
        group = "attributes" if trait in self.attributes else self.learned_field
        traits = {**getattr(sheet, group), trait: value}
        if value == 0 and group == self.learned_field:
            traits.pop(trait)
        return sheet.model_copy(update={group: traits}), old

    def dots(self, sheet: BaseModel, group: str) -> str:
        """``Dexterity 3, Wits 2``: the traits of ``group`` (attributes or learned) above 0."""
        names = self.attributes if group == "attributes" else self.learned
        values = getattr(sheet, group)
        return ", ".join(f"{trait_title(n)} {values[n]}" for n in names if values.get(n))

    def pool(self, expr: PoolExpr, sheet: BaseModel | None, who: str = "you") -> Pool:
        """Numbers and trait names to dice, rated from ``sheet`` (None: ``who`` has no character)."""

        def rated(word: str) -> tuple[str, int]:
            trait = self.match_trait(word)
            if trait is None:
                near = closest(word, self.names, _key)
                hint = f"Did you mean {trait_title(near)}?" if near else f"{self.pool_hint}."
                raise UserError(f"Unknown trait {word[:40]!r}. {hint}")
            if sheet is None:
                raise UserError(
                    f"{trait_title(trait)} is a trait, and {who} have no active {self.title} character:"
                    " roll numbers, or make one with char new NAME."
                )
            return trait_title(trait), self.rating(sheet, trait)

        return add_up(expr, rated)
