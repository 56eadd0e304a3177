"""Traits with a name in each locale (pure): shown in the reader's language, matched by any of its
names (or an alias) by unique prefix, after the plugin's own folding of case and diacritics."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from gateway.rules.closest import closest


@dataclass(frozen=True)
class NamedTraits:
    """``names`` maps locale -> trait -> name (English is the fallback); ``fold`` makes a word and a
    name comparable; ``aliases`` are extra folded spellings a player may type."""

    traits: tuple[str, ...]
    names: Mapping[str, Mapping[str, str]]
    fold: Callable[[str], str]
    aliases: Mapping[str, str] = field(default_factory=dict)

    def name(self, trait: str, locale: str) -> str:
        return self.names.get(locale, self.names["en"]).get(trait, self.names["en"][trait])

    def listing(self, locale: str) -> str:
        """Every trait by name, for a message that says which there are."""
        return ", ".join(self.name(trait, locale) for trait in self.traits)

    def match(self, word: str) -> tuple[str | None, list[str]]:
        """(trait, []) on a unique match, (None, candidates) when ambiguous, (None, []) for no trait."""
        folded = self.fold(word)
        if not folded:
            return None, []
        if folded in self.aliases:
            return self.aliases[folded], []
        exact = {t for t in self.traits for names in self.names.values() if self.fold(names[t]) == folded}
        if len(exact) == 1:
            return exact.pop(), []
        found = sorted(
            {
                t
                for t in self.traits
                for names in self.names.values()
                if self.fold(names[t]).startswith(folded)
            }
        )
        if len(found) == 1:
            return found[0], []
        return None, found

    def closest(self, word: str) -> str | None:
        """The trait whose name (in any locale) or alias is closest to a ``word`` naming none."""
        spellings = {
            self.fold(names[t]): t for names in self.names.values() for t in self.traits if t in names
        }
        spellings.update({alias: trait for alias, trait in self.aliases.items()})
        near = closest(word, spellings, self.fold)
        return None if near is None else spellings[near]
