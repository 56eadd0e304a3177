"""Test-only oracle: the exact-odds code as it was before it was made fast (branch ``fastodds``),
copied verbatim (only its imports point here), so the equivalence tests and ``tests.bench.odds`` can
hold the new code to the very same Fractions. Not used by the gateway."""

from __future__ import annotations

import dataclasses
from typing import Any


def assert_same(old: Any, new: Any) -> None:
    """The old and the new result are equal field by field (the classes differ), Fractions equal
    (not close), and every dict lists its keys in the same order (results are built from them)."""
    if dataclasses.is_dataclass(old):
        assert type(old).__name__ == type(new).__name__
        for field in dataclasses.fields(old):
            assert_same(getattr(old, field.name), getattr(new, field.name))
        return
    assert type(old) is type(new), (old, new)
    if isinstance(old, dict):
        assert list(old) == list(new)
        for key in old:
            assert_same(old[key], new[key])
    elif isinstance(old, (list, tuple)):
        assert len(old) == len(new)
        for x, y in zip(old, new, strict=True):
            assert_same(x, y)
    else:
        assert old == new, (old, new)
