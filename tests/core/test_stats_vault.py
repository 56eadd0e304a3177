"""``stats``'s tallies kept in the vault, on both engines: a second gateway on the same vault reads
no old row again, two folds at once count each row once, a fold stopped half-way is continued, a
first count past ``[gateway] stats_wait`` answers how far it is and later the exact counts, and a
tally saved and read back reports exactly what the one in memory does. Rows are counted at the row
reader (``store._rows``), not timed."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import insert
from sqlmodel import col, select

from gateway.features.stats import store
from gateway.features.stats.command import as_result
from gateway.features.stats.persist import decode, encode
from gateway.features.stats.report import report
from gateway.features.stats.tally import Tally
from gateway.rules.roll_distribution import RollDistribution
from gateway.testing import Chat, start_chat
from gateway.vault.models import RollLog, StatsTally
from tests.bench.stats import roll_rows

ROWS = 400
SCOPE = store.Scope("channel", "console:main", "nightcap")


async def fill(chat: Chat, count: int = ROWS, seed: int = 18) -> None:
    """``count`` Nightcap rolls in the console's main channel, the last five minutes ago."""
    rows = list(roll_rows(count, seed))
    async with chat.services.vault.transaction() as session:
        await session.exec(insert(RollLog), params=rows)  # type: ignore[call-overload]


