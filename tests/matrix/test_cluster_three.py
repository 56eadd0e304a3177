"""Three real ``gateway serve`` processes on one PostgreSQL vault with one Matrix account on the real
Synapse: one sync loop at any time, kill -9 of the owner is followed by the standby's sync within
``[cluster] failover_seconds``, and every Storyteller-log line, queued before, during and after the
failover through ``POST /api/v1/command`` of the three processes in turn, is one event in the room.

The gateways reach Synapse through ``Door``, a reverse proxy on loopback that records each request
the bot makes as the homeserver receives it: every ``/sync`` with the moment it came in and the
moment it ended (a request whose caller was killed ends when its connection does), and every
``PUT .../send/{txnId}``. Two ``/sync`` in flight at once would be two sync loops. The room's
events are read by a member of the room straight from Synapse and counted by the roll id ending
each line; a row sent again after the kill carries its transaction id, which Synapse answers with
the event it already has, so no copy is allowed here. A line queued while every process is up
reaches the homeserver within 100 ms of the API's reply at the median and 1 s at most
(``check_handover``).
"""

from __future__ import annotations

import asyncio
import itertools
import json
import re
import statistics
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from aiohttp import web
from mautrix.api import Method
from mautrix.api import Path as MxPath

from tests.fault.cluster import (
    GatewayProc,
    Roller,
    check_handover,
    cluster,
    delay_figures,
    drain,
    kill_all,
    lease_pid,
    migrate,
    roll_ids,
    serve_tables,
    start_all,
    stop_all,
)
from tests.matrix.conftest import PASSWORD, MatrixUser, register_bot
from tests.matrix.synapse import Synapse

FAILOVER = 2.0
PACE = 0.15  # seconds between rolls
DRAIN = 40.0  # seconds the outbox may take to send the last rows
ROLL_ID = re.compile(r"#([0-9a-z]+)\s*$")
HOP = {"host", "content-length", "transfer-encoding", "connection", "content-encoding", "keep-alive"}
pytestmark = pytest.mark.parametrize(
    "vault_url", [pytest.param("postgresql", marks=pytest.mark.postgres)], indirect=True
)


@dataclass
class Call:
    path: str
    token: str
    start: float  # time.monotonic()
    end: float | None = None
    status: int | None = None
    body: bytes = b""


