"""An adapter's own durable key-value scope (``gateway.core.adapter_state``), on SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import timedelta

import pytest

from gateway.core.adapter_state import AdapterState
from gateway.testing import Chat


class Boom(Exception):
    pass


async def test_put_get_delete_in_units_of_its_own(any_chat: Chat) -> None:
    state = AdapterState(any_chat.services.vault, "test:a")
    assert await state.get("k") is None
    await state.put("k", {"n": 1})
    await state.put("k", {"n": 2})  # written whole, in place
    assert await state.get("k") == {"n": 2}
    assert await AdapterState(any_chat.services.vault, "test:b").get("k") is None  # scopes apart
    assert await state.delete("k") is True
    assert await state.delete("k") is False
    assert await state.get("k") is None


async def test_items_by_prefix_take_underscore_and_percent_literally(any_chat: Chat) -> None:
    state = AdapterState(any_chat.services.vault, "test:prefix")
    for key in ("dm:a_b", "dm:axb", "dm:%", "left:x"):
        await state.put(key, {"key": key})
    await AdapterState(any_chat.services.vault, "test:other").put("dm:a_b", {"other": True})
    assert list(await state.items("dm:a_")) == ["dm:a_b"]
    assert list(await state.items("dm:%")) == ["dm:%"]
    assert await state.with_prefix("dm:") == {
        "%": {"key": "dm:%"},
        "a_b": {"key": "dm:a_b"},
        "axb": {"key": "dm:axb"},
    }
    assert list(await state.items()) == ["dm:%", "dm:a_b", "dm:axb", "left:x"]


async def test_in_the_callers_unit_it_commits_and_rolls_back_with_it(any_chat: Chat) -> None:
    vault = any_chat.services.vault
    state = AdapterState(None, "test:unit")  # no vault: only ever inside a caller's unit
    with pytest.raises(Boom):
        async with vault.unit() as unit:
            await state.put("k", {"n": 1}, db=unit)
            assert await state.get("k", db=unit) == {"n": 1}  # its own write, before the commit
            raise Boom
    assert await state.get("k", db=vault) is None
    async with vault.transaction() as session:  # a session of a unit works as well
        await state.put("k", {"n": 2}, db=session)
    assert await state.get("k", db=vault) == {"n": 2}
    with pytest.raises(TypeError, match="pass db="):
        await state.get("k")


async def test_locked_creates_once_and_returns_the_stored_value(any_chat: Chat) -> None:
    vault = any_chat.services.vault
    state = AdapterState(vault, "test:locked")
    async with vault.unit() as unit:
        assert await state.locked("k", {"n": 1}, db=unit) == ({"n": 1}, True)
        assert await state.locked("k", {"n": 2}, db=unit) == ({"n": 1}, False)
    assert await state.put_missing("k", {"n": 3}) == {"n": 1}
    assert await state.put_missing("fresh", {"n": 4}) == {"n": 4}


async def test_prune_removes_what_was_written_before_the_cut(any_chat: Chat) -> None:
    clock = any_chat.clock
    state = AdapterState(any_chat.services.vault, "test:prune", clock=clock)
    await state.put("old", {})
    clock.advance(days=3)
    await state.put("new", {})
    other = AdapterState(any_chat.services.vault, "test:kept", clock=clock)
    await other.put("old", {}, now=clock() - timedelta(days=10))
    assert await state.prune(clock() - timedelta(days=2)) == 1
    assert list(await state.items()) == ["new"]
    assert list(await other.items()) == ["old"]  # another scope is not touched
