"""The outbox as adapters use it (``gateway.delivery.queue``), on SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import timedelta

from sqlmodel import col, select

from gateway.delivery import queue
from gateway.testing import Chat
from gateway.vault.models import OutboxRow


async def _rows(chat: Chat) -> dict[int, OutboxRow]:
    async with chat.services.vault.transaction() as session:
        found = await session.exec(select(OutboxRow).order_by(col(OutboxRow.id)))
        return {row.id: row for row in found.all() if row.id is not None}


async def test_enqueue_in_the_callers_unit_or_its_own(any_chat: Chat) -> None:
    vault, now = any_chat.services.vault, any_chat.clock()
    assert await queue.newest_id(vault) == 0
    async with vault.unit() as unit:
        await queue.enqueue(unit, "web", "a", {"text": "1"}, now=now)
        assert unit.queued == {"web"}  # the unit wakes that platform's worker after its commit
    await queue.enqueue(vault, "web", "b", {"text": "2"}, now=now, due=now + timedelta(seconds=5))
    rows = list((await _rows(any_chat)).values())
    assert [(r.target, r.status, r.attempts) for r in rows] == [("a", "pending", 0), ("b", "pending", 0)]
    assert rows[0].next_attempt_at == now
    assert rows[1].next_attempt_at == now + timedelta(seconds=5)  # not claimed before it is due
    assert await queue.newest_id(vault) == rows[1].id


async def test_rows_and_status_per_target(any_chat: Chat) -> None:
    vault, now = any_chat.services.vault, any_chat.clock()
    for target, kind in (("hook", "sheet"), ("hook", "stlog"), ("other", "sheet")):
        await queue.enqueue(vault, "web", target, {"kind": kind}, now=now)
    await queue.enqueue(vault, "irc", "net/#x", {"kind": "sheet"}, now=now)
    first, second, third, _ = (await _rows(any_chat)).keys()
    async with vault.transaction() as session:
        for row_id, status in ((first, "delivered"), (third, "dead")):
            row = await session.get(OutboxRow, row_id)
            assert row is not None
            row.status = status
            session.add(row)
    assert [r.id for r in await queue.rows(vault, "web")] == [second]  # pending only
    after = await queue.rows(vault, "web", after=first)
    assert [(r.id, r.target, r.status, r.payload) for r in after] == [
        (second, "hook", "pending", {"kind": "stlog"}),
        (third, "other", "dead", {"kind": "sheet"}),
    ]
    tallies = await queue.status(vault, "web")
    assert tallies == {"hook": queue.Tally(pending=1, delivered=1), "other": queue.Tally(dead=1)}
    assert tallies["hook"].total == 2
    assert await queue.status(vault, "web", ids=[first, third]) == {
        "hook": queue.Tally(delivered=1),
        "other": queue.Tally(dead=1),
    }
    assert await queue.status(vault, "web", ids=[]) == {}


async def test_expedite_failed_makes_rows_of_that_error_due_now(any_chat: Chat) -> None:
    vault, now = any_chat.services.vault, any_chat.clock()
    later = now + timedelta(minutes=5)
    for _ in range(4):
        await queue.enqueue(vault, "matrix", "!room", {"text": "x"}, now=now, due=later)
    network, other, held, _ = (await _rows(any_chat)).keys()
    async with vault.transaction() as session:
        for row_id, error in ((network, "network: down"), (other, "refused"), (held, "network: down")):
            row = await session.get(OutboxRow, row_id)
            assert row is not None
            row.last_error = error
            if row_id == held:
                row.claimed_until = later  # a worker holds it
            session.add(row)
    async with vault.unit() as unit:
        assert await queue.expedite_failed(unit, "matrix", "network: ", now) == 1
        assert unit.queued == {"matrix"}
    rows = await _rows(any_chat)
    assert rows[network].next_attempt_at == now
    assert all(rows[i].next_attempt_at == later for i in rows if i != network)
    assert await queue.expedite_failed(vault, "matrix", "network: ", now) == 0


async def test_fan_out_takes_a_batch_once_in_the_callers_unit(any_chat: Chat) -> None:
    vault, now = any_chat.services.vault, any_chat.clock()
    for n in range(3):
        await queue.enqueue(vault, "secondlife", "st-huds", {"n": n}, now=now)
    await queue.enqueue(vault, "secondlife", "relays", {"n": 9}, now=now)
    await queue.enqueue(vault, "other", "st-huds", {"n": 8}, now=now)
    ids = list(await _rows(any_chat))
    async with vault.unit() as unit:
        batch = await queue.fan_out_batch(unit, "secondlife", "st-huds", ids[0])
        assert batch == ids[:3]
        payloads = await queue.take_batch(unit, "secondlife", "st-huds", batch, now)
        assert payloads == [{"n": 0}, {"n": 1}, {"n": 2}]
    rows = await _rows(any_chat)
    assert [rows[i].status for i in ids] == ["delivered"] * 3 + ["pending"] * 2
    assert rows[ids[0]].delivered_at == now
    async with vault.unit() as unit:  # another worker looking for the same row finds nothing
        assert await queue.fan_out_batch(unit, "secondlife", "st-huds", ids[0]) == []
        relays = await queue.fan_out_batch(unit, "secondlife", "relays", ids[3])
        assert await queue.take_batch(unit, "secondlife", "relays", relays, now, payloads=False) == []
    assert (await _rows(any_chat))[ids[3]].status == "delivered"
