"""Events: recorded by the unit, in-unit handlers before the commit, listeners after it (once, in
order, never on rollback), and the outbox woken by every commit that queued rows."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson
import pytest
from sqlmodel import col, select
from structlog.testing import capture_logs

from gateway.core.adapter_state import AdapterState
from gateway.core.app import Gateway
from gateway.core.dice import ScriptedDice
from gateway.core.events import Approved, Events, RollLogged, SheetChanged, decode, encode
from gateway.core.settings import Settings
from gateway.testing import Chat
from gateway.vault import Vault, repo
from gateway.vault.migrate import upgrade
from gateway.vault.models import Character, KeyValue, OutboxRow, Person, utcnow
from gateway.vault.notify import PAYLOAD_MAX, payloads
from gateway.vault.unit import Unit
from tests.core.test_outbox import FakePlugin, Recorder


async def eventually(check: Callable[[], bool], timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {timeout} s")
        await asyncio.sleep(0.01)


@pytest.fixture
async def vault(vault_url: str) -> Any:
    vault = Vault(vault_url)
    await upgrade(vault, [])
    yield vault
    await vault.events.close()
    await vault.dispose()


def recorder(events: Events, *kinds: type[Any]) -> list[Any]:
    seen: list[Any] = []

    async def handler(event: Any) -> None:
        seen.append(event)

    for kind in kinds:
        events.subscribe(kind, handler)
    return seen


async def test_listeners_hear_committed_events_once_in_order_and_never_a_rollback(vault: Vault) -> None:
    seen = recorder(vault.events, Approved, RollLogged)
    async with vault.unit() as unit:
        unit.record(Approved(1))
        unit.record(RollLogged("abcde", "console:main", "nightcap", None, 1))
        unit.record(Approved(2))
        assert seen == []  # nothing before the commit
    with pytest.raises(RuntimeError):
        async with vault.unit() as unit:
            unit.record(Approved(3))
            raise RuntimeError("rolled back")
    async with vault.unit() as unit:
        unit.record(Approved(4))
    await vault.events.drain()
    assert seen == [
        Approved(1),
        RollLogged("abcde", "console:main", "nightcap", None, 1),
        Approved(2),
        Approved(4),
    ]


async def test_a_failing_listener_is_logged_and_the_others_still_hear(vault: Vault) -> None:
    async def broken(event: Approved) -> None:
        raise ValueError("listener bug")

    vault.events.subscribe(Approved, broken)
    seen = recorder(vault.events, Approved)
    with capture_logs() as logs:
        async with vault.unit() as unit:  # the committer does not see the listener's error
            unit.record(Approved(1))
        await vault.events.drain()
    assert seen == [Approved(1)]
    assert [e["event"] for e in logs if e["log_level"] == "error"] == ["event handler failed"]


async def test_in_unit_handlers_write_in_the_unit_and_roll_back_with_it(vault: Vault) -> None:
    async def note(unit: Unit, event: Approved) -> None:
        await AdapterState(None, "test").put(str(event.character_id), {}, db=unit)

    vault.events.subscribe_in_unit(Approved, note)
    async with vault.unit() as unit:
        unit.record(Approved(1))
    with pytest.raises(RuntimeError):
        async with vault.unit() as unit:
            unit.record(Approved(2))
            raise RuntimeError("rolled back")
    async with vault.transaction() as session:
        keys = (await session.exec(select(KeyValue.key).where(col(KeyValue.scope) == "test"))).all()
    assert list(keys) == ["1"]


async def test_group_commit_fires_only_once_the_commit_is_durable(tmp_path: Path) -> None:
    path = tmp_path / "vault.db"
    vault = Vault(f"sqlite+aiosqlite:///{path}", group_commit=True)
    await upgrade(vault, [])
    visible: list[int] = []

    async def look(event: Approved) -> None:
        # Another connection sees the row only once the shared transaction has committed.
        with sqlite3.connect(path) as other:
            visible.append(other.execute("SELECT count(*) FROM person").fetchone()[0])

    vault.events.subscribe(Approved, look)

    async def one(n: int) -> None:
        async with vault.unit() as unit:
            unit.session.add(Person(display_name=f"p{n}"))
            unit.record(Approved(n))

    try:
        await asyncio.gather(*(one(n) for n in range(5)))
        await vault.events.drain()
        assert len(visible) == 5 and min(visible) >= 1
        assert visible[-1] == 5
    finally:
        await vault.events.close()
        await vault.dispose()


async def test_audit_rows_record_sheet_changes_and_approval(vault: Vault) -> None:
    async with vault.transaction() as session:
        owner, st = Person(display_name="Mira"), Person(display_name="Vera")
        session.add_all([owner, st])
        await session.flush()
        character = Character(
            owner_id=owner.id, system="nightcap", name="Mira", name_key="mira", status="creation"
        )
        session.add(character)
        await session.flush()
        ids = owner.id, st.id, character.id
    seen = recorder(vault.events, SheetChanged, Approved)
    async with vault.transaction() as session:
        for action, field, new in (("st.set", "physical", 4), ("st.approve", "status", "approved")):
            await repo.audit(
                session,
                actor_id=ids[1],
                actor_key="console:vera",
                action=action,
                character_id=ids[2],
                field_name=field,
                old=None,
                new=new,
                now=utcnow(),
            )
        await repo.audit(  # no character: no sheet change
            session, actor_id=ids[1], actor_key="console:vera", action="st.add", character_id=None,
            field_name="console:x", old=False, new=True, now=utcnow(),
        )  # fmt: skip
    await vault.events.drain()
    assert seen == [
        SheetChanged(ids[2], "nightcap", ids[0], ids[1], ("st.set", "st.approve"), ("physical", "status")),
        Approved(ids[2]),
    ]


async def test_a_logged_roll_is_an_event(chat: Chat) -> None:
    seen = recorder(chat.services.events, RollLogged)
    chat.dice.extend([9, 5, 10])
    [reply] = await chat.say("roll 3")
    await chat.services.events.drain()
    [event] = seen
    assert reply.text.endswith(f"#{event.public_id}")
    assert event.channel_key == "console:main" and event.person_id is not None


def test_events_cross_processes_as_small_json() -> None:
    event = SheetChanged(7, "nightcap", 1, 2, ("st.set",), ("physical",))
    assert decode(encode(event)) == event
    assert decode(["NoSuchEvent", {}]) is None
    many = [Approved(n) for n in range(2000)]
    sent = payloads("p" * 32, many, {"fake"})
    assert len(sent) > 1 and all(len(p.encode()) <= PAYLOAD_MAX for p in sent)
    got = [decode(item) for p in sent for item in orjson.loads(p)["e"]]
    assert got == many
    assert [orjson.loads(p)["q"] for p in sent] == [["fake"]] + [[]] * (len(sent) - 1)


async def gateway_with(url: str, adapter: Recorder, **outbox: Any) -> Gateway:
    settings = Settings(vault={"url": url}, outbox={"poll_interval": 3600.0, **outbox})
    gateway = Gateway(
        settings, dice=ScriptedDice([]), extra_plugins=[FakePlugin(adapter)], platforms=("fake",)
    )
    await gateway.upgrade_vault()
    await gateway.start()
    return gateway


async def test_a_row_queued_outside_the_router_goes_out_at_once(vault_url: str) -> None:
    """No one calls ``wake``: the commit of any unit that queued a row wakes that platform's worker
    (with an hour between polls, only the wake can deliver it)."""
    adapter = Recorder()
    gateway = await gateway_with(vault_url, adapter)
    try:
        await asyncio.sleep(0.1)  # the worker's first look found nothing: it waits for an hour now
        for n in range(3):
            async with gateway.services.vault.unit() as unit:
                await repo.enqueue(unit, "fake", "room", {"text": f"hello {n}"})
            await eventually(lambda n=n: len(adapter.delivered) == n + 1, timeout=5.0)  # type: ignore[misc]
        assert adapter.delivered == [("room", f"hello {n}") for n in range(3)]
    finally:
        await gateway.stop()


async def test_a_rolled_back_row_wakes_no_one(vault: Vault) -> None:
    woken: list[Any] = []
    vault.events.on_queued(woken.append)
    with pytest.raises(RuntimeError):
        async with vault.unit() as unit:
            await repo.enqueue(unit, "fake", "room", {"text": "never"})
            raise RuntimeError("rolled back")
    assert woken == []
    async with vault.unit() as unit:
        await repo.enqueue(unit, "fake", "room", {"text": "kept"})
    assert woken == [{"fake"}]
    async with vault.transaction() as session:
        assert len((await session.exec(select(OutboxRow))).all()) == 1
