"""Benchmark: the signed-in web pages and the live Storyteller log.

1. Server time per page (a middleware times each handler, so the client's own work is not counted)
   with 10 and with 10,000 Nightcap characters in the vault: my characters, a sheet, the roster,
   a name search, a management profile, the Storyteller log page.
2. ``--viewers`` (100) live-log streams open at once while rolls arrive through the router at
   ``--rate`` (100) a second for ``--seconds``: the delay from a roll's command being handed to the
   router to its event reaching each viewer, p50 / p99 / max over every (viewer, roll), and from the
   roll's commit (its reply back) to the viewer: the live log's own part, without the wait for a
   vault that takes fewer rolls a second than asked.

Both on SQLite and on PostgreSQL in one run: a fresh SQLite file, then a throw-away PostgreSQL cluster
with the server's durable defaults (``tests.bench.pg``; ``--postgres URL`` uses that server instead,
if it is durable). On PostgreSQL each roll reaches the viewers through its ``NOTIFY`` like a roll of
another process would (the hub's after-commit events), on SQLite through the same events in-process.

Run: ``.venv/bin/python -m tests.bench.web_live [--only sqlite|postgres] [--postgres URL]
[--vault URL] [--viewers 100] [--rate 100] [--seconds 10] [--requests 30] [--live-only]``.
``--vault URL`` measures that one vault only. The server and the roll driver share one event loop
(the viewers are a child process), so the figures include that contention.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from aiohttp import ClientSession, ClientTimeout, web
from aiohttp.test_utils import TestClient, TestServer
from aiohttp.typedefs import Handler
from sqlmodel import col, select

from gateway.core.app import Gateway, build_app
from gateway.core.settings import Settings
from gateway.core.types import Channel, Identity, InboundMessage
from gateway.features.characters import name_key
from gateway.ops.logging import configure_logging
from gateway.vault.models import Character, IdentityLink, Person
from plugins.nightcap.sheet import new_sheet
from tests.bench.pg import check_durable, durable_postgres
from tests.web.test_account_helpers import ACCOUNT

LINK = re.compile(r"(/login/[A-Za-z0-9_\-]+)")


def say(gateway: Gateway, text: str, who: str, st: bool = False) -> Any:
    message = InboundMessage(
        sender=Identity("console", who, who.title()),
        channel=Channel("console", "bench"),
        text=text,
        roles=frozenset({"storyteller"}) if st else frozenset(),
    )
    return gateway.services.handle(message)


class Served:
    def __init__(self, url: str) -> None:
        self.timings: dict[str, list[float]] = {}
        settings = Settings(vault={"url": url}, dice={"seed": 7})
        self.gateway = Gateway(settings, extra_plugins=ACCOUNT, platforms=("web",))
        self.app = build_app(self.gateway)
        self.app.middlewares.insert(0, self._timer)
        self.client = TestClient(TestServer(self.app, host="127.0.0.1"))

    @web.middleware
    async def _timer(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        started = time.perf_counter()
        response = await handler(request)
        route = request.match_info.route.resource
        name = route.canonical if route is not None else request.path
        self.timings.setdefault(name, []).append(time.perf_counter() - started)
        return response

    async def start(self) -> None:
        await self.gateway.upgrade_vault()
        await self.client.start_server()

    async def sign_in(self, who: str) -> str:
        (reply,) = await say(self.gateway, "web", who)
        path = LINK.search(reply.text).group(1)  # type: ignore[union-attr]
        response = await self.client.post(path, allow_redirects=False)
        self.client.session.cookie_jar.clear()  # each request names its session itself
        return response.cookies["gw_session"].value


async def fill(served: Served, total: int) -> None:
    """``total`` Nightcap characters in all (one per person), written in batches."""
    async with served.gateway.services.vault.transaction() as session:
        have = len((await session.exec(select(Character.id))).all())
    for start in range(have, total, 1000):
        async with served.gateway.services.vault.transaction() as session:
            for n in range(start, min(total, start + 1000)):
                person = Person(display_name=f"Player {n}")
                session.add(person)
                await session.flush()
                assert person.id is not None
                session.add(
                    IdentityLink(
                        key=f"console:p{n}", person_id=person.id, platform="console", display_name=f"P{n}"
                    )
                )
                name = f"Character {n:05d}"
                session.add(
                    Character(
                        owner_id=person.id,
                        system="nightcap",
                        name=name,
                        name_key=name_key(name),
                        sheet=new_sheet(),
                    )
                )


async def pages(served: Served, count: int, requests: int) -> dict[str, float]:
    await fill(served, count)
    st = await served.sign_in("sam")
    mira = await served.sign_in("mira")
    async with served.gateway.services.vault.transaction() as session:
        mine = (await session.exec(select(Character.id).where(col(Character.name) == "Mira"))).one()
    served.timings.clear()
    paths = {
        "/me": mira,
        f"/me/c/{mine}": mira,
        "/st?show=all": st,
        "/st?q=acter 0999": st,
        f"/st/c/{mine}": st,
        "/st/log": st,
    }
    medians: dict[str, float] = {}
    for path, cookie in paths.items():
        before = {k: len(v) for k, v in served.timings.items()}
        for _ in range(requests):
            response = await served.client.get(path, headers={"Cookie": f"gw_session={cookie}"})
            assert response.status == 200, (path, response.status)
            await response.read()
        got = [t for k, v in served.timings.items() for t in v[before.get(k, 0) :]]
        medians[path] = statistics.median(got) * 1000
    return medians


async def watch(url: str, cookie: str, viewers: int, expected: int) -> None:
    """The viewers' side (a child process): ``viewers`` streams; prints "ready", then, once each has
    seen ``expected`` rolls, one JSON line of [roll id, wall-clock arrival] per delivery."""
    arrivals: list[tuple[str, float]] = []

    async def view(http: ClientSession, opened: asyncio.Event) -> None:
        async with http.get(url, headers={"Cookie": f"gw_session={cookie}"}) as stream:
            await stream.content.readline()
            opened.set()
            seen = 0
            while seen < expected:
                line = await stream.content.readline()
                if line.startswith(b"data: "):
                    arrivals.append((json.loads(line[6:])["id"], time.time()))
                    seen += 1

    async with ClientSession(timeout=ClientTimeout(total=None, sock_read=120)) as http:
        flags = [asyncio.Event() for _ in range(viewers)]
        tasks = [asyncio.create_task(view(http, flag)) for flag in flags]
        await asyncio.gather(*(flag.wait() for flag in flags))
        print("ready", flush=True)
        await asyncio.gather(*tasks)
    print(json.dumps(arrivals), flush=True)


async def live(served: Served, viewers: int, rate: float, seconds: float) -> dict[str, float]:
    """Viewers in a child process (their parsing is not the server's load); rolls driven here."""
    cookie = await served.sign_in("sam")
    expected = int(rate * seconds)
    url = str(served.client.make_url("/st/log/stream"))
    child = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "tests.bench.web_live",
        "--watch",
        url,
        cookie,
        str(viewers),
        str(expected),
        stdout=asyncio.subprocess.PIPE,
    )
    assert child.stdout is not None
    assert (await child.stdout.readline()).strip() == b"ready"
    sent: dict[str, float] = {}
    answered: dict[str, float] = {}

    async def roll(n: int, handed: float) -> None:
        replies = await say(served.gateway, "roll 3", f"roller{n % 10}")
        sent[replies[0].result["id"]] = handed
        answered[replies[0].result["id"]] = time.time()  # committed: the roll's reply is back

    # Rolls arrive at the rate whatever one takes (a durable PostgreSQL commit waits for its fsync):
    # each is handed over on time, not after the one before it is answered.
    start = time.perf_counter()
    rolling = []
    for n in range(expected):
        await asyncio.sleep(max(0.0, start + n / rate - time.perf_counter()))  # pacing the load
        rolling.append(asyncio.create_task(roll(n, time.time())))
    await asyncio.gather(*rolling)
    achieved = expected / (time.perf_counter() - start)
    output, _ = await asyncio.wait_for(child.communicate(), seconds * 10 + 60)
    arrivals = json.loads(output)
    delays = sorted(at - sent[roll] for roll, at in arrivals if roll in sent)
    # After the commit: the live log's own part, without the wait for the vault to take the roll.
    after = sorted(at - answered[roll] for roll, at in arrivals if roll in answered)
    return {
        "deliveries": len(delays),
        "rate": achieved,
        "p50_ms": delays[len(delays) // 2] * 1000,
        "p99_ms": delays[int(len(delays) * 0.99) - 1] * 1000,
        "max_ms": delays[-1] * 1000,
        "after_p50_ms": after[len(after) // 2] * 1000,
        "after_p99_ms": after[int(len(after) * 0.99) - 1] * 1000,
    }


async def measure(label: str, url: str, args: argparse.Namespace) -> None:
    served = Served(url)
    await served.start()
    try:
        await say(served.gateway, "st add console:sam", "owner", st=True)
        await say(served.gateway, "char new Mira", "mira")
        for count in () if args.live_only else (10, 10_000):
            medians = await pages(served, count, args.requests)
            print(
                f"{label}: characters={count}: median server time per page (ms): "
                + ", ".join(f"{p} {m:.1f}" for p, m in medians.items())
            )
        result = await live(served, args.viewers, args.rate, args.seconds)
        print(
            f"{label}: live log: {args.viewers} viewers, {args.rate:g} rolls/s asked"
            f" ({result['rate']:.0f} achieved) for {args.seconds:g} s,"
            f" {result['deliveries']} of {args.viewers * int(args.rate * args.seconds)} deliveries:"
            f" delay from the roll handed over p50 {result['p50_ms']:.1f} ms, p99 {result['p99_ms']:.1f} ms,"
            f" max {result['max_ms']:.1f} ms; from its commit p50 {result['after_p50_ms']:.1f} ms,"
            f" p99 {result['after_p99_ms']:.1f} ms",
            flush=True,
        )
    finally:
        await served.client.close()  # stops the gateway too


async def main(args: argparse.Namespace) -> None:
    configure_logging("json", "warning")
    if args.vault:
        await measure("vault", args.vault, args)
        return
    if args.only in (None, "sqlite"):
        await measure("SQLite", f"sqlite+aiosqlite:///{Path(tempfile.mkdtemp()) / 'vault.db'}", args)
    if args.only in (None, "postgres"):
        if args.postgres:
            await check_durable(args.postgres)
            await measure("PostgreSQL", args.postgres, args)
        else:
            async with durable_postgres() as url:
                await measure("PostgreSQL", url, args)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--watch"]:
        asyncio.run(watch(sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])))
        sys.exit(0)
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--vault", help="measure this vault only (default: SQLite, then PostgreSQL)")
    parser.add_argument("--only", choices=("sqlite", "postgres"), help="one of the two")
    parser.add_argument("--postgres", help="a durable PostgreSQL to use (default: one started here)")
    parser.add_argument("--live-only", action="store_true", help="the live log only, no page timings")
    parser.add_argument("--viewers", type=int, default=100)
    parser.add_argument("--rate", type=float, default=100.0)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--requests", type=int, default=30, help="requests per page and size")
    asyncio.run(main(parser.parse_args()))
