"""Restarts, rate limits, idempotent sends and several accounts, against a real Synapse."""

from __future__ import annotations

import asyncio
import inspect
from typing import Any

import pytest
from mautrix.api import Method
from mautrix.api import Path as MxPath

from adapters.matrix import account as account_module
from adapters.matrix.render import render_content
from gateway.core.dice import ScriptedDice
from gateway.core.types import Channel, Identity, InboundMessage, Outbound
from tests.matrix.conftest import (
    WAIT_CEILING,
    MatrixUser,
    Running,
    gateway_settings,
    register_bot,
    start_gateway,
)
from tests.matrix.synapse import Synapse
from tests.matrix.test_rooms import bot_in_room


def replied_to(notices: list[dict[str, Any]]) -> list[str]:
    return [n["content"]["m.relates_to"]["m.in_reply_to"]["event_id"] for n in notices]


async def settled(running: Running) -> list[Any]:
    """The outbox once no row is pending: a room can show an event before the outbox has written
    down that it was sent."""

    async def none_pending() -> bool:
        return all(r.status != "pending" for r in await running.outbox())

    await until(none_pending, "every row to be settled")
    return await running.outbox()


async def until(condition: Any, what: str) -> None:
    """Poll a local condition (the vault, the adapter) until it holds; the ceiling only stops a hang."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + WAIT_CEILING
    while not (await value if inspect.isawaitable(value := condition()) else value):
        if loop.time() > deadline:
            raise AssertionError(f"gave up waiting for {what}")
        await asyncio.sleep(0.1)


async def test_gateway_restart_neither_replays_nor_misses(
    synapse: Synapse, vault_url: str, users: Any, gateways: list[Running], monkeypatch: pytest.MonkeyPatch
) -> None:
    """On SQLite, and on PostgreSQL when the suite has one (``vault_url``)."""
    running, mira, room = await bot_in_room(synapse, vault_url, users, gateways, [8])
    bot_id = running.account().user_id
    first = await mira.send(room, "!roll 1")
    await mira.wait_for(lambda: mira.notices(room, bot_id), "the first reply")
    session = await running.kv("matrix:main", "session")
    await running.stop()

    # While the gateway is down: more commands than the homeserver will put in one timeline, so the
    # restarted gateway sees a cut-short timeline and has to fill the gap from /messages.
    monkeypatch.setattr(account_module, "TIMELINE_LIMIT", 2)
    missed = [await mira.send(room, f"!roll {n}") for n in (1, 2, 3, 4)]

    restarted = await start_gateway(running.gateway.settings, ScriptedDice([7] * 10 + [9]))
    gateways.append(restarted)
    await mira.wait_for(lambda: len(mira.notices(room, bot_id)) >= 5, "the missed replies")
    last = await mira.send(room, "!roll 1")
    await mira.wait_for(lambda: len(mira.notices(room, bot_id)) >= 6, "the last reply")

    notices = mira.notices(room, bot_id)
    assert replied_to(notices) == [first, *missed, last]  # each command answered once, in order
    bodies = [n["content"]["body"].rsplit(" #", 1)[0] for n in notices]
    assert bodies == [
        "Mira rolls 1 die: 8 → 1 (Marginal)",
        "Mira rolls 1 die: 7 → 1 (Marginal)",
        "Mira rolls 2 dice: 7 7 → 2 (Solid)",
        "Mira rolls 3 dice: 7 7 7 → 3 (Solid)",
        "Mira rolls 4 dice: 7 7 7 7 → 4 (Strong)",
        "Mira rolls 1 die: 9 → 1 (Marginal)",
    ]
    account = restarted.account()
    assert account.stats["gaps_filled"] == 1
    # Logged in once: the restart reused the token and device from the vault.
    assert account.stats["logins"] == 0
    assert await restarted.kv("matrix:main", "session") == session
    devices = await account.api.api.request(Method.GET, MxPath.v3.devices)
    assert [d["device_id"] for d in devices["devices"]] == [session["device_id"]]


async def test_synapse_restart_recovers_and_delivers_queued_stlog_lines_once(
    synapse: Synapse, vault_url: str, users: Any, gateways: list[Running]
) -> None:
    """On SQLite, and on PostgreSQL when the suite has one (``vault_url``)."""
    bot = await register_bot(synapse)
    st: MatrixUser = await users("st", "Storyteller")
    st_room = await st.create_room(invite=[bot.user_id])
    settings = gateway_settings(
        vault_url,
        synapse,
        {"main": {"user_id": bot.user_id, "allowed_inviters": [st.user_id]}},
        stlog=[f"matrix:{st_room}"],
    )
    running = await start_gateway(settings, ScriptedDice([9, 5, 10, 7, 2, 8, 8]))
    gateways.append(running)
    await st.wait_for(lambda: st.membership(st_room, bot.user_id) == "join", "the bot to join")
    account = running.account()

    await asyncio.to_thread(synapse.stop)
    try:
        # Rolls made elsewhere (the console) while the homeserver is down queue Storyteller-log rows.
        for pool in (3, 2, 1):
            message = InboundMessage(
                sender=Identity("console", "dorian", "Dorian"),
                channel=Channel("console", "main"),
                text=f"roll {pool}",
            )
            [reply] = await running.gateway.services.handle(message)
            assert reply.error is None

        async def head_met_it() -> bool:
            # One queue per room: only the head row is tried; the others wait behind it, in order.
            rows = await running.outbox()
            return (rows[0].last_error or "").startswith("network: ")

        await until(head_met_it, "the head row to meet the dead homeserver")
        rows = await running.outbox()
        # An unreachable homeserver is not a failed attempt: no row moves towards max_attempts.
        assert [(r.status, r.attempts, r.last_error is not None) for r in rows] == [
            ("pending", 0, True),
            ("pending", 0, False),
            ("pending", 0, False),
        ]
    finally:
        await asyncio.to_thread(synapse.start)

    await st.wait_for(lambda: len(st.notices(st_room, bot.user_id)) >= 3, "the queued log lines")
    await until(lambda: account.stats["recoveries"] >= 1, "the sync loop to recover")
    # The sync loop works again: a command in the room is answered (its log line follows it).
    command = await st.send(st_room, "!roll 1")
    await st.wait_for(lambda: len(st.notices(st_room, bot.user_id)) >= 5, "the answer after recovery")

    rows = await settled(running)
    assert [r.status for r in rows] == ["delivered"] * 5
    # Seen through the bot's own device, each event carries the transaction id of its outbox row:
    # every row was sent exactly once, with its stable id.
    token = (await running.kv("matrix:main", "session"))["access_token"]
    botview = await MatrixUser.with_token(synapse.url, bot.user_id, token)
    try:
        await botview.sync_once(0)
    finally:
        await botview.close()
    mine = botview.notices(st_room, bot.user_id)
    assert [e["unsigned"]["transaction_id"] for e in mine] == [running.adapter.txn_id(r.id) for r in rows]
    assert [e["content"]["body"] for e in mine] == [r.payload["text"] for r in rows]
    assert [e["content"]["body"].rsplit(" #", 1)[0] for e in mine[:3]] == [
        "Dorian rolls 3 dice: 9 5 10 → 3 (Solid)",
        "Dorian rolls 2 dice: 7 2 → 1 (Marginal)",
        "Dorian rolls 1 die: 8 → 1 (Marginal)",
    ]
    # The command in the Storyteller room: its log line was queued in the handler, its reply after.
    assert mine[3]["content"]["body"] == mine[4]["content"]["body"]
    assert "m.relates_to" not in mine[3]["content"]
    assert replied_to(mine[4:]) == [command]


async def test_rate_limited_replies_are_delayed_not_lost(
    synapse: Synapse, synapse_admin: str, vault: str, users: Any, gateways: list[Running]
) -> None:
    running, mira, room = await bot_in_room(synapse, vault, users, gateways, [8, 8, 8, 8, 8])
    account = running.account()
    synapse.override_ratelimit(synapse_admin, account.user_id, per_second=2, burst=1)
    try:
        commands = [await mira.send(room, "!roll 1") for _ in range(5)]
        await mira.wait_for(lambda: len(mira.notices(room, account.user_id)) >= 5, "every reply")
    finally:
        synapse.clear_ratelimit(synapse_admin, account.user_id)

    assert replied_to(mira.notices(room, account.user_id)) == commands  # all, once each, in order
    assert account.stats["rate_limited"] >= 1
    rows = await settled(running)
    assert [r.status for r in rows] == ["delivered"] * 5
    # Waiting for Retry-After is not a failed attempt: it would lengthen the backoff after real failures.
    assert [r.attempts for r in rows] == [1] * 5


async def test_a_retried_row_posts_once(
    synapse: Synapse, vault: str, users: Any, gateways: list[Running]
) -> None:
    running, mira, room = await bot_in_room(synapse, vault, users, gateways, [])
    adapter = running.adapter
    account = running.account()
    content = render_content({"text": "only once"})
    txn = adapter.txn_id(424242)
    assert await account.send(room, content, txn) == await account.send(room, content, txn)

    # A crash after the homeserver took the event but before the row was marked: the retry reuses
    # the row's transaction id and the homeserver answers with the first event.
    row = Outbound(
        id=424243, platform="matrix", target=room, payload={"text": "crash, retry", "kind": "stlog"}
    )
    await adapter.deliver(row)
    await adapter.deliver(row)
    await adapter.deliver(Outbound(id=424244, platform="matrix", target=room, payload={"text": "marker"}))
    await mira.wait_for(
        lambda: any(n["content"]["body"] == "marker" for n in mira.notices(room)), "the marker"
    )
    assert [n["content"]["body"] for n in mira.notices(room, account.user_id)] == [
        "only once",
        "crash, retry",
        "marker",
    ]


async def test_several_accounts_each_room_served_by_the_account_in_it(
    synapse: Synapse, vault: str, users: Any, gateways: list[Running]
) -> None:
    main, alt = await register_bot(synapse), await register_bot(synapse)
    st: MatrixUser = await users("st", "Storyteller")
    shared = await st.create_room(invite=[main.user_id, alt.user_id])
    log_room = str(
        await st.client.create_room(alias_localpart=f"stlog{main.localpart}", invitees=[alt.user_id])
    )
    alias = f"#stlog{main.localpart}:localhost"
    settings = gateway_settings(
        vault,
        synapse,
        {
            "main": {"user_id": main.user_id, "allowed_inviters": [st.user_id]},
            "alt": {"user_id": alt.user_id, "allowed_inviters": [st.user_id]},
        },
        stlog=[f"matrix:{alias}"],
    )
    running = await start_gateway(settings, ScriptedDice([8, 3]))
    gateways.append(running)
    for room, bots in ((shared, (main, alt)), (log_room, (alt,))):
        for bot in bots:
            await st.wait_for(lambda r=room, b=bot: st.membership(r, b.user_id) == "join", "the joins")

    # Both bots read the shared room; the command runs once, and the first account answers.
    first = await st.send(shared, "!roll 1")
    second = await st.send(shared, "!roll 1")
    await st.wait_for(lambda: len(st.notices(shared)) >= 2, "two replies")
    await st.wait_for(lambda: len(st.notices(log_room)) >= 2, "two log lines")
    assert replied_to(st.notices(shared)) == [first, second]
    assert {n["sender"] for n in st.notices(shared)} == {main.user_id}
    assert {n["sender"] for n in st.notices(log_room)} == {alt.user_id}
    assert [n["content"]["body"].split(" #")[0] for n in st.notices(log_room)] == [
        "Storyteller rolls 1 die: 8 → 1 (Marginal)",
        "Storyteller rolls 1 die: 3 → 0 (Failure)",
    ]
    # Each bot passed both commands on; the router ran each once (its message id is the event id).
    assert running.account("main").stats["commands"] == running.account("alt").stats["commands"] == 2
    assert running.dice.remaining == 0
    # Routing rules: an explicit account, an alias, and the joined account.
    assert [(a.name, r) for a, r in [await running.adapter.route(f"alt/{shared}")]] == [("alt", shared)]
    assert [(a.name, r) for a, r in [await running.adapter.route(alias)]] == [("alt", log_room)]
    assert [(a.name, r) for a, r in [await running.adapter.route(shared)]] == [("main", shared)]