@dataclass
class Door:
    """A reverse proxy to ``upstream`` that records what comes through it (see the module doc)."""

    upstream: str
    calls: list[Call] = field(default_factory=list)
    in_flight_syncs: int = 0
    most_syncs: int = 0  # the most /sync requests in flight at one moment
    url: str = ""
    _runner: web.AppRunner | None = None
    _http: aiohttp.ClientSession | None = None

    async def start(self) -> None:
        self._http = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=120), auto_decompress=False)
        app = web.Application(client_max_size=16 * 1024 * 1024)
        app.router.add_route("*", "/{tail:.*}", self._forward)
        # A request whose caller went away (kill -9) is cancelled, so it ends when its connection does.
        self._runner = web.AppRunner(app, handler_cancellation=True, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        self.url = f"http://127.0.0.1:{port}"

    def syncs(self) -> list[Call]:
        return [c for c in self.calls if c.path.endswith("/sync")]

    def sends(self) -> list[Call]:
        return [c for c in self.calls if "/send/" in c.path]

    async def _forward(self, request: web.Request) -> web.StreamResponse:
        assert self._http is not None
        call = Call(request.path, request.headers.get("Authorization", ""), time.monotonic())
        self.calls.append(call)
        sync = call.path.endswith("/sync")
        if sync:
            self.in_flight_syncs += 1
            self.most_syncs = max(self.most_syncs, self.in_flight_syncs)
        try:
            headers = {k: v for k, v in request.headers.items() if k.lower() not in HOP}
            call.body = await request.read()
            async with self._http.request(
                request.method, self.upstream + request.path_qs, headers=headers, data=call.body
            ) as upstream:
                body = await upstream.read()
                call.status = upstream.status
                back = {k: v for k, v in upstream.headers.items() if k.lower() not in HOP}
                return web.Response(status=upstream.status, body=body, headers=back)
        finally:
            call.end = time.monotonic()
            if sync:
                self.in_flight_syncs -= 1

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
        if self._http is not None:
            await self._http.close()


def owners_last(call: Call) -> bool:
    """A call the killed owner may have sent just before it died (its sync loop and its sends)."""
    return call.path.endswith("/sync") or "/send/" in call.path


def most_at_once(calls: list[Call]) -> int:
    """The most intervals [start, end] that overlap at one moment (a sweep over their ends)."""
    edges = sorted(
        itertools.chain.from_iterable(((c.start, 1), (c.end or float("inf"), -1)) for c in calls),
        key=lambda e: (e[0], e[1]),
    )
    most = now = 0
    for _, step in edges:
        now += step
        most = max(most, now)
    return most


async def stlog_lines(user: MatrixUser, room: str, bot: str) -> list[str]:
    """Every message ``bot`` posted in ``room``, from the room's history on the homeserver."""
    lines: list[str] = []
    query = {"dir": "b", "limit": "500"}
    while True:
        page = await user.client.api.request(Method.GET, MxPath.v3.rooms[room].messages, query_params=query)
        for event in page.get("chunk") or []:
            if event.get("type") == "m.room.message" and event.get("sender") == bot:
                lines.append(str((event.get("content") or {}).get("body") or ""))
        if not page.get("end") or not page.get("chunk"):
            return lines
        query["from"] = page["end"]


async def test_three_processes_one_sync_loop_failover_and_each_line_once(
    vault_url: str, synapse: Synapse, users: Any, tmp_path: Path
) -> None:
    await migrate(vault_url)
    bot = await register_bot(synapse)
    mira: MatrixUser = await users("mira", "Mira")
    room = await mira.create_room(invite=[bot.user_id])
    door = Door(synapse.url)
    await door.start()
    account = {
        "homeserver": door.url,
        "user_id": bot.user_id,
        "password": PASSWORD,
        "sync_timeout": 5,
        "allowed_inviters": [mira.user_id],
    }
    procs = cluster(
        tmp_path,
        3,
        serve_tables(vault_url, failover=FAILOVER, stlog=[f"matrix:{room}"], matrix__main=account),
    )
    roller = Roller(procs)

    try:
        await start_all(procs)
        await mira.wait_for(lambda: mira.membership(room, bot.user_id) == "join", "the bot to join")
        async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=10)) as http:
            # Paced below what Synapse sends into one room here (about 50 ms a message, one at a
            # time per target), so that a line's delay is the hand-over and not a queue.
            assert (await roller.one(http)).roll_id
            sender = asyncio.create_task(roller.forever(http, gap=PACE))
            await roller.until(15)

            pid = await lease_pid(vault_url, "matrix:main")
            owner: GatewayProc = next(p for p in procs if p.proc is not None and p.proc.pid == pid)
            roller.dead.add(owner.name)
            owner.kill9()
            killed = time.monotonic()
            deadline = killed + 6 * FAILOVER
            # The standby prepares (`/joined_rooms`) before it syncs. A /sync or /send the killed owner
            # sent just before it died may reach this proxy after ``killed`` on a busy machine: only
            # the calls of a process starting its account count.
            while not (
                prepared := [c for c in door.calls if c.start > killed and c.path.endswith("/joined_rooms")]
            ):
                assert time.monotonic() < deadline, "no standby prepared its account after the kill"
                await asyncio.sleep(0.01)
            while not any(c.start > prepared[0].start for c in door.syncs()):
                assert time.monotonic() < deadline, "no sync after the kill"
                await asyncio.sleep(0.01)
            took_over = min(c.start for c in door.syncs() if c.start > prepared[0].start) - killed
            first = min(c.start for c in door.calls if c.start > killed and not owners_last(c)) - killed
            print(
                f"kill -9 at 0: the standby's first request reached the homeserver at {first:.3f} s, "
                f"its first /sync at {took_over:.3f} s (failover_seconds = {FAILOVER})"
            )
            await roller.until(len(roller.sent) + 20)
            sender.cancel()
            await asyncio.gather(sender, return_exceptions=True)
            last = await roller.one(http)  # the room's queue is delivered in order: this one comes last
            assert last.roll_id

        committed = set(await roll_ids(vault_url))
        drained = await drain(vault_url, "matrix", DRAIN)
        deadline = time.monotonic() + 10  # every row is marked delivered: its event is in the room
        while drained and not any(
            ln.endswith(f"#{last.roll_id}") for ln in await stlog_lines(mira, room, bot.user_id)
        ):
            assert time.monotonic() < deadline, "the last line never came"
            await asyncio.sleep(0.1)
    finally:
        await stop_all(procs)
        kill_all()
        await door.stop()

    syncs = door.syncs()
    print(
        f"{len(syncs)} /sync requests, at most {door.most_syncs} in flight at once, "
        f"{len({c.token for c in syncs})} access token(s); {len(door.sends())} sends"
    )
    assert door.most_syncs == 1 and most_at_once(syncs) == 1
    assert first <= FAILOVER, first  # the lease within 0.85 F; then /joined_rooms, then /sync
    assert took_over <= FAILOVER + 1.0, took_over
    if not drained:  # pending, not lost: the rows are still in the outbox
        raise AssertionError(f"Matrix rows still pending {DRAIN} s after the last roll")

    answered = {s.roll_id for s in roller.sent if s.roll_id}
    assert answered <= committed
    phases = Counter(
        "before" if s.sent < killed else "during" if s.sent < killed + took_over else "after"
        for s in roller.sent
        if s.roll_id
    )
    print(dict(phases), "rolls answered;", len(committed), "committed")
    assert min(phases[p] for p in ("before", "during", "after")) >= 3, phases
    copies: Counter[str] = Counter()
    for line in await stlog_lines(mira, room, bot.user_id):
        found = ROLL_ID.search(line)
        assert found, line
        copies[found.group(1)] += 1
    txns = Counter(c.path.rsplit("/", 1)[1] for c in door.sends())
    took = sorted((c.end or c.start) - c.start for c in door.sends())
    print(
        f"{len(copies)} lines; transaction ids sent more than once: {sum(n > 1 for n in txns.values())};"
        f" a send took p50 {statistics.median(took) * 1000:.0f} ms, max {took[-1] * 1000:.0f} ms"
    )
    assert set(copies) == committed, (committed - set(copies), set(copies) - committed)
    assert {r: n for r, n in copies.items() if n > 1} == {}

    # The hand-over: the lines of rolls answered while all was well
    # (not from just before the kill to a second after the standby's first sync, when a backlog is
    # sent) reached the homeserver soon after their reply (check_handover says how soon).
    first_send: dict[str, float] = {}
    for call in door.sends():
        found = ROLL_ID.search(str(json.loads(call.body or b"{}").get("body") or ""))
        if found:
            first_send.setdefault(found.group(1), call.start)
    quiet = {
        s.roll_id: first_send[s.roll_id] - s.answered
        for s in roller.sent
        if s.roll_id and s.answered and not killed - 0.25 <= s.answered <= killed + took_over + 1.0
    }
    print(delay_figures(quiet))
    check_handover(quiet)
