"""``SystemDice``: bytes from an injectable source become faces by rejection, so every face of a die with
up to 256 sides is exactly equally likely; larger dice use ``secrets.randbelow``."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

import pytest

from gateway.core import dice as dice_module
from gateway.core.dice import SystemDice


class SourceExhausted(Exception):
    """The scripted byte source has no chunk left."""


class ScriptedBytes:
    """A byte source that hands out the given chunks in order and records each request's size."""

    def __init__(self, chunks: Iterable[bytes]) -> None:
        self._chunks = list(chunks)
        self.requests: list[int] = []

    def __call__(self, n: int) -> bytes:
        self.requests.append(n)
        if not self._chunks:
            raise SourceExhausted
        return self._chunks.pop(0)


def roll_until_exhausted(dice: SystemDice, sides: int, limit: int = 10_000) -> list[int]:
    """Every face the dice can make before its source runs dry (failing, not hanging, if it never does)."""
    faces: list[int] = []
    for _ in range(limit):
        try:
            faces.append(dice.roll(sides))
        except SourceExhausted:
            return faces
    pytest.fail(f"{limit} rolls of a d{sides} never drew on the byte source")


@pytest.mark.parametrize(("sides", "accepted"), [(10, 250), (6, 252), (2, 256), (256, 256), (7, 252)])
def test_each_byte_value_once_gives_each_face_equally_often(sides: int, accepted: int) -> None:
    """All 256 byte values once: the bytes at or above the largest multiple of ``sides`` are rejected,
    and the rest give every face exactly ``accepted / sides`` times."""
    source = ScriptedBytes([bytes(range(256))])
    faces = roll_until_exhausted(SystemDice(random_bytes=source, chunk=256), sides)
    assert len(faces) == accepted
    assert Counter(faces) == {face: accepted // sides for face in range(1, sides + 1)}
    assert source.requests == [256, 256]  # the second request is the one that found the source dry


@pytest.mark.parametrize(("sides", "first_rejected"), [(10, 250), (6, 252), (7, 252)])
def test_rejected_bytes_are_skipped_not_used_as_faces(sides: int, first_rejected: int) -> None:
    """Bytes ``first_rejected..255`` never become a face: the roll takes the next byte below the limit
    (here the largest accepted byte, which is the die's top face)."""
    source = ScriptedBytes([bytes(range(first_rejected, 256)) + bytes([first_rejected - 1])])
    dice = SystemDice(random_bytes=source, chunk=256)
    assert dice.roll(sides) == sides
    assert source.requests == [256]


def test_faces_follow_the_bytes_in_order() -> None:
    """Each accepted byte is one die, in the order the source gives them (byte % sides + 1)."""
    source = ScriptedBytes([bytes([0, 9, 10, 19, 249, 123])])
    dice = SystemDice(random_bytes=source, chunk=6)
    assert [dice.roll(10) for _ in range(6)] == [1, 10, 1, 10, 10, 4]


def test_rolls_continue_across_chunk_boundaries() -> None:
    """With ``chunk=4`` the source is asked for 4 bytes whenever the buffer runs out, lazily, and a
    roll whose rejected bytes end one chunk takes its face from the next."""
    source = ScriptedBytes([bytes([0, 1, 2, 255]), bytes([254, 3, 4, 5]), bytes([6, 7, 8, 9])])
    dice = SystemDice(random_bytes=source, chunk=4)
    assert source.requests == []  # nothing drawn before the first roll
    assert [dice.roll(10) for _ in range(3)] == [1, 2, 3]
    assert source.requests == [4]
    assert dice.roll(10) == 4  # 255 and 254 rejected, 3 taken from the second chunk
    assert source.requests == [4, 4]
    assert [dice.roll(10) for _ in range(2)] == [5, 6]
    assert source.requests == [4, 4]  # the second chunk is used up, no refill yet
    assert dice.roll(10) == 7
    assert source.requests == [4, 4, 4]
    assert [dice.roll(10) for _ in range(3)] == [8, 9, 10]
    with pytest.raises(SourceExhausted):
        dice.roll(10)
    assert source.requests == [4, 4, 4, 4]


def test_one_chunk_serves_dice_of_different_sizes() -> None:
    """The buffer is shared by every roll, and the rejection limit is each roll's own: byte 250, which
    a d10 rejects, is a face for a d6."""
    source = ScriptedBytes([bytes([13, 250, 13])])
    dice = SystemDice(random_bytes=source, chunk=3)
    assert dice.roll(10) == 4
    assert dice.roll(6) == 5
    assert dice.roll(6) == 2
    assert source.requests == [3]


def test_sides_above_256_use_secrets_randbelow(monkeypatch: pytest.MonkeyPatch) -> None:
    """A die with more than 256 sides does not use the byte source; its face is ``randbelow(sides) + 1``."""
    asked: list[int] = []

    def randbelow(n: int) -> int:
        asked.append(n)
        return n - 1

    monkeypatch.setattr(dice_module.secrets, "randbelow", randbelow)
    source = ScriptedBytes([])
    dice = SystemDice(random_bytes=source, chunk=4)
    assert dice.roll(257) == 257
    assert dice.roll(1000) == 1000
    assert asked == [257, 1000]
    assert source.requests == []


def test_sides_above_256_give_faces_in_range() -> None:
    """With the real ``secrets``, large dice stay within 1..sides and do vary."""
    source = ScriptedBytes([])
    dice = SystemDice(random_bytes=source)
    faces = [dice.roll(1000) for _ in range(2000)]
    assert all(1 <= face <= 1000 for face in faces)
    assert len(set(faces)) > 1
    assert source.requests == []


def test_256_sides_still_use_the_byte_source() -> None:
    """256 is the largest die the bytes serve: every byte is a face, none rejected."""
    source = ScriptedBytes([bytes([255, 0])])
    dice = SystemDice(random_bytes=source, chunk=2)
    assert [dice.roll(256), dice.roll(256)] == [256, 1]
    assert source.requests == [2]


def test_default_source_stays_in_range() -> None:
    """The OS generator behind ``SystemDice()``: 20,000 d10 rolls stay within 1..10 (and show each face;
    no statistics here, the seeded chi-square tests cover distributions)."""
    dice = SystemDice()
    faces = [dice.roll(10) for _ in range(20_000)]
    assert set(faces) <= set(range(1, 11))
    assert set(faces) == set(range(1, 11))  # a face missing from 20,000 rolls: about 10 * 0.9**20000
