"""Send pacing (``adapters/irc/pacing.py``): replies before Storyteller-log lines, Sopel's bucket with its
long-line penalty, long log entries merged or cut with a pointer. The bucket runs on a fake clock; the
priority and the merged output are checked at a real server (miniircd), as a listening client sees them."""

from __future__ import annotations

import asyncio

import pytest
from pydantic import ValidationError
from sqlmodel import select

from adapters.irc.compact import entry_name, merge_lines, summarise
from adapters.irc.config import NetworkConfig
from adapters.irc.pacing import LineBucket, LineCost, Pacer
from gateway.vault.models import OutboxRow
from tests.irc.conftest import Harness
from tests.irc.lineclient import Line
from tests.irc.stlog import queue_log

# ------------------------------------------------------------------ the bucket, on a fake clock


class FakeTime:
    """A clock that moves only when a sleeper is let go (``release``), so a test sees who waits."""

    def __init__(self) -> None:
        self.now = 0.0
        self.sleeping: list[tuple[float, asyncio.Future[None]]] = []

    def clock(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.sleeping.append((seconds, future))
        await future

    def release(self) -> float:
        seconds, future = self.sleeping.pop(0)
        self.now += seconds
        future.set_result(None)
        return seconds


async def settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


def test_line_cost_is_sopels_long_line_penalty() -> None:
    cost = LineCost()  # 50 bytes free, then one line more per 70 bytes, at most 2 lines
    assert cost(0) == cost(50) == 1.0
    assert cost(85) == pytest.approx(1.5)
    assert cost(120) == pytest.approx(2.0)
    assert cost(5000) == 2.0
    assert LineCost(max_cost=1.0)(5000) == 1.0  # the penalty off


async def test_burst_then_one_line_a_second_and_long_lines_cost_more() -> None:
    t = FakeTime()
    pacer = Pacer(LineBucket(4, 1.0, t.clock), LineCost(), sleep=t.sleep)
    for _ in range(4):
        await pacer.wait(10)  # the burst: nobody sleeps
    assert t.sleeping == [] and t.now == 0
    task = asyncio.create_task(pacer.wait(10))
    await settle()
    assert t.release() == pytest.approx(1.0) and await task is None  # then one a second
    t.now += 100  # a long pause refills to the burst, not beyond
    await pacer.wait(120)
    await pacer.wait(120)  # two long lines spend the four tokens
    task = asyncio.create_task(pacer.wait(10))
    await settle()
    assert t.release() == pytest.approx(1.0)
    await task
    t.now += 100
    pacer.reset()
    assert pacer.bucket.tokens() == 4


async def test_log_lines_leave_a_token_for_replies_and_wait_while_one_waits() -> None:
    t = FakeTime()
    pacer = Pacer(LineBucket(4, 1.0, t.clock), LineCost(), sleep=t.sleep)
    assert [pacer.try_log(10) for _ in range(3)] == [0.0, 0.0, 0.0]
    assert pacer.try_log(10) == pytest.approx(1.0)  # one token left: the replies'
    assert pacer.try_log(120) == pytest.approx(2.0)  # a long line needs its 2 and the reserve
    await pacer.wait(10)  # a reply finds its token at once
    assert t.sleeping == []
    reply = asyncio.create_task(pacer.wait(10))  # the bucket is empty: this reply waits
    await settle()
    assert pacer.waiting == 1 and len(t.sleeping) == 1
    t.now += 3.0  # tokens are back, but a reply is waiting: log lines still wait
    assert pacer.try_log(10) >= 1.0
    t.release()
    await reply
    assert pacer.waiting == 0
    assert pacer.try_log(10) == 0.0  # 4 - 1 (reply) = 3 tokens: a log line goes, 2 are left


def test_an_unpaced_bucket_never_waits() -> None:
    pacer = Pacer(LineBucket(1, 0.0))
    assert [pacer.try_log(400) for _ in range(20)] == [0.0] * 20


# ------------------------------------------------------------------ settings


def test_pacing_settings_default_to_sopels_and_are_checked() -> None:
    net = NetworkConfig(name="t", host="h")
    assert (net.send_burst, net.send_interval, net.send_penalty_bytes, net.send_penalty_ratio) == (
        4,
        1.0,
        50,
        1.4,
    )
    assert (net.send_max_cost, net.log_merge, net.log_max_lines) == (2.0, True, 4)
    NetworkConfig(name="t", host="h", log_max_lines=0)  # no limit
    for bad in (
        {"log_max_lines": 1},
        {"log_max_lines": -1},
        {"send_penalty_ratio": 0},
        {"send_penalty_bytes": 0},
        {"send_max_cost": 0.5},
        {"send_interval": -1},
        {"send_burst": 0},
    ):
        with pytest.raises(ValidationError):
            NetworkConfig(name="t", host="h", **bad)


# ------------------------------------------------------------------ merging and the pointer


def test_short_lines_are_joined_up_to_the_room() -> None:
    assert merge_lines(["a" * 10, "b" * 10, "c" * 10], room=23) == ["a" * 10 + " | " + "b" * 10, "c" * 10]
    assert merge_lines(["é" * 10, "x"], room=23) == ["é" * 10, "x"]  # 20 bytes + 3 + 1 > 23
    assert merge_lines(["a" * 30, "b"], room=20) == ["a" * 30, "b"]  # too long already: left alone


def test_a_long_entry_is_cut_with_a_pointer_in_the_gateways_language() -> None:
    lines = [f"line {i}" for i in range(10)]
    assert summarise(lines, 4, command="!st log Mira", locale="en") == [
        "line 0",
        "line 1",
        "line 2",
        "(+7 more lines: !st log Mira)",
    ]
    assert summarise(lines, 0, command="!st log", locale="en") == lines
    assert summarise(lines[:4], 4, command="!st log", locale="en") == lines[:4]
    cs = [summarise(lines[: n + 1], 2, command="!st log", locale="cs")[-1] for n in (2, 3, 6)]
    assert cs == ["(ještě 2 řádky: !st log)", "(ještě 3 řádky: !st log)", "(ještě 6 řádků: !st log)"]
    ru = [summarise(lines[: n + 1], 2, command="!st log", locale="ru")[-1] for n in (2, 5, 9)]
    assert ru == ["(ещё 2 строки: !st log)", "(ещё 5 строк: !st log)", "(ещё 9 строк: !st log)"]
    assert summarise(lines[:3], 2, command="!st log", locale="en")[-1] == "(+2 more lines: !st log)"
    assert summarise(["a"] * 3, 2, command="x", locale="cs")[-1] == "(ještě 2 řádky: x)"
    assert summarise(["a"] * 2 + ["b"], 2, command="x", locale="ru") == ["a", "(ещё 2 строки: x)"]
    assert entry_name({"kind": "sheet", "sheet": {"name": "Mira"}}) == "Mira"
    assert entry_name({"kind": "st_edit", "character": "Old Joe"}) == "Old Joe"
    assert entry_name({"kind": "roll"}) is None and entry_name(None) is None


# ------------------------------------------------------------------ at a real server

INTERVAL = 0.4


def from_bot(ln: Line) -> bool:
    return ln.command in ("PRIVMSG", "NOTICE") and ln.nick == "nightcap"


async def test_a_reply_goes_before_the_waiting_storyteller_log(irc: Harness) -> None:
    server = await irc.miniircd()
    st = await irc.client(server.port, "storyteller", "#game", "#st")
    alice = await irc.client(server.port, "alice", "#game")
    network = {"host": "127.0.0.1", "port": server.port, "channels": ["#game"]}
    gateway = await irc.gateway(
        {"test": {**network, "send_interval": INTERVAL, "send_burst": 4}}, stlog=["irc:test/#st"]
    )
    await st.wait_for(lambda ln: ln.command == "JOIN" and ln.nick == "nightcap" and ln.params[0] == "#st")
    count = 20
    await queue_log(gateway, [f"log line {i:02d}" for i in range(count)])
    for _ in range(4):
        await st.wait_for(from_bot)  # the burst is out: the log channel is busy now

    irc.dice.extend([7])
    await alice.say("#game", "!roll 1")
    command = await st.wait_for(lambda ln: ln.nick == "alice" and ln.text == "!roll 1")
    reply = await st.wait_for(lambda ln: from_bot(ln) and ln.params[0] == "#game", timeout=30)
    assert reply.text.startswith("alice rolls 1 die: 7")
    between = [ln for ln in st.lines if from_bot(ln) and command.at <= ln.at <= reply.at]
    assert len([ln for ln in between if ln.params[0] == "#st"]) <= 1, [ln.text for ln in between]

    # Nothing lost or reordered: every log line in order, then the roll's own log line.
    seen = [ln for ln in st.lines if from_bot(ln) and ln.params[0] == "#st"]
    while len(seen) < count + 1:
        await st.wait_for(from_bot, timeout=30)
        seen = [ln for ln in st.lines if from_bot(ln) and ln.params[0] == "#st"]
    texts = [ln.text for ln in seen]
    assert texts[:count] == [f"log line {i:02d}" for i in range(count)]
    assert texts[count].startswith("alice rolls 1 die: 7")
    assert len([ln for ln in seen if ln.at > reply.at]) >= 10  # the reply did not wait for them
    at = [ln.at for ln in seen]
    assert at[-1] - at[0] >= (count - 4) * INTERVAL * 0.9  # still paced
    async with gateway.services.vault.transaction() as session:
        rows = (await session.exec(select(OutboxRow))).all()
    assert {r.status for r in rows} == {"delivered"}


async def test_a_long_log_entry_comes_merged_and_cut_with_a_pointer(irc: Harness) -> None:
    server = await irc.miniircd()
    st = await irc.client(server.port, "storyteller", "#st")
    gateway = await irc.gateway(
        {"test": {"host": "127.0.0.1", "port": server.port, "channels": ["#game"]}}, stlog=["irc:test/#st"]
    )
    await st.wait_for(lambda ln: ln.command == "JOIN" and ln.nick == "nightcap" and ln.params[0] == "#st")
    sheet = ["Storyteller bob approved Mira:", "Mira (approved), player alice", "Body 3 Mind 2 Soul 1"]
    await queue_log(gateway, ["\n".join(sheet)], {"kind": "sheet", "sheet": {"name": "Mira"}})
    (line,) = await st.messages_from("nightcap", 1)
    assert line.text == " | ".join(sheet)

    paragraphs = [f"paragraph {i} " + "word " * 60 for i in range(8)]  # 8 lines of ~320 bytes
    await queue_log(gateway, ["\n".join(paragraphs)], {"kind": "st_edit", "character": "Mira"})
    lines = await st.messages_from("nightcap", 4)
    assert [ln.text for ln in lines[:3]] == [p.rstrip() for p in paragraphs[:3]]
    assert lines[3].text == "(+5 more lines: !st log Mira)"
    await asyncio.sleep(0.3)
    assert st.unread(from_bot) == []


async def test_quick_rolls_are_answered_ahead_of_their_log_copies(irc: Harness) -> None:
    """The issue's eight quick ``!roll 1``: the replies take the bucket, the log copies what is left."""
    server = await irc.miniircd()
    st = await irc.client(server.port, "storyteller", "#game", "#st")
    alice = await irc.client(server.port, "alice", "#game")
    network = {"host": "127.0.0.1", "port": server.port, "channels": ["#game"]}
    await irc.gateway({"test": {**network, "send_interval": 0.3, "send_burst": 4}}, stlog=["irc:test/#st"])
    await st.wait_for(lambda ln: ln.command == "JOIN" and ln.nick == "nightcap" and ln.params[0] == "#st")
    irc.dice.extend([7] * 8)
    for _ in range(8):
        await alice.say("#game", "!roll 1")
    lines = await st.messages_from("nightcap", 16, timeout=30)
    where = [ln.params[0] for ln in lines]
    assert where.count("#game") == where.count("#st") == 8
    last_reply = max(i for i, w in enumerate(where) if w == "#game")
    assert where[:last_reply].count("#st") <= 3, where
