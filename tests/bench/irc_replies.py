"""Benchmark: how soon a command in an IRC channel is answered while the Storyteller-log channel is busy.

A real miniircd on a free loopback port, one gateway with the IRC adapter (default outbox and IRC
settings: Sopel's pacing, a burst of 4 and a line a second), a client in the game channel and one in
the log channel. The log starts ``--backlog`` entries behind and gets ``--log-rate`` more a second
(more than the bucket's rate: the log channel stays busy all along; every roll adds its own line
too). The player says ``!roll 1`` every ``--every`` seconds, ``--commands`` times; the latency is from
the command's write to the reply's arrival at the player's client. Prints p50, p99, max, and how
many log lines went out meanwhile.

``--old`` runs the behaviour before the two lanes for comparison: one first-come-first-served queue
for every line, 2 s a line, no long-line penalty, log entries neither merged nor cut.

Run: ``.venv/bin/python -m tests.bench.irc_replies [--commands 20] [--every 2.0] [--backlog 30]
[--log-rate 2] [--old]``.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import adapters.irc.adapter as irc_adapter
from gateway.core.app import Gateway
from gateway.core.settings import Settings
from tests.irc.ircd import free_port, miniircd
from tests.irc.lineclient import Line, LineClient
from tests.irc.stlog import queue_log

WHERE = "irc:bench/#game"
OLD = {
    "send_interval": 2.0,
    "send_max_cost": 1.0,
    "log_merge": False,
    "log_max_lines": 0,
}


def from_bot(channel: str) -> Callable[[Line], bool]:
    return lambda ln: ln.command == "PRIVMSG" and ln.nick == "nightcap" and ln.params[0] == channel


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]


async def run(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        server = miniircd(Path(tmp), free_port())
        await server.start()
        gateway: Gateway | None = None
        clients: list[LineClient] = []
        try:
            st = LineClient(server.port, "storyteller")
            alice = LineClient(server.port, "alice")
            clients += [st, alice]
            for client, channel in ((st, "#st"), (alice, "#game")):
                await client.connect()
                await client.join(channel)
            network: dict[str, Any] = {"host": "127.0.0.1", "port": server.port, "tls": False}
            network["channels"] = ["#game"]
            if args.old:
                network.update(OLD)
                irc_adapter.LOG_KINDS = frozenset()  # every row in the one lane, as before
            settings = Settings(
                vault={"url": f"sqlite+aiosqlite:///{Path(tmp) / 'vault.db'}"},
                http={"enabled": False},
                stlog={"targets": ["irc:bench/#st"]},
                irc={"bench": network},
            )
            gateway = Gateway(settings, platforms=("irc",))
            await gateway.start()
            await st.wait_for(lambda ln: ln.command == "JOIN" and ln.nick == "nightcap", timeout=20)
            await alice.wait_for(lambda ln: ln.command == "JOIN" and ln.nick == "nightcap", timeout=20)

            await queue_log(gateway, [f"backlog entry {i}" for i in range(args.backlog)], where=WHERE)
            stop = asyncio.Event()

            async def feed() -> None:
                n = 0
                while not stop.is_set():
                    await asyncio.sleep(1 / args.log_rate)
                    n += 1
                    await queue_log(gateway, [f"log entry {n}: Storyteller bench set a field"], where=WHERE)

            feeder = asyncio.create_task(feed())
            loop = asyncio.get_running_loop()
            latencies: list[float] = []
            started = loop.time()
            for _ in range(args.commands):
                sent = loop.time()
                await alice.say("#game", "!roll 1")
                reply = await alice.wait_for(from_bot("#game"), timeout=600)
                latencies.append(reply.at - sent)
                await asyncio.sleep(max(0.0, sent + args.every - loop.time()))
            stop.set()
            await feeder
            elapsed = loop.time() - started
            logged = [ln for ln in st.lines if from_bot("#st")(ln)]
            mode = "old (one queue, 2 s a line)" if args.old else "two lanes, Sopel's pacing"
            print(f"IRC replies with a busy Storyteller log, {mode}:")
            print(
                f"  {args.commands} × !roll 1 every {args.every:g} s; log backlog {args.backlog}, "
                f"+{args.log_rate:g}/s and one per roll"
            )
            ms = [x * 1000 for x in latencies]
            print(
                f"  reply latency p50 {statistics.median(ms):.0f} ms, p99 {percentile(ms, 0.99):.0f} ms, "
                f"max {max(ms):.0f} ms; over 1 s: {sum(x > 1000 for x in ms)}"
            )
            rate = len(logged) / elapsed
            print(f"  log lines sent meanwhile: {len(logged)} in {elapsed:.1f} s ({rate:.2f}/s)")
        finally:
            for client in clients:
                await client.close()
            if gateway is not None:
                await gateway.stop()
            await server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--commands", type=int, default=20)
    parser.add_argument("--every", type=float, default=2.0, help="seconds between commands")
    parser.add_argument("--backlog", type=int, default=30, help="log entries queued at the start")
    parser.add_argument("--log-rate", type=float, default=2.0, help="log entries added a second")
    parser.add_argument("--old", action="store_true", help="the behaviour before: one queue, 2 s a line")
    args = parser.parse_args()
    t0 = time.perf_counter()
    asyncio.run(run(args))
    print(f"  (run took {time.perf_counter() - t0:.1f} s)")


if __name__ == "__main__":
    main()
