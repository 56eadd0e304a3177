"""Two gateway processes on one vault (SQLite file or PostgreSQL) and one miniircd: one connection,
each command answered once, and the standby takes over when the owner stops or dies.

``vault_url`` comes first in each signature so that its PostgreSQL database is dropped only after the
harness has stopped the gateways."""

from __future__ import annotations

import asyncio
import time

import pytest
from sqlalchemy import func
from sqlmodel import select

from gateway.core.app import Gateway
from gateway.core.errors import Elsewhere
from gateway.core.types import Outbound
from gateway.vault import repo
from gateway.vault.models import OutboxRow, RollLog
from tests.irc.conftest import Harness, adapter, connection, eventually
from tests.irc.test_miniircd import said_by

FAILOVER = 1.5  # [cluster] failover_seconds in these tests


async def roll_count(gateway: Gateway) -> int:
    async with gateway.services.vault.transaction() as session:
        return int((await session.exec(select(func.count()).select_from(RollLog))).one())


async def two_gateways(irc: Harness, vault_url: str, port: int) -> tuple[Gateway, Gateway]:
    net = {"test": {"host": "127.0.0.1", "port": port, "channels": ["#game"]}}
    cluster = {"failover_seconds": FAILOVER}
    first = await irc.gateway(net, vault_url=vault_url, cluster=cluster)
    second = await irc.gateway(net, vault_url=vault_url, cluster=cluster, wait=False)
    return first, second


async def kill(irc: Harness, gateway: Gateway) -> None:
    """Stop a gateway the way a crash would look to the others: its lease is not released."""

    async def no_release(lease: object) -> None:
        return None

    assert gateway.services.leases is not None
    gateway.services.leases.release = no_release  # type: ignore[method-assign]
    await gateway.stop()
    irc.gateways.remove(gateway)


async def test_two_processes_answer_each_command_once_and_fail_over(vault_url: str, irc: Harness) -> None:
    server = await irc.miniircd()
    alice = await irc.client(server.port, "alice", "#game")
    first, second = await two_gateways(irc, vault_url, server.port)
    await alice.wait_for(lambda ln: ln.command == "JOIN" and ln.nick == "nightcap")
    await asyncio.sleep(FAILOVER)  # the standby had every chance to connect, and must not have
    assert connection(second).connections_made == 0
    assert adapter(first).owns("test") and not adapter(second).owns("test")

    irc.dice.extend([9, 5, 10] * 5)
    for _ in range(5):
        await alice.say("#game", "!roll 3")
    replies = await alice.messages_from("nightcap", 5)
    assert all(ln.command == "PRIVMSG" and ln.params[0] == "#game" for ln in replies)
    await asyncio.sleep(0.5)
    assert alice.unread(said_by("nightcap")) == []
    assert await roll_count(first) == 5

    # The owner dies: the standby connects (with the same nick) within failover_seconds and answers.
    await kill(irc, first)
    died = time.monotonic()
    leases = second.services.leases
    assert leases is not None
    await eventually(lambda: _holds(second), timeout=3 * FAILOVER)
    took_over = time.monotonic() - died
    await asyncio.wait_for(connection(second).ready.wait(), 3 * FAILOVER)
    print(f"lease taken over in {took_over:.3f} s, connected at {time.monotonic() - died:.3f} s")
    # The lease runs 0.75 F and a standby looks every F / 10; what is left is one event-loop turn.
    assert took_over <= FAILOVER, took_over
    assert connection(second).nick == "nightcap"
    irc.dice.extend([9, 5, 10])
    await alice.say("#game", "!roll 3")
    line = await alice.wait_for(said_by("nightcap"))
    assert line.params[0] == "#game" and line.text.startswith("alice rolls 3 dice: 9 5 10")
    assert await roll_count(second) == 6


async def _holds(gateway: Gateway) -> bool:
    assert gateway.services.leases is not None
    return "irc:test" in gateway.services.leases.held


