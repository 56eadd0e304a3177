"""Powers a combatant switches on, named by words (pure): flag powers (``hunting``) and powers at
a level (``celerity basic|advanced``), in English or the system's language."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any


class NotPowerWords(ValueError):
    """The words do not read as powers."""


@dataclass(frozen=True)
class PowerWords:
    """``flags`` and ``levelled`` map a power to the folded words that name it; ``levels`` maps a
    folded word to its level (1, 2). A levelled power is its word followed by a level word."""

    fold: Callable[[str], str]
    flags: Mapping[str, frozenset[str]]
    levelled: Mapping[str, frozenset[str]]
    levels: Mapping[str, int]

    def _flag(self, folded: str) -> str | None:
        return next((power for power, words in self.flags.items() if folded in words), None)

    def _levelled(self, folded: str) -> str | None:
        return next((power for power, words in self.levelled.items() if folded in words), None)

    def read(self, words: Sequence[str]) -> dict[str, Any]:
        """Every power, off (False, 0) unless the words switch it on, in any order."""
        powers: dict[str, Any] = {**dict.fromkeys(self.flags, False), **dict.fromkeys(self.levelled, 0)}
        folded = [self.fold(w) for w in words]
        i = 0
        while i < len(folded):
            flag = self._flag(folded[i])
            levelled = self._levelled(folded[i])
            if flag is not None:
                powers[flag] = True
            elif levelled is not None and i + 1 < len(folded) and folded[i + 1] in self.levels:
                powers[levelled] = self.levels[folded[i + 1]]
                i += 1
            else:
                raise NotPowerWords(words[i])
            i += 1
        return powers

    def split_tail(self, words: Sequence[str]) -> tuple[list[str], list[str]]:
        """(the words before, the power words at the end): ``Mira hunting celerity basic``."""
        rest, tail = list(words), list[str]()
        while rest:
            folded = self.fold(rest[-1])
            if self._flag(folded) is not None:
                tail.insert(0, rest.pop())
            elif folded in self.levels and len(rest) > 1 and self._levelled(self.fold(rest[-2])) is not None:
                tail[:0] = [rest[-2], rest[-1]]
                del rest[-2:]
            else:
                break
        return rest, tail

    def missing(self, wanted: Mapping[str, Any], sheet: Any) -> tuple[str, Any] | None:
        """The first power ``wanted`` above what ``sheet`` has: (power, the level wanted), or None."""
        for power in (*self.flags, *self.levelled):
            if wanted.get(power) and wanted[power] > getattr(sheet, power):
                return power, wanted[power]
        return None