class Reads:
    """Rows the row reader returned."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.rows = 0
        real = store._rows

        async def counted(*args: Any) -> list[Any]:
            rows = await real(*args)
            self.rows += len(rows)
            return rows

        monkeypatch.setattr(store, "_rows", counted)


def small_chunks(monkeypatch: pytest.MonkeyPatch, rows: int = 16) -> None:
    monkeypatch.setattr(store, "MIN_CHUNK", rows)
    monkeypatch.setattr(store, "MAX_CHUNK", rows)
    monkeypatch.setattr(store.PACE, "rows", rows)


async def ask(chat: Chat, text: str = "stats channel") -> dict[str, Any]:
    reply = await chat.one(text, as_="st", st=True)
    assert reply.error is None, reply.text
    assert reply.result is not None
    return reply.result


def shape_of(chat: Chat) -> store.Shape:
    return chat.gateway.plugins.roll_distribution


async def fresh_count(chat: Chat) -> dict[str, Any]:
    """Every row of the scope folded in memory, nothing kept: what the answer must equal."""
    shape = shape_of(chat)
    counted = Tally()
    async with chat.services.vault.transaction() as session:
        query = select(RollLog.system, store.RESULT_TEXT).where(*SCOPE.where())
        for system, result in (await session.exec(query)).all():
            counted.add(shape(store._roll(system, result)))
    return as_result(report(counted), "nightcap")


@pytest.fixture
async def second(vault_url: str) -> AsyncIterator[list[Chat]]:
    """Gateways started by the test on the same vault, stopped afterwards."""
    chats: list[Chat] = []
    yield chats
    for chat in chats:
        await chat.stop()


async def test_a_second_gateway_reads_no_old_row(
    any_chat: Chat, vault_url: str, second: list[Chat], monkeypatch: pytest.MonkeyPatch
) -> None:
    await fill(any_chat)
    first = await ask(any_chat)
    assert first == await fresh_count(any_chat) and first["rolls"] == ROWS
    reads = Reads(monkeypatch)
    other = await start_chat(vault_url)  # another process's gateway: its own vault object
    second.append(other)
    assert await ask(other) == first
    assert reads.rows == 0
    since = await ask(other, "stats channel --since 2h")
    assert reads.rows == 0 and 0 < since["rolls"] < ROWS


async def test_two_folds_at_once_count_each_row_once(
    any_chat: Chat, vault_url: str, second: list[Chat], monkeypatch: pytest.MonkeyPatch
) -> None:
    await fill(any_chat)
    if any_chat.services.vault.dialect == "postgresql":
        other = await start_chat(vault_url)  # two processes' transactions side by side
        second.append(other)
    else:
        # One process is SQLite's whole world: its units queue on the vault's write lock (a second
        # process would wait in SQLite's busy handler, on the loop).
        other = any_chat
    small_chunks(monkeypatch, 7)  # many reads, so that the folds interleave

    async def count(chat: Chat) -> dict[str, Any]:
        vault = chat.services.vault
        async with vault.transaction() as session:
            counted = await store.tally(session, vault, SCOPE, shape_of(chat), chat.clock.now, None)
        return as_result(report(counted), "nightcap")

    expected = await fresh_count(any_chat)
    assert await asyncio.gather(count(any_chat), count(other)) == [expected, expected]
    store.forget(any_chat.services.vault)
    store.forget(other.services.vault)
    assert await count(other) == expected == await count(any_chat)  # what the vault kept
    async with any_chat.services.vault.transaction() as session:
        kept = (await session.exec(select(StatsTally).where(col(StatsTally.day) == store.WHOLE))).all()
    assert len(kept) == 1 and decode(kept[0].data)[0].rolls == ROWS


async def test_a_fold_stopped_half_way_is_continued(
    any_chat: Chat, vault_url: str, second: list[Chat], monkeypatch: pytest.MonkeyPatch
) -> None:
    await fill(any_chat)
    small_chunks(monkeypatch)
    monkeypatch.setattr(store, "SAVE_EVERY", 0.0)  # progress saved after every chunk
    vault = any_chat.services.vault
    fold = store.folds(vault).ensure(SCOPE, shape_of(any_chat), any_chat.services.clock)
    while fold.kept < ROWS // 2:
        await asyncio.sleep(0)
    await store.stop_folds(vault)  # as a stopping gateway does
    async with vault.transaction() as session:
        through = (await session.exec(select(StatsTally.through).where(col(StatsTally.day) == ""))).one()
        left = len((await session.exec(select(RollLog.id).where(col(RollLog.id) > through))).all())
    assert 0 < left < ROWS
    reads = Reads(monkeypatch)
    monkeypatch.setattr(store, "MAX_CHUNK", 1000)
    monkeypatch.setattr(store.PACE, "rows", 1000)
    other = await start_chat(vault_url)  # a restarted process
    second.append(other)
    assert await ask(other) == await fresh_count(any_chat)
    assert reads.rows == left


async def test_a_long_first_count_answers_how_far_it_is(
    vault_url: str, second: list[Chat], monkeypatch: pytest.MonkeyPatch
) -> None:
    chat = await start_chat(vault_url, gateway={"stats_wait": 0.0})
    second.append(chat)
    await fill(chat)
    small_chunks(monkeypatch)
    monkeypatch.setattr(store, "QUICK_SECONDS", 0.0)  # any backlog of more than a chunk: background
    reply = await chat.one("stats channel", as_="st", st=True)
    assert reply.error is None and reply.result is not None and reply.result["counting"]
    assert reply.text.startswith("Counting this channel's rolls for the first time: ")
    assert reply.text.endswith(f" of about {ROWS} so far; ask again in a minute.")
    assert (await chat.one("lang cs", as_="st", st=True)).error is None
    czech = (await chat.one("stats channel", as_="st", st=True)).text
    assert czech.startswith("Poprvé počítám hody v tomto kanálu: zatím ")
    folding = store.folds(chat.services.vault).running
    assert len(folding) == 1  # the second ask waits for the same fold
    task = folding[SCOPE].task
    assert task is not None
    await task
    assert (await chat.one("lang en", as_="st", st=True)).error is None
    assert await ask(chat) == await fresh_count(chat)


async def test_a_wait_long_enough_gets_the_whole_answer(
    vault_url: str, second: list[Chat], monkeypatch: pytest.MonkeyPatch
) -> None:
    chat = await start_chat(vault_url, gateway={"stats_wait": 30.0})
    second.append(chat)
    await fill(chat)
    small_chunks(monkeypatch)
    monkeypatch.setattr(store, "QUICK_SECONDS", 0.0)
    assert await ask(chat) == await fresh_count(chat)
    assert not store.folds(chat.services.vault).running


@pytest.mark.parametrize("seed", [1, 2, 3])
async def test_a_saved_tally_reports_what_the_one_in_memory_does(chat: Chat, seed: int) -> None:
    shape = shape_of(chat)
    whole, day = Tally(), Tally()
    for i, row in enumerate(roll_rows(300, seed)):
        seen = shape({**row["result"], "system": "nightcap"})
        whole.add(seen)
        if i % 3 == 0:
            day.add(seen)
    back, kinds = decode(encode(whole, kinds=True))
    assert as_result(report(back), "nightcap") == as_result(report(whole), "nightcap")
    day_back, _ = decode(encode(day, kinds=False), kinds)
    assert as_result(report(day_back), "nightcap") == as_result(report(day), "nightcap")


KINDS = [
    (("failure", "success"), {"failure": Fraction(1, 3), "success": Fraction(2, 3)}),
    (
        ("botch", "failure", "success"),
        {"botch": Fraction(1, 10), "failure": Fraction(1, 2), "success": Fraction(2, 5)},
    ),
    (("failure", "success"), {"failure": Fraction(7, 10**9), "success": Fraction(10**9 - 7, 10**9)}),
]


@st.composite
def rolls(draw: st.DrawFn) -> list[RollDistribution | None]:
    out: list[RollDistribution | None] = []
    for _ in range(draw(st.integers(0, 40))):
        if draw(st.booleans()) and draw(st.booleans()):
            out.append(None)  # a kind of roll not counted
            continue
        sides = draw(st.sampled_from([6, 10]))
        faces = tuple(draw(st.lists(st.integers(0, sides + 1), max_size=6)))
        if draw(st.booleans()):
            out.append(RollDistribution(sides, faces))
            continue
        labels, odds = draw(st.sampled_from(KINDS))
        out.append(RollDistribution(sides, faces, draw(st.sampled_from(labels)), odds, labels))
    return out


@settings(max_examples=60, deadline=None)
@given(rolls(), st.integers(0, 40))
def test_any_tally_saved_and_read_back_is_the_same(seen: list[RollDistribution | None], cut: int) -> None:
    """Split into a whole tally and a day's (read with the whole one's kinds), as the vault keeps them."""
    whole, day = Tally(), Tally()
    for i, shape in enumerate(seen):
        whole.add(shape)
        if i < cut:
            day.add(shape)
    back, kinds = decode(encode(whole, kinds=True))
    day_back, _ = decode(encode(day, kinds=False), kinds)
    for original, read in ((whole, back), (day, day_back)):
        assert (read.rolls, read.other, read.impossible, read.faces) == (
            original.rolls,
            original.other,
            original.impossible,
            {s: c for s, c in original.faces.items()},
        )
        assert {k: (g.labels, dict(g.odds), g.rolls, g.observed) for k, g in read.groups.items()} == {
            k: (g.labels, dict(g.odds), g.rolls, g.observed) for k, g in original.groups.items()
        }
        assert report(read) == report(original)