async def test_a_clean_stop_hands_the_connection_over_at_once(vault_url: str, irc: Harness) -> None:
    server = await irc.miniircd()
    alice = await irc.client(server.port, "alice", "#game")
    first, second = await two_gateways(irc, vault_url, server.port)
    await alice.wait_for(lambda ln: ln.command == "JOIN" and ln.nick == "nightcap")
    await first.stop()
    irc.gateways.remove(first)
    stopped = time.monotonic()
    await asyncio.wait_for(connection(second).ready.wait(), 3 * FAILOVER)
    assert time.monotonic() - stopped < FAILOVER / 2  # released, not expired
    await alice.wait_for(lambda ln: ln.command == "JOIN" and ln.nick == "nightcap")
    irc.dice.extend([9, 5, 10])
    await alice.say("#game", "!roll 3")
    line = await alice.wait_for(said_by("nightcap"))
    assert line.text.startswith("alice rolls 3 dice")


async def test_a_process_that_does_not_own_the_network_leaves_its_rows_for_the_owner(
    vault_url: str, irc: Harness
) -> None:
    """A Storyteller-log line queued by the standby (say, for a command it took over HTTP) is sent by
    the owner: the standby's worker hands the row back due at once instead of failing it."""
    server = await irc.miniircd()
    alice = await irc.client(server.port, "alice", "#game")
    first, second = await two_gateways(irc, vault_url, server.port)
    await alice.wait_for(lambda ln: ln.command == "JOIN" and ln.nick == "nightcap")
    row = Outbound(id=1, platform="irc", target="test/#game", payload={"text": "x"}, attempts=0)
    with pytest.raises(Elsewhere) as raised:  # not a failed attempt: the row is simply not ours
        await adapter(second).deliver(row)
    assert raised.value.delay is not None and raised.value.delay <= 1.0
    async with second.services.vault.unit() as unit:
        await repo.enqueue(unit, "irc", "test/#game", {"kind": "stlog", "text": "from the standby"})
    second.outbox.wake()
    line = await alice.wait_for(said_by("nightcap"), timeout=10)
    assert line.text == "from the standby"
    await eventually(lambda: _delivered(first), timeout=5)


async def _delivered(gateway: Gateway) -> bool:
    async with gateway.services.vault.transaction() as session:
        rows = (await session.exec(select(OutboxRow))).all()
    # Delivered in one attempt, however often the standby handed the row back.
    return bool(rows) and all(r.status == "delivered" and r.attempts == 1 for r in rows)


async def test_lines_read_after_the_lease_ran_out_are_not_run(vault_url: str, irc: Harness) -> None:
    """A process paused past its lease (SIGSTOP, a stalled VM) still has its TCP connection when it
    wakes, and lines the server had buffered; another process may own the network by then and have
    run them. Without a msgid the router could not tell, so such lines are dropped."""
    server = await irc.miniircd()
    alice = await irc.client(server.port, "alice", "#game")
    gateway = await irc.gateway(
        {"test": {"host": "127.0.0.1", "port": server.port, "channels": ["#game"]}},
        vault_url=vault_url,
        cluster={"failover_seconds": FAILOVER},
    )
    await alice.wait_for(lambda ln: ln.command == "JOIN" and ln.nick == "nightcap")
    lease = adapter(gateway)._leases["test"]
    lease.time_left = lambda: 0.0  # type: ignore[method-assign]  # as it looks on waking up
    irc.dice.extend([9, 5, 10])
    await alice.say("#game", "!roll 3")
    await asyncio.sleep(1.0)
    assert alice.unread(said_by("nightcap")) == []
    assert await roll_count(gateway) == 0
    del lease.time_left
    await alice.say("#game", "!roll 3")
    line = await alice.wait_for(said_by("nightcap"))
    assert line.text.startswith("alice rolls 3 dice")
