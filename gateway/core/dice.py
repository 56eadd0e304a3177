"""Dice sources. Mechanics take a ``DiceSource`` so tests can script faces and statistics can seed."""

from __future__ import annotations

import os
import random
import secrets
from collections.abc import Callable, Iterable
from typing import Protocol

from gateway.core.errors import DiceScriptExhausted, UserError


class DiceSource(Protocol):
    def roll(self, sides: int) -> int:
        """One die with faces 1..sides."""
        ...


class SystemDice:
    """Production dice: the operating system's CSPRNG, so nobody can predict or replay a roll.

    Bytes come from ``os.urandom`` 256 at a time (a system call per die cost more than the rest of a
    roll), and a byte becomes a face by rejection: only bytes below the largest multiple of ``sides``
    count, so every face is exactly equally likely."""

    def __init__(self, random_bytes: Callable[[int], bytes] = os.urandom, chunk: int = 256) -> None:
        self._random_bytes = random_bytes
        self._chunk = chunk
        self._buffer = b""
        self._at = 0

    def roll(self, sides: int) -> int:
        if not 1 <= sides <= 256:
            return secrets.randbelow(sides) + 1
        accept_below = 256 - 256 % sides
        while True:
            if self._at >= len(self._buffer):
                self._buffer, self._at = self._random_bytes(self._chunk), 0
            byte = self._buffer[self._at]
            self._at += 1
            if byte < accept_below:
                return byte % sides + 1


class SeededDice:
    """Reproducible dice for statistics and demos."""

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)

    def roll(self, sides: int) -> int:
        return self._rng.randint(1, sides)


class ScriptedDice:
    """Faces in a given order, for exact tests. Running out is an error, never a silent random face."""

    def __init__(self, faces: Iterable[int]) -> None:
        self._faces = list(faces)
        self._next = 0

    def extend(self, faces: Iterable[int]) -> None:
        self._faces.extend(faces)

    @property
    def remaining(self) -> int:
        return len(self._faces) - self._next

    def roll(self, sides: int) -> int:
        if self._next >= len(self._faces):
            raise DiceScriptExhausted()
        face = self._faces[self._next]
        if not 1 <= face <= sides:
            raise UserError(
                f"The dice script has face {face}, which a d{sides} cannot show.", code="dice_script"
            )
        self._next += 1
        return face


def parse_script(text: str) -> list[int]:
    try:
        return [int(part) for part in text.replace(" ", "").split(",") if part]
    except ValueError as exc:
        raise ValueError(f"GATEWAY_DICE_SCRIPT must be comma-separated faces, got {text!r}") from exc


def dice_from_settings(seed: int | None, script: str | None) -> DiceSource:
    if script:
        return ScriptedDice(parse_script(script))
    if seed is not None:
        return SeededDice(seed)
    return SystemDice()


def faces(values: Iterable[int]) -> str:
    """Faces as a roll line shows them: ``3 7 10`` (empty for no dice)."""
    return " ".join(str(v) for v in values)
