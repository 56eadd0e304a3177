"""The collector at start-up (``gateway.core.heap``): the start-up heap is frozen once a process after
a collection; in a CLI process, modules load with the collector paused and are frozen at once."""

from __future__ import annotations

import types

import pytest

from gateway.core import heap


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """What ``heap`` asked of the collector (a fake one: a real freeze here would keep the tests'
    garbage for good)."""
    made: list[str] = []
    enabled = [True]

    def record(name: str) -> types.FunctionType:
        return lambda: made.append(name)  # type: ignore[return-value]

    def disable() -> None:
        made.append("disable")
        enabled[0] = False

    def enable() -> None:
        made.append("enable")
        enabled[0] = True

    fake = types.SimpleNamespace(
        collect=record("collect"),
        freeze=record("freeze"),
        disable=disable,
        enable=enable,
        isenabled=lambda: enabled[0],
    )
    monkeypatch.setattr(heap, "gc", fake)
    monkeypatch.setattr(heap, "_startup_frozen", False)
    return made


def test_the_startup_heap_is_frozen_once_after_a_collection(calls: list[str]) -> None:
    heap.freeze_startup_heap()
    heap.freeze_startup_heap()  # a second gateway start in the same process changes nothing
    assert calls == ["collect", "freeze"]


def test_a_cli_process_loads_with_the_collector_paused_and_freezes_what_it_loaded(calls: list[str]) -> None:
    with heap.loading():
        calls.append("import")
    assert calls == ["import"]  # not the CLI's process (a test, an embedding program): untouched
    with heap.cli_process():
        with heap.loading():
            calls.append("import")
        with heap.loading(), heap.loading():  # nested: the outer one pauses and freezes
            calls.append("import")
    once = ["disable", "import", "freeze", "enable"]
    assert calls == ["import", *once, *once]
    with heap.loading():
        calls.append("after")
    assert calls[-1] == "after"  # main has returned: untouched again


def test_an_error_while_loading_turns_the_collector_back_on(calls: list[str]) -> None:
    with heap.cli_process(), pytest.raises(ImportError), heap.loading():
        raise ImportError("a plugin that cannot load")
    assert calls == ["disable", "freeze", "enable"]
