"""The gateway freezes its start-up heap once a process, after a collection (``gateway.core.app``)."""

from __future__ import annotations

import types

import pytest

from gateway.core import app


def test_the_startup_heap_is_frozen_once_after_a_collection(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    frozen = [0]

    def freeze() -> None:
        calls.append("freeze")
        frozen[0] = 1

    fake = types.SimpleNamespace(
        get_freeze_count=lambda: frozen[0], collect=lambda: calls.append("collect"), freeze=freeze
    )
    monkeypatch.setattr(app, "gc", fake)
    app.freeze_startup_heap()
    app.freeze_startup_heap()  # a second gateway start in the same process changes nothing
    assert calls == ["collect", "freeze"]
