"""Exact odds by brute force, for checking ``gateway.features.notation.odds``: every sequence of faces the
roller can draw, followed one die at a time, each with its probability."""

from __future__ import annotations

from fractions import Fraction

from gateway.features.notation.parse import parse
from gateway.features.notation.roll import roll_once


class _Wanted(Exception):
    def __init__(self, sides: int) -> None:
        self.sides = sides


class _Prefix:
    def __init__(self, faces: list[int]) -> None:
        self.faces = faces
        self.at = 0

    def roll(self, sides: int) -> int:
        if self.at < len(self.faces):
            self.at += 1
            return self.faces[self.at - 1]
        raise _Wanted(sides)


def enumerate_odds(text: str) -> dict[int, Fraction]:
    expression = parse(text)
    out: dict[int, Fraction] = {}

    def explore(prefix: list[int], p: Fraction) -> None:
        try:
            total = roll_once(expression, _Prefix(prefix)).total
        except _Wanted as wanted:
            for face in range(1, wanted.sides + 1):
                explore([*prefix, face], p / wanted.sides)
            return
        out[total] = out.get(total, Fraction(0)) + p

    explore([], Fraction(1))
    return {k: v for k, v in out.items() if v}
