"""Full enumeration of every d10 face sequence a mechanic can ask for, to check the exact odds.

``outcomes(fn)`` runs ``fn(dice)`` on every sequence of d10 faces (depth first); a run that asks for
more faces than the current prefix is extended by each face 1-10. Each finished sequence of length L
has probability 10**-L. Sequences longer than ``max_len`` (endless re-rolls of ties, chains of 10s)
are not followed: their total mass is returned as ``residual``.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from fractions import Fraction


class _Need(Exception):
    pass


class PrefixDice:
    def __init__(self, faces: tuple[int, ...]) -> None:
        self.faces = faces
        self.used = 0

    def roll(self, sides: int) -> int:
        assert sides == 10
        if self.used >= len(self.faces):
            raise _Need
        self.used += 1
        return self.faces[self.used - 1]


def outcomes(
    fn: Callable[[PrefixDice], Hashable], max_len: int = 12
) -> tuple[dict[Hashable, Fraction], Fraction]:
    found: dict[Hashable, Fraction] = {}
    residual = Fraction(0)
    stack: list[tuple[int, ...]] = [()]
    while stack:
        prefix = stack.pop()
        dice = PrefixDice(prefix)
        try:
            outcome = fn(dice)
        except _Need:
            if len(prefix) >= max_len:
                residual += Fraction(1, 10 ** len(prefix))
            else:
                stack.extend((*prefix, face) for face in range(1, 11))
            continue
        assert dice.used == len(prefix), "a finished run used every face it was given"
        found[outcome] = found.get(outcome, Fraction(0)) + Fraction(1, 10 ** len(prefix))
    return found, residual
